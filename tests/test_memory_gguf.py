"""A real (tiny) GGUF file written with the gguf package, read back through `load_model`."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from oomdoctor.errors import InputError
from oomdoctor.memory import EstimateSettings, Framework, Source, estimate, load_model

gguf = pytest.importorskip("gguf")
np = pytest.importorskip("numpy")

HIDDEN, FF, HEADS, KV_HEADS, LAYERS, VOCAB = 256, 512, 4, 2, 2, 64
HEAD_DIM = HIDDEN // HEADS


def _q8(rows: int, cols: int) -> "np.ndarray":
    data = np.random.default_rng(0).standard_normal((rows, cols)).astype(np.float32)
    return gguf.quants.quantize(data, gguf.GGMLQuantizationType.Q8_0)


def write_tiny_gguf(path: Path) -> dict[str, int]:
    """A 2-layer llama-style model: Q8_0 matrices, f32 norms. Returns expected byte counts."""
    w = gguf.GGUFWriter(str(path), "llama")
    w.add_block_count(LAYERS)
    w.add_context_length(512)
    w.add_embedding_length(HIDDEN)
    w.add_feed_forward_length(FF)
    w.add_head_count(HEADS)
    w.add_head_count_kv(KV_HEADS)
    w.add_file_type(gguf.LlamaFileType.MOSTLY_Q8_0)
    w.add_token_list([f"t{i}" for i in range(VOCAB)])
    q8_bytes = f32_bytes = 0

    def q8(name: str, rows: int, cols: int) -> None:
        nonlocal q8_bytes
        w.add_tensor(name, _q8(rows, cols), raw_dtype=gguf.GGMLQuantizationType.Q8_0)
        q8_bytes += rows * cols // 32 * 34

    def f32(name: str, n: int) -> None:
        nonlocal f32_bytes
        w.add_tensor(name, np.ones(n, dtype=np.float32))
        f32_bytes += 4 * n

    q8("token_embd.weight", VOCAB, HIDDEN)
    q8("output.weight", VOCAB, HIDDEN)
    f32("output_norm.weight", HIDDEN)
    for i in range(LAYERS):
        q8(f"blk.{i}.attn_q.weight", HIDDEN, HIDDEN)
        q8(f"blk.{i}.attn_k.weight", KV_HEADS * HEAD_DIM, HIDDEN)
        q8(f"blk.{i}.attn_v.weight", KV_HEADS * HEAD_DIM, HIDDEN)
        q8(f"blk.{i}.attn_output.weight", HIDDEN, HIDDEN)
        q8(f"blk.{i}.ffn_gate.weight", FF, HIDDEN)
        q8(f"blk.{i}.ffn_up.weight", FF, HIDDEN)
        q8(f"blk.{i}.ffn_down.weight", HIDDEN, FF)
        f32(f"blk.{i}.attn_norm.weight", HIDDEN)
        f32(f"blk.{i}.ffn_norm.weight", HIDDEN)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return {"q8_0": q8_bytes, "f32": f32_bytes}


@pytest.fixture()
def tiny(tmp_path: Path) -> tuple[Path, dict[str, int]]:
    path = tmp_path / "tiny-Q8_0.gguf"
    return path, write_tiny_gguf(path)


def test_gguf_header_and_tensor_bytes(tiny: tuple[Path, dict[str, int]]) -> None:
    path, sizes = tiny
    m = load_model(str(path))
    a = m.arch
    assert (a.model_type, a.num_layers, a.hidden_size, a.vocab_size) == ("llama", LAYERS, HIDDEN, VOCAB)
    assert (a.attention.num_heads, a.attention.num_kv_heads, a.attention.head_dim) == (HEADS, KV_HEADS, HEAD_DIM)
    assert not a.tie_word_embeddings
    assert m.gguf is not None
    assert m.gguf.file_type == "Q8_0"
    assert m.gguf.tensor_bytes == sizes["q8_0"] + sizes["f32"]
    assert dict(m.gguf.type_bytes)["Q8_0"] == sizes["q8_0"]
    assert not m.gguf.has_mla_tensors


def test_estimate_uses_the_file_bytes(tiny: tuple[Path, dict[str, int]]) -> None:
    path, sizes = tiny
    e = estimate(load_model(str(path)), EstimateSettings(framework=Framework.LLAMACPP, max_model_len=512))
    assert e.weights_bytes == sizes["q8_0"] + sizes["f32"]
    assert e.weights_source == Source.GIVEN
    assert e.ledger.weights.source == Source.GIVEN
    assert e.kv_bytes_per_token == LAYERS * KV_HEADS * HEAD_DIM * 2 * 2  # f16 K and V
    assert e.kv_tokens == 512
    q8 = estimate(load_model(str(path)), EstimateSettings(framework=Framework.LLAMACPP, kv_cache_dtype="q8_0"))
    assert q8.kv_bytes_per_token == LAYERS * KV_HEADS * HEAD_DIM * 2 * 34 // 32


def test_mix_estimate_matches_a_q8_0_file(tiny: tuple[Path, dict[str, int]]) -> None:
    """Without the file, the Q8_0 rules predict the same bytes for these shapes."""
    path, sizes = tiny
    m = load_model(str(path))
    same = estimate(m, EstimateSettings(framework=Framework.LLAMACPP, quantization="Q8_0"))
    assert same.weights_source == Source.GIVEN  # the flag names the file's own type: the file wins
    e = estimate(replace(m, gguf=None), EstimateSettings(framework=Framework.LLAMACPP, quantization="Q8_0"))
    assert e.weights_source == Source.ESTIMATE
    assert e.weights_bytes == pytest.approx(sizes["q8_0"] + sizes["f32"], rel=0.01)


def test_a_directory_with_a_gguf(tiny: tuple[Path, dict[str, int]]) -> None:
    path, _ = tiny
    assert load_model(str(path.parent)).gguf is not None


def test_broken_gguf_is_an_input_error(tmp_path: Path) -> None:
    bad = tmp_path / "broken.gguf"
    bad.write_bytes(b"GGUF\x03\x00\x00\x00garbage")
    with pytest.raises(InputError, match="GGUF"):
        load_model(str(bad))
