"""Launch commands: which framework an argv starts, and its memory knobs as facts.

Used by the log parsers (a log often carries the command line), by the settings probe
(`--pid`: /proc/PID/cmdline and environ) and by rerun (which rewrites the same flags).
Pure: argv and env in, facts out.
"""

from __future__ import annotations

import math
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
    return int(_float(s) * mult)


def _float(s: str) -> Value:
    value = float(s)
    if not math.isfinite(value):  # "1e999", "nan": no setting has that value
        raise ValueError(f"not a finite number: {s!r}")
    return value


def _str(s: str) -> Value:
    return s


def _bool(s: str) -> Value:
    return s.strip().lower() in ("1", "true", "yes", "on")


# llama.cpp's -ot/--override-tensor PATTERN=BUFFER[,...]: every layer's experts kept in CPU RAM ("exps=CPU",
# ".ffn_.*_exps.=CPU"), as --cpu-moe does; a pattern naming some layers (blk.N, blk.(...)) or some of the experts'
# projections (".ffn_(up|down)_exps.=CPU") is a partial offload, not read
_EXPERTS_ON_CPU = re.compile(r"(?i)([^=,]*)exps[^=,]*=\s*CPU\b")
_SOME_LAYERS = re.compile(r"blk\\?\.\s*[(\[\d]")
_SOME_PROJECTIONS = re.compile(r"(?i)up|down|gate")


def _experts_on_cpu(s: str) -> Value:
    m = _EXPERTS_ON_CPU.search(s)
    if m and not _SOME_LAYERS.search(s) and not _SOME_PROJECTIONS.search(m.group(1)):
        return True
    raise ValueError(f"not every layer's experts on the CPU: {s!r}")


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
        F("max_input_tokens", "--max-input-tokens", "--max-input-length"),
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
        F("flash_attention", "-fa", "--flash-attn", "--flashattention", conv=None),
        F("cpu_moe_layers", "-ncmoe", "--n-cpu-moe"),
        F("cpu_moe", "-cmoe", "--cpu-moe", conv=None),
        F("cpu_moe", "-ot", "--override-tensor", conv=_experts_on_cpu),
        # koboldcpp (llama.cpp underneath) spells them its own way
        F("max_model_len", "--contextsize"),
        F("gpu_layers", "--gpulayers"),
        F("batch_size", "--blasbatchsize"),
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
    "max_prefill_token_num": ("knob.max_num_batched_tokens", _int),  # LMDeploy PytorchEngineConfig / CacheConfig
    "device_map": ("parallel.device_map", _str),  # transformers/accelerate: "auto" spreads the layers over every visible GPU
}

# llama.cpp's programs that load a model and take its flags (the scanner reads a line naming one as a launch)
LLAMA_CPP_TOOLS = ("llama-server", "llama-cli", "llama-bench", "llama-batched-bench", "llama-perplexity", "llama-mtmd-cli", "llama-embedding")
LLAMA_CPP_TOOL = "llama-(?:" + "|".join(t.removeprefix("llama-") for t in LLAMA_CPP_TOOLS) + ")"
# engines and flags that keep the model's weights (its MoE experts) in host RAM by design: KTransformers and SGLang's
# kt-kernel flags, llama.cpp's experts kept on the CPU (--n-cpu-moe, -ot exps=CPU); the host was sized for the model
HOST_RESIDENT_WEIGHTS = r"(?i)\bktransformers\b|--kt-(?:cpuinfer|weight-path|amx-weight-path|num-gpu-experts)\b|--cpu_infer\b|--n-cpu-moe\b|exps=CPU\b"
# its scripts that convert a checkpoint to GGUF (in host RAM), and its quantizer
# (and a fork's copy under its own suffix, "convert-hf-to-gguf-bitnet.py"; the converter's logger, "INFO:hf-to-gguf:Loading model")
LLAMA_CPP_CONVERTERS = (r"convert[-_](?:hf[-_]to[-_]gguf|pth[-_]to[-_]ggml|llama[-_]ggml[-_]to[-_]gguf|lora[-_]to[-_]gguf)(?:[-_]\w+)?\.py|\bllama-quantize\b|"
                        r"\b(?:INFO|WARNING|ERROR|DEBUG):hf-to-gguf:")

