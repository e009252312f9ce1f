"""PyTorch / CUDA messages shared by every Python framework: all historical phrasings of
the CUDA OOM message, the cudaMallocAsync variant, cuBLAS handle failures, and the
traceback frames that reveal the phase."""

from __future__ import annotations

import re

from oomdoctor.parsers import detect
from oomdoctor.parsers.base import CUBLAS_STATUS, SIZE, TORCH_CUDA_ADVICE, Emitted, P, Pattern, const, kind, to_bytes


def _sz(m: re.Match[str], i: int) -> int:
    return to_bytes(m.group(i), m.group(i + 1))


def _report(m: re.Match[str], allocated: int, free: int, reserved: int) -> Emitted:
    """The caching allocator's report, its fields by group number (a field a cut message lost is None):
    the device, the card's capacity, what PyTorch allocated, what was free and what it reserved."""
    yield "oom.device", m.group(1)
    yield "oom.gpu_total_bytes", _sz(m, 2)
    if m.group(allocated) is not None:
        yield "oom.torch_allocated_bytes", _sz(m, allocated)
    if m.group(free) is not None:
        yield "oom.gpu_free_bytes", _sz(m, free)
    if m.group(reserved) is not None:
        yield "oom.torch_reserved_bytes", _sz(m, reserved)
        if m.group(allocated) is not None:
            yield "oom.torch_unallocated_bytes", max(0, _sz(m, reserved) - _sz(m, allocated))


def _old_format(m: re.Match[str]) -> Emitted:
    # (GPU 0; 15.99 GiB total capacity; 15.09 GiB already allocated; [4.2 GiB current active;]
    #  0 bytes free; [22.20 GiB allowed;] 15.14 GiB reserved in total by PyTorch)
    # groups: 1 device, 2 total, 4 allocated, 6 current active (NPU), 8 free, 10 allowed, 12 reserved, 14 cached
    # (cut after the capacity, after "already allocated" or after "free": the fields it still has)
    yield from _report(m, allocated=4, free=8, reserved=12)
    if m.group(10):
        yield "oom.gpu_limit_bytes", _sz(m, 10)
    # (PyTorch 1.0-1.3 ended with "4.25 MiB cached)": what its cache held beyond the allocated, the reserved less the allocated)
    if m.group(14):
        yield "oom.torch_reserved_bytes", _sz(m, 4) + _sz(m, 14)
        yield "oom.torch_unallocated_bytes", _sz(m, 14)


OLD = (
    r"\((?:GPU|NPU|XPU)\s+(\d+); " + SIZE + r" total capacity(?:; " + SIZE + r" already allocated(?:; (?:" + SIZE + r" current active; )?"
    + SIZE + r" free(?:;(?: " + SIZE + r" allowed;)? (?:" + SIZE + r" reserved in total by PyTorch|" + SIZE + r" cached)\))?)?)?"
)

NAMED_FIRST = (
    r"\((?:GPU|NPU|XPU)\s+(\d+); total capacity " + SIZE + r"(?:; (?:already )?allocated " + SIZE + r")?(?:; current(?:ly)? active " + SIZE + r")?"
    r"(?:; free " + SIZE + r")?(?:; (?:PyTorch has reserved a total of|reserved in total by PyTorch) " + SIZE + r")?"
)


def _named_first(m: re.Match[str]) -> Emitted:
    # groups: 1 device, 2 total, 4 allocated, 6 current active, 8 free, 10 reserved
    yield from _report(m, allocated=4, free=8, reserved=10)


# the sizes of an expandable segment's failed mapping: "map 20971520 bytes (free: 20578304, total: 25272516608)"
_MAP_SIZES = r"map (\d+) bytes \(free: (\d+), total: (\d+)\)"


def _map_sizes(m: re.Match[str], first: int) -> list[tuple[str, int]]:
    """The request, free and total bytes of _MAP_SIZES, its groups from `first` on (none when it did not match)."""
    if m.group(first) is None:
        return []
    keys = ("oom.requested_bytes", "oom.gpu_free_bytes", "oom.gpu_total_bytes")
    return [(k, int(m.group(first + i))) for i, k in enumerate(keys)]


# a serving engine's step named by its forward function: a decode step ("forward_decode", SGLang's
# "forward_decode_batch"), or a prompt's pass ("forward_extend", "forward_prefill")
_STEP_KIND = re.compile(r"^forward_(?:(decode)|extend|prefill)")


def _forward_step(m: re.Match[str]) -> Emitted:
    step = _STEP_KIND.match(m.group(0))
    yield "_phase", "forward" if step is None else "decode" if step.group(1) else "prefill"


def _mps_figures(allocated: int, other: int, cap: int) -> Emitted:
    yield "oom.torch_allocated_bytes", allocated
    yield "oom.gpu_total_bytes", cap
    yield "oom.process_bytes", allocated + other
    yield "oom.gpu_free_bytes", max(0, cap - allocated - other)
    yield "gpu.backend", "mps"


