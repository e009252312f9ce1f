"""The fit solver and the memory map."""

from __future__ import annotations

from dataclasses import replace

from oomdoctor.memory import EstimateSettings, Framework, check, estimate, load_model, memory_map, solve
from oomdoctor.memory.dtypes import GIB
from test_memory_arch import CASES

LLAMA3 = load_model(str(CASES / "vllm-10511-llama3-8b-tp1" / "config.json"))
QWEN32 = load_model(str(CASES / "llamacpp-11200-qwen25-32b-q8kv-2gpu" / "config.json"))
LONG = replace(LLAMA3, arch=replace(LLAMA3.arch, max_position_embeddings=131072))


def test_max_model_len_is_the_largest_that_fits() -> None:
    e = estimate(LONG, EstimateSettings(gpu_memory_bytes=24 * GIB, max_model_len=131072))
    f = solve(e)
    assert f.current.fits is False
    n = f.max_model_len
    assert n and n % 16 == 0
    assert check(estimate(LONG, replace(e.settings, max_model_len=n))).fits
    assert not check(estimate(LONG, replace(e.settings, max_model_len=n + 16))).fits


def test_concurrency_and_fraction() -> None:
    e = estimate(LLAMA3, EstimateSettings(gpu_memory_bytes=int(79.22 * GIB), max_model_len=8192))
    f = solve(e)
    assert f.current.fits and f.current.within_headroom
    assert f.max_num_seqs == e.kv_tokens // 8192
    u = f.gpu_memory_utilization
    assert u is not None and u < 0.9
    assert (estimate(LLAMA3, replace(e.settings, gpu_memory_utilization=u)).kv_tokens or 0) >= 8192
    assert (estimate(LLAMA3, replace(e.settings, gpu_memory_utilization=u - 0.01)).kv_tokens or 0) < 8192


def test_weights_that_do_not_fit_need_more_gpus() -> None:
    e = estimate(LLAMA3, EstimateSettings(gpu_memory_bytes=16 * GIB, max_model_len=8192))
    f = solve(e)
    assert f.current.fits is False and e.kv_tokens == 0
    assert f.tensor_parallel_size == 2
    assert f.gpu_memory_utilization is None  # no fraction within the headroom helps


def test_high_fraction_breaks_the_headroom() -> None:
    e = estimate(LLAMA3, EstimateSettings(gpu_memory_bytes=24 * GIB, gpu_memory_utilization=0.98))
    assert check(e).within_headroom is False


def test_kv_dtype_ladder_for_llamacpp() -> None:
    s = EstimateSettings(framework=Framework.LLAMACPP, quantization="Q4_K_M", gpu_memory_bytes=24 * GIB,
                         max_model_len=16384, flash_attention=True)
    f = solve(estimate(QWEN32, s))
    assert f.current.fits is False
    assert f.kv_cache_dtype == "q8_0"
    assert f.max_model_len and f.max_model_len % 256 == 0 and f.max_model_len < 16384
    assert f.gpu_layers is not None and 0 < f.gpu_layers < 64


def test_memory_map_grows_along_both_axes() -> None:
    e = estimate(LLAMA3, EstimateSettings(gpu_memory_bytes=24 * GIB, max_model_len=8192))
    mm = memory_map(e)
    assert mm.contexts == (1024, 2048, 4096, 8192)
    assert len(mm.cells) == len(mm.concurrencies)
    for row in mm.cells:
        assert [c.used_bytes for c in row] == sorted(c.used_bytes for c in row)
    first_col = [row[0].used_bytes for row in mm.cells]
    assert first_col == sorted(first_col)
    assert mm.cells[0][0].fits is True and mm.cells[-1][-1].fits is False
    for row in mm.cells:  # once a row stops fitting it never fits again
        flags = [c.fits for c in row]
        assert flags == sorted(flags, reverse=True)


def test_without_a_card_nothing_is_solved() -> None:
    f = solve(estimate(LLAMA3, EstimateSettings(max_model_len=8192)))
    assert f.current.fits is None and f.max_model_len is None and f.tensor_parallel_size is None
