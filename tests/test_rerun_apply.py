"""rerun.apply_suggestion: one suggestion written into a real launch command, per framework."""

from __future__ import annotations

import pytest

from oomdoctor.errors import RerunError
from oomdoctor.model import Account, Action, Suggestion
from oomdoctor.rerun import KnobMapping, NotApplicable, apply_suggestion, current_value, fmt_value


def S(knob: str, action: str = "set", value: object = None, rerunnable: bool = True, flag: str | None = None) -> Suggestion:
    return Suggestion(knob, Action(action), value, flag, "why", "rule-x", Account.KV_CACHE, rerunnable)  # type: ignore[arg-type]


VLLM = ["vllm", "serve", "meta-llama/Llama-3.1-8B"]
VLLM_MOD = ["python", "-m", "vllm.entrypoints.openai.api_server", "--model", "m"]
SGL = ["python3", "-m", "sglang.launch_server", "--model-path", "m"]
TGI = ["text-generation-launcher", "--model-id", "m"]
LLAMA = ["llama-server", "-m", "x.gguf"]

CASES = [
    # (id, argv, framework, suggestion, expected argv, expected env changes)
    ("vllm-space-form", VLLM + ["--max-model-len", "131072", "--port", "8000"], "vllm", S("max_model_len", value=32768),
     VLLM + ["--max-model-len", "32768", "--port", "8000"], {}),
    ("vllm-equals-form", VLLM + ["--max-model-len=131072"], "vllm", S("max_model_len", value=32768),
     VLLM + ["--max-model-len=32768"], {}),
    ("vllm-underscores", VLLM + ["--max_model_len", "131072"], "vllm", S("max_model_len", value=32768),
     VLLM + ["--max_model_len", "32768"], {}),
    ("vllm-append", VLLM, "vllm", S("max_num_seqs", "lower", 64), VLLM + ["--max-num-seqs", "64"], {}),
    ("vllm-module-entrypoint", VLLM_MOD + ["--gpu-memory-utilization", "0.9"], "vllm", S("gpu_memory_utilization", "raise", 0.95),
     VLLM_MOD + ["--gpu-memory-utilization", "0.95"], {}),
    ("vllm-alias-spelling", VLLM + ["--device-memory-utilization=0.9"], "vllm", S("gpu_memory_utilization", "lower", 0.85),
     VLLM + ["--device-memory-utilization=0.85"], {}),
    ("vllm-switch-on", VLLM, "vllm", S("enforce_eager", "enable"), VLLM + ["--enforce-eager"], {}),
    ("vllm-negative-switch-replaced", VLLM + ["--no-enable-chunked-prefill", "--port", "1"], "vllm", S("chunked_prefill", "enable"),
     VLLM + ["--port", "1", "--enable-chunked-prefill"], {}),
    ("vllm-switch-off", VLLM + ["--enable-chunked-prefill"], "vllm", S("chunked_prefill", "disable"),
     VLLM + ["--no-enable-chunked-prefill"], {}),
    ("vllm-alloc-conf-merged", VLLM, "vllm", S("expandable_segments", "enable"), VLLM,
     {"PYTORCH_CUDA_ALLOC_CONF": "max_split_size_mb:128,expandable_segments:True"}),
    ("sglang", SGL + ["--mem-fraction-static", "0.9", "--context-length=65536"], "sglang", S("max_model_len", value=16384),
     SGL + ["--mem-fraction-static", "0.9", "--context-length=16384"], {}),
    ("sglang-switch", SGL, "sglang", S("enforce_eager", "enable"), SGL + ["--disable-cuda-graph"], {}),
    ("tgi", TGI + ["--max-batch-prefill-tokens", "8192"], "tgi", S("max_num_batched_tokens", "lower", 4096),
     TGI + ["--max-batch-prefill-tokens", "4096"], {}),
    ("tgi-valued-switch", TGI, "tgi", S("enforce_eager", "enable"), TGI + ["--cuda-graphs", "0"], {}),
    ("llamacpp-short", LLAMA + ["-c", "32768", "-ngl", "99"], "llamacpp", S("max_model_len", value=8192),
     LLAMA + ["-c", "8192", "-ngl", "99"], {}),
    ("llamacpp-long-alias", LLAMA + ["--ctx-size=32768"], "llamacpp", S("max_model_len", value=8192),
     LLAMA + ["--ctx-size=8192"], {}),
    ("llamacpp-cli-gpu-layers", ["llama-cli", "-m", "x.gguf", "--n-gpu-layers", "99"], "llamacpp", S("gpu_layers", "lower", 30),
     ["llama-cli", "-m", "x.gguf", "--n-gpu-layers", "30"], {}),
    ("llamacpp-multi-flag", LLAMA + ["-fa", "-c", "4096"], "llamacpp", S("kv_cache_dtype", value="q8_0"),
     LLAMA + ["-fa", "on", "-c", "4096", "-ctk", "q8_0", "-ctv", "q8_0"], {}),
    ("ollama-env", ["ollama", "serve"], "ollama", S("max_model_len", value=8192), ["ollama", "serve"],
     {"OLLAMA_CONTEXT_LENGTH": "8192"}),
    ("ollama-env-pair", ["ollama", "serve"], "ollama", S("kv_cache_dtype", value="q8_0"), ["ollama", "serve"],
     {"OLLAMA_KV_CACHE_TYPE": "q8_0", "OLLAMA_FLASH_ATTENTION": "1"}),
    ("vllm-old-version-env", VLLM, "vllm", S("attention_backend", "set"), VLLM, {"VLLM_ATTENTION_BACKEND": "FLASH_ATTN"}),
    # a setting spelled on, switched off as the suggestion spells it (not the "on" of the framework's template)
    ("llamacpp-valued-switch-off", LLAMA + ["-fa", "on", "-c", "4096"], "llamacpp", S("attention_backend", "disable", flag="-fa off"),
     LLAMA + ["-fa", "off", "-c", "4096"], {}),
    ("ollama-env-switch-off", ["ollama", "serve"], "ollama", S("attention_backend", "disable", flag="OLLAMA_FLASH_ATTENTION=0"),
     ["ollama", "serve"], {"OLLAMA_FLASH_ATTENTION": "0"}),
    ("vllm-alloc-conf-switched-off", VLLM, "vllm",
     S("expandable_segments", "disable", flag="PYTORCH_CUDA_ALLOC_CONF=expandable_segments:False"), VLLM,
     {"PYTORCH_CUDA_ALLOC_CONF": "max_split_size_mb:128,expandable_segments:False"}),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_apply(case: tuple) -> None:
    _id, argv, fw, s, want_argv, want_env = case
    env = {"PYTORCH_CUDA_ALLOC_CONF": "max_split_size_mb:128", "HF_TOKEN": "hf_abcdefghijklmnopqrstuvwxyz"}
    version = "0.10.2" if _id == "vllm-old-version-env" else None
    before = list(argv)
    out, changes = apply_suggestion(argv, env, s, fw, version=version)
    assert out == want_argv
    assert changes == want_env
    assert argv == before  # the input is not modified


def test_generic_command_flag_mapping() -> None:
    argv = ["python", "train.py", "--batch-size=64", "--epochs", "1"]
    out, env = apply_suggestion(argv, {}, S("batch_size", "lower", 16), None, [KnobMapping.parse("batch_size=--batch-size")])
    assert out == ["python", "train.py", "--batch-size=16", "--epochs", "1"] and env == {}


def test_generic_command_flag_mapping_appends_and_env_mapping() -> None:
    out, env = apply_suggestion(["./job"], {"BS": "64"}, S("batch_size", "lower", 16), None,
                                [KnobMapping.parse("batch_size=--bs"), KnobMapping.parse("batch_size=BS")])
    assert out == ["./job"] and env == {"BS": "16"}  # the last mapping wins
    out, env = apply_suggestion(["./job"], {}, S("batch_size", "lower", 16), None, [KnobMapping.parse("batch_size=--bs")])
    assert out == ["./job", "--bs", "16"]


def test_user_mapping_overrides_framework_spelling() -> None:
    out, _ = apply_suggestion(VLLM, {}, S("max_model_len", value=2048), "vllm", [KnobMapping.parse("max_model_len=--max-len")])
    assert out == VLLM + ["--max-len", "2048"]


@pytest.mark.parametrize("text", ["batch_size", "batch_size=", "=--x", "batch_size=batch size", "batch_size=lower"])
def test_bad_mapping(text: str) -> None:
    with pytest.raises(RerunError):
        KnobMapping.parse(text)


NOT_APPLICABLE = [
    ("not-rerunnable", VLLM, "vllm", S("host_ram", "raise", rerunnable=False), "relaunch"),
    ("no-value", VLLM, "vllm", S("max_model_len", "lower", None), "no value"),
    ("unknown-framework-knob", ["python", "serve.py"], None, S("max_model_len", value=1024), "--knob max_model_len="),
    ("modelfile-spelling", ["ollama", "serve"], "ollama", S("batch_size", value=256), "no launch flag or variable"),  # a Modelfile line
    ("already-there", VLLM + ["--enforce-eager"], "vllm", S("enforce_eager", "enable"), "already has"),
    ("same-value", VLLM + ["--max-model-len", "2048"], "vllm", S("max_model_len", value=2048), "already has"),
    ("flag-injection", VLLM, "vllm", S("kv_cache_dtype", value="--trust-remote-code"), "unsafe"),
    ("newline", VLLM, "vllm", S("kv_cache_dtype", value="fp8\n--x"), "unsafe"),
]


@pytest.mark.parametrize("case", NOT_APPLICABLE, ids=[c[0] for c in NOT_APPLICABLE])
def test_not_applicable(case: tuple) -> None:
    _id, argv, fw, s, words = case
    with pytest.raises(NotApplicable, match=words.replace("(", r"\(")):
        apply_suggestion(argv, {}, s, fw)


def test_current_value() -> None:
    argv = VLLM + ["--max_model_len=4096", "--max-num-seqs", "8", "--enforce-eager"]
    assert current_value(argv, {}, "max_model_len", "vllm") == 4096
    assert current_value(argv, {}, "max_num_seqs", "vllm") == 8
    assert current_value(argv, {}, "enforce_eager", "vllm") is True
    assert current_value(argv, {}, "gpu_memory_utilization", "vllm") is None
    assert current_value(["ollama", "serve"], {"OLLAMA_NUM_PARALLEL": "4"}, "max_num_seqs", "ollama") == 4
    m = [KnobMapping.parse("batch_size=--batch-size")]
    assert current_value(["x", "--batch-size", "512"], {}, "batch_size", None, m) == 512
    assert current_value(["x"], {"BS": "3"}, "batch_size", None, [KnobMapping.parse("batch_size=BS")]) == 3


@pytest.mark.parametrize("value,text", [(0.9, "0.9"), (0.95, "0.95"), (1.0, "1"), (4096, "4096"), (True, "true"), ("fp8", "fp8")])
def test_fmt_value(value: object, text: str) -> None:
    assert fmt_value(value) == text  # type: ignore[arg-type]
