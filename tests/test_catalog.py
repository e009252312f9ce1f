"""The shipped model catalog (`oomdoctor/data/models.json`, `oomdoctor/memory/catalog.py`).

Every entry must parse, count the parameters its card publishes (within 2 %), and cost the KV
bytes its architecture implies; names as people type them (Hugging Face ids, re-uploads, Ollama
tags, GGUF file names, loose text) must resolve to the right entry and quantization, or to none.
"""

from __future__ import annotations

import collections
import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from oomdoctor.memory import arch_from_hf_config
from oomdoctor.memory.catalog import CatalogEntry, entries, largest_tensor_params, lookup, name_tokens
from oomdoctor.memory.dtypes import parse_kv_dtype
from oomdoctor.memory.kv import kv_bytes_per_token
from oomdoctor.memory.quant import resolve_scheme
from oomdoctor.memory.weights import estimate_weights

ENTRIES = entries()
BF16 = parse_kv_dtype("auto", "bfloat16")
DATA = Path(__file__).resolve().parent.parent / "oomdoctor" / "data" / "models.json"


def _text(cfg: dict) -> dict:
    """The language model's keys (VL models nest them under text_config / llm_config)."""
    return {**cfg, **(cfg.get("text_config") or {}), **(cfg.get("llm_config") or {})}


def expected_kv_bytes(cfg: dict) -> int:
    """KV bytes per token in bf16, from the config keys alone.

    MHA/GQA/MQA: 2 (K and V) x layers x KV heads x head_dim x 2 bytes.
    MLA (DeepSeek V2/V3, Kimi K2, MiniCPM3): one latent of kv_lora_rank + qk_rope_head_dim values
    per layer x 2 bytes; DeepSeek V3.2 adds its indexer key (index_head_dim fp8 values + a 4-byte
    fp32 scale) per layer.
    """
    t = _text(cfg)
    layers = t.get("num_hidden_layers") or t.get("num_layers") or t["n_layer"]
    if t.get("kv_lora_rank"):
        latent = (t["kv_lora_rank"] + t["qk_rope_head_dim"]) * 2
        indexer = t["index_head_dim"] + 4 if t.get("index_head_dim") else 0
        return layers * (latent + indexer)
    heads = t["num_attention_heads"]
    kv_heads = t.get("num_key_value_heads") or t.get("num_kv_heads") or (1 if t.get("multi_query") else heads)
    head_dim = t.get("head_dim") or t["hidden_size"] // heads
    return 2 * layers * kv_heads * head_dim * 2


# ------------------------------------------------------------------ the data
def test_catalog_has_at_least_200_entries_with_unique_ids_and_aliases() -> None:
    assert len(ENTRIES) >= 200
    ids = [e.id.lower() for e in ENTRIES]
    assert len(ids) == len(set(ids)), [i for i, n in collections.Counter(ids).items() if n > 1]
    names = ids + [a.lower() for e in ENTRIES for a in e.aliases]
    dupes = [n for n, k in collections.Counter(names).items() if k > 1]
    assert not dupes, dupes


def test_no_two_entries_share_a_normalised_name() -> None:
    """A precise name (any spelling of an id or alias) is never ambiguous."""
    owners: dict[tuple[str, ...], set[str]] = collections.defaultdict(set)
    for e in ENTRIES:
        for n in (e.id,) + e.aliases:
            if "/" in n:
                owners[name_tokens(n.rsplit("/", 1)[1])].add(e.id)
    clashes = {k: v for k, v in owners.items() if len(v) > 1}
    assert not clashes, clashes


@pytest.mark.parametrize("e", ENTRIES, ids=lambda e: e.id)
def test_entry_fields(e: CatalogEntry) -> None:
    assert re.fullmatch(r"[\w.-]+/[\w.-]+", e.id), e.id
    assert e.source.startswith("https://"), e.source
    assert isinstance(e.params, int) and e.params > 10_000_000
    assert isinstance(e.default_context, int) and 512 <= e.default_context <= 16_777_216
    if e.params_excluded:
        assert e.params_note and 0 < e.params_excluded < e.params / 10
    cfg = e.config
    assert cfg.get("model_type") and cfg.get("architectures"), "model_type and architectures are required"
    for a in e.aliases:
        assert a == a.strip() and (("/" in a) or a == a.lower()), f"Ollama tags are lower case: {a}"


