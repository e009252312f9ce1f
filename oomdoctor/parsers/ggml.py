"""llama.cpp (and forks, llamafile) and Ollama: ggml buffer failures, the context and KV
lines, and Ollama's scheduler estimate. Match on suffixes: the function-name prefixes
changed between builds."""

from __future__ import annotations

import re

from oomdoctor.launch import parse_argv, split
from oomdoctor.parsers.base import CUBLAS_STATUS, MEMORY_WORDS, SIZE, TORCH_CUDA_ADVICE, Emitted, P, Pattern, const, kind, mib, number, setting_over_limit, size_of, to_bytes, to_int

# a loader's reason that is memory: MEMORY_WORDS, in the system's language too ("MapViewOfFile failed: No hay
# suficientes recursos de memoria disponibles"), or a mapping of the file
_LOAD_MEMORY = re.compile(MEMORY_WORDS.pattern + r"|memor|mmap|MapViewOfFile|VirtualAlloc|Speicher|内存|显存|メモリ")


def _is_gpu(device: str) -> bool:
    return not device.upper().startswith("CPU") and "_HOST" not in device.upper() and not device.upper().endswith("HOST")


_BACKENDS = {"CUDA": "cuda", "ROCM": "rocm", "HIP": "rocm", "VULKAN": "vulkan", "SYCL": "sycl", "METAL": "metal", "MTL": "metal",
             "MUSA": "musa", "CANN": "cann", "OPENCL": "opencl", "GPUOPENCL": "opencl"}


def backend_of(device: str) -> Emitted:
    """The compute backend a ggml device or buffer name says ("SYCL0", "Vulkan0", "ROCm1", "CUDA0")."""
    name = re.sub(r"\d+$", "", device.split("_")[0]).upper()
    if name in _BACKENDS:
        yield "gpu.backend", _BACKENDS[name]


# ggml's CUDA functions that run a graph's ops, and those that allocate (a pool, a buffer)
_COMPUTE_FN = re.compile(r"mul_mat|flash_attn|soft_max|rope|_norm|get_rows|_cpy|conv|graph_compute|graph_evaluate|compute_forward|op_")
_ALLOC_FN = re.compile(r"alloc|malloc|pool|buffer")
_CONTEXT_LINE = re.compile(r"(?:new_context_with_model|llama_context|init_from_model):\s+n_ctx\s*=")


_OLLAMA_FIELD = re.compile(r'\b(available|layer_size|partial_offload|full_offload)="?(' + SIZE + r')"?')


def _no_layer_fits(m: re.Match[str]) -> Emitted:
    yield "oom.hint", "ollama_no_layer_fits"
    sizes = {k: size_of(v) for k, v, *_ in _OLLAMA_FIELD.findall(m.string)}
    if sizes.get("available"):
        yield "_max:mem.gpu_available_bytes", sizes["available"]
    graph = max(sizes.get("partial_offload") or 0, sizes.get("full_offload") or 0)
    if graph:
        yield "_max:mem.compute_buffer_bytes", graph
    if sizes.get("layer_size"):
        yield "_max:mem.layer_bytes", sizes["layer_size"]


def _file_type(m: re.Match[str]) -> Emitted:
    name = (m.group(1) or m.group(2)).lower()
    if name in ("f16", "bf16", "f32"):
        yield "knob.dtype", {"f16": "float16", "bf16": "bfloat16", "f32": "float32"}[name]
    elif name not in ("unknown", "guessed", "all_f32"):
        yield "knob.quantization", name + ("_" + m.group(3)[0].lower() if m.group(3) else "")


def _model_buffer(m: re.Match[str]) -> Emitted:
    if m.group(1) in ("KV", "compute", "output"):
        return  # other buffers, read by their own patterns
    if _is_gpu(m.group(1)):
        yield "_sum:mem.weights_bytes", mib(m.group(2))
    yield "_sum:mem.weights_total_bytes", mib(m.group(2))


def _kv_buffer(m: re.Match[str]) -> Emitted:
    if _is_gpu(m.group(1)):
        yield "_sum:mem.kv_cache_bytes", mib(m.group(2))
    yield "_sum:mem.kv_total_bytes", mib(m.group(2))


_PLACED = {"model weights": ("mem.weights_bytes", "mem.weights_total_bytes"), "kv cache": ("mem.kv_cache_bytes", "mem.kv_total_bytes")}


def _ollama_placement(m: re.Match[str]) -> Emitted:
    size = size_of(m.group(3))
    if not size:
        return
    if m.group(1) == "compute graph":
        if _is_gpu(m.group(2)):
            yield "_max:mem.compute_buffer_bytes", size
        return
    on_gpu, whole = _PLACED[m.group(1)]
    if _is_gpu(m.group(2)):
        yield "_sum:" + on_gpu, size
    yield "_sum:" + whole, size


# programs that run llama.cpp underneath, by their names (framework detection's vote, and the hint that their context
# is their own); case-insensitive
WRAPPER_NAMES = r"koboldcpp|LM Studio|lm-?studio|cortex[.-]cpp|gpt4all"
WRAPPER_ANCHORS = ("koboldcpp", "KoboldCpp", "LM Studio", "lmstudio", "lm-studio", "cortex.cpp", "cortex-cpp", "gpt4all", "GPT4All")


# a row of `ollama ps` (NAME ID SIZE PROCESSOR [CONTEXT] UNTIL): the loaded model's size and where it runs, as
# "100% GPU", "48%/52% CPU/GPU" or, in later releases, "53% CPU / 47% GPU"
OLLAMA_PS_ROW = (r"^\s*\S+\s+[0-9a-f]{12}\s+([\d.]+\s?[KMGT]i?B)\s+"
                 r"(?:(\d+)%/(\d+)% CPU/GPU|(\d+)% CPU / (\d+)% GPU|(\d+)% (GPU|CPU))")
# a context at which a model that spills to the CPU points at its KV cache rather than its weights
SPILL_CONTEXT = 32768


# llama.cpp's device list (`--list-devices`, a server's start): "  ROCm0: AMD Radeon(TM) Graphics (110511 MiB, 110357 MiB free)",
# "  SYCL0: Intel(R) Arc(TM) Pro B70 Graphics (32656 MiB)": the capacity, and what is free (a router's child
# prints its pid first: "[36701] CUDA0 : NVIDIA GeForce RTX 3090 (24124 MiB, 10552 MiB free)")
DEVICE_LIST = r"^\s*(?:\[\d+\]\s*)?((?:CUDA|ROCm|Vulkan|SYCL|MUSA|CANN|Metal|MTL)\d+) ?: .{1,120} \((\d+) MiB(?:, (\d+) MiB free)?\)\s*$"
DEVICE_LIST_ANCHORS = ("MiB free)", " MiB)")
# llama.cpp's own words for a context with no free KV cells, which the clients over it print as they are
KV_FULL = r"could not find a KV slot for the batch|failed to find free space in the KV cache"
KV_FULL_ANCHORS = ("could not find a KV slot", "failed to find free space in the KV cache")


def _device_list(m: re.Match[str]) -> Emitted:
    """One device of llama.cpp's list: its capacity and what is free, in MiB. Listed before any model is placed,
    what is not free is held by others (Apple's figure is a working set, not a use); more free than the device
    holds is the runtime measuring something else (host RAM through a unified-memory path)."""
    total = int(m.group(2))
    yield "mem.gpu_total_bytes", total << 20
    yield from backend_of(m.group(1))
    if not m.group(3):
        return
    free = int(m.group(3))
    yield "mem.gpu_available_bytes", free << 20
    if m.group(1).startswith(("Metal", "MTL")):
        return
    if free <= total:
        yield "mem.used_at_start_bytes", (total - free) << 20
    elif free > total * 1.05:
        yield "oom.hint", "free_over_capacity"


def _count(raw: str) -> bool:
    """A plain non-negative integer ("33"; not "-1", "--5" or a superscript digit)."""
    return raw.isascii() and raw.isdigit()


# llama_decode's negative returns, by their digit
_DECODE_STATUS: dict[str, tuple[tuple[str, str], ...]] = {
    "1": (("oom.kind", "request_rejected"),),
    "2": (("oom.kind", "ggml_alloc_failed"), ("oom.buffer", "compute")),
    "3": (("oom.kind", "ggml_compute_failed"),),
}


def _ollama_ps_row(m: re.Match[str]) -> Emitted:
    """The model's size and context; a model split between CPU and GPU at a long context is flagged: the KV cache
    sized for that context is what no longer fits beside the weights."""
    out: Emitted = [("mem.required_bytes", size_of(m.group(1)) or 0)]
    if m.group(8) is None:
        return out
    context = int(m.group(8).replace(" ", ""))
    out.append(("knob.max_model_len", context))
    cpu = m.group(2) or m.group(4)
    if cpu is not None and int(cpu) > 0 and int(m.group(3) or m.group(5)) > 0 and context >= SPILL_CONTEXT:
        out.append(("oom.hint", "context_spilled"))
    return out


