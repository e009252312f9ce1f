"""The streaming scanner: reads a log once, in binary chunks, and turns it into facts.

A multi-literal prefilter (RE2, a DFA) finds the few candidate lines that contain any
pattern anchor; only those lines are decoded and matched. Memory use is bounded by the
chunk size, not by the log size. Timestamps, pod prefixes, ANSI colours, CRLF and a
truncated last line need no special handling: patterns search within lines.
"""

from __future__ import annotations

import gzip
import io
import re
import sys
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import AbstractSet, Any, BinaryIO, Iterable, Iterator

from oomdoctor.context import VISIBLE_ENV, read_command, visible_device_count
from oomdoctor.errors import InputError
from oomdoctor.facts import Evidence, Fact, Origin, Value, format_bytes
from oomdoctor.launch import (ALLOC_CONF, ENV_KNOBS, FLAG_OWNER, HOST_RESIDENT_WEIGHTS, LLAMA_CPP_TOOL, LLAMA_CPP_TOOLS, SHARED_FLAGS, detect_framework, framework_from_flags, parse_argv,
                              parse_env, parse_kwargs, positional_model, shared_flag_facts, split)
from oomdoctor.parsers import detect, generic, ggml, host, servers, stats, torch, vllm
from oomdoctor.parsers.base import P, Pattern, const, seconds, timestamp
from oomdoctor.parsers.prefilter import Prefilter, build_prefilter, literal
from oomdoctor.timeline.series import SeriesSet

CHUNK = 4 << 20
HEAD = 8 << 20  # framework signals select lines only in the first bytes of a log
MAX_LINE = 256 << 10  # longer lines are read in windows around each anchor
SWITCH_INTERVAL = 1e-4  # seconds: how soon the scanning loop lets the read-ahead report a hit (sys.setswitchinterval)
WINDOW = 8 << 10
_STARTUP_STEPS = ("load_weights", "profile", "kv_alloc", "cuda_graph_capture", "warmup")
_SERVING_STEPS = ("decode", "prefill")  # a serving step an inner frame names (parsers/torch.py's _forward_step)
_STEP_BUFFER = {"load_weights": "weights", "kv_alloc": "kv", "profile": "compute"}  # what ggml allocates in each step
RELAUNCH_GAP_S = 300  # failures further apart than this are separate attempts
LEAD_IN_S = 30  # lines stamped this close before a failure belong to it
# Jupyter's header above a traceback: "OutOfMemoryError      Traceback (most recent call last)"
_JUPYTER_HEADER = re.compile(r"^\W*\w+(?:Error|Exception)\s{2,}Traceback \(most recent call last\)")
_FRAME = re.compile(r"\b" + generic.FRAME_LINE)
# (a Windows console pasted as text shows ESC as "←")
_ANSI = re.compile(r"(?:\x1b|\u2190)\[[0-9;?]*[A-Za-z]")
_BARE_ANSI = re.compile(r"\[[0-9;]{1,12}m")
_QUOTED = re.compile(r"^(?:> ?)+")


_AT_LINE_START = re.compile(r"^\s*(?:[$#>]\s*)?(?:(?:[A-Z_][A-Z0-9_]*=\S*|nohup|sudo|exec|time|env)\s+)*$")


def _launch(m: re.Match[str]) -> Iterable[tuple[str, Value]]:
    line = m.string
    # a command at the start of its line (after a prompt, env assignments) starts an attempt; one quoted
    # inside another line (`llm = LLM(` in a traceback, a shell's "Killed  python -m ...") does not, nor
    # does a command that only reads or builds a model (`ollama show`, `ollama create`)
    if not m.group(0).endswith(("LLM(", "show", "create")) and _AT_LINE_START.match(line[:m.start()]):
        yield "_launch", True
    fw = detect_framework(line)
    if fw:
        yield "_framework", f"{fw}:8"
        argv = split(line[m.start():])
        facts = parse_argv(argv, framework=fw)
        for f in facts:
            yield f.key, f.value
        model = positional_model(argv)
        if model and not any(f.key == "knob.model" for f in facts):
            yield "knob.model", model
    for f in parse_kwargs(line):
        yield f.key, f.value


def _container(m: re.Match[str]) -> Iterable[tuple[str, Value]]:
    """A `docker run IMAGE args` line in the log: the engine the image runs, its flags, and the
    container's own limits (--shm-size, --memory, --gpus)."""
    ctx = read_command(m.string[m.start():], source="log")
    if ctx.framework:
        yield "_framework", f"{ctx.framework}:8"
    for f in ctx.facts:
        if f.key.startswith(("knob.", "host.", "gpu.count")):
            yield f.key, f.value


# a fact whose whole value is a shell variable (`$model`, `${MODEL_ID}`), expanded from the paste's own assignments
_SHELL_REF = re.compile(r"\$\{?(\w+)\}?")

# a commented-out argument of a config list or script (`  # "--quantization=fp8",`, `# --enforce-eager \\`):
# a setting the user turned off, not one the run had
_COMMENTED_ARG = re.compile(r"^\s*#\s*[\"'-]")
# a flag an error message offers as advice ("You can use float16 instead ..., for example: --dtype=half."): not a setting
_ADVISED_FLAG = re.compile(r"(?i)\b(?:for example\b|for instance\b|e\.g\.|you can (?:use|set|pass)\b|try (?:setting|adding|passing|using)\b|"
                           r"consider (?:setting|adding|passing|using)\b)[^\n]*?--[a-z]")


_ENV_NAMES = (*ALLOC_CONF, *ENV_KNOBS, *VISIBLE_ENV)
_DEVICE_LIST_ASSIGN = re.compile(r"\b(" + "|".join(VISIBLE_ENV) + r")=[\"']?([\w,:/-]+)")
_ASSIGN = re.compile(r"\b([A-Z_][A-Z0-9_]*)=(\"[^\"]*\"|'[^']*'|[^\s\"',;]+)")
# where a paste assigns a variable: in front of a command (after a prompt, `export`, `env`, a Dockerfile's `ENV`),
# a docker `-e`/`--env`, a compose file's list item; not advice quoted in a message ("try setting NAME=...")
# (PyTorch's advice wrapped at 80 columns starts a line with "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid")
_ASSIGNING = (r"^(?!.*\bto avoid fragmentation)\s*(?:[$#>]\s*)?(?:(?:export|env|sudo|nohup|ENV)\s+)*(?:[A-Z_][A-Z0-9_]*=\S*(?:\s+|$))+|"
              r"(?:\s-e|--env)[= ]\s*['\"]?[A-Z_][A-Z0-9_]*=\S+|^\s*-\s+['\"]?[A-Z_][A-Z0-9_]*=\S+")


def _env_assignment(m: re.Match[str]) -> Iterable[tuple[str, Value]]:
    """`OLLAMA_NUM_PARALLEL=64 ollama serve`, `export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True`, `-e MAX_TOTAL_TOKENS=8192`:
    the settings a paste assigns, read as a launch command's environment is."""
    env = {name: value.strip("\"'") for name, value in _ASSIGN.findall(m.group(0))}
    for f in parse_env(env):
        yield f.key, f.value
    # (`CUDA_VISIBLE_DEVICES=0,1,2,3 python web_demo.py`: the GPUs the process sees; a list, commas and all)
    gpus = visible_device_count(dict(_DEVICE_LIST_ASSIGN.findall(m.group(0))))
    if gpus:
        yield "gpu.count", gpus


def _flags(m: re.Match[str]) -> Iterable[tuple[str, Value]]:
    if _COMMENTED_ARG.match(m.string) or _ADVISED_FLAG.search(m.string):
        return
    fw = framework_from_flags(m.string)
    if fw is None:
        for f in shared_flag_facts(split(m.string)):
            yield f.key, f.value
        return
    yield "_framework", f"{fw}:4"
    for f in parse_argv(split(m.string), framework=fw):
        yield f.key, f.value


_NS_PAIR = re.compile(r"(\w+)=('[^']*'|\"[^\"]*\"|\[[^\]]*\]|[^,]*)")
_NS_ITEM = re.compile(r"'([^']*)'|\"([^\"]*)\"|([^,\s\[\]]+)")


def _namespace(m: re.Match[str]) -> Iterable[tuple[str, Value]]:
    """A Python program's parsed arguments printed at start-up (KoboldCpp's "Namespace(contextsize=16384, gpulayers=0,
    ...)"): read as the command line they came from, when the names are one engine's flags. A line cut before its ")"
    loses its last pair, which may be cut mid-value."""
    argv: list[str] = []
    body = m.group(1).rstrip()
    pairs = _NS_PAIR.findall(body[:-1] if body.endswith(")") else body)
    if not body.endswith(")"):
        pairs = pairs[:-1]  # a line cut by the paste: its last value may be cut too
    for key, raw in pairs:
        value = raw.strip()
        if value in ("None", "False", "''", '""', "[]"):
            continue
        argv.append(f"--{key}")
        if value.startswith("["):
            argv.extend(x for item in _NS_ITEM.findall(value) for x in item if x)
        elif value != "True":
            argv.append(value.strip("'\""))
    fw = framework_from_flags(" ".join(argv))
    if fw is None:
        return
    yield "_framework", f"{fw}:4"
    for f in parse_argv(argv, framework=fw):
        yield f.key, f.value