@pytest.mark.parametrize("e", ENTRIES, ids=lambda e: e.id)
def test_parameter_count_matches_the_published_figure(e: CatalogEntry) -> None:
    a = arch_from_hf_config(e.config)
    w = estimate_weights(a, resolve_scheme(None, a), "bfloat16", 2, include_vision=True)
    published = e.params - e.params_excluded  # what the estimator is meant to count (see params_note)
    assert w.params == pytest.approx(published, rel=0.02), (w.params, published)


@pytest.mark.parametrize("e", ENTRIES, ids=lambda e: e.id)
def test_kv_bytes_per_token_follow_the_architecture(e: CatalogEntry) -> None:
    a = arch_from_hf_config(e.config)
    assert kv_bytes_per_token(a, BF16) == expected_kv_bytes(e.config)


KNOWN_KV = [  # bf16 KV bytes per token of the most-served models (layers x KV heads x head size)
    ("meta-llama/Llama-2-7b-chat-hf", 512 * 1024),  # 32 x 32 x 128, no GQA
    ("meta-llama/Llama-2-70b-chat-hf", 320 * 1024),  # 80 x 8 x 128
    ("meta-llama/Llama-3.1-8B-Instruct", 128 * 1024),  # 32 x 8 x 128
    ("meta-llama/Llama-3.1-70B-Instruct", 320 * 1024),
    ("mistralai/Mistral-7B-Instruct-v0.3", 128 * 1024),
    ("mistralai/Mixtral-8x7B-Instruct-v0.1", 128 * 1024),
    ("Qwen/Qwen2.5-7B-Instruct", 56 * 1024),  # 28 x 4 x 128
    ("Qwen/Qwen2.5-72B-Instruct", 320 * 1024),
    ("Qwen/Qwen3-30B-A3B", 96 * 1024),  # 48 x 4 x 128
    ("Qwen/Qwen3-235B-A22B", 188 * 1024),  # 94 x 4 x 128
    ("google/gemma-2-9b-it", 336 * 1024),  # 42 x 8 x 256
    ("microsoft/Phi-3-mini-4k-instruct", 384 * 1024),  # 32 x 32 x 96
    ("openai/gpt-oss-120b", 72 * 1024),  # 36 x 8 x 64
    ("deepseek-ai/DeepSeek-V2-Lite-Chat", 27 * 576 * 2),  # MLA latent 512 + 64
    ("deepseek-ai/DeepSeek-V3", 61 * 576 * 2),  # 70,272 B
    ("tiiuae/falcon-7b-instruct", 2 * 32 * 1 * 64 * 2),  # multi-query
]


@pytest.mark.parametrize(("model_id", "kv"), KNOWN_KV, ids=[k[0] for k in KNOWN_KV])
def test_kv_bytes_of_well_known_models(model_id: str, kv: int) -> None:
    """Pins the data of the most-used entries: a wrong head count or layer count fails here."""
    e = next(e for e in ENTRIES if e.id == model_id)
    assert expected_kv_bytes(e.config) == kv
    assert kv_bytes_per_token(arch_from_hf_config(e.config), BF16) == kv


