"""From the numbers a log states to derived shares, fit values and the four-account ledger.

Pure functions over a FactSet. Every value computed here is marked `estimate` unless it
is a restatement of the engine's own figure. The architecture-level estimator (model
configs, GGUF) lives in `oomdoctor.memory` and is merged by `diagnose()` when a model
config is given.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Iterable

from oomdoctor.errors import InputError
from oomdoctor.facts import Evidence, Fact, FactSet, Origin, Value, format_bytes
from oomdoctor.model import Account, LedgerEntry

GIB = 1 << 30
BLOCK = 16  # vLLM's default KV block size in tokens
HEADROOM = 0.9  # keep ~10% of the card free (DOMAIN.md)

# bytes per parameter for a dtype or quantization name
_BPP = {
    "float32": 4.0, "float": 4.0, "fp32": 4.0, "f32": 4.0,
    "float16": 2.0, "half": 2.0, "fp16": 2.0, "bfloat16": 2.0, "bf16": 2.0, "f16": 2.0, "auto": 2.0,
    "fp8": 1.0, "int8": 1.0, "w8a8": 1.0, "fbgemm_fp8": 1.0, "bnb-8bit": 1.05, "gptq_int8": 1.05, "q8_0": 1.0625,
    "eetq": 1.0, "exl2": 0.56, "marlin": 0.56, "bitsandbytes-nf4": 0.56, "bitsandbytes-fp4": 0.56, "nf4": 0.56,
    "awq": 0.56, "gptq": 0.56, "awq_marlin": 0.56, "gptq_marlin": 0.56, "bnb-4bit": 0.56, "bitsandbytes": 0.56, "moe_wna16": 0.56,
    "q4_k_m": 0.61, "q4_0": 0.57, "q5_k_m": 0.71, "q6_k": 0.82, "q3_k_m": 0.49, "q2_k": 0.42, "mxfp4": 0.53,
    "nvfp4": 0.56, "fp4": 0.56,
    # what the model-name reader (memory.catalog) normalises names to
    "int4": 0.56, "w4a16": 0.56, "w8a16": 1.0, "gptq-int8": 1.05, "mlx-4bit": 0.56, "mlx-8bit": 1.0, "mlx-6bit": 0.81, "mlx-3bit": 0.44,
    "mlx-2bit": 0.31, "mlx-5bit": 0.69, "mlx-7bit": 0.94,
}


_KQUANT_MIX = re.compile(r"(q[2-6])_k_([sml])")
# an EXL2/EXL3 quant's bits per weight as its name gives them: "exl2-3.0bpw", "4.65bpw"
_BPW = re.compile(r"(\d+(?:\.\d+)?)bpw")
# a GGUF type given by its width alone, as people type it ("iq4", "Q5"): that many bits and about half a bit of block scales
_GGML_WIDTH = re.compile(r"i?q([2-8])")


def bytes_per_param(dtype: Value | None, quant: Value | None) -> float:
    from oomdoctor.memory.dtypes import GGML_BLOCKS, IK_TYPES_BPW, ggml_bits_per_weight
    from oomdoctor.memory.quant import normalise_name

    for name in (quant, dtype):
        if isinstance(name, str):
            key = name.lower().replace("torch.", "")
            bpw = _BPW.search(key)
            if bpw and 1.5 <= float(bpw.group(1)) <= 8.5:
                return float(bpw.group(1)) / 8
            if key in _BPP:
                return _BPP[key]
            if key in GGML_BLOCKS or key in IK_TYPES_BPW:  # a GGUF type by its ggml name (IQ4_NL, IQ2_XXS, ...)
                return ggml_bits_per_weight(key) / 8
            mix = _KQUANT_MIX.fullmatch(key)  # a k-quant file type (Q5_K_S): its block type, a few tensors kept wider
            if mix:
                return ggml_bits_per_weight(mix.group(1) + "_k") / 8 * {"s": 1.0, "m": 1.08, "l": 1.15}[mix.group(2)]
            width = _GGML_WIDTH.fullmatch(key)
            if width:
                return (int(width.group(1)) + 0.5) / 8
            alias = normalise_name(key)  # a release's own spelling of a type ("Q4_K_XL", unsloth's dynamic files)
            if alias and alias.lower() != key:
                return bytes_per_param(None, alias)
            for k, v in _BPP.items():
                if k in key:
                    return v
    return 2.0


def _ev(facts: FactSet, *keys: str) -> Evidence | None:
    for k in keys:
        f = facts.get(k)
        if f is not None and f.evidence is not None:
            return f.evidence
    return None


def gpu_total(facts: FactSet) -> float | None:
    total = facts.number("mem.gpu_total_bytes", "oom.gpu_total_bytes", "oom.gpu_limit_bytes", "gpu.total_bytes")
    if total is None:
        # an engine that states what its weights took and what was free after them (SGLang's "Load weight
        # end"): together, the card less its CUDA context
        weights, free = facts.number("mem.weights_bytes"), facts.number("mem.free_after_load_bytes")
        if weights is not None and free is not None:
            total = weights + free
    return total


_SPREAD_MAPS = ("auto", "balanced", "balanced_low_0", "sequential")


def _split_unknown(facts: FactSet) -> bool:
    """Several GPUs are in use and nothing says how the model is split over them: an estimate of the
    weights per GPU is a guess. The failure naming device 1 or later says so whatever the engine; several
    cards known says so for a script and for llama.cpp and Ollama, which spread the layers over the GPUs they
    see (the other serving engines use one GPU unless told, and print it)."""
    if facts.has("knob.tensor_parallel_size") or facts.has("parallel.workers"):
        return False
    if facts.value("parallel.device_map") in _SPREAD_MAPS:  # accelerate spreads the layers over however many GPUs it sees
        return True
    device, count = facts.value("oom.device"), facts.number("gpu.count")
    if isinstance(device, str) and device.isdigit() and int(device) >= 1:
        return True
    used = set(facts.values("gpu.device_used"))  # the devices the engine says it loads onto, where it lists them
    if used:
        count = len(used)
    return bool(count and count >= 2) and facts.value("framework") in ("transformers", "pytorch", "other", "llamacpp", "ollama")


# the most memory one discrete card holds (gpus.json: AMD Instinct MI355X); Apple's unified memory goes beyond it
LARGEST_DISCRETE_GPU_BYTES = 309_216_673_792
DATA_CENTRE_CARD_BYTES = 84_943_715_697  # an 80 GB H100 as CUDA reports it (79.11 GiB; the card table)

# what a GGUF model runs in when nothing names its type: Ollama's library tags without a quantization, and
# the file most downloads pick
GGUF_USUAL = "Q4_K_M"


def sized_quantization(framework: Value | None, dtype: Value | None, quant: Value | None) -> Value | None:
    """The quantization to size the weights by: the one named, else a GGUF runtime's usual one (a model
    llama.cpp or Ollama runs is a GGUF file, not 16-bit weights), else none."""
    if dtype is None and quant is None and framework in ("llamacpp", "ollama"):
        return GGUF_USUAL
    return quant


def _on_unified_memory(facts: FactSet) -> bool:
    """The GPU shares the host's RAM: the card says so (`--gpu`, a probe) or the log does."""
    return facts.value("gpu.unified_memory") is True or "unified_memory" in facts.values("oom.hint")


