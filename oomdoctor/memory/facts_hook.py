"""Bridge to diagnose: facts read from a crashed server's log in, `mem.*` / `fit.*` facts out.

Numbers the log stated win: they are passed to the estimator as given figures and never
re-emitted; only the missing `mem.*` keys are added, with `origin=Origin.ESTIMATE`.
"""

from __future__ import annotations

from oomdoctor.errors import InputError
from oomdoctor.facts import FACT_KEYS, Evidence, Fact, FactSet, Origin
from oomdoctor.ledger import parallel_split, sized_quantization
from oomdoctor.memory.config import load_model
from oomdoctor.memory.estimator import Estimate, Given, estimate
from oomdoctor.memory.fit import solve
from oomdoctor.memory.policies import EstimateSettings, Framework

_EVIDENCE = "oomdoctor.memory"
_ALL_LAYERS = 1 << 20  # llama.cpp --cpu-moe: every layer's experts (the estimator caps it at the model's layers)
# a log line that states the same quantity under an `oom.*` key counts as stating it
_STATED_AS = {
    "mem.weights_bytes": ("mem.weights_total_bytes",),  # llama.cpp/Ollama state the whole model, placed by layers
    "mem.kv_tokens": ("oom.kv_capacity_tokens",),
    "mem.kv_cache_bytes": ("oom.kv_available_bytes",),
    "mem.non_torch_bytes": ("oom.non_torch_bytes",),
}


def _num(facts: FactSet, *keys: str, kind: type = int) -> int | float | None:
    for key in keys:
        v = facts.value(key)
        if v is None or isinstance(v, bool):
            continue
        try:
            return kind(float(v)) if kind is int else kind(v)
        except (TypeError, ValueError):
            continue
    return None


def _text(facts: FactSet, key: str) -> str | None:
    v = facts.value(key)
    if v is None or isinstance(v, bool):
        return None
    s = str(v).strip()
    return None if s.lower() in ("", "none", "null", "auto") and key != "knob.kv_cache_dtype" else s


def _flag(facts: FactSet, key: str) -> bool | None:
    v = facts.value(key)
    return v if isinstance(v, bool) else None


def framework_of(facts: FactSet) -> Framework | None:
    name = _text(facts, "framework")
    if name is None:
        return None
    try:
        return Framework.parse(name)
    except InputError:
        return None


def settings_from_facts(facts: FactSet) -> EstimateSettings:
    """Engine settings as the log stated them; invalid values fall back to defaults."""
    fw = framework_of(facts) or Framework.VLLM
    total = _num(facts, "mem.gpu_total_bytes", "oom.gpu_total_bytes", "gpu.total_bytes")
    util = _num(facts, "knob.gpu_memory_utilization", kind=float)
    tp, pp = parallel_split(facts)
    dtype = _text(facts, "knob.dtype")
    fields = dict(
        framework=fw,
        dtype=dtype,
        quantization=sized_quantization(fw.value, dtype, _text(facts, "knob.quantization")),
        kv_cache_dtype=_text(facts, "knob.kv_cache_dtype"),
        tensor_parallel_size=max(1, int(tp)),
        pipeline_parallel_size=max(1, int(pp)),
        max_model_len=_num(facts, "knob.max_model_len", "oom.requested_max_model_len"),
        max_num_seqs=_num(facts, "knob.max_num_seqs"),
        max_num_batched_tokens=_num(facts, "knob.max_num_batched_tokens"),
        gpu_memory_bytes=total if total and total > 0 else None,
        gpu_memory_utilization=util if util and 0 < util <= 1 else None,
        enable_chunked_prefill=_flag(facts, "knob.chunked_prefill"),
        flash_attention=_flag(facts, "knob.flash_attention"),
        framework_version=_text(facts, "framework.version"),
        cpu_offload_gb=_num(facts, "knob.cpu_offload", kind=float),
        cpu_moe_layers=_ALL_LAYERS if _flag(facts, "knob.cpu_moe") else _num(facts, "knob.cpu_moe_layers"),
    )
    for key in ("max_model_len", "max_num_seqs", "max_num_batched_tokens"):
        if fields[key] is not None and fields[key] <= 0:
            fields[key] = None
    return EstimateSettings(**fields)


def given_from_facts(facts: FactSet) -> Given:
    return Given(
        weights_bytes=_num(facts, "mem.weights_bytes"),
        kv_bytes_per_token=_num(facts, "mem.kv_bytes_per_token"),
        non_torch_bytes=_num(facts, "mem.non_torch_bytes", "oom.non_torch_bytes"),
        activation_peak_bytes=_num(facts, "mem.activation_peak_bytes"),
    )