def test_families_the_catalog_must_cover() -> None:
    ids = {e.id for e in ENTRIES}
    required = [
        "meta-llama/Llama-2-7b-chat-hf", "meta-llama/Llama-2-13b-chat-hf", "meta-llama/Llama-2-70b-chat-hf",
        "meta-llama/Meta-Llama-3-8B-Instruct", "meta-llama/Llama-3.1-405B-Instruct", "meta-llama/Llama-3.2-1B-Instruct",
        "meta-llama/Llama-3.2-3B-Instruct", "meta-llama/Llama-3.2-11B-Vision-Instruct",
        "meta-llama/Llama-3.2-90B-Vision-Instruct", "meta-llama/Llama-3.3-70B-Instruct",
        "meta-llama/Llama-4-Scout-17B-16E-Instruct", "meta-llama/Llama-4-Maverick-17B-128E-Instruct",
        "codellama/CodeLlama-7b-Instruct-hf", "Qwen/Qwen1.5-7B-Chat", "Qwen/Qwen2-7B-Instruct",
        "Qwen/Qwen2.5-0.5B-Instruct", "Qwen/Qwen2.5-72B-Instruct", "Qwen/Qwen2.5-Coder-32B-Instruct",
        "Qwen/Qwen2.5-Math-7B-Instruct", "Qwen/Qwen2.5-VL-3B-Instruct", "Qwen/Qwen2.5-VL-72B-Instruct",
        "Qwen/Qwen3-0.6B", "Qwen/Qwen3-32B", "Qwen/Qwen3-30B-A3B", "Qwen/Qwen3-235B-A22B",
        "Qwen/Qwen3-Coder-30B-A3B-Instruct", "Qwen/Qwen3-Coder-480B-A35B-Instruct", "Qwen/QwQ-32B",
        "mistralai/Mistral-7B-v0.1", "mistralai/Mistral-7B-Instruct-v0.2", "mistralai/Mistral-7B-Instruct-v0.3",
        "mistralai/Mistral-Nemo-Instruct-2407", "mistralai/Mistral-Small-Instruct-2409",
        "mistralai/Mistral-Small-24B-Instruct-2501", "mistralai/Mistral-Small-3.1-24B-Instruct-2503",
        "mistralai/Mistral-Large-Instruct-2407", "mistralai/Mixtral-8x7B-Instruct-v0.1",
        "mistralai/Mixtral-8x22B-Instruct-v0.1", "mistralai/Codestral-22B-v0.1",
        "google/gemma-2b-it", "google/gemma-7b-it", "google/gemma-2-2b-it", "google/gemma-2-9b-it",
        "google/gemma-2-27b-it", "google/gemma-3-1b-it", "google/gemma-3-4b-it", "google/gemma-3-12b-it",
        "google/gemma-3-27b-it", "microsoft/phi-2", "microsoft/Phi-3-mini-4k-instruct",
        "microsoft/Phi-3-mini-128k-instruct", "microsoft/Phi-3-medium-4k-instruct",
        "microsoft/Phi-3-medium-128k-instruct", "microsoft/Phi-3.5-mini-instruct", "microsoft/Phi-3.5-MoE-instruct",
        "microsoft/Phi-3.5-vision-instruct", "microsoft/phi-4", "microsoft/Phi-4-mini-instruct",
        "deepseek-ai/DeepSeek-V2-Chat", "deepseek-ai/DeepSeek-V2-Lite-Chat", "deepseek-ai/DeepSeek-V2.5",
        "deepseek-ai/DeepSeek-V3", "deepseek-ai/DeepSeek-R1", "deepseek-ai/DeepSeek-Coder-V2-Instruct",
        "deepseek-ai/DeepSeek-Coder-V2-Lite-Instruct", "deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B",
        "deepseek-ai/DeepSeek-R1-Distill-Qwen-7B", "deepseek-ai/DeepSeek-R1-Distill-Qwen-14B",
        "deepseek-ai/DeepSeek-R1-Distill-Qwen-32B", "deepseek-ai/DeepSeek-R1-Distill-Llama-8B",
        "deepseek-ai/DeepSeek-R1-Distill-Llama-70B", "deepseek-ai/deepseek-coder-6.7b-instruct",
        "deepseek-ai/deepseek-coder-33b-instruct", "openai/gpt-oss-20b", "openai/gpt-oss-120b",
        "zai-org/glm-4-9b-chat-hf", "zai-org/GLM-4.5", "zai-org/GLM-4.5-Air", "01-ai/Yi-6B-Chat", "01-ai/Yi-9B",
        "01-ai/Yi-34B-Chat", "01-ai/Yi-1.5-34B-Chat", "internlm/internlm2-chat-7b", "internlm/internlm2-chat-20b",
        "internlm/internlm2_5-7b-chat", "internlm/internlm2_5-20b-chat", "baichuan-inc/Baichuan2-7B-Chat",
        "baichuan-inc/Baichuan2-13B-Chat", "tiiuae/falcon-7b-instruct", "tiiuae/falcon-40b-instruct",
        "tiiuae/falcon-180B-chat", "tiiuae/Falcon3-7B-Instruct", "CohereLabs/c4ai-command-r-v01",
        "CohereLabs/c4ai-command-r-08-2024", "CohereLabs/c4ai-command-r-plus", "CohereLabs/c4ai-command-r-plus-08-2024",
        "openbmb/MiniCPM-2B-sft-bf16", "openbmb/MiniCPM3-4B", "openbmb/MiniCPM-V-2_6", "llava-hf/llava-1.5-7b-hf",
        "llava-hf/llava-v1.6-mistral-7b-hf", "OpenGVLab/InternVL2_5-8B", "bigcode/starcoder2-15b",
        "allenai/OLMo-2-1124-7B-Instruct", "HuggingFaceTB/SmolLM2-1.7B-Instruct",
        "ibm-granite/granite-3.1-8b-instruct", "nvidia/Llama-3.1-Nemotron-70B-Instruct-HF",
        "moonshotai/Kimi-K2-Instruct",
    ]
    missing = [r for r in required if r not in ids]
    assert not missing, missing


