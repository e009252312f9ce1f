"""Framework budget policies: how each engine turns a card into a KV pool.

- vLLM: pool = total x gpu_memory_utilization - weights - non-torch - activation peak,
  rounded down to 16-token blocks (default utilization 0.9).
- SGLang: pool = total x mem_fraction_static - weights - memory held after loading
  (default fraction by TP size: 0.88 / 0.87 / 0.85 / 0.81 / 0.79).
- TensorRT-LLM: pool = fraction x the memory FREE after weights and activations (default 0.9).
- TGI: pool = (total x cuda_memory_fraction - weights - warm-up peak) x 0.95 (wiggle room).
- llama.cpp / Ollama: no pool; the cache is n_ctx cells (Ollama: num_ctx x parallel).
- transformers: no pool; whatever the card has left after weights and the prompt's peak.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum

from oomdoctor.errors import InputError
from oomdoctor.memory.activations import (
    forward_peak_bytes,
    llamacpp_compute_bytes,
    non_torch_bytes,
    vllm_non_torch_bytes,
    sampler_peak_bytes,
    vision_peak_bytes,
)
from oomdoctor.memory.arch import ModelArch
from oomdoctor.memory.dtypes import GIB, MIB, KvDtype
from oomdoctor.memory.kv import KvLayout, MlaLayout


class Framework(str, Enum):
    VLLM = "vllm"
    SGLANG = "sglang"
    LLAMACPP = "llamacpp"
    OLLAMA = "ollama"
    TGI = "tgi"
    TRTLLM = "tensorrt-llm"
    TRANSFORMERS = "transformers"

    @classmethod
    def parse(cls, value: str | None) -> Framework:
        if value is None:
            return cls.VLLM
        key = re.sub(r"[\s_.]", "-", value.strip().lower())
        aliases = {
            "llama-cpp": cls.LLAMACPP, "llamacpp": cls.LLAMACPP, "ik-llama-cpp": cls.LLAMACPP,
            "ik-llamacpp": cls.LLAMACPP, "llama-server": cls.LLAMACPP,
            "trtllm": cls.TRTLLM, "tensorrt-llm": cls.TRTLLM, "tensorrtllm": cls.TRTLLM, "trt-llm": cls.TRTLLM,
            "text-generation-inference": cls.TGI, "tgi": cls.TGI,
            "hf": cls.TRANSFORMERS, "transformers": cls.TRANSFORMERS, "torch": cls.TRANSFORMERS,
            "vllm": cls.VLLM, "sglang": cls.SGLANG, "ollama": cls.OLLAMA,
        }
        if key not in aliases:
            names = ", ".join(f.value for f in cls)
            raise InputError(f"unknown framework {value!r} (use one of {names})")
        return aliases[key]

    @property
    def whole_model(self) -> bool:
        """llama.cpp and Ollama figures cover every layer, wherever it runs."""
        return self in (Framework.LLAMACPP, Framework.OLLAMA)

    @property
    def preallocates_pool(self) -> bool:
        return self in (Framework.VLLM, Framework.SGLANG, Framework.TRTLLM, Framework.TGI)


def parse_version(value: str | None) -> tuple[int, ...] | None:
    """`0.5.0.post1` -> (0, 5, 0); llama.cpp `b4500` -> (4500,)."""
    if not value:
        return None
    m = re.match(r"^\s*v?b?(\d+(?:\.\d+)*)", value.strip().lower())
    return tuple(int(x) for x in m.group(1).split(".")) if m else None


@dataclass(frozen=True)
class EstimateSettings:
    """What the user (or a crashed server's log) told us. None means: framework default."""

    framework: Framework = Framework.VLLM
    dtype: str | None = None
    quantization: str | None = None
    kv_cache_dtype: str | None = None
    tensor_parallel_size: int = 1
    pipeline_parallel_size: int = 1
    max_model_len: int | None = None
    max_num_seqs: int | None = None
    max_num_batched_tokens: int | None = None
    gpu_memory_bytes: int | None = None
    gpu_memory_utilization: float | None = None
    enable_chunked_prefill: bool | None = None
    flash_attention: bool | None = None
    framework_version: str | None = None
    cpu_offload_gb: float | None = None  # vLLM/SGLang --cpu-offload-gb: GiB of each GPU's weights kept in CPU RAM
    cpu_moe_layers: int | None = None  # llama.cpp --n-cpu-moe: the first N layers' experts stay in CPU RAM (>= layers: all)

    def __post_init__(self) -> None:
        for name in ("tensor_parallel_size", "pipeline_parallel_size"):
            if getattr(self, name) < 1:
                raise InputError(f"{name} must be at least 1")
        for name in ("max_model_len", "max_num_seqs", "max_num_batched_tokens", "gpu_memory_bytes"):
            v = getattr(self, name)
            if v is not None and v <= 0:
                raise InputError(f"{name} must be positive")
        u = self.gpu_memory_utilization
        if u is not None and not 0 < u <= 1:
            raise InputError("gpu_memory_utilization must be in (0, 1]")


@dataclass(frozen=True)
class BudgetInput:
    arch: ModelArch
    settings: EstimateSettings
    weights_bytes: int  # per GPU
    kv_bytes_per_token: int  # per GPU
    dtype_bytes: int
    kv: KvDtype


@dataclass(frozen=True)
class Budget:
    """How a framework spends one GPU. Byte figures are per GPU; None = unknown card."""

    utilization: float | None
    utilization_given: bool
    budget_bytes: int | None
    non_torch_bytes: int
    activation_bytes: int
    kv_pool_bytes: int | None
    kv_tokens: int | None
    block_size: int
    context: int
    sequences: int
    batched_tokens: int | None
    notes: tuple[str, ...] = field(default=())


LLAMACPP_V_LESS_BUILD = 7860  # first mainline build with the V-less MLA cache (approximate: PR #19067)


def kv_layout(framework: Framework, arch: ModelArch, settings: EstimateSettings, *,
              gguf_has_mla: bool | None = None) -> KvLayout:
    """How the engine stores MLA and sliding-window layers."""
    version = parse_version(settings.framework_version)
    mla = MlaLayout.LATENT
    if framework == Framework.VLLM and version is not None and version < (0, 7, 1):
        mla = MlaLayout.PADDED  # before MLA support vLLM cached full K and V per head
    elif framework in (Framework.TGI, Framework.TRANSFORMERS):
        mla = MlaLayout.DECOMPRESSED
    elif framework.whole_model:
        # GGUFs converted before llama.cpp's MLA support (no attn_k_b tensors) run without it;
        # with it, K held the 576-value latent and V its 512-value part until the V-less cache
        # (PR #19067, 2026-01-24, about build b7860) keeps the latent once, K and V shared
        v_less = framework == Framework.LLAMACPP and version is not None and len(version) == 1 and version[0] >= LLAMACPP_V_LESS_BUILD
        if v_less and gguf_has_mla is not False:
            mla = MlaLayout.LATENT
        else:
            mla = MlaLayout.LATENT_KV if gguf_has_mla else MlaLayout.DECOMPRESSED
    seqs = settings.max_num_seqs or 1
    return KvLayout(mla=mla, window_capped=framework.whole_model, sequences=seqs)


def default_context(framework: Framework, arch: ModelArch, settings: EstimateSettings) -> int:
    if settings.max_model_len:
        return settings.max_model_len
    if framework == Framework.LLAMACPP:
        return arch.max_position_embeddings or 4096  # -c 0: the model's training context
    if framework == Framework.OLLAMA:
        return 4096
    if framework == Framework.TGI:
        return min(arch.max_position_embeddings or 4096, 4096)
    return arch.max_position_embeddings or 2048


def _round_down(n: float, step: int) -> int:
    return max(0, int(n // step) * step)


def _vllm(b: BudgetInput) -> Budget:
    s, arch = b.settings, b.arch
    version = parse_version(s.framework_version)
    cap = s.gpu_memory_bytes
    context = default_context(Framework.VLLM, arch, s)
    big_gpu = bool(cap and cap >= 70 * GIB and version is not None and version >= (0, 10))
    seqs = s.max_num_seqs or (1024 if big_gpu else 256)
    notes = []
    if s.max_num_batched_tokens:
        tokens = s.max_num_batched_tokens
    else:
        chunked = s.enable_chunked_prefill
        if chunked is None:
            chunked = (version is not None and version >= (0, 8)) or context > 32768
        if chunked:
            tokens = 8192 if big_gpu else 2048
            notes.append(f"chunked prefill: {tokens} batched tokens (the activation budget)")
        else:
            tokens = max(context, 2048)
            notes.append(f"no chunked prefill: the profile run batches max_model_len ({tokens}) tokens")
    nt = vllm_non_torch_bytes(s.tensor_parallel_size, s.pipeline_parallel_size, version, cap)
    act = max(forward_peak_bytes(arch, tokens, s.tensor_parallel_size, b.dtype_bytes),
              sampler_peak_bytes(arch, min(seqs, tokens)))
    vision = vision_peak_bytes(arch, s.tensor_parallel_size, b.dtype_bytes)
    if vision:
        act += vision
        notes.append("activation peak includes the vision encoder's dummy run on the largest image")
    util = s.gpu_memory_utilization or 0.9
    if cap is None:
        return Budget(util, s.gpu_memory_utilization is not None, None, nt, act, None, None, 16,
                      context, seqs, tokens, tuple(notes))
    budget = int(cap * util)
    pool = budget - b.weights_bytes - nt - act
    tokens_kv = _round_down(pool / b.kv_bytes_per_token, 16) if pool > 0 else 0
    return Budget(util, s.gpu_memory_utilization is not None, budget, nt, act, max(0, pool), tokens_kv,
                  16, context, seqs, tokens, tuple(notes))


_SGLANG_FRACTION = ((16, 0.79), (8, 0.81), (4, 0.85), (2, 0.87), (1, 0.88))


def _sglang(b: BudgetInput) -> Budget:
    s, arch = b.settings, b.arch
    cap = s.gpu_memory_bytes
    tp = s.tensor_parallel_size
    frac = s.gpu_memory_utilization or next(f for n, f in _SGLANG_FRACTION if tp >= n)
    context = default_context(Framework.SGLANG, arch, s)
    chunk = s.max_num_batched_tokens or (8192 if not cap or cap >= 60 * GIB else 4096 if cap >= 20 * GIB else 2048)
    seqs = s.max_num_seqs or 256
    nt = non_torch_bytes(tp, s.pipeline_parallel_size)
    act = max(forward_peak_bytes(arch, chunk, tp, b.dtype_bytes), sampler_peak_bytes(arch, min(seqs, chunk)))
    notes = ("mem_fraction_static covers weights + KV pool; activations and CUDA graphs live in the rest",)
    if cap is None:
        return Budget(frac, s.gpu_memory_utilization is not None, None, nt, act, None, None, 1,
                      context, seqs, chunk, notes)
    budget = int(cap * frac)
    pool = budget - b.weights_bytes - nt
    tokens_kv = int(pool // b.kv_bytes_per_token) if pool > 0 else 0
    return Budget(frac, s.gpu_memory_utilization is not None, budget, nt, act, max(0, pool), tokens_kv, 1,
                  context, seqs, chunk, notes)


def _trtllm(b: BudgetInput) -> Budget:
    s, arch = b.settings, b.arch
    cap = s.gpu_memory_bytes
    frac = s.gpu_memory_utilization or 0.9
    context = default_context(Framework.TRTLLM, arch, s)
    tokens = s.max_num_batched_tokens or 8192
    seqs = s.max_num_seqs or 256
    nt = non_torch_bytes(s.tensor_parallel_size, s.pipeline_parallel_size)
    act = max(forward_peak_bytes(arch, tokens, s.tensor_parallel_size, b.dtype_bytes),
              sampler_peak_bytes(arch, min(seqs, tokens)))
    notes = ("the KV fraction applies to memory FREE after weights and activations",)
    if cap is None:
        return Budget(frac, s.gpu_memory_utilization is not None, None, nt, act, None, None, 1,
                      context, seqs, tokens, notes)
    free = cap - b.weights_bytes - nt - act
    pool = int(free * frac) if free > 0 else 0
    used = b.weights_bytes + nt + act + pool  # what the engine holds; the rest of `free` stays free
    return Budget(frac, s.gpu_memory_utilization is not None, used, nt, act, pool,
                  int(pool // b.kv_bytes_per_token), 1, context, seqs, tokens, notes)


def _tgi(b: BudgetInput) -> Budget:
    s, arch = b.settings, b.arch
    cap = s.gpu_memory_bytes
    frac = s.gpu_memory_utilization or 1.0
    context = default_context(Framework.TGI, arch, s)
    tokens = s.max_num_batched_tokens or context + 50
    nt = non_torch_bytes(s.tensor_parallel_size)
    act = forward_peak_bytes(arch, tokens, s.tensor_parallel_size, b.dtype_bytes)
    seqs = s.max_num_seqs or max(1, tokens // max(1, context))
    notes = ("warm-up runs max_batch_prefill_tokens; 95% of what is left becomes KV blocks",)
    if cap is None:
        return Budget(frac, s.gpu_memory_utilization is not None, None, nt, act, None, None, 16,
                      context, seqs, tokens, notes)
    budget = int(cap * frac)
    free = budget - b.weights_bytes - nt - act
    pool = int(free * 0.95) if free > 0 else 0
    return Budget(frac, s.gpu_memory_utilization is not None, budget, nt, act, pool,
                  _round_down(pool / b.kv_bytes_per_token, 16), 16, context, seqs, tokens, notes)


def _llamacpp(b: BudgetInput) -> Budget:
    s, arch = b.settings, b.arch
    fw = s.framework
    ctx_per_seq = default_context(fw, arch, s)
    seqs = s.max_num_seqs or 1
    # llama.cpp's -c is the total over its slots; Ollama's num_ctx is per request
    cells = ctx_per_seq * seqs if fw == Framework.OLLAMA else ctx_per_seq
    flash = s.flash_attention
    if flash is None:  # a quantized V cache needs flash attention, so it implies it
        flash = b.kv.v_type not in ("float16", "bfloat16", "float32")
    ubatch = min(512, s.max_num_batched_tokens or 512)
    act = llamacpp_compute_bytes(arch, cells, ubatch, flash)
    nt = 512 * MIB
    pool = cells * b.kv_bytes_per_token
    notes = [f"{'Ollama num_ctx x parallel' if fw == Framework.OLLAMA else 'n_ctx'} = {cells} KV cells",
             f"compute buffer for a {ubatch}-token micro-batch, flash attention {'on' if flash else 'off'}"]
    cap = s.gpu_memory_bytes
    return Budget(None, False, cap, nt, act, pool, cells, 1, ctx_per_seq, seqs, ubatch, tuple(notes))


def _transformers(b: BudgetInput) -> Budget:
    s, arch = b.settings, b.arch
    context = default_context(Framework.TRANSFORMERS, arch, s)
    seqs = s.max_num_seqs or 1
    nt = non_torch_bytes(s.tensor_parallel_size)
    act = forward_peak_bytes(arch, context * seqs, 1, b.dtype_bytes) + sampler_peak_bytes(arch, seqs)
    cap = s.gpu_memory_bytes
    if cap is None:
        return Budget(None, False, None, nt, act, None, None, 1, context, seqs, context * seqs)
    free = cap - b.weights_bytes - nt - act
    return Budget(None, False, cap, nt, act, max(0, free), int(max(0, free) // b.kv_bytes_per_token), 1,
                  context, seqs, context * seqs, ("no KV pool: the cache grows until the card is full",))


POLICIES = {
    Framework.VLLM: _vllm,
    Framework.SGLANG: _sglang,
    Framework.TRTLLM: _trtllm,
    Framework.TGI: _tgi,
    Framework.LLAMACPP: _llamacpp,
    Framework.OLLAMA: _llamacpp,
    Framework.TRANSFORMERS: _transformers,
}


def plan_budget(b: BudgetInput) -> Budget:
    return POLICIES[b.settings.framework](b)
