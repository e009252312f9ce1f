"""A runtime's budget stated part by part: which part is out of line, and what fits."""

from __future__ import annotations

import pytest

from oomdoctor import ledger
from oomdoctor.facts import Evidence, Fact, FactSet, Origin

GB = 1 << 30


def _facts(**values: float | str) -> FactSet:
    return FactSet([Fact(k.replace("__", "."), v, Origin.LOG, Evidence("server.log", 1, "text")) for k, v in values.items()])


def _derived(facts: FactSet) -> dict[str, object]:
    return {f.key: f.value for f in ledger.derive(facts)}


def test_a_part_the_line_does_not_name_is_measured_and_sizes_the_sequences() -> None:
    # weights 19.74 + overhead 2.09 leave 4.43 of 26.26 GB, yet the KV part is -12.05: 16.48 GB unnamed,
    # 64 MB for each of the 256 sequences; 34 of them take half of the 4.43 GB left: 32
    facts = _facts(framework="vllm", oom__kind="no_kv_memory", mem__gpu_available_bytes=26.26 * GB, mem__weights_bytes=19.74 * GB,
                   mem__non_torch_bytes=2.09 * GB, mem__kv_cache_bytes=-12.05 * GB)
    got = _derived(facts)
    assert got["ratio.unstated_of_budget"] == pytest.approx(16.48 / 26.26)
    assert got["ratio.non_torch_of_budget"] == pytest.approx(2.09 / 26.26)
    assert got["fit.max_num_seqs"] == 32


def test_parts_that_add_up_leave_nothing_unnamed() -> None:
    # the overhead itself is past the budget: nothing is unaccounted, the overhead is the part out of line
    facts = _facts(framework="vllm", oom__kind="no_kv_memory", mem__gpu_available_bytes=36.98 * GB, mem__weights_bytes=13.76 * GB,
                   mem__non_torch_bytes=37.86 * GB, mem__kv_cache_bytes=-14.63 * GB, knob__max_num_seqs=8)
    got = _derived(facts)
    assert "ratio.unstated_of_budget" not in got
    assert got["ratio.non_torch_of_budget"] == pytest.approx(37.86 / 36.98)
    assert got["fit.max_num_seqs"] == 4  # the plain halving: no reservation to size it from


def test_a_positive_kv_part_is_not_read_for_unnamed_memory() -> None:
    facts = _facts(framework="vllm", mem__gpu_available_bytes=70 * GB, mem__weights_bytes=15 * GB, mem__non_torch_bytes=1 * GB,
                   mem__kv_cache_bytes=20 * GB)
    assert "ratio.unstated_of_budget" not in _derived(facts)


@pytest.mark.parametrize("quant, bytes_per_param", [("exl2-3.0bpw", 0.375), ("exl2-4.65bpw", 4.65 / 8), ("exl2", 0.56), ("awq", 0.56)])
def test_bits_per_weight_in_a_quant_name(quant: str, bytes_per_param: float) -> None:
    assert ledger.bytes_per_param(None, quant) == pytest.approx(bytes_per_param)


@pytest.mark.parametrize("quant, bits", [("iq4", 4.5), ("Q5", 5.5), ("q8", 8.5), ("IQ3", 3.5)])
def test_a_gguf_type_typed_as_its_width_alone(quant: str, bits: float) -> None:
    """'gemma-4-31b-iq4' as a user types it: about that many bits a weight, not 16."""
    assert ledger.bytes_per_param(None, quant) == pytest.approx(bits / 8)


def _ranked(value: float, line: int, rank: int) -> Fact:
    text = f"(Worker_TP{rank} pid=1) INFO [gpu_worker.py:298] Available KV cache memory: {value / GB:.2f} GiB"
    return Fact("mem.kv_cache_bytes", value, Origin.LOG, Evidence("server.log", line, text))


def test_ranks_that_disagree_on_kv_memory_show_a_gap() -> None:
    facts = FactSet([_ranked(-3.86 * GB, 5, 1), _ranked(9.90 * GB, 6, 0)])
    assert _derived(facts)["mem.kv_rank_gap_bytes"] == int(13.76 * GB)


