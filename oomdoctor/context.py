"""Launch context: what the person on call knows besides the log.

The launch command (as typed, from shell history, a `docker run` line, a Python `LLM(...)`
call), the card ("2x RTX 4090", "A100 80GB", "M2 Max 32GB"), the model (an HF id, an Ollama
tag, a GGUF file name, a config path) and a compose file or Kubernetes pod spec. Each becomes
facts with its own origin (command, card table, catalog), exactly as the log's own config
lines would; what cannot be understood becomes a note, never an error.

Pure: text and parsed YAML in, facts out (the CLI reads the files).
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from oomdoctor import knobs, launch
from oomdoctor.facts import Evidence, Fact, Origin, Value
from oomdoctor.inputs import path_exists
from oomdoctor.ledger import GGUF_USUAL
from oomdoctor.parsers.base import parse_quantity, size_of, written_size

if TYPE_CHECKING:  # (the memory model loads on first use: start-up stays light)
    from oomdoctor.memory.arch import ModelArch


@dataclass(frozen=True)
class Context:
    facts: tuple[Fact, ...] = ()
    notes: tuple[str, ...] = ()  # what was not understood, for stderr
    framework: str | None = None  # the framework a command names
    model: str | None = None  # a model spec the memory model can load (path, HF-cache id, catalog:ID)
    commands: tuple[tuple[str, ...], ...] = field(default=())  # argvs, for the report's command diff

    def __add__(self, other: "Context") -> "Context":
        return Context(
            facts=self.facts + other.facts, notes=self.notes + other.notes,
            framework=self.framework or other.framework, model=self.model or other.model,
            commands=self.commands + other.commands,
        )


# ------------------------------------------------------------------ commands

# docker run options that take a value (the rest are switches)
_DOCKER_VALUED = frozenset({
    "-e", "--env", "-v", "--volume", "-p", "--publish", "--name", "--shm-size", "--gpus", "-m", "--memory",
    "--ipc", "--runtime", "--network", "--net", "--entrypoint", "-w", "--workdir", "--ulimit", "--device",
    "--mount", "--cpus", "--restart", "-u", "--user", "-l", "--label", "--platform", "--env-file", "--log-driver",
    "--log-opt", "--memory-swap", "--add-host", "-h", "--hostname", "--cap-add", "--security-opt", "--pull",
    "--cpuset-cpus", "--group-add", "--tmpfs", "--pid", "--uts", "--stop-signal", "--health-cmd",
})
# container images -> (framework, what the image runs before its arguments)
_IMAGES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    (r"vllm/vllm-openai|vllm-cpu|(?:^|/)vllm(?::|$)", "vllm", ("vllm", "serve")),
    (r"lmsysorg/sglang|(?:^|/)sglang(?::|$)", "sglang", ()),
    (r"text-generation-inference", "tgi", ("text-generation-launcher",)),
    (r"ollama/ollama", "ollama", ("ollama", "serve")),
    (r"llama\.cpp|llama-cpp|ggerganov|ggml-org", "llamacpp", ("llama-server",)),
    (r"openmmlab/lmdeploy|(?:^|/)lmdeploy(?::|$)", "lmdeploy", ()),
    (r"tritonserver.*trtllm|tensorrt[-_]llm|tensorrt_llm", "tensorrt-llm", ()),
)
_WRAPPERS = frozenset({"sudo", "nohup", "exec", "time", "env", "nice", "stdbuf", "taskset", "numactl", "srun", "uv", "poetry"})
_LLM_CALL = re.compile(r"\bLLM\(|\bAsyncEngineArgs\(|\bEngineArgs\(")
_FASTCHAT = re.compile(r"fastchat\.serve")
_NAMED_ENGINE = re.compile(r"(?i)\b(?:backend|engine|infer_backend|inference_backend)\b\s*[:=]?\s*['\"]?"
                           r"(vllm|sglang|tgi|llama\.?cpp|ollama|lmdeploy|tensorrt[-_]llm|trt[-_]?llm|exllama(?:v2|v3)?|transformers)\b")
# a trainer's or an evaluator's switch that hands generation to vLLM (TRL's use_vllm=True, ms-swift's --use_vllm true,
# VLMEvalKit's --use-vllm): the model the failure is about runs in vLLM
_USE_VLLM = re.compile(r"--use[-_]vllm(?:[=\s]+(?:true|True|1))?(?=\s|$)(?![=\s]+(?:false|False|0)\b)|\buse_vllm\s*=\s*True\b|--vllm[-_]mode\b")


def _docker_run(argv: list[str]) -> tuple[list[str], list[Fact], dict[str, str], str | None]:
    """`docker run [options] IMAGE [args]` -> (what the container runs, docker facts, env, framework)."""
    i = argv.index("run") + 1 if "run" in argv else 2
    facts: list[Fact] = []
    env: dict[str, str] = {}
    while i < len(argv) and argv[i].startswith("-"):
        name, eq, inline = argv[i].partition("=")
        value = inline if eq else (argv[i + 1] if name in _DOCKER_VALUED and i + 1 < len(argv) else None)
        i += 1 if eq or name not in _DOCKER_VALUED else 2
        if value is None:
            continue
        if name in ("-e", "--env"):
            k, _, v = value.partition("=")
            env[k] = v
        elif name == "--shm-size":
            size = written_size(value)
            if size:
                facts.append(_fact("knob.shm_size_bytes", size, f"--shm-size {value}"))
        elif name in ("-m", "--memory"):
            size = written_size(value)
            if size:
                facts.append(_fact("host.cgroup_limit_bytes", size, f"--memory {value}"))
        elif name == "--gpus":
            count = _gpu_count(value)
            if count:
                facts.append(_fact("gpu.count", count, f"--gpus {value}"))
    if i >= len(argv):
        return [], facts, env, None
    image, rest = argv[i], argv[i + 1:]
    for pattern, fw, program in _IMAGES:
        if re.search(pattern, image):
            runs = rest if rest and (rest[0].startswith(("python", "/")) or "." in rest[0] or rest[0] in ("vllm", "sglang")) else [*program, *rest]
            return runs, facts, env, fw
    return rest, facts, env, None


def _gpu_count(text: str) -> int | None:
    text = text.strip().strip("'\"")
    if text.isdigit():
        return int(text)
    m = re.search(r"device=([\d,]+)", text)
    return len(m.group(1).split(",")) if m else None


# the GPUs a command lets its process see: each listed id is one (a UUID or MIG id counts as one too)
VISIBLE_ENV = ("CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "NVIDIA_VISIBLE_DEVICES")
_DEVICE_ID = re.compile(r"\d+|GPU-[\w-]+|MIG-[\w/-]+")


def visible_device_count(env: Mapping[str, str]) -> int | None:
    """How many GPUs an environment's visible-device list (CUDA_VISIBLE_DEVICES=0,1,2,3) lets the process see."""
    for name in VISIBLE_ENV:
        ids = [x.strip() for x in env.get(name, "").strip("'\"").split(",") if x.strip()]
        if ids and all(_DEVICE_ID.fullmatch(x) for x in ids):
            return len(ids)
    return None