def _ollama_kv(pairs: str) -> Emitted:
    for key, raw in re.findall(r'([\w.]+)="?(\[[^\]]*\]|[^"\s]+(?: [KMGT]?i?B)?)"?', pairs):
        mm = re.match(SIZE, raw.strip("[]"))
        if key == "memory.available" and mm:
            # one figure per GPU of the split: the plan's totals are over all of them
            sizes = re.findall(SIZE, raw)
            yield "mem.gpu_available_bytes", sum(to_bytes(n, u) for n, u in sizes)
            if len(sizes) > 1:
                yield "gpu.count", len(sizes)
        elif key == "memory.required.full" and mm:
            yield "_ollama_full", to_bytes(mm.group(1), mm.group(2))
        elif key == "memory.required.partial" and mm:
            yield "_ollama_partial", to_bytes(mm.group(1), mm.group(2))
        elif key == "memory.required.kv" and mm:
            yield "mem.kv_total_bytes", to_bytes(mm.group(1), mm.group(2))
        elif key == "memory.weights.total" and mm:
            yield "mem.weights_total_bytes", to_bytes(mm.group(1), mm.group(2))
        elif key == "memory.graph.full" and mm:
            yield "mem.compute_buffer_bytes", to_bytes(mm.group(1), mm.group(2))
        elif key == "layers.requested" and _count(raw):  # (-1: Ollama's default, no request)
            yield "knob.gpu_layers", int(raw)
        elif key == "layers.model" and _count(raw):
            yield "mem.layers_total", int(raw)
        elif key == "layers.offload" and _count(raw):
            yield "mem.layers_offloaded", int(raw)
            yield "_phase_start", "load_weights"  # the scheduler's plan, printed as the runner starts loading


def _ollama_runner(m: re.Match[str]) -> Emitted:
    yield "_launch", True  # Ollama starts a runner per load, and again with fewer layers after a failure
    for f in parse_argv(split(m.group(1)), framework="llamacpp"):
        yield f.key, f.value


# the GPU of an APU or a laptop's CPU: its memory is a carve-out of host RAM
_INTEGRATED = re.compile(r"^(?:AMD )?Radeon(?:\(TM\))? (?:\d{3}M )?Graphics$|Intel\(R\) (?:UHD|HD|Iris)|Radeon \d{3}M\b")


def _device(m: re.Match[str]) -> Emitted:
    name = m.group(2).strip()
    yield "gpu.name", name
    if _INTEGRATED.search(name):
        yield "gpu.integrated_device", m.group(1)


def _working_set_bytes(figure: float) -> int:
    """Metal's recommendedMaxWorkingSetSize as printed in "MB": 10^6 bytes in current ggml, MiB in 2023's
    (the same units as its running totals). macOS's default is 2/3 or 3/4 of a whole number of GiB of
    RAM: a figure that is exactly that in MiB (8 GB -> 5461.34) was printed in MiB."""
    for share in (2 / 3, 3 / 4):
        ram_gib = figure / share / 1024
        if ram_gib >= 4 and abs(ram_gib - round(ram_gib)) < 0.001:
            return int(figure * (1 << 20))
    return int(figure * 1e6)


def _alloc_buffer(m: re.Match[str]) -> Emitted:
    yield "oom.kind", "ggml_alloc_failed"
    yield "oom.requested_bytes", mib(m.group(1))
    yield "oom.device", m.group(2)
    yield "oom.buffer_device", "GPU"


def _gallocr(m: re.Match[str]) -> Emitted:
    yield "oom.kind", "ggml_alloc_failed"
    yield "oom.buffer_device", "GPU" if _is_gpu(m.group(1)) else "CPU"
    if m.group(2):
        yield "oom.requested_bytes", int(m.group(2))
    yield "oom.buffer", "compute"


def _ollama_loaded(m: re.Match[str]) -> Emitted:
    total, available = size_of(m.group(1)), size_of(m.group(2))
    if total and available is not None and total > available:
        yield "oom.other_process_bytes", total - available
        yield "mem.gpu_total_bytes", total
        yield "oom.hint", "other_models_loaded"


# why pinning host memory failed, when it names a setup that does not work (not memory, not a passing refusal)
_BROKEN_SETUP = re.compile(r"(?i)driver|version|no CUDA-capable|initialization error|not supported")

# Jan's check names -> facts
_JAN_CHECK = {"modelSize": "mem.weights_total_bytes", "KV estimate": "mem.kv_total_bytes", "Total VRAM": "mem.gpu_total_bytes",
              "Usable VRAM": "mem.gpu_available_bytes", "Total memory": "mem.required_bytes"}


def _lmstudio(m: re.Match[str]) -> Emitted:
    key, value = m.group(1), m.group(2)
    if key in ("n_ctx", "n_gpu_layers"):
        if _count(value):
            yield ("knob.max_model_len" if key == "n_ctx" else "knob.gpu_layers"), int(value)
        return
    size = size_of(value)
    if size:
        yield {"vram_recommended_capacity": "mem.gpu_total_bytes", "vram_unused": "mem.gpu_free_bytes", "ram_capacity": "host.ram_total_bytes",
               "ram_unused": "host.ram_available_bytes"}[key], size


def _device_check(m: re.Match[str]) -> Emitted:
    """"CUDA error: invalid argument", "ROCm error: invalid argument", (older builds) "CUDA error 9 at
    ggml-cuda.cu:6858: invalid configuration argument", "cuBLAS error 15 at ggml-cuda.cu:7282".
    A cuBLAS handle or workspace that cannot be created is memory (another pattern reads it)."""
    api, code, message = m.group(1), m.group(2), (m.group(3) or "").strip()
    if re.search(r"\wError:\s*$", m.string[:m.start(1)]):  # a Python exception's message: the traceback's reading
        return  # (a bare "Error: " is a wrapper's prefix, Ollama's or LM Studio's: ggml's own line)
    if message:
        if not MEMORY_WORDS.search(message) and not re.match(r"CUBLAS_STATUS_(?:NOT_INITIALIZED|EXECUTION_FAILED)", message):
            yield "error.final", m.group(0).strip(" :|])")[:300]
    elif api.upper() == "CUBLAS" and code in CUBLAS_STATUS:
        yield "error.final", f"{m.group(0).strip(' :|]')} ({CUBLAS_STATUS[code]})"


def _ollama_load_request(m: re.Match[str]) -> Emitted:
    parallel, cells = int(m.group(1)), int(m.group(4))
    yield "knob.max_num_seqs", parallel
    yield "knob.batch_size", int(m.group(2))
    if m.group(3) in ("true", "false"):
        yield "knob.flash_attention", m.group(3) == "true"
    if parallel > 0:
        yield "knob.max_model_len", cells // parallel
    if "GPULayers:[]" in m.string:  # the scheduler placed no layer on any GPU
        yield "knob.gpu_layers", 0
        yield "oom.hint", "no_gpu_layers"
    if m.group(5):
        yield "knob.kv_cache_dtype", m.group(5)


# exit statuses of a runner that never ran the model (the shell's "command not found", Windows' NTSTATUS codes)
_RUNNER_EXIT = {"127": "a program or shared library it needs was not found", "0xc0000135": "a DLL it needs was not found",
                "0xc0000139": "a DLL it loaded lacks an entry point: mismatched libraries",
                "0xc000001d": "an illegal instruction: the build needs a CPU feature this machine lacks"}
# Ollama's report of its runner's exit, its status after it ("llama runner process has terminated: exit status 2", the
# scheduler's newer "llama runner terminated: exit status 2", "runner process no longer running: exit status 127", and its
# server's structured line: 'msg="llama runner terminated" error="exit status 2"')
_RUNNER_EXITED = r"runner (?:process )?(?:has terminated|terminated|no longer running)(?:: |\" error=\")exit status "