def test_one_engine_run_after_another_is_no_rank_gap() -> None:
    # the same numbers from two attempts of a single-GPU engine name no ranks
    facts = FactSet([Fact("mem.kv_cache_bytes", v, Origin.LOG, Evidence("server.log", n, "Available KV cache memory"))
                     for v, n in ((-3.86 * GB, 5), (9.90 * GB, 40))])
    assert "mem.kv_rank_gap_bytes" not in _derived(facts)


@pytest.mark.parametrize(("values", "share", "exceeds"), [
    # 70 GB of weights in a 64 GB host: the model, not the RAM, is what to change
    ({"mem__weights_bytes": 70 * GB, "host__ram_total_bytes": 64 * GB}, 70 / 64, True),
    # a container's limit is the host that counts; set below the model, it is the limit that is wrong (below)
    ({"mem__weights_bytes": 14 * GB, "host__ram_total_bytes": 512 * GB, "host__cgroup_limit_bytes": 15 * GB}, 14 / 15, False),
    ({"mem__weights_bytes": 70 * GB, "host__ram_total_bytes": 64 * GB, "host__cgroup_limit_bytes": 60 * GB}, 70 / 60, True),
    # two tensor-parallel slices of 40 GB are one 80 GB model in a 256 GB host
    ({"mem__weights_bytes": 40 * GB, "knob__tensor_parallel_size": 2, "host__ram_total_bytes": 256 * GB}, 80 / 256, False),
    # the RAM unstated: larger than a workstation's 128 GiB
    ({"mem__weights_bytes": 381 * GB}, None, True),
    ({"mem__weights_bytes": 14 * GB}, None, False),
    # the RAM unstated on a server of four 40 GiB cards: at least twice their 160 GiB, so a 140 GiB model fits it
    ({"mem__weights_bytes": 35 * GB, "knob__tensor_parallel_size": 4, "gpu__total_bytes": 40 * GB}, None, False),
    ({"mem__weights_bytes": 35 * GB, "knob__tensor_parallel_size": 4}, None, True),
])
def test_the_whole_model_is_measured_against_the_host(values: dict[str, float], share: float | None, exceeds: bool) -> None:
    got = _derived(_facts(framework="vllm", oom__kind="killed", **values))
    assert got.get("ratio.weights_of_host") == (pytest.approx(share) if share is not None else None)
    assert got.get("model.exceeds_host", False) is exceeds


@pytest.mark.parametrize(("values", "below", "limit"), [
    # docker --memory=1g for a 0.56 B model in 16 bits: the limit is the setting to raise, to 1.5x the weights + 2 GiB
    ({"model__params": 560_000_000, "host__cgroup_limit_bytes": 1 * GB}, True, "4g"),
    ({"mem__weights_bytes": 14 * GB, "host__cgroup_limit_bytes": 15 * GB}, True, "23g"),
    # a limit the weights stay well under
    ({"mem__weights_bytes": 14 * GB, "host__cgroup_limit_bytes": 32 * GB}, False, None),
    # the machine's own RAM is below the model too: no limit would help, the model is what to change
    ({"mem__weights_bytes": 70 * GB, "host__ram_total_bytes": 64 * GB, "host__cgroup_limit_bytes": 60 * GB}, False, None),
])
def test_a_container_limit_below_the_model_is_the_limit_to_raise(values: dict[str, float], below: bool,
                                                                 limit: str | None) -> None:
    got = _derived(_facts(framework="tgi", **values))
    assert got.get("host.limit_below_model", False) is below
    assert got.get("fit.host_memory_limit") == limit


def test_what_a_rank_holds_is_measured_against_its_share_of_the_card() -> None:
    # gpu_memory_utilization 0.9 of a 16 GiB card is 14.4 GiB: 15.69 GiB held is that share, a little overrun
    got = _derived(_facts(framework="vllm", oom__kind="torch_oom", knob__gpu_memory_utilization=0.9, oom__gpu_total_bytes=16 * GB,
                          oom__torch_allocated_bytes=15.69 * GB))
    assert got["ratio.allocated_of_util_budget"] == pytest.approx(15.69 / 14.4)
    # outside the engines that size a pool by it, the setting means nothing to what PyTorch holds
    got = _derived(_facts(framework="transformers", oom__kind="torch_oom", knob__gpu_memory_utilization=0.9,
                          oom__gpu_total_bytes=16 * GB, oom__torch_allocated_bytes=15.69 * GB))
    assert "ratio.allocated_of_util_budget" not in got