def _visible_devices(env: dict[str, str], ev: Evidence) -> list[Fact]:
    count = visible_device_count(env)
    return [Fact("gpu.count", count, Origin.COMMAND, ev)] if count else []


def _fact(key: str, value: Value, text: str, origin: Origin = Origin.COMMAND, source: str = "command") -> Fact:
    return Fact(key, value, origin, Evidence(source, None, text[:300]))


def from_command(text: str, source: str = "command") -> Context:
    """A launch command as the user has it (shell line, `docker run`, `python -m ...`,
    `LLM(model=..., max_model_len=...)`, free text around flags), with the model it names."""
    ctx = read_command(text, source)
    if ctx.model is None:
        return ctx
    return replace(ctx, model=None) + from_model(ctx.model, quiet=True)  # the model as the catalog or a file resolves it


def read_command(text: str, source: str = "command") -> Context:
    """What a launch command states by itself: no file or catalog is looked up (its `model`
    is the name or path as written)."""
    text = text.strip()
    if not text:
        return Context()
    argv = [t for t in launch.split(text.replace("\\\n", " ")) if t != "\\"]
    env: dict[str, str] = {}
    while argv and (launch.is_env_assign(argv[0]) or argv[0] in _WRAPPERS):
        tok = argv.pop(0)
        if launch.is_env_assign(tok):
            k, _, v = tok.partition("=")
            env[k] = v
    facts: list[Fact] = []
    fw = None
    if len(argv) > 1 and argv[0] in ("docker", "podman", "nerdctl") and "run" in argv[:3]:
        argv, docker_facts, docker_env, fw = _docker_run(argv)
        facts += docker_facts
        env.update(docker_env)
    joined = " ".join(argv)
    fw = launch.detect_framework(joined) or fw or launch.framework_from_flags(joined)
    modelfile = _modelfile(text, Evidence(source, None, text[:300]))
    if modelfile:
        facts += modelfile
        fw = fw or "ollama"
    if fw is None and (_LLM_CALL.search(text) or _USE_VLLM.search(text)):
        fw = "vllm"
    if fw is None and _FASTCHAT.search(joined):
        fw = "transformers"
    if fw is None:  # free text that says which engine runs: "backend vllm", "engine: sglang", "inference_backend=lmdeploy"
        named = _NAMED_ENGINE.search(text)
        fw = knobs.canonical_framework(named.group(1)) if named else None
    ev = Evidence(source, None, text[:300])
    facts += launch.parse_argv(argv, framework=fw, evidence=ev, origin=Origin.COMMAND)
    facts += launch.parse_kwargs(text, evidence=ev, origin=Origin.COMMAND)
    facts += launch.parse_env(env, evidence=ev, origin=Origin.COMMAND)
    facts += _generic_flags(argv, ev)
    if re.search(launch.HOST_RESIDENT_WEIGHTS, text):
        facts.append(Fact("oom.hint", "host_resident_weights", Origin.COMMAND, ev))
    program = argv[1] if len(argv) > 1 and re.fullmatch(r"python[\d.]*", argv[0]) else argv[0] if argv else ""
    if _KOBOLDCPP.search(program):  # KoboldCpp runs llama.cpp and takes its settings in its own flags
        facts.append(Fact("launcher", "koboldcpp", Origin.COMMAND, ev))
    if not any(f.key == "gpu.count" for f in facts):
        facts += _visible_devices(env, ev)
    count = next((f.value for f in facts if f.key == "gpu.count"), None)
    if fw in ("vllm", "sglang") and _XINFERENCE_LAUNCH.search(joined) and isinstance(count, int) and count > 1 \
            and not any(f.key == "knob.tensor_parallel_size" for f in facts):
        # Xinference hands its --n-gpu to vLLM and SGLang as their tensor-parallel size
        facts.append(Fact("knob.tensor_parallel_size", count, Origin.COMMAND, ev))
    if not any(f.key == "knob.tensor_parallel_size" for f in facts):
        m = _TP_WORDS.search(text)  # free text: "TP=2", "TP8", "tensor parallel 4"
        if m:
            facts.append(Fact("knob.tensor_parallel_size", int(next(g for g in m.groups() if g)), Origin.COMMAND, ev))
    model = next((str(f.value) for f in facts if f.key == "knob.model"), None) or launch.positional_model(argv)
    if model and not any(f.key == "knob.model" for f in facts):
        facts.append(Fact("knob.model", model, Origin.COMMAND, ev))
    notes = []
    if not facts and fw is None:
        notes.append(f"--cmd: no launch flags or framework recognised in {text[:80]!r}")
    return Context(tuple(facts), tuple(notes), fw, model, (tuple(argv),) if argv else ())