def _model_name(m: re.Match[str]) -> Iterable[tuple[str, Value]]:
    yield "_model_name", m.group(1) or m.group(2)


_DRAFT_FLAG = re.compile(r"(?:(?:^|\s)-md|--model-draft|--draft-model|--hf-repo-draft|-hfd)[= ]+\S*$")


def _gguf_name(m: re.Match[str]) -> Iterable[tuple[str, Value]]:
    """A GGUF file's name, where no other line names the model: not a draft model's, nor a multimodal projector's."""
    if not _DRAFT_FLAG.search(m.string, 0, m.start(1)) and not m.group(1).lower().startswith("mmproj"):
        yield "_gguf_name", m.group(1)


# a multimodal model or input, in a log line or a model's name
MULTIMODAL = (
    r"(?i)qwen[\d._]*[-_]?vl|qwen2?5?vl|llava|pixtral|internvl|minicpm-?v|idefics|paligemma|mllama|vision_tower|limit_mm_per_prompt|image_processor|"
    # (llama.cpp's multimodal library: its projector file, "encoding image slice...")
    # (vLLM V0's "Starting profile run for multi-modal models.")
    r"qwen[\d._]*[-_]omni|lmms[-_]eval|encoding image|image slice|--mmproj\b|ProjectorPath:[^\s\]]|profile run for multi-modal models|"
    # (an image passed on a command line: "--image cat.jpg"; a vision stage's class: "EngineV2VisionPrefill.prepare")
    r"\s--image(?:[= ]\S|\s*$)|(?<![a-z])Vision\w*?(?:Prefill|Encoder|Tower|Transformer)\b|"
    # (a vision-language model's or harness's name: SmolVLM, mlx-vlm, VLMEvalKit's vlmeval/vlm/; video inputs)
    r"(?i:(?<![a-z])(?:[a-z]*vlm|vlmeval\w*)(?![a-z])|pixel_values_videos|video_grid_thw|video-mme|\bvideo frames?\b|"
    # (a model name's vision segment: Llama-3.2-11B-Vision, Phi-3-vision, llama3.2-vision:11b, granite-vision, deepseek-vl2,
    # Kimi-VL, GLM-4V/4.1V, InternLM-XComposer, Moondream, Florence-2, Molmo, MiniCPM-o, and the OCR models: Nanonets-OCR, dots.ocr)
    r"[-_:]vision(?![a-z])|[-_]vl\d*(?![a-z])|glm-?4(?:\.\d)?v(?![a-z])|xcomposer|moondream|florence-?2|molmo|minicpm-?o(?![a-z])|[-_.]ocr(?![a-z]))"
)

LAUNCH: tuple[Pattern, ...] = (
    P("launch-command", ("vllm serve", "vllm.entrypoints", "sglang.launch_server", "text-generation-launcher", *LLAMA_CPP_TOOLS,
                         "lmdeploy serve", "trtllm-", "ollama run", "ollama show", "ollama create", "LLM(", "build.py", ".llamafile", "sglang serve",
                         "main -m", "server -m"),
      r"(?:python\S*\s+(?:-u\s+)?-m\s+)?(?:vllm serve|vllm\.entrypoints|sglang\.launch_server|sglang serve|text-generation-launcher|" + LLAMA_CPP_TOOL + r"|"
      # (llama.cpp's binaries before their llama- names, 2023: "./main -m model.gguf", "./server -m model.gguf -c 65536")
      r"lmdeploy serve|trtllm-\w+|ollama (?:run|show|create)|\w*LLM\(|\S*build\.py|\S+\.llamafile|(?<![\w-])(?:\S*/)?(?:main|server)(?=\s+-m\s))", _launch),
    P("container-run", ("docker run", "podman run", "nerdctl run"), r"\b(?:docker|podman|nerdctl) run\s", _container),
    # an environment variable assigned in a shell line, a docker -e or a compose list: the settings it names
    P("env-assignment", tuple(f"{name}=" for name in _ENV_NAMES),
      _ASSIGNING, _env_assignment, repeat=True),
    # (the line may be cut where a console or a paste stopped it: its complete pairs are read)
    P("argparse-namespace", ("Namespace(",), r"^\s*Namespace\((.*)$", _namespace),
    P("flag-args", tuple(FLAG_OWNER) + tuple(f.replace("-", "_").replace("__", "--") for f in FLAG_OWNER) + SHARED_FLAGS,
      r"--[a-z][\w-]+[ =]", _flags),
    P("model-name", ("--model", "model=", "model_id", "model_path", "model_name", "from_pretrained", "ollama run", "Model ", "model ", "Model: ", "Loading model "), r"(?:--model(?:-path|-id|-name|_path|_name_or_path)?[= ]|model=|model_id: |model_path=|"
      r"from_pretrained\(|ollama run |[Mm]odel:? +)['\"]?([\w./:\-]*\d+(?:\.\d+)?[bB][\w.:\-]*)|"
      # (an app loading a Hugging Face repo by its id, with or without a size in its name: LM Studio's
      # "Loading model mistralai/mistral-nemo-instruct-2407 Q4_K_M")
      r"^Loading model ([A-Za-z][\w.\-]*/[A-Za-z][\w.\-]*)(?=\s|$)", _model_name),
    # a GGUF file named anywhere in a line, its size in its name (an app's "Model found at
    # C:\...\codellama-34b-instruct.Q2_K.gguf", llama.cpp's "-m models/llama-2-13b.Q4_K_M.gguf"): the file is the model
    # (not a speculative-decoding draft's: "-md models/Qwen3-0.6B-Q8_0.gguf")
    P("gguf-file-name", (".gguf",), r"(?:^|[\s/\\=\"'])([\w.\-]*?\d+(?:\.\d+)?[bB](?![a-zA-Z])[\w.\-]*?)\.gguf\b", _gguf_name),
    # a shell session pasted with its variables (`model=org/name` ... `docker run ... --model-id $model`)
    P("shell-assign", ("model=", "MODEL=", "model_id=", "MODEL_ID=", "shard=", "SHARD="),
      r"^\s*(?:\$\s*)?(?:export\s+)?(\w*(?:model|MODEL|shard|SHARD)\w*)=(['\"]?)([^\s'\"$]+)\2\s*$",
      lambda m: [(f"_shellvar:{m.group(1)}", m.group(3))]),
    P("dtype-kwarg", ("torch_dtype", "from_pretrained"), r"(?:torch_)?dtype=torch\.(\w+)", lambda m: [("knob.dtype", m.group(1))]),
    # (LLaMA-Factory: --quantization_bit 4, bitsandbytes by default)
    P("quant-kwarg", ("load_in_8bit", "load_in_4bit", "--load_8bit", "--load_4bit", "quantization_bit"),
      r"load_in_(\d)bit=True|--load_(\d)bit|--quantization_bit[= ]([48])\b",
      lambda m: [("knob.quantization", f"bnb-{m.group(1) or m.group(2) or m.group(3)}bit")]),
    P("startup-frames", ("LLM(", "from_engine_args", "LLMEngine", "EngineCoreProc", "init_device"),
      r"\bLLM\(|from_engine_args|LLMEngine\(|EngineCoreProc\(|init_device", lambda m: [("_phase", "startup")]),
    # (V1's front end reporting that its engine core died while starting, printed below the root cause: the failure's
    # phase when no frame names a step)
    P("engine-core-init-failed", ("Engine core initialization failed",), r"Engine core initialization failed",
      lambda m: [("_phase_umbrella", "startup")]),
    P("host-resident-weights", ("ktransformers", "KTransformers", "--kt-", "--cpu_infer", "--n-cpu-moe", "exps=CPU"), HOST_RESIDENT_WEIGHTS,
      const(("oom.hint", "host_resident_weights"))),
    P("multimodal", ("VL", "vl", "llava", "vision", "Vision", "pixtral", "image", "idefics", "Idefics", "paligemma", "PaliGemma",
                     "mllama", "Mllama", "limit_mm_per_prompt", "MiniCPM-V", "minicpm-v", "MiniCPMV", "omni", "Omni", "lmms_eval",
                     "lmms-eval", "encoding image", "image slice", "mmproj", "ProjectorPath", "multi-modal model", "vlm", "VLM", "Vlm",
                     "video", "Video", "glm", "GLM", "xcomposer", "XComposer", "moondream", "Moondream", "florence", "Florence",
                     "molmo", "Molmo", "MiniCPM-o", "minicpm-o", "OCR", "ocr"),
      MULTIMODAL, lambda m: [("oom.hint", "multimodal")]),
)

