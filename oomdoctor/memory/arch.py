"""Model architecture: the shape facts memory depends on, read from a Hugging Face config
dict or from GGUF metadata. Pure: the dicts come from `config.py`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from oomdoctor.errors import InputError

# Families whose MLP is two matrices (up, down) rather than gated (gate, up, down).
_PLAIN_MLP = frozenset({
    "opt", "gpt2", "gpt_bigcode", "gpt_neo", "gpt_neox", "gptj", "falcon", "phi", "bloom",
    "starcoder2", "mpt", "bert", "roberta", "whisper", "stablelm_epoch", "codegen",
})
# Families with learned absolute position embeddings (rows = max positions).
_LEARNED_POSITIONS = frozenset({"opt", "gpt2", "gpt_bigcode", "gpt_neo", "bloom_pos", "whisper"})
# Families whose q/k/v projections carry biases.
_QKV_BIAS = frozenset({"qwen2", "qwen2_moe", "qwen2_vl", "qwen2_5_vl", "opt", "gpt2",
                       "gpt_bigcode", "phi", "starcoder2", "falcon"})


@dataclass(frozen=True)
class Attention:
    """Per-layer attention shape. `kind` is "mha" (MHA/GQA/MQA) or "mla" (DeepSeek latent)."""

    num_heads: int
    num_kv_heads: int
    head_dim: int  # K (and Q) head size
    v_head_dim: int
    kind: str = "mha"
    kv_lora_rank: int = 0
    qk_rope_head_dim: int = 0
    qk_nope_head_dim: int = 0
    q_lora_rank: int | None = None
    index_head_dim: int = 0  # DeepSeek V3.2 sparse-attention indexer key size
    index_n_heads: int = 0

    @property
    def is_mla(self) -> bool:
        return self.kind == "mla"

    @property
    def latent_dim(self) -> int:
        return self.kv_lora_rank + self.qk_rope_head_dim


@dataclass(frozen=True)
class Moe:
    num_experts: int
    experts_per_token: int
    expert_intermediate: int
    shared_intermediate: int = 0  # total width of the always-on shared expert(s)
    shared_gate: bool = False  # Qwen2-MoE's sigmoid gate on the shared expert


@dataclass(frozen=True)
class VisionTower:
    params: int
    hidden_size: int
    num_layers: int
    intermediate_size: int = 0
    max_patches: int = 0  # patches of the largest image the engine profiles with


@dataclass(frozen=True)
class QuantConfig:
    """The checkpoint's `quantization_config`, reduced to what sizes weights."""

    method: str
    bits: int | None = None
    group_size: int | None = None
    zero_point: bool | None = None
    block: tuple[int, int] | None = None
    ignore: tuple[str, ...] = ()
    strategy: str | None = None  # "tensor" | "channel" | "group" | "block"
    double_quant: bool = False
    lm_head_quantized: bool = False


@dataclass(frozen=True)
class ModelArch:
    model_type: str
    architectures: tuple[str, ...]
    hidden_size: int
    num_layers: int
    vocab_size: int
    intermediate_size: int
    attention: Attention
    tie_word_embeddings: bool
    max_position_embeddings: int | None
    torch_dtype: str | None
    moe: Moe | None = None
    moe_layers: tuple[bool, ...] = ()  # per layer: True when the layer's MLP is the MoE
    layer_windows: tuple[int | None, ...] = ()  # per layer: sliding window, None = full
    gated_mlp: bool = True
    qkv_bias: bool = False
    learned_positions: int = 0
    vision: VisionTower | None = None
    quant: QuantConfig | None = None
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def sliding_layers(self) -> int:
        return sum(1 for w in self.layer_windows if w)

    @property
    def is_hybrid_window(self) -> bool:
        """Some layers slide, others see everything (Gemma 2/3, Cohere 2, gpt-oss)."""
        return 0 < self.sliding_layers < self.num_layers

    def is_moe_layer(self, i: int) -> bool:
        return bool(self.moe) and (not self.moe_layers or self.moe_layers[i])


def _get(cfg: Mapping[str, Any], *keys: str, default: Any = None) -> Any:
    for k in keys:
        v = cfg.get(k)
        if v is not None:
            return v
    return default