# KoboldCpp's program as a command names it: "koboldcpp.exe", "./koboldcpp-linux-x64-cuda1210", "python koboldcpp.py"
_KOBOLDCPP = re.compile(r"(?i)(?:^|[\\/])koboldcpp[\w.-]*$")
# an Ollama Modelfile ("FROM llama3:8b", "PARAMETER num_ctx 16000") or the REPL's "/set parameter num_ctx 8192"
_MODELFILE_PARAM = re.compile(r"(?i)(?:\bPARAMETER|/set parameter)\s+(num_ctx|num_gpu|num_batch)\s+(\d+)")
_MODELFILE_FROM = re.compile(r"(?:^|\n|\s/\s)\s*FROM\s+(\S+)")
_MODELFILE_KEYS = {"num_ctx": "knob.max_model_len", "num_gpu": "knob.gpu_layers", "num_batch": "knob.max_num_batched_tokens"}


def _modelfile(text: str, ev: Evidence) -> list[Fact]:
    facts = [Fact(_MODELFILE_KEYS[m.group(1).lower()], int(m.group(2)), Origin.COMMAND, ev) for m in _MODELFILE_PARAM.finditer(text)]
    source = _MODELFILE_FROM.search(text)
    if source and (facts or "PARAMETER" in text or "TEMPLATE" in text):
        facts.append(Fact("knob.model", source.group(1), Origin.COMMAND, ev))
    return facts