def test_the_profile_peak_is_measured_against_the_engines_budget() -> None:
    # holdout r49: 7.09 GiB of activation peak in a 7.20 GiB budget (0.9 of an 8 GiB card), 72 MiB of weights
    got = _derived(_facts(framework="vllm", oom__kind="no_kv_memory", mem__budget_bytes=7.20 * GB, mem__activation_peak_bytes=7.09 * GB,
                          mem__weights_bytes=0.07 * GB))
    assert got["ratio.profile_peak_of_budget"] == pytest.approx(7.09 / 7.20)


@pytest.mark.parametrize(("origin", "context", "weighed"), [
    (Origin.ESTIMATE, None, False),  # llama.cpp's default context is a guess: its KV cache weighs nothing
    (Origin.ESTIMATE, 8192, True),  # at a context the user set, the estimate stands
    (Origin.LOG, None, True),  # the size llama.cpp printed
])
def test_a_kv_cache_at_a_guessed_context_is_not_weighed_against_the_device(origin: Origin, context: int | None, weighed: bool) -> None:
    ev = Evidence("server.log", 1, "text")
    facts = [Fact("framework", "llamacpp", Origin.LOG, ev), Fact("gpu.total_bytes", 4 * GB, Origin.CARD, ev),
             Fact("mem.kv_cache_bytes", 14 * GB, origin, ev)]
    if context:
        facts.append(Fact("knob.max_model_len", context, Origin.COMMAND, ev))
    assert ("ratio.kv_of_device" in _derived(FactSet(facts))) is weighed


def test_a_running_total_whose_buffers_are_unnamed_is_not_read_as_the_weights() -> None:
    # Metal's "(used / working set)" with no buffer named: which buffers filled it is unknown
    facts = _facts(framework="llamacpp", oom__kind="working_set_exceeded", mem__gpu_used_bytes=11.7 * GB, mem__gpu_available_bytes=10.7 * GB)
    got = _derived(facts)
    assert got["ratio.used_of_budget"] == pytest.approx(11.7 / 10.7)
    assert "ratio.weights_of_budget" not in got
    named = _facts(framework="llamacpp", oom__kind="working_set_exceeded", mem__gpu_used_bytes=11.7 * GB, mem__gpu_available_bytes=10.7 * GB,
                   mem__kv_cache_bytes=1 * GB)
    assert _derived(named)["ratio.weights_of_budget"] == pytest.approx(10.7 / 10.7)


def test_a_gguf_model_of_unnamed_type_is_sized_as_q4_k_m() -> None:
    # Ollama/llama.cpp run GGUF files: 8 B parameters without a type named are about 4.9 GB, not 16
    weights, _ = ledger.weights_per_gpu(_facts(framework="ollama", model__params=8e9))
    assert weights == pytest.approx(8e9 * ledger.bytes_per_param(None, ledger.GGUF_USUAL))
    assert 0.55 < weights / 8e9 < 0.65
    # a type the log names wins; a Python engine's unnamed dtype stays 16-bit
    assert ledger.weights_per_gpu(_facts(framework="ollama", model__params=8e9, knob__dtype="float16"))[0] == pytest.approx(16e9)
    assert ledger.weights_per_gpu(_facts(framework="vllm", model__params=8e9))[0] == pytest.approx(16e9)