def weights_per_gpu(facts: FactSet) -> tuple[float | None, str]:
    w = facts.number("mem.weights_bytes")
    if w is not None:
        f = facts.get("mem.weights_bytes")
        return w, "log" if f and f.origin is Origin.LOG else "estimate"
    whole = facts.get("mem.weights_total_bytes")
    if whole is not None and whole.origin is Origin.LOG and isinstance(whole.value, int):
        # llama.cpp/Ollama state the whole model and place it by layers (where the GPU shares the host's RAM, the
        # layers left on the CPU take from the same memory)
        offloaded, layers = facts.number("mem.layers_offloaded"), facts.number("mem.layers_total")
        unified = _on_unified_memory(facts)
        on_gpus = whole.value * min(1.0, offloaded / layers) if offloaded is not None and layers and not unified else float(whole.value)
        return on_gpus / default_split(facts), "log"
    params = facts.number("model.params")
    if params is None:
        return None, "estimate"
    named = facts.get("model.params")
    tp, pp = parallel_split(facts)
    dtype = facts.value("knob.dtype")
    bpp = bytes_per_param(dtype, sized_quantization(facts.value("framework"), dtype, facts.value("knob.quantization")))
    source = "catalog" if named is not None and named.origin is Origin.CATALOG else "estimate"
    return (params - _experts_in_host_ram(facts)) * bpp / (tp * pp), source


def _experts_in_host_ram(facts: FactSet) -> float:
    """Parameters llama.cpp keeps in CPU RAM by the launch: every layer's experts (--cpu-moe, -ot exps=CPU) or
    the first N layers' (--n-cpu-moe N, as a share of the layers)."""
    experts = facts.number("model.expert_params")
    if not experts:
        return 0.0
    if facts.value("knob.cpu_moe") is True:
        return experts
    n, layers = facts.number("knob.cpu_moe_layers"), facts.number("knob.model_layers")
    return experts * min(1.0, n / layers) if n and layers else 0.0


# engines that spread a model over every GPU they see unless told otherwise (llama.cpp's and Ollama's
# layer split, the DeepSpeed launcher's ranks); vLLM, SGLang and LMDeploy use one. TGI counts the
# entries of CUDA_VISIBLE_DEVICES/NVIDIA_VISIBLE_DEVICES, and docker's `--gpus all` sets the latter to
# "all": one shard unless --num-shard says more.
_SPLIT_BY_DEFAULT = ("llamacpp", "ollama", "deepspeed")


def default_split(facts: FactSet) -> float:
    count = facts.number("gpu.count")
    return max(1.0, count) if count and facts.value("framework") in _SPLIT_BY_DEFAULT else 1.0


MAX_PARALLEL = 4096  # more GPUs than any one model is split over
# engines whose workers each hold a slice of the model (tensor x pipeline parallel)
_WORKERS_SHARD = ("vllm", "sglang", "tgi", "lmdeploy")


def parallel_split(facts: FactSet) -> tuple[float, float]:
    """(tensor, pipeline) parallel sizes: as set; else the workers the log's prefixes name, for an
    engine whose workers each hold a slice; else how the engine spreads a model by default."""
    pp = facts.number("knob.pipeline_parallel_size") or 1
    tp = facts.number("knob.tensor_parallel_size")
    # (a size no deployment has is a garbled line, not a setting)
    pp = pp if 1 <= pp <= MAX_PARALLEL else 1
    tp = tp if tp is not None and 1 <= tp <= MAX_PARALLEL else None
    if tp is None:
        workers = facts.number("parallel.workers")
        if workers and workers >= 2 and facts.value("framework") in _WORKERS_SHARD:
            tp = max(1.0, workers / pp)
    return tp or default_split(facts), pp


VLLM_DEFAULT_SEQS = 256  # vLLM's max_num_seqs when unset (0.10+ takes 1024 on cards of 70 GiB or more: a fit from 256 is then on the low side)


def _pow2_floor(n: float, floor: int = 1) -> int:
    return max(floor, 2 ** int(math.log2(max(n, 1))))


def _est(key: str, value: Value, ev: Evidence | None) -> Fact:
    return Fact(key, value, Origin.ESTIMATE, ev)


def derive(facts: FactSet) -> list[Fact]:
    """Shares and fit values from the stated numbers; nothing the log already states."""
    out: list[Fact] = []
    total = gpu_total(facts)
    out.extend(_shares(facts, total))
    out.extend(_fits(facts, total))
    out.extend(_context_of_pool(facts))
    out.extend(_low_bit(facts))
    out.extend(_rank_gap(facts))
    out.extend(_integrated_failed(facts))
    out.extend(_idle_gpus(facts))
    out.extend(_context_left_to_model(facts, total))
    out.extend(_unified_pool(facts, total))
    first: dict[str, Fact] = {}
    for f in out:  # the first derivation of a key is the most specific one
        if not facts.has(f.key):
            first.setdefault(f.key, f)
    return list(first.values())


LONG_CONTEXT = 262144  # a model that advertises this many tokens: its KV cache at that context is several times its weights


def _context_left_to_model(facts: FactSet, total: float | None) -> Iterable[Fact]:
    """No context set, in an engine that then sizes its KV cache for the model's own (llama.cpp's own tools, vLLM,
    SGLang; not a wrapper with a context of its own), for a model of 256K tokens or more whose weights fit the card."""
    framework = facts.value("framework")
    if framework not in ("llamacpp", "vllm", "sglang") or facts.has("knob.max_model_len"):
        return
    if framework == "llamacpp" and "llamacpp_wrapper" in map(str, facts.values("oom.hint")):
        return
    context = facts.number("model.default_context")
    if not context or context < LONG_CONTEXT:
        return
    weights, room = facts.number("mem.weights_bytes", "mem.weights_estimate_bytes"), facts.number("mem.budget_bytes") or total
    if weights and room and weights >= room:
        return  # weights that alone do not fit come first
    yield _est("mem.context_left_to_model", True, _ev(facts, "model.default_context"))


LARGE_UNIFIED_POOL = 60 << 30  # DGX Spark's GB10 (about 120 GiB), a 64 GB Mac: few models outgrow it


def _unified_pool(facts: FactSet, total: float | None) -> Iterable[Fact]:
    """On a GPU that shares the host's RAM (Jetson, Apple silicon, GB10): whether the model may be what filled the one
    pool. Its weights take most of it; or, with the weights unstated, the pool is small enough that a model
    plausibly outgrows it (an 8 GB Jetson, a 16 GB Mac), which a pool of 60 GiB or more seldom is."""
    if not _on_unified_memory(facts):
        return
    weights, _ = weights_per_gpu(facts)
    if weights is not None and total:
        if weights / total >= 0.6:
            yield _est("model.may_fill_unified_pool", True, _ev(facts, "mem.weights_bytes", "model.params"))
    elif not total or total < LARGE_UNIFIED_POOL:
        yield _est("model.may_fill_unified_pool", True, _ev(facts, "gpu.total_bytes", "oom.hint"))


def _integrated_failed(facts: FactSet) -> Iterable[Fact]:
    """The failing device is the integrated GPU of a machine that lists another one: the runtime
    split the model onto a carve-out of host RAM beside the real card."""
    device = facts.value("oom.device")
    if device is not None and str(device) in map(str, facts.values("gpu.integrated_device")) and len(set(facts.values("gpu.name"))) >= 2:
        yield _est("oom.on_integrated_gpu", True, _ev(facts, "oom.device"))


WORKSTATION_RAM = 128 << 30  # more RAM than a workstation holds: a model this size needs a server


# engines that run on one GPU unless the command splits the model (llama.cpp, Ollama and
# device_map="auto" spread over every visible GPU by themselves)
_ONE_GPU_ENGINES = frozenset({"vllm", "sglang", "tgi", "lmdeploy", "tensorrt-llm", "aphrodite"})


