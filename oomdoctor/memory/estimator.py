"""The estimate: model + settings (+ numbers a log already gave) -> the per-GPU ledger."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from oomdoctor.memory.dtypes import DTYPE_BYTES, GIB, KvDtype, parse_dtype, parse_kv_dtype
from oomdoctor.memory.kv import KvLayout, kv_bytes_per_token
from oomdoctor.memory.ledger import Ledger, Source
from oomdoctor.memory.model import ModelSource
from oomdoctor.memory.policies import (
    Budget,
    BudgetInput,
    EstimateSettings,
    Framework,
    default_context,
    kv_layout,
    plan_budget,
)
from oomdoctor.memory.arch import ModelArch
from oomdoctor.memory.quant import QuantScheme, resolve_scheme, tensor_bytes
from oomdoctor.memory.tensors import expert_tensors
from oomdoctor.memory.weights import WeightsEstimate, estimate_weights


@dataclass(frozen=True)
class Given:
    """Figures already known (a log's own accounting); they replace the estimates."""

    weights_bytes: int | None = None
    kv_bytes_per_token: int | None = None
    non_torch_bytes: int | None = None
    activation_peak_bytes: int | None = None


@dataclass(frozen=True)
class Estimate:
    model: ModelSource
    settings: EstimateSettings
    dtype: str
    kv_dtype: KvDtype
    scheme: QuantScheme
    weights: WeightsEstimate
    weights_bytes: int  # per GPU (llama.cpp/Ollama: the whole model)
    weights_source: Source
    kv_bytes_per_token: int
    kv_source: Source
    layout: KvLayout
    budget: Budget
    ledger: Ledger
    notes: tuple[str, ...] = field(default=())

    @property
    def kv_tokens(self) -> int | None:
        return self.budget.kv_tokens

    @property
    def kv_cache_bytes(self) -> int | None:
        return self.budget.kv_pool_bytes

    @property
    def framework(self) -> Framework:
        return self.settings.framework


def resolve_dtype(settings: EstimateSettings, model: ModelSource) -> str:
    """The activation/weight dtype: the flag, else the checkpoint's; float32 checkpoints are
    served in float16 by the engines (transformers keeps float32)."""
    given = parse_dtype(settings.dtype)
    if given and given != "fp8":
        return given
    cfg = parse_dtype(model.arch.torch_dtype) if model.arch.torch_dtype else None
    if settings.framework.whole_model:
        return "float16"
    if cfg == "float32" and settings.framework != Framework.TRANSFORMERS:
        return "float16"
    return cfg if cfg in ("float16", "bfloat16", "float32") else "bfloat16"


def _uses_file(settings: EstimateSettings, model: ModelSource) -> bool:
    """A GGUF file's own bytes count unless the flag asks for another quantization."""
    if not model.gguf:
        return False
    q = (settings.quantization or "").upper().removeprefix("GGUF_")
    return not q or q in ("GGUF", "NONE") or q == (model.gguf.file_type or "").upper()


def _scheme(settings: EstimateSettings, model: ModelSource) -> QuantScheme:
    if model.gguf and _uses_file(settings, model):
        return QuantScheme("gguf", gguf_ftype=model.gguf.file_type or "F16", label=model.gguf.file_type or "gguf")
    if settings.quantization is None and settings.framework.whole_model and settings.dtype is None:
        return resolve_scheme("F16", model.arch)
    return resolve_scheme(settings.quantization, model.arch)


def estimate(model: ModelSource, settings: EstimateSettings, given: Given = Given(),
             weights: WeightsEstimate | None = None) -> Estimate:
    """`weights` lets a caller that varies only context, concurrency, memory fraction or KV dtype
    (the fit solver) reuse the weight estimate of the same model, dtype, quantization and split."""
    fw = settings.framework
    if fw.whole_model:
        settings = replace(settings, tensor_parallel_size=1, pipeline_parallel_size=1)
    arch = model.arch
    tp, pp = settings.tensor_parallel_size, settings.pipeline_parallel_size
    dtype = resolve_dtype(settings, model)
    scheme = _scheme(settings, model)
    reusable = (weights is not None
                and (weights.scheme, weights.dtype, weights.tensor_parallel_size) == (scheme, dtype, tp)
                and len(weights.stage_layers) == min(pp, arch.num_layers))
    if weights is None or not reusable:
        weights = estimate_weights(arch, scheme, dtype, DTYPE_BYTES[dtype], tp=tp, pp=pp,
                                   include_vision=not (scheme.is_gguf or fw.whole_model))
    notes: list[str] = []
    if given.weights_bytes is not None:
        w_bytes, w_src = given.weights_bytes, Source.GIVEN
    elif model.gguf and _uses_file(settings, model):
        # the file's bytes, split across ranks the way the tensors are (vLLM can serve a GGUF with TP)
        share = weights.per_gpu_bytes / weights.total_bytes if weights.total_bytes else 1.0
        w_bytes, w_src = int(model.gguf.tensor_bytes * share), Source.GIVEN
        notes.append(f"weights: the GGUF file's tensors ({model.gguf.bits_per_weight:.2f} bits per weight)")
    else:
        w_bytes, w_src = weights.per_gpu_bytes, Source.ESTIMATE
    if given.weights_bytes is None:  # (a log's own figure already counts what stayed on the CPU)
        w_bytes, note = _cpu_offloaded(w_bytes, arch, scheme, dtype, settings, weights)
        notes.extend(note)
    kv_name = settings.kv_cache_dtype
    if fw == Framework.VLLM and arch.attention.index_head_dim and (kv_name or "auto").lower() == "auto":
        kv_name = "fp8"  # vLLM caches DeepSeek V3.2 in its fp8 MLA layout by default
        notes.append("DeepSeek V3.2 on vLLM: KV cache fp8 by default")
    kv = parse_kv_dtype(kv_name, "float16" if fw.whole_model else dtype)
    layout = kv_layout(fw, arch, settings, gguf_has_mla=model.gguf.has_mla_tensors if model.gguf else None)
    context_for_window = default_context(fw, arch, settings) if fw.whole_model else None
    if given.kv_bytes_per_token is not None:
        kvpt, kv_src = given.kv_bytes_per_token, Source.GIVEN
    else:
        kvpt = kv_bytes_per_token(arch, kv, tp=tp, layers=max(weights.stage_layers), layout=layout,
                                  context=context_for_window)
        kv_src = Source.ESTIMATE
    budget = plan_budget(BudgetInput(arch, settings, w_bytes, max(1, kvpt), DTYPE_BYTES[dtype], kv))
    if given.non_torch_bytes is not None or given.activation_peak_bytes is not None:
        budget = _rebudget(budget, given, settings, w_bytes, kvpt)
    notes.extend(budget.notes)
    if arch.attention.is_mla:
        notes.append(f"MLA cached as {layout.mla.value}")
    if arch.is_hybrid_window and not layout.window_capped:
        notes.append("sliding-window layers counted at full length (the engine's pool accounting)")
    ledger = _ledger(fw, settings, budget, w_bytes, w_src, kvpt, kv_src, given)
    return Estimate(model, settings, dtype, kv, scheme, weights, w_bytes, w_src, kvpt, kv_src, layout, budget,
                    ledger, tuple(notes))


def _cpu_offloaded(w_bytes: int, arch: ModelArch, scheme: QuantScheme, dtype: str, settings: EstimateSettings,
                   weights: WeightsEstimate) -> tuple[int, list[str]]:
    """Weights on the GPU once what the launch keeps in CPU RAM is taken out: vLLM's and SGLang's
    --cpu-offload-gb (GiB per GPU), llama.cpp's --n-cpu-moe / --cpu-moe (the experts of the first N layers)."""
    gib = settings.cpu_offload_gb
    if gib and gib > 0 and not settings.framework.whole_model:
        return max(0, w_bytes - int(gib * GIB)), [f"weights: {gib:g} GiB per GPU offloaded to CPU RAM"]
    n = min(settings.cpu_moe_layers or 0, arch.num_layers)
    if n <= 0 or not arch.moe or not settings.framework.whole_model or not weights.total_bytes:
        return w_bytes, []
    experts = sum(tensor_bytes(scheme, t, arch, DTYPE_BYTES[dtype]) for t in expert_tensors(arch, n))
    share = experts / weights.total_bytes
    return max(0, int(w_bytes * (1 - share))), [f"weights: the experts of {n} of {arch.num_layers} layers kept in CPU RAM "
                                                f"({share:.0%} of the weights)"]


def _rebudget(budget: Budget, given: Given, settings: EstimateSettings, w_bytes: int, kvpt: int) -> Budget:
    """Recompute a vLLM-style pool when the log gave non-torch or activation figures."""
    nt = given.non_torch_bytes if given.non_torch_bytes is not None else budget.non_torch_bytes
    act = given.activation_peak_bytes if given.activation_peak_bytes is not None else budget.activation_bytes
    out = replace(budget, non_torch_bytes=nt, activation_bytes=act)
    if settings.framework == Framework.VLLM and budget.budget_bytes is not None:
        pool = budget.budget_bytes - w_bytes - nt - act
        tokens = max(0, int(pool // (kvpt * budget.block_size)) * budget.block_size) if pool > 0 else 0
        out = replace(out, kv_pool_bytes=max(0, pool), kv_tokens=tokens)
    return out


def _ledger(fw: Framework, settings: EstimateSettings, budget: Budget, w_bytes: int, w_src: Source,
            kvpt: int, kv_src: Source, given: Given) -> Ledger:
    if budget.kv_pool_bytes is not None:
        kv_bytes = budget.kv_pool_bytes
    else:
        kv_bytes = kvpt * budget.context * (settings.max_num_seqs or 1)
    kv_source = Source.ESTIMATE if kv_src == Source.ESTIMATE or w_src == Source.ESTIMATE else Source.GIVEN
    return Ledger.build(
        weights=(w_bytes, w_src),
        kv_cache=(kv_bytes, kv_source),
        activations=(budget.activation_bytes,
                     Source.GIVEN if given.activation_peak_bytes is not None else Source.ESTIMATE),
        framework=(budget.non_torch_bytes, Source.GIVEN if given.non_torch_bytes is not None else Source.ESTIMATE),
        capacity=settings.gpu_memory_bytes,
    )
