"""SGLang, TGI, TensorRT-LLM, LMDeploy, DeepSpeed and ExLlamaV2 messages."""

from __future__ import annotations

import math
import re

from oomdoctor.launch import parse_kwargs
from oomdoctor.parsers.base import CRASH_SIGNALS, MEMORY_WORDS, Emitted, P, Pattern, const, gib, kind

_SGLANG_ARGS = {
    "context_length": "knob.max_model_len",
    "mem_fraction_static": "knob.gpu_memory_utilization",
    "max_running_requests": "knob.max_num_seqs",
    "chunked_prefill_size": "knob.max_num_batched_tokens",
    "max_total_tokens": "knob.max_total_tokens",
    "tp_size": "knob.tensor_parallel_size",
    "pp_size": "knob.pipeline_parallel_size",
    "cuda_graph_max_bs": "knob.cuda_graph_sizes",
    "disable_cuda_graph": "knob.enforce_eager",
    "kv_cache_dtype": "knob.kv_cache_dtype",
    "dtype": "knob.dtype",
    "quantization": "knob.quantization",
    "model_path": "knob.model",
}


def _value(raw: str) -> int | float | bool | str | None:
    raw = raw.strip().strip("'\"")
    if raw in ("None", "null", ""):
        return None
    if raw in ("True", "true"):
        return True
    if raw in ("False", "false"):
        return False
    try:
        return int(raw)
    except ValueError:
        pass
    try:
        return float(raw)
    except ValueError:
        return raw


def _server_args(m: re.Match[str]) -> Emitted:
    yield "_launch", True
    for key, raw in re.findall(r"(\w+)=('[^']*'|\"[^\"]*\"|[^,)\s]+)", m.group(1)):
        fact = _SGLANG_ARGS.get(key)
        value = _value(raw)
        if fact and value is not None and not (isinstance(value, int) and not isinstance(value, bool) and value < 0):
            yield fact, value
    if "cuda_graph_backend_decode" in m.group(1):
        yield "_note", "sglang>=0.5.23 spelling"


_TGI_ARGS = {
    "max_total_tokens": "knob.max_model_len",
    "max_input_tokens": None,
    "max_input_length": None,
    "max_batch_prefill_tokens": "knob.max_num_batched_tokens",
    "max_batch_total_tokens": "knob.max_total_tokens",
    "max_batch_size": "knob.max_num_seqs",
    "num_shard": "knob.tensor_parallel_size",
    "quantize": "knob.quantization",
    "dtype": "knob.dtype",
    "cuda_memory_fraction": "knob.gpu_memory_utilization",
    "kv_cache_dtype": "knob.kv_cache_dtype",
    "model_id": "knob.model",
}


def _capture_failed(m: re.Match[str]) -> Emitted:
    """SGLang's "Capture cuda graph failed: <inner error>" (its advice that follows is always about
    memory): an inner error that names no memory (a kernel's unsupported shape, a compile error) is
    the cause, and not an OOM."""
    inner = m.string[m.end():].strip(" :")
    yield "oom.kind", "capture_error" if inner and not MEMORY_WORDS.search(inner) else "cuda_graph_capture_failed"
    yield "_phase", "cuda_graph_capture"
    if not inner:  # the wrapper's line names no inner error: memory is only its advice's guess
        yield "oom.hint", "capture_reason_unstated"


def _tgi_args(m: re.Match[str]) -> Emitted:
    for key, raw in re.findall(r"(\w+): (?:Some\()?(\"[^\"]*\"|[\w.\-/]+)\)?", m.string):
        fact = _TGI_ARGS.get(key)
        if key in ("quantize", "dtype") and raw != "None":  # Rust enum names -> the launcher's spelling: BitsandbytesFP4 -> bitsandbytes-fp4
            raw = re.sub(r"(?i)^bitsandbytes(nf4|fp4)$", r"bitsandbytes-\1", raw).lower()
        value = _value(raw)
        if fact and value is not None:
            yield fact, value


def _trt_component(m: re.Match[str]) -> Emitted:
    """TensorRT-LLM names the component it could not create: the KV cache, or the executor's
    own extra resources (runtime buffers, CUDA graphs) after the KV pool took its share."""
    name = m.group(1)
    # (the component's name comes first; a note after it may name the KV cache it was sized for:
    # "Additional executor resources (temporary for KV cache size estimation)")
    if "executor resources" in name:
        yield "oom.kind", "trt_executor_resources"
    elif "KV" in name or "kv" in name:
        yield "oom.kind", "trt_kv_component"
    else:
        yield "oom.kind", "trt_oom"
    yield "_phase", "kv_alloc"


# SGLang's scheduler prefix after its timestamp: "... 14:59:00 TP5]", "... DP0 TP3 EP3]" (group 1: the TP rank)
SGLANG_RANK = r"\d\d:\d\d:\d\d(?: DP\d+)? TP(\d+)(?: EP\d+)?\]"


# element sizes of the torch dtypes a KV chunk is printed with (the parsers do not load the memory model)
_TORCH_DTYPE_BYTES = {"float32": 4, "float": 4, "bfloat16": 2, "float16": 2, "half": 2}