def test_models_published_only_quantized_carry_their_quantization_config() -> None:
    by_id = {e.id: e for e in ENTRIES}
    assert by_id["openai/gpt-oss-20b"].config["quantization_config"]["quant_method"] == "mxfp4"
    v3 = by_id["deepseek-ai/DeepSeek-V3"].config["quantization_config"]
    assert (v3["quant_method"], v3["weight_block_size"]) == ("fp8", [128, 128])
    assert arch_from_hf_config(by_id["moonshotai/Kimi-K2-Instruct"].config).quant.block == (128, 128)
    assert "quantization_config" not in by_id["meta-llama/Llama-3.1-8B-Instruct"].config


def test_versions_differ_where_the_configs_do() -> None:
    """Mistral 7B v0.1 slides a 4096 window over a 32000 vocabulary, v0.3 has 32768 tokens."""
    by_id = {e.id: e for e in ENTRIES}
    v01 = by_id["mistralai/Mistral-7B-v0.1"].config
    v03 = by_id["mistralai/Mistral-7B-Instruct-v0.3"].config
    assert (v01["sliding_window"], v01["vocab_size"]) == (4096, 32000)
    assert "sliding_window" not in v03 and v03["vocab_size"] == 32768
    assert by_id["meta-llama/Meta-Llama-3-8B-Instruct"].default_context == 8192
    assert by_id["meta-llama/Llama-3.1-8B-Instruct"].default_context == 131072


def test_config_is_a_copy() -> None:
    e = ENTRIES[0]
    cfg = e.config
    cfg["hidden_size"] = 1
    assert e.config["hidden_size"] != 1


def test_json_file_is_plain_data() -> None:
    doc = json.loads(DATA.read_text(encoding="utf-8"))
    assert isinstance(doc["models"], list) and len(doc["models"]) == len(ENTRIES)