_DETECT: tuple[tuple[str, re.Pattern[str]], ...] = (
    # (FastChat's vllm_worker and sglang_worker run those engines, with the engines' own flags)
    ("vllm", re.compile(r"(?:^|[\s/])vllm(?:\s+serve|\.entrypoints)|vllm/vllm-openai|vllm\.LLM|\bLLM\(model=|fastchat\.serve\.vllm_worker")),
    ("sglang", re.compile(r"sglang\.launch_server|sglang\s+serve|sglang\.Engine|fastchat\.serve\.sglang_worker")),
    ("tgi", re.compile(r"text-generation-launcher|text-generation-inference")),
    ("llamacpp", re.compile(LLAMA_CPP_TOOL + r"\b|\bllamafile\b|\.llamafile\b|(?:^|/)(?:main|server)\s+-m\b|koboldcpp|" + LLAMA_CPP_CONVERTERS)),
    ("ollama", re.compile(r"(?:^|[\s/])ollama\s+(?:run|serve|pull|show|create)\b|ollama\s+runner")),
    ("tensorrt-llm", re.compile(r"trtllm-(?:serve|build)|tensorrt_llm|examples/\w+/build\.py")),
    ("lmdeploy", re.compile(r"lmdeploy\s+(?:serve|chat)\b")),
    ("deepspeed", re.compile(r"(?:^|\s)deepspeed\s")),
)


# Flags that name their framework, for command lines no program name gives away (a
# `VLLM_ARGS=...` line, a compose file, a Helm value, a pasted fragment).
FLAG_OWNER = {
    "--gpu-memory-utilization": "vllm", "--max-model-len": "vllm", "--max-num-seqs": "vllm", "--max-num-batched-tokens": "vllm",
    "--enforce-eager": "vllm", "--mem-fraction-static": "sglang", "--context-length": "sglang",
    "--max-running-requests": "sglang", "--tp-size": "sglang", "--chunked-prefill-size": "sglang",
    "--max-batch-total-tokens": "tgi", "--max-batch-prefill-tokens": "tgi", "--num-shard": "tgi", "--max-input-tokens": "tgi",
    "--max-input-length": "tgi", "--cuda-memory-fraction": "tgi", "--ctx-size": "llamacpp", "--n-gpu-layers": "llamacpp",
    "--cache-max-entry-count": "lmdeploy", "--session-len": "lmdeploy",
    "--contextsize": "llamacpp", "--gpulayers": "llamacpp", "--blasbatchsize": "llamacpp",
    # TensorRT-LLM's engine build (build.py, trtllm-build)
    "--use-gpt-attention-plugin": "tensorrt-llm", "--gpt-attention-plugin": "tensorrt-llm", "--use-gemm-plugin": "tensorrt-llm",
    "--gemm-plugin": "tensorrt-llm", "--enable-context-fmha": "tensorrt-llm", "--use-inflight-batching": "tensorrt-llm",
}
# flags a framework's parser takes only as spelled: SGLang's `--tp-size`, where TensorRT-LLM's build writes `--tp_size`
_HYPHEN_ONLY = frozenset({"--tp-size"})


# flags several engines share with the same meaning: a line of them alone names no engine, but
# its knobs hold whichever engine the log turns out to be (read where every reading agrees)
SHARED_FLAGS = ("--tensor-parallel-size", "--pipeline-parallel-size", "--quantization", "--kv-cache-dtype", "--dtype",
                "--max_batch_size", "--max_seq_len")  # (the last two: TensorRT-LLM's, and Meta's reference scripts')


def shared_flag_facts(argv: Sequence[str]) -> list[Fact]:
    """Knob facts from flags every engine that knows them reads alike: a knob that two engines read
    as different values is left out; one that only some engines know is kept."""
    values: dict[str, set[str]] = {}
    first: dict[str, Fact] = {}
    for fw in FLAGS:
        for f in parse_argv(argv, framework=fw):
            values.setdefault(f.key, set()).add(str(f.value))
            first.setdefault(f.key, f)
    return [first[key] for key, seen in values.items() if len(seen) == 1]


def framework_from_flags(text: str) -> str | None:
    """The one framework whose own flags the text uses (None when none or several)."""
    line = re.sub(r"--[a-z_]+", lambda f: f.group(0).replace("_", "-"), text)
    owners = {fw for flag, fw in FLAG_OWNER.items() if re.search(re.escape(flag) + r"(?![\w-])", text if flag in _HYPHEN_ONLY else line)}
    return owners.pop() if len(owners) == 1 else None


def detect_framework(command: str) -> str | None:
    for fw, pat in _DETECT:
        if pat.search(command):
            return fw
    return None


