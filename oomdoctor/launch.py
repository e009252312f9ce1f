"""Launch commands: which framework an argv starts, and its memory knobs as facts.

Used by the log parsers (a log often carries the command line), by the settings probe
(`--pid`: /proc/PID/cmdline and environ) and by rerun (which rewrites the same flags).
Pure: argv and env in, facts out.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

from oomdoctor.facts import Evidence, Fact, Origin, Value


@dataclass(frozen=True)
class FlagSpec:
    knob_key: str  # fact key, e.g. "knob.max_model_len"
    names: tuple[str, ...]  # every accepted spelling, long and short
    convert: Callable[[str], Value] | None  # None: a boolean switch (present = True)
    switch_value: bool = True  # value a bare switch sets


def _int(s: str) -> Value:
    s = s.strip().lower().replace("_", "")
    mult = 1
    if s.endswith("k"):
        mult, s = 1024, s[:-1]
    return int(float(s) * mult)


def _float(s: str) -> Value:
    return float(s)


def _str(s: str) -> Value:
    return s


def _bool(s: str) -> Value:
    return s.strip().lower() in ("1", "true", "yes", "on")


def F(key: str, *names: str, conv: Callable[[str], Value] | None = _int, switch_value: bool = True) -> FlagSpec:  # noqa: N802
    return FlagSpec(f"knob.{key}", names, conv, switch_value)


FLAGS: dict[str, tuple[FlagSpec, ...]] = {
    "vllm": (
        F("model", "--model", conv=_str),
        F("max_model_len", "--max-model-len"),
        F("max_num_seqs", "--max-num-seqs"),
        F("max_num_batched_tokens", "--max-num-batched-tokens"),
        F("gpu_memory_utilization", "--gpu-memory-utilization", "--device-memory-utilization", conv=_float),
        F("tensor_parallel_size", "--tensor-parallel-size", "-tp"),
        F("pipeline_parallel_size", "--pipeline-parallel-size", "-pp"),
        F("dtype", "--dtype", conv=_str),
        F("quantization", "--quantization", "-q", conv=_str),
        F("kv_cache_dtype", "--kv-cache-dtype", conv=_str),
        F("enforce_eager", "--enforce-eager", conv=None),
        F("chunked_prefill", "--enable-chunked-prefill", conv=None),
        F("chunked_prefill", "--no-enable-chunked-prefill", conv=None, switch_value=False),
        F("cpu_offload", "--cpu-offload-gb", conv=_float),
        F("swap_space", "--swap-space", conv=_float),
        F("cuda_graph_sizes", "--max-cudagraph-capture-size", "--cuda-graph-sizes"),
        F("mm_limits", "--limit-mm-per-prompt", conv=_str),
    ),
    "sglang": (
        F("model", "--model-path", "--model", conv=_str),
        F("max_model_len", "--context-length"),
        F("max_num_seqs", "--max-running-requests"),
        F("max_total_tokens", "--max-total-tokens"),
        F("max_num_batched_tokens", "--chunked-prefill-size", "--max-prefill-tokens"),
        F("gpu_memory_utilization", "--mem-fraction-static", conv=_float),
        F("tensor_parallel_size", "--tp-size", "--tensor-parallel-size", "--tp"),
        F("pipeline_parallel_size", "--pp-size", "--pipeline-parallel-size"),
        F("dtype", "--dtype", conv=_str),
        F("quantization", "--quantization", conv=_str),
        F("kv_cache_dtype", "--kv-cache-dtype", conv=_str),
        F("enforce_eager", "--disable-cuda-graph", conv=None),
        F("cuda_graph_sizes", "--cuda-graph-max-bs", "--cuda-graph-max-bs-decode"),
        F("cpu_offload", "--cpu-offload-gb", conv=_float),
    ),
    "tgi": (
        F("model", "--model-id", conv=_str),
        F("max_model_len", "--max-total-tokens"),
        F("max_num_batched_tokens", "--max-batch-prefill-tokens"),
        F("max_total_tokens", "--max-batch-total-tokens"),
        F("max_num_seqs", "--max-batch-size"),
        F("gpu_memory_utilization", "--cuda-memory-fraction", conv=_float),
        F("tensor_parallel_size", "--num-shard"),
        F("dtype", "--dtype", conv=_str),
        F("quantization", "--quantize", conv=_str),
        F("kv_cache_dtype", "--kv-cache-dtype", conv=_str),
    ),
    "llamacpp": (
        F("model", "-m", "--model", conv=_str),
        F("max_model_len", "-c", "--ctx-size"),
        F("max_num_seqs", "-np", "--parallel"),
        F("gpu_layers", "-ngl", "--gpu-layers", "--n-gpu-layers"),
        F("batch_size", "-b", "--batch-size"),
        F("ubatch_size", "-ub", "--ubatch-size"),
        F("kv_cache_dtype", "-ctk", "--cache-type-k", conv=_str),
        F("flash_attention", "-fa", "--flash-attn", conv=None),
    ),
    "tensorrt-llm": (
        F("max_num_seqs", "--max_batch_size"),
        F("max_num_batched_tokens", "--max_num_tokens"),
        F("max_model_len", "--max_seq_len"),
        F("gpu_memory_utilization", "--kv_cache_free_gpu_memory_fraction", "--free_gpu_memory_fraction", conv=_float),
        F("tensor_parallel_size", "--tp_size"),
        F("pipeline_parallel_size", "--pp_size"),
        F("dtype", "--dtype", conv=_str),
    ),
    "lmdeploy": (
        F("gpu_memory_utilization", "--cache-max-entry-count", conv=_float),
        F("max_model_len", "--session-len"),
        F("max_num_seqs", "--max-batch-size"),
        F("tensor_parallel_size", "--tp"),
        F("max_num_batched_tokens", "--max-prefill-token-num"),
        F("enforce_eager", "--eager-mode", conv=None),
    ),
}

# Python keyword arguments, as in `LLM(model=..., max_model_len=200)` or a YAML dump.
KWARGS: dict[str, tuple[str, Callable[[str], Value]]] = {
    "max_model_len": ("knob.max_model_len", _int),
    "max_num_seqs": ("knob.max_num_seqs", _int),
    "max_num_batched_tokens": ("knob.max_num_batched_tokens", _int),
    "gpu_memory_utilization": ("knob.gpu_memory_utilization", _float),
    "tensor_parallel_size": ("knob.tensor_parallel_size", _int),
    "pipeline_parallel_size": ("knob.pipeline_parallel_size", _int),
    "enforce_eager": ("knob.enforce_eager", _bool),
    "swap_space": ("knob.swap_space", _float),
    "cpu_offload_gb": ("knob.cpu_offload", _float),
    "kv_cache_dtype": ("knob.kv_cache_dtype", _str),
    "session_len": ("knob.max_model_len", _int),  # LMDeploy TurbomindEngineConfig
    "cache_max_entry_count": ("knob.gpu_memory_utilization", _float),
}

_DETECT: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("vllm", re.compile(r"(?:^|[\s/])vllm(?:\s+serve|\.entrypoints)|vllm/vllm-openai|vllm\.LLM|\bLLM\(model=")),
    ("sglang", re.compile(r"sglang\.launch_server|sglang\s+serve|sglang\.Engine")),
    ("tgi", re.compile(r"text-generation-launcher|text-generation-inference")),
    ("llamacpp", re.compile(r"llama-(?:server|cli)\b|\bllamafile\b|\.llamafile\b|(?:^|/)main\s+-m\b")),
    ("ollama", re.compile(r"(?:^|[\s/])ollama\s+(?:run|serve|pull)\b|ollama\s+runner")),
    ("tensorrt-llm", re.compile(r"trtllm-(?:serve|build)|tensorrt_llm|examples/\w+/build\.py")),
    ("lmdeploy", re.compile(r"lmdeploy\s+serve")),
    ("deepspeed", re.compile(r"(?:^|\s)deepspeed\s")),
)


def detect_framework(command: str) -> str | None:
    for fw, pat in _DETECT:
        if pat.search(command):
            return fw
    return None


def split(command: str) -> list[str]:
    try:
        return shlex.split(command)
    except ValueError:  # unbalanced quotes in a pasted or truncated line
        return command.split()


def _norm(flag: str) -> str:
    # vLLM accepts --max_model_len as well as --max-model-len.
    return flag if not flag.startswith("--") else "--" + flag[2:].replace("_", "-")


def parse_argv(
    argv: Sequence[str],
    framework: str | None = None,
    evidence: Evidence | None = None,
    origin: Origin = Origin.SETTINGS,
) -> list[Fact]:
    """Knob facts from a launch argv. Unknown flags are ignored; bad values are skipped."""
    fw = framework or detect_framework(" ".join(argv))
    specs = FLAGS.get(fw or "", ())
    exact: dict[str, FlagSpec] = {}
    for spec in specs:
        for name in spec.names:
            exact[name] = spec
            exact[_norm(name)] = spec
    facts: list[Fact] = []
    i = 0
    while i < len(argv):
        tok = argv[i]
        name, eq, inline = tok.partition("=")
        spec = exact.get(name) or exact.get(_norm(name))
        if spec is None:
            i += 1
            continue
        if spec.convert is None:
            value: Value = spec.switch_value
            if eq:
                value = _bool(inline) if spec.switch_value else not _bool(inline)
            elif i + 1 < len(argv) and argv[i + 1].lower() in ("on", "off", "true", "false", "1", "0", "auto"):
                if argv[i + 1].lower() != "auto":
                    value = _bool(argv[i + 1])
                i += 1
            facts.append(Fact(spec.knob_key, value, origin, evidence))
            i += 1
            continue
        raw = inline if eq else (argv[i + 1] if i + 1 < len(argv) else None)
        i += 1 if eq else 2
        if raw is None:
            continue
        try:
            facts.append(Fact(spec.knob_key, spec.convert(raw.strip("'\",")), origin, evidence))
        except ValueError:
            continue
    return facts


_KWARG = re.compile(r"\b([a-z_]+)\s*[=:]\s*\"?([\w.\-/]+)")


def parse_kwargs(text: str, evidence: Evidence | None = None, origin: Origin = Origin.LOG) -> list[Fact]:
    """Knob facts from `name=value` / `name: value` pairs (Python calls, YAML, arg dumps)."""
    facts = []
    for m in _KWARG.finditer(text):
        entry = KWARGS.get(m.group(1))
        if entry is None:
            continue
        key, conv = entry
        try:
            facts.append(Fact(key, conv(m.group(2)), origin, evidence))
        except ValueError:
            continue
    return facts


ENV_KEYS = ("PYTORCH_CUDA_ALLOC_CONF", "PYTORCH_ALLOC_CONF", "CUDA_VISIBLE_DEVICES")
ENV_PREFIXES = ("VLLM_", "OLLAMA_", "HF_", "SGLANG_", "LLAMA_ARG_", "NCCL_", "TGI_")
_SECRET = re.compile(r"TOKEN|KEY|SECRET|PASSWORD|PASS|AUTH|CREDENTIAL", re.I)


def relevant_env(env: Mapping[str, str]) -> dict[str, str]:
    """The environment variables that matter for memory, with secret values redacted."""
    out = {}
    for k, v in env.items():
        if k in ENV_KEYS or k.startswith(ENV_PREFIXES):
            out[k] = "***" if _SECRET.search(k) else v
    return out


def parse_env(env: Mapping[str, str], evidence: Evidence | None = None, origin: Origin = Origin.SETTINGS) -> list[Fact]:
    facts: list[Fact] = []
    conf = env.get("PYTORCH_CUDA_ALLOC_CONF") or env.get("PYTORCH_ALLOC_CONF")
    if conf is not None:
        facts.append(Fact("knob.expandable_segments", "expandable_segments:true" in conf.lower().replace(" ", ""), origin, evidence))
    table = {
        "OLLAMA_CONTEXT_LENGTH": ("knob.max_model_len", _int),
        "OLLAMA_NUM_PARALLEL": ("knob.max_num_seqs", _int),
        "OLLAMA_KV_CACHE_TYPE": ("knob.kv_cache_dtype", _str),
        "OLLAMA_FLASH_ATTENTION": ("knob.flash_attention", _bool),
        "LLAMA_ARG_CTX_SIZE": ("knob.max_model_len", _int),
        "LLAMA_ARG_N_PARALLEL": ("knob.max_num_seqs", _int),
        "LLAMA_ARG_N_GPU_LAYERS": ("knob.gpu_layers", _int),
        "LLAMA_ARG_UBATCH": ("knob.ubatch_size", _int),
        "LLAMA_ARG_CACHE_TYPE_K": ("knob.kv_cache_dtype", _str),
        "MAX_TOTAL_TOKENS": ("knob.max_model_len", _int),
        "MAX_BATCH_PREFILL_TOKENS": ("knob.max_num_batched_tokens", _int),
        "MAX_BATCH_TOTAL_TOKENS": ("knob.max_total_tokens", _int),
        "CUDA_MEMORY_FRACTION": ("knob.gpu_memory_utilization", _float),
        "NUM_SHARD": ("knob.tensor_parallel_size", _int),
    }
    for name, (key, conv) in table.items():
        if name in env:
            try:
                facts.append(Fact(key, conv(env[name]), origin, evidence))
            except ValueError:
                continue
    return facts
