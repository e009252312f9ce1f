"""vLLM: V0 and V1 start-up accounting, the KV-capacity checks, the start-up free-memory
check, the sampler warm-up failure and the config lines."""

from __future__ import annotations

import re

from oomdoctor.launch import parse_kwargs
from oomdoctor.parsers.base import SIZE, Emitted, P, Pattern, const, gib, kind, to_bytes, to_int

def _config(m: re.Match[str]) -> Emitted:
    if "Dumping input data" not in m.string[: m.start()]:
        # one engine start: after a failure, the user's next attempt (V1's dump of a failed step restates the
        # running engine's config: the same attempt)
        yield "_launch", True
    yield "framework.version", m.group(1)
    for f in parse_kwargs(m.group(2)):
        yield f.key, f.value
    ms = re.search(r"max_seq_len=(\d+)", m.group(2))
    if ms:
        yield "knob.max_model_len", int(ms.group(1))
    md = re.search(r"dtype=(?:torch\.)?(\w+)", m.group(2))
    if md:
        yield "knob.dtype", md.group(1)
    mq = re.search(r"quantization=(\w+)", m.group(2))
    if mq and mq.group(1) != "None":
        yield "knob.quantization", mq.group(1)
    mm = re.search(r"model='?([^',\s]+)", m.group(2))
    if mm:
        yield "knob.model", mm.group(1)
        named = [tag.lower() for tag in _QUANT_NAME.findall(mm.group(1))]
        if mq and mq.group(1) == "None" and named:
            # the engine runs a checkpoint named as quantized without quantization: 16-bit weights
            yield "oom.hint", "quantization_unset"
            method = next((tag for tag in named if tag in ("awq", "gptq")), None)
            if method:
                yield "model.name_quantization", method


_QUANT_NAME = re.compile(r"(?i)[-_.](awq|gptq|int4|int8|w4a16|w8a8|w8a16|autoround|bnb|nf4)(?=[-_.]|$)")


def _non_default(m: re.Match[str]) -> Emitted:
    text = re.sub(r"'(\w+)':\s*", r"\1=", m.group(1))
    for f in parse_kwargs(text):
        yield f.key, f.value
    mm = re.search(r"model=\s*'([^']+)'", text)
    if mm:
        yield "knob.model", mm.group(1)


def _v0_budget(m: re.Match[str]) -> Emitted:
    yield "mem.gpu_total_bytes", gib(m.group(1))
    yield "knob.gpu_memory_utilization", float(m.group(2))
    yield "mem.budget_bytes", gib(m.group(3))


def _v0_profile(m: re.Match[str]) -> Emitted:
    text = m.string
    for key, pat in (
        ("mem.weights_bytes", r"model weights take ([\d.]+)\s?GiB"),
        ("mem.non_torch_bytes", r"non_torch_memory takes ([\d.]+)\s?GiB"),
        ("mem.activation_peak_bytes", r"activation peak memory takes ([\d.]+)\s?GiB"),
        ("mem.kv_cache_bytes", r"reserved for KV Cache is (-?[\d.]+)\s?GiB"),
    ):
        mm = re.search(pat, text)
        if mm:
            yield key, gib(mm.group(1))
            if key == "mem.kv_cache_bytes" and float(mm.group(1)) <= 0:
                yield "oom.kind", "no_kv_memory"  # nothing left for KV blocks: the start fails next


def _profiling_results(m: re.Match[str]) -> Emitted:
    # "Memory profiling results: total_gpu_memory=23.58GiB initial_memory_usage=15.34GiB
    #  peak_torch_memory=17.98GiB memory_usage_post_profile=15.35GiB non_torch_memory=0.35GiB
    #  kv_cache_size=2.89GiB gpu_memory_utilization=0.90"
    vals = {k: float(v) for k, v in re.findall(r"(\w+)=([\d.]+)GiB", m.string)}
    if "total_gpu_memory" in vals:
        yield "mem.gpu_total_bytes", gib(str(vals["total_gpu_memory"]))
    if "non_torch_memory" in vals:
        yield "mem.non_torch_bytes", gib(str(vals["non_torch_memory"]))
    if "kv_cache_size" in vals:
        yield "mem.kv_cache_bytes", gib(str(vals["kv_cache_size"]))
    if "peak_torch_memory" in vals:
        yield "_peak_torch_bytes", gib(str(vals["peak_torch_memory"]))
    mu = re.search(r"gpu_memory_utilization=([\d.]+)", m.string)
    if mu:
        yield "knob.gpu_memory_utilization", float(mu.group(1))


