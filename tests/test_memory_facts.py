"""`estimate_facts`: the diagnose integration hook."""

from __future__ import annotations

from oomdoctor.facts import FACT_KEYS, Fact, FactSet, Origin
from oomdoctor.memory import estimate_facts
from oomdoctor.memory.dtypes import GIB
from test_memory_arch import CASES

CONFIG = str(CASES / "vllm-10511-llama3-8b-tp1" / "config.json")


def _facts(**kv: object) -> FactSet:
    return FactSet(Fact(k.replace("__", "."), v, Origin.LOG) for k, v in kv.items())


def _by_key(facts: list[Fact]) -> dict[str, Fact]:
    return {f.key: f for f in facts}


def test_fills_only_what_the_log_did_not_state() -> None:
    log = FactSet([
        Fact("framework", "vllm"),
        Fact("knob.max_model_len", 8192),
        Fact("knob.tensor_parallel_size", 1),
        Fact("knob.dtype", "torch.bfloat16"),
        Fact("mem.gpu_total_bytes", int(79.22 * GIB)),
        Fact("mem.weights_bytes", int(14.96 * GIB)),
    ])
    out = estimate_facts(log, CONFIG)
    keys = _by_key(out)
    assert "mem.weights_bytes" not in keys  # the log said it
    assert keys["mem.kv_bytes_per_token"].value == 131072
    assert keys["mem.kv_tokens"].value > 8192
    assert {"mem.non_torch_bytes", "mem.activation_peak_bytes", "mem.kv_cache_bytes"} <= keys.keys()
    assert keys["fit.max_model_len"].value == 8192
    assert keys["fit.max_num_seqs"].value >= 40
    for f in out:
        assert f.key in FACT_KEYS and f.origin == Origin.ESTIMATE
        assert isinstance(f.value, FACT_KEYS[f.key].type)
        assert f.evidence is not None and f.evidence.text


def test_weights_that_do_not_fit_suggest_tensor_parallel() -> None:
    log = _facts(framework="vllm", knob__max_model_len=8192, oom__gpu_total_bytes=16 * GIB)
    keys = _by_key(estimate_facts(log, CONFIG))
    assert keys["mem.kv_tokens"].value == 0
    assert keys["fit.tensor_parallel_size"].value == 2
    assert "fit.gpu_memory_utilization" not in keys


def test_log_numbers_alone_without_a_config() -> None:
    base = dict(framework="vllm", knob__max_model_len=131072, oom__kv_capacity_tokens=93760,
                knob__gpu_memory_utilization=0.9, mem__gpu_total_bytes=80 * GIB,
                oom__kv_available_bytes=int(4.21 * GIB))
    keys = _by_key(estimate_facts(_facts(**base, oom__kv_needed_bytes=8 * GIB), None))
    assert keys["fit.max_model_len"].value == 93760
    assert keys["fit.max_num_seqs"].value == 0
    assert keys["fit.gpu_memory_utilization"].value == 0.95  # 0.9 + (8 - 4.21) / 80, rounded up
    assert not any(k.startswith("mem.") for k in keys)
    too_much = _by_key(estimate_facts(_facts(**base, oom__kv_needed_bytes=16 * GIB), None))
    assert "fit.gpu_memory_utilization" not in too_much  # would leave no headroom


def test_engine_estimate_of_max_len_wins() -> None:
    log = _facts(framework="vllm", knob__max_model_len=131072, oom__max_model_len_estimate=34480,
                 oom__kv_capacity_tokens=34496)
    assert _by_key(estimate_facts(log, None))["fit.max_model_len"].value == 34480


def test_odd_knob_values_do_not_break_the_estimate() -> None:
    log = _facts(framework="vllm", knob__quantization="some-new-method", knob__max_model_len="8192",
                 mem__gpu_total_bytes=80 * GIB)
    keys = _by_key(estimate_facts(log, CONFIG))
    assert keys["mem.weights_bytes"].value == 8_030_261_248 * 2


def test_llamacpp_facts() -> None:
    cfg = str(CASES / "ollama-790-gemma-7b-2k-partial" / "config.json")
    log = _facts(framework="llamacpp", knob__max_model_len=2048, knob__quantization="Q4_0",
                 mem__gpu_total_bytes=6 * GIB)
    keys = _by_key(estimate_facts(log, cfg))
    assert keys["mem.kv_bytes_per_token"].value == 458752
    assert keys["mem.kv_tokens"].value == 2048
    assert "fit.gpu_layers" in keys


def test_llamacpp_partial_offload_puts_only_its_layers_on_the_gpu() -> None:
    """-ngl below the layer count: the GPU holds those layers' weights and KV cache, not the model's."""
    cfg = str(CASES / "ollama-790-gemma-7b-2k-partial" / "config.json")
    base = dict(framework="llamacpp", knob__max_model_len=2048, knob__quantization="Q4_0", mem__gpu_total_bytes=6 * GIB,
                knob__model_layers=28)
    whole = _by_key(estimate_facts(_facts(**base), cfg))
    part = _by_key(estimate_facts(_facts(**base, knob__gpu_layers=7), cfg))
    every = _by_key(estimate_facts(_facts(**base, knob__gpu_layers=99), cfg))
    assert part["mem.weights_bytes"].value == int(whole["mem.weights_bytes"].value * 7 / 28)
    assert part["mem.kv_cache_bytes"].value == int(whole["mem.kv_cache_bytes"].value * 7 / 28)
    assert "7 of 28 layers" in part["mem.weights_bytes"].evidence.text
    assert every["mem.weights_bytes"].value == whole["mem.weights_bytes"].value


