"""Element sizes: GGML block types, weight dtypes, KV-cache dtypes."""

from __future__ import annotations

import pytest

from oomdoctor.errors import InputError
from oomdoctor.memory.dtypes import GGML_BLOCKS, ggml_bits_per_weight, parse_dtype, parse_kv_dtype


def test_ggml_block_table_matches_the_gguf_package() -> None:
    gguf = pytest.importorskip("gguf")
    real = {t.name.lower(): sizes for t, sizes in gguf.GGML_QUANT_SIZES.items()}
    for name, sizes in GGML_BLOCKS.items():
        assert real[name] == sizes, name


@pytest.mark.parametrize("name,bpw", [("q8_0", 8.5), ("q4_0", 4.5), ("q4_k", 4.5), ("q6_k", 6.5625),
                                      ("q2_k", 2.625), ("iq4_xs", 4.25), ("iq3_k", 3.4375)])
def test_bits_per_weight_include_block_scales(name: str, bpw: float) -> None:
    assert ggml_bits_per_weight(name) == pytest.approx(bpw)


@pytest.mark.parametrize("spelling,canon", [("half", "float16"), ("torch.bfloat16", "bfloat16"),
                                            ("float", "float32"), ("auto", None), (None, None)])
def test_parse_dtype(spelling: str | None, canon: str | None) -> None:
    assert parse_dtype(spelling) == canon


def test_unknown_dtype_is_an_input_error() -> None:
    with pytest.raises(InputError, match="int3"):
        parse_dtype("int3")


def test_kv_dtypes_in_bytes_per_value() -> None:
    assert parse_kv_dtype("auto", "bfloat16").k_bytes == 2
    assert parse_kv_dtype(None, "float32").v_bytes == 4
    fp8 = parse_kv_dtype("fp8_e5m2", "bfloat16")
    assert (fp8.k_bytes, fp8.v_bytes, fp8.is_fp8_family) == (1, 1, True)
    q8 = parse_kv_dtype("q8_0", "float16")
    assert q8.k_bytes == q8.v_bytes == pytest.approx(34 / 32)  # 1.0625, not 1.0
    assert parse_kv_dtype("q4_0", "float16").k_bytes == pytest.approx(18 / 32)


def test_kv_dtype_pair_k_and_v_differ() -> None:
    kv = parse_kv_dtype("q4_0/f16", "float16")
    assert (kv.k_bytes, kv.v_bytes) == (pytest.approx(0.5625), 2)
    assert kv.name == "q4_0/float16"


@pytest.mark.parametrize("bad", ["int3", "q4_0/f16/f16", "fp7"])
def test_bad_kv_dtype(bad: str) -> None:
    with pytest.raises(InputError):
        parse_kv_dtype(bad, "bfloat16")