# a Windows path in the command (".\\build\\bin\\llama-cli.exe", "C:\\models\\x.gguf", "models\\x.gguf"): its
# backslashes are separators, not POSIX escapes (a line continuation is a backslash before the line's end)
_WINDOWS_PATH = re.compile(r"(?:^|[\s=\"'])(?:[A-Za-z]:|\.{1,2})\\[\w.-]|[\w.-]\\[\w.-]")


def split(command: str) -> list[str]:
    try:
        if _WINDOWS_PATH.search(command):
            return [_unquote(t) for t in shlex.split(command, posix=False)]
        return shlex.split(command)
    except ValueError:  # unbalanced quotes in a pasted or truncated line
        return command.split()


def _unquote(token: str) -> str:
    return token[1:-1] if len(token) >= 2 and token[0] == token[-1] and token[0] in "\"'" else token


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
            exact[norm_flag(name)] = spec
    facts: list[Fact] = []
    i = 0
    while i < len(argv):
        tok = argv[i]
        name, eq, inline = tok.partition("=")
        spec = exact.get(name) or exact.get(norm_flag(name))
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
        if not eq and raw is not None and _FLAG_LIKE.match(raw):  # `--model --seed 1`: the value is missing
            i += 1
            continue
        i += 1 if eq else 2
        if raw is None:
            continue
        try:
            facts.append(Fact(spec.knob_key, spec.convert(raw.strip("'\",")), origin, evidence))
        except ValueError:
            continue
    return facts


_FLAG_LIKE = re.compile(r"--?[A-Za-z]")  # a flag, not a value (a negative number is one)


def positional_model(argv: Sequence[str]) -> str | None:
    """`vllm serve MODEL`, `ollama run TAG` (or show, create), `sglang serve MODEL`, `lmdeploy serve api_server MODEL`,
    `lmdeploy chat MODEL`, `trtllm-serve [serve] MODEL`: the model is positional."""
    for i, tok in enumerate(argv[:-1]):
        prog = argv[i - 1].rsplit("/", 1)[-1] if i > 0 else ""
        if tok in ("serve", "run", "pull") and prog in ("vllm", "ollama", "sglang"):
            at = i + 1
        elif tok in ("api_server", "gradio") and prog == "serve" and i > 1 and argv[i - 2].rsplit("/", 1)[-1] == "lmdeploy":
            at = i + 1
        elif tok == "chat" and prog == "lmdeploy":
            at = i + 1
        elif tok in ("show", "create") and prog == "ollama":  # `ollama show --modelfile TAG`, `ollama create NAME -f FILE`
            at = next((j for j in range(i + 1, len(argv)) if not argv[j].startswith("-")), len(argv))
        elif tok.rsplit("/", 1)[-1] == "trtllm-serve":
            at = i + 2 if argv[i + 1] == "serve" else i + 1
        else:
            continue
        if at < len(argv) and not argv[at].startswith("-"):
            return argv[at]
    return None


_KWARG = re.compile(r"\b([a-z_]+)\s*[=:]\s*[\"']?([\w.\-/]+)")


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


# the environment variables that set a memory knob, and the fact each gives
ENV_KNOBS: dict[str, tuple[str, Callable[[str], Value]]] = {
    "OLLAMA_CONTEXT_LENGTH": ("knob.max_model_len", _int),
    "OLLAMA_NUM_PARALLEL": ("knob.max_num_seqs", _int),
    "OLLAMA_KV_CACHE_TYPE": ("knob.kv_cache_dtype", _str),
    "OLLAMA_FLASH_ATTENTION": ("knob.flash_attention", _bool),
    "LLAMA_ARG_CTX_SIZE": ("knob.max_model_len", _int),
    "LLAMA_ARG_N_PARALLEL": ("knob.max_num_seqs", _int),
    "LLAMA_ARG_N_GPU_LAYERS": ("knob.gpu_layers", _int),
    "LLAMA_ARG_N_CPU_MOE": ("knob.cpu_moe_layers", _int),
    "LLAMA_ARG_CPU_MOE": ("knob.cpu_moe", _bool),
    "LLAMA_ARG_UBATCH": ("knob.ubatch_size", _int),
    "LLAMA_ARG_CACHE_TYPE_K": ("knob.kv_cache_dtype", _str),
    "MAX_TOTAL_TOKENS": ("knob.max_model_len", _int),
    "MAX_BATCH_PREFILL_TOKENS": ("knob.max_num_batched_tokens", _int),
    "MAX_BATCH_TOTAL_TOKENS": ("knob.max_total_tokens", _int),
    "CUDA_MEMORY_FRACTION": ("knob.gpu_memory_utilization", _float),
    "NUM_SHARD": ("knob.tensor_parallel_size", _int),
    "MODEL_ID": ("knob.model", _str),  # TGI's and text-embeddings-inference's model
}


