"""Architecture parsing on published configs, and parameter counts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from oomdoctor.errors import InputError
from oomdoctor.memory import arch_from_gguf_metadata, arch_from_hf_config
from oomdoctor.memory.tensors import parameter_count

CASES = Path(__file__).resolve().parent.parent / "fixtures" / "estimates"


def case_config(name: str) -> dict:
    return json.loads((CASES / name / "config.json").read_text())


LLAMA3_8B = case_config("vllm-10511-llama3-8b-tp1")
DEEPSEEK_V3 = case_config("llamacpp-9390-deepseek-q4_0-k-8gpu")
GEMMA_7B = case_config("ollama-790-gemma-7b-2k-partial")
QWEN3_30B_A3B = case_config("vllm-25350-fp8-kv-48layer-4kv")
QWEN25_VL_72B = case_config("vllm-16570-qwen25vl-72b-tp4-a100-40g")
# google/gemma-3-27b-it as published: the text model nested, vocab and window pattern left to defaults
GEMMA3_27B = {
    "architectures": ["Gemma3ForConditionalGeneration"], "model_type": "gemma3", "torch_dtype": "bfloat16",
    "text_config": {"head_dim": 128, "hidden_size": 5376, "intermediate_size": 21504, "model_type": "gemma3_text",
                    "num_attention_heads": 32, "num_hidden_layers": 62, "num_key_value_heads": 16,
                    "query_pre_attn_scalar": 168, "sliding_window": 1024},
    "vision_config": {"hidden_size": 1152, "image_size": 896, "intermediate_size": 4304,
                      "model_type": "siglip_vision_model", "num_attention_heads": 16, "num_hidden_layers": 27,
                      "patch_size": 14},
}


def test_llama3_8b_parameter_count_is_exact() -> None:
    a = arch_from_hf_config(LLAMA3_8B)
    h, v, inter, layers = 4096, 128256, 14336, 32
    per_layer = h * (h + 1024 + 1024 + h) + 3 * h * inter + 2 * h
    assert parameter_count(a) == 2 * v * h + layers * per_layer + h == 8_030_261_248
    assert (a.attention.num_kv_heads, a.attention.head_dim, a.tie_word_embeddings) == (8, 128, False)


def test_gemma_head_dim_comes_from_the_config() -> None:
    a = arch_from_hf_config(GEMMA_7B)
    assert a.attention.head_dim == 256  # not hidden / heads = 192
    assert a.tie_word_embeddings
    assert parameter_count(a) == pytest.approx(8.54e9, rel=0.001)


def test_gemma3_nested_text_config_and_window_pattern() -> None:
    a = arch_from_hf_config(GEMMA3_27B)
    assert (a.hidden_size, a.num_layers, a.vocab_size) == (5376, 62, 262208)
    assert a.sliding_layers == 52 and a.is_hybrid_window
    assert a.layer_windows[5] is None and a.layer_windows[4] == 1024  # every 6th layer is global
    assert a.vision is not None and 0.35e9 < a.vision.params < 0.5e9
    assert parameter_count(a) == pytest.approx(27.4e9, rel=0.01)


def test_qwen3_moe() -> None:
    a = arch_from_hf_config(QWEN3_30B_A3B)
    assert a.moe and (a.moe.num_experts, a.moe.expert_intermediate, a.moe.experts_per_token) == (128, 768, 8)
    assert all(a.moe_layers)
    assert parameter_count(a) == pytest.approx(30.53e9, rel=0.001)


def test_deepseek_v3_mla_and_dense_first_layers() -> None:
    a = arch_from_hf_config(DEEPSEEK_V3)
    att = a.attention
    assert att.is_mla and att.latent_dim == 576 and att.head_dim == 192 and att.v_head_dim == 128
    assert a.moe_layers[:4] == (False, False, False, True)
    assert a.moe and a.moe.shared_intermediate == 2048
    assert parameter_count(a) == pytest.approx(671.03e9, rel=0.001)


def test_qwen25_vl_vision_tower_counts() -> None:
    a = arch_from_hf_config(QWEN25_VL_72B)
    assert a.vision is not None and 0.6e9 < a.vision.params < 0.75e9
    assert parameter_count(a) == pytest.approx(73.4e9, rel=0.005)
    assert parameter_count(a, include_vision=False) < parameter_count(a)


def test_quantization_config_is_read() -> None:
    fb = arch_from_hf_config(case_config("vllm-6746-llama31-405b-fp8-tp8-weights"))
    assert fb.quant and fb.quant.method == "fbgemm_fp8" and "model.layers.0" in fb.quant.ignore
    fp8 = arch_from_hf_config(QWEN3_30B_A3B)
    assert fp8.quant and fp8.quant.block == (128, 128)
    awq = arch_from_hf_config(case_config("vllm-13882-qwen25-7b-4bit-rtx4060"))
    assert awq.quant and (awq.quant.method, awq.quant.bits, awq.quant.group_size) == ("awq", 4, 128)


@pytest.mark.parametrize("bad,match", [([1, 2], "not a JSON object"), ({"foo": 1}, "missing hidden_size"),
                                       ({"hidden_size": "big", "num_hidden_layers": 2}, "not a number")])
def test_not_a_model_config(bad: object, match: str) -> None:
    with pytest.raises(InputError, match=match):
        arch_from_hf_config(bad)  # type: ignore[arg-type]


def test_gguf_metadata() -> None:
    meta = {"general.architecture": "qwen2", "qwen2.block_count": 28, "qwen2.embedding_length": 3584,
            "qwen2.attention.head_count": 28, "qwen2.attention.head_count_kv": 4, "qwen2.feed_forward_length": 18944,
            "qwen2.context_length": 32768, "tokenizer.ggml.tokens": 152064}
    a = arch_from_gguf_metadata(meta, frozenset({"output.weight"}))
    assert (a.attention.head_dim, a.vocab_size, a.tie_word_embeddings) == (128, 152064, False)
    with pytest.raises(InputError):
        arch_from_gguf_metadata({"general.architecture": "qwen2"}, frozenset())