def _kv_needed(m: re.Match[str]) -> Emitted:
    yield "oom.kind", "kv_capacity"
    yield "oom.requested_max_model_len", to_int(m.group(1))


def _kv_needed_short(m: re.Match[str]) -> Emitted:
    needed = to_bytes(m.group(1), m.group(2))
    yield "oom.kv_needed_bytes", needed
    if m.group(3):
        available = to_bytes(m.group(3), m.group(4))
        yield "oom.kv_available_bytes", available
        if needed > available:
            yield "oom.kind", "kv_capacity"
            yield "_phase", "kv_alloc"


PATTERNS: tuple[Pattern, ...] = (
    P("vllm-config", ("LLM engine (v",), r"LLM engine \(v([\w.+\-]+)\) with config:(.*)", _config),
    P("vllm-version", ("vLLM API server version", "vLLM version"), r"vLLM (?:API server )?version:? v?([\d][\w.+\-]*)",
      lambda m: [("framework.version", m.group(1))]),
    P("vllm-non-default", ("non-default args",), r"non-default args: \{(.*)\}?", _non_default),
    # KV capacity checks
    # (also as a person retypes it: "maxinum number", "max sew len", the capacity left out)
    P("vllm-v0-kv-capacity", ("stored in KV cache",),
      r"max s\w\w len \((\d[\d,]*)\) is larger than the max\w* number of tokens that can be stored in KV cache(?: \(\s*(\d[\d,]*)\s*\))?",
      lambda m: [("oom.kind", "kv_capacity"), ("oom.requested_max_model_len", to_int(m.group(1)))]
      + ([("oom.kv_capacity_tokens", to_int(m.group(2)))] if m.group(2) else [])),
    P("vllm-v1-kv-capacity", ("To serve at least one request",), r"To serve at least one request with the \w+'?s? max seq len \((\d[\d,]*)\)",
      _kv_needed),
    # (and as a person shortens it: "1.75 GiB KV cache is needed, available 0.13 GiB": the same check, failed)
    P("vllm-v1-kv-needed", ("KV cache is needed",), SIZE + r" KV cache is needed(?:,? available " + SIZE + ")?", _kv_needed_short),
    P("vllm-v1-kv-available", ("available KV cache memory",), r"available KV cache memory \(" + SIZE + r"\)",
      lambda m: [("oom.kv_available_bytes", to_bytes(m.group(1), m.group(2)))]),
    P("vllm-v1-estimate", ("estimated maximum model length",), r"estimated maximum model length is (\d[\d,]*)",
      lambda m: [("oom.max_model_len_estimate", to_int(m.group(1)))]),
    P("vllm-no-cache-blocks", ("No available memory for the cache blocks",), r"No available memory for the cache blocks",
      kind("no_kv_memory", ("_phase", "kv_alloc"))),
    # the same measurement, overridden by hand ("Overriding num_gpu_blocks=0 with num_gpu_blocks_override=256"): the
    # profile left no room for a single block; forcing a count does not make the room
    P("vllm-zero-blocks-overridden", ("with num_gpu_blocks_override",), r"Overriding num_gpu_blocks=0 with num_gpu_blocks_override=\d+",
      kind("no_kv_memory", ("_phase", "kv_alloc"))),
    # sleep mode that released nothing: the memory stays held for the colocated trainer that needs it
    P("vllm-sleep-freed", ("Sleep mode freed",), r"Sleep mode freed ([\d.]+) GiB memory, ([\d.]+) GiB memory is still in use",
      lambda m: [("oom.kind", "sleep_freed_nothing"), ("mem.gpu_used_bytes", gib(m.group(2)))]
      if float(m.group(1)) < 0.1 <= float(m.group(2)) else []),
    # the profile's own sanity check: free memory grew while it measured (another tenant let go): nothing ran out
    P("vllm-profiling-inconsistent", ("Error in memory profiling",), r"Error in memory profiling\. Initial free memory",
      kind("profile_inconsistent", ("_phase", "profile"))),
    P("vllm-free-below-util", ("less than desired GPU memory utilization", "Free memory on device", "< desired"),
      # (wrapped or cut in a paste: "(0.0/22.71 GiB) is less than\n    desired GPU memory utilization ...", read joined; or
      # shortened as a person quotes it: "Free memory on cuda:0 (38.74/121.63 GiB) < desired utilization (0.35, 42.57 GiB)")
      # (or with the spaces dropped: "(0.75/14.57GiB) on startup is less than desired GPU memory utilization(0.4,5.83GiB)")
      r"Free memory on (?:device(?: \S+)?|\S+) \(([\d.]+)/([\d.]+) ?GiB\)(?: on startup)? (?:is less than\s+|<\s*)desired (?:GPU memory )?utilization"
      r"(?: ?\(([\d.]+), ?([\d.]+) ?GiB\))?",
      lambda m: [("oom.kind", "free_below_util"), ("oom.free_at_start_bytes", gib(m.group(1))),
                 ("mem.gpu_total_bytes", gib(m.group(2))), ("_phase", "startup")]
      + ([("oom.util_requested", float(m.group(3))), ("knob.gpu_memory_utilization", float(m.group(3))),
          ("oom.util_requested_bytes", gib(m.group(4)))] if m.group(3) else [])),
    P("vllm-sampler-warmup", ("warming up sampler",), r"out of memory occurred when warming up sampler with (\d+) dummy requests",
      lambda m: [("oom.kind", "sampler_warmup"), ("oom.dummy_requests", int(m.group(1))), ("knob.max_num_seqs", int(m.group(1))),
                 ("_phase", "warmup")]),
    P("vllm-load-failed", ("not enough GPU memory",), r"Failed to load model [-\u2013\u2014] not enough GPU memory",  # a hyphen, or a dash where a paste typeset it
      kind("weights_load_oom", ("_phase", "load_weights"))),
    P("vllm-long-len", ("derived max_model_len",), r"User-specified max_model_len \((\d+)\) is greater than the derived max_model_len",
      kind("config_max_len")),
    # the worker prefix of a multi-GPU engine: "(VllmWorker rank=7 pid=790)", "(VllmWorker TP3 pid=..)", "(Worker_TP1 pid=..)"
    P("vllm-worker-rank", ("VllmWorker rank=", "VllmWorker TP", "Worker_TP"), r"\((?:VllmWorker (?:rank=|TP)|Worker_TP)(\d+)\b",
      lambda m: [("_max:parallel.workers", int(m.group(1)) + 1)]),
    # accounting
    P("vllm-weights-v0", ("Loading model weights took", "Loading weights took"), r"Loading (?:model )?weights took ([\d.]+) ?(GB|GiB|MB)",
      lambda m: [("mem.weights_bytes", int(float(m.group(1)) * (1 << (20 if m.group(2) == "MB" else 30)))), ("_phase", "after_load")]),
    P("vllm-weights-v1", ("Model loading took",), r"Model loading took ([\d.]+) ?(GiB|GB)",
      lambda m: [("mem.weights_bytes", gib(m.group(1))), ("_phase", "after_load")]),
    # (vLLM's forks: Aphrodite's "Total model weights memory usage: 5.36 GiB", then "Profiling peak memory usage...")
    P("fork-weights", ("Total model weights memory usage",), r"Total model weights memory usage: ([\d.]+) ?(GiB|GB)",
      lambda m: [("mem.weights_bytes", gib(m.group(1))), ("_phase", "after_load")]),
    P("vllm-budget-v0", ("x gpu_memory_utilization",),
      r"total_gpu_memory \(([\d.]+)\s?GiB\) x gpu_memory_utilization \(([\d.]+)\) = ([\d.]+)\s?GiB", _v0_budget),
    P("vllm-profile-v0", ("model weights take",), r"model weights take", _v0_profile),
    P("vllm-profile-results", ("Memory profiling results",), r"Memory profiling results", _profiling_results),
    P("vllm-profiling", ("Memory profiling", "profile_run", "determine_num_available_blocks", "determine_available_memory",
                         "_dummy_run", "_dummy_sampler_run", "Profiling peak memory usage"),
      r"Memory profiling takes|Profiling peak memory usage|profile_run|determine_num_available_blocks|determine_available_memory|_dummy_run|_dummy_sampler_run",
      const(("_phase", "profile"))),
    # the profile run's own warning that its dummy multimodal inputs are large (worst case of images/videos)
    P("vllm-profiling-mm", ("used for profiling",), r"sequence length used for profiling .{0,120}multi-?modal",
      const(("_phase", "profile"), ("oom.hint", "multimodal"))),
    # a negative figure: the profile left nothing for the KV cache (the engine fails right after)
    P("vllm-available-kv", ("Available KV cache memory",), r"Available KV cache memory: (-?[\d.]+) GiB",
      lambda m: [("mem.kv_cache_bytes", gib(m.group(1))), ("_phase", "kv_alloc")] if not m.group(1).startswith("-")
      else [("oom.kind", "no_kv_memory"), ("mem.kv_cache_bytes", -gib(m.group(1)[1:])), ("_phase", "kv_alloc")]),
    # the KV pool's size given outright (--kv-cache-memory-bytes): no profile, and gpu_memory_utilization no longer sizes it
    # ("Initial free memory 93.88 GiB, reserved 49.0 GiB memory for KV Cache as specified by kv_cache_memory_bytes config ...")
    P("vllm-kv-bytes-given", ("as specified by kv_cache_memory_bytes",),
      r"reserved ([\d.]+) GiB memory for KV Cache as specified by kv_cache_memory_bytes",
      lambda m: [("mem.kv_cache_bytes", gib(m.group(1))), ("oom.hint", "kv_bytes_given"), ("_phase", "kv_alloc")]),
    # the worker's memory snapshot when it set up its device, before it loaded anything, as a failed check prints it
    # ("init_snapshot = torch_peak=11.17GiB, free_memory=10.93GiB, total_memory=22.05GiB, ..."): what was not free was held already
    P("vllm-init-snapshot", ("init_snapshot",), r"\binit_snapshot\s*=\s*(?:MemorySnapshot\()?.{0,60}?\bfree_memory=([\d.]+)GiB, total_memory=([\d.]+)GiB",
      lambda m: [("mem.gpu_total_bytes", gib(m.group(2))), ("mem.used_at_start_bytes", max(0, gib(m.group(2)) - gib(m.group(1)))),
                 ("_phase", "startup")]),
    # vllm-ascend's start-up check, which passed: "Free memory on device: 23.45 / 43.24 GiB" and "Requested memory:
    # 43.24 * 0.50 = 21.62 GiB": what others held before the engine, and the fraction asked for
    P("vllm-free-at-start", ("Free memory on device: ",), r"Free memory on device: ([\d.]+) / ([\d.]+) GiB",
      lambda m: [("mem.gpu_total_bytes", gib(m.group(2))), ("mem.initial_usage_bytes", max(0, gib(m.group(2)) - gib(m.group(1)))),
                 ("_phase", "startup")]),
    P("vllm-requested-memory", ("Requested memory:",), r"Requested memory:\s+[\d.]+ \* ([\d.]+) = [\d.]+ GiB",
      lambda m: [("knob.gpu_memory_utilization", float(m.group(1)))]),
    # vllm-ascend's worker: "Available memory: 0, total memory: 65452113920" (bytes left for the KV cache after the profile)
    P("vllm-ascend-available", ("Available memory: ",), r"\bAvailable memory: (-?\d+), total memory: (\d+)$",
      lambda m: [("mem.gpu_total_bytes", int(m.group(2))), ("_phase", "kv_alloc")]
      + ([("oom.kind", "no_kv_memory")] if int(m.group(1)) <= 0 else [("mem.kv_cache_bytes", int(m.group(1)))])),
    # V0's CPU swap space (pinned host RAM, swap_space GiB per GPU) being allocated: a failure here is the host's
    P("vllm-cpu-swap-alloc", ("self.cpu_cache = ",), r"self\.cpu_cache = self\._allocate_kv_cache\(", const(("oom.hint", "cpu_swap_alloc"))),
    P("vllm-kv-tokens", ("KV cache size:",), r"(?:GPU|CPU) KV cache size: (\d[\d,]*) tokens",
      lambda m: [("mem.kv_tokens", to_int(m.group(1))), ("_phase", "kv_alloc")]),
    # (0 or fewer: nothing left for KV blocks; 2023's engine printed the negative count and went on to fail)
    # (a paste cut after the GPU count still states it; 2024's executor wrote "# cuda blocks: 1797, # CPU blocks: 2340")
    P("vllm-blocks", ("# GPU blocks", "# CUDA blocks", "# cuda blocks"), r"# (?:GPU|CUDA|cuda) blocks: (-?\d+)(?:, # CPU blocks: (\d+))?",
      lambda m: [("mem.gpu_blocks", max(0, int(m.group(1)))), ("_phase", "kv_alloc")]
      + ([("mem.cpu_blocks", int(m.group(2)))] if m.group(2) else [])
      + ([("oom.kind", "no_kv_memory")] if int(m.group(1)) <= 0 else [])),
    P("vllm-concurrency", ("Maximum concurrency for",), r"Maximum concurrency for (\d[\d,]*) tokens per request: ([\d.]+)x",
      lambda m: [("knob.max_model_len", to_int(m.group(1))), ("mem.max_concurrency", float(m.group(2)))]),
    # (engines in other languages name the step the same way: a Rust backtrace's "ModelRunner::init_kv_cache"; others
    # report the step's progress: Tenstorrent's "Allocating TT kv caches for each layer (submesh 1):  69%")
    P("vllm-kv-phase", ("initialize_cache", "get_kv_cache_config", "kv_cache_utils", "initialize_kv_cache", "_initialize_kv_caches",
                        "check_enough_kv_cache_memory", "init_kv_cache", "kv caches for each layer"),
      r"initialize_cache|get_kv_cache_configs?|check_enough_kv_cache_memory|initialize_kv_cache|_initialize_kv_caches|::init_kv_cache\b|"
      r"^Allocating (?:\w+ ){0,2}kv caches? for each layer",
      const(("_phase", "kv_alloc"))),
    # vllm.rs sizing its pool for the slots and context asked: "Allocating 8192 KV blocks (131072 MB) for [2 seqs x 262144 tokens]"
    P("kv-blocks-for-seqs", ("KV blocks (",), r"Allocating \d+ KV blocks \((\d+) MB\) for \[(\d+) seqs? x (\d+) tokens\]",
      lambda m: [("mem.kv_cache_bytes", int(m.group(1)) << 20), ("knob.max_num_seqs", int(m.group(2))),
                 ("knob.max_model_len", int(m.group(3))), ("_phase", "kv_alloc")]),
    # the model runner's estimate of its CUDA graphs' memory, made in the profile before the KV cache is sized
    # ("Estimated CUDA graph memory: 118.65 GiB total"): it comes off the KV budget
    # (the estimate can come out negative, a profiling fault that hands the KV cache more than the budget)
    P("vllm-graphs-estimate", ("Estimated CUDA graph memory",), r"Estimated CUDA graph memory: (-?[\d.]+) GiB",
      lambda m: [("mem.cuda_graph_estimate_bytes", gib(m.group(1))), ("_phase", "profile")]),
    P("vllm-graphs-took", ("Graph capturing finished",), r"Graph capturing finished in \d+ secs?, took ([\d.]+) GiB",
      lambda m: [("mem.cuda_graph_bytes", gib(m.group(1))), ("_phase", "after_capture")]),
    # (V0's engine asking its workers to "warm_up_model" after the cache is built: that step captures the CUDA graphs,
    # unless --enforce-eager; V1's compile_or_warm_up_model also compiles and warms the sampler)
    P("vllm-v0-warm-up", ("warm_up_model",), r"\bwarm_up_model\b", const(("_phase", "cuda_graph_capture"))),
    P("vllm-warmup", ("warm_up", "warming up", "Warming up", "_warmup"), r"compile_or_warm_up_model|[Ww]arming up|\w+_warmup\b",
      const(("_phase", "warmup"))),
    # (the engine's own "init engine (profile, create kv cache, warmup model) took N seconds": start-up is over)
    # (V0's front end finding its engine dead when a request comes in: it was serving. Not "Added
    # request ...": V0 prints that for every request, and a pattern on it would read every such line;
    # nor the async engine's background loop ending, which it only runs once serving; its anchor is the
    # error's words, not the frame's name "_log_task_completion", a literal that slows the prefilter by a third)
    P("vllm-ready", ("Application startup complete", "Uvicorn running on", "Starting vLLM API server", "init engine (profile",
                     "MQLLMEngine is already dead", "Task finished unexpectedly", "Engine background task failed", "AsyncLLMEngine._error_callback"),
      r"Application startup complete|Uvicorn running on|Starting vLLM API server|init engine \(profile, create kv cache, warmup model\) took|"
      r"MQLLMEngine is already dead|AsyncEngineDeadError: Task finished unexpectedly|Engine background task failed|AsyncLLMEngine\._error_callback",
      const(("_ready", True))),
    # V0's async engine giving up on a step that never returned ("Engine iteration timed out. This should never happen!"):
    # a hang (a collective, a kernel), not a lack of memory
    P("vllm-iteration-timeout", ("Engine iteration timed out",), r"Engine iteration timed out",
      const(("error.final", "Engine iteration timed out: the engine's step hung, it did not run out of memory"))),
    # V0's scheduler ignoring a prompt over its limit, "Input prompt (2715 tokens) is too long and exceeds limit of 2560": the
    # smaller of max_model_len and max_num_batched_tokens (2560 by default in early releases; with chunked prefill off
    # since, and forced to 2048 for long contexts in some), a length check, not memory
    P("vllm-prompt-limit", ("is too long and exceeds limit of",), r"Input prompt \((\d+) tokens\) is too long and exceeds limit of (\d+)",
      lambda m: [("oom.kind", "request_over_context"), ("mem.prefill_tokens", int(m.group(1))), ("oom.hint", "scheduler_prompt_limit")]),
    # the engine waited on its workers' message queue (a hang, or a long load or compile): it names shared
    # memory, but is no /dev/shm shortage and no out-of-memory
    # (0.5.x wrote "shm_broadcast.py:394] No available block found in 60 second.")
    P("vllm-shm-broadcast-wait", ("shared memory broadcast block", "shm_broadcast.py:"),
      # (a paste may cut the line: "No available shared memory broadcast block found in 60 seco")
      r"No available shared memory broadcast block found in \d+ sec|shm_broadcast\.py:\d+\]? No available block found in \d+ sec",
      const(("oom.hint", "workers_busy"))),
    # (V1 dumps the scheduled batch only when a scheduled step raised: "Dumping input data for V1 LLM engine")
    P("vllm-model-execution", ("Error in model execution", "execute_model", "busy_loop", "Dumping input data"),
      r"Error in model execution|execute_model|worker_busy_loop|run_busy_loop|Dumping input data for V1", const(("_phase", "prefill"))),
    # V0's wrapper of every model step, the start-up profile run's included: a step, not proof of serving
    P("vllm-v0-step-wrapper", ("Error in model execution (input dumped",), r"Error in model execution \(input dumped",
      const(("oom.hint", "model_step_wrapper"))),
    # the sampler's and the logits processor's frames (vLLM, SGLang): buffers of sequences x vocabulary
    P("vllm-sampler-frames", ("sampler", "logits.sort", "log_softmax", "compute_logprobs", "_dummy_sampler_run", "logits_processor",
                              "_get_logits", "apply_top_k_top_p", "top_k_top_p_sampling", "sampling.py"),
      r"topk_topp_sampler|sampler\.py|flashinfer[/\\]sampling\.py|\btop_k_top_p_sampling\w*|logits\.sort\(|log_softmax\(|compute_logprobs|apply_top_k_top_p|_dummy_sampler_run|"
      r"logits_processor\.py|\b_get_logits\b",
      const(("oom.hint", "sampler_logits"))),
    # a frame that allocates an attention kernel's workspace ("flashinfer.py", line 753, in _get_workspace_buffer): the
    # failed request is the kernel's scratch, taken at its first use from what the engine's reserved share left
    P("workspace-frame", ("workspace",), r"\.py\"?, line \d+, in _?\w*workspace\w*\b", const(("oom.hint", "op_workspace"))),
    P("vllm-model-init", ("Parameter(torch.empty", "initialize_model", "_initialize_model", "get_model("),
      r"Parameter\(torch\.empty|_?initialize_model\b|\bget_model\(", const(("_phase", "load_weights"))),
    # a fixed workspace outgrown: FlashInfer's, or vLLM's own, locked after the warm-up sized it
    # (FlashInfer's older wording, misspelled as printed: "Out of workspace memory in AlignedAlloactor")
    # (the overflow line names the buffer; "Increase the workspace buffer size" may follow lines later)
    # (and the overflow's second half, where a paste shortened the first: "... only 0 bytes available in AlignedAllocator")
    P("flashinfer-workspace", ("Buffer overflow when allocating memory for", "Workspace is locked but allocation", "Out of workspace memory in Aligned",
                               "available in AlignedAllocator"),
      r"Buffer overflow when allocating memory for \w+|Workspace is locked but allocation from|"
      r"Out of workspace memory in AlignedAllo\w*|\bbytes available in AlignedAllocator\b",
      kind("workspace_overflow")),
    P("vllm-swap-warning", ("too large swap space",), r"Possibly too large swap space\. ([\d.]+) GiB out of the ([\d.]+) GiB total CPU",
      lambda m: [("knob.swap_space", float(m.group(1))), ("oom.hint", "swap_space_large"),
                 ("host.ram_total_bytes", int(float(m.group(2)) * (1 << 30)))]),
)