def parse_env(env: Mapping[str, str], evidence: Evidence | None = None, origin: Origin = Origin.SETTINGS) -> list[Fact]:
    facts: list[Fact] = []
    conf = env.get(ALLOC_CONF[0]) or env.get(ALLOC_CONF[1])
    if conf is not None:
        facts.append(Fact("knob.expandable_segments", "expandable_segments:true" in conf.lower().replace(" ", ""), origin, evidence))
    for name, (key, conv) in ENV_KNOBS.items():
        if name in env:
            try:
                facts.append(Fact(key, conv(env[name]), origin, evidence))
            except ValueError:
                continue
    return facts


# ------------------------------------------------------------------ editing an argv
# One home for writing a setting into a launch command: rerun applies suggestions with it,
# the report shows the resulting command diff, and deployment patches are built from it.

ALLOC_CONF = ("PYTORCH_CUDA_ALLOC_CONF", "PYTORCH_ALLOC_CONF")
_ENV_ASSIGN = re.compile(r"^([A-Z_][A-Z0-9_]*)=(.*)$")
_NUMBER = re.compile(r"^-?\d+(?:\.\d+)?$")
_BOOL_WORDS = ("on", "off", "true", "false", "1", "0", "yes", "no")


def norm_flag(flag: str) -> str:
    """`--max_model_len` and `--max-model-len` are the same flag (vLLM accepts both)."""
    return "--" + flag[2:].replace("_", "-") if flag.startswith("--") else flag


def is_flag(tok: str) -> bool:
    return tok.startswith("-") and not _NUMBER.match(tok) and tok not in ("-", "--")


def is_env_assign(tok: str) -> bool:
    return _ENV_ASSIGN.match(tok) is not None


def template_ops(template: str) -> tuple[list[tuple[str, str]], list[tuple[str, str | None]]]:
    """'A={v} B=1' -> env ops; '-ctk {v} -ctv {v} -fa on' -> argv ops. Prose ends the list."""
    try:
        tokens = shlex.split(template)
    except ValueError:
        return [], []
    env_ops: list[tuple[str, str]] = []
    for tok in tokens:
        m = _ENV_ASSIGN.match(tok)
        if not m:
            break
        env_ops.append((m.group(1), m.group(2)))
    if env_ops:
        return env_ops, []
    argv_ops: list[tuple[str, str | None]] = []
    i = 0
    while i < len(tokens) and tokens[i].startswith("-") and not tokens[i].startswith("("):
        flag, eq, inline = tokens[i].partition("=")
        if eq:
            argv_ops.append((flag, inline))
            i += 1
        elif i + 1 < len(tokens) and not tokens[i + 1].startswith(("-", "(")):
            argv_ops.append((flag, tokens[i + 1]))
            i += 2
        else:
            argv_ops.append((flag, None))
            i += 1
    return [], argv_ops


def spec_for(framework: str, flag: str) -> FlagSpec | None:
    for spec in FLAGS.get(framework, ()):
        if any(norm_flag(n) == norm_flag(flag) for n in spec.names):
            return spec
    return None


def spellings(framework: str, flag: str) -> tuple[str, ...]:
    """Every spelling FLAGS accepts for `flag` in this framework (or just `flag`)."""
    spec = spec_for(framework, flag)
    if spec is None:
        return (flag,)
    return (flag, *(n for n in spec.names if n != flag))


def _all_spellings(flag: str) -> tuple[str, ...]:
    """Every spelling any framework accepts for a flag with this name."""
    names = {flag}
    for specs in FLAGS.values():
        for spec in specs:
            if any(norm_flag(n) == norm_flag(flag) for n in spec.names):
                names.update(spec.names)
    return (flag, *sorted(names - {flag}))


def set_flag(argv: list[str], names: Sequence[str], value: str | Sequence[str]) -> None:
    """Set a valued flag in place: every occurrence under any of `names` is rewritten,
    keeping the user's `--x=y` or `--x y` form; absent, `names[0]` is appended."""
    values = [value] if isinstance(value, str) else list(value)
    wanted = {norm_flag(n) for n in names}
    found = False
    i = 0
    while i < len(argv):
        name, eq, _ = argv[i].partition("=")
        if norm_flag(name) in wanted and is_flag(name):
            found = True
            if eq:
                argv[i] = f"{name}={' '.join(values)}"
            else:
                n_old = 0
                while n_old < len(values) and i + 1 + n_old < len(argv) and not is_flag(argv[i + 1 + n_old]):
                    n_old += 1
                argv[i + 1:i + 1 + n_old] = values
                i += len(values)
        i += 1
    if not found:
        argv.extend([names[0], *values])