# a progress bar's name that is no pass over inputs: loading, fetching, saving or preparing (the shards, the files, a
# merge, a dataset's map), or none at all (a bare bar may be any of those)
_NOT_A_PASS = re.compile(r"(?i)load|shard|checkpoint|download|fetch|captur|compil|warm|convert|quantiz|calibrat|tokeniz|map\b|"
                         r"filter|extract|sav|writ|merg|upload|resolv|index|prepar|split|files")
_BAR_NAME = re.compile(r"\s*[^\s\d|]")


def _loop_progress(m: re.Match[str]) -> Emitted:
    name = m.string[:m.start()]
    if _BAR_NAME.match(name) and not _NOT_A_PASS.search(name):
        yield "_phase", "forward"


PATTERNS: tuple[Pattern, ...] = (
    P("torch-oom", ("out of memory",), r"(?:CUDA|HIP|XPU|MPS|NPU)(?: backend)? out of memory",
      lambda m: [("oom.kind", "torch_oom")] + ([("gpu.backend", "sycl")] if m.group(0).startswith("XPU") else [])),
    # Apple's MPS allocator: what it holds, what else, and the cap (the high-watermark share of unified memory)
    # ("other allocations" is the process's Metal memory outside PyTorch's allocator, its graphs and command buffers: held,
    # not free, so the process holds both and the cap has what is left)
    P("torch-mps-figures", ("MPS allocated:",),
      r"MPS allocated: " + SIZE + r", other allocations: " + SIZE + r", max allowed: " + SIZE,
      lambda m: _mps_figures(to_bytes(m.group(1), m.group(2)), to_bytes(m.group(3), m.group(4)), to_bytes(m.group(5), m.group(6)))),
    # the exception's name alone (a message cut after it; its wording in a later line); not the name quoted by another
    # error ("module 'torch.cuda' has no attribute 'OutOfMemoryError'": a handler written for a newer PyTorch), nor a JVM's
    # ("java.lang.OutOfMemoryError: Java heap space": the host's, read with the stated out-of-memory lines)
    P("torch-oom-bare", ("OutOfMemoryError",), r"(?<!exceptions\.)(?<!')(?<!java\.lang\.)OutOfMemoryError(?!: Task was killed)(?!: container killed)(?!')", kind("torch_oom")),
    P("torch-oom-name-missing", ("'OutOfMemoryError'",), r"\b(AttributeError|ImportError): [^\n]*'OutOfMemoryError'",
      lambda m: [("error.final", f"{m.group(1)} on the name OutOfMemoryError: an out-of-memory handler written for a newer "
                                 "PyTorch, raised while it handled another error, which it hides")]),
    # the caching allocator's OOM report asks NVML for the processes on the GPU; on a MIG slice or a
    # Jetson NVML refuses, and this assertion replaces the out-of-memory message (pytorch#112377); in PyTorch 2.1 the same
    # report first loads the driver's API, and where libcuda.so.1 cannot be found by that name (WSL2, some containers) its
    # check fails instead: 'handle_0 INTERNAL ASSERT FAILED at "../c10/cuda/driver_api.cpp":15'
    P("torch-nvml-assert", ("INTERNAL ASSERT FAILED",),
      r"NVML_SUCCESS == r INTERNAL ASSERT FAILED|\bhandle_0 INTERNAL ASSERT FAILED at \"[^\"]*c10/cuda/driver_api\.cpp\"",
      kind("torch_oom", ("oom.hint", "nvml_assert"))),
    # any other check of the caching allocator's own bookkeeping ("captures_underway.empty()", "use_count > 0"):
    # its state went wrong (graph capture, pools shared across streams), a PyTorch bug, not a lack of memory
    P("torch-allocator-assert", ("INTERNAL ASSERT FAILED",),
      r"(?<![=<>!] )\b(?!NVML_SUCCESS\b)(\S+(?: [<>=!]=? \S+)?) INTERNAL ASSERT FAILED at \"[^\"]*CUDACachingAllocator\.cpp\"",
      lambda m: [("error.final", f"the caching allocator's own check failed ({m.group(1)}): its bookkeeping went wrong "
                                 "(a PyTorch bug, often with graph capture or memory pools), not a lack of memory")]),
    P("torch-tried", ("Tried to allocate",), r"Tried to allocate (?:more than )?" + SIZE,
      lambda m: [("oom.requested_bytes", _sz(m, 1))]),
    P("torch-old-fields", ("total capacity;",), OLD, _old_format),
    # the report's end where a paste keeps only its last lines: the advice it closes with ("If reserved memory is >> allocated
    # memory try setting max_split_size_mb", since 2.1 "If reserved but unallocated memory is large try setting
    # PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True"), which no other message prints, the failure where no line names one
    # (below a whole report it is that report's), and the old report's last fields cut from their head ("allocated; 0 bytes
    # free; 7.13 GiB reserved in total by PyTorch)")
    P("torch-oom-advice", ("If reserved memory is >> allocated", "If reserved but unallocated memory is large"),
      r"If reserved memory is >> allocated memory try setting(?: max_split_size_mb|\s*$)|If reserved but unallocated memory is large try setting",
      const(("_failure_tail", "torch_oom"))),
    P("torch-old-tail", ("reserved in total by PyTorch)",), r"^\W*allocated; " + SIZE + r" free; " + SIZE + r" reserved in total by PyTorch\)",
      lambda m: [("oom.gpu_free_bytes", _sz(m, 1)), ("oom.torch_reserved_bytes", _sz(m, 3))]),
    # the same report with each field's name before its number, as torch_npu's message reads translated: "NPU memory
    # is insufficient. Attempting to allocate 386.00 MiB (NPU 1; total capacity 29.49 GiB; allocated 28.90 GiB;
    # currently active 28.90 GiB; free 171.96 MiB; PyTorch has reserved a total of 28.95 GiB)"
    # (not TensorRT's "Device memory is insufficient to use tactic": a warning that it skips one)
    P("torch-insufficient", ("memory is insufficient",), r"\b(?:GPU|NPU|XPU|CUDA|[Dd]evice) memory is insufficient\.?\s+Attempting to allocate", kind("torch_oom")),
    P("torch-attempting", ("Attempting to allocate",), r"Attempting to allocate " + SIZE + r" \((?:GPU|NPU|XPU)\b",
      lambda m: [("oom.requested_bytes", _sz(m, 1))]),
    P("torch-named-fields", ("; total capacity ",), NAMED_FIRST, _named_first),
    # torch_npu's workspace allocator (an operator's scratch, outside the tensors' pool) refusing its request:
    # "NPUWorkspaceAllocator tried to allocate 187.54 MiB(NPU 0; 60.96 GiB total capacity; 61.91 MiB free)"
    P("npu-workspace", ("NPUWorkspaceAllocator tried to allocate",),
      r"NPUWorkspaceAllocator tried to allocate " + SIZE + r"\s*\(NPU (\d+); " + SIZE + r" total capacity; " + SIZE + r" free\)",
      lambda m: [("oom.kind", "torch_oom"), ("oom.hint", "op_workspace"), ("gpu.backend", "npu"), ("oom.requested_bytes", _sz(m, 1)), ("oom.device", m.group(3)),
                 ("oom.gpu_total_bytes", _sz(m, 4)), ("oom.gpu_free_bytes", _sz(m, 6))]),
    # MindSpore's device allocator refusing a request past the card: "TotalUsedMemStatistics : 29356337664 plus
    # TotalUsedByEventMemStatistics : 0 and plus alloc size : 301990400 is more than total mem size : 29464985600"
    P("mindspore-alloc-over-total", ("is more than total mem size",),
      r"TotalUsedMemStatistics : (\d+) plus TotalUsedByEventMemStatistics : (\d+) and plus alloc size : (\d+) is more than total mem size : (\d+)",
      lambda m: [("oom.kind", "torch_oom"), ("oom.torch_allocated_bytes", int(m.group(1)) + int(m.group(2))), ("oom.requested_bytes", int(m.group(3))),
                 ("oom.gpu_total_bytes", int(m.group(4))), ("oom.gpu_free_bytes", max(0, int(m.group(4)) - int(m.group(1)) - int(m.group(2))))]),
    # the message's body without its head (a paste or an excerpt starting at "Tried to allocate"): the
    # request followed by the device's capacity is the caching allocator's out-of-memory report
    # (or the request alone on its line, as a report quotes the message: "Tried to allocate 31.50 GiB")
    P("torch-oom-body", ("Tried to allocate",), r"Tried to allocate (?:more than )?" + SIZE + r"(?: \(|\. )(?:GPU|NPU|XPU) ?\d*(?:; " + SIZE + r"| has a) total capac|"
      r"^\s*Tried to allocate (?:more than )?" + SIZE + r"\.?\s*$",
      kind("torch_oom")),
    # some builds print no device number ("GPU  has a total capacity")
    # (a line cut after the capacity still states it; one cut after "is" still states what was free: "of which 3.79 GiB is")
    P("torch-new-capacity", ("total capac",), r"GPU (\d*) ?has a total capac\w* of " + SIZE + r"(?: of which " + SIZE + r" is(?: free|\s*$))?",
      lambda m: ([("oom.device", m.group(1))] if m.group(1) else []) + [("oom.gpu_total_bytes", _sz(m, 2))]
      + ([("oom.gpu_free_bytes", _sz(m, 4))] if m.group(4) else [])),
    # the share of the card the process may use, where one was set (torch.cuda.set_per_process_memory_fraction, TGI's
    # --cuda-memory-fraction), after the free figure and the processes: "of which 21.22 GiB is free. 1.05 GiB allowed;"
    # (the older report's "; 22.20 GiB allowed;" is read with its other fields)
    P("torch-new-allowed", ("allowed;",), r"(?:^\W*|\bis free\.\s+|\bmemory in use\.\s+)" + SIZE + r" allowed;",
      lambda m: [("oom.gpu_limit_bytes", _sz(m, 1))]),
    P("torch-process", ("memory in use",), r"Process (\d+) has " + SIZE + r" memory in use",
      lambda m: [("_process", f"{m.group(1)}:{_sz(m, 2)}")], repeat=True),
    # (a process that holds PyTorch's tensors holds more than 0 bytes: "this process has 0 bytes memory in
    # use" is NVML not seeing the process, in a container or under WSL, and says nothing)
    # (a paste that shortens it: "... this process has 20.67 GiB in use.")
    # (nor does 17179869184.00 GiB, 2**64 bytes: NVML's -1 read as unsigned, under WSL)
    P("torch-this-process", ("this process has",), r"this process has " + SIZE + r" (?:memory )?in use",
      lambda m: [("oom.process_bytes", _sz(m, 1))] if 0 < _sz(m, 1) < 1 << 60 else []),
    # (also on a line cut before "Of the allocated memory")
    P("torch-allocated", ("allocated by PyTorch",), r"(?:Of the allocated memory |^\W*)" + SIZE + r" is allocated by PyTorch",
      lambda m: [("oom.torch_allocated_bytes", _sz(m, 1))]),
    P("torch-private-pools", ("private pools",), SIZE + r" allocated in private pools",
      lambda m: [("oom.private_pool_bytes", _sz(m, 1))]),
    P("torch-unallocated", ("but unallocated",), SIZE + r" is reserved by PyTorch but unallocated",
      lambda m: [("oom.torch_unallocated_bytes", _sz(m, 1))]),
    # cudaMallocAsync backend (TGI with a memory fraction); fields may share one line with "\n".
    # (ComfyUI, which runs this backend, prints only the message's first words: "!!! Exception during processing !!! Allocation on device")
    P("torch-async", ("would exceed allowed memory", "Allocation on device"),
      r"Allocation on device (\d+) would exceed allowed memory|Exception during processing !+ Allocation on device\s*$",
      lambda m: [("oom.kind", "torch_oom"), ("oom.hint", "async_allocator")] + ([("oom.device", m.group(1))] if m.group(1) else [])),
    P("torch-async-allocated", ("Currently allocated",), r"Currently allocated\s*:\s*" + SIZE,
      lambda m: [("oom.torch_allocated_bytes", _sz(m, 1))]),
    P("torch-async-requested", ("Requested",), r"Requested\s*:\s*" + SIZE, lambda m: [("oom.requested_bytes", _sz(m, 1))]),
    P("torch-async-limit", ("Device limit",), r"Device limit\s*:\s*" + SIZE, lambda m: [("oom.gpu_limit_bytes", _sz(m, 1))]),
    P("torch-async-free", ("Free (according to CUDA)",), r"Free \(according to CUDA\)\s*:\s*" + SIZE,
      lambda m: [("oom.gpu_free_bytes", _sz(m, 1))]),
    P("torch-fraction-reject", ("per_process_memory_fraction",), r"preemptively rejected because it would exceed per_process_memory_fraction",
      kind("torch_oom")),
    P("cuda-error-oom", ("out of memory", "cudaErrorMemoryAllocation", "CUDA_ERROR_OUT_OF_MEMORY"),
      # (PyTorch's own advice after it, "CUDA kernel errors might be asynchronously reported", where the exception name was cut)
      r"(?:RuntimeError|torch\.\w+Error|\w+Error): CUDA (?:driver )?[Ee]rror: out of memory|CUDA Error: out of memory|cudaErrorMemoryAllocation|(?<!on host: )CUDA_ERROR_OUT_OF_MEMORY"
      r"|CUDA error: out of memory(?=" + TORCH_CUDA_ADVICE + ")",
      kind("cuda_error_oom")),
    # a captured CUDA graph that could not be launched (replayed) for lack of memory: the graphs' own memory
    P("graph-replay", ("cuGraphLaunch", "cudaGraphLaunch", "CUDA Graph launch failed", "replaying graph"),
      r"cuGraphLaunch failed|cudaGraphLaunch|CUDA Graph launch failed|[Ee]rror when replaying graph", const(("oom.hint", "graph_replay"))),
    # the caching allocator's expandable segments failing to map another page range (the message wraps after "to"):
    # the request, and the card's free and total bytes
    P("expandable-map-oom", ("memory mapping failed with OOM",),
      r"expandable_segments: memory mapping failed with OOM on device (\d+)(?:.*?" + _MAP_SIZES + ")?",
      lambda m: [("oom.kind", "cuda_error_oom"), ("oom.device", m.group(1))] + _map_sizes(m, 2)),
    P("expandable-map-sizes", ("bytes (free: ",), "^" + _MAP_SIZES, lambda m: _map_sizes(m, 1)),
    P("cumem-oom", ("out of memory",), r"CUDA Error: out of memory at \S*cumem", kind("cuda_error_oom", ("oom.hint", "sleep_wake"))),
    P("sleep-wake", ("wake_up",), r"\bwake_up\b", const(("oom.hint", "sleep_wake"))),
    # (NOT_INITIALIZED: cublasCreate failed for any reason, memory among them; ALLOC_FAILED names the allocation)
    # (a status that names another cause, the GPU or the build lacking the kernel, a bad argument: not memory)
    P("cublas-alloc", ("CUBLAS_STATUS_",), r"CUBLAS_STATUS_(ALLOC_FAILED|NOT_INITIALIZED|NOT_SUPPORTED|ARCH_MISMATCH|INVALID_VALUE)\b",
      lambda m: [("error.final", f"cuBLAS returned {m.group(0)}: the GPU or the build does not support the call, not memory")]
      if m.group(1) in ("NOT_SUPPORTED", "ARCH_MISMATCH", "INVALID_VALUE") else
      [("oom.kind", "cublas_alloc_failed")] + ([("oom.hint", "cublas_not_initialized")] if m.group(1) == "NOT_INITIALIZED" else [])),
    # bitsandbytes' int8 matmul reporting cuBLASLt's status before "cublasLt ran into an error!" (15: the GPU or the build
    # does not support the int8 kernel)
    P("bnb-cublas-status", ("cuBLAS API failed with status",), r"cuBLAS API failed with status (\d+)",
      lambda m: [("error.final", f"{m.group(0)} ({CUBLAS_STATUS[m.group(1)]})")] if m.group(1) in CUBLAS_STATUS else []),
    # Triton's driver call failing for memory (a kernel's module load, the autotuner's benchmark buffers):
    # runtime memory outside the model's tensors
    P("triton-oom", ("Triton Error [CUDA]: out of memory",), r"Triton Error \[CUDA\]: out of memory", const(("oom.hint", "triton"))),
    # (TGI's and LoRAX's warm-up builds the paged cache in set_cache_manager / CacheManager(...))
    # (transformers 5 allocates a static cache's layers at their first update: "cache_utils.py", line N, in
    # lazy_initialization", and a dynamic cache grows in its update's torch.cat)
    P("ph-cache-alloc", ("create_state_tensors", "Cache(", "setup_caches", "init_cache", "allocate_kv_cache", "set_cache_manager", "CacheManager(",
                         "cache_utils.py"),
      r"create_state_tensors|ExLlamaV2Cache\w*\(|(?:Static|Hybrid|Offloaded)Cache\(|setup_caches|_?init_cache\b|_?allocate_kv_cache|"
      r"\bset_cache_manager\b|\bCacheManager\(|\bcache_utils\.py\", line \d+, in (?:lazy_initialization|update|__init__)\b",
      const(("_phase", "kv_alloc"))),
    # a traceback's own code line allocating a cache's key/value store ("self.value_buffer = [torch.empty((size, head_num,
    # head_dim), ...", "p_value_states = torch.zeros(self.shape_wv, ..."): the KV cache being created
    # (or opening the list its comprehension fills on the next lines: "self.kv_cache = [")
    P("kv-store-statement", ("torch.empty(", "torch.zeros(", "cache = [", "buffer = [", "buffers = [", "states = [", "pool = ["),
      r"\b\w*(?:key|value|kv|k|v)_(?:buffers?|cache|states|pool)\w*\s*=\s*(?:\[?\s*torch\.(?:empty|zeros)\(|\[\s*$)", const(("_phase", "kv_alloc"))),
    P("pinned-host", ("pin_memory=True", "pinned memory", "cudaHostAlloc", "pin_memory()"),
      r"pin_memory=True|pin_memory\(\)|pinned memory|cudaHostAlloc", const(("oom.hint", "pinned_host"))),
    # a traceback's own code line copying to the host with non_blocking=True: the copy's destination
    # is a pinned buffer it allocates there (the frame that failed, not a setting mentioned somewhere)
    P("pinned-copy-frame", ("non_blocking",), r"\.to\(\s*\\?[\"']cpu\\?[\"']\s*,\s*non_blocking\s*=\s*True",
      const(("oom.hint", "pinned_host"), ("oom.hint", "pinned_copy"))),
    # (or a frame whose function moves tensors to the host: "in _to_cpu", "in offload_to_cpu", or pins a host buffer:
    # torch's "storage.py ... in pin_memory": a CUDA error there is the host-side buffer, not the device)
    P("to-cpu-frame", ("to_cpu", "in pin_memory"), r"^\s*File \S.*, line \d+, in (?:\w*_?to_cpu|pin_memory)\s*$",
      const(("oom.hint", "pinned_host"), ("oom.hint", "pinned_copy"))),
    # (a frame in a host-side KV pool's own module, SGLang's HiCache "mem_cache/memory_pool_host.py": it allocates
    # its buffers pinned)
    P("host-pool-frame", ("memory_pool_host",), r"^\s*File \S*memory_pool_host\.py\W, line \d+, in ", const(("oom.hint", "pinned_host"))),
    # bitsandbytes' C interface: cudaMallocManaged for a paged optimizer's states refused, or another CUDA call on that
    # managed memory failing in its own words ("Error invalid device ordinal at line 359 in file ...pythonInterface.c":
    # its prefetch to the card, which WSL2 and Windows do not support)
    P("bnb-managed", ("pythonInterface.c",), r"\bError (\w[\w ]*?) at line \d+ in file \S*pythonInterface\.c",
      lambda m: [("oom.hint", "managed_memory")] + ([] if m.group(1) == "out of memory" else [
          ("error.final", f"{m.group(1)} from bitsandbytes' call on that memory, not a lack of it")])),
    # (or the interpreter's fault handler dumping the stack after a fatal error: "Current thread 0x... (most recent call first):")
    P("traceback", ("Traceback (most recent call last)", "Current thread "),
      r"Traceback \(most recent call last\)|^\s*Current thread \S+(?: \(most recent call first\))?:\s*$", const(("oom.hint", "traceback"))),
    P("nvml-missing", ("nvmlInit",), r"nvmlInit_v2 failed", const(("_note", "NVML unavailable to PyTorch"))),
    # Meta's reference code (llama, codellama example scripts) allocates every layer's KV cache for
    # max_batch_size x max_seq_len when it builds the model: part of the resident set before any prompt
    P("meta-reference", ("--ckpt_dir", "Llama.build", "llama/generation.py", "cache_k = torch.zeros"),
      r"--ckpt_dir\b|\bLlama\.build\(|llama/generation\.py|cache_k = torch\.zeros",
      const(("oom.hint", "kv_preallocated"), ("_framework", f"{detect.NAMED_PYTORCH}:6"))),
    # phase from traceback frames and progress lines
    P("ph-load", ("from_pretrained", "load_weights", "load_model", "checkpoint shards", "safetensors", "model_loader",
                  "load_state_dict", "Starting to load model", "Loading weights", "Load weight begin", "init_inference",
                  "replace_transformer_layer", "replace_module", "module_inject", "safe_open", ".cuda()", "model.load(", ", in load",
                  "in _apply", "t.to(device", "prepare_model_for_kbit_training", "process_weights_after_loading", "marlin_utils",
                  "self._apply(convert)", "modules/module.py", "modules\\module.py"),
      # (vLLM and SGLang name the format: "Loading safetensors checkpoint shards", "Loading pt checkpoint shards")
      # (llama-server's "srv load_model:" prefix spans the context, its warm-up and the slots too, and "slot load_model:
      # id 0 | new slot" comes after them: not the load)
      r"from_pretrained|load_weights|(?<!srv )(?<!srv  )(?<!srv   )(?<!srv    )(?<!slot )(?<!slot  )(?<!slot   )load_model|Loading (?:safetensors |pt )?checkpoint shards|safe_open|model_loader|load_state_dict|"
      r"Starting to load model|Loading weights|Load weight begin|init_inference|replace_transformer_layer|replace_module|module_inject|"
      # (a model moved onto the card, not an input: "image = image.cuda()" moves the frames a video predictor reads)
      r"(?<!\bimage)(?<!\bimages)(?<!\bimg)(?<!\bbatch)(?<!\binput)(?<!\binputs)(?<!\bframe)(?<!\bframes)(?<!\bdata)\.cuda\(\)|"
      r"\bmodel\.load\(|/models?/\w+\.py\", line \d+, in load\b|"
      # nn.Module.to()/.cuda()/.half(): every parameter moved by Module._apply's convert
      r"\bin _apply\b|return t\.to\(device|return self\._apply\(convert\)|nn[/\\]modules[/\\]module\.py\", line \d+, in (?:to|cuda|half)\b|"
      # PEFT's preparation casts parameters to float32 on the GPU (every one, when the model is not quantized)
      r"prepare_model_for_kbit_training|"
      # a quantized checkpoint's weights repacked for their kernel once loaded (vLLM's Marlin utilities)
      r"process_weights_after_loading|quantization/utils/marlin_utils\w*\.py",
      const(("_phase", "load_weights"))),
    P("ph-forward", ("forward", "generate", "attn_weights", "matmul", "loss_step", "compute_loss", "training_step", ".backward(",
                     "run_backward", "model_executor/layers/", "attention_scores", "attention_probs", "attention_fn", "attn_scores", "attn_probs",
                     "logits =", "/ops/", "\\ops\\", "cross_entropy", "scaled_dot_product_attention(", ".linear("),
      # (a training step's forward and backward pass: its activations, like an inference forward's)
      # (a frame of a private or wrapped forward: "line 174, in _bypass_forward", "in _conv_forward"; not a name that
      # only holds the word, as GGUF's "feed_forward_length" or a weight's "layers.27.feed_forward.w2")
      r"\bforward(?:_\w+)?\b|, in _?\w+_forward\b|\.generate\(|model\.generate|attn_weights|torch\.matmul|\b_?loss_step\b|\bcompute_loss\b|"
      # (an attention layer computing its scores: "in attention_fn", "attention_scores = attention_scores * ...")
      r"\battention_(?:scores|probs|fn)\b|\battn_(?:scores|probs)\b|"
      # (a code line calling PyTorch's fused attention: "attn_output = F.scaled_dot_product_attention(q, k, v, ...)", or a
      # layer's matmul: "output = torch.nn.functional.linear(A, F.dequantize_4bit(B, quant_state).to(A.dtype).t(), bias)";
      # ops with no Python below them, so a failure in a traceback through one is the layer's own computation)
      # (not a warning that names the function: "UserWarning: ... `torch.nn.functional.scaled_dot_product_attention(...)`")
      r"^\s*(?!File \")(?!.*Warning)[^\"#`']*?\b(?:functional|F)\.(?:scaled_dot_product_attention|linear)\(|"
      # (a code line computing the logits: "logits = logits / self.temperature", "logits = self.lm_head(hidden)")
      r"^\s*logits = \S|"
      r"\btraining_step\b|\.backward\(|\b_?(?:engine_)?run_backward\b|"
      # (the loss over the logits: "torch._C._nn.cross_entropy_loss(input, target, ...)", "in cross_entropy")
      r"\bcross_entropy(?:_loss)?\(|, in cross_entropy\b|"
      # (a frame in vLLM's layers that neither creates nor loads a weight: a layer computing)
      # (a paste may drop the function's name: 'File ".../layers/fla/ops/fused_gdn_prefill_post_conv.py", line 200')
      r"model_executor/layers/\S+\", line \d+(?:, in (?!\w*(?:weight_loader|load|create_weights|__init__|process_weights))\w+|\s*$)|"
      # (an attention kernel library's op: 'File ".../flash_linear_attention/ops/chunk_delta_h.py", line 357', flash_attn's,
      # FlashInfer's, xformers' ops: a layer computing)
      r"(?:flash_linear_attention|flash_attn|flashinfer|xformers|[/\\]fla)[/\\](?:\S*[/\\])?ops[/\\]\S+\", line \d+",
      _forward_step),
    # a named progress bar over a loop's iterations, some done ("Training:  18%|█▊  | 1935/10920 [17:45<1:13:32,  2.04it/s,
    # loss=0.081]", "Batches:  40%|████  | 2/5 [00:03<00:05,  1.2s/it]"): the model had run, its weights resident, when the
    # failure came (not a bar over loading, fetching, saving or preparing: the shards, the files, a merge, a dataset's map; not
    # a transfer's bar, counted in bytes a second; not a bar with no name, which may be any of those)
    P("ph-loop-progress", ("%|",), r"\s\d{1,3}%\|[^|\n]{0,60}\|\s*[1-9]\d*/\d+ \[[^\]\n]{0,40}?(?:it/s|s/it)", _loop_progress),
    # an app's own inference call in a traceback (so-vits-svc's "in slice_inference", RVC's "in vc_single", a demo's
    # "in predict" over "model.chat(...)", whisper's "in transcribe", a translation server's "in translate_batch", an OCR
    # pipeline's "in run_ocr", "in batch_detection"): most often the model placed and running on an
    # input, but the call may still load it (exo's "in infer_tensor" over "ensure_shard"), so it is a hint, not the phase
    P("ph-app-inference", (", in infer", ", in predict", ", in chat", ", in stream_chat", ", in transcribe", "diariz",
                           ", in synthesi", ", in tts", ", in separate", ", in vc_", "_infer", ", in translat", "_translat", "ocr",
                           "detection", ", in detect", "recogni", "caption", "demix"),
      r"\.py\\?\", line \d+, in _*(?:\w+_)?(?:infer(?:ence)?|predict|(?:stream_)?chat|transcribe|diari[sz](?:e|ation)|synthesi[sz]e|tts|separate|vc_single|"
      r"translate|ocr|detect(?:ion)?|recogni[sz]e|recognition|caption|demix)"
      r"(?:_\w+)?\s*$",
      const(("oom.hint", "app_inference_call"))),
    # transformers' generate() warning on a prompt longer than max_length: the prompt's tokens, and a prefill
    P("hf-input-length", ("Input length of input_ids is",), r"Input length of input_ids is (\d+)",
      lambda m: [("mem.prefill_tokens", int(m.group(1))), ("_phase", "prefill")]),
    # an engine announcing the request it starts on (candle-vllm's "New Request with length 103762 (cmpl-...)"): its
    # prompt's tokens, and a prefill
    P("new-request-length", ("Request with length", "request with length"), r"\b[Rr]equest with length (\d+)\b",
      lambda m: [("mem.prefill_tokens", int(m.group(1))), ("_phase", "prefill")]),
    # text-generation-webui's summary of each reply: "Output generated in 2.34 seconds (1.28 tokens/s, 3 tokens,
    # context 273, seed 1736422306)": the request's context
    P("textgen-reply-context", ("Output generated in",), r"Output generated in [\d.]+ seconds \(.*?\bcontext (\d+)",
      lambda m: [("mem.prefill_tokens", int(m.group(1)))]),
    # the user's own transformers from_pretrained call (an Auto* or *For* class), closed on its line with no
    # placement: transformers builds the model in host RAM (device_map, quantization and a spread of **kwargs
    # would say otherwise); a cast or a move chained after it (".half().cuda()") comes once it is built
    P("hf-load-on-host", ("from_pretrained(",),
      r"\b(?:Auto\w*|\w+For[A-Z]\w*|\w+LMHeadModel)\.from_pretrained\((?![^)]*(?:device_map|\*\*|load_in_|quantization_config|\bdevice\s*=|cuda))[^()]*\)"
      r"(?:\.(?:half|float|bfloat16|cuda|eval|to)\([^()]*\))*\s*$",
      const(("oom.hint", "load_on_host"))),
    # (or a Hugging Face model class built from its config, "model = LlamaForCausalLM(config)": its parameters are
    # made in host RAM)
    P("model-built-on-host", ("(config)",), r"=\s*(?:\w+\.)?\w+For[A-Z]\w*\(config\)\s*$",
      const(("oom.hint", "load_on_host"), ("_phase", "load_weights"))),
    # accelerate's device_map that spreads the layers over every GPU it sees ("device_map='auto'"): the weights
    # per card then depend on how many there are
    P("device-map-spread", ("device_map",), r"\bdevice_map\s*=\s*[\"'](auto|balanced(?:_low_0)?|sequential)[\"']",
      lambda m: [("parallel.device_map", m.group(1))]),
    # a trainer driving a vLLM engine in its own process (TRL's GRPO/online trainers, colocated): both on one card
    P("colocated-trainer", ("trl/trainer/", "GRPOTrainer"), r"trl/trainer/\w+_trainer\.py|\bGRPOTrainer\b", const(("oom.hint", "colocated_trainer"))),
    # the optimizer's step (Adam's moments are created on its first step): training's resident set
    P("optimizer-step", ("torch/optim/", "optimizer.step(", "_multi_tensor_adam", "_single_tensor_adam", "exp_avg"),
      r"torch/optim/\w+\.py|\boptimizer\.step\(|_(?:multi|single)_tensor_adamw?\b|\bexp_avg(?:_sq)?\b", const(("oom.hint", "optimizer_step"))),
    # nn.DataParallel (its frames, or its gather warning): one process replicates the model on every GPU and
    # gathers every output on GPU 0, which then holds more than the others
    P("data-parallel", ("torch/nn/parallel/data_parallel.py", "Was asked to gather along dimension", "parallel_apply"),
      r"torch/nn/parallel/data_parallel\.py|Was asked to gather along dimension \d+|\bparallel_apply\.py", const(("oom.hint", "data_parallel"))),
    P("ph-eager-attn", ("matmul", "attn_weights", "softmax"), r"attn_weights\s*=|torch\.matmul\(\s*q\w*,\s*k|scores\s*=\s*torch\.matmul",
      const(("oom.hint", "eager_attention"))),
    # (also a traceback frame in a function named for it: vLLM V0's CUDAGraphRunner, "model_runner.py", line 1102, in capture")
    # (SGLang's capture progress bars: "Capturing batches (bs=512 avail_mem=19.45 GB)", the piecewise graphs'
    # "Capturing num tokens (num_tokens=3968 avail_mem=0.05 GB)")
    P("ph-capture", ("graph", "Graph", "capture_model", "capture_end", ", in capture", ", in _capture", "Capturing batches (", "Capturing num tokens ("),
      r"capture_end|cuda\.graph\(|Capturing CUDA graph|Capturing cudagraphs|Capturing the model for CUDA graphs|capture_model|"
      r"Capturing (?:batches \(bs|num tokens \(num_tokens)=\d+ avail_mem=|"
      r"Capture cuda graph begin|Capture \w+ \w+ CUDA graph begin|cuda_graph_runner|CUDAGraph|graph capture|"
      r"\.py\", line \d+, in _?capture(?:_\w+)?\s*$",
      const(("_phase", "cuda_graph_capture"))),
)
