"""The weight tensors a model is made of, derived from its architecture.

Each `Tensor` carries a Hugging Face style module name (so `modules_to_not_convert` and
`ignore` lists can be matched), a role (so GGUF mix rules can be applied), its shape and
how tensor parallelism splits it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from oomdoctor.memory.arch import ModelArch


class Shard(str, Enum):
    VOCAB = "vocab"  # rows split across TP ranks, vocabulary padded
    COLUMN = "column"  # output rows split
    ROW = "row"  # input columns split
    KV = "kv"  # K/V projection: heads split, but each rank keeps at least one head
    EXPERT = "expert"  # routed experts: intermediate split across TP ranks
    REPLICATED = "replicated"  # every rank holds the whole tensor


@dataclass(frozen=True)
class Tensor:
    name: str
    role: str
    layer: int | None
    rows: int  # output features (GGUF ne1)
    cols: int  # input features (GGUF ne0): the dimension quantization groups run along
    shard: Shard
    count: int = 1  # stacked copies (routed experts)

    @property
    def elements(self) -> int:
        return self.rows * self.cols * self.count

    @property
    def is_matrix(self) -> bool:
        return self.role not in ("norm", "bias", "router", "positions")


def _attention(arch: ModelArch, i: int) -> list[Tensor]:
    a, h = arch.attention, arch.hidden_size
    p = f"model.layers.{i}.self_attn"
    out: list[Tensor] = []
    if a.is_mla:
        qk = a.qk_nope_head_dim + a.qk_rope_head_dim
        if a.q_lora_rank:
            out += [
                Tensor(f"{p}.q_a_proj", "mla_q_a", i, a.q_lora_rank, h, Shard.REPLICATED),
                Tensor(f"{p}.q_a_layernorm", "norm", i, 1, a.q_lora_rank, Shard.REPLICATED),
                Tensor(f"{p}.q_b_proj", "mla_q_b", i, a.num_heads * qk, a.q_lora_rank, Shard.COLUMN),
            ]
        else:
            out.append(Tensor(f"{p}.q_proj", "attn_q", i, a.num_heads * qk, h, Shard.COLUMN))
        out += [
            Tensor(f"{p}.kv_a_proj_with_mqa", "mla_kv_a", i, a.latent_dim, h, Shard.REPLICATED),
            Tensor(f"{p}.kv_a_layernorm", "norm", i, 1, a.kv_lora_rank, Shard.REPLICATED),
            Tensor(f"{p}.kv_b_proj", "mla_kv_b", i, a.num_heads * (a.qk_nope_head_dim + a.v_head_dim),
                   a.kv_lora_rank, Shard.COLUMN),
            Tensor(f"{p}.o_proj", "attn_o", i, h, a.num_heads * a.v_head_dim, Shard.ROW),
        ]
        if a.index_head_dim:
            ix = f"{p}.indexer"
            out += [
                Tensor(f"{ix}.wq_b", "attn_q", i, a.index_n_heads * a.index_head_dim,
                       a.q_lora_rank or h, Shard.REPLICATED),
                Tensor(f"{ix}.wk", "attn_k", i, a.index_head_dim, h, Shard.REPLICATED),
                Tensor(f"{ix}.weights_proj", "router", i, a.index_n_heads, h, Shard.REPLICATED),
            ]
        return out
    out += [
        Tensor(f"{p}.q_proj", "attn_q", i, a.num_heads * a.head_dim, h, Shard.COLUMN),
        Tensor(f"{p}.k_proj", "attn_k", i, a.num_kv_heads * a.head_dim, h, Shard.KV),
        Tensor(f"{p}.v_proj", "attn_v", i, a.num_kv_heads * a.v_head_dim, h, Shard.KV),
        Tensor(f"{p}.o_proj", "attn_o", i, h, a.num_heads * a.v_head_dim, Shard.ROW),
    ]
    if arch.qkv_bias:
        out += [
            Tensor(f"{p}.q_proj.bias", "bias", i, 1, a.num_heads * a.head_dim, Shard.COLUMN),
            Tensor(f"{p}.k_proj.bias", "bias", i, 1, a.num_kv_heads * a.head_dim, Shard.KV),
            Tensor(f"{p}.v_proj.bias", "bias", i, 1, a.num_kv_heads * a.v_head_dim, Shard.KV),
        ]
    return out


def _mlp(arch: ModelArch, i: int) -> list[Tensor]:
    h = arch.hidden_size
    p = f"model.layers.{i}.mlp"
    moe = arch.moe
    if moe and arch.is_moe_layer(i):
        e, ie = moe.num_experts, moe.expert_intermediate
        out = [
            Tensor(f"{p}.gate", "router", i, e, h, Shard.REPLICATED),
            Tensor(f"{p}.experts.gate_proj", "expert_gate", i, ie, h, Shard.EXPERT, e),
            Tensor(f"{p}.experts.up_proj", "expert_up", i, ie, h, Shard.EXPERT, e),
            Tensor(f"{p}.experts.down_proj", "expert_down", i, h, ie, Shard.EXPERT, e),
        ]
        if moe.shared_intermediate:
            s = moe.shared_intermediate
            out += [
                Tensor(f"{p}.shared_experts.gate_proj", "shared_gate", i, s, h, Shard.COLUMN),
                Tensor(f"{p}.shared_experts.up_proj", "shared_up", i, s, h, Shard.COLUMN),
                Tensor(f"{p}.shared_experts.down_proj", "shared_down", i, h, s, Shard.ROW),
            ]
        if moe.shared_gate:
            out.append(Tensor(f"{p}.shared_expert_gate", "router", i, 1, h, Shard.REPLICATED))
        return out
    inter = arch.intermediate_size
    if arch.gated_mlp:
        return [
            Tensor(f"{p}.gate_proj", "mlp_gate", i, inter, h, Shard.COLUMN),
            Tensor(f"{p}.up_proj", "mlp_up", i, inter, h, Shard.COLUMN),
            Tensor(f"{p}.down_proj", "mlp_down", i, h, inter, Shard.ROW),
        ]
    out = [
        Tensor(f"{p}.fc1", "mlp_up", i, inter, h, Shard.COLUMN),
        Tensor(f"{p}.fc2", "mlp_down", i, h, inter, Shard.ROW),
    ]
    if arch.qkv_bias:  # plain-MLP families with biases (OPT, GPT-2) bias every linear
        out += [
            Tensor(f"{p}.fc1.bias", "bias", i, 1, inter, Shard.COLUMN),
            Tensor(f"{p}.fc2.bias", "bias", i, 1, h, Shard.REPLICATED),
            Tensor(f"model.layers.{i}.self_attn.o_proj.bias", "bias", i, 1, h, Shard.REPLICATED),
        ]
    return out


def layer_tensors(arch: ModelArch, i: int) -> list[Tensor]:
    h = arch.hidden_size
    norms = [
        Tensor(f"model.layers.{i}.input_layernorm", "norm", i, 1, h, Shard.REPLICATED),
        Tensor(f"model.layers.{i}.post_attention_layernorm", "norm", i, 1, h, Shard.REPLICATED),
    ]
    return _attention(arch, i) + _mlp(arch, i) + norms


def expert_tensors(arch: ModelArch, layers: int | None = None) -> list[Tensor]:
    """The routed experts' tensors of the first `layers` layers (all of them by default): what llama.cpp's
    --n-cpu-moe / --cpu-moe keeps in CPU RAM."""
    n = arch.num_layers if layers is None else min(layers, arch.num_layers)
    return [t for i in range(n) if arch.is_moe_layer(i) for t in layer_tensors(arch, i) if t.role.startswith("expert_")]


def embedding_tensors(arch: ModelArch) -> list[Tensor]:
    """Tensors outside the repeating layers: embeddings, head, final norm, positions."""
    h, v = arch.hidden_size, arch.vocab_size
    out = [
        Tensor("model.embed_tokens", "embed", None, v, h, Shard.VOCAB),
        Tensor("model.norm", "norm", None, 1, h, Shard.REPLICATED),
    ]
    if not arch.tie_word_embeddings:
        out.append(Tensor("lm_head", "lm_head", None, v, h, Shard.VOCAB))
    if arch.learned_positions:
        out.append(Tensor("model.embed_positions", "positions", None, arch.learned_positions, h,
                          Shard.REPLICATED))
    return out


def vision_tensors(arch: ModelArch) -> list[Tensor]:
    if not arch.vision:
        return []
    return [Tensor("visual", "vision", None, arch.vision.params, 1, Shard.COLUMN)]


def inventory(arch: ModelArch, *, include_vision: bool = True) -> list[Tensor]:
    """Every weight tensor of the model (vision tower optional: GGUF keeps it in an mmproj file)."""
    out = embedding_tensors(arch)
    for i in range(arch.num_layers):
        out += layer_tensors(arch, i)
    if include_vision:
        out += vision_tensors(arch)
    return out


def parameter_count(arch: ModelArch, *, include_vision: bool = True) -> int:
    return sum(t.elements for t in inventory(arch, include_vision=include_vision))