def test_experts_llama_cpp_keeps_in_cpu_ram_are_not_counted_on_the_gpu() -> None:
    # holdout r130: gpt-oss-120b with -ot exps=CPU on a 12 GB card: the GPU holds the attention and dense parts only
    base = dict(framework="llamacpp", model__params=117e9, model__expert_params=114e9, knob__quantization="Q4_K_M")
    whole, _ = ledger.weights_per_gpu(_facts(**base))
    on_gpu, _ = ledger.weights_per_gpu(_facts(**base, knob__cpu_moe=True))
    assert on_gpu == pytest.approx(whole * 3 / 117)
    # --n-cpu-moe N: the first N of the layers' experts, as a share of the layers
    half, _ = ledger.weights_per_gpu(_facts(**base, knob__cpu_moe_layers=18, knob__model_layers=36))
    assert half == pytest.approx(whole * (117 - 57) / 117)
    # a dense model (no expert parameters known) keeps its size
    assert ledger.weights_per_gpu(_facts(framework="llamacpp", model__params=8e9, knob__cpu_moe=True))[0] == pytest.approx(
        ledger.weights_per_gpu(_facts(framework="llamacpp", model__params=8e9))[0])

def test_a_model_larger_than_any_discrete_card_is_said_so_when_no_card_is_named() -> None:
    got = _derived(_facts(framework="ollama", model__params=671e9, knob__quantization="Q4_K_M"))
    assert got["model.exceeds_any_gpu"] is True
    assert "model.exceeds_any_gpu" not in _derived(_facts(framework="ollama", model__params=70e9, knob__quantization="Q4_K_M"))
    assert "model.exceeds_any_gpu" not in _derived(_facts(framework="ollama", model__params=671e9, knob__quantization="Q4_K_M",
                                                          mem__gpu_total_bytes=80 * GB))


@pytest.mark.parametrize(("total_gb", "highest"), [(79.2, 0.49), (119.7, 0.65), (48.0, None)])
def test_a_negative_graph_estimate_bounds_the_fraction(total_gb: float, highest: float | None) -> None:
    # vLLM's "Estimated CUDA graph memory: -35.69 GiB" (holdout r94, vllm-44740) hands the KV cache 35.69 GiB past the
    # fraction: the highest fraction keeps that and 5% for the graphs outside it; on a 48 GB card none above 0.3 does
    facts = _facts(framework="vllm", mem__cuda_graph_estimate_bytes=-35.69 * GB, gpu__total_bytes=total_gb * GB)
    got = _derived(facts)
    assert got.get("fit.gpu_memory_utilization_graph_headroom") == highest
    assert "mem.cuda_graph_estimate_out_of_line" not in got


def test_weights_read_as_zero_give_no_share_of_the_split_model() -> None:
    """A garbled weights line read as 0 bytes (found by the fuzz test) must not divide by zero; with real
    weights the share that says one rank holds the whole model is there."""
    zero = _derived(_facts(mem__weights_bytes=0, knob__tensor_parallel_size=2, oom__torch_allocated_bytes=20 * GB))
    assert "ratio.allocated_of_model" not in zero
    real = _derived(_facts(mem__weights_bytes=10 * GB, knob__tensor_parallel_size=2, oom__torch_allocated_bytes=20 * GB))
    assert real["ratio.allocated_of_model"] == pytest.approx(1.0)


@pytest.mark.parametrize(("values", "room"), [
    ({"mem__free_stated_bytes": 8 * GB}, True),  # round 60's SGLang: 8.38 GB free when capture began
    ({"mem__free_stated_bytes": 3 * GB}, False),  # under 4 GiB: capture could have used it
    # graphs already captured took a quarter or more of what they left (round 63: 6.19 GB of graphs, 5.24 GB left)
    ({"mem__free_stated_bytes": 5 * GB, "mem__cuda_graph_bytes": 6 * GB, "mem__free_after_capture_bytes": 5 * GB}, False),
    ({"mem__free_stated_bytes": 31 * GB, "mem__cuda_graph_bytes": 1 * GB, "mem__free_after_capture_bytes": 31 * GB}, True),
])
def test_room_to_spare_is_stated_free_memory_that_graphs_do_not_come_near(values: dict[str, float], room: bool) -> None:
    assert (_derived(_facts(framework="sglang", **values)).get("mem.stated_room_to_spare") is True) is room