_XINFERENCE_LAUNCH = re.compile(r"(?:^|[\s/])xinference\s+launch\b")
_TP_WORDS = re.compile(r"(?<![\w-])TP\s*[=:]?\s*(\d{1,2})\b|\btensor[ -]parallel(?:ism)?(?: size)?\s*(?:of|=|:)?\s*(\d{1,2})\b", re.I)


# flags many frameworks and scripts share (FastChat, text-generation-webui, torchrun, deepspeed)
_GENERIC = (
    # (Xinference's launch, `xinference launch --model-engine vllm --n-gpu 4`, names the GPUs a model runs on)
    (("--num-gpus", "--num_gpus", "--nproc_per_node", "--nproc-per-node", "--n-gpu", "--n_gpu"), "gpu.count"),
    (("--load-8bit", "--load_8bit", "--load-in-8bit"), "knob.quantization:bnb-8bit"),
    (("--load-4bit", "--load_4bit", "--load-in-4bit"), "knob.quantization:bnb-4bit"),
    # DeepSpeed's inference scripts and trainers: the parameters kept in CPU RAM (ZeRO offload)
    (("--cpu_offload", "--cpu-offload", "--offload_param", "--offload-param"), "oom.hint:cpu_offload_enabled"),
    # LLaMA-Factory: bitsandbytes at that many bits
    (("--quantization_bit", "--quantization-bit"), "knob.quantization:bnb-{}bit"),
)


def _generic_flags(argv: Sequence[str], ev: Evidence) -> list[Fact]:
    out: list[Fact] = []
    for i, tok in enumerate(argv):
        name, eq, inline = tok.partition("=")
        for names, key in _GENERIC:
            if name not in names:
                continue
            raw = inline if eq else (argv[i + 1] if i + 1 < len(argv) else "")
            if ":" in key and "{}" in key:
                if raw in ("4", "8"):
                    k, v = key.split(":")
                    out.append(Fact(k, v.format(raw), Origin.COMMAND, ev))
            elif ":" in key:
                k, v = key.split(":")
                out.append(Fact(k, v, Origin.COMMAND, ev))
            elif raw.isdigit():
                out.append(Fact(key, int(raw), Origin.COMMAND, ev))
    return out


# ------------------------------------------------------------------ the card


def from_gpu(text: str) -> Context:
    """A card as a person writes it -> count, name and per-device capacity as the runtime reports it."""
    from oomdoctor import gpus

    text = text.strip()
    if not text:
        return Context()
    mixed = _mixed_cards(text)
    if mixed is not None:
        return mixed
    card = gpus.parse_card(text)
    ev = Evidence("card table", None, text[:200])
    stated_set = _working_set(text)
    if card is not None and stated_set and card.unified_memory:
        # Metal's recommendedMaxWorkingSetSize as the user read it: the GPU's budget, whatever the variant
        name = re.sub(r" \d+GB$", "", card.name) if card.assumed_variant else card.name
        card = replace(card, name=name, capacity_bytes=stated_set, assumed_variant=False)
    if card is not None:
        why = f"{card.name}: {card.capacity_bytes / (1 << 30):.2f} GiB per device"
        if card.assumed_variant:
            why += " (most common variant; say the size to pick another)"
        ev = Evidence("card table", None, f"{text[:120]} -> {why}")
        facts = [Fact("gpu.name", card.name, Origin.CARD, ev), Fact("gpu.total_bytes", card.capacity_bytes, Origin.CARD, ev),
                 Fact("gpu.count", card.count, Origin.CARD, ev)]
        if card.fp8 is not None:
            facts.append(Fact("gpu.fp8", bool(card.fp8), Origin.CARD, ev))
        if card.compute_capability:
            facts.append(Fact("gpu.compute_capability", str(card.compute_capability), Origin.CARD, ev))
        if card.unified_memory:
            facts.append(Fact("gpu.unified_memory", True, Origin.CARD, ev))
        return Context(tuple(facts))
    # a size that is a limit on one buffer ("Metal max buffer 77309411328 bytes = 72 GiB") is not the card's
    sized = _BUFFER_LIMIT.sub("", text)
    size = stated_set or gpus.capacity_from_name(sized) or gpus.stated_size(sized)
    if size:
        count = _count_in(text)
        facts = [Fact("gpu.total_bytes", size, Origin.CARD, ev)] + ([Fact("gpu.count", count, Origin.CARD, ev)] if count else [])
        return Context(tuple(facts))
    return Context(notes=(f"--gpu: no card or size recognised in {text[:80]!r}",))