def test_oom_keys_count_as_stated() -> None:
    log = _facts(framework="vllm", knob__max_model_len=8192, mem__gpu_total_bytes=80 * GIB,
                 oom__kv_capacity_tokens=5000, oom__non_torch_bytes=GIB)
    keys = _by_key(estimate_facts(log, CONFIG))
    assert "mem.kv_tokens" not in keys and "mem.non_torch_bytes" not in keys
    assert keys["fit.max_model_len"].value == 5000 // 16 * 16  # the engine's own capacity wins


def test_workers_named_in_the_log_split_the_weights_when_no_setting_does() -> None:
    from oomdoctor.ledger import parallel_split, weights_per_gpu

    base = [Fact("framework", "vllm"), Fact("model.params", 235_000_000_000), Fact("knob.dtype", "bfloat16")]
    eight = FactSet([*base, Fact("parallel.workers", 8)])
    assert parallel_split(eight) == (8, 1)
    assert weights_per_gpu(eight)[0] == 235e9 * 2 / 8
    assert parallel_split(FactSet([*base, Fact("parallel.workers", 8), Fact("knob.pipeline_parallel_size", 2)])) == (4, 2)
    assert parallel_split(FactSet([*base, Fact("parallel.workers", 8), Fact("knob.tensor_parallel_size", 4)])) == (4, 1)
    # a training script's ranks are data-parallel copies: each holds the whole model
    script = FactSet([Fact("framework", "transformers"), Fact("parallel.workers", 8)])
    assert parallel_split(script) == (1.0, 1)


def test_llama_cpp_over_several_cards_spreads_its_layers() -> None:
    from oomdoctor import ledger

    def split(framework: str, *used: str) -> bool:
        facts = FactSet([Fact("framework", framework), Fact("model.params", 70_000_000_000), Fact("knob.quantization", "Q4_K_M"),
                         Fact("gpu.count", 2), Fact("gpu.total_bytes", 24 * GIB), *(Fact("gpu.device_used", d) for d in used)])
        return any(f.key == "model.split_unknown" and f.value is True for f in ledger.derive(facts))

    # llama.cpp and Ollama put layers on every GPU they see: one card's share of the weights is not known
    assert split("llamacpp") and split("ollama") and split("llamacpp", "CUDA0", "CUDA1")
    # unless the engine says it loads onto one device ("using device CUDA0 ... MiB free", once)
    assert not split("llamacpp", "CUDA0")
    # a serving engine uses one GPU unless its parallel size says otherwise
    assert not split("vllm")


def test_bytes_per_param_of_quant_names_a_log_states() -> None:
    from oomdoctor.ledger import bytes_per_param

    # holdout r20: a k-quant file type is its block type, a few tensors kept wider (104B Q5_K_S: ~72 GB, not 208)
    assert bytes_per_param(None, "q5_k_s") == 5.5 / 8
    assert bytes_per_param(None, "Q3_K_L") > bytes_per_param(None, "q3_k_s")
    # vLLM's 4-bit MoE weight method
    assert bytes_per_param("bfloat16", "moe_wna16") < 0.6


def test_every_quantization_a_model_name_normalises_to_has_its_size() -> None:
    """The names memory.catalog reads from a model name weigh what they say, not 16 bits (holdout r34:
    "gemma-4-26B-A4B-it, 4-bit" was weighed at bf16, twice the card)."""
    from oomdoctor.ledger import bytes_per_param
    from oomdoctor.memory.catalog import split_quantization

    for name, expected in (("Llama-3.1-8B-Instruct-int4", 0.56), ("Qwen2.5-7B-Instruct-quantized.w4a16", 0.56),
                           ("Qwen2.5-7B-Instruct-GPTQ-Int8", 1.05), ("Mistral-7B-Instruct-v0.3-mlx-4bit", 0.56),
                           ("gemma-4-26B-A4B-it, 4-bit (mlx_vlm.convert -q --q-bits 4)", 0.56), ("phi-4 8 bit", 1.0),
                           # (MLX's community releases name the width alone: holdout r114, a 122B "-5bit" weighed at bf16)
                           ("Qwen3.5-122B-A10B-5bit", 0.69), ("Qwen3-30B-A3B-6bit", 0.81), ("Llama-3.2-3B-Instruct-3bit", 0.44)):
        quant, _ = split_quantization(name.lower(), gguf=False)
        assert bytes_per_param(None, quant) == expected, (name, quant)


def test_only_a_pool_the_engine_states_is_weighed_against_the_context() -> None:
    """vLLM refuses a context its KV pool cannot hold once: that is read from the pool the engine
    states, not from this tool's own estimate of it, which is within its error of the context
    (holdout r34: a 256 GiB request read as a pool 1.03x too small)."""
    from oomdoctor.ledger import derive

    base = [Fact("framework", "vllm"), Fact("model.default_context", 128000, Origin.CATALOG)]
    stated = FactSet(base + [Fact("mem.kv_tokens", 100000, Origin.LOG)])
    estimated = FactSet(base + [Fact("mem.kv_tokens", 124512, Origin.ESTIMATE)])
    assert [f.value for f in derive(stated) if f.key == "ratio.context_of_kv_pool"] == [1.28]
    assert [f for f in derive(estimated) if f.key == "ratio.context_of_kv_pool"] == []


def test_weights_offloaded_by_the_launch_are_not_counted_on_the_gpu() -> None:
    # vLLM's --cpu-offload-gb, read from the command into the facts, takes its GiB out of the weights per GPU
    base = dict(framework="vllm", knob__max_model_len=8192, knob__dtype="bfloat16", oom__gpu_total_bytes=24 * GIB)
    whole = _by_key(estimate_facts(_facts(**base), CONFIG))["mem.weights_bytes"].value
    kept = _by_key(estimate_facts(_facts(**base, knob__cpu_offload=6.0), CONFIG))["mem.weights_bytes"].value
    assert whole - kept == 6 * GIB