def _idle_gpus(facts: FactSet) -> Iterable[Fact]:
    """GPUs the machine has that the engine's split leaves unused: sharding over them is the cheapest fix."""
    count = facts.number("gpu.count")
    if not count or facts.value("framework") not in _ONE_GPU_ENGINES:
        return
    used = math.prod(parallel_split(facts))
    if count > used:
        yield _est("gpu.idle_count", int(count - used), _ev(facts, "gpu.count", "knob.tensor_parallel_size"))


def _host_share(facts: FactSet, weights: float | None, total: float | None) -> Iterable[Fact]:
    """The whole model (`weights` per GPU) against the host's RAM (or its container's limit):
    loaders stage weights through host memory, so a model as large as the RAM cannot load,
    whatever the GPUs hold. Where the log does not state the RAM, a model larger than a
    workstation's is measured against that, or against twice the GPUs' memory on a server
    with more of it (servers carry at least that much RAM beside their GPUs)."""
    if weights is None:
        return
    tp, pp = parallel_split(facts)
    whole = weights * tp * pp
    limit, ram = facts.number("host.cgroup_limit_bytes"), facts.number("host.ram_total_bytes")
    host = limit if limit is not None else ram  # a container's limit is the host that counts
    ev = _ev(facts, "host.cgroup_limit_bytes", "host.ram_total_bytes", "mem.weights_bytes", "model.params")
    if host:
        yield _est("ratio.weights_of_host", whole / host, ev)
    available = facts.number("host.ram_available_bytes")
    if available:  # what a launcher found free as it started (koboldcpp's "Detected Available RAM")
        yield _est("ratio.weights_of_host_available", whole / available, _ev(facts, "host.ram_available_bytes"))
    if limit and whole >= 0.9 * limit and not (ram and whole >= 0.9 * ram):
        # a container limit set below the model: the limit is the setting to change, not the model
        yield _est("host.limit_below_model", True, ev)
        yield _est("fit.host_memory_limit", f"{math.ceil(whole * 1.5 / GIB) + 2}g", ev)
        return
    if not host and "host_resident_weights" in facts.values("oom.hint"):
        return  # an engine that keeps the weights in RAM by design runs on a host sized for them: no assumed RAM to compare
    gpus = max(facts.number("gpu.count") or 1, tp * pp)
    assumed = max(WORKSTATION_RAM, 2 * gpus * total) if total else WORKSTATION_RAM
    if whole >= 0.9 * (host or assumed):
        yield _est("model.exceeds_host", True, ev)


# 4- and 8-bit weights by name (bitsandbytes, AWQ, GPTQ, int4/int8): what a quantized run's resident set is measured against
_LOW_BIT = re.compile(r"(?i)4bit|8bit|nf4|awq|gptq|int4|int8")


def _low_bit(facts: FactSet) -> Iterable[Fact]:
    if any(isinstance(q, str) and _LOW_BIT.search(q) for q in facts.values("knob.quantization")):
        yield _est("model.low_bit_weights", True, _ev(facts, "knob.quantization"))


def _shares(facts: FactSet, total: float | None) -> Iterable[Fact]:
    ev = _ev(facts, "oom.gpu_total_bytes", "mem.gpu_total_bytes")
    weights, source = weights_per_gpu(facts)
    if weights is not None and source in ("estimate", "catalog") and not facts.has("mem.weights_bytes"):
        yield _est("mem.weights_estimate_bytes", int(weights), _ev(facts, "model.params"))
    if weights is not None and source == "log":
        yield _est("mem.weights_stated", True, _ev(facts, "mem.weights_bytes"))
    if weights is not None and source != "log" and _split_unknown(facts):
        yield _est("model.split_unknown", True, _ev(facts, "oom.device", "gpu.count"))
    if weights is not None and not total and weights > LARGEST_DISCRETE_GPU_BYTES and facts.value("gpu.backend") != "metal":
        # no card is named, but none made holds this much: the engine split the model (or could not load it)
        yield _est("model.exceeds_any_gpu", True, _ev(facts, "mem.weights_bytes", "model.params"))
    if total:
        if weights is not None:
            yield _est("ratio.weights_of_total", weights / total, _ev(facts, "mem.weights_bytes", "model.params"))
        for key, src in (
            ("ratio.allocated_of_total", "oom.torch_allocated_bytes"),
            ("ratio.process_of_total", "oom.process_bytes"),
            ("ratio.unallocated_of_total", "oom.torch_unallocated_bytes"),
            ("ratio.request_of_total", "oom.requested_bytes"),
            ("ratio.free_of_total", "oom.gpu_free_bytes"),
            ("ratio.private_pools_of_total", "oom.private_pool_bytes"),
            ("ratio.activations_of_total", "mem.activation_peak_bytes"),
        ):
            v = facts.number(src)
            if v is not None:
                yield _est(key, v / total, _ev(facts, src))
        other = facts.number("oom.other_process_bytes", "gpu.other_process_bytes")
        if other is not None:
            yield _est("ratio.other_process_of_total", other / total, _ev(facts, "oom.other_process_bytes", "gpu.other_process_bytes"))
        non_torch = _non_torch(facts, total)
        if non_torch is not None:
            yield _est("oom.non_torch_bytes", int(non_torch), ev)
            yield _est("ratio.non_torch_of_total", non_torch / total, ev)
            # less what this process itself holds outside its pool (its CUDA context, cuBLAS/cuDNN workspaces): what
            # is left is another tenant's, or a library's buffer
            from oomdoctor.memory.activations import CUDA_CONTEXT_BYTES

            yield _est("ratio.foreign_of_total", max(0.0, non_torch - CUDA_CONTEXT_BYTES) / total, ev)
            held = facts.number("oom.torch_allocated_bytes")
            if held is not None and total > non_torch:
                # of what this process's PyTorch could have had (the card less what it never held: a desktop,
                # the CUDA context, other tenants), the share it holds
                yield _est("ratio.allocated_of_usable", held / (total - non_torch), ev)
    req, free = facts.number("oom.requested_bytes"), facts.number("oom.gpu_free_bytes")
    if req is not None and free is not None:
        yield _est("ratio.request_of_free", req / max(free, 1.0), _ev(facts, "oom.requested_bytes"))
    yield from _share(facts, "ratio.request_of_available", "oom.requested_bytes", "mem.gpu_available_bytes")
    yield from _share(facts, "ratio.request_of_activations", "oom.requested_bytes", "mem.activation_peak_bytes")
    tp, allocated = facts.number("knob.tensor_parallel_size"), facts.number("oom.torch_allocated_bytes")
    if weights and allocated:  # far above 1: what is allocated is mostly something besides the weights
        yield _est("ratio.allocated_of_weights", allocated / weights, _ev(facts, "oom.torch_allocated_bytes"))
    if weights and tp and tp >= 2 and allocated:  # (weights read as 0 from a garbled line give no share)
        # near 1: one rank holds the whole model, as if it had not been split over the others
        yield _est("ratio.allocated_of_model", allocated / (weights * tp), _ev(facts, "oom.torch_allocated_bytes"))
    yield from _share(facts, "ratio.kv_of_weights", "mem.kv_total_bytes", "mem.weights_total_bytes")
    yield from _kv_estimate_share(facts, weights)
    yield from _share(facts, "ratio.compute_of_available", "mem.compute_buffer_bytes", "mem.gpu_available_bytes")
    yield from _share(facts, "ratio.compute_of_kv", "mem.compute_buffer_bytes", "mem.kv_total_bytes")
    seqs, seq_len = facts.number("knob.max_num_seqs"), facts.number("knob.max_model_len")
    if "kv_preallocated" in facts.values("oom.hint") and seqs and seq_len:
        # a cache built at start-up for max_batch_size x max_seq_len tokens (Meta's reference scripts)
        yield _est("mem.planned_cache_tokens", int(seqs * seq_len), _ev(facts, "knob.max_model_len"))
    yield from _share(facts, "ratio.layer_of_compute", "mem.layer_bytes", "mem.compute_buffer_bytes")
    yield from _share(facts, "ratio.request_of_process", "oom.requested_bytes", "oom.process_bytes")
    yield from _share(facts, "ratio.limit_of_total", "oom.gpu_limit_bytes", "oom.gpu_total_bytes")
    largest, request = facts.number("model.largest_tensor_params"), facts.number("oom.requested_bytes")
    if largest and request:  # a weight being placed is at most this; checkpoints are read at 16 bits or more
        per = max(2.0, bytes_per_param(facts.value("knob.dtype"), None))
        yield _est("ratio.request_of_largest_tensor", request / (largest * per), _ev(facts, "oom.requested_bytes"))
    if weights and request:  # near 1: one allocation the size of the model's whole share of the device (its weights buffer)
        yield _est("ratio.request_of_weights", request / weights, _ev(facts, "oom.requested_bytes"))
    host_req = facts.number("mem.host_required_bytes", "oom.host_required_bytes")
    host_avail = facts.number("oom.host_available_bytes", "host.ram_available_bytes", "host.cgroup_limit_bytes")
    if host_req is not None and host_avail:
        yield _est("ratio.host_required_of_available", host_req / host_avail, _ev(facts, "mem.host_required_bytes", "oom.host_required_bytes"))
    whole = facts.number("mem.weights_total_bytes") or (weights * math.prod(parallel_split(facts)) if weights else None)
    if host_req is not None and whole:  # many times the whole model: something else (a KV cache) is most of it
        yield _est("ratio.host_required_of_weights", host_req / whole, _ev(facts, "mem.host_required_bytes", "oom.host_required_bytes"))
    planned, seen = facts.number("mem.gpu_planned_bytes"), facts.number("mem.gpu_available_bytes")
    kv_need = facts.number("mem.kv_total_bytes")
    if kv_need and seen and facts.value("framework") in ("llamacpp", "ollama"):
        yield _est("ratio.kv_of_available", kv_need / seen, _ev(facts, "mem.kv_total_bytes"))
    if planned and seen:
        yield _est("ratio.planned_of_available", planned / seen, _ev(facts, "mem.gpu_planned_bytes"))
    kv_dev, budget = facts.number("mem.kv_cache_bytes"), facts.number("mem.gpu_available_bytes", "mem.gpu_total_bytes", "gpu.total_bytes")
    kv_fact = facts.get("mem.kv_cache_bytes")
    # llama.cpp's KV estimated at a context nobody stated weighs nothing against the device: its default
    # was 512, then 4096, then the model's whole training context, and each wrapper sets its own
    guessed = (kv_fact is not None and kv_fact.origin is Origin.ESTIMATE and not facts.number("knob.max_model_len")
               and facts.value("framework") == "llamacpp")
    if kv_dev and budget and not guessed and facts.value("framework") in ("llamacpp", "ollama"):
        yield _est("ratio.kv_of_device", kv_dev / budget, _ev(facts, "mem.kv_cache_bytes"))
    yield from _budget_shares(facts, total, weights)
    yield from _host_share(facts, weights, total)
    yield from _share(facts, "ratio.host_of_required", "mem.host_required_bytes", "mem.required_bytes")
    yield from _share(facts, "ratio.kv_of_required", "mem.kv_total_bytes", "mem.required_bytes")
    # what the runtime needs for the loaded model (`ollama ps`) against its weights: far above 1, the context's KV cache
    yield from _share(facts, "ratio.required_of_weights", "mem.required_bytes", "mem.weights_total_bytes")
    yield from _share(facts, "ratio.compute_of_required", "mem.compute_buffer_bytes", "mem.required_bytes")
    yield from _share(facts, "ratio.graphs_of_free_after", "mem.cuda_graph_bytes", "mem.free_after_capture_bytes")
    yield from _graph_estimate_out_of_line(facts, total, weights)
    yield from _stated_room(facts)


