"""Account 1, weights: bytes per GPU after tensor and pipeline parallel splits."""

from __future__ import annotations

from dataclasses import dataclass

from oomdoctor.memory.arch import ModelArch
from oomdoctor.memory.quant import QuantScheme, tensor_bytes
from oomdoctor.memory.tensors import Shard, Tensor, embedding_tensors, layer_tensors, vision_tensors

VOCAB_PADDING = 64  # vLLM/SGLang pad the vocabulary to a multiple of 64 before splitting it


@dataclass(frozen=True)
class WeightsEstimate:
    total_bytes: int  # the whole model, every rank together (no replication counted)
    per_gpu_bytes: int  # the most loaded rank
    params: int
    stage_layers: tuple[int, ...]  # layers per pipeline stage
    scheme: QuantScheme
    dtype: str
    tensor_parallel_size: int = 1

    @property
    def bits_per_weight(self) -> float:
        return self.total_bytes * 8 / self.params if self.params else 0.0


def pipeline_stages(num_layers: int, pp: int) -> tuple[int, ...]:
    """Layers per stage; leftover layers go to the first stages (as vLLM splits them)."""
    pp = max(1, min(pp, num_layers))
    base, extra = divmod(num_layers, pp)
    return tuple(base + (1 if s < extra else 0) for s in range(pp))


def rank_fraction(t: Tensor, tp: int, arch: ModelArch) -> float:
    """Share of tensor `t` one tensor-parallel rank holds."""
    if tp <= 1 or t.shard == Shard.REPLICATED:
        return 1.0
    if t.shard == Shard.VOCAB:
        step = VOCAB_PADDING
        padded = -(-t.rows // step) * step
        per_rank = -(-padded // tp)
        return per_rank / t.rows
    if t.shard == Shard.KV:
        kv = max(1, arch.attention.num_kv_heads)
        return max(1, -(-kv // tp)) / kv if kv < tp else 1 / tp
    return 1 / tp


def estimate_weights(arch: ModelArch, scheme: QuantScheme, dtype: str, dtype_bytes: int, *,
                     tp: int = 1, pp: int = 1, include_vision: bool = True) -> WeightsEstimate:
    """Whole-model and per-GPU weight bytes. With PP the first stage also holds the
    embeddings (and vision tower), the last the LM head and final norm; the largest stage
    sets the per-GPU figure."""
    stages = pipeline_stages(arch.num_layers, pp)
    per_layer_whole: list[float] = []
    per_layer_rank: list[float] = []
    params = 0
    for i in range(arch.num_layers):
        whole = rank = 0.0
        for t in layer_tensors(arch, i):
            b = tensor_bytes(scheme, t, arch, dtype_bytes)
            whole += b
            rank += b * rank_fraction(t, tp, arch)
            params += t.elements
        per_layer_whole.append(whole)
        per_layer_rank.append(rank)
    first_whole = first_rank = last_whole = last_rank = 0.0
    extras = embedding_tensors(arch) + (vision_tensors(arch) if include_vision else [])
    for t in extras:
        b = tensor_bytes(scheme, t, arch, dtype_bytes)
        params += t.elements
        on_last = t.role == "lm_head" or t.name == "model.norm"
        share = b * rank_fraction(t, tp, arch)
        if on_last:
            last_whole, last_rank = last_whole + b, last_rank + share
        else:
            first_whole, first_rank = first_whole + b, first_rank + share
            if t.role == "embed" and arch.tie_word_embeddings and len(stages) > 1:
                last_rank += share  # the last stage needs its own copy of a tied head
    stage_bytes = []
    start = 0
    for s, n in enumerate(stages):
        b = sum(per_layer_rank[start:start + n])
        if s == 0:
            b += first_rank
        if s == len(stages) - 1:
            b += last_rank
        stage_bytes.append(b)
        start += n
    total = sum(per_layer_whole) + first_whole + last_whole
    return WeightsEstimate(
        total_bytes=int(round(total)),
        per_gpu_bytes=int(round(max(stage_bytes))),
        params=params,
        stage_layers=stages,
        scheme=scheme,
        dtype=dtype,
        tensor_parallel_size=tp,
    )