def test_the_stated_concurrency_sizes_the_pool_against_the_context() -> None:
    # "Maximum concurrency for 131072 tokens per request: 0.22x": the pool holds 0.22 of one full-length request
    facts = _facts(framework="vllm", knob__max_model_len=131072, mem__max_concurrency=0.22)
    assert _derived(facts)["ratio.context_of_kv_pool"] == pytest.approx(1 / 0.22)
    # a pool stated in tokens is read as stated
    facts = _facts(framework="vllm", knob__max_model_len=131072, mem__max_concurrency=0.22, mem__kv_tokens=65536)
    assert _derived(facts)["ratio.context_of_kv_pool"] == pytest.approx(2.0)


def test_a_parallel_size_no_deployment_has_is_not_read() -> None:
    # a garbled config line ("tensor_parallel_size=1e39"): the split falls back, and the fits stay finite
    facts = _facts(framework="vllm", knob__tensor_parallel_size=10**39, mem__weights_bytes=140 * GB, oom__gpu_total_bytes=80 * GB)
    assert ledger.parallel_split(facts) == (1.0, 1)
    assert _derived(facts)["fit.tensor_parallel_size"] == 4


def test_the_context_set_is_weighed_against_the_weights_where_it_is_allocated_up_front() -> None:
    # Llama 2 13B's config: 40 layers x 40 KV heads x 128 x 2 (K, V) x 2 bytes = 800 KiB a token; -c 65536 in f16 asks
    # 50 GiB of KV beside 10 GiB of Q6_K weights (the source articles' check of KV beside the weights)
    base = dict(model__kv_bytes_per_token=819200, knob__max_model_len=65536, mem__weights_bytes=10 * GB)
    assert _derived(_facts(framework="llamacpp", **base))["ratio.kv_estimate_of_weights"] == pytest.approx(5.0)
    # a quantized KV cache asks less (q8_0: 34 bytes a block of 32 values)
    q8 = _derived(_facts(framework="llamacpp", knob__kv_cache_dtype="q8_0", **base))["ratio.kv_estimate_of_weights"]
    assert q8 == pytest.approx(5.0 * 34 / 32 / 2)
    # vLLM sizes its pool from the memory left, not from the context: no such share
    assert "ratio.kv_estimate_of_weights" not in _derived(_facts(framework="vllm", **base))


def test_the_catalog_states_a_models_kv_per_token() -> None:
    from oomdoctor.context import from_model

    facts = {f.key: f.value for f in from_model("yarn-llama-2-13b-128k.Q6_K.gguf").facts}
    assert facts["model.kv_bytes_per_token"] == 40 * 40 * 128 * 2 * 2
    # a model whose sliding-window layers cache only their window: the engine's layout decides, no figure
    gemma = {f.key for f in from_model("google/gemma-2-9b-it").facts}
    assert "model.params" in gemma and "model.kv_bytes_per_token" not in gemma


def test_a_unified_pool_is_the_models_to_fill_when_it_is_small_or_the_weights_take_most_of_it() -> None:
    # an 8 GB Jetson, weights unstated: a model plausibly outgrows it
    jetson = _derived(_facts(gpu__unified_memory=True, gpu__total_bytes=7.6 * GB, oom__kind="kernel_oom_kill"))
    assert jetson["model.may_fill_unified_pool"] is True
    # DGX Spark's GB10 (about 121 GiB), weights unstated: few models outgrow it, the kill is read as the host's
    spark = dict(gpu__unified_memory=True, gpu__total_bytes=121.7 * GB, oom__kind="kernel_oom_kill")
    assert "model.may_fill_unified_pool" not in _derived(_facts(**spark))
    # the same pool with 100 GiB of weights stated: the model is what filled it
    assert _derived(_facts(mem__weights_bytes=100 * GB, **spark))["model.may_fill_unified_pool"] is True
    # weights well under a small pool fit it: something else took the memory
    assert "model.may_fill_unified_pool" not in _derived(_facts(mem__weights_bytes=2 * GB, gpu__unified_memory=True,
                                                                gpu__total_bytes=15 * GB))
    # a discrete card: no such reading
    assert "model.may_fill_unified_pool" not in _derived(_facts(gpu__total_bytes=8 * GB, oom__kind="kernel_oom_kill"))