ALL_PATTERNS: tuple[Pattern, ...] = (
    *torch.PATTERNS, *vllm.PATTERNS, *servers.PATTERNS, *ggml.PATTERNS, *host.PATTERNS, *generic.PATTERNS, *LAUNCH, *detect.SIGNALS,
    *stats.PATTERNS,
)

# Kinds of failure that are themselves memory failures (others are hints or look-alikes).
NOT_OOM_KINDS = frozenset({
    "illegal_memory_access", "no_kernel_image", "device_assert", "nccl_graph_capture", "broken_install",
    "vulkan_max_buffer_size", "queue_full", "config_max_len", "gpu_timeout", "static_plan_overflow", "bookkeeping_bug", "ggml_assert",
    "kernel_resource", "capture_error", "comm_error", "compile_error", "va_reservation", "ggml_fixed_pool",
    "alloc_size_limit", "buffer_count_limit", "estimator_bug", "workspace_overflow", "request_rejected", "device_lost", "mlock_limit",
    "profile_inconsistent", "req_slots_exhausted", "pin_refused", "context_full", "vram_recovery_warning",
    "gpu_memory_unreported", "memory_notice", "request_over_context", "device_taken", "disk_full", "onchip_overflow", "onchip_plan_clash", "zero_size_alloc",
    "gpu_background_denied",
})


class _Matcher:
    """All anchors in one prefilter; per line, an RE2 set says which anchors are present."""

    def __init__(self, patterns: tuple[Pattern, ...]) -> None:
        self.patterns = patterns
        anchors: list[str] = []
        index: dict[str, int] = {}
        self.by_anchor: list[list[Pattern]] = []
        self.always = [p for p in patterns if not p.anchors]  # run on every selected line
        for p in patterns:
            for a in p.anchors:
                if a not in index:
                    index[a] = len(anchors)
                    anchors.append(a)
                    self.by_anchor.append([])
                self.by_anchor[index[a]].append(p)
        self.anchors = anchors
        signals = {p.name for p in detect.SIGNALS}
        # a case-insensitive reading's literals select its line in any case ("NOT ENOUGH MEMORY", "Out Of Device Memory");
        # a framework signal's literals stay as written (its weights were set on the lines they select)
        self.caseless = frozenset(a for p in patterns if p.caseless and p.name not in signals for a in p.anchors)
        # the anchors that select lines only in a log's head: framework signals', and the head-only readings' (a progress
        # bar's phase, which a long log states in other ways), where no other pattern shares them
        head_only = {a for p in patterns if p.name in signals or p.name in HEAD_ONLY for a in p.anchors} - {
            a for p in patterns if p.name not in signals and p.name not in HEAD_ONLY for a in p.anchors}
        self.prefilter = build_prefilter(anchors, self.caseless)
        # past the head of a log, those anchors alone do not select a line
        self.lean_prefilter = build_prefilter([a for a in anchors if a not in head_only], self.caseless)
        # once vLLM's stats lines are warm they are read in spans (FastStats.take_span), not selected
        stats_only = {a for p in patterns if p.name == "stats-vllm" for a in p.anchors} - {
            a for p in patterns if p.name != "stats-vllm" for a in p.anchors}
        self._batch_anchors = [a for a in anchors if a not in head_only and a not in stats_only]
        self._batch_prefilter: Prefilter | None = None
        try:
            import re2

            self.set = re2.Set.SearchSet(re2.Options())
            for a in anchors:
                self.set.Add(literal(a, self.caseless))
            self.set.Compile()
        except ImportError:  # pragma: no cover - google-re2 is a dependency; keep working without it
            self.set = None

    @property
    def batch_prefilter(self) -> Prefilter:
        if self._batch_prefilter is None:  # built on the first log long enough to need it
            self._batch_prefilter = build_prefilter(self._batch_anchors, self.caseless)
        return self._batch_prefilter

    def candidates(self, line: str) -> list[Pattern]:
        if self.set is not None:
            hits = self.set.Match(line) or ()  # None when no anchor is in the line
        else:  # pragma: no cover
            folded = line.lower()
            hits = [i for i, a in enumerate(self.anchors) if (a.lower() in folded if a in self.caseless else a in line)]
        seen: dict[str, Pattern] = {p.name: p for p in self.always}
        for i in sorted(hits):
            for p in self.by_anchor[i]:
                seen.setdefault(p.name, p)
        return list(seen.values())


_MATCHER: _Matcher | None = None


def matcher() -> _Matcher:
    global _MATCHER
    if _MATCHER is None:
        _MATCHER = _Matcher(ALL_PATTERNS)
    return _MATCHER


@dataclass
class ScanResult:
    """What one log said: facts plus the scanner's notes."""

    path: str
    label: str
    facts: list[Fact]
    framework_scores: dict[str, int]
    lines: int
    first_failure_line: int | None
    first_failure_text: str | None
    phase: str | None
    warnings: list[str] = field(default_factory=list)
    series: SeriesSet | None = None  # the periodic stats lines, bounded (oomdoctor.timeline)


SIGNAL_VOTES = 5  # a framework signal counts on this many lines of a log, no more
# readings that select lines only in a log's head (the progress bars a training or batch loop rewrites on every step)
HEAD_ONLY = frozenset({"ph-loop-progress"})
# notices a program repeats by the thousand with nothing new in them (TensorRT's tactic search; a scheduler's refusal and its
# arithmetic, printed on every attempt to place the model; a training library's RAM check, once a model; a launcher's note on
# RAM, once a crash): read this many times
REPEATS_READ = {"trt-tactic-skipped": 3, "placement-refused": 3, "placement-required": 3, "placement-available": 3,
                "placement-filtered": 3, "fit-memory-check": 3, "backend-died-ram-full": 3}
_SIGNAL_NAMES = frozenset(p.name for p in detect.SIGNALS)  # (patterns that only vote for a framework)


def _matches(text: str, spent: AbstractSet[str] = frozenset()) -> Iterable[tuple[Pattern, re.Match[str]]]:
    """The patterns that match a line, less those in `spent` (signals that have cast all their votes: searching for them
    again would change nothing)."""
    for pattern in matcher().candidates(text):
        if pattern.name in spent:
            continue
        for m in (pattern.regex.finditer(text) if pattern.repeat else (pattern.regex.search(text),)):
            if m is not None:
                yield pattern, m