def _mixed_cards(text: str) -> Context | None:
    """Different cards in one box, as a person lists them ("Tesla V100S 32GB + Tesla P40 24GB", "3090 and 4090"):
    the count is all of them and the capacity per device their mean, so the sum is what a layer split spreads
    the model over."""
    from oomdoctor import gpus

    parts = [p for p in re.split(r"\s+(?:\+|&|and)\s+", text) if p.strip()]
    cards = [gpus.parse_card(p) for p in parts]
    if len(cards) < 2 or any(c is None for c in cards):
        return None
    named = [c for c in cards if c is not None]
    count = sum(c.count for c in named)
    whole = sum(c.capacity_bytes * c.count for c in named)
    name = " + ".join(f"{c.count}x {c.name}" if c.count > 1 else c.name for c in named)
    ev = Evidence("card table", None, f"{text[:120]} -> {name}: {count} devices, {whole / (1 << 30):.2f} GiB in all "
                                      f"({whole / count / (1 << 30):.2f} GiB each on average)")
    facts = [Fact("gpu.name", name, Origin.CARD, ev), Fact("gpu.total_bytes", whole // count, Origin.CARD, ev),
             Fact("gpu.count", count, Origin.CARD, ev)]
    if all(c.fp8 is not None for c in named):
        facts.append(Fact("gpu.fp8", all(c.fp8 for c in named), Origin.CARD, ev))
    return Context(tuple(facts))


_BUFFER_LIMIT = re.compile(r"(?i)\bmax(?:imum)?[ _]?(?:allowed )?buffer(?:[ _]size)?\b[^,;()]*(?:\([^)]*\))?[^,;()]*")


def _working_set(text: str) -> int | None:
    """ "Metal working set 49152 MB", "recommendedMaxWorkingSetSize = 21845.34 MB" """
    m = re.search(r"(?i)working ?set(?:size)?\s*(?:of|=|:)?\s*(\d+(?:\.\d+)?)\s*(MiB|MB|GiB|GB)\b", text)
    return size_of(f"{m.group(1)} {m.group(2)}") if m else None


def _count_in(text: str) -> int | None:
    # ("8x", "8 GPUs", or after the size: "64GB x8")
    m = re.search(r"(?<![\d.])(\d+)\s*[x×*]\s*(?=\S)|\b(\d+)\s+GPUs?\b|(?<![\w.])[x×](\d+)\b", text, re.I)
    if not m:
        return None
    n = int(m.group(1) or m.group(2) or m.group(3))
    return n if 1 <= n <= 1024 else None


# ------------------------------------------------------------------ the model


def from_model(text: str, quiet: bool = False) -> Context:
    """A model as named: a config path or directory, an HF id (local cache, then the catalog),
    an Ollama tag, a GGUF file name, or loose text with a size ('a 13B model')."""
    from oomdoctor.memory import catalog
    from oomdoctor.memory.arch import quant_from_config
    from oomdoctor.memory.config import find_in_hf_cache
    from oomdoctor.memory.quant import normalise_name
    from oomdoctor.parsers.scan import MULTIMODAL, context_from_name, name_hints, params_from_name

    text = text.strip()
    if not text:
        return Context()
    ev = Evidence("model", None, text[:200])
    # (os.path's expansion leaves "~125M-parameter model" as it is; Path's raises for an unknown user)
    path = Path(os.path.expanduser(text))
    if path_exists(path) or find_in_hf_cache(text) is not None:
        return Context((Fact("knob.model", text, Origin.COMMAND, ev),), model=text)
    # the text before any aside names the model ("8B Q4_K_M (loaded after gpt-oss:120b ...)"): a model
    # named in the aside is used only when the head names no size of its own
    head = _head(text)
    match = next((m for m in map(catalog.lookup, _candidates(text)) if m is not None), None)
    stated = params_from_name(head) if head != text else None
    if match is not None and stated and not 0.7 <= match.params / stated <= 1.4:
        match = None  # the catalog found a model the aside names, not the one the text is about
    # (a long-context variant the catalog does not list names its context: "Llama-3-8B-Instruct-Gradient-1048k")
    named_context = context_from_name(head)
    facts: list[Fact] = [Fact("knob.model", text, Origin.COMMAND, ev)]
    if re.search(MULTIMODAL, text):  # a vision-language model: its encoder and images are an account of their own
        facts.append(Fact("oom.hint", "multimodal", Origin.COMMAND, ev))
    if match is not None:
        cev = Evidence("catalog", None, f"{text[:100]} -> {match.id} ({match.params / 1e9:.2f} B params; {match.source})")
        facts.append(Fact("model.params", int(match.params), Origin.CATALOG, cev))
        context = max(named_context or 0, match.default_context or 0)
        if context:
            facts.append(Fact("model.default_context", context, Origin.CATALOG, cev))
        layers = (match.config.get("text_config") or match.config).get("num_hidden_layers")
        if isinstance(layers, int):
            facts.append(Fact("knob.model_layers", layers, Origin.CATALOG, cev))
        largest = catalog.largest_tensor_params(match.config)
        if largest:
            facts.append(Fact("model.largest_tensor_params", largest, Origin.CATALOG, cev))
        arch = _arch(match.entry.raw_config)
        experts = _expert_params(arch) if arch is not None else None
        if experts:
            facts.append(Fact("model.expert_params", experts, Origin.CATALOG, cev))
        per_token = _kv_per_token(arch) if arch is not None else None
        if per_token:
            facts.append(Fact("model.kv_bytes_per_token", per_token, Origin.CATALOG, cev))
        ollama_name = match.how == "alias" and "/" not in match.matched  # matched one of Ollama's library names
        spelled = next((v for k, v in name_hints(text) if k == "knob.quantization"), None)  # "IQ4 XS", as typed
        quant = normalise_name(match.quantization) or normalise_name(spelled) or _default_quant(text, match.quantization == "gguf", ollama_name)
        native = quant_from_config(match.entry.raw_config) if quant and quant.upper() in ("F16", "BF16", "F32") else None
        if native is not None and native.method == "mxfp4":
            quant = "MXFP4"  # a float GGUF of an MXFP4 checkpoint (gpt-oss) keeps its experts in MXFP4
        if quant:
            facts.append(Fact("knob.quantization", quant, Origin.CATALOG, cev))
        return Context(tuple(facts), model=f"catalog:{match.id}", framework=_ollama_tag(text))
    params = stated or params_from_name(text)
    notes: tuple[str, ...] = ()
    if params:
        facts.append(Fact("model.params", params, Origin.CATALOG, Evidence("model name", None, text[:200])))
        if named_context:
            facts.append(Fact("model.default_context", named_context, Origin.CATALOG, Evidence("model name", None, text[:200])))
        named, _ = catalog.split_quantization(text, gguf="gguf" in text.lower())
        quant = normalise_name(named) or _default_quant(text, named == "gguf")
        if quant:
            facts.append(Fact("knob.quantization", quant, Origin.CATALOG, ev))
        else:
            facts += [Fact(k, v, Origin.CATALOG, ev) for k, v in name_hints(text)]
        if not quiet:
            notes = (f"--model: {text[:60]!r} is not in the offline catalog; using the size in its name ({params / 1e9:g} B params)",)
    elif not quiet:
        notes = (f"--model: {text[:60]!r} is not a file, not in the local Hugging Face cache and not in the offline catalog",)
    return Context(tuple(facts), notes, framework=_ollama_tag(text))


def _arch(config: Mapping[str, Any]) -> ModelArch | None:
    """A catalog entry's architecture, from its config; none where the config does not parse."""
    from oomdoctor.errors import InputError
    from oomdoctor.memory.arch import arch_from_hf_config

    try:
        return arch_from_hf_config(config)
    except (InputError, KeyError, TypeError, ValueError, ZeroDivisionError):
        return None


def _expert_params(arch: ModelArch) -> int | None:
    """Parameters in a MoE model's routed experts (what llama.cpp's --cpu-moe keeps in CPU RAM); none for a dense model."""
    from oomdoctor.memory.tensors import expert_tensors

    if not arch.moe:
        return None
    return sum(t.elements for t in expert_tensors(arch)) or None


def _kv_per_token(arch: ModelArch) -> int | None:
    """KV bytes one token costs the whole model at 16 bits, from its config; none for a model whose sliding-window
    layers cache only their window (what those cost depends on the engine's layout)."""
    from oomdoctor.memory.dtypes import parse_kv_dtype
    from oomdoctor.memory.kv import kv_bytes_per_token

    if arch.is_hybrid_window:
        return None
    return kv_bytes_per_token(arch, parse_kv_dtype("auto", "float16")) or None


_OLLAMA_TAG_IN = re.compile(r"(?<![\w./-])[a-z0-9][\w.-]*:[\w.-]+")


def _ollama_tag(text: str) -> str | None:
    """"ollama" when the model is named the way only Ollama names models (`llama3:70b`,
    `qwen2.5:7b-instruct-q4_K_M`): the llama.cpp the log shows runs under Ollama."""
    head = _head(text)
    return "ollama" if "/" not in head and _OLLAMA_TAG_IN.search(head) else None


def _default_quant(text: str, gguf: bool, ollama_name: bool = False) -> str | None:
    """The quantization a name implies without spelling it: an Ollama library model (`name:tag`, or a
    name of Ollama's library) serves Q4_K_M unless its tag says otherwise, and Q4_K_M is what a GGUF
    is most often downloaded as (a file or repo name without its type). None for anything else
    (16-bit is then assumed)."""
    if gguf or ollama_name or _OLLAMA_TAG_IN.search(text):
        return GGUF_USUAL
    return None


def _head(text: str) -> str:
    """Free text up to its first aside (a parenthesis, a comma, "per ...", "also ...")."""
    return re.split(r"[(,;]| per | also ", text)[0].strip() or text


def _candidates(text: str) -> Iterable[str]:
    """The whole text, then each HF-id- or file-like part of it (free text as users type it)."""
    yield text
    # a Hugging Face cache folder in a path (".../hub/models--Org--Name/snapshots/<hash>") names the model
    for m in re.finditer(r"\bmodels--([\w.-]+?)--([\w.-]+)", text):
        yield f"{m.group(1)}/{m.group(2)}"
    for m in re.finditer(r"[\w.-]+/[\w.:-]+|[\w.-]+\.gguf\b|[\w.-]+:[\w.-]+", text):
        yield m.group(0).rsplit("/", 1)[-1] if m.group(0).startswith(("/", ".", "~")) else m.group(0)
    head = _head(text)
    if head != text:
        yield head


# ------------------------------------------------------------------ deployment specs


def from_spec(data: Any, source: str) -> Context:
    """A docker compose file or a Kubernetes Pod/Deployment/StatefulSet/Job: the serving
    container's command, args and env, its memory limit, GPUs and /dev/shm."""
    if not isinstance(data, Mapping):
        return Context(notes=(f"--spec {source}: not a compose file or Kubernetes object",))
    if isinstance(data.get("services"), Mapping):
        return _compose(data["services"], source)
    pod = _pod_spec(data)
    if pod is not None:
        return _pod(pod, source)
    return Context(notes=(f"--spec {source}: no services (compose) or containers (Kubernetes) found",))


def _pick(items: list[tuple[str, str]]) -> int:
    """The entry whose image/command names an inference framework, else the first."""
    for i, (image, command) in enumerate(items):
        if launch.detect_framework(command) or any(re.search(p, image) for p, _, _ in _IMAGES):
            return i
    return 0


def _command_text(image: str, command: Any, args: Any = None) -> str:
    parts: list[str] = []
    for part in (command, args):
        if isinstance(part, str):
            parts.append(part)
        elif isinstance(part, list):
            parts.append(" ".join(shlex.quote(str(x)) for x in part))
    body = " ".join(p for p in parts if p)
    return f"docker run {image} {body}".strip() if image else body


def _env_pairs(env: Any) -> dict[str, str]:
    if isinstance(env, Mapping):
        return {str(k): str(v) for k, v in env.items() if v is not None}
    out: dict[str, str] = {}
    for item in env or ():
        if isinstance(item, str):
            k, _, v = item.partition("=")
            out[k] = v
        elif isinstance(item, Mapping) and "name" in item:
            out[str(item["name"])] = str(item.get("value", "")) if item.get("value") is not None else "<from secret/field>"
    return out


def _with_env(ctx: Context, env: Mapping[str, str], source: str) -> Context:
    ev = Evidence(source, None, "environment")
    return ctx + Context(tuple(launch.parse_env(dict(env), evidence=ev, origin=Origin.COMMAND)))


def _compose(services: Mapping[str, Any], source: str) -> Context:
    names = list(services)
    items = [(str((services[n] or {}).get("image", "")), str((services[n] or {}).get("command", ""))) for n in names]
    svc = services[names[_pick(items)]] or {}
    ctx = from_command(_command_text(str(svc.get("image", "")), svc.get("entrypoint"), svc.get("command")), source)
    ctx = _with_env(ctx, _env_pairs(svc.get("environment")), source)
    facts: list[Fact] = []
    shm = svc.get("shm_size")
    if shm is not None:
        size = written_size(str(shm))
        if size:
            facts.append(_fact("knob.shm_size_bytes", size, f"shm_size: {shm}", source=source))
    mem = svc.get("mem_limit") or (((svc.get("deploy") or {}).get("resources") or {}).get("limits") or {}).get("memory")
    if mem is not None:
        size = written_size(str(mem))
        if size:
            facts.append(_fact("host.cgroup_limit_bytes", size, f"memory limit: {mem}", source=source))
    for dev in (((svc.get("deploy") or {}).get("resources") or {}).get("reservations") or {}).get("devices") or ():
        if isinstance(dev, Mapping) and str(dev.get("count", "")).isdigit():
            facts.append(_fact("gpu.count", int(dev["count"]), f"devices count: {dev['count']}", source=source))
    return ctx + Context(tuple(facts))


def _pod_spec(obj: Mapping[str, Any]) -> Mapping[str, Any] | None:
    kind = str(obj.get("kind", ""))
    spec = obj.get("spec") or {}
    if kind == "Pod":
        return spec
    if kind in ("Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job"):
        return ((spec.get("template") or {}).get("spec")) or None
    if kind == "CronJob":
        return (((spec.get("jobTemplate") or {}).get("spec") or {}).get("template") or {}).get("spec")
    return None


def _pod(pod: Mapping[str, Any], source: str) -> Context:
    containers = [c for c in pod.get("containers") or () if isinstance(c, Mapping)]
    if not containers:
        return Context(notes=(f"--spec {source}: the pod spec has no containers",))
    items = [(str(c.get("image", "")), " ".join(map(str, (c.get("command") or []) + (c.get("args") or [])))) for c in containers]
    c = containers[_pick(items)]
    ctx = from_command(_command_text(str(c.get("image", "")), c.get("command"), c.get("args")), source)
    ctx = _with_env(ctx, _env_pairs(c.get("env")), source)
    facts: list[Fact] = []
    limits = ((c.get("resources") or {}).get("limits")) or {}
    if limits.get("memory") is not None:
        size = parse_quantity(limits["memory"])
        if size:
            facts.append(_fact("host.cgroup_limit_bytes", size, f"limits.memory: {limits['memory']}", source=source))
    for key in ("nvidia.com/gpu", "amd.com/gpu"):
        if str(limits.get(key, "")).isdigit():
            facts.append(_fact("gpu.count", int(limits[key]), f"limits.{key}: {limits[key]}", source=source))
    shm_volumes = {str(v.get("name")): v for v in pod.get("volumes") or () if isinstance(v, Mapping)
                   and isinstance(v.get("emptyDir"), Mapping) and v["emptyDir"].get("medium") == "Memory"}
    for mount in c.get("volumeMounts") or ():
        if isinstance(mount, Mapping) and mount.get("mountPath") == "/dev/shm" and str(mount.get("name")) in shm_volumes:
            limit = shm_volumes[str(mount.get("name"))]["emptyDir"].get("sizeLimit")
            size = parse_quantity(limit) if limit is not None else None
            if size:
                facts.append(_fact("knob.shm_size_bytes", size, f"/dev/shm emptyDir sizeLimit: {limit}", source=source))
    return ctx + Context(tuple(facts))


def gather(commands: Sequence[str] = (), gpu: str | None = None, model: str | None = None,
           specs: Sequence[tuple[str, Any]] = ()) -> Context:
    """Everything the person on call gave besides the log, in one Context."""
    ctx = Context()
    for text in commands:
        ctx = ctx + from_command(text)
    for source, data in specs:
        ctx = ctx + from_spec(data, source)
    if gpu:
        ctx = ctx + from_gpu(gpu)
    if model:
        ctx = ctx + from_model(model)
    return ctx
