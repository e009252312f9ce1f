"""From a rule's suggestion spec to a concrete setting: a value from the numbers at hand, or a
conservative step from the sources' method when the numbers are missing; the framework's own
constraints; what the checkpoint and the card allow; never what is already set.

Pure: facts in, a `Suggestion` (or None: nothing to change) out. The spellings are data in
`oomdoctor.knobs`.
"""

from __future__ import annotations

import math
import re

from oomdoctor import knobs
from oomdoctor.facts import FactSet, Value
from oomdoctor.ledger import HEADROOM, compute_capability, gpu_total
from oomdoctor.model import Account, Action, Suggestion
from oomdoctor.rules.model import SuggestionSpec, render_template, template_value
from oomdoctor.wording import restates

# What a knob is when nothing is set: the framework's documented default (the value to step
# down from), with where it is documented.
DEFAULTS: dict[tuple[str, str], int | float] = {
    ("vllm", "max_num_seqs"): 256,  # EngineArgs (1024 on >=70 GiB cards from 0.10)
    ("vllm", "max_num_batched_tokens"): 2048,  # V1 API server on <70 GiB cards
    ("vllm", "gpu_memory_utilization"): 0.9,
    ("sglang", "max_num_batched_tokens"): 8192,  # --chunked-prefill-size, 24-80 GiB cards
    ("sglang", "max_num_seqs"): 256,
    ("sglang", "gpu_memory_utilization"): 0.88,
    ("tgi", "max_num_batched_tokens"): 4145,  # max_input_tokens + 50 (KNOBS.md §5.1)
    ("tgi", "max_model_len"): 4096,  # max_total_tokens (KNOBS.md §5.1)
    ("tgi", "max_num_seqs"): 128,
    ("llamacpp", "max_num_batched_tokens"): 512,  # -ub
    ("llamacpp", "batch_size"): 2048,  # -b
    ("llamacpp", "max_model_len"): 4096,  # -c
    ("llamacpp", "max_num_seqs"): 4,  # llama-server -np (auto)
    ("ollama", "max_model_len"): 4096,  # num_ctx (2048 before 0.6)
    ("ollama", "max_num_seqs"): 4,
    ("ollama", "max_num_batched_tokens"): 512,  # num_batch
    ("ollama", "batch_size"): 512,
    ("lmdeploy", "max_num_seqs"): 128,
    ("lmdeploy", "max_num_batched_tokens"): 8192,  # --max-prefill-token-num
    ("lmdeploy", "gpu_memory_utilization"): 0.8,  # --cache-max-entry-count
    ("tensorrt-llm", "max_num_seqs"): 2048,  # trtllm-build --max_batch_size
    ("tensorrt-llm", "batch_size"): 2048,
    ("tensorrt-llm", "max_num_batched_tokens"): 8192,
    ("tensorrt-llm", "gpu_memory_utilization"): 0.9,
}
# a step down never goes below these (the sources' conservative start: short context, little concurrency)
FLOORS: dict[str, int] = {"max_model_len": 512, "max_num_seqs": 1, "max_num_batched_tokens": 128, "batch_size": 1,
                          "max_total_tokens": 512, "gpu_layers": 0}
INTEGER_KNOBS = frozenset({"max_model_len", "max_num_seqs", "max_num_batched_tokens", "batch_size", "max_total_tokens",
                           "gpu_layers", "tensor_parallel_size", "pipeline_parallel_size", "cuda_graph_sizes"})
# GGUF quantizations, from larger to smaller
GGUF_LADDER = ("F16", "Q8_0", "Q6_K", "Q5_K_M", "Q4_K_M", "Q3_K_M", "Q2_K")
_GGUF_TAG = re.compile(r"(?i)(?<=[-_.:])(f16|bf16|q8_0|q6_k|q5_k_[ms]|q5_[01]|q4_k_[ms]|q4_[01]|q3_k_[lms]|q2_k|iq\d_\w+?)(?=[-_.]|\.gguf$|$)")