# ------------------------------------------------------------------ matching
MATCHES = [
    # (name as typed, expected id or None, expected quantization)
    ("meta-llama/Llama-3.1-70B-Instruct", "meta-llama/Llama-3.1-70B-Instruct", None),
    ("meta-llama/Meta-Llama-3.1-70B-Instruct", "meta-llama/Llama-3.1-70B-Instruct", None),
    ("Llama-3.1-8B-Instruct", "meta-llama/Llama-3.1-8B-Instruct", None),
    ("META-LLAMA/LLAMA-3.1-8B-INSTRUCT", "meta-llama/Llama-3.1-8B-Instruct", None),
    ("llama 3.1 8b", "meta-llama/Llama-3.1-8B-Instruct", None),
    ("Meta-Llama-3.1-8B-Instruct-FP8", "meta-llama/Llama-3.1-8B-Instruct", "fp8"),
    ("neuralmagic/Meta-Llama-3.1-8B-Instruct-FP8-dynamic", "meta-llama/Llama-3.1-8B-Instruct", "fp8"),
    ("unsloth/Llama-3.2-3B-Instruct-bnb-4bit", "meta-llama/Llama-3.2-3B-Instruct", "bnb-4bit"),
    ("unsloth/Qwen2.5-7B-Instruct-unsloth-bnb-4bit", "Qwen/Qwen2.5-7B-Instruct", "bnb-4bit"),
    ("hugging-quants/Meta-Llama-3.1-70B-Instruct-AWQ-INT4", "meta-llama/Llama-3.1-70B-Instruct", "awq"),
    ("Qwen2.5-72B-Instruct-AWQ", "Qwen/Qwen2.5-72B-Instruct", "awq"),
    ("Qwen/Qwen2.5-7B-Instruct-GPTQ-Int8", "Qwen/Qwen2.5-7B-Instruct", "gptq-int8"),
    ("Mistral-7B-Instruct-v0.3-GPTQ-Int4", "mistralai/Mistral-7B-Instruct-v0.3", "gptq"),
    ("TheBloke/Mistral-7B-Instruct-v0.2-AWQ", "mistralai/Mistral-7B-Instruct-v0.2", "awq"),
    ("TheBloke/Llama-2-7B-Chat-GPTQ", "meta-llama/Llama-2-7b-chat-hf", "gptq"),
    ("RedHatAI/Meta-Llama-3.1-8B-Instruct-quantized.w8a8", "meta-llama/Llama-3.1-8B-Instruct", "w8a8"),
    ("RedHatAI/Meta-Llama-3.1-70B-Instruct-quantized.w4a16", "meta-llama/Llama-3.1-70B-Instruct", "w4a16"),
    ("turboderp/Llama-3.1-8B-Instruct-exl2", "meta-llama/Llama-3.1-8B-Instruct", "exl2"),
    ("Llama-3.1-8B-Instruct-exl2-4.0bpw", "meta-llama/Llama-3.1-8B-Instruct", "exl2"),
    # MLC's weight/activation spelling (holdout r47)
    ("Llama-2-7b-chat-hf-q4f16_1", "meta-llama/Llama-2-7b-chat-hf", "int4"),
    ("mlc-ai/Llama-3.1-8B-Instruct-q4f32_1-MLC", "meta-llama/Llama-3.1-8B-Instruct", "int4"),
    ("Llama-3.1-8B-Instruct-q8f16_1-MLC", "meta-llama/Llama-3.1-8B-Instruct", "int8"),
    ("meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8", "meta-llama/Llama-4-Maverick-17B-128E-Instruct", "fp8"),
    ("Qwen3-30B-A3B-Instruct-2507-FP8", "Qwen/Qwen3-30B-A3B-Instruct-2507", "fp8"),
    ("Qwen/Qwen3-30B-A3B", "Qwen/Qwen3-30B-A3B", None),
    ("Qwen3-Coder-30B-A3B-Instruct", "Qwen/Qwen3-Coder-30B-A3B-Instruct", None),
    ("openai/gpt-oss-120b", "openai/gpt-oss-120b", None),
    ("zai-org/GLM-4.5-Air-FP8", "zai-org/GLM-4.5-Air", "fp8"),
    ("THUDM/glm-4-9b-chat", "zai-org/glm-4-9b-chat-hf", None),
    ("CohereForAI/c4ai-command-r-plus", "CohereLabs/c4ai-command-r-plus", None),
    ("InternVL2_5-8B", "OpenGVLab/InternVL2_5-8B", None),
    ("internvl2.5 8b", "OpenGVLab/InternVL2_5-8B", None),
    ("internlm2_5-7b-chat", "internlm/internlm2_5-7b-chat", None),
    ("MiniCPM-V-2_6", "openbmb/MiniCPM-V-2_6", None),
    ("liuhaotian/llava-v1.5-7b", "llava-hf/llava-1.5-7b-hf", None),
    ("llava 1.6 mistral 7b", "llava-hf/llava-v1.6-mistral-7b-hf", None),
    ("Qwen2.5 7B Coder", "Qwen/Qwen2.5-Coder-7B-Instruct", None),
    ("/models/Qwen2.5-7B-Instruct", "Qwen/Qwen2.5-7B-Instruct", None),
    ("https://huggingface.co/Qwen/Qwen2.5-7B-Instruct", "Qwen/Qwen2.5-7B-Instruct", None),
    ("DeepSeek-R1", "deepseek-ai/DeepSeek-R1", None),
    ("deepseek-ai/DeepSeek-V3-0324", "deepseek-ai/DeepSeek-V3", None),
    ("Mixtral-8x7B-Instruct", "mistralai/Mixtral-8x7B-Instruct-v0.1", None),
    # GGUF files and repos
    ("Qwen2.5-Coder-7B-Instruct-Q4_K_M.gguf", "Qwen/Qwen2.5-Coder-7B-Instruct", "Q4_K_M"),
    ("DeepSeek-R1-Distill-Llama-8B-Q8_0.gguf", "deepseek-ai/DeepSeek-R1-Distill-Llama-8B", "Q8_0"),
    ("Meta-Llama-3.1-8B-Instruct-Q4_K_M-00001-of-00002.gguf", "meta-llama/Llama-3.1-8B-Instruct", "Q4_K_M"),
    ("/srv/gguf/llama-2-7b-chat.Q4_K_M.gguf", "meta-llama/Llama-2-7b-chat-hf", "Q4_K_M"),
    ("qwen2.5-7b-instruct-q5_k_m.gguf", "Qwen/Qwen2.5-7B-Instruct", "Q5_K_M"),
    ("gemma-2-9b-it-IQ3_XXS.gguf", "google/gemma-2-9b-it", "IQ3_XXS"),
    ("Llama-3.3-70B-Instruct-UD-Q4_K_XL.gguf", "meta-llama/Llama-3.3-70B-Instruct", "Q4_K_XL"),
    ("DeepSeek-R1-UD-IQ1_S-00001-of-00003.gguf", "deepseek-ai/DeepSeek-R1", "IQ1_S"),
    ("Phi-3-mini-4k-instruct-fp16.gguf", "microsoft/Phi-3-mini-4k-instruct", "F16"),
    ("gpt-oss-20b-MXFP4.gguf", "openai/gpt-oss-20b", "MXFP4"),
    ("bartowski/Meta-Llama-3.1-8B-Instruct-GGUF", "meta-llama/Llama-3.1-8B-Instruct", "gguf"),
    ("hf.co/bartowski/Llama-3.2-3B-Instruct-GGUF:Q4_K_M", "meta-llama/Llama-3.2-3B-Instruct", "Q4_K_M"),
    ("lmstudio-community/Qwen2.5-Coder-14B-Instruct-GGUF", "Qwen/Qwen2.5-Coder-14B-Instruct", "gguf"),
    # Ollama
    ("llama3.3:70b-instruct-q5_K_M", "meta-llama/Llama-3.3-70B-Instruct", "Q5_K_M"),
    ("llama3.1:8b-instruct-q4_K_M", "meta-llama/Llama-3.1-8B-Instruct", "Q4_K_M"),
    ("llama3.1:70b-instruct-fp16", "meta-llama/Llama-3.1-70B-Instruct", "F16"),
    ("llama3.1", "meta-llama/Llama-3.1-8B-Instruct", None),
    ("llama3.1:latest", "meta-llama/Llama-3.1-8B-Instruct", None),
    ("qwen2.5:7b", "Qwen/Qwen2.5-7B-Instruct", None),
    ("qwen2.5-coder:32b", "Qwen/Qwen2.5-Coder-32B-Instruct", None),
    ("deepseek-r1:32b", "deepseek-ai/DeepSeek-R1-Distill-Qwen-32B", None),
    ("deepseek-r1:8b", "deepseek-ai/DeepSeek-R1-Distill-Llama-8B", None),
    ("deepseek-r1:8b-0528-qwen3-q4_K_M", "deepseek-ai/DeepSeek-R1-0528-Qwen3-8B", "Q4_K_M"),
    ("deepseek-r1:14b-qwen-distill-q4_K_M", "deepseek-ai/DeepSeek-R1-Distill-Qwen-14B", "Q4_K_M"),
    ("deepseek-r1:671b", "deepseek-ai/DeepSeek-R1", None),
    ("gemma2:27b", "google/gemma-2-27b-it", None),
    ("gemma3:27b-it-qat", "google/gemma-3-27b-it", "Q4_0"),
    ("mistral:7b", "mistralai/Mistral-7B-Instruct-v0.3", None),
    ("mistral:7b-instruct-v0.2-q4_0", "mistralai/Mistral-7B-Instruct-v0.2", "Q4_0"),
    ("mixtral:8x7b", "mistralai/Mixtral-8x7B-Instruct-v0.1", None),
    ("mixtral:8x22b-instruct-v0.1-q4_0", "mistralai/Mixtral-8x22B-Instruct-v0.1", "Q4_0"),
    ("phi3:3.8b-mini-128k-instruct-q4_0", "microsoft/Phi-3-mini-128k-instruct", "Q4_0"),
    ("phi3:medium", "microsoft/Phi-3-medium-4k-instruct", None),
    ("gpt-oss:20b", "openai/gpt-oss-20b", None),
    ("qwen3:30b-a3b-instruct-2507-q4_K_M", "Qwen/Qwen3-30B-A3B-Instruct-2507", "Q4_K_M"),
    ("llava:7b-v1.6-mistral-q4_0", "llava-hf/llava-v1.6-mistral-7b-hf", "Q4_0"),
    ("llava:13b-v1.5-q4_0", "llava-hf/llava-1.5-13b-hf", "Q4_0"),
    ("gemma:7b-instruct-v1.1-q4_0", "google/gemma-7b-it", "Q4_0"),
    ("command-r:35b-08-2024", "CohereLabs/c4ai-command-r-08-2024", None),
    ("deepseek-coder-v2:16b-lite-instruct-q4_0", "deepseek-ai/DeepSeek-Coder-V2-Lite-Instruct", "Q4_0"),
    ("registry.ollama.ai/library/llama3.2:1b", "meta-llama/Llama-3.2-1B-Instruct", None),
    # fine-tunes embedding one unambiguous base model
    ("dolphin-2.9-llama3-8b", "meta-llama/Meta-Llama-3-8B-Instruct", None),
    ("NousResearch/Hermes-3-Llama-3.1-8B", "meta-llama/Llama-3.1-8B-Instruct", None),
    ("Nous-Hermes-2-Mixtral-8x7B-DPO", "mistralai/Mixtral-8x7B-Instruct-v0.1", None),
    ("huihui-ai/DeepSeek-R1-Distill-Qwen-14B-abliterated-v2", "deepseek-ai/DeepSeek-R1-Distill-Qwen-14B", None),
    # free text naming several models: the first one named is the model
    ("DeepSeek-Coder-V2-Lite (plus Qwen2-1.5B-Instruct chat model)", "deepseek-ai/DeepSeek-Coder-V2-Lite-Instruct", None),
    ("Llama-3.1-8B, also Qwen2.5-7B", "meta-llama/Llama-3.1-8B-Instruct", None),
    ("Llama 3.1 70B (AWQ)", "meta-llama/Llama-3.1-70B-Instruct", "awq"),  # an aside that only qualifies it keeps its quantization
    ("Mistral 7B and Llama 2 13B", None, None),  # the first is ambiguous: never the second instead
    # never wrong: sizes and versions must match, ambiguity and unknowns give None
    ("Qwen2.5-7B", "Qwen/Qwen2.5-7B-Instruct", None),
    ("Qwen2.5-72B", "Qwen/Qwen2.5-72B-Instruct", None),
    ("Qwen2.5-3B", "Qwen/Qwen2.5-3B-Instruct", None),
    ("Qwen2-7B", "Qwen/Qwen2-7B-Instruct", None),
    ("Qwen3-8B", "Qwen/Qwen3-8B", None),
    ("Llama-3.2-1B", "meta-llama/Llama-3.2-1B-Instruct", None),
    ("Llama-3.2-11B-Vision", "meta-llama/Llama-3.2-11B-Vision-Instruct", None),
    ("Meta-Llama-3-8B", "meta-llama/Meta-Llama-3-8B-Instruct", None),
    ("Llama-3.3-70B", "meta-llama/Llama-3.3-70B-Instruct", None),
    ("Mistral-7B-v0.1", "mistralai/Mistral-7B-v0.1", None),
    ("mistralai/Mistral-7B-Instruct-v0.1", "mistralai/Mistral-7B-v0.1", None),
    ("Mistral-7B-Instruct-v0.3", "mistralai/Mistral-7B-Instruct-v0.3", None),
    ("Qwen2.5-7B-Instruct-1M", "Qwen/Qwen2.5-7B-Instruct-1M", None),
    ("Mistral-7B-Instruct", None, None),  # which version?
    ("OpenHermes-2.5-Mistral-7B", None, None),  # base version not in the name
    ("Llama-3.2-2B", None, None),
    ("Qwen2.5-8B", None, None),
    ("Qwen4-7B", None, None),
    ("llama 3.1", None, None),  # no size, and not an Ollama tag
    ("deepseek r1 llama 8b", None, None),  # not DeepSeek-R1 (671B)
    ("deepseek-r1", None, None),  # Ollama's default tag, or Hugging Face's DeepSeek-R1?
    ("Mistral-Large-Instruct", None, None),  # 2407 or 2411
    ("c4ai-command-r", None, None),  # v01 (35B, MHA) or 08-2024 (32B, GQA)
    ("codellama:7b-python", None, None),  # the Python variant is not in the catalog
    ("llama3.1:13b", None, None),
    ("foo-bar-7b", None, None),
    ("", None, None),
    ("   ", None, None),
]