def _fact(key: str, value: int | float | str, why: str) -> Fact:
    if key not in FACT_KEYS:  # pragma: no cover - guarded by tests
        raise KeyError(key)
    return Fact(key, value, Origin.ESTIMATE, Evidence(_EVIDENCE, None, why))


def _usable_estimate(facts: FactSet, model_spec: str, settings: EstimateSettings, given: Given) -> Estimate | None:
    """The estimate, tolerating knob values the estimator cannot parse (dropped one by one)."""
    model = load_model(model_spec)
    for drop in (None, "quantization", "dtype", "kv_cache_dtype"):
        s = settings if drop is None else _without(settings, drop)
        try:
            return estimate(model, s, given)
        except InputError:
            settings = s
    return None


def _without(settings: EstimateSettings, name: str) -> EstimateSettings:
    from dataclasses import replace

    return replace(settings, **{name: None})


def _log_fits(facts: FactSet, settings: EstimateSettings) -> list[Fact]:
    """Fits that follow from the log's own numbers alone."""
    out: list[Fact] = []
    block = 16 if settings.framework == Framework.VLLM else 1
    est_len = _num(facts, "oom.max_model_len_estimate")
    held = _num(facts, "mem.kv_tokens", "oom.kv_capacity_tokens")
    if est_len:
        out.append(_fact("fit.max_model_len", int(est_len), "the engine's own estimate of the largest context"))
    elif held:
        out.append(_fact("fit.max_model_len", held // block * block, "KV tokens the engine reported holding"))
    if held and settings.max_model_len:
        out.append(_fact("fit.max_num_seqs", held // settings.max_model_len,
                         "KV tokens reported / max_model_len"))
    needed = _num(facts, "oom.kv_needed_bytes")
    avail = _num(facts, "oom.kv_available_bytes", "mem.kv_cache_bytes")
    total = settings.gpu_memory_bytes
    util = settings.gpu_memory_utilization or (0.9 if settings.framework == Framework.VLLM else None)
    if needed and avail is not None and total and util:
        want = util + (needed - avail) / total
        want = int(want * 100 + 0.999) / 100
        if want <= 0.95:
            out.append(_fact("fit.gpu_memory_utilization", round(want, 2),
                             "fraction + (KV needed - KV available) / card, as the log states them"))
    return out


def _consistent_with_log(facts: FactSet, model_spec: str, settings: EstimateSettings, given: Given,
                         e: Estimate) -> tuple[Estimate | None, EstimateSettings, list[Fact]]:
    """The log's own numbers bound the estimate: weights per GPU cannot exceed what PyTorch
    held on the failing device. When the tensor-parallel size is not stated, the smallest
    power of two that makes the estimate fit what the log shows is taken (and said); when
    none does, the estimate's assumptions are wrong and it is not used."""
    if facts.has("knob.tensor_parallel_size"):
        held = _num(facts, "oom.torch_allocated_bytes", "oom.process_bytes")
        return (e if held is None or e.weights_bytes <= held * 1.02 or not _loaded(facts) else None), settings, []
    # an engine failing on device N shards over at least N + 1 GPUs (visible devices count from 0)
    device = str(facts.value("oom.device") or "")
    min_tp = int(device) + 1 if device.isdigit() and settings.framework.preallocates_pool else 1
    held = _num(facts, "oom.torch_allocated_bytes", "oom.process_bytes")
    too_big = held is not None and _loaded(facts) and e.weights_bytes > held * 1.02  # while loading only part is held
    if min_tp <= 1 and not too_big:
        return e, settings, []
    from dataclasses import replace

    model = load_model(model_spec)
    for tp in (t for t in (2, 4, 8, 16) if t >= min_tp):
        s = replace(settings, tensor_parallel_size=tp)
        try:
            e2 = estimate(model, s, given)
        except InputError:
            return None, settings, []
        if held is None or not _loaded(facts) or e2.weights_bytes <= held * 1.02:
            why = (f"inferred: the failure is on device {device}" if min_tp > 1 and not too_big else
                   f"inferred: {e.weights_bytes / (1 << 30):.1f} GiB of weights do not fit in the {(held or 0) / (1 << 30):.1f} GiB "
                   f"the log shows on the device")
            return e2, s, [_fact("knob.tensor_parallel_size", tp, f"{why}; tensor parallel {tp} fits it")]
    return None, settings, []


def _offloaded_share(facts: FactSet, settings: EstimateSettings) -> tuple[float, int, int] | None:
    """(share, layers on the GPU, layers) where llama.cpp or Ollama was told to put only some of the
    model's layers on the GPU (-ngl / num_gpu below the layer count); None when all of them go."""
    if settings.framework not in (Framework.LLAMACPP, Framework.OLLAMA):
        return None
    on_gpu = _num(facts, "knob.gpu_layers")
    layers = _num(facts, "mem.layers_total", "knob.model_layers")
    if on_gpu is None or not layers or on_gpu < 0 or on_gpu >= layers:
        return None
    return on_gpu / layers, int(on_gpu), int(layers)


def _loaded(facts: FactSet) -> bool:
    """The failure came after the weights were loaded (so the device held all of them)."""
    return facts.value("phase") in ("profile", "kv_alloc", "cuda_graph_capture", "warmup", "prefill", "decode")


def estimate_facts(facts: FactSet, config_path: str | None) -> list[Fact]:
    """`mem.*` facts the log did not state and `fit.*` facts, all `Origin.ESTIMATE`.

    Without a model config only fits that follow from the log's own numbers are returned.
    A config that cannot be read raises `InputError` (the user named it)."""
    settings = settings_from_facts(facts)
    log_fits = _log_fits(facts, settings)
    if config_path is None:
        return log_fits
    given = given_from_facts(facts)
    e = _usable_estimate(facts, config_path, settings, given)
    if e is None:
        return log_fits
    out: list[Fact] = []
    e, settings, inferred = _consistent_with_log(facts, config_path, settings, given, e)
    if e is None:
        return log_fits
    out.extend(inferred)
    mem = {
        "mem.weights_bytes": (e.weights_bytes, f"weights per GPU: {e.weights.params / 1e9:.2f} B params, "
                                               f"{e.scheme.label or e.dtype}, TP {settings.tensor_parallel_size}"),
        "mem.kv_bytes_per_token": (e.kv_bytes_per_token, f"KV per token per GPU ({e.kv_dtype.name})"),
        "mem.non_torch_bytes": (e.budget.non_torch_bytes, "CUDA context, library workspaces, NCCL buffers"),
        "mem.activation_peak_bytes": (e.budget.activation_bytes,
                                      f"profiled peak for {e.budget.batched_tokens} batched tokens / sampler"),
        "mem.kv_tokens": (e.kv_tokens, f"{settings.framework.value} pool policy"),
        "mem.kv_cache_bytes": (e.kv_cache_bytes, f"{settings.framework.value} pool policy"),
        "mem.budget_bytes": (e.budget.budget_bytes if e.budget.utilization else None, "card x memory fraction"),
    }
    if not settings.framework.preallocates_pool and settings.framework not in (Framework.LLAMACPP, Framework.OLLAMA):
        mem.pop("mem.kv_tokens")
    share = _offloaded_share(facts, settings)
    if share is not None:  # llama.cpp keeps a layer's weights and its KV cache where the layer runs
        layers_note = f"; {share[1]} of {share[2]} layers on the GPU (-ngl)"
        for key in ("mem.weights_bytes", "mem.kv_cache_bytes"):
            value, why = mem[key]
            mem[key] = (None if value is None else value * share[0], why + layers_note)
    for key, (value, why) in mem.items():
        stated = facts.has(key) or any(facts.has(k) for k in _STATED_AS.get(key, ()))
        if value is not None and not stated:
            out.append(_fact(key, int(value), why))
    fit = solve(e, given)
    have = {f.key for f in log_fits}
    out.extend(log_fits)
    candidates = {
        "fit.max_model_len": fit.max_model_len,
        "fit.max_num_seqs": fit.max_num_seqs,
        "fit.gpu_memory_utilization": fit.gpu_memory_utilization,
        "fit.tensor_parallel_size": fit.tensor_parallel_size,
        "fit.gpu_layers": fit.gpu_layers,
    }
    current_kv = (settings.kv_cache_dtype or "auto").lower()
    if fit.kv_cache_dtype and fit.kv_cache_dtype.lower() not in (current_kv, "auto", "f16"):
        candidates["fit.kv_cache_dtype"] = fit.kv_cache_dtype
    for key, value in candidates.items():
        if value is not None and key not in have and key in FACT_KEYS:
            out.append(_fact(key, value, "oomdoctor fit solver, 10% headroom"))
    return out
