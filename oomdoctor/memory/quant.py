"""How many bytes a tensor takes under a quantization scheme.

Safetensors schemes (fp8 block/channel scales, int8 W8A8, AWQ/GPTQ group scales and zeros,
bitsandbytes nf4/int8, mxfp4) keep embeddings, the LM head, norms and routers in 16 bit and
honour the checkpoint's `modules_to_not_convert` / `ignore` list. GGUF files are a mix of
block types: `gguf_tensor_type` reproduces llama.cpp's default per-tensor choices (output in
Q6_K, `attn_v`/`ffn_down` bumped in the layers `use_more_bits` picks, ...), which is why a
Q4_K_M file averages ~4.9 bits per weight rather than 4.5.
"""

from __future__ import annotations

import re
from functools import lru_cache
from dataclasses import dataclass, replace

from oomdoctor.errors import InputError
from oomdoctor.memory.arch import ModelArch, QuantConfig
from oomdoctor.memory.dtypes import GGML_BLOCKS, IK_TYPES_BPW, ggml_bits_per_weight
from oomdoctor.memory.tensors import Tensor


@dataclass(frozen=True)
class QuantScheme:
    """`method`: none | fp8 | int8 | awq | gptq | w4 | bnb4 | bnb8 | mxfp4 | nvfp4 | gguf."""

    method: str
    bits: int = 16
    group_size: int | None = None  # None: per output channel
    zero_point: bool = False
    block: tuple[int, int] | None = None  # fp8 block scales (rows, cols)
    per_tensor: bool = False
    ignore: tuple[str, ...] = ()
    double_quant: bool = False
    gguf_ftype: str | None = None  # Q4_K_M, IQ3_K, ...
    experts_only: bool = False  # mxfp4 in gpt-oss: only routed experts
    quantize_lm_head: bool = False
    label: str = ""

    @property
    def is_gguf(self) -> bool:
        return self.method == "gguf"


NONE = QuantScheme("none", label="none")

# ---------------------------------------------------------------- GGUF file types
# file type -> base ggml type of its bulk tensors
GGUF_FTYPES: dict[str, str] = {
    "F32": "f32", "F16": "f16", "BF16": "bf16",
    "Q4_0": "q4_0", "Q4_1": "q4_1", "Q5_0": "q5_0", "Q5_1": "q5_1", "Q8_0": "q8_0",
    "Q2_K": "q2_k", "Q2_K_S": "q2_k", "Q3_K_S": "q3_k", "Q3_K_M": "q3_k", "Q3_K_L": "q3_k",
    "Q4_K_S": "q4_k", "Q4_K_M": "q4_k", "Q5_K_S": "q5_k", "Q5_K_M": "q5_k", "Q6_K": "q6_k",
    "IQ1_S": "iq1_s", "IQ1_M": "iq1_m", "IQ2_XXS": "iq2_xxs", "IQ2_XS": "iq2_xs", "IQ2_S": "iq2_s",
    "IQ2_M": "iq2_s", "IQ3_XXS": "iq3_xxs", "IQ3_XS": "iq3_s", "IQ3_S": "iq3_s", "IQ3_M": "iq3_s",
    "IQ4_NL": "iq4_nl", "IQ4_XS": "iq4_xs", "TQ1_0": "tq1_0", "TQ2_0": "tq2_0",
    "MXFP4": "mxfp4", "MXFP4_MOE": "mxfp4",
    **{k.upper(): k for k in IK_TYPES_BPW},
}
# ik_llama.cpp files are nearly always made with per-tensor recipes that keep attention,
# shared experts and part of the experts at higher precision; whole files average about
# 1.135x the type's nominal bits (IQ3_K: 3.44 nominal, files near 3.9).
IK_FILE_UPLIFT = 3.9 / 3.4375

_LOW_IQ = frozenset({"IQ1_S", "IQ1_M", "IQ2_XXS", "IQ2_XS", "IQ2_S", "IQ2_M", "IQ3_XXS"})


def use_more_bits(i: int, n: int) -> bool:
    """llama.cpp's choice of layers that get more bits in the _M mixes: the first and last
    eighth of the layers and every third layer in between."""
    return i < n // 8 or i >= 7 * n // 8 or (i - n // 8) % 3 == 2