ROOM_TO_SPARE = 4 << 30  # free at a step's start that graphs for the usual batch sizes do not come near


def _stated_room(facts: FactSet) -> Iterable[Fact]:
    """The engine last stated 4 GiB or more free before the failure, and the graphs it captured took under a
    quarter of what they left: a step that stopped there had room to spare."""
    free = facts.number("mem.free_stated_bytes")
    if free is None or free < ROOM_TO_SPARE:
        return
    graphs, after = facts.number("mem.cuda_graph_bytes"), facts.number("mem.free_after_capture_bytes")
    if graphs is not None and after and graphs / after > 0.25:
        return
    yield _est("mem.stated_room_to_spare", True, _ev(facts, "mem.free_stated_bytes"))


# CUDA graphs for the usual capture sizes take a few GiB at most (a small share of the card, well under the weights)
GRAPH_ESTIMATE_SHARE_OF_TOTAL = 0.2
GRAPH_ESTIMATE_SHARE_OF_WEIGHTS = 0.5
GRAPH_ESTIMATE_UNCOMPARED_BYTES = 16 << 30  # with neither the card nor the weights known
GRAPH_REAL_SHARE = 0.05  # room for what the graphs really take, outside the pool


def _graph_estimate_out_of_line(facts: FactSet, total: float | None, weights: float | None) -> Iterable[Fact]:
    """The engine's estimate of its CUDA graphs' memory against the card and the weights (per GPU): an estimate
    far above what graphs take is what left the KV cache no room, not the budget."""
    estimate = facts.number("mem.cuda_graph_estimate_bytes")
    if estimate is None:
        return
    if estimate < 0:
        # a negative estimate is added to the KV budget: the pool takes that much beyond the fraction, and only a
        # fraction that leaves it outside (with a little for the graphs' real size) keeps the card's total in bounds
        if total:
            excess = -estimate
            highest = math.floor((1 - excess / total - GRAPH_REAL_SHARE) * 100) / 100
            if highest >= 0.3:
                yield _est("fit.gpu_memory_utilization_graph_headroom", highest, _ev(facts, "mem.cuda_graph_estimate_bytes"))
        return
    known = [(estimate / whole, limit) for whole, limit in ((total, GRAPH_ESTIMATE_SHARE_OF_TOTAL), (weights, GRAPH_ESTIMATE_SHARE_OF_WEIGHTS))
             if whole]
    if any(share >= limit for share, limit in known) or (not known and estimate >= GRAPH_ESTIMATE_UNCOMPARED_BYTES):
        yield _est("mem.cuda_graph_estimate_out_of_line", True, _ev(facts, "mem.cuda_graph_estimate_bytes"))


# engines that allocate a context's whole KV cache when the context is created (llama.cpp's n_ctx, which its slots share)
_CONTEXT_UP_FRONT = ("llamacpp", "ollama")


def _kv_estimate_share(facts: FactSet, weights: float | None) -> Iterable[Fact]:
    """The KV cache the set context asks of the model (its config's KV per token x n_ctx, at the KV type set) against its
    weights, for an engine that allocates the context up front: the source articles' check of KV beside the weights."""
    per_token, context = facts.number("model.kv_bytes_per_token"), facts.number("knob.max_model_len")
    if not per_token or not context or not weights or facts.value("framework") not in _CONTEXT_UP_FRONT:
        return
    from oomdoctor.memory.dtypes import parse_kv_dtype

    kv_type = facts.value("knob.kv_cache_dtype")
    try:
        kv = parse_kv_dtype(str(kv_type) if kv_type else "auto", "float16")
    except InputError:
        return
    need = per_token * (kv.k_bytes + kv.v_bytes) / 4.0 * context
    split = default_split(facts)
    yield _est("ratio.kv_estimate_of_weights", need / (weights * split), _ev(facts, "knob.max_model_len"))
    total = gpu_total(facts)
    if total and total > weights:  # the weights fit: does the context's cache fit what they leave? (the articles' second step)
        yield _est("ratio.kv_estimate_of_left", need / split / (total - weights), _ev(facts, "knob.max_model_len"))