def test_matching_table_is_large_enough() -> None:
    assert len(MATCHES) >= 60
    assert sum(1 for _, want, _ in MATCHES if want is None) >= 10


@pytest.mark.parametrize(("name", "want", "quant"), MATCHES, ids=[m[0] or "<empty>" for m in MATCHES])
def test_lookup(name: str, want: str | None, quant: str | None) -> None:
    m = lookup(name)
    if want is None:
        assert m is None, (m.id, m.how) if m else None
        return
    assert m is not None, name
    assert (m.id, m.quantization) == (want, quant)
    assert m.how in ("id", "alias", "loose")
    assert m.config == m.entry.config and m.params == m.entry.params


def test_how_the_match_was_made() -> None:
    assert lookup("meta-llama/Llama-3.1-8B-Instruct").how == "id"
    assert lookup("Llama-3.1-8B-Instruct").how == "id"
    assert lookup("meta-llama/Meta-Llama-3.1-8B-Instruct").how == "alias"
    assert lookup("llama3.1:8b").how == "alias"
    assert lookup("dolphin-2.9-llama3-8b").how == "loose"
    m = lookup("llama3.1")
    assert (m.how, m.matched) == ("alias", "llama3.1")


# Bare lower-case Ollama library names that also read as a Hugging Face name of another
# model: the lookup refuses to guess.
AMBIGUOUS_BARE = {"deepseek-r1", "deepseek-v2", "deepseek-coder-v2"}