class _State:
    def __init__(self, source: str) -> None:
        self.source = source
        self.facts: list[Fact] = []
        self.scores: dict[str, int] = {}
        self.signal_hits: dict[str, int] = {}
        self.signals_spent: set[str] = set()
        self.phase: str | None = None
        self.ready = False
        self.failure_line: int | None = None
        self.failure_text: str | None = None
        self.failure_phase: str | None = None
        self.late_phase: str | None = None
        self.stamped_phases: list[tuple[str | None, str]] = []  # (timestamp, phase) before any failure
        self.sums: dict[str, tuple[int, Evidence]] = {}
        self.maxes: dict[str, tuple[int, Evidence]] = {}  # "_max:key": the largest value any line gave
        self.raw: dict[str, tuple[Value, Evidence]] = {}
        self.processes: list[tuple[str, int, Evidence]] = []
        self.warnings: list[str] = []
        self.warned_utf8 = False
        self.long_lines: set[int] = set()
        self.joins: list[tuple[int, list[str]]] = []  # a message's first line and the next ones, read joined
        self.series = SeriesSet(source)  # periodic stats samples, in constant memory
        self.fast = stats.FastStats(self.series)  # vLLM stats lines read past the head, in batches
        self.tail_cut = False  # reading a last line that has no newline: it may be cut anywhere
        self.phase_line = 0  # the line of the last phase seen before any failure
        self.frame_step: str | None = None  # the start-up step an outer frame of the current traceback named
        self.frame_line = -2  # the line of the last traceback frame
        self.run_start = 1  # a log may hold several launches (a user's attempts pasted one after another)
        self.failed_run: dict[str, Any] | None = None  # the last launch that failed before this one
        # the failure so far is a pinned-memory fallback the engine went on from (and the reason it printed on
        # the line after): a later failure is the one that stopped it
        self.failure_fell_back = False
        self.pin_line = -2

    # what belongs to one launch: a relaunch after a failure starts these afresh
    _RUN = ("facts", "sums", "raw", "processes", "failure_line", "failure_text", "failure_phase", "late_phase", "phase", "ready",
            "stamped_phases", "joins", "run_start", "phase_line", "frame_step", "frame_line", "failure_fell_back", "pin_line")

    def _much_later(self, text: str) -> bool:
        """A failure minutes after the first one: one crash prints its errors within seconds, so
        this is another attempt (a paste of two runs without their launch lines)."""
        if self.failure_line is None:
            return False
        then, now = seconds(self.failure_text), seconds(text)
        return then is not None and now is not None and now - then > RELAUNCH_GAP_S

    def _settle_runs(self) -> None:
        """After a relaunch: when the later lines fail too, they are the attempt to read (the
        earlier one is dropped, and the report says so). When they show no failure, they are
        what a user pasted after the error (the command, the settings) or an attempt that ran:
        read with the failure, as one log."""
        earlier = self.failed_run or {}
        if self.failure_line is not None:
            self.warnings.append(f"{self.source} holds several launches; read the last one that failed (from line {self.run_start})")
            return
        later = {name: getattr(self, name) for name in self._RUN}
        for name, value in earlier.items():
            setattr(self, name, value)
        self.facts = earlier["facts"] + later["facts"]
        self.joins = earlier["joins"] + later["joins"]
        self.processes = earlier["processes"] + later["processes"]
        self.raw = {**later["raw"], **earlier["raw"]}

    def _relaunch(self, line_no: int) -> None:
        """A launch line after a failure: the user tried again. The last attempt is what fails now,
        so its facts alone are read; the earlier failure is kept in case this attempt shows none."""
        if self.failure_line is None:
            return
        self.failed_run = {name: getattr(self, name) for name in self._RUN}
        fresh = _State(self.source)
        for name in self._RUN:
            setattr(self, name, getattr(fresh, name))
        self.run_start = line_no

    def _carry_lead_in(self, text: str) -> None:
        """A failure minutes after the last one, with no launch line between: the lines stamped
        just before it (gunicorn's "WORKER TIMEOUT" a second before its kill), after the earlier
        failure, are its own lead-in, so their facts join the new attempt."""
        now = seconds(text)
        if now is None or self.failed_run is None:
            return
        then = self.failed_run["failure_line"]
        kept = [(ev.line, f) for f in self.failed_run["facts"] if (ev := f.evidence) is not None and ev.line is not None
                and ev.line > then and (t := seconds(ev.text)) is not None and 0 <= now - t <= LEAD_IN_S]
        self.facts = [f for _, f in kept]
        if kept:
            self.run_start = min(line for line, _ in kept)

    def handle(self, line_no: int, text: str) -> None:
        # (a loop's progress bar says the phase once; its next steps say it again)
        spent = self.signals_spent | HEAD_ONLY if self.phase == "forward" and self.failure_line is None else self.signals_spent
        found = [(pattern, list(pattern.emit(m))) for pattern, m in _matches(text, spent)]
        if not found:
            return
        ev = Evidence(self.source, line_no, text.strip()[:600])
        keys = {k for _, pairs in found for k, _ in pairs}
        if "_launch" in keys:
            self._relaunch(line_no)  # before any fact of this line: they belong to the new attempt
        elif "oom.kind" in keys and self._much_later(ev.text):
            self._relaunch(line_no)
            self._carry_lead_in(ev.text)
        # a family that knows the line named its failure (a kind, or an error that is not memory): the fallbacks stand back
        named = any(k in ("oom.kind", "error.final") for p, pairs in found if not p.fallback for k, _ in pairs)
        if any(k == "oom.hint" and v == "pinned_fallback" for _, pairs in found for k, v in pairs):
            self.pin_line = line_no
        for pattern, pairs in found:
            # the fallbacks read a line's words, so a cut line (a prefix of another message) is not theirs
            if not (pattern.fallback and (named or self.tail_cut)):
                self._apply(pattern.name, pairs, ev, line_no)
            if pattern.name in REPEATS_READ:
                hits = self.signal_hits[pattern.name] = self.signal_hits.get(pattern.name, 0) + 1
                if hits >= REPEATS_READ[pattern.name]:
                    self.signals_spent.add(pattern.name)

    def flush_fast(self) -> tuple[int, int]:
        return self.fast.flush(self.failure_line is None)

    def _wrapped(self) -> Iterable[Fact]:
        """Facts that only a message's lines read together give (a message wrapped over lines):
        what a single line already said is not repeated."""
        for line_no, parts in self.joins:
            text = " ".join(parts)
            near = {(f.key, f.value) for f in self.facts
                    if f.evidence is not None and line_no <= (f.evidence.line or 0) <= line_no + JOIN_LINES}
            ev = Evidence(self.source, line_no, text.strip()[:600])
            # a terminal's wrap may split a word ("Of the allocated memor" / "y 74.57 GiB"): also read it unsplit
            unsplit = _unsplit(parts)
            for variant in (text,) if unsplit == text else (text, unsplit):
                for pattern, m in _matches(variant):
                    if pattern.fallback:  # a wrapped message is one a family above knows
                        continue
                    for key, value in pattern.emit(m):
                        if key == "_process":
                            pid, _, size = str(value).partition(":")
                            self.processes.append((pid, int(size), ev))
                        elif not key.startswith("_") and (key, value) not in near:
                            near.add((key, value))
                            yield Fact(key, value, Origin.LOG, ev)

    def _apply(self, name: str, pairs: list[tuple[str, Value]], ev: Evidence, line_no: int) -> None:
        new_phase = next((v for k, v in pairs if k == "_phase"), None)
        if new_phase is None and self.failure_line is None:
            # a step's start (a scheduler's plan): the phase of what follows it, never of a failure pasted above it
            new_phase = next((v for k, v in pairs if k == "_phase_start"), None)
        if new_phase is None and self.phase is None:
            # a step that spans several (Ollama's model load: weights, context, graph): only where no finer step was reached
            new_phase = next((v for k, v in pairs if k == "_phase_umbrella"), None)
        if new_phase == "startup" and self.phase in _STARTUP_STEPS:
            new_phase = None  # an engine's start-up frames are the umbrella of the step it had reached
        if name == "traceback":
            self.frame_step = None
        elif name == "frame-line" or new_phase is not None:
            # a traceback's frames and the code line under each: the outermost step named wins over
            # a layer computing below it (a quantized layer's weights repacked once loaded is loading)
            in_traceback = bool(_FRAME.search(ev.text)) or line_no == self.frame_line + 1
            if name == "frame-line":
                self.frame_line = line_no
            elif not in_traceback:
                self.frame_step = None
            elif self.frame_step is not None and new_phase == "forward":
                new_phase = None
            elif new_phase == "forward" and self.phase == "cuda_graph_capture":
                # a forward pass in a traceback printed while graphs were being captured (SGLang's progress bar
                # stopped at 1/58, no "capture finished"): the capture runs the model, and that forward is the capture
                new_phase = None
                self.frame_step = "cuda_graph_capture"
            elif self.frame_step == "cuda_graph_capture" and new_phase == "profile":
                new_phase = None  # the dummy batch a capture runs (vLLM's _dummy_run serves both)
            elif new_phase in _STARTUP_STEPS or new_phase in _SERVING_STEPS:
                self.frame_step = str(new_phase)
        for key, value in pairs:
            if key in ("_phase", "_phase_start", "_phase_umbrella", "_launch"):
                continue
            if key == "_framework":
                fw, _, weight = str(value).partition(":")
                hits = self.signal_hits.get(name, 0)
                if hits < SIGNAL_VOTES:
                    self.signal_hits[name] = hits + 1
                    self.scores[fw] = self.scores.get(fw, 0) + int(weight)
                    if hits + 1 == SIGNAL_VOTES and name in _SIGNAL_NAMES:
                        self.signals_spent.add(name)
            elif key == "_ready":
                self.ready = True
                if self.failure_line is None:
                    self.phase = "serving"
            elif key == "_process":
                pid, _, size = str(value).partition(":")
                self.processes.append((pid, int(size), ev))
            elif key == "_sample":
                self.series.add(value, (self.source, line_no, ev.text, None), self.failure_line is None)  # type: ignore[arg-type]
            elif key == "_slot_ctx":
                self.series.static["slot_ctx"] = value
            elif key.startswith("_sum:"):
                prev = self.sums.get(key[5:], (0, ev))[0]
                self.sums[key[5:]] = (prev + int(value), ev)
            elif key.startswith("_max:"):
                if int(value) > self.maxes.get(key[5:], (0, ev))[0]:
                    self.maxes[key[5:]] = (int(value), ev)
            elif key.startswith("_"):
                self.raw[key] = (value, ev)
            else:
                self.facts.append(Fact(key, value, Origin.LOG, ev))
                if key == "oom.kind" and (self.failure_line is None or (self.failure_fell_back and line_no > self.failure_line)):
                    self.failure_line, self.failure_text = line_no, ev.text
                    self.failure_phase = new_phase or self.phase
                    self.failure_fell_back = line_no in (self.pin_line, self.pin_line + 1)
                elif key == "oom.kind" and _JUPYTER_HEADER.search(self.failure_text or "") and line_no > self.failure_line:
                    # Jupyter names the exception above its traceback; the message itself comes below
                    self.failure_line, self.failure_text = line_no, ev.text
        if new_phase is not None:
            if self.failure_line is None or self.failure_fell_back:
                self.phase = str(new_phase)
                self.stamped_phases.append((timestamp(ev.text), self.phase))
                self.phase_line = line_no
            elif self.failure_phase is None:
                self.failure_phase = str(new_phase)
            elif self.failure_phase == "serving" and line_no == self.failure_line:
                self.failure_phase = str(new_phase)  # the failure's own line names its step (a server loading a model on request)
            elif self.failure_phase == "forward" and new_phase in _SERVING_STEPS and line_no - self.failure_line < 80:
                self.failure_phase = str(new_phase)  # an inner frame names which step the forward pass was
            elif self.late_phase is None and line_no - self.failure_line < 80:
                self.late_phase = str(new_phase)

    def finish(self, last_line: int) -> tuple[list[Fact], str | None]:
        """The log's facts, its failing phase; `last_line`: the number of its last line."""
        if self.failed_run is not None:
            self._settle_runs()
        if self.failure_line is None and "_weak_failure" in self.raw and not self._refuted("_weak_failure"):
            self._weak_failure()
        if self.failure_line is None and "_failure_tail" in self.raw:
            # (a message's last lines kept where its head was cut: the failure it ends, when no line names one)
            kind, ev = self.raw["_failure_tail"]
            self._fail_at(str(kind), ev, self.phase)
        self.facts.extend(list(self._wrapped()))
        self._expand_shell_vars()
        self._host_side_unstated()
        facts = list(self.facts)
        sums = dict(self.sums)
        metal = sums.pop(generic.METAL_UNNAMED, None)
        if metal is not None and "mem.weights_bytes" not in sums:
            sums["mem.weights_bytes"] = metal
        for key, (total, ev) in (*sums.items(), *self.maxes.items()):
            facts.append(Fact(key, total, Origin.LOG, ev))
        facts.extend(self._derived())
        if self.failure_line is None:
            last = _latest_phase(self.stamped_phases) or self.phase
            if self.ready and last not in ("prefill", "decode") and not (last == "load_weights" and last_line - self.phase_line <= 10):
                # (once serving, only a serving step it names is a phase reached, or a model it loads on a request where the
                # log ends: Immich's and Ollama's servers load their models when asked)
                last = None
            reached = _normalise_phase(last, False) if last not in (None, "serving") else None
            if reached:
                facts.append(Fact("phase.reached", reached, Origin.LOG, None))
                facts.append(Fact("phase.reached_tail", max(0, last_line - self.phase_line), Origin.LOG, None))
            return facts, None
        phase = self.failure_phase or self.late_phase or self.phase
        return facts, _normalise_phase(phase, self.ready)

    def _expand_shell_vars(self) -> None:
        """`--model-id $model` where the paste assigned `model=...` earlier: the value, not the variable."""
        shell = {k.partition(":")[2]: v for k, (v, _) in self.raw.items() if k.startswith("_shellvar:")}
        if not shell:
            return
        for i, f in enumerate(self.facts):
            m = _SHELL_REF.fullmatch(f.value) if isinstance(f.value, str) else None
            if m is None or m.group(1) not in shell:
                continue
            raw = str(shell[m.group(1)])
            self.facts[i] = Fact(f.key, int(raw) if raw.isdigit() else raw, f.origin, f.evidence)
            if f.key == "knob.model" and "_model_name" not in self.raw and f.evidence is not None:
                self.raw["_model_name"] = (raw, f.evidence)

    def _host_side_unstated(self) -> None:
        """A failure whose line names no side ("NOT ENOUGH MEMORY TO PARSE SENTENCES OF LENGTH 130"), read as the device's, in
        a log where another failure names the host (a Java heap, std::bad_alloc) and nothing names a device: the host's."""
        if "_gpu_backend_seen" in self.raw or not any(f.key == "oom.kind" and f.value == "host_alloc_failed" for f in self.facts):
            return
        if any(f.key.startswith(_DEVICE_FACTS) for f in self.facts):
            return
        for i, f in enumerate(list(self.facts)):
            if (f.key == "oom.kind" and f.value == "cuda_error_oom" and f.evidence is not None
                    and not generic.DEVICE_SIDE.search(f.evidence.text)):
                self.facts[i] = Fact("oom.kind", "host_alloc_failed", f.origin, f.evidence)
                self.facts.append(Fact("oom.cpu_alloc_failed", True, f.origin, f.evidence))

    def _refuted(self, key: str) -> bool:
        """A projection the log shows wrong: after it the model ran its ops (ggml's error names a compute
        function: the ggml_running_op hint), so what was projected not to fit had loaded."""
        projected = self.raw[key][1].line
        return any(f.key == "oom.hint" and f.value == "ggml_running_op" and f.evidence is not None and f.evidence.line > projected
                   for f in self.facts)

    def _weak_failure(self) -> None:
        """A projection that said the run would not fit, and no failure after it: that is the failure."""
        spec, ev = self.raw["_weak_failure"]
        kind, buffer, phase = str(spec).split(":")
        self._fail_at(kind, ev, phase)
        self.facts.append(Fact("oom.buffer", buffer, Origin.LOG, ev))

    def _fail_at(self, kind: str, ev: Evidence, phase: str | None) -> None:
        """A failure read from a line that names none (found once the log is read): its kind, and the line as the failure's."""
        self.facts.append(Fact("oom.kind", kind, Origin.LOG, ev))
        self.failure_line, self.failure_text, self.failure_phase = ev.line, ev.text, phase

    def _derived(self) -> Iterable[Fact]:
        raw = self.raw
        free = [(v, ev) for k, (v, ev) in raw.items() if k.startswith("_devfree:")]
        if len(free) >= 2:  # llama.cpp spreads the layers over every device it loads onto: what they have free together
            yield Fact("mem.devices_free_bytes", sum(int(v) for v, _ in free), Origin.LOG, free[-1][1])
        if "_peak_torch_bytes" in raw:
            peak, ev = raw["_peak_torch_bytes"]
            weights = next((f.value for f in reversed(self.facts) if f.key == "mem.weights_bytes"), None)
            if isinstance(weights, int) and isinstance(peak, int) and peak > weights:
                yield Fact("mem.activation_peak_bytes", peak - weights, Origin.LOG, ev)
            yield Fact("mem.peak_torch_bytes", peak, Origin.LOG, ev)
        if "_ollama_full" in raw and "_ollama_partial" in raw:
            full, ev = raw["_ollama_full"]
            partial, _ = raw["_ollama_partial"]
            if isinstance(full, int) and isinstance(partial, int):
                yield Fact("mem.required_bytes", full, Origin.LOG, ev)
                yield Fact("mem.host_required_bytes", max(0, full - partial), Origin.LOG, ev)
                yield Fact("mem.gpu_planned_bytes", partial, Origin.LOG, ev)
        if not any(f.key == "oom.buffer" for f in self.facts):
            if "_buffer_unless_stated" in raw:
                # (the weights, unless it failed right after the KV cache step began: that step's own buffers)
                buffer, ev = raw["_buffer_unless_stated"]
                yield Fact("oom.buffer", _STEP_BUFFER["kv_alloc"] if self.failure_phase == "kv_alloc" else buffer, Origin.LOG, ev)
            elif self.failure_phase in _STEP_BUFFER and any(f.key == "oom.kind" and f.value == "ggml_alloc_failed" for f in self.facts):
                # ggml names no buffer: the one the step it failed in allocates
                kinds = [f.evidence for f in self.facts if f.key == "oom.kind"]
                ev = next((e for e in reversed(kinds) if e is not None and e.line <= (self.failure_line or 0)), kinds[0])
                yield Fact("oom.buffer", _STEP_BUFFER[self.failure_phase], Origin.LOG, ev)
        if "_buffer_device_unstated" in raw and "_gpu_backend_seen" not in raw and not any(
                f.key in ("oom.buffer_device", "gpu.backend", "gpu.name", "gpu.total_bytes") for f in self.facts):
            # ggml refused a buffer in a program that set up no GPU backend: the CPU's, in host RAM
            yield Fact("oom.buffer_device", "CPU", Origin.LOG, raw["_buffer_device_unstated"][1])
        # final errors that are crashes naming no cause of their own (a segfault, an access violation, an abort)
        unnamed_crashes = [f for f in self.facts if f.key == "error.final" and generic.UNNAMED_CRASH.search(str(f.value))]
        # a check that warned the load may fail for memory, then such a crash: the failure it foresaw
        # (an error naming another cause, a library missing, is that cause)
        warned = next((f for f in self.facts if f.key == "oom.hint" and f.value == "may_fail_warning"), None)
        if warned is not None and unnamed_crashes:
            yield Fact("oom.hint", "warned_load_crashed", Origin.LOG, warned.evidence)
        # a host buffer announced for the whole model, then such a crash on the next lines: the allocation came back empty
        # and the program used it (early ggml checked none; a later build's failed check states it)
        if "_host_alloc_announced" in raw and not any(f.key == "oom.kind" for f in self.facts):
            size, announced = raw["_host_alloc_announced"]
            if int(size) >= 1 << 30 and any(f.evidence is not None and 0 < f.evidence.line - announced.line <= 3 for f in unnamed_crashes):
                yield Fact("oom.hint", "announced_alloc_crashed", Origin.LOG, announced)
                yield Fact("mem.host_required_bytes", int(size), Origin.LOG, announced)
        if "_traceback" in raw and not any(f.key == "oom.hint" and f.value == "traceback" for f in self.facts):
            yield Fact("oom.hint", "traceback", Origin.LOG, raw["_traceback"][1])
        if "_resident_before_kv" in raw and "mem.weights_bytes" not in self.sums and generic.METAL_UNNAMED not in self.sums and not any(f.key == "mem.weights_bytes" for f in self.facts):
            resident, ev = raw["_resident_before_kv"]
            yield Fact("mem.weights_bytes", resident, Origin.LOG, ev)
        if "_kv_cells" in raw:
            cells, ev = raw["_kv_cells"]
            yield Fact("mem.kv_tokens", cells, Origin.LOG, ev)
        if "_model_name" in raw or "_gguf_name" in raw:
            name, ev = raw.get("_model_name") or raw["_gguf_name"]
            # (a GGUF file's name, where the command line's model is that file: "-m models/x-7b.Q4_K_M.gguf")
            if not any(f.key == "knob.model" and str(f.value).endswith(f"{name}.gguf") for f in self.facts):
                yield Fact("knob.model", str(name), Origin.LOG, ev)
            params = params_from_name(str(name))
            if params:
                yield Fact("model.params", params, Origin.LOG, ev)
            for key, value in name_hints(str(name)):
                if not any(f.key == key for f in self.facts):
                    yield Fact(key, value, Origin.LOG, ev)
        if not any(f.key == "knob.max_model_len" for f in self.facts):
            # the context line was cut: a sequence's context where ggml prints it, else the KV cache's cells,
            # which ggml sizes to the context (-c)
            per_seq = raw.get("_n_ctx_seq") or raw.get("_kv_cells")
            if per_seq is not None:
                yield Fact("knob.max_model_len", per_seq[0], Origin.LOG, per_seq[1])
        if "_n_ctx_train" in raw:
            yield Fact("model.trained_context", raw["_n_ctx_train"][0], Origin.LOG, raw["_n_ctx_train"][1])
        if "_kv_cells" in raw and "_n_ctx_seq" in raw:
            cells, ev = raw["_kv_cells"]
            per_seq, _ = raw["_n_ctx_seq"]
            if isinstance(cells, int) and isinstance(per_seq, int) and per_seq and cells // per_seq >= 2:
                if not any(f.key == "knob.max_num_seqs" for f in self.facts):
                    yield Fact("knob.max_num_seqs", cells // per_seq, Origin.LOG, ev)
        gpu = next((f for f in self.facts if f.key == "gpu.name"), None)
        if gpu is not None and not any(f.key == "gpu.total_bytes" for f in self.facts):  # (a total the line printed stands)
            from oomdoctor.gpus import capacity_from_name  # the shipped card table, read only when a log names a card

            size = capacity_from_name(str(gpu.value))
            if size:
                yield Fact("gpu.total_bytes", size, Origin.ESTIMATE, gpu.evidence)
        yield from self._process_facts()

    def _process_facts(self) -> Iterable[Fact]:
        """Torch lists every process on the GPU, itself included. It names itself "this process"
        when it finds its own pid; then every numbered process is another one (or this one, named in
        another rank's message on the same GPU). In a container it lists itself by a pid it does not
        know as its own: the one whose use is closest to (and at least) what PyTorch reserved is this
        process."""
        if not self.processes:
            return
        procs = {pid: (size, ev) for pid, size, ev in self.processes}
        ev = self.processes[0][2]
        stated = next((int(f.value) for f in self.facts if f.key == "oom.process_bytes"), None)
        if stated is not None:  # "this process has ...": numbered ones are others, unless another rank's message names it
            own = next((pid for pid, (size, _) in procs.items() if size == stated), None)
        else:
            reserved = max((int(f.value) for f in self.facts if f.key == "oom.torch_allocated_bytes"), default=0)
            reserved += max((int(f.value) for f in self.facts if f.key == "oom.torch_unallocated_bytes"), default=0)
            own = min(procs, key=lambda p: (procs[p][0] < reserved, abs(procs[p][0] - reserved)))
            if procs[own][0] < 0.5 * reserved:
                # none holds even what PyTorch holds ("Process 300 has 0 bytes memory in use"): the driver does
                # not see the processes (a container's or WSL's view), and the list says nothing
                return
            ev = procs[own][1]
            yield Fact("oom.process_bytes", procs[own][0], Origin.LOG, ev)
        foreign = sorted(((size, pid) for pid, (size, _) in procs.items() if pid != own and size > 0), reverse=True)
        yield Fact("oom.process_count", len(procs) + (own is None), Origin.LOG, ev)
        yield Fact("oom.other_process_bytes", sum(size for size, _ in foreign), Origin.LOG, ev)
        if foreign:  # named, so a multi-rank report says whose memory it is
            yield Fact("gpu.other_processes", "; ".join(f"pid {pid} {format_bytes(size)}" for size, pid in foreign), Origin.LOG, ev)


# facts that place a log on a device (a card, its memory, PyTorch's pool on it)
_DEVICE_FACTS = ("gpu.", "oom.gpu_", "oom.torch_", "oom.device", "mem.gpu_")


def _unsplit(parts: list[str]) -> str:
    """Wrapped lines joined back, without a space where a lowercase letter meets a lowercase letter."""
    out = parts[0] if parts else ""
    for prev, part in zip(parts, parts[1:]):
        out += part if prev[-1:].islower() and part[:1].islower() else " " + part
    return out


def _latest_phase(stamped: list[tuple[str | None, str]]) -> str | None:
    """The phase with the latest timestamp, when every phase line carries one in the same
    form: file order is not time order (Ray prints '[repeated Nx]' summaries late; some
    pastes are newest-first)."""
    if not stamped or any(ts is None for ts, _ in stamped):
        return None
    if len({len(ts or "") for ts, _ in stamped}) != 1:
        return None
    best = max(range(len(stamped)), key=lambda i: (stamped[i][0] or "", i))
    return stamped[best][1]


def _normalise_phase(phase: str | None, ready: bool) -> str | None:
    mapping = {
        "after_load": "profile", "after_capture": "warmup", "forward": "prefill", "serving": "prefill",
        "startup": "startup", "wake_up": "other", "engine_build": "other",
    }
    if phase is None:
        return "prefill" if ready else None
    return mapping.get(phase, phase)


_PARAMS = re.compile(r"(?i)(?<![\d.])(\d+)x(\d+(?:\.\d+)?)b(?![a-z])|(?<![\w.])(\d+(?:\.\d+)?)([bm])(?![a-z\d])")


def params_from_name(name: str) -> int | None:
    """'Mistral-7B-v0.1' -> 7e9; 'Mixtral-8x22B' -> 176e9; 'Qwen3-30B-A3B' -> 30e9. In free text
    naming several models ("8B Q4_K_M, loaded after gpt-oss:120b") the first size is the model's."""
    for m in _PARAMS.finditer(name.replace("_", "-")):
        value = float(m.group(1)) * float(m.group(2)) if m.group(1) else float(m.group(3)) / (1000 if m.group(4) in "mM" else 1)
        if value:
            return int(value * 1e9)
    return None


# a context length in a model's name: "Llama-3-8B-Instruct-Gradient-1048k", "Yarn-Mistral-7b-128k", "Qwen2.5-7B-Instruct-1M"
# (millions only up to 10: "SmolLM-135M" is a parameter count)
_CONTEXT_IN_NAME = re.compile(r"(?i)[-_](\d{1,4})k(?:[-_]?(?:ctx|context))?(?=$|[-_.:/ ])|[-_]([1-9]|10)m(?=$|[-_.:/ ])")


def context_from_name(name: str) -> int | None:
    """'...-Gradient-1048k' -> 1048576, '...-128k' -> 131072, '...-1M' -> 1048576: the tokens a name advertises
    (a power of two of thousands is read in 1024s, as configs write it; others rounded up to a 1024 multiple)."""
    m = _CONTEXT_IN_NAME.search(name)
    if not m:
        return None
    if m.group(2):
        return int(m.group(2)) << 20
    n = int(m.group(1))
    if n < 2:
        return None
    if n & (n - 1) == 0:
        return n * 1024
    return -(-n * 1000 // 1024) * 1024


_QUANT_IN_NAME = re.compile(r"(?i)(?:^|[-_.:/ ])(awq|gptq|fp8|int4|int8|w8a8|w4a16|nf4|bnb|mxfp4|nvfp4|fp4|exl2|"
                            # (a ggml type written with spaces, as a person types it: "IQ4 XS", "Q4 K M")
                            r"i?q\d(?:_[0-9a-z]+)*(?: (?:k|s|m|l|xs|xxs|xl|nl|0|1)(?![0-9a-z]))*|f16|f32|fp16|fp32|bf16)(?=$|[-_.:/ ()])")


def name_hints(name: str) -> list[tuple[str, Value]]:
    """Dtype/quantization spelled in a model name or GGUF file name."""
    out: list[tuple[str, Value]] = []
    for m in _QUANT_IN_NAME.finditer(name):
        tag = m.group(1).lower().replace(" ", "_")
        if tag in ("f32", "fp32"):
            out.append(("knob.dtype", "float32"))
        elif tag in ("f16", "fp16", "bf16"):
            out.append(("knob.dtype", "bfloat16" if tag == "bf16" else "float16"))
        elif tag == "exl2" and (bits := _EXL2_BITS.search(name)):
            whole, frac = bits.group(1) or bits.group(3), bits.group(2) or bits.group(4) or "0"
            out.append(("knob.quantization", f"exl2-{whole}.{frac}bpw"))
        else:
            out.append(("knob.quantization", tag))
    return out[:1] if out else out


# the bits per weight beside an EXL2 tag: "exl2-3_0", "exl2_4.65", "6.0bpw-exl2"
_EXL2_BITS = re.compile(r"(?i)(?:exl2[-_](\d)(?:[._](\d+))?(?![\d.])|(\d)(?:[._](\d+))?bpw)")


def open_log(path: str) -> tuple[BinaryIO, str]:
    """Open a log for binary streaming: '-' is stdin; gzip and UTF-16 (BOM) are decoded on
    the fly, whether the log is a file, a pipe or stdin."""
    if path == "-":
        raw: BinaryIO = sys.stdin.buffer
        shown = "<stdin>"
    else:
        p = Path(path)
        if not p.exists():
            raise InputError(f"log file not found: {path}")
        if p.is_dir():
            raise InputError(f"{path} is a directory, not a log file")
        try:
            raw = open(p, "rb")  # noqa: SIM115 - closed by scan()
        except OSError as exc:
            raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None
        shown = path
    head = _peek(raw, 2)
    if head == b"\x1f\x8b":
        return gzip.GzipFile(fileobj=raw), shown  # type: ignore[return-value]
    if head in (b"\xff\xfe", b"\xfe\xff"):
        return _Recode(raw, "utf-16"), shown  # type: ignore[return-value]
    return raw, shown


def _peek(raw: BinaryIO, n: int) -> bytes:
    peek = getattr(raw, "peek", None)
    if peek is not None:
        try:
            return bytes(peek(n)[:n])
        except (OSError, ValueError):
            return b""
    return b""


class _Recode:
    """A binary stream of UTF-8 from a binary stream in another encoding (UTF-16 logs)."""

    def __init__(self, raw: BinaryIO, encoding: str) -> None:
        self._raw = raw
        self._text = io.TextIOWrapper(raw, encoding=encoding, errors="replace", newline="")

    def read(self, n: int) -> bytes:
        return self._text.read(n // 2).encode("utf-8")

    def close(self) -> None:
        self._raw.close()


def scan(path: str, label: str | None = None) -> ScanResult:
    stream, shown = open_log(path)
    try:
        return scan_stream(stream, shown, label or shown)
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()


def _blocks(stream: BinaryIO, source: str) -> Iterator[bytes]:
    first = True
    while True:
        try:
            block = stream.read(CHUNK)
        except EOFError:
            raise InputError(f"{source} is a truncated gzip file (compressed data ends early)") from None
        except (OSError, gzip.BadGzipFile, zlib.error) as exc:
            raise InputError(f"cannot read {source}: {exc}") from None
        if first:
            first = False
            if not block:
                raise InputError(f"{source} is empty")
            if _looks_binary(block[:8192]):
                raise InputError(f"{source} looks binary, not a text log (NUL bytes or non-text data in its first 8 KiB)")
        if not block:
            return
        yield block


@dataclass(frozen=True)
class _Plan:
    """A block's main piece as the read-ahead searched it: with which prefilter, over which bytes, and the hits."""

    prefilter: Prefilter
    begin: int
    end: int
    hits: list[int]


def _prefilter(m: _Matcher, lean: bool, warm: bool) -> Prefilter:
    """The prefilter for the lines of a piece: past the head (`lean`) without framework signals, and without vLLM's
    stats lines once they are `warm` (read in spans)."""
    return m.batch_prefilter if lean and warm else m.lean_prefilter if lean else m.prefilter


class _ReadAhead:
    """The next block read, and its main piece searched, on a worker thread while the caller handles this one:
    Hyperscan lets go of the interpreter while it scans, so on a second core the reading and the literal search
    run beside the Python that reads the lines they select. A plan made for a state that changed before its block
    was reached (the stats lines warmed up, a huge line's carry) is not used: that piece is searched again."""

    def __init__(self, m: _Matcher, blocks: Iterator[bytes]) -> None:
        from concurrent.futures import Future, ThreadPoolExecutor

        self._m, self._blocks = m, blocks
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="oomdoctor-read-ahead")
        self._next: Future[tuple[bytes, _Plan | None] | None] | None = None

    def request(self, total: int, warm: bool, carry: bool) -> None:
        """Read and search the next block as the loop will: `total` bytes before it, the stats lines `warm`, a `carry`
        line from this block to finish first."""
        self._next = self._pool.submit(self._read, total, warm, carry)

    def take(self) -> tuple[bytes, _Plan | None] | None:
        assert self._next is not None
        future, self._next = self._next, None
        return future.result()

    def close(self) -> None:
        if self._next is not None:  # (the loop stopped early: let the worker finish with the stream before it closes)
            self._next.exception()
        self._pool.shutdown(wait=True)

    def _read(self, total: int, warm: bool, carry: bool) -> tuple[bytes, _Plan | None] | None:
        block = next(self._blocks, None)
        if block is None:
            return None
        chosen = _prefilter(self._m, total + len(block) > HEAD, warm)
        begin = block.find(b"\n") + 1 if carry else 0
        end = block.rfind(b"\n") + 1
        if (carry and begin == 0) or end <= begin:
            return block, None
        return block, _Plan(chosen, begin, end, chosen.positions(block, begin, end))


def _planned_blocks(m: _Matcher, state: _State, blocks: Iterator[bytes]) -> Iterator[tuple[bytes, _Plan | None]]:
    """The log's blocks, each with the read-ahead's plan for its main piece where a second thread is worth it (a
    log longer than one block, and a prefilter that scans without the GIL)."""
    first = next(blocks, None)
    if first is None:
        return
    if len(first) < CHUNK or not all(p.concurrent for p in (m.prefilter, m.lean_prefilter, m.batch_prefilter)):
        yield first, None
        for block in blocks:
            yield block, None
        return
    ahead = _ReadAhead(m, blocks)
    # (the worker takes the GIL back for each hit it reports; at the default 5 ms switch interval it would wait on the
    # loop for most of that time, so the interval is short while both run)
    # (another scan running on another thread may have shortened it already: then that scan puts it back)
    interval = sys.getswitchinterval()
    ours = interval > SWITCH_INTERVAL
    if ours:
        sys.setswitchinterval(SWITCH_INTERVAL)
    try:
        block: bytes | None = first
        plan: _Plan | None = None
        total = 0
        while block is not None:
            total += len(block)
            ahead.request(total, state.fast.warm, not block.endswith(b"\n"))
            yield block, plan
            taken = ahead.take()
            block, plan = taken if taken is not None else (None, None)
    finally:
        ahead.close()
        if ours:
            sys.setswitchinterval(interval)


def scan_stream(stream: BinaryIO, source: str, label: str) -> ScanResult:
    m = matcher()
    state = _State(source)
    line_no = 1  # number of the line the next piece starts in
    carry = b""  # the unfinished last line of the previous block
    tail = b""  # the log's last bytes: how it ends
    total = 0
    planned = _planned_blocks(m, state, _blocks(stream, source))
    try:
        for block, plan in planned:
            total += len(block)
            tail = (tail + block[-TAIL:])[-TAIL:]
            if not block.isascii() and not _is_utf8(block) and not state.warned_utf8:
                state.warned_utf8 = True
                state.warnings.append(f"{source} is not valid UTF-8; undecodable bytes were replaced")
            lean = total > HEAD
            begin = 0
            if carry:
                nl = block.find(b"\n")
                if nl == -1:
                    carry += block
                    if len(carry) > MAX_LINE * 4:  # a huge line: read what we have, the line goes on
                        line_no = _scan_piece(m, state, carry, 0, len(carry), line_no, lean)
                        carry = b""
                    continue
                piece = carry + block[: nl + 1]
                line_no = _scan_piece(m, state, piece, 0, len(piece), line_no, lean)
                begin = nl + 1
            last = block.rfind(b"\n") + 1
            if last > begin:
                line_no = _scan_piece(m, state, block, begin, last, line_no, lean, plan)
            carry = block[max(last, begin):]
    finally:
        planned.close()  # (stops the read-ahead before the caller closes the stream)
    if total == 0:
        raise InputError(f"{source} is empty")
    if carry:
        # the last line has no newline: the log may be cut mid-number, so drop a trailing number
        cut = carry.rstrip(b"0123456789.,") if carry[-1:].isdigit() else carry
        state.tail_cut = True
        _scan_piece(m, state, cut, 0, len(cut), line_no, lean=False)
        line_no += 1
    _read_end(state, tail, line_no - 1)
    facts, phase = state.finish(line_no - 1)
    return ScanResult(
        path=source, label=label, facts=facts, framework_scores=state.scores, lines=line_no - 1,
        first_failure_line=state.failure_line, first_failure_text=state.failure_text, phase=phase, warnings=state.warnings,
        series=state.series.finish(),
    )


TAIL = 4096


def _read_end(state: _State, tail: bytes, last: int) -> None:
    """The last non-blank line: the shell's prompt back (or an interrupt) says the process ended."""
    ended = tail.endswith(b"\n")
    parts = (tail[:-1] if ended else tail).split(b"\n")
    lines = parts[1:] if len(parts) > 1 else parts  # (the first may be a line the tail starts inside)
    for i in range(len(lines) - 1, -1, -1):
        text = _clean(lines[i].decode("utf-8", "replace")).strip()
        if text:
            if generic.ENDED.search(text):
                state.facts.append(Fact("oom.hint", "process_ended", Origin.LOG, Evidence(state.source, last, text[:600])))
            # (the last line, where no newline follows it, may be cut)
            raised = generic.raised_at_end(text, complete=ended or i < len(lines) - 1)
            if raised:
                state.facts.append(Fact("error.final", raised, Origin.LOG, Evidence(state.source, last, text[:600])))
            elif state.failure_line is None and generic.alloc_frame_at_end(text):
                # (the failure is this frame's, so the step the stack named is the failure's)
                state._apply("alloc-frame-at-end", [("oom.kind", "runtime_alloc_failed"), ("oom.hint", "native_alloc_frame")],
                             Evidence(state.source, last, text[:600]), last)
            return
        last -= 1


_JOIN_MARKERS = (b"out of memory", b"OutOfMemoryError", b"total capac", b"To serve at least one request", b"stored in KV cache", b"[metal::malloc]", b"CUDA runtime error",
                 b"failed with OOM", b"Free memory on device", b"RESOURCE_EXHAUSTED",
                 b"does not fit on the devices", b"would require", b"would need")
JOIN_LINES = 4  # an OOM message wrapped over several lines is also read joined
# what a logger puts before each continuation line: "(Worker_TP0 pid=1) ERROR 10-29 01:56:59 [core.py:779] ",
# or docker compose before each line of a service's output: "tabbyapi-1  | "
_PREFIX = re.compile(rb"^\s*(?:[A-Za-z][\w.-]{0,62}\s+\| )?(?:\(\w[^)]{0,60}\)\s*)?(?:(?:INFO|WARNING|ERROR|DEBUG) \d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? \[[\w./]+:\d+\]\s*)?")


def _scan_piece(m: _Matcher, state: _State, buf: bytes, begin: int, end: int, line_no: int, lean: bool, plan: _Plan | None = None) -> int:
    """Handle the selected lines of buf[begin:end]; return the line number at `end`. `plan`: this piece searched
    ahead, used where it was searched with the prefilter the piece needs now."""
    counted = begin
    done = begin  # offset past the last line handled
    fast = state.fast
    spans = lean and fast.warm  # vLLM's stats lines are read between the selected lines, not selected
    prefilter = _prefilter(m, lean, fast.warm)
    if plan is not None and plan.prefilter is prefilter and (plan.begin, plan.end) == (begin, end):
        hits = plan.hits
    else:
        hits = prefilter.positions(buf, begin, end)
    for hit in hits:
        if hit <= done:
            continue
        if not spans:
            taken = fast.take(buf, hit, counted, line_no)  # vLLM's periodic stats line: read in bulk
            if taken > 0:
                done = taken
                continue
        start = buf.rfind(b"\n", begin, hit) + 1 or begin
        if spans and start > done:
            fast.take_span(buf, done, start, counted, line_no)
        if fast.found:  # the batch goes in before this line; its line count is reused
            counted, line_no = state.flush_fast()
        stop = buf.find(b"\n", hit, end)
        if stop == -1:
            stop = end
        line_no += buf.count(b"\n", counted, start)
        counted = start
        if stop - start > MAX_LINE:
            a, b = max(start, hit - WINDOW), min(stop, hit + WINDOW)
            if line_no not in state.long_lines:
                state.long_lines.add(line_no)
                state.warnings.append(f"{state.source}:{line_no} is over {MAX_LINE // 1024} KiB long; read in windows around keywords")
            state.handle(line_no, _clean(buf[a:b].decode("utf-8", "replace")))
            done = b
            continue
        line = buf[start:stop]
        state.handle(line_no, _clean(line.decode("utf-8", "replace")))
        if line.rstrip().endswith(b"\\"):
            _join_continued(state, buf, start, stop, end, line_no)
        elif any(marker in line for marker in _JOIN_MARKERS):
            tail = stop
            for _ in range(JOIN_LINES):
                nxt = buf.find(b"\n", tail + 1, end)
                if nxt == -1:
                    break
                tail = nxt
            if tail > stop:
                first, *rest = buf[start:tail].split(b"\n")
                parts = [first.strip(), *(_PREFIX.sub(b"", x).strip() for x in rest)]
                state.joins.append((line_no, [_clean(p.decode("utf-8", "replace")) for p in parts]))
        done = stop
    if spans and end > done:
        fast.take_span(buf, done, end, counted, line_no)
    if fast.found:
        counted, line_no = state.flush_fast()
    return line_no + buf.count(b"\n", counted, end)


# A run of digits or word characters this long is no number or name any pattern reads (a hex
# dump, base64, a corrupted line); cut to this length it cannot make a pattern backtrack for
# seconds over a long line.
_LONG_RUN = re.compile(r"[\d,.]{64,}|\w{256,}")
# a number a paste set in Markdown bold
_BOLD = re.compile(r"\*\*(\d[^*\n]{0,40}?)\*\*")


_PROMPT = re.compile(rb"^\s*>?\s*")


def _join_continued(state: _State, buf: bytes, start: int, stop: int, end: int, line_no: int) -> None:
    """A shell command continued over lines with `\\` (as pasted, with `> ` prompts) is also
    read as one line, so its flags are read together with its program."""
    parts = [buf[start:stop].rstrip()[:-1]]
    tail = stop
    for _ in range(40):
        nxt = buf.find(b"\n", tail + 1, end)
        line = buf[tail + 1: nxt if nxt != -1 else end].rstrip()
        parts.append(_PROMPT.sub(b"", line).rstrip(b"\\"))
        if not line.endswith(b"\\") or nxt == -1:
            break
        tail = nxt
    if len(parts) > 1:
        state.joins.append((line_no, [_clean(p.strip().decode("utf-8", "replace")) for p in parts]))


def _clean(text: str) -> str:
    if "\x1b" in text or "\u2190[" in text:
        text = _ANSI.sub("", text)
    elif "[0m" in text:  # colour codes whose escape character a paste dropped ("[2mtext_generation_launcher[0m[2m:[0m")
        text = _BARE_ANSI.sub("", text)
    if text[:1] == ">":  # a paste quoted in Markdown or e-mail ("> [2025-12-09 05:12:15 TP5] ...")
        text = _QUOTED.sub("", text)
    if len(text) > 256 and _LONG_RUN.search(text):
        text = _LONG_RUN.sub(lambda m: m.group(0)[:63], text)
    if "**" in text:  # a number a paste set in bold ("Tried to allocate **144.00 MiB**"): its figures as printed
        text = _BOLD.sub(r"\1", text)
    return text.rstrip("\r")


def _looks_binary(head: bytes) -> bool:
    if b"\x00" in head:
        return True
    if not head:
        return False
    text_like = sum(1 for b in head if b >= 32 or b in (9, 10, 13, 27))
    return text_like / len(head) < 0.85


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
        return True
    except UnicodeDecodeError as exc:
        return exc.start >= len(data) - 4  # a multi-byte character cut at the chunk edge


def read_text_stream(data: bytes, source: str = "<text>") -> ScanResult:
    """Scan an in-memory log (tests, snippets)."""
    return scan_stream(io.BytesIO(data), source, source)
