"""Framework budget policies: how each engine turns the card into a KV pool."""

from __future__ import annotations

import pytest

from oomdoctor.memory import EstimateSettings, Framework, Given, Source, estimate, load_model
from oomdoctor.memory.dtypes import GIB
from test_memory_arch import CASES


def model(case: str):
    return load_model(str(CASES / case / "config.json"))


LLAMA3 = "vllm-10511-llama3-8b-tp1"


def test_vllm_budget_identity_with_the_logs_own_figures() -> None:
    """vLLM printed: 79.22 GiB x 0.9 = 71.29 usable = 14.96 weights + 1.79 non-torch + 1.26 peak + 53.29 KV."""
    given = Given(weights_bytes=int(14.96 * GIB), non_torch_bytes=int(1.79 * GIB),
                  activation_peak_bytes=int(1.26 * GIB))
    e = estimate(model(LLAMA3), EstimateSettings(gpu_memory_bytes=int(79.22 * GIB), max_model_len=8192), given)
    assert e.kv_tokens == pytest.approx(53.29 * GIB / 131072, rel=0.002)
    assert e.kv_tokens % 16 == 0  # whole 16-token blocks
    assert e.ledger.weights.source == e.ledger.framework.source == e.ledger.activations.source == Source.GIVEN
    assert e.ledger.capacity.bytes == int(79.22 * GIB)
    assert e.ledger.free.bytes == pytest.approx(79.22 * 0.1 * GIB, rel=0.001)


def test_vllm_estimated_pool_within_five_percent() -> None:
    for tp, want in ((1, 436552), (2, 966164)):
        e = estimate(model(LLAMA3), EstimateSettings(gpu_memory_bytes=int(79.22 * GIB), max_model_len=8192,
                                                     tensor_parallel_size=tp))
        assert e.kv_tokens == pytest.approx(want, rel=0.05)
        assert e.budget.utilization == 0.9 and not e.budget.utilization_given
        assert e.ledger.weights.source == Source.ESTIMATE


def test_vllm_nothing_left_for_kv_is_zero_tokens() -> None:
    """RTX 4060 8 GiB at 0.7: weights 5.2 GiB + peaks exceed the 5.6 GiB budget."""
    e = estimate(model("vllm-13882-qwen25-7b-4bit-rtx4060"),
                 EstimateSettings(dtype="float16", quantization="awq", gpu_memory_bytes=8 * GIB,
                                  gpu_memory_utilization=0.7, max_model_len=4096))
    assert e.kv_tokens == 0 and e.kv_cache_bytes == 0


def test_vllm_activation_peak_follows_the_batched_token_budget() -> None:
    base = dict(gpu_memory_bytes=80 * GIB, max_model_len=32768)
    m = model(LLAMA3)
    no_chunk = estimate(m, EstimateSettings(**base, enable_chunked_prefill=False))
    chunk = estimate(m, EstimateSettings(**base, enable_chunked_prefill=True))
    assert no_chunk.budget.batched_tokens == 32768 and chunk.budget.batched_tokens == 2048
    assert no_chunk.budget.activation_bytes > chunk.budget.activation_bytes
    assert no_chunk.kv_tokens < chunk.kv_tokens


def test_vllm_version_defaults() -> None:
    m = model(LLAMA3)
    new = estimate(m, EstimateSettings(gpu_memory_bytes=80 * GIB, framework_version="0.10.1"))
    old = estimate(m, EstimateSettings(gpu_memory_bytes=80 * GIB))
    assert (new.budget.sequences, old.budget.sequences) == (1024, 256)
    assert new.budget.activation_bytes > old.budget.activation_bytes  # sampler warm-up over 1024 requests


def test_sglang_fraction_covers_weights_and_pool() -> None:
    m = model("sglang-21348-qwen3-235b-fp8-tp4")
    s = EstimateSettings(framework=Framework.SGLANG, quantization="fp8", tensor_parallel_size=4,
                         gpu_memory_utilization=0.93, gpu_memory_bytes=int(79.11 * GIB), max_model_len=40960)
    e = estimate(m, s)
    assert e.kv_cache_bytes == int(79.11 * GIB * 0.93) - e.weights_bytes - e.budget.non_torch_bytes
    assert e.kv_tokens == pytest.approx(367404, rel=0.05)  # '#tokens: 367404' on 4x H100 80GB
    default = estimate(m, EstimateSettings(framework=Framework.SGLANG, quantization="fp8", tensor_parallel_size=4,
                                           gpu_memory_bytes=int(79.11 * GIB)))
    assert default.budget.utilization == 0.85


def test_tensorrt_llm_fraction_of_free_memory() -> None:
    e = estimate(model("trtllm-224-llama2-7b-a10"),
                 EstimateSettings(framework=Framework.TRTLLM, gpu_memory_utilization=0.95, gpu_memory_bytes=24 * GIB))
    free = 24 * GIB - e.weights_bytes - e.budget.non_torch_bytes - e.budget.activation_bytes
    assert e.kv_cache_bytes == int(free * 0.95)
    assert e.kv_tokens == e.kv_cache_bytes // 524288


def test_llamacpp_and_ollama_cache_is_n_ctx_cells() -> None:
    m = model("ollama-790-gemma-7b-2k-partial")
    lc = estimate(m, EstimateSettings(framework=Framework.LLAMACPP, max_model_len=8192, max_num_seqs=4))
    assert lc.kv_tokens == 8192  # -c is the total over the slots
    ol = estimate(m, EstimateSettings(framework=Framework.OLLAMA, max_model_len=2048, max_num_seqs=4))
    assert ol.kv_tokens == 2048 * 4  # num_ctx is per request
    assert ol.kv_cache_bytes == 8192 * 458752
    assert ol.budget.utilization is None


def test_unknown_card_leaves_capacity_open() -> None:
    e = estimate(model(LLAMA3), EstimateSettings(max_model_len=8192))
    assert e.kv_tokens is None
    assert e.ledger.capacity.bytes is None and e.ledger.free.bytes is None
    assert e.ledger.kv_cache.bytes == 8192 * 131072  # one full-length request
