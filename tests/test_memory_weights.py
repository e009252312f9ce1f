"""Weights per GPU by dtype, quantization, TP and PP; GGUF mixes."""

from __future__ import annotations

import pytest

from oomdoctor.memory import arch_from_hf_config
from oomdoctor.memory.quant import gguf_tensor_type, resolve_scheme, tensor_bytes, use_more_bits
from oomdoctor.memory.tensors import inventory
from oomdoctor.memory.weights import estimate_weights, pipeline_stages
from test_memory_arch import DEEPSEEK_V3, LLAMA3_8B, case_config

QWEN25_7B = case_config("ollama-8509-qwen25-coder-7b-q4km-weights")


def weights(cfg: dict, quantization: str | None = None, dtype: str = "bfloat16", tp: int = 1, pp: int = 1):
    a = arch_from_hf_config(cfg)
    return estimate_weights(a, resolve_scheme(quantization, a), dtype, {"float32": 4}.get(dtype, 2), tp=tp, pp=pp)


def test_llama3_8b_bf16_and_tensor_parallel_halves() -> None:
    w1 = weights(LLAMA3_8B)
    assert w1.per_gpu_bytes == w1.total_bytes == 8_030_261_248 * 2
    assert weights(LLAMA3_8B, tp=2).per_gpu_bytes == pytest.approx(w1.total_bytes / 2, rel=1e-4)
    assert weights(LLAMA3_8B, dtype="float32").total_bytes == 8_030_261_248 * 4


def test_pipeline_split_leftover_layers_to_first_stage() -> None:
    assert pipeline_stages(61, 4) == (16, 15, 15, 15)
    assert pipeline_stages(32, 2) == (16, 16)
    w = weights(LLAMA3_8B, pp=2)
    assert w.total_bytes / 2 < w.per_gpu_bytes < w.total_bytes / 2 * 1.01


def test_awq_4bit_with_group_scales_and_zeros() -> None:
    cfg = case_config("vllm-13882-qwen25-7b-4bit-rtx4060")
    w = weights(cfg, "awq", dtype="float16")
    # vLLM logged 'Loading model weights took 5.2032 GB' (GiB): embeddings and lm_head stay 16 bit
    assert w.per_gpu_bytes == pytest.approx(5_586_893_459, rel=0.01)
    a = arch_from_hf_config(cfg)
    down = next(t for t in inventory(a) if t.name.endswith("0.mlp.down_proj"))
    scheme = resolve_scheme("awq", a)
    assert tensor_bytes(scheme, down, a, 2) == down.elements / 2 + down.rows * (down.cols // 128) * (2 + 0.5)


def test_moe_wna16_takes_the_checkpoints_bits() -> None:
    # holdout r60: vLLM's --quantization moe_wna16 serves a GPTQ/AWQ MoE checkpoint; without the checkpoint's
    # config it is 4-bit, not the base model's own fp8 (DeepSeek-R1-AWQ over 8 GPUs)
    a = arch_from_hf_config(DEEPSEEK_V3)
    scheme = resolve_scheme("moe_wna16", a)
    assert scheme.bits == 4
    assert weights(DEEPSEEK_V3, "moe_wna16", tp=8).per_gpu_bytes < weights(DEEPSEEK_V3, tp=8).per_gpu_bytes * 0.6


def test_fbgemm_fp8_keeps_listed_modules_in_bf16() -> None:
    cfg = case_config("vllm-6746-llama31-405b-fp8-tp8-weights")
    a = arch_from_hf_config(cfg)
    scheme = resolve_scheme("fp8", a)
    by_name = {t.name: t for t in inventory(a)}
    mlp0, mlp1 = by_name["model.layers.0.mlp.up_proj"], by_name["model.layers.1.mlp.up_proj"]
    attn1 = by_name["model.layers.1.self_attn.q_proj"]
    assert tensor_bytes(scheme, mlp0, a, 2) == mlp0.elements * 2  # whole first layer skipped
    assert tensor_bytes(scheme, mlp1, a, 2) == pytest.approx(mlp1.elements, rel=1e-3)
    assert tensor_bytes(scheme, attn1, a, 2) == attn1.elements * 2
    # 'Loading model weights took 57.7520 GB' on every rank; bytes-per-param alone says ~48 GiB
    assert weights(cfg, "fp8", tp=8).per_gpu_bytes == pytest.approx(62_010_737_820, rel=0.03)


def test_block_fp8_checkpoint_and_replicated_mla_projections() -> None:
    cfg = {**DEEPSEEK_V3, "quantization_config": {"quant_method": "fp8", "weight_block_size": [128, 128]}}
    w1, w8 = weights(cfg, "fp8"), weights(cfg, "fp8", tp=8)
    assert w1.total_bytes == pytest.approx(671.03e9 + 2 * 129280 * 7168, rel=0.01)  # embed + head in bf16
    assert w8.per_gpu_bytes > w1.total_bytes / 8  # replicated kv_a/q_a projections and routers


def test_gptq_int8_bits_from_the_flag() -> None:
    cfg = {**LLAMA3_8B, "quantization_config": {"quant_method": "gptq", "bits": 4, "group_size": 128}}
    assert weights(cfg, "gptq_int8").total_bytes > weights(cfg, "gptq").total_bytes * 1.5


def test_use_more_bits_picks_half_the_layers() -> None:
    assert sum(use_more_bits(i, 28) for i in range(28)) == 14
    assert use_more_bits(0, 32) and use_more_bits(31, 32) and not use_more_bits(4, 32)


def test_gguf_q4_k_m_mix_averages_near_4_9_bits() -> None:
    a = arch_from_hf_config(QWEN25_7B)
    w = estimate_weights(a, resolve_scheme("Q4_K_M", a), "float16", 2, include_vision=False)
    # llama.cpp printed 'model size = 4.36 GiB (4.91 BPW)'
    assert w.total_bytes == pytest.approx(4_681_514_353, rel=0.01)
    assert 4.85 < w.bits_per_weight < 5.0
    out = next(t for t in inventory(a) if t.role == "lm_head")
    assert gguf_tensor_type("Q4_K_M", out, a) == "q6_k"
    assert gguf_tensor_type("Q8_0", out, a) == "q8_0"


def test_gguf_q4_0_whole_file_near_4_53_bits() -> None:
    cfg = case_config("trtllm-224-llama2-7b-a10")  # Llama-2-7B shapes
    a = arch_from_hf_config(cfg)
    w = estimate_weights(a, resolve_scheme("Q4_0", a), "float16", 2, include_vision=False)
    assert 4.5 < w.bits_per_weight < 4.6


def test_gguf_eight_expert_models_keep_attention_k_v_in_q8_0() -> None:
    a = arch_from_hf_config(case_config("llamacpp-4957-mixtral-q8-partial-offload"))
    v = next(t for t in inventory(a) if t.role == "attn_v")
    assert gguf_tensor_type("Q4_K_M", v, a) == "q8_0"
    router = next(t for t in inventory(a) if t.role == "router")
    assert gguf_tensor_type("Q4_K_M", router, a) == "f32"