def _int(cfg: Mapping[str, Any], *keys: str, default: int | None = None) -> int | None:
    v = _get(cfg, *keys)
    if v is None:
        return default
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise InputError(f"config key {keys[0]!r} is not a number: {v!r}")
    return int(v)


# Keys some published configs leave to the transformers class defaults.
_CLASS_DEFAULTS: dict[str, dict[str, Any]] = {
    "gemma3_text": {"vocab_size": 262208, "sliding_window_pattern": 6, "max_position_embeddings": 131072,
                    "sliding_window": 4096},
    "gemma2": {"sliding_window": 4096},
}


def _text_view(cfg: Mapping[str, Any]) -> dict[str, Any]:
    """The language model's keys: nested `text_config` (LLaVA, Gemma 3, Mistral 3, Llama 4)
    overrides the top level; the top-level `quantization_config` and `vision_config` stay."""
    merged = dict(cfg)
    for key in ("text_config", "llm_config", "language_config", "attn_config", "ffn_config"):
        sub = cfg.get(key)
        if isinstance(sub, Mapping):
            merged.update({k: v for k, v in sub.items() if v is not None})
    for k, v in _CLASS_DEFAULTS.get(str(merged.get("model_type", "")), {}).items():
        merged.setdefault(k, v)
    return merged


def _moe_from(cfg: Mapping[str, Any], num_layers: int, intermediate: int) -> tuple[Moe | None, tuple[bool, ...]]:
    n_exp = _int(cfg, "n_routed_experts", "num_local_experts", "num_experts", "moe_num_experts", default=0) or 0
    if n_exp <= 1:
        return None, ()
    topk = _int(cfg, "num_experts_per_tok", "moe_top_k", "num_experts_per_token", "top_k", default=2) or 2
    exp_inter = _int(cfg, "moe_intermediate_size", "expert_intermediate_size", default=intermediate) or intermediate
    shared = 0
    n_shared = _int(cfg, "n_shared_experts", "num_shared_experts", default=0) or 0
    if n_shared:
        shared = n_shared * exp_inter
    shared_gate = False
    if _int(cfg, "shared_expert_intermediate_size", default=0):
        shared = _int(cfg, "shared_expert_intermediate_size") or 0
        shared_gate = True
    if cfg.get("model_type") in ("llama4", "llama4_text"):
        shared = exp_inter
    layers = []
    first_dense = _int(cfg, "first_k_dense_replace", default=0) or 0
    freq = _int(cfg, "moe_layer_freq", "decoder_sparse_step", "interleave_moe_layer_step", default=1) or 1
    mlp_only = set(cfg.get("mlp_only_layers") or ())
    for i in range(num_layers):
        is_moe = i >= first_dense and i not in mlp_only
        if freq > 1:
            is_moe = is_moe and (i + 1) % freq == 0
        layers.append(is_moe)
    return Moe(n_exp, topk, exp_inter, shared, shared_gate), tuple(layers)


def _windows_from(cfg: Mapping[str, Any], num_layers: int) -> tuple[int | None, ...]:
    window = _int(cfg, "sliding_window", "attention_window_size", default=None)
    types = cfg.get("layer_types")
    if isinstance(types, list) and len(types) == num_layers and window:
        return tuple(window if "sliding" in str(t) or "chunked" in str(t) else None for t in types)
    if not window:
        return ()
    pattern = _int(cfg, "sliding_window_pattern", "sliding_window_every", default=None)
    model_type = str(cfg.get("model_type", ""))
    if pattern and pattern > 1:
        return tuple(None if (i + 1) % pattern == 0 else window for i in range(num_layers))
    if model_type.startswith("gemma2"):
        return tuple(window if i % 2 == 0 else None for i in range(num_layers))
    if cfg.get("use_sliding_window") is False:
        return ()
    return tuple(window for _ in range(num_layers))


