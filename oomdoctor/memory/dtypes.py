"""Element types: weight dtypes, KV-cache dtypes and GGML block types, in bytes.

Pure tables and parsers. The GGML block sizes are format facts (a q8_0 block stores 32
values in 34 bytes); `tests/test_memory_dtypes.py` checks them against the `gguf` package so
the CLI does not have to import it (and numpy) to estimate.
"""

from __future__ import annotations

from dataclasses import dataclass

from oomdoctor.errors import InputError

GIB = 1 << 30
MIB = 1 << 20

# ggml type name -> (values per block, bytes per block)
GGML_BLOCKS: dict[str, tuple[int, int]] = {
    "f32": (1, 4), "f16": (1, 2), "bf16": (1, 2), "f64": (1, 8),
    "i8": (1, 1), "i16": (1, 2), "i32": (1, 4), "i64": (1, 8),
    "q4_0": (32, 18), "q4_1": (32, 20), "q5_0": (32, 22), "q5_1": (32, 24),
    "q8_0": (32, 34), "q8_1": (32, 40),
    "q2_k": (256, 84), "q3_k": (256, 110), "q4_k": (256, 144), "q5_k": (256, 176),
    "q6_k": (256, 210), "q8_k": (256, 292),
    "iq2_xxs": (256, 66), "iq2_xs": (256, 74), "iq2_s": (256, 82),
    "iq3_xxs": (256, 98), "iq3_s": (256, 110), "iq1_s": (256, 50), "iq1_m": (256, 56),
    "iq4_nl": (32, 18), "iq4_xs": (256, 136),
    "tq1_0": (256, 54), "tq2_0": (256, 66), "mxfp4": (32, 17),
}

# ik_llama.cpp-only types (not in the gguf package): nominal bits per weight.
IK_TYPES_BPW: dict[str, float] = {
    "iq1_kt": 1.75, "iq2_kt": 2.125, "iq3_kt": 3.125, "iq4_kt": 4.0,
    "iq2_ks": 2.1875, "iq2_k": 2.375, "iq2_kl": 2.6875, "iq3_ks": 3.1875, "iq3_k": 3.4375,
    "iq3_kl": 3.9375, "iq4_kss": 4.0, "iq4_ks": 4.25, "iq4_k": 4.5, "iq5_ks": 5.25,
    "iq5_k": 5.5, "iq6_k": 6.625,
}


def ggml_bits_per_weight(type_name: str) -> float:
    """Nominal bits per value of a ggml (or ik_llama.cpp) tensor type."""
    t = type_name.lower()
    if t in GGML_BLOCKS:
        n, size = GGML_BLOCKS[t]
        return size * 8 / n
    if t in IK_TYPES_BPW:
        return IK_TYPES_BPW[t]
    raise InputError(f"unknown GGML type {type_name!r}")


def ggml_row_bytes(type_name: str, n_values: int) -> float:
    """Bytes a row of `n_values` takes in a ggml type (whole blocks where the row allows)."""
    t = type_name.lower()
    if t in GGML_BLOCKS:
        n, size = GGML_BLOCKS[t]
        return -(-n_values // n) * size if n_values % n == 0 else n_values * size / n
    return n_values * ggml_bits_per_weight(t) / 8


# Weight/activation dtypes as frameworks spell them.
_DTYPE_ALIASES: dict[str, str] = {
    "float32": "float32", "fp32": "float32", "f32": "float32", "float": "float32",
    "float16": "float16", "fp16": "float16", "f16": "float16", "half": "float16",
    "bfloat16": "bfloat16", "bf16": "bfloat16",
    "float8": "fp8", "fp8": "fp8",
}
DTYPE_BYTES: dict[str, int] = {"float32": 4, "float16": 2, "bfloat16": 2, "fp8": 1}


def parse_dtype(value: str | None) -> str | None:
    """Canonical dtype name, None for auto/unset; unknown names are an input error."""
    if value is None:
        return None
    v = value.strip().lower().removeprefix("torch.")
    if v in ("", "auto", "none", "null"):
        return None
    if v not in _DTYPE_ALIASES:
        raise InputError(f"unknown dtype {value!r} (use auto, float16, bfloat16 or float32)")
    return _DTYPE_ALIASES[v]


@dataclass(frozen=True)
class KvDtype:
    """Bytes per cached value of K and of V (they differ in llama.cpp `-ctk q4_0 -ctv f16`)."""

    name: str
    k_bytes: float
    v_bytes: float
    k_type: str
    v_type: str

    @property
    def is_fp8_family(self) -> bool:
        return self.k_type in ("fp8", "int8") and self.v_type in ("fp8", "int8")


_KV_ALIASES: dict[str, str] = {
    **{k: v for k, v in _DTYPE_ALIASES.items() if v != "fp8"},
    "fp8": "fp8", "fp8_e4m3": "fp8", "fp8_e5m2": "fp8", "fp8_inc": "fp8", "fp8_ds_mla": "fp8",
    "float8": "fp8", "f8": "fp8", "int8": "int8", "i8": "int8", "int8_per_token_head": "int8",
}


def _kv_component(value: str) -> tuple[str, float]:
    v = value.strip().lower()
    if v in _KV_ALIASES:
        canon = _KV_ALIASES[v]
        return canon, float(DTYPE_BYTES.get(canon, 1))
    if v in GGML_BLOCKS and v not in ("f64", "i16", "i32", "i64"):
        n, size = GGML_BLOCKS[v]
        name = {"f16": "float16", "bf16": "bfloat16", "f32": "float32"}.get(v, v)
        return name, size / n
    raise InputError(f"unknown KV-cache dtype {value!r}")


def parse_kv_dtype(value: str | None, model_dtype: str) -> KvDtype:
    """`auto`/None -> the model dtype; `fp8` -> 1 B; `q8_0` -> 34/32 B; `K/V` pairs allowed."""
    raw = (value or "auto").strip()
    parts = [p for p in raw.split("/")] if "/" in raw else [raw, raw]
    if len(parts) != 2:
        raise InputError(f"bad KV-cache dtype {value!r} (use one type or K/V, e.g. q4_0/f16)")
    comps = []
    for p in parts:
        if p.strip().lower() in ("auto", "", "none", "null"):
            comps.append((model_dtype, float(DTYPE_BYTES[model_dtype])))
        else:
            comps.append(_kv_component(p))
    (kt, kb), (vt, vb) = comps
    name = kt if kt == vt else f"{kt}/{vt}"
    return KvDtype(name=name, k_bytes=kb, v_bytes=vb, k_type=kt, v_type=vt)