# quantizations an engine applies while loading a 16-bit checkpoint (not a property of the checkpoint)
_LOAD_TIME = frozenset({"bitsandbytes", "bitsandbytes-nf4", "bitsandbytes-fp4", "eetq", "fp8"})
# parallel sizes a command leaves unset are one GPU
_ONE_BY_DEFAULT = frozenset({"tensor_parallel_size", "pipeline_parallel_size"})
# -ngl 99 / 999: "every layer", not a count (no model this tool knows has 99 layers)
_ALL_LAYERS = 99


def _current(facts: FactSet, framework: str, knob: str) -> float | None:
    cur = facts.number(f"knob.{knob}")
    if cur is None and knob == "max_model_len":
        cur = facts.number("model.default_context")
    if knob == "gpu_layers":
        layers = facts.number("mem.layers_total") or facts.number("knob.model_layers")
        if cur is not None and (cur > layers if layers else cur >= _ALL_LAYERS):
            cur = layers  # -ngl 999 says "all of them": a step down starts from the model's count, where known
        if cur is None:
            cur = facts.number("mem.layers_offloaded") or layers
    if cur is None and knob == "max_total_tokens":
        cur = facts.number("mem.kv_tokens") or facts.number("oom.total_tokens")
    if cur is None:
        d = DEFAULTS.get((framework, knob))
        cur = float(d) if d is not None else None
    return cur


def _weights_share_that_fits(facts: FactSet) -> float | None:
    """The share of a whole-model weights buffer that fits the card (less the ledger's headroom), when one failed."""
    req = facts.number("oom.requested_bytes")
    cap = facts.number("mem.gpu_available_bytes", "mem.gpu_total_bytes", "gpu.total_bytes")
    if not req or not cap or facts.value("oom.buffer") not in (None, "weights") or req <= cap * HEADROOM:
        return None
    return cap * HEADROOM / req


def _pow2_floor(n: float) -> int:
    return 2 ** int(math.log2(max(n, 1)))