def _share(facts: FactSet, key: str, part: str, whole: str) -> Iterable[Fact]:
    """`key` = part / whole, where both are stated (and the whole is not zero)."""
    num, den = facts.number(part), facts.number(whole)
    if num is not None and den:
        yield _est(key, num / den, _ev(facts, part))


def _budget_shares(facts: FactSet, total: float | None, weights: float | None) -> Iterable[Fact]:
    """Shares of what the runtime said it may use (a working set, an 'available' budget), of
    memory held before the engine started, of a single-buffer cap, and of this process's
    memory that PyTorch does not hold."""
    # a runtime's own breakdown of what the device held (AWS Neuron's): the model's tensors, and the runtime's own
    # buffers, the rest of what it held
    held, tensors = facts.number("oom.runtime_used_bytes"), facts.number("oom.runtime_tensors_bytes")
    if held and tensors is not None:
        overhead = max(0.0, held - tensors)
        yield _est("oom.runtime_overhead_bytes", int(overhead), _ev(facts, "oom.runtime_used_bytes"))
        yield _est("ratio.runtime_overhead_of_used", overhead / held, _ev(facts, "oom.runtime_used_bytes"))
        yield _est("ratio.runtime_tensors_of_used", tensors / held, _ev(facts, "oom.runtime_tensors_bytes"))
    budget = facts.number("mem.gpu_available_bytes")
    ev = _ev(facts, "mem.gpu_available_bytes")
    used = facts.number("mem.gpu_used_bytes")
    named = facts.number("mem.kv_cache_bytes", "mem.compute_buffer_bytes", "mem.weights_bytes") is not None
    if used is not None and named and facts.value("oom.kind") == "working_set_exceeded":
        # Metal's running total holds the weights, the KV cache and the compute buffers: what the named
        # cache and compute buffers leave of it is the weights, when the log names no larger weights buffer
        # (a total whose buffers the log does not name says nothing of which of them it holds)
        rest = used - (facts.number("mem.kv_cache_bytes") or 0.0) - (facts.number("mem.compute_buffer_bytes") or 0.0)
        if rest > (weights or 0.0):
            weights = rest
    # vLLM's profile: its activation peak and the KV pool it left, against the engine's own budget
    # (total x gpu_memory_utilization); the weights against that budget where no other is stated
    yield from _share(facts, "ratio.profile_peak_of_budget", "mem.activation_peak_bytes", "mem.budget_bytes")
    # the model's own parts (its weights and the profiled step's peak) against that budget: what they leave is
    # the room the KV pool should have found
    own_budget, peak = facts.number("mem.budget_bytes"), facts.number("mem.activation_peak_bytes")
    if own_budget and weights is not None and peak is not None:
        yield _est("ratio.model_of_budget", (weights + peak) / own_budget, _ev(facts, "mem.weights_bytes", "mem.activation_peak_bytes"))
    stated = facts.get("mem.budget_bytes")
    if stated is not None and stated.origin is Origin.LOG:  # the engine's own accounting, not the estimator's
        yield from _share(facts, "ratio.kv_of_budget", "mem.kv_cache_bytes", "mem.budget_bytes")
        if not budget and isinstance(stated.value, (int, float)) and stated.value and weights is not None:
            yield _est("ratio.weights_of_budget", weights / stated.value, _ev(facts, "mem.weights_bytes", "model.params"))
    if budget:
        if weights is not None:
            # (the layers spread over several devices: what they have free together is the weights' budget)
            spread = facts.number("mem.devices_free_bytes") or budget
            yield _est("ratio.weights_of_budget", weights / spread, _ev(facts, "mem.weights_bytes", "model.params"))
        act = facts.number("mem.activation_peak_bytes")
        if act is not None:
            yield _est("ratio.activations_of_budget", act / budget, _ev(facts, "mem.activation_peak_bytes"))
        if used is not None:
            yield _est("ratio.used_of_budget", used / budget, _ev(facts, "mem.gpu_used_bytes") or ev)
        yield from _share(facts, "ratio.non_torch_of_budget", "mem.non_torch_bytes", "mem.gpu_available_bytes")
        yield from _unstated(facts, budget)
    initial = facts.number("mem.initial_usage_bytes")
    if initial is not None and total:
        # what was in use before this engine: the initial usage less its own weights and context
        before = initial - (facts.number("mem.weights_bytes") or 0.0) - (facts.number("mem.non_torch_bytes") or 0.0)
        yield _est("ratio.used_before_start_of_total", max(0.0, before) / total, _ev(facts, "mem.initial_usage_bytes"))
    at_start = facts.number("mem.used_at_start_bytes")
    if at_start is not None and total:
        yield _est("ratio.used_before_start_of_total", at_start / total, _ev(facts, "mem.used_at_start_bytes"))
    req, cap = facts.number("oom.requested_bytes"), facts.number("oom.buffer_limit_bytes")
    if req is not None and cap:
        yield _est("ratio.request_of_buffer_limit", req / cap, _ev(facts, "oom.buffer_limit_bytes"))
    held, slack = facts.number("oom.torch_allocated_bytes"), facts.number("oom.torch_unallocated_bytes")
    util = facts.number("knob.gpu_memory_utilization")
    if util and held is not None and total and facts.value("framework") in _WORKERS_SHARD:
        yield _est("ratio.allocated_of_util_budget", held / (util * total), _ev(facts, "oom.torch_allocated_bytes"))
    if req is not None and slack:
        yield _est("ratio.request_of_unallocated", req / slack, _ev(facts, "oom.torch_unallocated_bytes"))
    if req is not None and held is not None and total:
        # the most the device could have had free: what this process's PyTorch did not reserve
        yield _est("ratio.request_of_outside_pool", req / max(total - held - (slack or 0.0), 1.0), _ev(facts, "oom.requested_bytes"))
    process = facts.number("oom.process_bytes")
    if process is not None and held is not None and total:
        outside = process - held - (slack or 0.0)
        yield _est("ratio.process_non_torch_of_total", max(0.0, outside) / total, _ev(facts, "oom.process_bytes"))


_RANK = re.compile(r"\b(?:TP|rank[= ]?|Worker_?TP)(\d+)\b")


def _rank_gap(facts: FactSet) -> Iterable[Fact]:
    """Ranks of one engine sizing their KV memory from their own card: one with none left and
    another with room means the cards were not alike when it started (another process on one)."""
    per_rank: dict[str, Fact] = {}
    for f in facts.all("mem.kv_cache_bytes"):
        rank = _RANK.search(f.evidence.text) if f.origin is Origin.LOG and f.evidence else None
        if rank:
            per_rank[rank.group(1)] = f
    if len(per_rank) < 2:
        return
    low = min(per_rank.values(), key=lambda f: float(f.value))
    high = max(per_rank.values(), key=lambda f: float(f.value))
    gap = float(high.value) - float(low.value)
    if float(low.value) <= 0 < float(high.value) and gap >= 1 << 30:
        yield Fact("mem.kv_rank_gap_bytes", int(gap), Origin.ESTIMATE, low.evidence)