def set_switch(argv: list[str], framework: str, flag: str, names: Sequence[str], on: bool) -> None:
    """Add (on) or remove (off) a boolean switch, dropping every other spelling of the same knob."""
    spec = spec_for(framework, flag)
    key = spec.knob_key if spec else None
    positive = {norm_flag(n) for n in names}
    negative: set[str] = set()
    neg_spelling: str | None = None
    for other in FLAGS.get(framework, ()):
        if key is not None and other.knob_key == key and other.convert is None:
            target = positive if other.switch_value else negative
            target.update(norm_flag(n) for n in other.names)
            if not other.switch_value and neg_spelling is None:
                neg_spelling = other.names[0]
    present = False
    i = 0
    while i < len(argv):
        name, eq, inline = argv[i].partition("=")
        n = norm_flag(name)
        if n in positive or n in negative:
            state = n in positive
            width = 1
            if eq:
                state = (inline.lower() in ("1", "true", "yes", "on")) == (n in positive)
            elif i + 1 < len(argv) and argv[i + 1].lower() in _BOOL_WORDS:
                state = (argv[i + 1].lower() in ("1", "true", "yes", "on")) == (n in positive)
                width = 2
            if state == on and not present:
                present = True
                i += width
                continue
            del argv[i:i + width]
            continue
        i += 1
    if not present:
        if on:
            argv.append(flag)
        elif neg_spelling is not None:
            argv.append(neg_spelling)


def set_env(argv: list[str], assign: str) -> list[str]:
    """`NAME=value` among the leading environment assignments of an argv (replacing one)."""
    name = assign.partition("=")[0]
    lead = 0
    while lead < len(argv) and is_env_assign(argv[lead]):
        lead += 1
    kept = [t for t in argv[:lead] if t.partition("=")[0] != name]
    return [*kept, assign, *argv[lead:]]


def merge_alloc_conf(current: str | None, new: str) -> str:
    """PYTORCH_CUDA_ALLOC_CONF is `key:value,key:value`: set ours, keep the user's others."""
    if not current:
        return new
    pairs: dict[str, str] = {}
    for part in (current + "," + new).split(","):
        k, _, v = part.partition(":")
        if k.strip():
            pairs[k.strip()] = v.strip()
    return ",".join(f"{k}:{v}" if v else k for k, v in pairs.items())


def flag_value(argv: Sequence[str], names: Sequence[str]) -> str | None:
    """The last value given to any of `names` (None when absent)."""
    wanted = {norm_flag(n) for n in names}
    value = None
    for i, tok in enumerate(argv):
        name, eq, inline = tok.partition("=")
        if norm_flag(name) in wanted:
            value = inline if eq else (argv[i + 1] if i + 1 < len(argv) else None)
    return value


def flag_groups(tokens: Sequence[str]) -> list[list[str]]:
    """`['--a', '1', '--b', '-c', 'x']` -> `[['--a', '1'], ['--b'], ['-c', 'x']]`."""
    groups: list[list[str]] = []
    for t in tokens:
        if is_flag(t) or not groups:
            groups.append([t])
        else:
            groups[-1].append(t)
    return groups


def split_setting(setting: str) -> tuple[list[str], list[str]] | None:
    """A pasteable setting as (env assignments, flag tokens), or None when it is not
    command-line shaped (prose, a Modelfile or docker line, a placeholder value)."""
    try:
        tokens = shlex.split(setting)
    except ValueError:
        return None
    if not tokens or any("<" in t and ">" in t for t in tokens):
        return None
    envs = [t for t in tokens if is_env_assign(t)]
    rest = [t for t in tokens if not is_env_assign(t)]
    if rest and not is_flag(rest[0]):
        return None
    return envs, rest


def apply_setting(argv: Sequence[str], setting: str) -> list[str] | None:
    """The launch argv with one pasteable setting (`--max-model-len 16384`,
    `A=1 B=2`, `-ctk q8_0 -ctv q8_0 -fa on`) applied, or None when the setting is not
    command-line shaped (prose, a Modelfile line, a placeholder value)."""
    parts = split_setting(setting)
    if parts is None:
        return None
    envs, rest = parts
    out = list(argv)
    for env in envs:
        out = set_env(out, env)
    for group in flag_groups(rest):
        set_flag(out, _all_spellings(group[0]), group[1:] if len(group) > 1 else [])
    return out
