"""KV bytes per token per GPU on published configs."""

from __future__ import annotations

import pytest

from oomdoctor.memory import EstimateSettings, Framework, arch_from_hf_config
from oomdoctor.memory.dtypes import parse_kv_dtype
from oomdoctor.memory.kv import KvLayout, MlaLayout, kv_bytes_per_token
from oomdoctor.memory.policies import kv_layout
from test_memory_arch import DEEPSEEK_V3, GEMMA3_27B, GEMMA_7B, LLAMA3_8B, QWEN3_30B_A3B, case_config

BF16 = parse_kv_dtype("auto", "bfloat16")


def test_llama3_8b_gqa_is_128_kib_per_token() -> None:
    a = arch_from_hf_config(LLAMA3_8B)
    assert kv_bytes_per_token(a, BF16) == 128 * 1024 == 2 * 32 * 8 * 128 * 2
    assert kv_bytes_per_token(a, BF16, tp=2) == 64 * 1024  # 4 KV heads per rank
    assert kv_bytes_per_token(a, parse_kv_dtype("fp8", "bfloat16")) == 64 * 1024


def test_kv_heads_are_replicated_when_fewer_than_ranks() -> None:
    a = arch_from_hf_config(LLAMA3_8B)
    assert kv_bytes_per_token(a, BF16, tp=16) == 2 * 32 * 1 * 128 * 2  # at least one head per rank
    qwen = arch_from_hf_config(QWEN3_30B_A3B)  # 4 KV heads
    assert kv_bytes_per_token(qwen, BF16, tp=4) == kv_bytes_per_token(qwen, BF16, tp=8) == 48 * 128 * 2 * 2


def test_deepseek_mla_latent_is_not_split_by_tp() -> None:
    a = arch_from_hf_config(DEEPSEEK_V3)
    latent = 61 * (512 + 64) * 2
    assert kv_bytes_per_token(a, BF16) == latent == 70272
    assert kv_bytes_per_token(a, BF16, tp=8) == latent
    assert kv_bytes_per_token(a, parse_kv_dtype("fp8", "bfloat16"), tp=8) == latent // 2


def test_engines_without_mla_cache_full_heads() -> None:
    lite = arch_from_hf_config(case_config("vllm-4650-deepseek-v2-lite-v050"))
    old_vllm = kv_layout(Framework.VLLM, lite, EstimateSettings(framework_version="0.5.0.post1"))
    assert old_vllm.mla == MlaLayout.PADDED
    assert kv_bytes_per_token(lite, BF16, layout=old_vllm) == 27 * 16 * 256 * 2 * 2 == 442368
    assert kv_layout(Framework.VLLM, lite, EstimateSettings()).mla == MlaLayout.LATENT  # current vLLM
    v3 = arch_from_hf_config(DEEPSEEK_V3)
    legacy = KvLayout(mla=MlaLayout.DECOMPRESSED)
    kv = parse_kv_dtype("q4_0/f16", "float16")  # quantized K, V stays f16 without flash attention
    per_layer = 128 * 192 * 18 / 32 + 128 * 128 * 2
    assert kv_bytes_per_token(v3, kv, layout=legacy) == 61 * per_layer == 2842112


def test_deepseek_v32_fp8_layout_with_indexer() -> None:
    cfg = {**DEEPSEEK_V3, "model_type": "deepseek_v32", "index_head_dim": 128, "index_n_heads": 64}
    a = arch_from_hf_config(cfg)
    fp8 = parse_kv_dtype("fp8", "bfloat16")
    assert kv_bytes_per_token(a, fp8) == 61 * (512 + 16 + 64 * 2 + 132)


def test_gemma_uses_its_256_head_dim() -> None:
    a = arch_from_hf_config(GEMMA_7B)
    assert kv_bytes_per_token(a, parse_kv_dtype("f16", "float16")) == 28 * 16 * 256 * 2 * 2 == 458752


def test_gemma3_sliding_window_layers() -> None:
    a = arch_from_hf_config(GEMMA3_27B)
    full = 62 * 16 * 128 * 2 * 2
    assert kv_bytes_per_token(a, BF16) == full  # pool engines account every layer
    capped = KvLayout(window_capped=True)
    # llama.cpp: 10 global layers hold 8192 cells, 52 window layers pad(1024 + 512, 256) = 1536 cells
    per_layer = 16 * 128 * 2 * 2
    want = (10 * per_layer * 8192 + 52 * per_layer * 1536) // 8192
    assert kv_bytes_per_token(a, BF16, layout=capped, context=8192) == want
    assert kv_bytes_per_token(a, BF16, layout=capped, context=1024) == full  # window larger than context


def test_llamacpp_q8_0_cache_costs_1_0625_bytes_per_value() -> None:
    a = arch_from_hf_config(case_config("llamacpp-11200-qwen25-32b-q8kv-2gpu"))
    assert kv_bytes_per_token(a, parse_kv_dtype("q8_0", "float16")) == 64 * 1024 * 2 * 34 // 32 == 139264


@pytest.mark.parametrize("layers", [16, 15])
def test_pipeline_stage_counts_only_its_layers(layers: int) -> None:
    a = arch_from_hf_config(LLAMA3_8B)
    assert kv_bytes_per_token(a, BF16, layers=layers) == layers * 8 * 128 * 2 * 2


def test_llamacpp_mla_only_for_files_converted_with_split_tensors() -> None:
    a = arch_from_hf_config(DEEPSEEK_V3)
    s = EstimateSettings(framework=Framework.LLAMACPP)
    assert kv_layout(Framework.LLAMACPP, a, s, gguf_has_mla=None).mla == MlaLayout.DECOMPRESSED
    mla = kv_layout(Framework.LLAMACPP, a, s, gguf_has_mla=True)
    assert kv_bytes_per_token(a, parse_kv_dtype("f16", "float16"), layout=mla) == 61 * (576 + 512) * 2