def _unstated_bytes(facts: FactSet) -> float | None:
    """What a budget line's parts leave unaccounted where its KV part came out at zero or below (all from the log)."""
    kv, weights, budget = facts.get("mem.kv_cache_bytes"), facts.get("mem.weights_bytes"), facts.number("mem.gpu_available_bytes")
    if kv is None or weights is None or not budget or kv.origin is not Origin.LOG or weights.origin is not Origin.LOG or float(kv.value) > 0:
        return None
    parts = float(weights.value) + (facts.number("mem.non_torch_bytes") or 0.0) + (facts.number("mem.activation_peak_bytes") or 0.0)
    rest = budget - parts - float(kv.value)
    return rest if rest > 0 else None


def _seqs_beside_reservation(facts: FactSet) -> int | None:
    """The sequences whose per-sequence reservation (the unaccounted part, split over max_num_seqs)
    takes at most half of what the stated parts leave, so the rest goes to KV blocks."""
    rest = _unstated_bytes(facts)
    kv = facts.number("mem.kv_cache_bytes")
    if rest is None or kv is None or rest < 0.2 * (facts.number("mem.gpu_available_bytes") or math.inf):
        return None
    seqs = facts.number("knob.max_num_seqs") or (VLLM_DEFAULT_SEQS if facts.value("framework") == "vllm" else None)
    left = rest + kv  # what the reservation and the KV blocks share
    if not seqs or left <= 0:
        return None
    fit = _pow2_floor(0.5 * left / (rest / seqs))
    return fit if 1 <= fit < seqs else None


def _unstated(facts: FactSet, budget: float) -> Iterable[Fact]:
    """A runtime that left nothing for the KV cache states its budget part by part (weights,
    overhead, the profiled activations, the KV remainder). Where those parts, all from the log,
    leave room the KV part does not show, something the line does not name took it (a
    per-sequence state reservation, a draft model)."""
    rest = _unstated_bytes(facts)
    if rest is not None:
        yield _est("ratio.unstated_of_budget", rest / budget, _ev(facts, "mem.kv_cache_bytes"))


def _non_torch(facts: FactSet, total: float) -> float | None:
    """Memory on the device outside this process's PyTorch pool (other processes, CUDA
    context, NCCL, cuBLAS), from the OOM message's own numbers."""
    allocated = facts.number("oom.torch_allocated_bytes")
    unalloc = facts.number("oom.torch_unallocated_bytes") or 0.0
    free = facts.number("oom.gpu_free_bytes")
    if allocated is None or free is None:
        return None
    return max(0.0, total - free - allocated - unalloc)


def _pool_tokens(facts: FactSet) -> float | None:
    """The tokens the KV pool holds (mem.kv_tokens, stated or estimated), or vLLM V0's block count in blocks of BLOCK tokens,
    or the engine's "Maximum concurrency for N tokens per request: Cx" (the pool holds C requests of N tokens)."""
    tokens = facts.number("mem.kv_tokens")
    blocks = facts.number("mem.gpu_blocks")
    if tokens is None and blocks and facts.value("framework") == "vllm":
        return blocks * BLOCK
    concurrency, context = facts.number("mem.max_concurrency"), facts.number("knob.max_model_len")
    if tokens is None and concurrency and context:
        return concurrency * context
    return tokens


def _serving_context(facts: FactSet) -> float | None:
    """max_model_len as set; vLLM and SGLang serve the model's own context when it is not."""
    wanted = facts.number("knob.max_model_len")
    if not wanted and facts.value("framework") in ("vllm", "sglang"):
        return facts.number("model.default_context")
    return wanted


def _context_of_pool(facts: FactSet) -> Iterable[Fact]:
    """One full-length sequence against the KV pool the engine sized: vLLM and SGLang refuse to
    serve a max_model_len the pool cannot hold once (vLLM V0 states the pool in blocks of 16 tokens,
    and a context left unset is the model's own)."""
    if facts.value("framework") not in ("vllm", "sglang"):
        return
    stated = facts.get("mem.kv_tokens")
    if stated is not None and stated.origin is Origin.ESTIMATE:
        return  # a pool this tool estimated is within its own error of the context: only the engine's word decides
    tokens = _pool_tokens(facts)
    wanted = _serving_context(facts)
    if tokens and wanted:
        yield _est("ratio.context_of_kv_pool", wanted / tokens, _ev(facts, "mem.kv_tokens", "mem.gpu_blocks"))