def _fallback(t: str, cols: int) -> str:
    """Rows that are not a whole number of blocks fall back to a 32-value type (or f16)."""
    block = GGML_BLOCKS.get(t, (256, 0))[0]
    if cols % block == 0:
        return t
    if cols % 32 == 0:
        small = "iq4_nl" if t.startswith(("q2", "q3", "iq")) else "q8_0"
        return {"q4_k": "q5_0", "q5_k": "q5_1", "q6_k": "q8_0"}.get(t, small)
    return "f16"


def gguf_tensor_type(ftype: str, t: Tensor, arch: ModelArch) -> str:
    """The ggml type llama.cpp's quantizer gives tensor `t` in a file of type `ftype`."""
    ftype = ftype.upper()
    base = GGUF_FTYPES.get(ftype) or (ftype.lower() if ftype.lower() in GGML_BLOCKS or ftype.lower() in IK_TYPES_BPW
                                      else "f16")
    if not t.is_matrix:
        return "f32"
    if base in ("f32", "f16", "bf16") or t.role == "vision":
        return base if t.role != "vision" else "f16"
    n_exp = arch.moe.num_experts if arch.moe else 0
    gqa = arch.attention.num_heads // max(1, arch.attention.num_kv_heads)
    n, i = arch.num_layers, t.layer if t.layer is not None else 0
    role, out = t.role, base
    is_output = role == "lm_head" or (role == "embed" and arch.tie_word_embeddings)
    ik = ftype.lower() in IK_TYPES_BPW
    if is_output:
        if ftype in _LOW_IQ or (ik and ftype.startswith(("IQ1", "IQ2", "IQ3"))):
            out = "q5_k"
        elif base not in ("q8_0", "q6_k") and not base.startswith("iq6"):
            out = "q6_k"
    elif role == "embed":
        if ftype in ("IQ2_XXS", "IQ2_XS", "IQ1_S", "IQ1_M"):
            out = "q2_k"
        elif ftype in ("IQ2_S", "IQ2_M", "IQ3_XXS"):
            out = "iq3_s"
    elif role == "attn_v":
        if n_exp >= 8 and not ik:
            out = "q8_0"
        elif ftype == "Q2_K":
            out = "q4_k" if gqa >= 4 else "q3_k"
        elif ftype in ("Q3_K_M",):
            out = "q5_k" if i < 2 else "q4_k"
        elif ftype == "Q3_K_L":
            out = "q5_k"
        elif ftype in ("Q4_K_M", "Q5_K_M") and use_more_bits(i, n):
            out = "q6_k"
        elif ftype == "Q4_K_S" and i < 4:
            out = "q5_k"
        elif ftype in ("IQ4_NL", "IQ4_XS") and gqa >= 4:
            out = "q5_k"
        elif ftype in ("IQ3_XXS", "IQ3_XS", "IQ3_S", "IQ3_M", "IQ2_XXS", "IQ2_XS", "IQ2_S", "IQ2_M") and gqa >= 4:
            out = "q4_k"
    elif role == "attn_k":
        if n_exp >= 8 and not ik:
            out = "q8_0"
    elif role in ("mlp_down", "expert_down", "shared_down"):
        if ftype == "Q2_K":
            out = "q3_k"
        elif ftype == "Q2_K_S" and i < n // 8:
            out = "q4_k"
        elif ftype == "Q3_K_M":
            out = "q5_k" if i < n // 16 else "q4_k"
        elif ftype == "Q3_K_L":
            out = "q5_k"
        elif ftype in ("Q4_K_M", "Q5_K_M") and use_more_bits(i, n):
            out = "q6_k"
        elif ftype == "Q4_K_S" and i < n // 8:
            out = "q5_k"
        elif ftype in ("IQ4_NL", "IQ4_XS") and i < n // 8:
            out = "q5_k"
    elif role == "attn_o":
        if n_exp >= 8 and ftype in ("Q2_K", "Q3_K_S", "Q3_K_M", "Q4_K_S", "Q4_K_M", "IQ3_XXS", "IQ3_XS",
                                    "IQ3_S", "IQ3_M", "IQ4_NL", "IQ4_XS"):
            out = "q5_k"
        elif not n_exp:
            bumps = {"Q2_K": "q3_k", "Q3_K_M": "q4_k", "Q3_K_L": "q5_k", "IQ3_XXS": "iq3_s", "IQ3_M": "q4_k"}
            out = bumps.get(ftype, out)
    return _fallback(out, t.cols) if out in GGML_BLOCKS else out