PATTERNS: tuple[Pattern, ...] = (
    # (a paste cut mid-word keeps what it has of "out of memory")
    P("ggml-cuda-alloc", ("cudaMalloc failed", "hipMalloc failed"),
      r"allocating ([\d.]+) MiB on device (\d+): \w+ failed: (?:out of memory|o[ut ofmery]{0,12}$)",
      _alloc_buffer),
    P("ggml-cpu-alloc", ("cpu_buffer_type_alloc_buffer",), r"cpu_buffer_type_alloc_buffer: failed to allocate buffer(?: of size (\d+))?",
      lambda m: [("oom.kind", "ggml_alloc_failed"), ("oom.buffer_device", "CPU")]
      + ([("oom.requested_bytes", int(m.group(1)))] if m.group(1) else [])),
    # Ollama's runner gone with no cause given: its bare "llama runner process has terminated", or the CLI losing the server
    # mid-request ('Error: Post "http://127.0.0.1:11434/api/generate": EOF'): a runner that died (a kill, a crash) and said
    # nothing; what it held against the device is what is left to weigh
    P("runner-died-silently", ("runner process has terminated", "runner process no longer running", ": EOF"),
      r"\bllama runner process (?:has terminated|no longer running)[\s\"'.]*$|"
      r"\bError: Post \"https?://[^\"]{1,80}/api/(?:generate|chat)\": EOF\s*$",
      const(("oom.hint", "runner_died_silently"))),
    # Metal's buffer type: "ggml_backend_metal_buffer_type_alloc_buffer: error: failed to allocate buffer, size = 70400.38 MiB"
    P("ggml-metal-alloc", ("metal_buffer_type_alloc_buffer",), r"metal_buffer_type_alloc_buffer: error: failed to allocate buffer, size =\s*([\d.]+) MiB",
      lambda m: [("oom.kind", "ggml_alloc_failed"), ("oom.requested_bytes", mib(m.group(1))), ("oom.buffer_device", "GPU"), ("gpu.backend", "metal")]),
    # ggml's check of a CUDA/ROCm/cuBLAS call that failed with another error: the error, not a lack of memory
    # (Ascend's CANN backend says the same: "CANN error: EZ9903: ... support for Ascend910 is not implemented")
    P("ggml-cuda-other-error", ("CUDA error", "ROCm error", "MUSA error", "CANN error", "cuBLAS error", "CUBLAS error"),
      # (koboldcpp prints it straight after its progress line: "(4096 / 30609 tokens)CUDA error: ..."; other engines' CUDA
      # checks name the source line without the number: mistral.rs's "CUDA error at src/cuda/nonzero_bitwise.cu:138: ...")
      r"(?:^|[\s\]:|)])(CUDA|ROCm|MUSA|CANN|cuBLAS|CUBLAS) error(?: (?:(\d+) )?at \S+:\d+)?(?::\s*(.{3,200}?))?[.\s]*$", _device_check),
    # the loader's own reason it could not load the model: a reason with no word of memory or allocation is the file,
    # the build or the settings ("read error: Bad address", "unknown model architecture: 'qwen4exp'", "It is not
    # possible to use split mode 'graph' with less than 2 devices", "invalid vector subscript"), not memory; a
    # buffer it could not allocate, or a read that failed for the host's lack of memory, is memory
    P("ggml-load-error", ("error loading model: ",), r"error loading model: ([^\n]{3,200}?)\s*$",
      lambda m: [] if _LOAD_MEMORY.search(m.group(1)) else [("error.final", f"the model could not be loaded ({m.group(1)}): not memory")]),
    # the multimodal projector (mmproj) file that did not load, reported alone, even by the step that estimates its memory
    # ("mtmd_get_memory_usage: error: Failed to load CLIP model from ...mmproj.gguf"): a buffer it could not allocate is
    # reported above it as one; alone, the file or this build (a projector type it does not know), not memory
    P("clip-load-error", ("Failed to load CLIP model",), r"\b(?:mtmd|clip)_\w+: error: Failed to load CLIP model from",
      const(("error.final", "the multimodal projector (mmproj) could not be loaded: its file or this build, not a lack of memory"))),
    # ggml's Metal backend could not build its shader library (a macOS or SDK the build does not support): no model ran
    # (or its compiler's own error, the line a paste keeps when the next is cut: "ggml_metal_library_init: error: Error
    # Domain=MTLLibraryErrorDomain Code=3 ...")
    # (or its shaders failing to compile for this GPU family: "ggml_metal_init: error: load pipeline error: Error
    # Domain=AGXMetalA12 Code=3 \"Encountered unlowered function call to air.simd_sum.f32\"", Metal's compiler service
    # dying: "MTLCompiler: Compilation failed with XPC_ERROR_CONNECTION_INTERRUPTED", "Compiler failed to build request";
    # the "failed to allocate context" after them is the backend that did not start, not memory)
    # (older builds print the pipeline error without "error:", "ggml_metal_init: load pipeline error: Error Domain=CompilerError
    # Code=2", an Intel Mac's GPU; or fail to open the library file itself: "ggml_metal_init: error: Error Domain=NSCocoaErrorDomain
    # Code=258 \"The file name is invalid.\""; newer builds: "ggml_metal_device_init: error: failed to create library")
    P("metal-library-failed", ("failed to initialize the Metal library", "MTLLibraryErrorDomain", "load pipeline error", "MTLCompiler:",
                               "Compiler failed to build request", "NSCocoaErrorDomain", "error: failed to create library"),
      r"ggml_metal_init: error: failed to initialize the Metal library|ggml_metal_\w+: error: failed to create library\b|"
      r"ggml_metal_(?:library_)?init: error: Error Domain=(?:MTLLibraryErrorDomain|NSCocoaErrorDomain)\b|"
      r"ggml_metal_\w+: (?:error: )?load pipeline error: Error Domain=|^\W*MTLCompiler: Compilation failed\b|^Compiler failed to build request\s*$",
      kind("broken_install", ("oom.hint", "metal_build"))),
    # (ggml-vulkan prints the line only where the allocation failed: a paste cut after its size is the same failure)
    P("ggml-vulkan-alloc", ("Device memory allocation of size",), r"Device memory allocation of size (\d+)(?: failed|\s*$)",
      lambda m: [("oom.kind", "ggml_alloc_failed"), ("oom.requested_bytes", int(m.group(1))), ("oom.buffer_device", "GPU")]),
    # Mesa's RADV driver (AMD under Vulkan) refusing a buffer, its size on the next line:
    # "radv/amdgpu: Failed to allocate a buffer:" / "radv/amdgpu:    size      : 963379200 bytes"
    P("radv-alloc", ("radv/amdgpu: Failed to allocate", "radv/amdgpu:    size"),
      r"radv/amdgpu: Failed to allocate a buffer|radv/amdgpu:\s+size\s*: (\d+) bytes",
      lambda m: [("oom.requested_bytes", int(m.group(1)))] if m.group(1) else [("oom.kind", "ggml_alloc_failed"), ("oom.buffer_device", "GPU"),
                                                                              ("gpu.backend", "vulkan")]),
    P("ggml-vulkan-limit", ("exceeds device memory allocation limit", "exceeds device buffer size limit"),
      r"exceeds device memory allocation limit|Requested buffer size exceeds device buffer size limit",
      kind("alloc_size_limit", ("oom.hint", "per_allocation_limit"))),  # the driver's cap on one allocation
    P("ggml-gallocr", ("failed to allocate",), r"gallocr_reserve_n\w*: failed to allocate (\S+) buffer(?: of size (\d+))?", _gallocr),
    # ggml's scheduler re-reserving a graph whose shape changed ("ggml_backend_sched_alloc_splits: failed to allocate
    # graph, reserving", "cannot reallocate multi buffer graph automatically, call reserve"): debug notices it prints
    # before it reserves again and goes on, not an allocation that failed
    P("ggml-sched-reserve", ("failed to allocate graph, reserving", "cannot reallocate multi buffer graph"),
      r"failed to allocate graph, reserving|cannot reallocate multi buffer graph automatically", kind("memory_notice")),
    # llama-server's prompt cache in host RAM evicting its oldest entry to stay under --cache-ram ("alloc:  - making room
    # for prompt cache entry, removing oldest entry (size = 3418.112 MiB)"): the cache keeping to its limit, not a failure
    P("llamacpp-prompt-cache-evict", ("making room for prompt cache entry",), r"making room for prompt cache entry",
      kind("memory_notice")),
    # its scheduler refusing a tensor placed in a buffer whose backend lacks the operation ("pre-allocated tensor
    # (cache_k_l0 (view)) in a buffer (OpenCL) that cannot run the operation (SET_ROWS)"): an operation that backend does
    # not have (a KV cache type it cannot write), not memory
    P("ggml-op-unsupported", ("cannot run the operation",), r"in a buffer \((\w+)\) that cannot run the operation \((\w+)\)",
      lambda m: [("error.final", f"the {m.group(1)} backend cannot run the operation {m.group(2)} on a tensor placed in its buffer: "
                                 "an operation that backend lacks, not memory")]),
    # llama.cpp's batch check: positions of a sequence that do not follow the ones its KV cache holds (a client or
    # speculative-decoding bug), not memory
    P("llamacpp-batch-positions", ("inconsistent sequence positions",), r"have inconsistent sequence positions",
      const(("error.final", "the batch's sequence positions do not follow the KV cache's: a batch-construction bug, not memory"))),
    P("ggml-tensor-range", ("failed to allocate",), r"alloc_tensor_range: failed to allocate (\S+) buffer of size (\d+)",
      # the model's buffer, unless a line after it says the KV cache's
      lambda m: [("oom.kind", "ggml_alloc_failed"), ("_buffer_unless_stated", "weights"), ("oom.requested_bytes", int(m.group(2))),
                 ("oom.buffer_device", "GPU" if _is_gpu(m.group(1)) else "CPU"), *backend_of(m.group(1))]),
    # ("unable to allocate backend buffer" names no device: the model's buffers, on the GPU or in RAM)
    P("ggml-weights-fail", ("unable to allocate",), r"unable to allocate (\S+) buffe", lambda m: [("oom.kind", "ggml_alloc_failed"), ("oom.buffer", "weights"),
      *([] if m.group(1) == "backend" else [("oom.buffer_device", "GPU" if _is_gpu(m.group(1)) else "CPU")]), ("_phase", "load_weights")]),
    # (a hybrid or recurrent model's "rs cache", its recurrent state per sequence, is made beside the KV cache)
    # (ggml's other applications word it their own way: whisper.cpp's "whisper_kv_cache_init: failed to allocate memory
    # for the kv cache", "whisper_kv_cache_init() failed for self-attention cache")
    P("ggml-kv-fail", ("for kv cache", "for rs cache", "llama_kv_cache", "failed to initialize the context", "for the kv cache", "kv_cache_init() failed"),
      r"failed to allocate buffer for (?:kv|rs) cache|llama_kv_cache\w*\(\) failed|failed to initialize the context: failed to allocate buffer for kv|"
      r"failed to allocate memory for the kv cache|\b\w+_kv_cache_init\(\) failed",
      lambda m: [("oom.kind", "ggml_alloc_failed"), ("oom.buffer", "kv"), ("_phase", "kv_alloc")]),
    P("ggml-compute-fail", ("compute buffers", "compute pp buffers", "compute tg buffers"), r"failed to allocate compute (?:pp |tg )?buffers",
      lambda m: [("oom.kind", "ggml_alloc_failed"), ("oom.buffer", "compute"), ("_phase", "profile")]),
    # llama.cpp's own fit of the model to free memory, refused because -ngl (or a tensor override) was set by
    # hand: the layers do not fit. It is a projection and the load goes on: a failure after it decides.
    P("ggml-fit-refused", ("failed to fit params to free device memory",), r"failed to fit params to free device memory",
      const(("_weak_failure", "ggml_alloc_failed:weights:load_weights"))),
    # a program that runs llama.cpp with its own defaults (koboldcpp's and LM Studio's 4096-token context, llama-cpp-python's
    # 512), not llama-server's or llama-cli's context of the model's own length
    P("llamacpp-wrapper", (*WRAPPER_ANCHORS, "llama_cpp", "llama-cpp-python"), WRAPPER_NAMES + r"|llama[_-]cpp[_-]python|\bllama_cpp\b",
      const(("oom.hint", "llamacpp_wrapper")), flags=re.I),
    # its projection that everything fits with the margin to spare ("will leave 49133 >= 1024 MiB of free device memory,
    # no changes needed"): the model, context and compute buffers fit the devices by the engine's own count
    P("ggml-fit-fits", ("no changes needed",), r"will leave (\d+) >= (\d+) MiB of free device memory, no changes needed",
      const(("oom.hint", "fit_leaves_room"))),
    # the fit itself threw (a context the build cannot create: a KV type, a head size): an error, not a lack of memory
    P("ggml-fit-error", ("error while trying to fit params",), r"encountered an error while trying to fit params to free device memory: (.{1,200})",
      lambda m: [] if MEMORY_WORDS.search(m.group(1)) else [("error.final", m.group(0).strip()[:300])]),
    # Ollama's runner reserving the compute graph for the worst-case batch (a panic's stack names it)
    P("ollama-reserve-graph", ("reserveWorstCaseGraph",), r"\breserveWorstCaseGraph\b", const(("oom.buffer", "compute"), ("_phase", "profile"))),
    # ggml prints the bare CUDA error (then "current device: N, in function ..."); PyTorch prefixes its exception (RuntimeError, torch.AcceleratorError)
    P("ggml-cuda-error", ("CUDA error: out of memory",), r"(?<![a-z]Error: )(?<!torch\.)(?<!error ')CUDA error: out of memory(?!" + TORCH_CUDA_ADVICE + ")", kind("ggml_cuda_error_oom")),
    # Ollama's scheduler giving up on a runner that died while it loaded the model (weights, then its context): the load
    P("ollama-load-failed", ("error loading llama server",), r'msg="error loading llama server"', const(("_phase_umbrella", "load_weights"))),
    # (the runner's exit relayed by Ollama, its signal between: "terminated: signal: aborted (core dumped) cudaMalloc failed: ...")
    P("ggml-runner-cudamalloc", ("cudaMalloc failed: out of memory",), r"(?:runner process has terminated|error loading model)\b.{0,60}?\bcudaMalloc failed: out of memory",
      kind("ggml_alloc_failed")),
    P("ggml-cuda-error-old", ("CUDA error 2 at",), r"CUDA error 2 at \S+: out of memory", kind("ggml_cuda_error_oom")),
    # (a command buffer that could not get its working set while it ran: an execution-time failure, no size)
    P("metal-oom", ("OutOfMemory", "Insufficient Memory"), r"kIOGPUCommandBufferCallbackErrorOutOfMemory|(?:error|Command buffer execution failed): Insufficient Memory",
      const(("oom.kind", "ggml_cuda_error_oom"), ("oom.hint", "metal_command_buffer"), ("gpu.backend", "metal"))),
    # ggml-metal's report of a command buffer that ended in MTLCommandBufferStatusError (5): on a device
    # past its working set, most often the memory (a low reading: the status names no cause)
    P("metal-command-buffer-error", ("failed with status 5",), r"command buffer \d+ failed with status 5\b",
      const(("oom.kind", "metal_command_buffer_error"), ("oom.hint", "metal_command_buffer"), ("gpu.backend", "metal"))),
    # ggml-backend's own check of a buffer it could not get, naming no device (whisper.cpp and llama.cpp of 2023-24):
    # 'GGML_ASSERT: D:\\a\\whisper.cpp\\whisper.cpp\\ggml-backend.c:460: data != NULL && "failed to allocate buffer"'
    P("ggml-assert-alloc", ('"failed to allocate buffer"',), r'GGML_ASSERT(?::|\().{0,200}data != NULL && "failed to allocate buffer"',
      kind("ggml_alloc_failed", ("_buffer_device_unstated", True))),
    # (also cut after its first letters, at the end of a paste: ".../ggml/src/ggml-backend.cpp:1367: GGML_ASSE")
    # (and ggml's GGML_ABORT("fatal error") at a source line: ".../ggml/src/ggml-cuda/fattn.cu:579: fatal error", or in a
    # header's inline function: "ggml-impl.h:318: fatal error")
    P("ggml-assert", ("GGML_ASSERT", ": GGML_AS", ": fatal error"),
      r"GGML_ASSERT\(.*\) failed|\bggml[\w./-]*\.(?:c|cpp|cu|cuh|h|m):\d+: (?:GGML_AS(?:S(?:E(?:R(?:T)?)?)?)?|fatal error)\s*$",
      kind("ggml_assert")),
    # ggml_abort in a native backtrace (gdb's "#5 0x... in ggml_abort () from libggml-base.so", glibc's
    # "libggml-base.so.0(ggml_abort+0x11e)", macOS's "ollama 0x... ggml_abort + 156"): the program stopped on a failed
    # GGML_ASSERT or GGML_ABORT; where the log states a memory failure too, that failure decides
    P("ggml-abort-frame", ("ggml_abort",), r"\bggml_abort\b(?:\s*\(\)|\+0x[0-9a-f]+| \+ \d+|\s*$)",
      const(("error.final", "ggml aborted on a failed check (a GGML_ASSERT or GGML_ABORT in its backtrace): where no memory "
                            "failure is stated, a bug or an unsupported case, not a lack of memory"))),
    # Ollama's ggml asking the driver for a device's memory ("ggml_backend_cuda_device_get_memory device GPU-3db8... utilizing
    # NVML memory reporting free: 9562619904 total: 25769803776"; ADLX on AMD, DXGI + PDH on a Windows iGPU): the card's size
    P("ggml-device-memory", ("memory reporting free:",), r"memory reporting free: \d+ total: (\d+)",
      lambda m: [("gpu.total_bytes", int(m.group(1)))] if int(m.group(1)) else []),
    # a ggml program initialising a GPU backend: a buffer it names no device for may be the GPU's
    P("ggml-gpu-init", tuple(f"ggml_{b}_init" for b in ("cuda", "metal", "vulkan", "sycl", "opencl", "cann", "musa"))
      + tuple(f"{b} backend" for b in ("CUDA", "Metal", "Vulkan", "SYCL", "ROCm", "OpenCL", "CANN"))
      + tuple(f"{b} devices" for b in ("CUDA", "ROCm", "Vulkan", "SYCL")),
      r"ggml_(?:cuda|metal|vulkan|sycl|opencl|cann|musa)_init\b|using (?:CUDA|Metal|Vulkan|SYCL|ROCm|OpenCL|CANN) backend|"
      r"found \d+ (?:CUDA|ROCm|Vulkan|SYCL) devices",
      const(("_gpu_backend_seen", True))),
    # the driver lost the device (a hang reset by its watchdog, a rejected submission): whatever
    # allocation message came before it, the device is gone, not full
    # (the amdgpu kernel driver's watchdog on a ring that stopped answering: "amdgpu 0000:0a:00.0: ring comp_1.1.0 timeout,
    # signaled seq=1924, emitted seq=1926", or the same line as journalctl keeps it, alone: "ring comp_1.1.0 timeout"; and
    # RADV's cancelled submission, also cut after "because th"; Direct3D's removed
    # device under DirectML or WebGPU: "GetDeviceRemovedReason failed with DXGI_ERROR_DEVICE_HUNG (0x887A0006)", or by its
    # code alone, as DirectML's allocator prints it: "887A0005 The GPU device instance has been suspended.")
    P("device-lost", ("DeviceLost", "DEVICE_LOST", "context is lost", "GPU hang", "The CS has been cancelled", " timeout, signaled seq=",
                      "DXGI_ERROR_DEVICE_", "887A000", "887a000", "ring comp_", "ring gfx_", "ring sdma"),
      r"vk::DeviceLostError|ErrorDeviceLost|VK_ERROR_DEVICE_LOST|(?:UR|ZE)_RESULT_ERROR_DEVICE_LOST|\bDXGI_ERROR_DEVICE_(?:HUNG|REMOVED|RESET)\b|\b(?:0x)?887[Aa]000[567]\b|"
      r"radv/amdgpu: The CS has been cancelled because|\bGPU hang\b|\bamdgpu\b.{0,60}\bring \S+ timeout, signaled seq=\d+|"
      r"^\s*ring (?:comp|gfx|sdma)\d?_[\d.]+ timeout\s*$", kind("device_lost")),
    # mlock() refused by the locked-memory limit (RLIMIT_MEMLOCK; Windows' working-set quota, error 1453):
    # a warning, loading goes on
    # (on Windows llama.cpp locks with VirtualLock: "warning: failed to VirtualLock 39347507200-byte buffer (after
    # previously locking 0 bytes): Invalid access to memory location.")
    P("ggml-mlock-limit", ("failed to mlock", "failed to VirtualLock"),
      r"failed to mlock \d+-byte buffer.{0,80}(?:Cannot allocate memory|Out of memory|win32 error 1453)|failed to VirtualLock \d+-byte buffer",
      kind("mlock_limit")),
    # a ggml backend with no kernel for a type or an operation ("ggml_cuda_cpy_fn: unsupported type combination (q4_0 to
    # f32)", a quantized KV cache copied where only float copies exist): the build or the settings, not memory
    P("ggml-unsupported", (": unsupported ",), r"\bggml_\w+: unsupported (?:type combination|types?|op(?:eration)?)\b[^\n]{0,80}",
      lambda m: [("error.final", f"{m.group(0).strip()}: the backend has no kernel for it, not a lack of memory")]),
    # generation ran to the end of the context and this cache cannot drop its oldest tokens (MLA, recurrent
    # models): the run aborts on a full context, not on memory
    # (llama.cpp's run tool, and clients over it, stop a chat whose context is full: "context size exceeded"; llama.rn's
    # apps: "Completion failed: Context is full")
    P("ggml-kshift-unsupported", ("does not support K-shift", "context size exceeded", "Context is full"),
      r"does not support K-shift|^\s*context size exceeded\s*$|\bCompletion failed: Context is full\b",
      kind("context_full")),
    # llama_decode's 1: no KV cells free for the batch (the context, shared by the parallel slots, is full)
    # (bindings name the status: LLamaSharp's "llama_decode failed: 'NoKvSlot'", Rust wrappers' "Decode Error 1: NoKvCacheSlot",
    # llama-cpp-python's "llama_decode returned 1", its forks' "llama_decode failed (code 1): No KV slot available")
    P("ggml-no-kv-slot", ("failed to decode, ret = 1", "could not find a kv cache slot", "failed to find KV cache slot", "failed to find a memory slot",
                          "failed to decode the batch", "NoKvSlot", "NoKvCacheSlot", "llama_decode returned 1", "No KV slot available",
                          "llama_decode failed (code 1)", *KV_FULL_ANCHORS),
      r"llama_decode: failed to decode, ret = 1\b|could not find a kv cache slot|failed to find (?:KV cache|a memory) slot|" + KV_FULL + r"|"
      r"failed to decode the batch, n_batch = \d+, ret = 1\b|\bNoKv(?:Cache)?Slot\b|\bllama_decode returned 1\b|"
      r"\bNo KV slot available\b|\bllama_decode failed \(code 1\)",
      kind("kv_runtime_exhausted", ("_phase", "decode"))),
    # llama_decode's other failures: -2 the scheduler could not allocate the graph's compute buffers,
    # -3 the backend failed to run the graph (on Metal and Vulkan a command buffer that ran out of memory)
    # (-1: the batch itself was invalid, a token outside the vocabulary: the input, not memory)
    P("ggml-decode-status", ("failed to decode, ret = -",), r"failed to decode, ret = -([123])\b", lambda m: _DECODE_STATUS[m.group(1)]),
    # llama-server's check that an embedding or rerank input fits one physical batch (-ub): a request limit
    # (newer builds name the input's tokens: "input (681 tokens) is too large to process. increase the physical batch size
    # (current batch size: 512)"; a client may relay it with the advice left out: "input (2793 tokens) is too large to process
    # (current batch size: 2048)")
    P("llamacpp-input-over-ubatch", ("input is too large to process", "tokens) is too large to process"),
      r"input (?:\((\d+) tokens\) )?is too large to process(?:[.,] (?:please )?increase the physical batch size"
      r"(?: \(current batch size: (\d+)\))?| \(current batch size: (\d+)\))",
      lambda m: [("oom.kind", "request_rejected"), ("oom.hint", "input_over_ubatch")]
      + ([("mem.prefill_tokens", int(m.group(1)))] if m.group(1) else [])
      + ([("knob.ubatch_size", int(m.group(2) or m.group(3)))] if m.group(2) or m.group(3) else [])),
    # Ollama's scheduler weighing a GPU whose memory query returned nothing ("available=[0 B]"): discovery
    # failed, and every layer goes to the CPU whatever the model's size
    P("ollama-gpu-zero", ('available="[0 B]"',), r'msg=evaluating library=\w+ gpu_count=\d+ available="\[0 B\]"',
      kind("gpu_memory_unreported")),
    # its discovery that could not open a context on the card to ask ('msg="error looking up nvidia GPU memory" error="cuda
    # driver library failed to get device context 801"': a vGPU or driver that does not serve CUDA): never measured
    P("ollama-gpu-lookup-failed", ("error looking up nvidia GPU memory",),
      r'msg="error looking up nvidia GPU memory" error="[^"]*failed to get device context \d+',
      kind("gpu_memory_unreported")),
    # a backend that reports a largest buffer of 0 bytes ("tensor output_norm.weight is too large to fit in a Metal buffer
    # (tensor size: 16384, max buffer size: 0)"): the device was never measured (an unsupported GPU), and every
    # allocation after it fails whatever its size
    P("ggml-zero-buffer-limit", ("max buffer size: 0)",), r"too large to fit in a \w+ buffer \(tensor size: \d+, max buffer size: 0\)",
      kind("gpu_memory_unreported", ("oom.hint", "zero_buffer_limit"))),
    # Ollama's scheduler warning that a stopped runner's VRAM came back slowly: it goes on loading
    P("ollama-vram-recovery", ("VRAM usage didn't recover",), r"gpu VRAM usage didn't recover within timeout", kind("vram_recovery_warning")),
    # Ollama (2023-24) when its runner's stream ended mid-request: the runner died, and the CLI guesses memory
    P("ollama-runner-exited", ("you may not have enough available memory",),
      r"llama runner exited, you may not have enough available memory to run this model", kind("runner_exited")),
    # (a command buffer macOS stopped because it ran so long it held up the display: code 0x0e,
    # "Impacting Interactivity", which some releases print as "Internal Error"; out of memory is 0x08)
    P("metal-timeout", ("CallbackErrorTimeout", "Caused GPU Timeout Error", "ImpactingInteractivity", "(0000000e:"),
      r"kIOAccelCommandBufferCallbackErrorTimeout|Caused GPU Timeout Error|kIOGPUCommandBufferCallbackErrorImpactingInteractivity|\(0000000e:",
      kind("gpu_timeout")),
    # the other reasons macOS gives for stopping a command buffer: the GPU hung, faulted on an address it had no
    # mapping for, or was stopped for another process's fault ("Caused GPU Address Fault Error
    # (0000000b:kIOGPUCommandBufferCallbackErrorPageFault)"): a kernel or driver fault, not memory
    P("metal-gpu-fault", ("kIOGPUCommandBufferCallbackError", "Caused GPU "),
      r"kIOGPUCommandBufferCallbackError(Hang|PageFault|InnocentVictim|SubmissionsIgnored|NotPermitted|InvalidResource)\b|"
      r"Caused GPU (Hang|Address Fault) Error",
      lambda m: [("oom.kind", "illegal_memory_access" if "Fault" in (m.group(1) or m.group(2)) else "gpu_timeout"), ("gpu.backend", "metal")]),
    # iOS refusing GPU work from an app in the background ("Insufficient Permission (to submit GPU work from background)
    # (00000006:kIOGPUCommandBufferCallbackErrorBackgroundExecutionNotPermitted)"): a policy, not memory, whatever
    # "Insufficient" reads like
    P("metal-background-denied", ("BackgroundExecutionNotPermitt", "submit GPU work from background"),
      r"kIOGPUCommandBufferCallbackErrorBackgroundExecutionNotPermitt|\bto submit GPU work from background\b",
      const(("oom.kind", "gpu_background_denied"), ("gpu.backend", "metal"))),
    P("ggml-pool-malloc", ("ggml_cuda_pool_malloc",), r"ggml_cuda_pool_malloc", const(("oom.hint", "ggml_pool_alloc"), ("_phase", "prefill"))),
    # LM Studio's MLX engine fitting the context to Metal's working set ("[context_fit][INFO]: Model context auto-fit:
    # family=qwen3_5 max=262,144 fitted=152,576 working_set=36.00GiB reserve=3.00GiB safe_ceiling=33.00GiB baseline=20.15GiB
    # ..."): the resident model (baseline) against what it may use; and its prompt cache told the context it asked for was
    # cut ("context target: configured=200,000 fitted=152,576"): the KV at that context does not fit beside the model
    P("lmstudio-context-fit", ("context auto-fit:",),
      r"Model context auto-fit: .*?\bsafe_ceiling=([\d.]+)GiB baseline=([\d.]+)GiB",
      lambda m: [("mem.gpu_available_bytes", int(float(m.group(1)) * (1 << 30))), ("mem.weights_bytes", int(float(m.group(2)) * (1 << 30)))]),
    P("lmstudio-context-cut", ("context target: configured=",), r"context target: configured=([\d,]+) fitted=([\d,]+)",
      lambda m: setting_over_limit("max_model_len", to_int(m.group(1)), to_int(m.group(2)))),
    # Ollama's scheduler found no GPU with room for the graph and two layers, and runs the model on the CPU
    # (memory.go: available < overhead + graph + minimum + 2 x layer size; the graph and, in older releases, each
    # layer's KV share grow with num_ctx x OLLAMA_NUM_PARALLEL); the line may carry the sizes it weighed
    P("ollama-no-layer-fits", ("too little memory to allocate any layers", "insufficient VRAM to load any model layers"),
      r"too little memory to allocate any layers|insufficient VRAM to load any model layers", _no_layer_fits),
    P("ollama-layout", ("memory layout cannot be allocated",), r"memory layout cannot be allocated(?: with num_gpu = (\d+))?",
      # ("with num_gpu = N" only where num_gpu was set: the layer count was forced past Ollama's own fitting)
      lambda m: [("oom.kind", "ollama_layout_failed")]
      + ([("knob.gpu_layers", int(m.group(1))), ("oom.hint", "gpu_layers_forced")] if m.group(1) else [])),
    # (a function that only asks the device for its free memory allocates nothing: "device_query")
    # (a compute op's function, "ggml_cuda_mul_mat_cublas_impl", "ggml_cuda_flash_attn_ext": the model had loaded and was running)
    P("ggml-cuda-fn", ("current device:",), r"current device: (\d+), in function (\w+)",
      lambda m: [("oom.device", m.group(1)), ("oom.hint", "ggml_fn_" + m.group(2))]
      + ([("oom.hint", "ggml_running_op")] if _COMPUTE_FN.search(m.group(2)) and not _ALLOC_FN.search(m.group(2)) else [])
      + ([("oom.hint", "device_query")] if re.search(r"get_(?:device_)?memory$", m.group(2)) else [])),
    # the flash-attention kernels where a fault or an abort is located: ggml's function ("current device: 0, in function
    # ggml_cuda_flash_attn_ext_mma_f16_case") or source files (".../fattn.cu:579: fatal error", "fattn-mma-f16.cuh:1945"),
    # flash-attn's "flash_attn_interface.py", vLLM's "vllm_flash_attn/"; a debugger naming the faulting kernel ("kernel: void
    # flash_attn_ext_f16<256, 256, 32, 2, false, false>(...)", flash-attn's "flash_fwd_splitkv_kernel")
    P("flash-attention-kernel", ("fattn", "flash_attn", "flash_fwd"),
      r"current device: \d+, in function \w*flash_attn|/fattn[\w-]*\.cuh?:\d+|\bflash_attn/flash_attn_interface\.py|\bflash_attn_2_cuda\b|\bvllm_flash_attn/|"
      r"\bvoid (?:flash_attn_ext_\w+|flash_fwd(?:_splitkv)?(?:_combine)?_kernel)\b",
      const(("oom.hint", "flash_attention_kernel"))),
    P("ggml-pool-alloc", ("look_ahead_size", "cuMemCreate", "reserve_size"), r"^(?!.*(?:torch_memory_saver|nvshmem|mem_heap)).*(?:look_ahead_size|cuMemCreate|reserve_size)",
      const(("oom.hint", "ggml_pool_alloc"), ("_phase", "prefill"))),
    # accounting
    P("ggml-model-buffer", ("buffer size",), r"\b([A-Z]\S*) (?:model )?buffer size =\s*([\d.]+) MiB", _model_buffer),
    P("ggml-kv-buffer", ("KV buffer size",), r"(\S+) KV buffer size =\s*([\d.]+) MiB", _kv_buffer),
    P("ggml-compute-buffer", ("compute buffer size",), r"(\S+) compute buffer size =\s*([\d.]+) MiB",
      lambda m: [("_sum:mem.compute_buffer_bytes", mib(m.group(2)))] if _is_gpu(m.group(1)) else []),
    # stable-diffusion.cpp's graph reservation for one model's pass ("vae compute buffer size: 14978.25 MB(VRAM)"),
    # after its weights were loaded: a failure from here on is in that pass's compute buffer
    P("sdcpp-compute-buffer", ("compute buffer size:",), r"\b(\w+) compute buffer size: ([\d.]+) ?MB ?\((VRAM|RAM)\)",
      lambda m: [("mem.compute_buffer_bytes", mib(m.group(2))), ("_phase", "prefill")] if m.group(3) == "VRAM" else []),
    P("ggml-kv-self", ("KV self size", "llama_kv_cache"), r"(?:KV self size|llama_kv_cache\w*: size)\s*=\s*([\d.]+) MiB",
      lambda m: [("mem.kv_total_bytes", mib(m.group(1))), ("_phase", "kv_alloc")]),
    P("ggml-kv-cells", ("kv_size =", "cells,"), r"kv_size = (\d+)|\(\s*(\d+) cells,", lambda m: [("_kv_cells", int(m.group(1) or m.group(2)))]),
    # the model file's type: Ollama's "file_type=IQ4_XS", llama.cpp's "print_info: file type   = Q4_K - Medium"
    # (before 2025 "llm_load_print_meta: model ftype      = Q4_K - Medium", earlier "mostly Q4_K - Medium")
    P("ggml-file-type", ("file_type=", "file type", "model ftype"),
      r"\bfile_type=(\w+)|(?:print_info|llm_load_print_meta):\s+(?:file type|model ftype)\s*=\s*(?:mostly |MOSTLY_)?(\w+)(?: - (Small|Medium|Large))?",
      _file_type),
    P("ggml-kv-type", ("type_k",), r"type_k = '(\w+)'", lambda m: [("knob.kv_cache_dtype", m.group(1))]),
    # (not the fit step's per-device count: "common_params_fit_impl: id=2, n_layer=23, ...")
    P("ggml-n-layer", ("n_layer",), r"(?<!id=\d, )(?<!id=\d\d, )\bn_layer\s*=\s*(\d+)", lambda m: [("knob.model_layers", int(m.group(1)))]),
    # the context's own line ("llama_new_context_with_model: n_ctx = 131072") is where its KV cache is sized
    P("ggml-n-ctx", ("n_ctx",), r"\bn_ctx\s*=\s*(\d+)",
      lambda m: [("knob.max_model_len", int(m.group(1)))] + ([("_phase", "kv_alloc")] if _CONTEXT_LINE.search(m.string) else [])),
    # Ollama's context as a Modelfile sets it ("PARAMETER num_ctx 131072") or a request's options ("num_ctx": 32768)
    P("ollama-num-ctx", ("num_ctx",), r"\bnum_ctx[\"']?\s*[:= ]\s*(\d+)", lambda m: [("knob.max_model_len", int(m.group(1)))]),
    # Ollama's runner load request (0.12 and later): "{Operation:fit ... Parallel:1 BatchSize:512 FlashAttention:false
    # KvSize:256000 KvCacheType: ...}": the KV cells are the context times the parallel sequences
    P("ollama-load-request", ("KvSize:",), r"\bParallel:(\d+) BatchSize:(\d+) FlashAttention:(\w+) KvSize:(\d+) KvCacheType:(\w*)",
      _ollama_load_request),
    # Ollama's placement of each part by device (0.9 and later): 'msg="model weights" buffer=CUDA0 size="16.2 GiB"',
    # 'msg="kv cache" device=CUDA0 size="36.0 GiB"', 'msg="compute graph" backend=ROCm0 buffer_type=ROCm0 size="2.1 GiB"'
    P("ollama-placement", ('msg="model weights"', 'msg="kv cache"', 'msg="compute graph"'),
      r'msg="(model weights|kv cache|compute graph)" (?:device|buffer|backend)=(\w+)(?: buffer_type=\w+)? size="([\d.]+ ?[KMGT]?i?B)"',
      _ollama_placement),
    P("ggml-n-ctx-seq", ("n_ctx_per_seq", "n_ctx_seq"), r"n_ctx_(?:per_)?seq\s*(?:=\s*|\()(\d+)", lambda m: [("_n_ctx_seq", int(m.group(1)))]),
    P("ggml-n-ctx-train", ("n_ctx_train",), r"n_ctx_train\s*(?:=\s*|\()(\d+)", lambda m: [("_n_ctx_train", int(m.group(1)))]),
    # llama-server's check of each slot's context against the model's ("the slot context (262144) exceeds the
    # training context of the model (40960) - capping"): the context asked, which the KV cache was sized to
    P("llamacpp-slot-context", ("exceeds the training context",),
      r"slot context \((\d+)\) exceeds the training context of the model \((\d+)\)",
      lambda m: [("knob.max_model_len", int(m.group(1))), ("_n_ctx_train", int(m.group(2)))]),
    P("ggml-n-seq", ("n_seq_max",), r"n_seq_max\s*=\s*(\d+)", lambda m: [("knob.max_num_seqs", int(m.group(1)))]),
    P("ggml-n-batch", ("n_batch",), r"\bn_batch\s*=\s*(\d+)", lambda m: [("knob.batch_size", int(m.group(1)))]),
    P("ggml-n-ubatch", ("n_ubatch",), r"n_ubatch\s*=\s*(\d+)", lambda m: [("knob.ubatch_size", int(m.group(1)))]),
    P("ggml-flash", ("flash_attn",), r"flash_attn\s*=\s*(\w+)",
      lambda m: [("knob.flash_attention", m.group(1).lower() in ("1", "true", "enabled", "on"))] if m.group(1).lower() != "auto" else []),
    # the loader's and the cache's own lines say which start-up step a log reached (a log cut before its error)
    # (placing tensors: "done_getting_tensors: tensor 'token_embd.weight' ... cannot be used with preferred buffer type")
    P("ggml-load-step", ("llm_load_tensors:", "load_tensors:", "llm_load_print_meta:", "whisper_model_load:", "llm server loading model",
                         "done_getting_tensors:"),
      r"\b(?:llm_load_tensors|load_tensors|llm_load_print_meta|whisper_model_load|done_getting_tensors):|status=\"llm server loading model\"",
      const(("_phase", "load_weights"))),
    # the scheduler reserving the compute graph's buffers for the worst-case batch
    # (the output buffer is allocated right before the compute buffers are reserved: "llama_new_context_with_model:
    # CUDA_Host  output buffer size =     0.49 MiB", "llama_context:  CUDA_Host  output buffer size", and whichever
    # function a build logs it from: "llama_init_from_model:  SYCL_Host  output buffer size")
    P("ggml-reserve-step", ("sched_reserve:", "graph_reserve:", "output buffer size"),
      r"\b(?:sched|graph)_reserve:|\b\w+:\s+\S+\s+output buffer size =", const(("_phase", "profile"))),
    # (and the sliding-window model's pair of caches: "llama_kv_cache_iswa: creating non-SWA KV cache, size = 128000 cells")
    P("ggml-kv-step", ("llama_kv_cache_init:", "llama_kv_cache:", "llama_kv_cache_unified:", "llama_kv_cache_iswa:"),
      r"\bllama_kv_cache(?:_init|_unified|_iswa)?:", const(("_phase", "kv_alloc"))),
    P("ggml-offloaded", ("layers to GPU",), r"offloaded (\d+)/(\d+) layers to GPU",
      lambda m: [("mem.layers_offloaded", int(m.group(1))), ("mem.layers_total", int(m.group(2))), ("_phase", "load_weights")]),
    P("ggml-build", ("build:",), r"build: (\d+) \(", lambda m: [("framework.version", "b" + m.group(1))]),
    P("ggml-device", ("compute capability",), r"Device (\d+): (.+?), compute capability", _device),
    # Vulkan's device list: "ggml_vulkan: 0 = Intel(R) Iris(R) Xe Graphics (Intel Corporation) | uma: 1 | ..."
    P("ggml-vulkan-device", ("| uma: 1",), r"ggml_vulkan: (\d+) = (.+?) \| uma: 1\b",
      lambda m: [("gpu.name", m.group(2).strip()), ("gpu.integrated_device", m.group(1))]),
    P("metal-working-set", ("recommendedMaxWorkingSetSize",), r"recommendedMaxWorkingSetSize\s*=\s*([\d.,]+) MB",
      lambda m: [("mem.gpu_available_bytes", _working_set_bytes(number(m.group(1))))]),
    P("ggml-free", ("MiB free",), r"using device (\S+) \(.*\) - (\d+) MiB free",
      lambda m: [("mem.gpu_available_bytes", int(m.group(2)) << 20), ("gpu.device_used", m.group(1)),
                 (f"_devfree:{m.group(1)}", int(m.group(2)) << 20)]),
    P("ggml-device-list", DEVICE_LIST_ANCHORS, DEVICE_LIST, _device_list),
    # KoboldCpp, which runs llama.cpp and takes its settings in its own flags (--gpulayers, --contextsize): its banner, its
    # libraries and script, its parsed arguments
    P("koboldcpp-launcher", ("KoboldCpp", "koboldcpp", "koboldpp", "kobold_bin", "kcpp_adapters", "gpulayers="),
      # (its build's source paths in an assert, "D:\a\koboldcpp\koboldcpp\ggml\src\ggml-cuda.cu:728", its bundle "kobold_bin")
      r"(?i)\bWelcome to KoboldCpp\b|\bkoboldcpp(?:_\w+)?\.(?:dll|so|py|exe)\b|\bkcpp_adapters\b|^Namespace\(.*\bgpulayers=|"
      r"[\\/]koboldc?pp[\\/]ggml[\\/]|\bkobold_bin\b",
      const(("launcher", "koboldcpp"))),
    # KoboldCpp's survey before it loads: the first GPU's memory as the driver reports it ("Detected Available GPU Memory: 6144 MB",
    # in older releases "Detected Free GPU Memory: 8192 MB (Set GPU layers manually if incorrect)")
    P("koboldcpp-gpu-memory", ("Detected Available GPU Memory:", "Detected Free GPU Memory:"), r"Detected (?:Available|Free) GPU Memory: (\d+) MB",
      lambda m: [("mem.gpu_total_bytes", int(m.group(1)) << 20)] if int(m.group(1)) else []),
    # llama.cpp's memory breakdown (at exit, or when a load fails): per device, in MiB,
    # "| - CUDA0 (RTX 4090) | total = free + (self = model + context + compute) + unaccounted |"
    # (after the function that prints it, and a timestamp or journal prefix: "common_memory_breakdown_print: |   - CUDA0 ...")
    P("ggml-memory-breakdown", (" + (",),
      r"(?:^|_memory_breakdown_print:\s*)\|\s*(?:- )?((?:CUDA|ROCm|Vulkan|SYCL|MUSA|CANN|Metal|MTL)\d+) \(.{0,100}\)\s*\|\s*(\d+) = (\d+) \+ \(\s*(\d+) = \s*(\d+) \+\s*(\d+) \+\s*(\d+)\)",
      lambda m: [("mem.gpu_total_bytes", int(m.group(2)) << 20), ("mem.gpu_available_bytes", int(m.group(3)) << 20),
                 ("mem.weights_bytes", int(m.group(5)) << 20), ("mem.kv_cache_bytes", int(m.group(6)) << 20),
                 ("mem.compute_buffer_bytes", int(m.group(7)) << 20), *backend_of(m.group(1))]),
    # ggml-sycl's allocation failure states the size
    P("ggml-sycl-alloc", ("Bytes of memory on device",), r"can't allocate (\d+) Bytes of memory on device",
      lambda m: [("oom.kind", "cuda_error_oom"), ("oom.requested_bytes", int(m.group(1))), ("gpu.backend", "sycl")]),
    P("ggml-ready", ("server is listening", "llama runner started"), r"server is listening|llama runner started", const(("_ready", True))),
    # llama-server's prompt cache past its --cache-ram limit, flagged ("cache state: 1 prompts, 2460.007 MiB (limits: 1200.000
    # MiB) ⚠ exceeds limit") or only by its numbers ("cache state: 1 prompts, 18803.422 MiB (limits: 8192.000 MiB, 0 tokens")
    P("llamacpp-prompt-cache", ("cache state:",), r"cache state: \d+ prompts, ([\d.]+) MiB \(limits: ([\d.]+) MiB\b.*?(exceeds limit)?$",
      lambda m: [("oom.kind", "prompt_cache_over_limit"), ("_phase", "decode")]
      if m.group(3) or float(m.group(1)) > float(m.group(2)) > 0 else []),
    P("vulkan-max-buffer", ("maxBufferSize", "maximum allowed buffer size"), r"is larger than the maximum allowed buffer size", kind("vulkan_max_buffer_size")),
    P("metal-max-buffer", ("is larger than buffer maximum",), r"buffer '\w+' size (\d+) is larger than buffer maximum of (\d+)",
      lambda m: [("oom.kind", "vulkan_max_buffer_size"), ("oom.requested_bytes", int(m.group(1)))]),
    # pinned host memory: llama.cpp falls back to pageable memory when pinning runs out (a hint);
    # a driver that does not match is a broken setup; any other reason (an invalid argument, the range
    # already mapped) is a warning: it goes on with pageable memory, and a memory failure after it is the cause
    # (Vulkan's pinned allocation fails with the driver's reason on the next line, then falls back the same way)
    P("ggml-vulkan-pinned", ("Failed to allocate pinned memory",), r"ggml_vulkan: Failed to allocate pinned memory",
      const(("oom.hint", "pinned_host"), ("oom.hint", "pinned_fallback"))),
    P("ggml-pinned", ("of pinned memory",), r"failed to allocate ([\d.]+) Mi?B of pinned memory: (.*)",
      lambda m: [("oom.hint", "pinned_host"), ("oom.hint", "pinned_fallback")] if "out of memory" in m.group(2)
      else [("oom.kind", "broken_install")] if _BROKEN_SETUP.search(m.group(2)) else [("oom.kind", "pin_refused")]),
    # node-llama-cpp's own check before it creates a context: the KV cache for that context and sequences, against
    # the VRAM, the RAM (where the context lives in RAM: a Mac's unified memory, the CPU backend) or both
    P("node-llama-cpp-context", ("is too large for the available",),
      r"A context size of (\d+)(?: with (\d+) sequences?)? is too large for the available (?:VRAM|RAM|resources)\b",
      lambda m: [("oom.kind", "ggml_alloc_failed"), ("oom.buffer", "kv"), ("knob.max_model_len", int(m.group(1))), ("_phase", "kv_alloc")]
      + ([("knob.max_num_seqs", int(m.group(2)))] if m.group(2) else [])),
    # Jan's own check before it starts llama.cpp (bytes): the model file, the KV estimate, what the card has
    P("jan-memory-check", ("modelSize:", "KV estimate", "Total VRAM", "Usable VRAM", "Total memory requirement"),
      r"\b(modelSize|KV estimate|Total VRAM|Usable VRAM|Total memory)\b[^:\d]*:\s*(\d{6,})\b",
      lambda m: [(_JAN_CHECK[m.group(1)], int(m.group(2)))]),
    # LM Studio's load error (JSON): the context and layers it tried, the VRAM and RAM it saw
    P("lmstudio-load-error", ('"n_ctx"', '"n_gpu_layers"', '"vram_recommended_capacity"', '"vram_unused"', '"ram_capacity"', '"ram_unused"'),
      r'"(n_ctx|n_gpu_layers|vram_recommended_capacity|vram_unused|ram_capacity|ram_unused)":\s*"?([\d.]+(?:\s?[KMGT]?B)?)"?', _lmstudio),
    # its cause when the runtime returned without an error status ("(Exit code: 0). Some model operation failed."): the runtime
    # ran and refused an operation; a crash for lack of memory ends with a status of its own
    P("lmstudio-exit-zero", ("(Exit code: 0)",), r'"cause":\s*"\(Exit code: 0\)\.\s*([^"]{0,160})',
      lambda m: [] if MEMORY_WORDS.search(m.group(1)) else [
          ("error.final", f"LM Studio's runtime ended with exit code 0 ({m.group(1).strip() or 'no reason given'}): an operation failed, no crash")]),
    # the context refused a setting combination ("V cache quantization requires flash_attn"): a setting, not memory
    P("ggml-setting-requires", ("quantization requires flash_attn",), r"\b([KV]) cache quantization requires flash_attn",
      lambda m: [("error.final", f"a quantized {m.group(1)} cache needs flash attention (-fa on): the context refused the setting")]),
    # a model this build cannot read (llama.cpp's loader; LM Studio's and Ollama's reports quote it)
    # (or a multimodal projector it cannot read: "clip_init: failed to load model '...': load_hparams: unknown projector type: gemma4uv")
    P("ggml-unknown-architecture", ("unknown model architecture", "unknown projector type"),
      r"unknown (model architecture|projector type): '?([\w.-]*)",
      lambda m: [("error.final", f"unknown {m.group(1)} '{m.group(2)}' (this build does not support the model)")]),
    # ---- Ollama
    # Ollama's GPU discovery: the bundled CUDA runtime cannot load on this driver (the GPU goes unused)
    P("ollama-driver-too-old", ("driver is too old",), r"your nvidia driver is too old or missing",
      const(("error.final", "your nvidia driver is too old or missing (the bundled CUDA runtime cannot load)"))),
    # the runner could not start or run at all: a missing program or shared library (127; Windows' DLL not
    # found / entry point not found), or an instruction this CPU lacks: a build or install fault, not memory
    P("ollama-runner-cannot-run", ("exit status 127", "exit status 0xc0000135", "exit status 0xc0000139", "exit status 0xc000001d"),
      _RUNNER_EXITED + r"(127|0xc0000135|0xc0000139|0xc000001d)\b",
      lambda m: [("error.final", f"the runner exited with status {m.group(1)} ({_RUNNER_EXIT[m.group(1)]}): a build or install fault, not memory")]),
    # the runner crashed: Go exits with status 2 on a panic or on a fatal signal in the runner's native code (a
    # segmentation fault, an abort): a crash whose cause its own lines name; a failed allocation prints its own line
    P("ollama-runner-crashed", ("exit status 2",), _RUNNER_EXITED + r"2\b",
      const(("error.final", "the runner crashed (exit status 2: a Go panic, or a fatal signal in its native code such as a "
                            "segmentation fault); its own lines above name the cause"))),
    # the card's memory read as nothing (total 0, used negative): a driver or NVML misreading, not a full card
    P("ollama-misread-memory", ("totalMem 0", "usedMem -"), r"\btotalMem 0\b|\busedMem -\d",
      const(("error.final", "the GPU's memory was read as total 0 or negative used: a driver/NVML misreading, not a full card"))),
    # `ollama ps`: what the loaded model takes in memory (weights, KV cache at its context, graph), where, and
    # (newer releases) at what context; `ollama list`: the model's file, about its weights
    P("ollama-ps-row", ("% GPU", "% CPU", "CPU/GPU"), OLLAMA_PS_ROW + r"(?:\s+(\d{1,3}(?: \d{3})+|\d{3,7})\b)?", _ollama_ps_row),
    P("ollama-list-row", ("seconds ago", "minutes ago", "hours ago", "days ago", "weeks ago", "months ago", "hour ago", "day ago",
                          "week ago", "month ago", "minute ago"),
      r"^\s*\S+\s+[0-9a-f]{12}\s+([\d.]+\s?[KMGT]i?B)\s+(?:\d+|an?|About an?) (?:second|minute|hour|day|week|month|year)s? ago\s*$",
      lambda m: [("mem.weights_total_bytes", size_of(m.group(1)) or 0)]),
    P("ollama-offload", ("layers.offload", "memory.required", "memory.weights", "memory.available", "layers.model", "memory.graph"),
      r"(?:layers|memory)\.\w+", lambda m: _ollama_kv(m.string)),
    # the scheduler takes off what the models it already runs hold: total less available is theirs
    P("ollama-vram-of-loaded", ("existing loaded models",),
      r'updated VRAM based on existing loaded models"?.*?\btotal="([^"]+)" available="([^"]+)"', _ollama_loaded),
    # the scheduler's per-GPU figure ("available layer vram"="17179869183.3 GiB": free less its reserve, underflowed)
    P("ollama-layer-vram", ('"available layer vram"',), r'"available layer vram"="' + SIZE + '"',
      lambda m: [("mem.gpu_available_bytes", to_bytes(m.group(1), m.group(2)))]),
    P("ollama-offload-cpu", ('msg="offload to cpu"',), r'msg="offload to cpu"', const(("oom.hint", "cpu_only"))),
    P("ollama-system-memory", ('msg="system memory"',), r'msg="system memory" total="([^"]+)" free="([^"]+)"',
      lambda m: [(k, v) for k, v in (("host.ram_total_bytes", size_of(m.group(1))), ("host.ram_available_bytes", size_of(m.group(2)))) if v]),
    # the scheduler's own check of a model against RAM + swap: msg="model request too large for system" requested="75.2 GiB" ...
    P("ollama-too-large-for-system", ("model request too large for system",),
      r'model request too large for system"?(?:.*?requested="([^"]+)")?(?:.*?\bfree="([^"]+)")?',
      lambda m: [("oom.kind", "host_insufficient"), ("_phase", "load_weights")]
      + ([("oom.host_required_bytes", size_of(m.group(1)) or 0)] if m.group(1) else [])
      + ([("oom.host_available_bytes", size_of(m.group(2)) or 0)] if m.group(2) else [])),
    P("ollama-requires-ram", ("than is available",), r"model requires more system memory \(([^)]+)\) than is available \(([^)]+)\)",
      lambda m: [("oom.kind", "host_insufficient"), ("oom.host_required_bytes", size_of(m.group(1)) or 0),
                 ("oom.host_available_bytes", size_of(m.group(2)) or 0), ("_phase", "load_weights")]),
    # LM Studio's load guardrail, refusing before anything is placed ("Model loading was stopped due to insufficient system
    # resources. Under the current settings, this model requires approximately 273.25 GB of memory"): its estimate of the
    # weights, the context's KV cache and buffers against the machine's memory
    P("lmstudio-guardrail", ("insufficient system resources",),
      r"insufficient system resources\..*?requires approximately ([\d.]+)\s*([KMGT]i?B) of memory",
      lambda m: [("oom.kind", "host_insufficient"), ("_phase", "load_weights"), ("oom.host_required_bytes", to_bytes(m.group(1), m.group(2)))]),
    # Ollama's earlier check of the model file against the machine's memory ("requested model (18.4 GiB) is too large
    # for this system (6.8 GiB)"): the model, not a setting, does not fit
    P("ollama-model-too-large", ("is too large for this system",), r"requested model \(([^)]+)\) is too large for this system \(([^)]+)\)",
      lambda m: [("oom.kind", "model_exceeds_system"), ("mem.weights_total_bytes", size_of(m.group(1)) or 0),
                 ("host.ram_total_bytes", size_of(m.group(2)) or 0), ("_phase", "load_weights")]),
    P("ollama-runner-cmd", ("starting llama server",), r'starting llama server"? cmd="?([^"]*)', _ollama_runner),
    P("ollama-busy", ("maximum pending requests exceeded",), r"server busy.*maximum pending requests exceeded", kind("queue_full")),
    P("ollama-cache-slot", ("loading cache slot",), r"loading cache slot.*prompt=(\d+)", lambda m: [("mem.prefill_tokens", int(m.group(1))), ("_phase", "prefill")]),
    # clearing a freshly allocated backend buffer: llama.cpp clears its KV cache's buffers as the context is made
    P("ggml-buffer-clear", ("buffer_clear", "memset(ctx->dev_ptr"), r"\bggml_backend_\w+_buffer_clear\b|\.memset\(ctx->dev_ptr, value, buffer->size\)",
      const(("oom.buffer", "kv"), ("_phase", "kv_alloc"))),
    # the loader's own word that the buffer it could not allocate held the model's weights; the model
    # loader (llama_model_load) places only the weights, so its error with the reason cut off says the same
    P("ggml-model-buffer-failed", ("llama_model_load: error loading model",),
      r"llama_model_load: error loading model:?\s*(?:(?:failed|unable) to allocate (?:\w+ )?buffer|$)", const(("oom.buffer", "weights"), ("_phase", "load_weights"))),
    P("ggml-context-failed", ("failed to create context", "failed to initialize the context", "error loading model", "Failed to load model"),
      r"failed to create context|failed to initialize the context|error loading model|\"Failed to load model\"", const(("oom.hint", "context_failed"))),
    P("ollama-runner-stopped", ("unexpectedly stopped",), r"model runner has unexpectedly stopped", const(("oom.hint", "runner_stopped"))),
)