def _fits(facts: FactSet, total: float | None) -> Iterable[Fact]:
    ev = _ev(facts, "oom.max_model_len_estimate", "oom.kv_capacity_tokens", "mem.kv_tokens")
    # largest context the KV pool holds
    estimate = facts.number("oom.max_model_len_estimate")
    capacity = facts.number("oom.kv_capacity_tokens")
    if estimate is not None:
        yield _est("fit.max_model_len", int(estimate), ev)
    elif capacity is not None:
        yield _est("fit.max_model_len", int(capacity) - int(capacity) % BLOCK, ev)
    else:
        tokens, wanted = _pool_tokens(facts), _serving_context(facts)
        fw = facts.value("framework")
        if tokens and wanted and tokens < wanted and fw not in ("llamacpp", "ollama"):
            yield _est("fit.max_model_len", int(tokens) - int(tokens) % BLOCK, ev)
        elif wanted and fw in ("llamacpp", "ollama"):
            yield _est("fit.max_model_len", _ggml_fit_context(facts, wanted), _ev(facts, "knob.max_model_len"))
        elif wanted and facts.value("phase") in ("kv_alloc", "decode", "prefill"):
            yield _est("fit.max_model_len", max(1024, int(wanted) // 2 // BLOCK * BLOCK), _ev(facts, "knob.max_model_len"))
    limited, limit = facts.value("oom.limited_knob"), facts.number("oom.stated_limit")
    if limited in ("max_num_seqs", "max_model_len", "max_num_batched_tokens", "max_total_tokens") and limit:
        yield _est(f"fit.{limited}", int(limit), _ev(facts, "oom.stated_limit"))
    yield from _fit_util(facts, total)
    yield from _fit_batch(facts)
    yield from _fit_weights(facts, total)
    yield from _fit_swap(facts)
    yield from _fit_cpu_kv(facts)
    yield from _fit_pool_cap(facts)
    shm_req = facts.number("oom.shm_requested_bytes")
    shm = f"{max(2, math.ceil(2 * shm_req / GIB))}g" if shm_req else "16g"
    yield _est("fit.shm_size", shm, _ev(facts, "oom.shm_requested_bytes", "host.shm_total_bytes"))


def _fit_swap(facts: FactSet) -> Iterable[Fact]:
    """vLLM's CPU swap space per GPU (GiB) that its own check passes without a warning: the swap
    space of all the node's tensor-parallel GPUs within 40% of the host's RAM (above 70% it refuses to start)."""
    if "host_swap_over_ram" not in facts.values("oom.kind"):
        return
    ram = facts.number("oom.host_available_bytes")
    if ram:
        tp = facts.number("knob.tensor_parallel_size") or 1
        yield _est("fit.swap_space", int(0.4 * ram / GIB / tp), _ev(facts, "oom.host_available_bytes", "knob.tensor_parallel_size"))


def _fit_cpu_kv(facts: FactSet) -> Iterable[Fact]:
    """vLLM's CPU backend: a KV cache space (GiB) and a utilization that keep the cache within nine tenths of the RAM
    its check found free on the node."""
    if "cpu_kv_over_ram" not in facts.values("oom.kind"):
        return
    free, node = facts.number("oom.host_available_bytes"), facts.number("host.ram_total_bytes")
    if free:
        ev = _ev(facts, "oom.host_available_bytes")
        yield _est("fit.cpu_kv_space", max(1, int(0.9 * free / GIB)), ev)
        if node:
            yield _est("fit.cpu_kv_utilization", max(0.01, math.floor(90 * free / node) / 100), ev)


def _fit_pool_cap(facts: FactSet) -> Iterable[Fact]:
    """A runtime's own pool limit, from the request it refused: Triton's CUDA memory pool holding the refused tensor twice
    over (a power of two, 256 MiB at least); TensorRT's builder workspace at half the scratch a tactic could not get (a
    power of two in MiB, 256 at least); a Tenstorrent trace region a tenth over the traces it could not hold, in whole MiB."""
    request = facts.number("oom.requested_bytes")
    if not request:
        return
    hints, ev = facts.values("oom.hint"), _ev(facts, "oom.requested_bytes")
    if "triton_cuda_pool" in hints:
        size = max(256 << 20, 1 << math.ceil(math.log2(2 * request)))
        yield _est("fit.triton_cuda_pool", f"{facts.value('oom.device') or 0}:{size}", ev)
    if "trace_region" in hints:
        yield _est("fit.trace_region_size", math.ceil(1.1 * request / (1 << 20)) << 20, ev)
    if "trt_workspace_limit" in hints and request >= 512 << 20:
        yield _est("fit.trt_workspace_mib", max(256, 1 << int(math.log2(request / 2 / (1 << 20)))), ev)


def _ggml_fit_context(facts: FactSet, n_ctx: float) -> int:
    """llama.cpp/Ollama: the context whose KV cache fits the device budget beside the weights
    and compute buffers (10% headroom); without a budget, a quarter of the context asked for."""
    kv = facts.number("mem.kv_cache_bytes", "mem.kv_total_bytes")
    budget = facts.number("mem.gpu_available_bytes", "mem.gpu_total_bytes", "gpu.total_bytes")
    if kv and budget:
        room = budget * HEADROOM - (facts.number("mem.weights_bytes") or 0) - (facts.number("mem.compute_buffer_bytes") or 0)
        per_token = kv / n_ctx
        if room > 0 and per_token > 0:
            return int(max(512, min(n_ctx // 2, room / per_token) // 256 * 256))
    return max(2048, int(n_ctx) // 4 // 256 * 256)


def _fit_util(facts: FactSet, total: float | None) -> Iterable[Fact]:
    util = facts.number("knob.gpu_memory_utilization", "oom.util_requested")
    ev = _ev(facts, "knob.gpu_memory_utilization", "oom.util_requested")
    fw = facts.value("framework")
    default = {"vllm": 0.9, "sglang": 0.88, "tgi": 1.0, "tensorrt-llm": 0.9, "lmdeploy": 0.8}.get(str(fw))
    base = util if util is not None and 0 < util <= 1 else default  # a fraction, or nothing to step from
    # raise: give the KV pool what it lacks (vLLM V1 states needed vs available)
    needed, available = facts.number("oom.kv_needed_bytes"), facts.number("oom.kv_available_bytes")
    if base is not None:
        if needed and available is not None and total:
            up = base + (needed - available) / total + 0.01
            if up <= 0.95:
                yield _est("fit.gpu_memory_utilization", round(math.ceil(up * 100) / 100, 2), ev)
        elif base < 0.95:
            yield _est("fit.gpu_memory_utilization", round(min(0.95, base + 0.05), 2), ev)
    # lower: leave room for what lives outside the pool
    free_at_start = facts.number("oom.free_at_start_bytes")
    if free_at_start is not None and total:
        low = math.floor((free_at_start / total - 0.02) * 100) / 100
        if low > 0:  # (nothing free: no fraction fits, and freeing the card comes first)
            yield _est("fit.gpu_memory_utilization_lower", low, ev)
    elif free_at_start is None and base is not None:  # (free at start known, the card not: no fraction to state)
        req = facts.number("oom.requested_bytes") or 0.0
        step = max(0.05, (req / total + 0.02) if total else 0.05)
        low = base - step
        if fw == "lmdeploy" and base >= 0.9:
            low = 0.8  # the documented default share of free memory
        if 0.3 <= low <= 1:
            yield _est("fit.gpu_memory_utilization_lower", math.floor(low * 100) / 100, ev)


def _fit_batch(facts: FactSet) -> Iterable[Fact]:
    for key, target in (("knob.max_num_batched_tokens", "fit.max_num_batched_tokens"), ("oom.prefill_tokens", "fit.max_num_batched_tokens"),
                        ("mem.prefill_tokens", "fit.max_num_batched_tokens"), ("knob.ubatch_size", "fit.max_num_batched_tokens")):
        v = facts.number(key)
        if v and v >= 2:
            yield _est(target, _pow2_floor(v / 2, 128 if key == "knob.ubatch_size" else 512), _ev(facts, key))
            break
    seqs = facts.number("oom.dummy_requests", "knob.max_num_seqs")
    reserved = _seqs_beside_reservation(facts)
    if reserved is not None:
        yield _est("fit.max_num_seqs", reserved, _ev(facts, "mem.kv_cache_bytes"))
    elif seqs and seqs >= 2:
        yield _est("fit.max_num_seqs", _pow2_floor(seqs / 2), _ev(facts, "oom.dummy_requests", "knob.max_num_seqs"))
    total_tokens = facts.number("oom.total_tokens", "knob.max_total_tokens")
    if total_tokens:
        yield _est("fit.max_total_tokens", int(total_tokens) // 2, _ev(facts, "oom.total_tokens", "knob.max_total_tokens"))


def compute_capability(facts: FactSet) -> float | None:
    """The card's CUDA compute capability as a number ("8.9" -> 8.9, "12.0" -> 12.0), where it is known."""
    cc = facts.value("gpu.compute_capability")
    return float(cc) if isinstance(cc, str) and re.fullmatch(r"\d+(?:\.\d+)?", cc) else None


def _fit_weights(facts: FactSet, total: float | None) -> Iterable[Fact]:
    weights, _ = weights_per_gpu(facts)
    ev = _ev(facts, "mem.weights_bytes", "model.params")
    dtype = facts.value("knob.dtype")
    if isinstance(dtype, str) and dtype.lower().replace("torch.", "") in ("float32", "float", "fp32", "f32"):
        # (a card before compute capability 8.0 has no bfloat16: float16 is its 16-bit dtype)
        cc = compute_capability(facts)
        old_card = cc is not None and cc < 8.0
        yield _est("fit.dtype", "float16" if old_card else "bfloat16", _ev(facts, "knob.dtype", "gpu.compute_capability"))
    if weights and total:
        tp = parallel_split(facts)[0]
        need = weights * tp / (total * 0.8)
        if need > tp:
            yield _est("fit.tensor_parallel_size", 2 ** math.ceil(math.log2(need)), ev)
        over = weights - total * 0.8
        if over > 0:
            yield _est("fit.cpu_offload_gb", math.ceil(over / GIB), ev)
    elif weights and weights > LARGEST_DISCRETE_GPU_BYTES and facts.value("gpu.backend") != "metal":
        # no card stated, and none made holds the model: the split over the usual 80 GB data-centre cards, a node's
        # eight at most, then nodes in a pipeline
        need = weights * parallel_split(facts)[0] / (DATA_CENTRE_CARD_BYTES * 0.8)
        yield _est("fit.tensor_parallel_size", min(8, 2 ** math.ceil(math.log2(need))), ev)
        if need > 8:
            yield _est("fit.pipeline_parallel_size", math.ceil(need / 8), ev)
    # llama.cpp / Ollama: how many layers fit
    offloaded = facts.number("mem.layers_offloaded")
    gpu_w = facts.number("mem.weights_bytes")
    req = facts.number("oom.requested_bytes")
    if offloaded and offloaded >= 2:
        per_layer = (gpu_w / offloaded) if gpu_w else None
        if per_layer is None and req and facts.value("oom.buffer") in (None, "weights"):
            per_layer = req / offloaded  # the failed buffer was the layers' weights
        avail = facts.number("mem.gpu_available_bytes")
        planned, whole, layers_total = (facts.number("mem.gpu_planned_bytes"), facts.number("mem.weights_total_bytes"),
                                        facts.number("mem.layers_total"))
        if per_layer is None and planned and avail and whole and layers_total and not req:
            # Ollama's plan: take off the layers it placed past the headroom, each its share of the model's weights
            per_layer = whole / layers_total
            over = max(0.0, planned - avail * HEADROOM)
            yield _est("fit.gpu_layers", max(0, int(offloaded) - max(1, math.ceil(over / per_layer))),
                       _ev(facts, "mem.gpu_planned_bytes"))
            return
        if per_layer:
            if avail and req and facts.value("oom.buffer") in (None, "weights") and not gpu_w:
                layers = int(avail * HEADROOM // per_layer)
            else:
                layers = int(offloaded - math.ceil((req or per_layer) / per_layer) - 1)
            yield _est("fit.gpu_layers", max(0, min(int(offloaded) - 1, layers)), ev)
        else:
            yield _est("fit.gpu_layers", int(offloaded) - 1 if offloaded > 1 else 0, _ev(facts, "mem.layers_offloaded"))


# ---------------------------------------------------------------------------- one pass


@dataclass(frozen=True)
class LedgerPass:
    """Everything the memory arithmetic gives, computed once: the derived facts (shares, fits)
    the rules read, and the ledger table and per-step numbers the report shows."""

    facts: FactSet  # the input facts plus the derived ones
    entries: tuple[LedgerEntry, ...]
    steps: dict[Account, str]


def assess(facts: FactSet) -> LedgerPass:
    full = facts.with_(derive(facts))
    return LedgerPass(full, ledger(full), step_numbers(full))


# ---------------------------------------------------------------------------- the ledger

def ledger(facts: FactSet) -> tuple[LedgerEntry, ...]:
    """Weights, KV cache, activations, framework, free and capacity on one GPU."""
    total = gpu_total(facts)
    weights, wsrc = weights_per_gpu(facts)
    entries: list[LedgerEntry] = []

    def add(account: str, value: float | None, source: str, note: str = "") -> None:
        if value is not None:
            entries.append(LedgerEntry(account, int(value), source, note))

    add("weights", weights, wsrc)
    # the failing run's own figure beats an earlier run's start-up line in the same log
    kv = facts.number("oom.kv_available_bytes", "mem.kv_cache_bytes")
    tokens = facts.number("oom.kv_capacity_tokens", "oom.max_model_len_estimate", "mem.kv_tokens")
    add("kv_cache", kv, _source(facts, "oom.kv_available_bytes", "mem.kv_cache_bytes"), f"{int(tokens):,} tokens" if tokens else "")
    act = facts.number("mem.activation_peak_bytes", "mem.compute_buffer_bytes")
    add("activations", act, _source(facts, "mem.activation_peak_bytes", "mem.compute_buffer_bytes"))
    allocated = facts.number("oom.torch_allocated_bytes")
    if weights is None and kv is None and act is None and allocated is not None:
        held = allocated + (facts.number("oom.torch_unallocated_bytes") or 0)
        add("pytorch", held, "log", "held by PyTorch at the failure; the log does not split it into accounts")
    elif weights is None and kv is None and act is None and facts.has("oom.runtime_tensors_bytes"):
        add("in_use", facts.number("oom.runtime_tensors_bytes"), "log", "the model's tensors (weights, its KV cache, inputs), not split")
    fw = facts.number("mem.non_torch_bytes")
    graphs = facts.number("mem.cuda_graph_bytes")
    # other processes on the card are their own line, not this server's overhead
    others = facts.number("oom.other_process_bytes", "gpu.other_process_bytes") or 0
    if fw is not None or graphs is not None:
        add("framework", (fw or 0) + (graphs or 0), _source(facts, "mem.non_torch_bytes", "mem.cuda_graph_bytes"),
            "non-torch + CUDA graphs" if fw and graphs else ("CUDA graphs" if graphs else "non-torch memory"))
    elif facts.has("oom.non_torch_bytes"):
        outside = facts.number("oom.non_torch_bytes") or 0
        add("framework", max(0, outside - others), "log", "outside this process's PyTorch pool (context, NCCL)"
            if others else "outside this process's PyTorch pool (context, NCCL, other processes)")
    elif facts.has("oom.runtime_overhead_bytes"):
        add("framework", facts.number("oom.runtime_overhead_bytes"), "log", "the runtime's own buffers (DMA rings, scratchpad, collectives, code)")
    if others > 0:
        add("other_processes", others, _source(facts, "oom.other_process_bytes", "gpu.other_process_bytes"),
            str(facts.value("gpu.other_processes") or "processes other than this server"))
    free = facts.number("oom.gpu_free_bytes")
    free_at_start = facts.number("oom.free_at_start_bytes")
    if free is None and free_at_start is not None and total:
        if fw is None and graphs is None:
            add("framework", total - free_at_start, "log", "held before start-up (other processes, CUDA context)")
        add("free", free_at_start, "log", "at start-up")
    else:
        if free is not None and total and not entries:
            # the card's size and what was free, and no part named: the rest was in use, by what the log does not say
            add("in_use", max(0.0, total - free), "log", "in use at the failure; the log does not say by what")
        add("free", free, "log", "at the failure")
    add("capacity", total, _source(facts, "mem.gpu_total_bytes", "oom.gpu_total_bytes", "gpu.total_bytes"))
    return tuple(entries)


_LEDGER_SOURCE = {Origin.LOG: "log", Origin.PROBE: "probe", Origin.SETTINGS: "probe", Origin.COMMAND: "command",
                  Origin.CARD: "card", Origin.CATALOG: "catalog"}


def _source(facts: FactSet, *keys: str) -> str:
    """Where a ledger figure came from: the log, a probe, the command, the card table, the
    catalog, or oomdoctor's own estimate."""
    for k in keys:
        f = facts.get(k)
        if f is not None:
            return _LEDGER_SOURCE.get(f.origin, "estimate")
    return "estimate"


def step_numbers(facts: FactSet) -> dict[Account, str]:
    """One line per triage step with the number that rules it out or in."""
    out: dict[Account, str] = {}
    total = gpu_total(facts)
    weights, wsrc = weights_per_gpu(facts)
    if weights is not None:
        share = f" = {weights / total:.0%} of {format_bytes(int(total))}" if total else ""
        out[Account.WEIGHTS] = f"weights {format_bytes(int(weights))} per GPU ({wsrc}){share}"
    kv = facts.number("oom.kv_available_bytes", "mem.kv_cache_bytes")
    if kv is not None:
        tokens = facts.number("oom.kv_capacity_tokens", "oom.max_model_len_estimate", "mem.kv_tokens")
        out[Account.KV_CACHE] = f"KV pool {format_bytes(int(kv))}" + (f", {int(tokens):,} tokens" if tokens else "")
    act = facts.number("mem.activation_peak_bytes", "mem.compute_buffer_bytes")
    if act is not None:
        out[Account.ACTIVATIONS] = f"activation peak {format_bytes(int(act))}"
    nt = facts.number("mem.non_torch_bytes", "oom.non_torch_bytes")
    if nt is not None:
        out[Account.FRAMEWORK] = f"outside the PyTorch pool {format_bytes(int(nt))}"
    return out