@pytest.mark.parametrize("e", ENTRIES, ids=lambda e: e.id)
def test_every_id_and_alias_finds_its_own_entry(e: CatalogEntry) -> None:
    m = lookup(e.id)
    assert m is not None and m.entry is e and m.how == "id"
    for a in e.aliases:
        m = lookup(a)
        if a in AMBIGUOUS_BARE:
            assert m is None
            continue
        assert m is not None and m.entry is e, (a, m.id if m else None)


def test_ten_thousand_lookups_find_the_catalog_names() -> None:
    """(their time, under 0.75 s, is checked by benchmarks/bench_small.py)"""
    names: list[str] = []
    suffixes = ["", "-Q4_K_M.gguf", "-AWQ", "-GPTQ-Int4", "-FP8", "-bnb-4bit", ".Q8_0.gguf", "-GGUF",
                "-abliterated", "-00001-of-00004.gguf", " ", "-IQ3_XXS.gguf"]
    for e in ENTRIES:
        for n in (e.id,) + e.aliases:
            leaf = n.rsplit("/", 1)[-1]
            for s in suffixes:
                names.append(f"someone/{leaf}{s}" if "/" in n else f"{n}{s.strip()}")
    names = list(dict.fromkeys(names))
    i = 0
    while len(names) < 10_000:
        names.append(f"unknown-model-{i}-{i % 97}b-instruct")
        i += 1
    names = names[:10_000]
    assert len(names) == 10_000
    found = sum(1 for n in names if lookup(n) is not None)
    assert found > 2000