def step_value(framework: str, knob: str, action: Action, facts: FactSet) -> tuple[Value | None, str]:
    """A concrete conservative step when the numbers give no value: halve what is set (or the
    framework's default); double the parallelism; five points of memory fraction."""
    cur = _current(facts, framework, knob)
    if knob == "chunked_prefill":  # engines that spell it as a chunk size take their usual one
        size = DEFAULTS.get((framework, "max_num_batched_tokens"))
        return (size, "the engine's usual prefill chunk") if size else (None, "")
    if action is Action.LOWER and cur is None and knob == "max_model_len":
        return 4096, "a conservative start (the log states no context length): raise it step by step once it runs"
    if action is Action.LOWER:
        if knob == "gpu_memory_utilization":
            base = cur if cur is not None else 0.9
            return round(max(0.3, base - 0.05), 2), "five points less than now: more room outside the pool"
        if cur is None and knob == "gpu_layers":
            share = _weights_share_that_fits(facts)
            return 0, ("a baseline that surely fits (all layers on the CPU): raise it step by step to the largest that "
                       "loads (`oomdoctor confirm` bisects it)"
                       + (f"; about {share:.0%} of the model's layers fit the card" if share is not None else ""))
        if cur is None and knob == "max_total_tokens":
            per_seq = facts.number("knob.max_model_len") or 4096
            return int(per_seq * 4), "room for four full-length sequences to start with"
        if cur is None:
            return None, ""
        if knob == "gpu_layers":
            return max(0, int(cur * 3 // 4)), "a quarter fewer layers on the GPU (the numbers do not size it)"
        floor = FLOORS.get(knob, 1)
        value = max(floor, _pow2_floor(cur / 2)) if knob in INTEGER_KNOBS else cur / 2
        if value >= cur:
            return None, ""
        return value, f"half of {int(cur):,} (the numbers do not size it): lower one knob at a time and confirm"
    if action is Action.RAISE:
        if knob == "max_model_len":
            value, why = _context_for_request(facts, cur)
            if value is not None and framework == "llamacpp":
                why += " (per slot: with -np N slots and no unified KV cache each slot gets -c / N, so multiply by N)"
            return value, why
        if knob == "gpu_memory_utilization":
            base = cur if cur is not None else 0.9
            return (round(min(0.95, base + 0.05), 2), "five points more, keeping 5% of the card free") if base < 0.95 else (None, "")
        if knob in ("tensor_parallel_size", "pipeline_parallel_size"):
            base = int(cur) if cur else 1
            count = facts.number("gpu.count")
            return base * 2, (f"twice the GPUs ({int(count)} visible)" if count else "twice the GPUs")
        if knob == "cpu_offload":
            return 8, "8 GiB of weights in CPU RAM to start with (slower)"
        if knob == "swap_space":
            return 16, ""
    return None, ""


def _context_for_request(facts: FactSet, current: float | None) -> tuple[Value | None, str]:
    """A context that holds a request the server refused for its length: the request's tokens, rounded up to 1K,
    unless that is past the model's own context (then the request, not the server, has to change)."""
    request = facts.number("mem.prefill_tokens")
    if not request or (current is not None and request <= current):
        return None, ""
    value = math.ceil(request / 1024) * 1024
    own = facts.number("model.default_context")
    if own and value > own:
        return None, f"the request ({int(request):,} tokens) is longer than the model's own context ({int(own):,}): shorten the request"
    return value, f"the smallest 1K-aligned context that holds the {int(request):,}-token request"


_GGUF_STEP = 0.8  # what one step down the GGUF ladder leaves of the bytes (Q4_K_M 4.85 -> Q3_K_M 3.91 bits per weight)


def _gguf_lower(current: str | None) -> str:
    cur = (current or "").upper()
    if cur in GGUF_LADDER:
        i = GGUF_LADDER.index(cur)
        return GGUF_LADDER[min(i + 1, len(GGUF_LADDER) - 1)] if i + 1 < len(GGUF_LADDER) else cur
    return "Q4_K_M" if not cur.startswith(("Q3", "Q2", "IQ")) else "Q2_K"


def _quantization(framework: str, facts: FactSet, spec_value: Value | None) -> tuple[str | None, Value | None, str]:
    """What a quantization suggestion can really be: (knob, value, why) — the knob becomes
    smaller_model when the checkpoint cannot be quantized further the suggested way."""
    if "quantizing" in facts.values("oom.hint"):
        # the job itself quantizes the model from its full-precision weights: those stay, so keep them off the GPU
        return "cpu_offload", None, "the job quantizes the full-precision model: keep its layers in CPU RAM and bring one at a time to the GPU"
    current = facts.value("knob.quantization")
    cur = str(current).lower() if isinstance(current, str) and current.lower() not in ("none", "auto", "") else None
    if framework in ("vllm", "sglang") and "quantization_unset" in facts.values("oom.hint"):
        # a checkpoint named as quantized that the engine ran without it: its own method is the fix
        return "quantization", spec_value, "the checkpoint's own method, which the engine's configuration did not apply"
    if framework in ("llamacpp", "ollama"):
        lower = _gguf_lower(cur)
        if cur and lower.lower() == cur:
            return "smaller_model", None, "already at the smallest useful quantization"
        share = facts.number("ratio.weights_of_total", "ratio.weights_of_budget")
        if cur and share is not None and share * _GGUF_STEP > 1.0:
            # one level down saves about a fifth of the bytes: weights this far over cannot fit that way
            return "smaller_model", None, (f"the weights are {share:.0%} of the memory; one quantization level below "
                                           f"{cur.upper()} saves about a fifth of that, not enough")
        return "quantization", lower, f"one quantization level below {cur.upper()}" if cur else "a 4-bit GGUF quantization"
    if framework == "exllama":  # EXL2/EXL3 checkpoints come at several bits per weight
        return "quantization", None, ""
    if framework in ("vllm", "sglang", "tgi"):
        if cur:  # a pre-quantized checkpoint: quantizing it again at load is not possible
            what = "weights are already quantized at load to" if cur in _LOAD_TIME else "checkpoint is already"
            return "smaller_model", None, f"the {what} {cur}: a smaller model (or more GPUs) is what is left"
        cc = compute_capability(facts)
        ampere_plus = cc is None or cc >= 8.0
        if framework == "tgi" and facts.value("gpu.fp8") is False:
            return "quantization", "bitsandbytes-nf4", "quantized to 4 bits at load (this card has no fp8)"
        if ampere_plus:
            why = "fp8 weights, quantized at load: half the bytes of a 16-bit checkpoint"
            share = facts.number("ratio.weights_of_total")
            if share is not None and share >= 0.6:  # what half the weights would still take of the card
                why += f" ({share / 2:.0%} of the card{', not enough alone' if share / 2 >= 0.85 else ''})"
            return "quantization", "fp8", why
        # (no fp8 before Ampere: a pre-quantized checkpoint, whose method the engine reads from its config; vLLM's AWQ
        # kernels need compute capability 7.5, its GPTQ kernels 6.0)
        if cc >= 7.5:
            return "quantization", "awq", "this card has no fp8: an AWQ checkpoint of this model (4-bit, about a quarter of the bytes)"
        if cc >= 6.0:
            return "quantization", "gptq", "this card has no fp8 nor AWQ kernels: a GPTQ checkpoint of this model (4-bit)"
        return "smaller_model", None, "this card runs no quantized kernels of the engine: a smaller model"
    if framework in ("transformers", "pytorch", "other", "deepspeed"):
        if cur and ("4" in cur or cur in ("awq", "gptq", "nf4")):
            return "smaller_model", None, f"the weights are already {cur}"
        if framework == "other":
            # (an engine the log does not name: bitsandbytes is PyTorch's on CUDA, not Neuron's, MLX's, a C++ runtime's)
            return "quantization", None, "a 4-bit build of the model in a format this runtime loads: about a quarter of the 16-bit bytes"
        return "quantization", "bnb-4bit", "4-bit weights (bitsandbytes) need about a quarter of the 16-bit bytes"
    return "quantization", spec_value, ""


def _gguf_file(model: object, quant: str) -> str | None:
    """`-m Qwen2.5-7B-Instruct-Q6_K.gguf` -> the same file name at another quantization."""
    if not isinstance(model, str) or not model.lower().endswith(".gguf") or not _GGUF_TAG.search(model):
        return None
    return _GGUF_TAG.sub(quant, model, count=1)


def _constraints(framework: str, knob: str, value: Value | None, text: str | None, facts: FactSet) -> str | None:
    """Framework rules a setting must keep to be accepted."""
    if text is None or value is None:
        return text
    if framework == "tgi" and knob == "max_num_batched_tokens" and isinstance(value, int):
        # the launcher refuses --max-batch-prefill-tokens below --max-input-tokens (default 4095)
        max_input = facts.number("knob.max_input_tokens") or 4095
        if value < max_input:
            text = f"{text} --max-input-tokens {value} --max-total-tokens {max(value + 1, int(facts.number('knob.max_model_len') or 4096))}"
    return text


def _fill_max_memory(text: str, facts: FactSet) -> str:
    """accelerate's max_memory with this card's and this host's numbers: the GPU's share a little under the card (room
    for the activations and the cache), the CPU's under the host's RAM; left as written where they are not known."""
    total = gpu_total(facts)
    if total:
        text = text.replace(knobs.MAX_MEMORY_GPU, f'"{max(1, math.floor(total / 2**30 * 0.85))}GiB"')
    ram = facts.number("host.cgroup_limit_bytes", "host.ram_total_bytes")
    if ram:
        text = text.replace(knobs.MAX_MEMORY_CPU, f'"cpu": "{max(1, math.floor(ram / 2**30 * 0.8))}GiB"')
    return text


def _as_launcher(launcher: str, framework: str, knob: str, value: Value | None, text: str, note: str,
                 model_file: str | None) -> tuple[str, str]:
    """A setting spelled as the program that runs the engine takes it (KoboldCpp's --gpulayers for llama.cpp's -ngl);
    where it has no spelling of its own, the engine's, said to be the engine's. `model_file`: another GGUF file of the
    model, where the quantization is changed by loading it."""
    if model_file is not None:
        own = knobs.render_launcher(launcher, "model", model_file)
    else:
        own = knobs.render_launcher(launcher, knob, value)
    if own is not None:
        return own.text or text, own.note or note
    engine = knobs.FRAMEWORKS.get(framework, framework)
    return text, "; ".join(x for x in (note, f"{engine}'s own flag: {launcher} may spell it otherwise") if x)


def build(spec: SuggestionSpec, rule_id: str, account: Account, facts: FactSet, framework: str,
          version: str | None) -> Suggestion | None:
    """The suggestion a rule's spec makes here, or None (the framework has no such setting,
    or it is already what the command sets)."""
    knob = knobs.knob_for(framework, spec.knob, facts.number("gpu.count"))
    value = template_value(spec.value, facts) if isinstance(spec.value, str) else spec.value
    why = render_template(spec.why, facts)
    if knob == "cpu_offload" and spec.knob != knob:  # a split over GPUs, with one GPU in sight
        value, why = None, "one GPU: the layers that do not fit it run from CPU RAM (slower), placed by device_map"
    extra = ""
    if knob == "quantization":
        knob, value, extra = _quantization(framework, facts, value)
        if knob is None:
            return None
        if extra:  # what this framework can really do replaces the rule's generic reason
            why, extra = extra, ""
    if value is None and knobs.needs_value(framework, knob, version):
        step = spec.action if spec.action in (Action.LOWER, Action.RAISE) else (
            Action.LOWER if knob in FLOORS else Action.RAISE)
        value, extra = step_value(framework, knob, step, facts)
        if value is None and spec.action is Action.RAISE and knob == "gpu_memory_utilization":
            return None  # already at the top of its range: no step up is left
    value = knobs.framework_value(framework, knob, value)
    current = facts.value(f"knob.{knob}")
    if knob in _ONE_BY_DEFAULT:
        if current is None:
            current = 1  # unset means one GPU: "raise it to 1" is no change
        if spec.action is Action.RAISE and _already(spec.action, value, current):
            # a fit that says the current split suffices contradicts the rule that fired: step up instead
            value, extra = step_value(framework, knob, Action.RAISE, facts)
    if _already(spec.action, value, current):
        return None
    rendered = knobs.render(framework, knob, value, version)
    if rendered is None and framework in knobs.SPELLINGS:
        return None  # the knob does not exist in this framework
    text = rendered.text if rendered else None
    if spec.action is Action.DISABLE and text is not None:
        text = _switched_off(text)
    new_file = None
    if knob == "quantization" and framework == "llamacpp" and isinstance(value, str):
        new_file = _gguf_file(facts.value("knob.model"), value)
        text = f"-m {new_file}" if new_file else None
    text = _constraints(framework, knob, value, text, facts)
    if knob == "cpu_offload" and text is not None:
        text = _fill_max_memory(text, facts)
    note = rendered.note if rendered else ""
    launcher = facts.value("launcher")
    if isinstance(launcher, str) and text is not None:
        text, note = _as_launcher(launcher, framework, knob, value, text, note, new_file)
    if rendered is not None and rendered.text is None:  # advice, not a flag: said once, by whichever says more
        if restates(note, why):
            note = ""
        elif restates(why, note):
            why = ""
    full_why = "; ".join(x for x in (why, extra, note) if x)
    # a method a checkpoint must already carry (AWQ, GPTQ) is a change of model, not a flag a rerun can add
    checkpoint_switch = knob == "quantization" and framework in ("vllm", "sglang", "tgi") and str(value).lower() not in _LOAD_TIME
    return Suggestion(knob=knob, action=spec.action, value=value, flag=text, why=full_why, rule_id=rule_id, account=account,
                      rerunnable=bool(rendered and rendered.rerunnable and text is not None and not checkpoint_switch
                                      and not isinstance(launcher, str)))


_SWITCHED_ON = re.compile(r"(?<=[:=])(?:True|true|1)$|(?<= )on$")
_OFF = {"True": "False", "true": "false", "1": "0", "on": "off"}


def _switched_off(text: str) -> str | None:
    """A setting spelled switched on ("PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True") spelled off; None when
    the spelling has no on-value to flip (a bare flag: turning it off is leaving it out)."""
    m = _SWITCHED_ON.search(text)
    return None if m is None else text[:m.start()] + _OFF[m.group(0)]


def _already(action: Action, value: Value | None, current: Value | None) -> bool:
    """The command already has this (never suggest what is set)."""
    if isinstance(current, bool) and action in (Action.ENABLE, Action.DISABLE):
        return current is (action is Action.ENABLE)
    if value is None or current is None or isinstance(current, bool) != isinstance(value, bool):
        return False
    if isinstance(value, (int, float)) and isinstance(current, (int, float)):
        if action is Action.LOWER:
            return value >= current
        if action is Action.RAISE:
            return value <= current
        return value == current
    return str(value).lower() == str(current).lower()