def gguf_tensor_bytes(ftype: str, t: Tensor, arch: ModelArch) -> float:
    ttype = gguf_tensor_type(ftype, t, arch)
    bpw = ggml_bits_per_weight(ttype)
    if ttype in IK_TYPES_BPW and t.is_matrix:
        bpw *= IK_FILE_UPLIFT
    return t.elements * bpw / 8


# ---------------------------------------------------------------- safetensors schemes
@lru_cache(maxsize=4096)
def _ignore_regex(pattern: str) -> re.Pattern[str]:
    if pattern.startswith("re:"):
        return re.compile(pattern[3:])
    body = re.escape(pattern).replace(r"\*", r"[^.]+")
    return re.compile(rf"(^|\.){body}(\.|$)")


def _matches(name: str, pattern: str) -> bool:
    """An ignore entry names a module by dotted components (`lm_head`, `model.layers.0`,
    `visual`) or, with a `re:` prefix, by regular expression."""
    return _ignore_regex(pattern).search(name) is not None


def is_ignored(scheme: QuantScheme, t: Tensor) -> bool:
    if not t.is_matrix or t.role in ("embed", "positions", "vision"):
        return True
    if t.role == "lm_head" and not scheme.quantize_lm_head:
        return True
    if scheme.experts_only and not t.role.startswith("expert_"):
        return True
    return any(_matches(t.name, p) for p in scheme.ignore)