def _offload_pool_full(m: re.Match[str]) -> Emitted:
    """LMCache's host (CPU) pool for offloaded KV chunks had no room for one more chunk."""
    yield "oom.kind", "host_pool_full"
    shape = [int(x) for x in re.findall(r"\d+", m.group(1))]
    per = _TORCH_DTYPE_BYTES.get(m.group(2))
    if shape and per:
        yield "oom.requested_bytes", per * math.prod(shape)


def _mistralrs_no_fit(m: re.Match[str]) -> Emitted:
    avail = [float(x) for x in re.findall(r"avail: (\d+(?:\.\d+)?)\s?MB", m.group(1))]
    if avail and not any(avail):
        yield "error.final", "every device reported 0 MB available: the memory query misread the devices, they are not full"
        return
    yield "oom.kind", "weights_load_oom"  # (by how much it exceeds them is no allocation that failed)
    yield "_phase", "load_weights"


PATTERNS: tuple[Pattern, ...] = (
    # ---- mistral.rs's automatic device map: the weights (and the cache for its max sequence length) exceed every
    # device it weighed; devices that all report 0 MB available are a misread memory query, not full ones
    P("mistralrs-no-fit", ("does not fit on the devices",),
      r"does not fit on the devices\s*\[(.{0,600}?)\],? and exceeds total capacity", _mistralrs_no_fit),
    # a serving engine's scheduler logging a failed execution step (and going on): the model was loaded and running
    P("scheduler-step-failed", ("step failed",), r"\b[Ss]cheduler\b.{0,60}\b(?:[Ee]xecution|[Mm]odel|[Ff]orward) step failed",
      const(("_phase", "prefill"))),
    # ---- mistral.rs names the engine step that failed: a prompt's forward pass (prefill) or a decode step
    P("mistralrs-step-failed", ("- Model failed with error",), r"mistralrs_core::engine: (prompt|step|completion) - Model failed with error",
      lambda m: [("_phase", "prefill" if m.group(1) == "prompt" else "decode")]),
    # ---- LMCache, the KV offload connector inside vLLM's workers: its pinned host pool (max_local_cpu_size) is full
    P("lmcache-pool-full", ("because no memory is available",),
      r"Failed to allocate memory for tensor\(torch\.Size\(\[([\d, ]*)\]\), torch\.(\w+)\) because no memory is available", _offload_pool_full),
    # (its cache engine's own wording: "Failed to allocate memory for the KV cache. The KV cache will not be stored."; its
    # allocator's, "LMCache WARNING: Failed to allocate memory block of size 15")
    P("lmcache-store-skipped", ("Failed to allocate memory for the KV cache", "Failed to allocate memory block"),
      r"Failed to allocate memory for the KV cache\.?|\bLMCache\b.{0,60}\bFailed to allocate memory block\b", kind("host_pool_full")),
    # ---- Mooncake's store, a KV cache in host RAM pooled from its clients (vLLM's and SGLang's workers, LMCache): a put it
    # refused for want of room in the segments the clients gave it ("Failed to start put operation: NO_AVAILABLE_HANDLE"),
    # or a client's staging buffer with no room for a chunk ("Failed to allocate buffer for put_parts operation, key: ...,
    # total size: 33554460")
    P("mooncake-store-full", ("NO_AVAILABLE_HANDLE", "Failed to allocate buffer for put"),
      r"Failed to start put operation: NO_AVAILABLE_HANDLE|Failed to allocate buffer for put\w* operation, key: \S+ total size: (\d+)",
      lambda m: [("oom.kind", "host_pool_full"), ("oom.hint", "mooncake_store")]
      + ([("oom.requested_bytes", int(m.group(1)))] if m.group(1) else [])),
    # ---- SGLang
    P("sglang-server-args", ("server_args=", "ServerArgs("), r"ServerArgs\((.*)\)?", _server_args),
    # the scheduler's prefix names its tensor-parallel rank: "[2025-05-29 14:59:00 TP5] ..."
    P("sglang-tp-rank", tuple(f" TP{i}]" for i in range(1, 16)), SGLANG_RANK,
      lambda m: [("_max:parallel.workers", int(m.group(1)) + 1)]),
    # (a paste that kept only its first sentence, "RuntimeError: Not enough memory.", ends the line there)
    P("sglang-not-enough", ("Not enough memory. Please try to increase --mem-fraction-static", "RuntimeError: Not enough memory."),
      r"Not enough memory\. Please try to increase --mem-fraction-static|^RuntimeError: Not enough memory\.\s*$",
      kind("sglang_kv_pool_empty", ("_phase", "kv_alloc"))),
    P("sglang-capture-failed", ("Capture cuda graph failed", "Capture CUDA graph failed"), r"Capture (?:cuda|CUDA) graph failed", _capture_failed),
    P("sglang-runtime-oom", ("out of memory. Try to lower your batch size",), r"(Prefill|Decode) out of memory\. Try to lower your batch size",
      lambda m: [("oom.kind", "kv_runtime_exhausted"), ("_phase", m.group(1).lower())]),
    P("sglang-weights-leave-no-kv", ("leave no GPU memory for the KV cache",), r"Loaded weights leave no GPU memory for the KV cache",
      kind("sglang_kv_pool_empty", ("_phase", "kv_alloc"))),
    P("sglang-leak-check", ("memory leak detected",), r"\w+ memory leak detected", kind("bookkeeping_bug")),
    # a block allocator asked to free a block it has no record of (MindIE's "block_mem_allocation_solver.cpp:63] can't find
    # block: 0x12cfd5eda400, free fail"): its bookkeeping, not a lack of memory
    P("block-free-unknown", ("free fail",), r"can't find block:? 0x[0-9a-fA-F]+,? free fail", kind("bookkeeping_bug")),
    # a traceback through SGLang's KV token-slot allocator, which raises when the pool has no free slots
    P("sglang-kv-slot-frame", ("alloc_token_slots", "alloc_paged_token_slots", "alloc_for_extend", "alloc_for_decode"),
      r"\balloc_(?:paged_)?token_slots\w*|\balloc_for_(?:extend|decode)\b", const(("oom.hint", "kv_slot_alloc"))),
    # the request-slot table (a count, max_running_requests) had no free row: not a failed allocation
    P("sglang-req-slots", ("alloc_req_slots runs out of memory",), r"alloc_req_slots runs out of memory", kind("req_slots_exhausted")),
    P("sglang-current-fraction", ("Current value: mem_fraction_static",), r"Current value: mem_fraction_static=([\d.]+)",
      lambda m: [("knob.gpu_memory_utilization", float(m.group(1)))]),
    P("sglang-try-allocate", ("Try to allocate",), r"Try to allocate (\d+) tokens", lambda m: [("oom.requested_tokens", int(m.group(1)))]),
    P("sglang-available-tokens", ("able tokens:", "able full tokens:"), r"Ava(?:il|li)able (?:full )?tokens: (\d+)", lambda m: [("oom.available_tokens", int(m.group(1)))]),
    P("sglang-retract-oom", ("out of memory happened",), r"(Decode|Prefill) out of memory happened", lambda m: [("oom.kind", "kv_runtime_exhausted"), ("_phase", m.group(1).lower())]),
    # retracting decode requests freed nothing: not even one request fits the KV pool
    P("sglang-no-space-one-request", ("No space left for only one request",), r"No space left for only one request",
      kind("kv_runtime_exhausted", ("_phase", "decode"))),
    P("sglang-retract", ("KV cache pool is full",), r"KV cache pool is full\. Retract requests", const(("oom.hint", "kv_retract"))),
    P("sglang-unbalanced", ("memory capacity is unbalanced",), r"memory capacity is unbalanced", kind("unbalanced_memory", ("_phase", "startup"))),
    P("sglang-kv-fewer", ("fewer than --context-length",), r"KV pool holds (\d+) tokens, fewer than --context-length (\d+)",
      lambda m: [("oom.kind", "kv_capacity"), ("oom.kv_capacity_tokens", int(m.group(1))), ("oom.requested_max_model_len", int(m.group(2)))]),
    P("sglang-pool-none", ("prepare_for_extend",), r"prepare_for_extend", const(("oom.hint", "sglang_prepare_for_extend"))),
    P("sglang-nonetype", ("'NoneType' object has no attribute",), r"'NoneType' object has no attribute", const(("oom.hint", "nonetype"))),
    P("sglang-load-end", ("Load weight end",), r"Load weight end\..*avail mem=([\d.]+) GB(?:, mem usage=([\d.]+) GB)?",
      lambda m: [("mem.free_after_load_bytes", gib(m.group(1)))] + ([("mem.weights_bytes", gib(m.group(2)))] if m.group(2) else [])
      + [(k, v) for k, v in [("knob.dtype", (re.search(r"dtype=torch\.(\w+)", m.string) or [None, None])[1])] if v]
      + [("_phase", "after_load")]),
    # a --max-total-tokens past what the profile left: SGLang takes the profiled count, which is 0 or
    # less when the weights and the reserved share already fill the static budget
    P("sglang-profiled-tokens", ("is larger than the profiled value",), r"max_total_tokens=(\d+) is larger than the profiled value (-?\d+)",
      lambda m: [("knob.max_total_tokens", int(m.group(1))), ("mem.kv_tokens", max(0, int(m.group(2))))]
      + ([("oom.kind", "no_kv_memory"), ("_phase", "kv_alloc")] if int(m.group(2)) <= 0 else [])),
    P("sglang-kv-allocated", ("KV Cache is allocated",), r"KV Cache is allocated\..*#tokens: (\d+), (?:K size: ([\d.]+) GB, V size: ([\d.]+) GB|KV size: ([\d.]+) GB)",
      lambda m: [("mem.kv_tokens", int(m.group(1))),
                 ("mem.kv_cache_bytes", gib(m.group(4)) if m.group(4) else gib(m.group(2)) + gib(m.group(3))), ("_phase", "kv_alloc")]),
    P("sglang-limits", ("max_total_num_tokens=",), r"max_total_num_tokens=(\d+)",
      lambda m: [("mem.kv_tokens", int(m.group(1)))] + [(k, int(v)) for k, v in (
          ("knob.max_num_batched_tokens", (re.search(r"chunked_prefill_size=(\d+)", m.string) or [None, None])[1]),
          ("knob.max_num_seqs", (re.search(r"max_running_requests=(\d+)", m.string) or [None, None])[1]),
          ("knob.max_model_len", (re.search(r"context_len=(\d+)", m.string) or [None, None])[1])) if v]),
    # its pools being made, named in a traceback's frames ("mem_cache/memory_pool.py", line 499, in _init_mamba_pool;
    # model_runner's init_memory_pool): the KV and per-request state pools (not the host pool, memory_pool_host.py)
    P("sglang-pool-frame", ("memory_pool.py", "init_memory_pool", "_init_mamba_pool"),
      r"mem_cache/memory_pool\.py\b|\binit_memory_pool\b|\b_init_mamba_pool\b", const(("_phase", "kv_alloc"))),
    # (SGLang's KV pool made: a failure after it is in what comes after the pool, not in making it)
    P("sglang-pool-end", ("Memory pool end",), r"Memory pool end\.", const(("oom.hint", "kv_pool_made"))),
    # what SGLang says is free at each step ("Memory pool end. avail mem=8.38 GB", "Capture cuda graph begin. ...
    # avail mem=31.31 GB", its capture progress bar's "avail_mem=0.05 GB"): the last one before a failure is the room
    # the failing step had
    P("sglang-avail-mem", ("avail mem=", "avail_mem="), r"\bavail[ _]mem=([\d.]+) GB", lambda m: [("mem.free_stated_bytes", gib(m.group(1)))]),
    P("sglang-capture-begin", ("cuda graph begin", "CUDA graph begin"), r"Capture .*graph begin", const(("_phase", "cuda_graph_capture"))),
    # (the figures in either order: "mem usage=6.19 GB. avail mem=5.24 GB", "avail mem=31.31 GB. mem usage=1.10 GB",
    # 0.5.23's "mem usage=1.47 GB, avail mem=26.13 GB.")
    P("sglang-capture-end", ("cuda graph end", "CUDA graph end"),
      r"Capture .*graph end.*?(?:mem usage=([\d.]+) GB(?:[.,] avail mem=([\d.]+) GB)?|avail mem=([\d.]+) GB[.,] mem usage=([\d.]+) GB)",
      lambda m: [("mem.cuda_graph_bytes", gib(m.group(1) or m.group(4))), ("_phase", "after_capture")]
      + ([("mem.free_after_capture_bytes", gib(m.group(2) or m.group(3)))] if m.group(2) or m.group(3) else [])),
    P("sglang-prefill-batch", ("Prefill batch",), r"Prefill batch\. #new-seq: (\d+), #new-token: (\d+)",
      lambda m: [("mem.prefill_tokens", int(m.group(2))), ("_phase", "prefill")]),
    P("sglang-decode-batch", ("Decode batch",), r"Decode batch\.", const(("_phase", "decode"))),
    P("sglang-ready", ("fired up and ready to roll",), r"fired up and ready to roll", const(("_ready", True))),
    # ---- TGI
    P("tgi-args", ("max_batch_prefill_tokens:", "max_total_tokens:"), r"max_(?:batch_prefill|total)_tokens: ", _tgi_args),
    P("tgi-prefill", ("prefill tokens",), r"Not enough memory to handle (\d+) prefill tokens",
      lambda m: [("oom.kind", "tgi_prefill_oom"), ("oom.prefill_tokens", int(m.group(1))), ("_phase", "warmup")]),
    P("tgi-total", ("total tokens with",), r"Not enough memory to handle (\d+) total tokens with (\d+) prefill tokens",
      lambda m: [("oom.kind", "tgi_total_tokens_oom"), ("oom.total_tokens", int(m.group(1))),
                 ("oom.prefill_tokens", int(m.group(2))), ("_phase", "kv_alloc")]),
    # (the router sets it once the shards' warm-up passed: the weights and the KV cache fitted, serving begins)
    P("tgi-set-total", ("Setting max batch total tokens",), r"Setting max batch total tokens to (\d+)",
      lambda m: [("mem.kv_tokens", int(m.group(1))), ("_ready", True)]),
    # a crash signal (illegal instruction, segfault, arithmetic fault) ended the process; it was not killed for memory
    P("tgi-signal", ("signaled to shutdown with signal",), r"(\w+) process was signaled to shutdown with signal (\d+)",
      lambda m: ([("error.final", f"{m.group(0)} ({CRASH_SIGNALS[m.group(2)]}): the process crashed, it was not killed for memory")]
                 if m.group(2) in CRASH_SIGNALS else
                 [("oom.exit_signal", {"9": "SIGKILL", "7": "SIGBUS"}.get(m.group(2), "signal " + m.group(2))),
                  ("oom.kind", {"9": "killed", "7": "bus_error"}.get(m.group(2), "signaled"))])
      + ([("_phase", "load_weights")] if m.group(1) == "Download" else [])),
    P("tgi-warmup", ("Warmup", "warmup", "Warming up model", "Warm up failed", "warm up failed"),
      r"Method Warmup|Unable to warmup|Warming up model|\bin warmup\b|\.warmup\(|\b[Ww]arm ?up failed\b|\bwarmup error:",
      const(("_phase", "warmup"))),
    # (with nothing after it, the shard printed no error: it was ended from outside, as the OOM killer does)
    P("tgi-shard-start", ("failed to start", "ShardCannotStart"), r"Shard \d+ failed to start(:?\s*$)?|ShardCannotStart",
      lambda m: [("_phase", "load_weights")] + ([("oom.hint", "process_ended")] if m.group(1) is not None else [])),
    # (its server's own words for a step that raised while serving: "Method Prefill encountered an error.")
    P("tgi-generation", ("failed during generation", "Method Prefill encountered", "Method Decode encountered"),
      r"Request failed during generation|Method (Prefill|Decode) encountered an error",
      lambda m: [("_phase", "decode" if m.group(1) == "Decode" else "prefill")]),
    P("tgi-graph-warmup", ("cuda graph warmup failed",), r"Decode cuda graph warmup failed", kind("cuda_graph_capture_failed")),
    P("tgi-prefill-span", ("prefill{", ":prefill"), r"prefill\{", const(("_phase", "prefill"))),
    P("tgi-ready", ("Connected", "Invalidating"), r"\bConnected\b", const(("_ready", True))),
    # ---- TensorRT-LLM
    # its checkpoint converter, reading the Hugging Face weights (onto the GPU unless told otherwise)
    P("trt-convert-frame", ("convert_checkpoint.py",), r"convert_checkpoint\.py\b", const(("oom.hint", "trt_convert"))),
    # (a Windows build spaces its prefix: "[TensorRT-LLM] [ERROR]")
    P("trt-oom", ("out of memory",), r"\[TensorRT-LLM\] ?\[ERROR\].*out of memory|CUDA runtime error in ::cudaMalloc\w*\(.*out of memory",
      lambda m: [("oom.kind", "nccl_oom" if "ipcUtils" in m.string else "trt_oom")]),
    # the runtime's CUDA check on another error ("cudaDeviceGetDefaultMemPool(...): operation not supported"): not a lack of memory
    # (the call's arguments may hold calls of their own: "cudaMemcpyAsync(dst, src.data(), ..., mStream->get()): invalid argument")
    P("trt-cuda-other-error", ("CUDA runtime error in ",), r"\[TensorRT-LLM\] ?\[ERROR\] CUDA runtime error in (\w+)\(.{0,300}?\): (?!out of memory)([a-z][\w ]{2,60})",
      lambda m: [("error.final", f"CUDA runtime error in {m.group(1)}: {m.group(2).strip()}")]),
    P("trt-scratch", ("bytes of scratch space",), r"requires (\d+) bytes of scratch space, but only (\d+) is available",
      lambda m: [("oom.kind", "trt_build_workspace"), ("oom.requested_bytes", int(m.group(1))), ("oom.gpu_free_bytes", int(m.group(2))),
                 ("_phase", "engine_build")]),
    # the builder telling the user to lower its workspace pool ("Try decreasing the workspace size with
    # IBuilderConfig::setMemoryPoolLimit()"): tactics asked for scratch as large as the pool's limit allows, more than the
    # device had (its "Skipping tactic ... due to insufficient memory" lines alone are routine: the builder goes on)
    P("trt-workspace-limit", ("decreasing the workspace size",), r"Try decreasing the workspace size",
      const(("oom.hint", "trt_workspace_limit"), ("oom.hint", "engine_build"), ("_phase", "engine_build"))),
    # (those lines: "[TRT] [W] UNSUPPORTED_STATESkipping tactic 4 due to insufficient memory on requested size of 66048 detected
    # for tactic 0x...": a candidate kernel passed over, the build going on; alone, a notice, not a failure)
    P("trt-tactic-skipped", ("due to insufficient memory",), r"Skipping tactic \S+ due to insufficient memory\b",
      const(("oom.kind", "memory_notice"), ("oom.hint", "engine_build"), ("_phase", "engine_build"))),
    # the builder's own allocation (activations of max_batch_size x max_input_len, tactics) and its end
    P("trt-builder-request", ("Requested amount of GPU memory",), r"Requested amount of GPU memory \((\d+) bytes\) could not be allocated",
      lambda m: [("oom.requested_bytes", int(m.group(1))), ("oom.hint", "engine_build"), ("_phase", "engine_build")]),
    # the builder's own lines: the engine is being built (its weights are placed on the GPU), and
    # the activation memory it planned for the build's maximum shapes; its tactic search skipping a kernel
    # whose workspace does not fit ("Tactic Device request: 172032MB Available: 45623MB") is the build too
    P("trt-builder-lines", ("[BlockAssignment]", "[GraphReduction]", "Global timing cache in use", "Total Activation Memory:",
                            "Tactic Device request:"),
      r"\[BlockAssignment\]|\[GraphReduction\]|Global timing cache in use|Total Activation Memory: (\d+)|Tactic Device request: \d+ ?MB",
      lambda m: [("oom.hint", "engine_build"), ("_phase", "engine_build")] + ([("mem.activation_peak_bytes", int(m.group(1)))] if m.group(1) else [])),
    # its checkpoint conversion (build.py, convert_checkpoint.py) reading the Hugging Face model: that copy is built in host
    # RAM ("[TRT-LLM] [I] Loading HF LLaMA ... from ...", "Loading weights from HF Baichuan v2_13b..."), not on the GPU
    P("trt-hf-load-on-host", ("[TRT-LLM] [I] Loading HF", "[TRT-LLM] [I] Loading weights from HF"),
      r"\[TRT-LLM\] \[I\] Loading (?:HF|weights from HF) \S", const(("oom.hint", "build_loads_on_host"), ("_phase", "load_weights"))),
    # an offline conversion or export run (to ONNX, GGUF, OpenVINO, MNN, MLX, Qualcomm's compiler) reads the checkpoint into
    # host RAM to rewrite it: its load is the host's too ("optimum-cli export openvino ...", "python3 llm_export.py ...",
    # "python builder.py -m google/gemma-2-27b-it ...", "convert_hf_to_gguf.py", "python -m QEfficient.cloud.infer")
    # (and a merge of LoRA weights that LLaMA-Factory runs on the CPU unless export_device says otherwise: "llamafactory-cli
    # export ...", not its older export_model.py, which a run that quantizes on the GPU shares; Hugging Face's exporters
    # naming the framework they trace: "Using framework PyTorch: 2.1.0")
    P("offline-conversion", ("optimum-cli export", "llm_export.py", "builder.py", "onnxruntime_genai.models.builder", "convert_hf_to_gguf",
                             "convert-hf-to-gguf", "convert-pth-to-ggml", "mlx_lm.convert", "QEfficient.cloud", "olive auto-opt", "olive run",
                             "llamafactory-cli export", "Using framework PyTorch: "),
      r"\boptimum-cli export\b|\bllm_export\.py\b|\bbuilder\.py\s+-m\b|\bonnxruntime_genai\.models\.builder\b|"
      r"\bconvert[_-](?:hf[_-]to[_-]gguf|pth[_-]to[_-]ggml)\w*\.py\b|"
      r"\bmlx_lm\.convert\b|\bQEfficient\.cloud\.\w+|\bolive (?:auto-opt|run)\b|"
      r"\bllamafactory-cli export\b|^Using framework PyTorch: \d",
      const(("oom.hint", "build_loads_on_host"))),
    # a post-training quantization or calibration job at work, by its own progress lines (llm-compressor's "| compress |
    # METRIC", GPTQModel's per-layer table "| gptq | 56 | self_attn.k_proj", "Quantizing layer", "collecting calibration
    # activations", AMMO's/ModelOpt's kernels loading, LMDeploy's "lmdeploy lite" AWQ, AutoRound's command or import; not a
    # model named after the tool that quantized it, "Qwen3-8B-W4A16-AutoRound"): it holds the
    # full-precision model and its calibration data, in host RAM for every layer not on the GPU
    P("quantizing-job", ("| compress |", "| gptq ", "Quantizing layer", "quantizing layer", "calibration activations", "ammo_cuda_ext",
                         "lmdeploy lite", "auto_round", "auto-round", "llmcompressor", "LLM Compressor", "quantizing weights", "--qformat"),
      r"\|\s*compress\s*\|\s*METRIC\b|^\S*\s*\|\s*gptq\s*\|\s*\d+\s*\||\b[Qq]uantizing (?:layer|weights)\b|\bcollecting calibration activations\b|"
      r"\bLoading extension ammo_cuda_ext|\blmdeploy lite \w+|(?:\bpython[\d.]* -m |\bfrom |\bimport |^\s*\$?\s*)auto[_-]round\b|\bllmcompressor\b|\bLLM Compressor\b|"
      # (TensorRT-LLM's and ModelOpt's post-training quantization scripts: "python quantize.py ... --qformat int4_awq")
      r"\b(?:quantize|hf_ptq)\.py\b[^\n]*\s--qformat\b",
      const(("oom.hint", "quantizing"))),
    # Unsloth merging LoRA weights into the 16-bit model ("Unsloth: Merging 4bit and LoRA weights to 16bit...", its
    # save.py in the frames): it dequantizes layer by layer and keeps merged layers on the GPU up to a share of the card
    # (maximum_memory_usage) before it moves them to RAM
    P("unsloth-merge", ("and LoRA weights to", "unsloth/save.py", "unsloth\\save.py"),
      r"Merging \w+ and LoRA weights to \d+bit|[/\\]unsloth[/\\]save\.py\b", const(("oom.hint", "merge_gpu_share"))),
    P("trt-build-failed", ("Engine building failed",), r"Engine building failed", const(("oom.hint", "engine_build"), ("_phase", "engine_build"))),
    P("trt-kv-capacity", ("must be large enough to process at least 1 sequence",),
      r"maxTokensInPagedKvCache (?:\((\d+)\) )?must be large enough to process at least 1 sequence",
      lambda m: [("oom.kind", "kv_capacity"), ("_phase", "kv_alloc")] + ([("oom.kv_capacity_tokens", int(m.group(1)))] if m.group(1) else [])),
    P("trt-component", ("could not be created",), r"The following component could not be created: (.+)", _trt_component),
    # the component table under it: the card, what was free, and what each component took (free before / after)
    P("trt-component-total", ("Total GPU memory (GiB)",), r"Total GPU memory \(GiB\): ([\d.]+)",
      lambda m: [("oom.gpu_total_bytes", gib(m.group(1)))]),
    P("trt-component-free", ("before component creation attempt",), r"Free GPU memory before component creation attempt \(GiB\): ([\d.]+)",
      lambda m: [("oom.gpu_free_bytes", gib(m.group(1)))]),
    P("trt-component-row", ("Model: ", "KV cache: "), r"^(Model|KV cache): ([\d.]+) / ([\d.]+)\s*$",
      lambda m: [("mem.weights_bytes" if m.group(1) == "Model" else "mem.kv_cache_bytes", gib(m.group(2)) - gib(m.group(3)))]),
    P("trt-insufficient", ("insufficient GPU memory",), r"Executor creation failed due to insufficient GPU memory", kind("trt_oom")),
    P("trt-engine-load", ("TllmRuntime::TllmRuntime", "GptSession::GptSession", "deserializeCudaEngine"),
      r"TllmRuntime::TllmRuntime|GptSession::GptSession|deserializeCudaEngine", const(("_phase", "load_weights"))),
    P("trt-no-blocks", ("No free blocks left",), r"Can't allocate new blocks\. No free blocks left", kind("kv_runtime_exhausted")),
    # a block-paged KV cache refusing a request's blocks with the count it had left (rtp-llm: "failed to malloc 134 blocks,
    # only 28 blocks left"): the pool, sized at start-up, held less than the running requests needed
    P("kv-blocks-left", ("blocks left", "blocks free", "blocks available", "block left", "block free", "block available"),
      r"(?i)\bfailed to (?:malloc|alloc(?:ate)?) (\d+) blocks?,? (?:but )?only (\d+) blocks? (?:left|free|available)\b",
      lambda m: [("oom.kind", "kv_runtime_exhausted")] if int(m.group(1)) > int(m.group(2)) else []),
    P("trt-kv-tokens", ("tokens in paged KV cache",), r"Using (\d+) tokens in paged KV cache", lambda m: [("mem.kv_tokens", int(m.group(1)))]),
    # the pool it then allocates: "Max tokens in paged KV cache: 117760. Allocating 54022635520 bytes." (2024),
    # "[MemUsageChange] Allocated 69.00 GiB for max tokens in paged KV cache (480000)." (later)
    P("trt-kv-pool", ("Max tokens in paged KV cache:", "for max tokens in paged KV cache"),
      r"Max tokens in paged KV cache: (\d+)\. Allocating (\d+) bytes|Allocated ([\d.]+) GiB for max tokens in paged KV cache \((\d+)\)",
      lambda m: [("mem.kv_tokens", int(m.group(1) or m.group(4))),
                 ("mem.kv_cache_bytes", int(m.group(2)) if m.group(2) else gib(m.group(3))), ("_phase", "kv_alloc")]),
    # the fraction of free memory the pool takes, stated when the default applies
    P("trt-kv-fraction-default", ("kv_cache_free_gpu_mem_fraction is not specified",),
      r"kv_cache_free_gpu_mem_fraction is not specified, will use default value of ([\d.]+)",
      lambda m: [("knob.gpu_memory_utilization", float(m.group(1)))]),
    P("trt-build", ("[MemUsageStats]", "building engine", "Building engine", "[MemUsageChange]", "Peak memory usage of TRT"),
      r"building engine|Building engine|Peak memory usage of TRT", const(("_phase", "engine_build"))),
    # ---- LMDeploy / TurboMind
    P("lmdeploy-kv", ("No enough gpu memory for kv cache",), r"No enough gpu memory for kv cache", kind("lmdeploy_kv_empty", ("_phase", "kv_alloc"))),
    # the PyTorch engine sharding the weights over its ranks ("distribute model parameters.", patch.py's _dist_model): the load
    P("lmdeploy-dist-model", ("distribute model parameters", "_dist_model"), r"distribute model parameters|\b_dist_model\b",
      const(("_phase", "load_weights"))),
    # the PyTorch engine's serving loop (start-up is over: requests are being batched)
    P("lmdeploy-engine-loop", ("Engine loop failed",), r"Engine loop failed with error", const(("_phase", "prefill"))),
    # the PyTorch engine shrinking its prefill budget because a device had too little memory left for it
    # ("device<2> No enough memory. update max_prefill_token_num=4096"): the prefill's activations are what is short
    P("lmdeploy-prefill-shrunk", ("update max_prefill_token_num",), r"No enough memory\. update max_prefill_token_num=(\d+)",
      lambda m: [("oom.hint", "prefill_budget_shrunk"), ("knob.max_num_batched_tokens", int(m.group(1)))]),
    P("lmdeploy-runtime", ("No enough gpu memory for runtime",), r"No enough gpu memory for runtime", kind("lmdeploy_runtime_oom")),
    P("turbomind-oom", ("out of memory",), r"\[TM\]\[ERROR\] CUDA runtime error: out of memory\s*(\S*)",
      lambda m: [("oom.kind", "turbomind_oom")]
      + ([("_phase", "load_weights")] if "memory_utils" in m.group(1) or "Weight" in m.group(1) else [])
      + ([("oom.hint", "turbomind_runtime_allocator")] if "allocator" in m.group(1) else [])),
    # TurboMind's (earlier FasterTransformer's) CUDA check naming a reason other than memory ("[TM][ERROR] CUDA runtime
    # error: invalid argument /lmdeploy/src/turbomind/utils/memory_utils.cu:136"): the call was refused, nothing ran out
    P("turbomind-cuda-other-error", ("[TM][ERROR] CUDA runtime error", "[FT][ERROR] CUDA runtime error"),
      r"\[(TM|FT)\]\[ERROR\] CUDA runtime error: (?!out of memory)([a-z][a-z ]{2,60}?)\s*(?:/\S+|$)",
      lambda m: [("error.final", f"CUDA runtime error: {m.group(2).strip()} ({'TurboMind' if m.group(1) == 'TM' else 'FasterTransformer'}), "
                                 "not out of memory")]),
    P("turbomind-reject", ("RejectInvalidRequests",), r"Skipping invalid infer request for id \d+, code = (\d+)",
      lambda m: [("oom.kind", "turbomind_request_rejected"), ("oom.hint", "turbomind_code_" + m.group(1)), ("_phase", "prefill")]),
    # TurboMind cut the context to what its KV pool holds ("`session_len` truncated to 4928 due to limited KV cache memory")
    P("turbomind-session-truncated", ("due to limited KV cache memory",), r"session_len`? truncated to (\d+) due to limited KV cache memory",
      lambda m: [("oom.kind", "kv_capacity"), ("oom.kv_capacity_tokens", int(m.group(1))), ("_phase", "kv_alloc")]),
    P("turbomind-session-len", ("exceeds session_len", "run out of tokens"), r"exceeds session_len|run out of tokens\. session(?:_id)?=", kind("config_max_len")),
    # exllama's (v1) GPTQ act-order kernel scratch, sized for 2048 tokens at load: a fixed buffer, no allocation
    P("exllama-temp-state", ("temp_state buffer is too small",), r"temp_state buffer is too small", kind("static_plan_overflow")),
    # (and the PyTorch engine's cache sizing: "build CacheEngine with config:CacheConfig(..., cache_max_entry_count=0.5, ...)")
    P("turbomind-config", ("EngineConfig(", "CacheConfig("), r"(?:(?:Turbomind|Pytorch)EngineConfig|build CacheEngine with config:\s*CacheConfig)\((.*)", lambda m: [(f.key, f.value) for f in parse_kwargs(m.group(1))]),
    P("turbomind-blocks", ("max_block_count",), r"max_block_count = (\d+)", lambda m: [("mem.gpu_blocks", int(m.group(1)))]),
    P("turbomind-cache-full", ("cache out of memory",), r"cache out of memory, no request can be admitted", kind("kv_runtime_exhausted")),
    # ---- DeepSpeed
    # DeepSpeed-FastGen (MII) finding its blocked KV cache dry mid-decode: it flushes the cache and recomputes
    P("fastgen-kv-deadlock", ("Resetting KV cache and recomputing",), r"Deadlock detected\. Resetting KV cache and recomputing requests",
      kind("kv_runtime_exhausted", ("_phase", "decode"))),
    # DeepSpeed-Inference's kernels reserving their workspace at the first forward, beside the placed model: it checks free
    # memory against its scratch plus a reserve (100 MiB, 500 MiB where more than 1 GiB is free), prints
    # "Requested:\t104873984" / "Free:\t49217536" / "Total:\t4294443008" and raises "Workspace can't be allocated, no
    # enough memory." (the request is never under 100 MiB, nine digits: the figures are its, wherever the error line is cut)
    P("deepspeed-workspace", ("Workspace can't be allocated",), r"Workspace can't be allocated, not? enough memory",
      kind("ds_workspace_alloc")),
    P("deepspeed-workspace-requested", ("Requested:",), r"^Requested:\s+(\d{9,})\s*$",
      lambda m: [("oom.kind", "ds_workspace_alloc"), ("oom.requested_bytes", int(m.group(1)))]),
    P("deepspeed-workspace-free", ("Free:",), r"^Free:\s+(\d+)\s*$", lambda m: [("oom.gpu_free_bytes", int(m.group(1)))]),
    P("deepspeed-workspace-total", ("Total:",), r"^Total:\s+(\d{9,})\s*$", lambda m: [("oom.gpu_total_bytes", int(m.group(1)))]),
    # its launcher ending the other ranks once one has exited (with an error above, or killed without one)
    P("deepspeed-killing-ranks", ("Killing subprocess",), r"sigkill_handler\]? Killing subprocess \d+", const(("oom.hint", "child_ended"))),
    # torchrun's elastic agent ending the other ranks once one has exited ("Sending process 152 closing signal SIGTERM")
    P("torchrun-closing-ranks", ("closing signal SIG",), r"\bSending process \d+ closing signal SIG(?:TERM|INT)\b", const(("oom.hint", "child_ended"))),
    # ---- ExLlamaV2
    P("exllama-insufficient", ("Insufficient VRAM",), r"Insufficient VRAM (?:in split )?for model and cache", kind("exllama_insufficient_vram", ("_phase", "kv_alloc"))),
    # its loader placing modules over a manual gpu_split: a module's weights plus the device's scratch fit no GPU's share
    P("exllama-split-full", ("Insufficient space in device allocation",), r"Insufficient space in device allocation",
      kind("exllama_split_full", ("_phase", "load_weights"))),
)
