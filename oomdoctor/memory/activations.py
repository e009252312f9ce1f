"""Accounts 3 and 4 as models: the activation peak of a forward pass and of sampling, and the
memory a process holds outside PyTorch's allocator.

These are estimates calibrated on real start-up logs (see `fixtures/estimates`): vLLM 0.6
printed a 1.26 GiB activation peak for Llama-3-8B with 8192 batched tokens at TP 1 and TP 2
alike, which the sampler's warm-up over 256 sequences x 128256 logits explains (fp32 logits,
probabilities, log-probabilities and the sort for top-p/top-k: ~40 bytes per logit), not the
MLP; and non-torch memory of about 1-2 GiB per GPU that grows with tensor parallelism (NCCL and
custom all-reduce buffers).
"""

from __future__ import annotations

import math

from oomdoctor.memory.arch import ModelArch
from oomdoctor.memory.dtypes import GIB

SAMPLER_BYTES_PER_LOGIT = 40
MOE_CHUNK_TOKENS = 32768  # vLLM's fused-MoE processes at most this many tokens at once
CUDA_CONTEXT_BYTES = GIB  # CUDA context, cuBLAS/cuDNN workspaces, allocator slack (one GPU)


def forward_bytes_per_token(arch: ModelArch, tp: int, dtype_bytes: int) -> float:
    """Live activation bytes per batched token at the widest point of a layer."""
    a, h, tp = arch.attention, arch.hidden_size, max(1, tp)
    residual = 2 * h  # residual stream + normalised hidden state
    attn = residual + ((a.num_heads + 2 * a.num_kv_heads) * a.head_dim + a.num_heads * a.v_head_dim) / tp
    dense = residual + 3 * arch.intermediate_size / tp  # gate_up output (2I) + activation (I)
    widest = max(attn, dense)
    if arch.moe:
        m = arch.moe
        moe = residual + m.experts_per_token * (3 * m.expert_intermediate / tp + h) + 3 * m.shared_intermediate / tp
        widest = max(widest, moe)
    return widest * dtype_bytes


def forward_peak_bytes(arch: ModelArch, tokens: int, tp: int, dtype_bytes: int) -> int:
    per = forward_bytes_per_token(arch, tp, dtype_bytes)
    if arch.moe:
        # the MoE intermediates are chunked; the dense part is not
        dense_arch_per = forward_bytes_per_token(_without_moe(arch), tp, dtype_bytes)
        return int(max(dense_arch_per * tokens, per * min(tokens, MOE_CHUNK_TOKENS)))
    return int(per * tokens)


def _without_moe(arch: ModelArch) -> ModelArch:
    from dataclasses import replace

    return replace(arch, moe=None, moe_layers=())


def sampler_peak_bytes(arch: ModelArch, sequences: int) -> int:
    """Logits for the last token of each sequence, in fp32, plus the sampler's temporaries."""
    return int(sequences * arch.vocab_size * SAMPLER_BYTES_PER_LOGIT)


def vision_peak_bytes(arch: ModelArch, tp: int, dtype_bytes: int) -> int:
    """The vision encoder's profiling run on the largest image (vLLM adds it to the peak)."""
    v = arch.vision
    if not v:
        return 0
    per_patch = (2 * v.hidden_size + 3 * v.intermediate_size / max(1, tp)) * dtype_bytes
    return int(per_patch * v.max_patches)


def non_torch_bytes(tp: int, pp: int = 1) -> int:
    """Memory a serving process holds outside PyTorch: CUDA context and library workspaces,
    plus NCCL / custom all-reduce buffers that grow with the number of tensor-parallel peers."""
    extra = 0.5 * math.log2(tp) if tp > 1 else 0.0
    if pp > 1:
        extra += 0.25
    return int(CUDA_CONTEXT_BYTES * (1 + extra))


def vllm_non_torch_bytes(tp: int, pp: int, version: tuple[int, ...] | None, capacity: int | None) -> int:
    """vLLM's own `non_torch_memory` figure, which its profiler subtracts before the KV pool.

    Calibrated on vLLM's start-up accounting: 0.6.x printed ~1.8 GiB per rank at TP 1 (cuBLAS and
    NCCL workspaces counted) and twice that at TP 2; from 0.7 the figure is 0.2-0.4 GiB on a
    data-centre card at TP 1 (0.03 GiB seen on an 8 GB consumer card) and grows slowly with the
    all-reduce peers (0.34-0.43 GiB per rank at TP 4)."""
    if version is not None and version < (0, 7):
        return int(1.8 * GIB * min(max(tp, 1), 2))
    pp_extra = 0.25 * GIB if pp > 1 else 0.0
    if tp > 1 and version is None:
        # release unknown: between the two eras (0.6 counted 3.6 GiB per rank at TP 2, 0.8 ~0.4)
        return int(non_torch_bytes(2, 1) + pp_extra)
    base = 0.1 * GIB if capacity is not None and capacity <= 16 * GIB else 0.25 * GIB
    extra = 0.075 * GIB * math.log2(tp) if tp > 1 else 0.0
    return int(base + extra + pp_extra)


def llamacpp_compute_bytes(arch: ModelArch, context: int, ubatch: int, flash_attention: bool) -> int:
    """llama.cpp's compute buffer: the graph for one micro-batch. Without flash attention the
    f32 KQ matrix (context x micro-batch x heads) dominates at long contexts."""
    a = arch.attention
    logits = ubatch * arch.vocab_size * 4
    hidden = ubatch * 4 * (2 * arch.hidden_size + 2 * max(arch.intermediate_size,
                                                          arch.moe.expert_intermediate if arch.moe else 0))
    kq = 0 if flash_attention else context * ubatch * a.num_heads * 4
    return int(max(logits, kq) + hidden)