def tensor_bytes(scheme: QuantScheme, t: Tensor, arch: ModelArch, dtype_bytes: int) -> float:
    """Bytes tensor `t` occupies (whole, before any parallel split)."""
    if scheme.is_gguf:
        return gguf_tensor_bytes(scheme.gguf_ftype or "F16", t, arch)
    if scheme.method == "none" or is_ignored(scheme, t):
        return t.elements * (4 if t.role == "router" and dtype_bytes == 4 else dtype_bytes)
    el, rows, cols, count = t.elements, t.rows, t.cols, t.count
    if scheme.method == "fp8":
        if scheme.block:
            br, bc = scheme.block
            scales = -(-rows // br) * -(-cols // bc) * 4 * count
        elif scheme.per_tensor:
            scales = 4 * count
        else:
            scales = rows * 4 * count
        return el + scales
    if scheme.method == "int8":
        return el + rows * 4 * count
    if scheme.method in ("awq", "gptq"):
        g = scheme.group_size if scheme.group_size and scheme.group_size > 0 else cols
        groups = -(-cols // g) * rows * count
        out = el * scheme.bits / 8 + groups * 2
        if scheme.zero_point or scheme.method == "gptq":
            out += groups * scheme.bits / 8
        if scheme.method == "gptq":
            out += cols * 4 * count  # g_idx
        return out
    if scheme.method == "bnb4":
        absmax = el / 64 * (1 + 4 / 256) if scheme.double_quant else el / 64 * 4
        return el / 2 + absmax
    if scheme.method == "bnb8":
        return el + rows * 4 * count
    if scheme.method == "mxfp4":
        return el * 4.25 / 8  # 32 fp4 values share one 8-bit scale
    if scheme.method == "nvfp4":
        return el * 4.5 / 8 + 4 * count  # 16 fp4 values share one fp8 scale, plus a global scale
    if scheme.method == "w4":
        g = scheme.group_size or 128
        return el / 2 + -(-cols // g) * rows * count * (2 + (0.5 if scheme.zero_point else 0))
    raise InputError(f"unsupported quantization method {scheme.method!r}")


# ---------------------------------------------------------------- resolving the user's flag
_GPTQ_NAMES = {"gptq", "gptq_marlin", "gptq_int4", "gptq_int8", "gptq_int3", "gptq_int2", "gptq-int4", "gptq-int8",
               "marlin", "gptq_bitblas"}
_AWQ_NAMES = {"awq", "awq_marlin", "awq_int4"}
_FP8_NAMES = {"fp8", "fbgemm_fp8", "fp8_e4m3", "modelopt", "modelopt_fp8", "compressed-tensors-fp8", "ptpc_fp8",
              "fp8_block"}
_INT8_NAMES = {"w8a8", "int8", "w8a8_int8", "smoothquant", "compressed-tensors", "compressed_tensors", "sq"}
_BNB4_NAMES = {"bitsandbytes", "bnb", "nf4", "bnb_nf4", "bnb_4bit", "bnb4", "fp4", "bitsandbytes-nf4",
               "bitsandbytes_nf4", "bitsandbytes-fp4", "bitsandbytes_fp4", "bnb-4bit"}
_BNB8_NAMES = {"bnb_int8", "bnb8", "bnb_8bit", "llm.int8", "bitsandbytes-int8", "bitsandbytes_int8", "eetq", "bnb-8bit"}
# names of quantized releases that size like a scheme the estimator knows
# (unsloth's dynamic "UD-Qn_K_XL" files: the k-quant of that width, a few tensors kept wider)
# (MLX's affine n-bit weights carry a 16-bit scale and bias per 64: n + 0.5 bits, as the k-quant of that width;
# 7-bit as the 8-bit type, the nearest wider one)
_NAME_ALIASES = {"exl2": "w4a16", "mlx-4bit": "w4a16", "mlx-8bit": "w8a8", "mlx-2bit": "Q2_K", "mlx-3bit": "Q3_K_S",
                 "mlx-5bit": "Q5_K_S", "mlx-6bit": "Q6_K", "mlx-7bit": "Q8_0", "q2_k_xl": "Q2_K", "q2_k_l": "Q2_K",
                 "q3_k_xl": "Q3_K_L", "q4_k_xl": "Q4_K_M", "q5_k_xl": "Q5_K_M", "q6_k_xl": "Q6_K", "q8_k_xl": "Q8_0",
                 "q6_k_l": "Q6_K", "q5_k_l": "Q5_K_M", "q4": "Q4_0", "q8": "Q8_0", "w8a16": "w8a8"}


def normalise_name(quantization: str | None) -> str | None:
    """A quantization as a model's name spells it (`bnb-4bit`, `exl2`, `Q4_K_XL`) -> a name
    `resolve_scheme` takes; None when it says only the format (`gguf`) or is unknown."""
    if not quantization:
        return None
    q = _NAME_ALIASES.get(quantization.strip().lower(), quantization.strip())
    if q.lower() == "gguf":
        return None
    known = {k.lower() for k in KNOWN_QUANTIZATIONS}
    if q.lower() in known or q.upper() in GGUF_FTYPES:
        return q
    return _gguf_type_by_width(q)


# a GGUF-style type name the table does not spell ("Q2_0", a ternary fork's files) still states
# its width: it sizes like the common type of that many bits
_WIDTH_TYPE = {1: "IQ1_M", 2: "Q2_K", 3: "Q3_K_M", 4: "Q4_K_M", 5: "Q5_K_M", 6: "Q6_K", 8: "Q8_0"}


def _gguf_type_by_width(name: str) -> str | None:
    m = re.fullmatch(r"(?:I|T)?Q(\d)_[A-Z0-9_]+", name.upper())
    return _WIDTH_TYPE.get(int(m.group(1))) if m else None


_NONE_NAMES = {"none", "null", "", "auto", "fp16", "bf16", "float16", "bfloat16"}
KNOWN_QUANTIZATIONS = sorted(_GPTQ_NAMES | _AWQ_NAMES | _FP8_NAMES | _INT8_NAMES | _BNB4_NAMES | _BNB8_NAMES
                             | {"mxfp4", "w4a16", "int4", "nvfp4", "modelopt_fp4", "moe_wna16"} | set(GGUF_FTYPES))


def _from_config(q: QuantConfig) -> QuantScheme:
    m = q.method
    if m in ("fp8", "fbgemm_fp8", "compressed-tensors-fp8", "modelopt", "fp8_block", "ptpc_fp8"):
        per_tensor = m in ("modelopt",) or (q.strategy == "tensor")
        return QuantScheme("fp8", bits=8, block=q.block, per_tensor=per_tensor and not q.block,
                           ignore=q.ignore, label=m)
    if m in ("awq", "awq_marlin"):
        return QuantScheme("awq", bits=q.bits or 4, group_size=q.group_size or 128,
                           zero_point=q.zero_point if q.zero_point is not None else True, ignore=q.ignore, label=m)
    if m in ("gptq", "gptq_marlin"):
        return QuantScheme("gptq", bits=q.bits or 4, group_size=q.group_size or 128,
                           zero_point=True, ignore=q.ignore, quantize_lm_head=q.lm_head_quantized, label=m)
    if m == "compressed-tensors":
        if (q.bits or 8) >= 8:
            return QuantScheme("int8", bits=8, ignore=q.ignore, label="w8a8")
        return QuantScheme("w4", bits=q.bits or 4, group_size=q.group_size or 128, zero_point=bool(q.zero_point),
                           ignore=q.ignore, label="w4a16")
    if m == "bitsandbytes":
        return (QuantScheme("bnb4", bits=4, ignore=q.ignore, double_quant=q.double_quant, label="bnb_nf4")
                if (q.bits or 4) == 4 else QuantScheme("bnb8", bits=8, ignore=q.ignore, label="bnb_int8"))
    if m == "mxfp4":
        return QuantScheme("mxfp4", bits=4, experts_only=True, ignore=q.ignore, label="mxfp4")
    if m == "nvfp4":
        return QuantScheme("nvfp4", bits=4, ignore=q.ignore, label="nvfp4")
    raise InputError(f"unsupported quantization_config method {m!r}")


def resolve_scheme(quantization: str | None, arch: ModelArch) -> QuantScheme:
    """The scheme a `--quantization` value selects, refined by the checkpoint's own config."""
    cfg = arch.quant
    q = (quantization or "").strip()
    key = q.lower()
    if key in _NONE_NAMES:
        return _from_config(cfg) if cfg else NONE
    if q.upper() in GGUF_FTYPES or q.upper().removeprefix("GGUF_") in GGUF_FTYPES:
        ft = q.upper().removeprefix("GGUF_")
        return QuantScheme("gguf", bits=round(ggml_bits_per_weight(GGUF_FTYPES[ft])), gguf_ftype=ft, label=ft)
    if key == "gguf":
        raise InputError("--quantization gguf needs the GGUF type (e.g. Q4_K_M) or a .gguf file as --config")
    if key in _AWQ_NAMES:
        if cfg and cfg.method.startswith("awq"):
            return _from_config(cfg)
        return QuantScheme("awq", bits=4, group_size=128, zero_point=True, label=key)
    if key in _GPTQ_NAMES:
        m = re.search(r"int(\d)", key)
        if cfg and cfg.method.startswith("gptq"):
            s = _from_config(cfg)
            return replace(s, bits=int(m.group(1))) if m else s
        return QuantScheme("gptq", bits=int(m.group(1)) if m else 4, group_size=128, zero_point=True, label=key)
    if key in _FP8_NAMES:
        if cfg and ("fp8" in cfg.method or cfg.method == "modelopt"):
            return _from_config(cfg)
        return QuantScheme("fp8", bits=8, per_tensor=True, label="fp8 (dynamic)")
    if key in _INT8_NAMES:
        if cfg and cfg.method == "compressed-tensors":
            return _from_config(cfg)
        return QuantScheme("int8", bits=8, ignore=cfg.ignore if cfg else (), label="w8a8")
    if key in ("nvfp4", "modelopt_fp4", "fp4_nv"):
        return _from_config(cfg) if cfg and cfg.method == "nvfp4" else QuantScheme("nvfp4", bits=4, label="nvfp4")
    if key == "moe_wna16":  # vLLM's MoE kernel for a GPTQ or AWQ checkpoint: the checkpoint's own bits (4 unless it says)
        if cfg and cfg.method.startswith(("awq", "gptq")):
            return _from_config(cfg)
        return QuantScheme("w4", bits=4, group_size=128, label="moe_wna16")
    if key in ("int4", "w4a16", "w4a16_int4"):
        if cfg and cfg.method == "compressed-tensors":
            return _from_config(cfg)
        return QuantScheme("w4", bits=4, group_size=128, label="w4a16")
    if key in _BNB4_NAMES:
        if cfg and cfg.method == "bitsandbytes":
            return _from_config(cfg)
        return QuantScheme("bnb4", bits=4, label="bnb_nf4")
    if key in _BNB8_NAMES:
        return QuantScheme("bnb8", bits=8, label="bnb_int8")
    if key == "mxfp4":
        if cfg and cfg.method == "mxfp4":
            return _from_config(cfg)
        return QuantScheme("mxfp4", bits=4, experts_only=True, label="mxfp4")
    raise InputError(f"unknown quantization {quantization!r}")