def test_import_does_not_read_the_catalog() -> None:
    """The CLI imports this module; the JSON is parsed on the first lookup only."""
    code = ("import time; t = time.perf_counter(); import oomdoctor.memory.catalog as c; "
            "print(c._index.cache_info().currsize)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "0"


@pytest.mark.parametrize("name, largest", [
    ("Qwen/Qwen2-7B-Instruct", 152064 * 3584),  # the embedding: vocab x hidden
    ("Qwen/Qwen3-30B-A3B", 128 * 2 * 768 * 2048),  # one layer's 128 experts stacked: their gate/up projections
    ("meta-llama/Llama-3.1-8B-Instruct", 128256 * 4096),  # the embedding again: 2 x 14336 x 4096 is less
    ("mistralai/Mixtral-8x7B-Instruct-v0.1", 8 * 2 * 14336 * 4096),  # 8 experts' gate/up projections in one tensor
])
def test_largest_weight_tensor_from_the_config(name: str, largest: int) -> None:
    match = lookup(name)
    assert match is not None
    assert largest_tensor_params(match.config) == largest


@pytest.mark.parametrize("e", entries(), ids=lambda e: e.id)
def test_every_entry_has_a_largest_tensor_below_its_parameter_count(e: CatalogEntry) -> None:
    largest = largest_tensor_params(e.config)
    assert largest is not None and 0 < largest < e.params
