"""Account 2, the KV cache: bytes one token costs on one GPU.

2 (K and V) x layers x KV heads per rank x head size x bytes per value for ordinary
attention, where a rank keeps at least one KV head; one latent of `kv_lora_rank +
qk_rope_head_dim` values per layer for DeepSeek MLA, the same on every TP rank. How an engine
lays MLA and sliding-window layers out is the engine's choice, so the caller passes an
`KvLayout` (see `policies.py`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from oomdoctor.memory.arch import ModelArch
from oomdoctor.memory.dtypes import KvDtype


class MlaLayout(str, Enum):
    LATENT = "latent"  # one compressed latent per token and layer (vLLM >= 0.7.1, SGLang, TRT-LLM)
    LATENT_KV = "latent_kv"  # llama.cpp MLA: K holds the 576-value latent, V the 512-value part
    DECOMPRESSED = "decompressed"  # full K (nope+rope) and V for every head (engines without MLA)
    PADDED = "padded"  # full K and V per head, each padded to a power of two (vLLM < 0.7.1)


@dataclass(frozen=True)
class KvLayout:
    mla: MlaLayout = MlaLayout.LATENT
    window_capped: bool = False  # sliding-window layers hold only their window (llama.cpp iSWA)
    ubatch: int = 512  # llama.cpp pads the window cache by one micro-batch
    sequences: int = 1  # llama.cpp sequences sharing the cache (window per sequence)


def _pow2(n: int) -> int:
    p = 1
    while p < n:
        p <<= 1
    return p


def kv_layer_bytes(arch: ModelArch, kv: KvDtype, tp: int, layout: KvLayout) -> float:
    """KV bytes of one token in one layer on one tensor-parallel rank."""
    a = arch.attention
    tp = max(1, tp)
    if a.is_mla:
        heads = max(1, -(-a.num_heads // tp))
        if layout.mla == MlaLayout.DECOMPRESSED:
            return heads * (a.head_dim * kv.k_bytes + a.v_head_dim * kv.v_bytes)
        if layout.mla == MlaLayout.PADDED:
            size = _pow2(max(a.head_dim, a.v_head_dim))
            return heads * size * (kv.k_bytes + kv.v_bytes)
        if layout.mla == MlaLayout.LATENT_KV:
            return a.latent_dim * kv.k_bytes + a.kv_lora_rank * kv.v_bytes
        if a.index_head_dim and kv.is_fp8_family:
            # DeepSeek V3.2 fp8 layout: fp8 latent + one fp32 scale per 128 values + bf16 RoPE part
            latent = a.kv_lora_rank + a.kv_lora_rank // 128 * 4 + a.qk_rope_head_dim * 2
        else:
            latent = a.latent_dim * kv.k_bytes
        indexer = a.index_head_dim + 4 if a.index_head_dim else 0  # fp8 indexer key + fp32 scale
        return latent + indexer
    heads = max(1, -(-a.num_kv_heads // tp))
    return heads * (a.head_dim * kv.k_bytes + a.v_head_dim * kv.v_bytes)


def window_cells(window: int, context: int, layout: KvLayout) -> int:
    """Cells llama.cpp gives a sliding-window cache: window per sequence plus a micro-batch,
    padded to 256, never more than the context."""
    cells = window * max(1, layout.sequences) + layout.ubatch
    cells = -(-cells // 256) * 256
    return min(context, cells)


def kv_bytes_per_token(arch: ModelArch, kv: KvDtype, *, tp: int = 1, layers: int | None = None,
                       layout: KvLayout = KvLayout(), context: int | None = None) -> int:
    """KV bytes per token on one GPU for the `layers` it holds (default: all).

    With `layout.window_capped` and a context, sliding-window layers count only the share
    of the context their window cache holds, so the figure is the whole cache / context."""
    n = arch.num_layers if layers is None else layers
    per_layer = kv_layer_bytes(arch, kv, tp, layout)
    if not (layout.window_capped and context and arch.is_hybrid_window):
        return int(round(per_layer * n))
    scale = n / arch.num_layers
    total = 0.0
    for w in arch.layer_windows:
        total += per_layer * (window_cells(w, context, layout) / context if w else 1.0)
    return int(round(total * scale))