def _vision_from(cfg: Mapping[str, Any], text_hidden: int) -> VisionTower | None:
    v = cfg.get("vision_config")
    if not isinstance(v, Mapping):
        return None
    hidden = _int(v, "embed_dim", "hidden_size", "width", default=0) or 0
    layers = _int(v, "depth", "num_hidden_layers", "num_layers", "layers", default=0) or 0
    if not hidden or not layers:
        return None
    inter = _int(v, "intermediate_size", default=None)
    if inter is None:
        inter = int(hidden * float(v.get("mlp_ratio", 4)))
    gated = str(v.get("model_type", "")).startswith("qwen2_5") or v.get("hidden_act") == "silu"
    per_layer = 4 * hidden * hidden + (3 if gated else 2) * hidden * inter + 4 * hidden
    patch = int(_int(v, "patch_size", "spatial_patch_size", default=14) or 14)
    chans = int(_int(v, "in_chans", "num_channels", "in_channels", default=3) or 3)
    temporal = int(_int(v, "temporal_patch_size", default=1) or 1)
    patch_embed = chans * temporal * patch * patch * hidden
    merge = int(_int(v, "spatial_merge_size", default=1) or 1)
    out_default = _int(v, "hidden_size", default=text_hidden) if v.get("embed_dim") else text_hidden
    out_hidden = _int(v, "out_hidden_size", default=out_default) or text_hidden
    merged = hidden * merge * merge
    projector = merged * merged + merged * out_hidden if merge > 1 else hidden * out_hidden + out_hidden * out_hidden
    image = int(_int(v, "image_size", default=0) or 0)
    positions = (image // patch) ** 2 * hidden if image else 0
    # fixed-size encoders see (image / patch)^2 patches; dynamic-resolution ones (Qwen-VL) up to
    # max_pixels = 12845056 by default, i.e. 65536 patches of 14 x 14
    patches = (image // patch) ** 2 if image else 12845056 // (patch * patch)
    return VisionTower(layers * per_layer + patch_embed + projector + positions, hidden, layers, inter, patches)


def quant_from_config(cfg: Mapping[str, Any]) -> QuantConfig | None:
    """The checkpoint's own quantization (its config's `quantization_config`), or None."""
    q = cfg.get("quantization_config")
    if not isinstance(q, Mapping):
        return None
    method = str(q.get("quant_method") or q.get("quant_type") or "").lower()
    if not method:
        if q.get("load_in_4bit") or q.get("load_in_8bit"):
            method = "bitsandbytes"
        else:
            return None
    ignore = tuple(str(x) for x in (q.get("modules_to_not_convert") or q.get("ignore")
                                    or q.get("ignored_layers") or q.get("llm_int8_skip_modules") or ()))
    if method == "bitsandbytes":
        bits = 4 if q.get("load_in_4bit") or q.get("bnb_4bit_quant_type") else 8
        return QuantConfig("bitsandbytes", bits=bits, ignore=ignore,
                           double_quant=bool(q.get("bnb_4bit_use_double_quant")))
    if method == "compressed-tensors":
        bits, group, strategy, zp = 8, None, "channel", False
        groups = q.get("config_groups") or {}
        for g in groups.values() if isinstance(groups, Mapping) else ():
            w = g.get("weights") if isinstance(g, Mapping) else None
            if isinstance(w, Mapping):
                bits = int(w.get("num_bits") or bits)
                group = w.get("group_size")
                strategy = str(w.get("strategy") or strategy)
                zp = not bool(w.get("symmetric", True))
                wtype = str(w.get("type") or "int")
                if wtype == "float" and bits == 8:
                    method = "compressed-tensors-fp8"
                elif wtype == "float" and bits == 4:
                    method = "nvfp4"
                break
        block = None
        return QuantConfig(method, bits=bits, group_size=int(group) if group else None,
                           zero_point=zp, block=block, ignore=ignore, strategy=strategy)
    algo = str(q.get("quant_algo") or "").upper()
    if method == "modelopt" and "FP4" in algo:
        method = "nvfp4"
    block = q.get("weight_block_size")
    zero_point = q.get("zero_point")
    if zero_point is None and "sym" in q:
        zero_point = not q.get("sym", True)
    return QuantConfig(
        method,
        bits=int(q["bits"]) if q.get("bits") else (int(q["w_bit"]) if q.get("w_bit") else None),
        group_size=int(q.get("group_size") or q.get("q_group_size") or 0) or None,
        zero_point=zero_point,
        block=(int(block[0]), int(block[1])) if isinstance(block, (list, tuple)) and len(block) == 2 else None,
        ignore=ignore,
        lm_head_quantized=bool(q.get("lm_head")),
    )


def arch_from_hf_config(raw: Mapping[str, Any]) -> ModelArch:
    """Architecture from a Hugging Face `config.json` dict; InputError if it is not one."""
    if not isinstance(raw, Mapping):
        raise InputError("model config is not a JSON object")
    cfg = _text_view(raw)
    hidden = _int(cfg, "hidden_size", "n_embd", "d_model", "dim", "model_dim")
    layers = _int(cfg, "num_hidden_layers", "n_layer", "num_layers", "n_layers")
    heads = _int(cfg, "num_attention_heads", "n_head", "num_heads", "n_heads")
    vocab = _int(cfg, "vocab_size", "padded_vocab_size", "n_vocab")
    if not (hidden and layers and heads and vocab):
        missing = [k for k, v in (("hidden_size", hidden), ("num_hidden_layers", layers),
                                  ("num_attention_heads", heads), ("vocab_size", vocab)) if not v]
        raise InputError(f"not a model config: missing {', '.join(missing)}")
    model_type = str(cfg.get("model_type") or "")
    kv_heads = _int(cfg, "num_key_value_heads", "num_kv_heads", "n_head_kv", "kv_n_heads", "multi_query_group_num")
    if kv_heads is None:
        kv_heads = 1 if cfg.get("multi_query") else heads
    head_dim = _int(cfg, "head_dim", "attention_head_size", "kv_channels", default=None) or hidden // heads
    kv_lora = _int(cfg, "kv_lora_rank", default=None)
    if kv_lora:
        rope = _int(cfg, "qk_rope_head_dim", default=64) or 64
        nope = _int(cfg, "qk_nope_head_dim", default=128) or 128
        attention = Attention(
            num_heads=heads, num_kv_heads=heads, head_dim=nope + rope,
            v_head_dim=_int(cfg, "v_head_dim", default=nope) or nope, kind="mla",
            kv_lora_rank=kv_lora, qk_rope_head_dim=rope, qk_nope_head_dim=nope,
            q_lora_rank=_int(cfg, "q_lora_rank", default=None),
            index_head_dim=_int(cfg, "index_head_dim", default=0) or 0,
            index_n_heads=_int(cfg, "index_n_heads", default=0) or 0,
        )
    else:
        attention = Attention(heads, kv_heads, head_dim, _int(cfg, "v_head_dim", default=head_dim) or head_dim)
    inter = _int(cfg, "intermediate_size", "ffn_dim", "n_inner", "ffn_hidden_size", default=None) or 4 * hidden
    if model_type in ("llama4", "llama4_text") and cfg.get("intermediate_size_mlp"):
        dense_inter = int(cfg["intermediate_size_mlp"])
    else:
        dense_inter = inter
    moe, moe_layers = _moe_from(cfg, layers, inter)
    dtype = cfg.get("torch_dtype") or cfg.get("dtype")
    learned = 0
    if model_type in _LEARNED_POSITIONS:
        positions = _int(cfg, "max_position_embeddings", "n_positions", default=0) or 0
        learned = positions + (2 if model_type == "opt" else 0)  # OPT offsets positions by 2
    return ModelArch(
        model_type=model_type,
        architectures=tuple(str(a) for a in (cfg.get("architectures") or ())),
        hidden_size=hidden,
        num_layers=layers,
        vocab_size=vocab,
        intermediate_size=dense_inter,
        attention=attention,
        tie_word_embeddings=bool(cfg.get("tie_word_embeddings", raw.get("tie_word_embeddings", True))),
        max_position_embeddings=_int(cfg, "max_position_embeddings", "n_positions", "max_sequence_length",
                                     "seq_length", "max_seq_len", default=None),
        torch_dtype=str(dtype) if dtype else None,
        moe=moe,
        moe_layers=moe_layers,
        layer_windows=_windows_from(cfg, layers),
        gated_mlp=model_type not in _PLAIN_MLP,
        qkv_bias=bool(cfg.get("attention_bias")) or model_type in _QKV_BIAS,
        learned_positions=learned,
        vision=_vision_from(raw, hidden),
        quant=quant_from_config(raw),
        extra={"word_embed_proj_dim": cfg.get("word_embed_proj_dim")},
    )


def arch_from_gguf_metadata(meta: Mapping[str, Any], tensor_names: frozenset[str]) -> ModelArch:
    """Architecture from GGUF key/values (`{arch}.block_count` etc.) and its tensor names."""
    arch = str(meta.get("general.architecture") or "")
    if not arch:
        raise InputError("GGUF file has no general.architecture")

    def k(name: str, default: Any = None) -> Any:
        v = meta.get(f"{arch}.{name}")
        return default if v is None else v

    def first(v: Any) -> Any:
        return v[0] if isinstance(v, (list, tuple)) and v else v

    layers = int(k("block_count", 0))
    hidden = int(k("embedding_length", 0))
    heads = int(first(k("attention.head_count", 0)) or 0)
    if not (layers and hidden and heads):
        raise InputError(f"GGUF metadata for {arch!r} lacks block_count/embedding_length/head_count")
    kv_raw = k("attention.head_count_kv", heads)
    kv_heads = int(max(kv_raw) if isinstance(kv_raw, (list, tuple)) else kv_raw)
    key_len = int(k("attention.key_length", hidden // heads))
    val_len = int(k("attention.value_length", key_len))
    tokens = meta.get("tokenizer.ggml.tokens")  # config.py keeps long arrays as their length
    vocab = int(k("vocab_size", 0) or (tokens if isinstance(tokens, int) else len(tokens or ())) or 0)
    ff = k("feed_forward_length", 4 * hidden)
    inter = int(max(ff) if isinstance(ff, (list, tuple)) else ff)
    kv_lora = int(k("attention.kv_lora_rank", 0) or 0)
    if kv_lora:
        rope = int(k("rope.dimension_count", 64))
        has_mla_tensors = "blk.0.attn_k_b.weight" in tensor_names
        # MLA-converted files store the latent sizes as key/value length (576/512)
        nope = key_len - rope if not has_mla_tensors else int(k("attention.key_length_mla", 192)) - rope
        vdim = val_len if not has_mla_tensors else int(k("attention.value_length_mla", 128))
        attention = Attention(heads, heads, nope + rope, vdim, kind="mla", kv_lora_rank=kv_lora,
                              qk_rope_head_dim=rope, qk_nope_head_dim=nope,
                              q_lora_rank=int(k("attention.q_lora_rank", 0) or 0) or None)
    else:
        attention = Attention(heads, kv_heads, key_len, val_len)
    n_exp = int(k("expert_count", 0) or 0)
    moe, moe_layers = None, ()
    if n_exp > 1:
        dense = int(k("leading_dense_block_count", 0) or 0)
        exp_ff = int(k("expert_feed_forward_length", inter) or inter)
        shared = int(k("expert_shared_count", 0) or 0) * exp_ff
        shared = int(k("expert_shared_feed_forward_length", shared) or shared)
        moe = Moe(n_exp, int(k("expert_used_count", 2) or 2), exp_ff, shared)
        moe_layers = tuple(i >= dense for i in range(layers))
    window = int(k("attention.sliding_window", 0) or 0)
    windows: tuple[int | None, ...] = ()
    pattern = k("attention.sliding_window_pattern")
    if window and isinstance(pattern, (list, tuple)) and len(pattern) == layers:
        windows = tuple(window if bool(p) else None for p in pattern)
    elif window and arch in ("gemma2", "gemma3", "cohere2"):
        period = {"gemma2": 2, "gemma3": 6, "cohere2": 4}[arch]
        windows = tuple(None if (i + 1) % period == 0 else window for i in range(layers))
    return ModelArch(
        model_type=arch,
        architectures=(),
        hidden_size=hidden,
        num_layers=layers,
        vocab_size=vocab,
        intermediate_size=inter,
        attention=attention,
        tie_word_embeddings="output.weight" not in tensor_names,
        max_position_embeddings=int(k("context_length", 0) or 0) or None,
        torch_dtype=None,
        moe=moe,
        moe_layers=moe_layers,
        layer_windows=windows,
    )
