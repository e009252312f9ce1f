"""llama.cpp messages (parsers/ggml.py): buffer-allocation failures, the context and KV lines,
and the accounting lines, under the old (`llm_load_tensors:`, `llama_new_context_with_model:`,
`llama_kv_cache_init:`) and the new (`load_tensors:`, `llama_context:`, `llama_kv_cache:`)
function-name prefixes (KNOBS.md section 6)."""

from __future__ import annotations

import pytest
from parser_table import GiB, MiB, case, check, lines, params

OOM = "oom.kind"

CASES = [
    # ---- failures
    case("cudamalloc-failed",
         "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 1766.75 MiB on device 0: cudaMalloc failed: out of memory\n",
         [(OOM, "ggml_alloc_failed", 1), ("oom.requested_bytes", MiB(1766.75), 1), ("oom.device", "0", 1),
          ("oom.buffer_device", "GPU", 1)], failure_line=1),
    case("cudamalloc-failed-device-1",
         "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 42640.01 MiB on device 1: cudaMalloc failed: out of memory\n",
         [(OOM, "ggml_alloc_failed", 1), ("oom.requested_bytes", MiB(42640.01), 1), ("oom.device", "1", 1),
          ("oom.buffer_device", "GPU", 1)]),
    case("gallocr-old-prefix",
         lines("ggml_gallocr_reserve_n: failed to allocate CUDA0 buffer of size 1852573696",
               "llama_new_context_with_model: failed to allocate compute buffers"),
         [(OOM, "ggml_alloc_failed", 1), ("oom.buffer_device", "GPU", 1), ("oom.requested_bytes", 1852573696, 1),
          ("oom.buffer", "compute", 1), (OOM, "ggml_alloc_failed", 2), ("oom.buffer", "compute", 2)],
         framework="llamacpp", phase="profile"),
    case("gallocr-new-prefix",  # KNOBS.md 6.3: ggml_gallocr_reserve_n_impl: ... -> graph_reserve: ...
         lines("ggml_gallocr_reserve_n_impl: failed to allocate CUDA0 buffer of size 4757131264",
               "graph_reserve: failed to allocate compute buffers"),
         [(OOM, "ggml_alloc_failed", 1), ("oom.buffer_device", "GPU", 1), ("oom.requested_bytes", 4757131264, 1),
          ("oom.buffer", "compute", 1), (OOM, "ggml_alloc_failed", 2), ("oom.buffer", "compute", 2)], phase="profile"),
    case("gallocr-cpu-and-vulkan",
         lines("ggml_gallocr_reserve_n: failed to allocate CPU buffer of size 139183763104",
               "ggml_gallocr_reserve_n: failed to allocate Vulkan0 buffer of size 4757131264"),
         [(OOM, "ggml_alloc_failed", 1), ("oom.buffer_device", "CPU", 1), ("oom.requested_bytes", 139183763104, 1),
          ("oom.buffer", "compute", 1), (OOM, "ggml_alloc_failed", 2), ("oom.buffer_device", "GPU", 2),
          ("oom.requested_bytes", 4757131264, 2), ("oom.buffer", "compute", 2)]),
    case("compute-pp-buffers",
         "llama_init_from_model: failed to initialize the context: failed to allocate compute pp buffers\n",
         [("oom.hint", "context_failed", 1), (OOM, "ggml_alloc_failed", 1), ("oom.buffer", "compute", 1)], phase="profile"),
    case("cpu-buffer-type",
         lines("ggml_backend_cpu_buffer_type_alloc_buffer: failed to allocate buffer of size 137438953504",
               "ggml_backend_cpu_buffer_type_alloc_buffer: failed to allocate buffer"),
         [(OOM, "ggml_alloc_failed", 1), ("oom.buffer_device", "CPU", 1), ("oom.requested_bytes", 137438953504, 1),
          (OOM, "ggml_alloc_failed", 2), ("oom.buffer_device", "CPU", 2)]),
    case("weights-buffer",
         lines("alloc_tensor_range: failed to allocate CUDA0 buffer of size 4617383936",
               "llama_model_load: error loading model: unable to allocate CUDA0 buffer"),
         [("oom.hint", "context_failed", 2), (OOM, "ggml_alloc_failed", 1), ("oom.requested_bytes", 4617383936, 1),
          ("oom.buffer_device", "GPU", 1), (OOM, "ggml_alloc_failed", 2), ("oom.buffer", "weights", 2),
          ("oom.buffer_device", "GPU", 2), ("gpu.backend", "cuda", 1)], phase="load_weights"),
    case("kv-buffer-old",
         lines("llama_kv_cache_init: failed to allocate buffer for kv cache",
               "llama_new_context_with_model: llama_kv_cache_init() failed for self-attention cache"),
         [(OOM, "ggml_alloc_failed", 1), ("oom.buffer", "kv", 1), (OOM, "ggml_alloc_failed", 2), ("oom.buffer", "kv", 2)],
         phase="kv_alloc"),
    case("kv-buffer-new",
         "llama_init_from_model: failed to initialize the context: failed to allocate buffer for kv cache\n",
         [("oom.hint", "context_failed", 1), (OOM, "ggml_alloc_failed", 1), ("oom.buffer", "kv", 1)], phase="kv_alloc"),
    case("cuda-error-in-kernel",  # KNOBS.md 6.3: runtime OOM inside the CUDA pool
         lines("CUDA error: out of memory",
               "  current device: 0, in function alloc at /app/ggml/src/ggml-cuda/ggml-cuda.cu:384",
               "  cuMemCreate(&handle, reserve_size, &prop, 0)"),
         [(OOM, "ggml_cuda_error_oom", 1), ("oom.device", "0", 2),
          ("oom.hint", "ggml_fn_alloc", 2), ("oom.hint", "ggml_pool_alloc", 3)], phase="prefill"),
    case("vulkan-allocation",
         lines("ggml_vulkan: Device memory allocation of size 4757131264 failed.",
               "ggml_vulkan: Requested buffer size exceeds device memory allocation limit: ErrorOutOfDeviceMemory"),
         [(OOM, "ggml_alloc_failed", 1), ("oom.requested_bytes", 4757131264, 1), ("oom.buffer_device", "GPU", 1),
          ("oom.hint", "per_allocation_limit", 2), (OOM, "alloc_size_limit", 2)], framework="llamacpp"),
    # ---- accounting, old prefixes (corpus)
    case("weights-buffers-old-prefix",
         lines("llm_load_tensors: offloaded 47/57 layers to GPU",
               "llm_load_tensors:        CPU buffer size = 18753.40 MiB",
               "llm_load_tensors:      CUDA0 buffer size =  3946.35 MiB"),
         [("mem.layers_offloaded", 47, 1), ("mem.layers_total", 57, 1),
          ("mem.weights_bytes", MiB(3946.35), 3), ("mem.weights_total_bytes", MiB(18753.40) + MiB(3946.35), 3)],
         framework="llamacpp"),
    case("context-old-prefix",
         lines("llama_new_context_with_model: n_ctx      = 2048",
               "llama_new_context_with_model: n_batch    = 512",
               "llama_new_context_with_model: n_ubatch   = 512",
               "llama_new_context_with_model: flash_attn = 0"),
         [("knob.max_model_len", 2048, 1), ("knob.batch_size", 512, 2), ("knob.ubatch_size", 512, 3),
          ("knob.flash_attention", False, 4)]),
    case("kv-size-old-prefix",
         lines("llama_kv_cache_init: kv_size = 8192, offload = 1, type_k = 'f16', type_v = 'f16', n_layer = 61, can_shift = 0",
               "llama_new_context_with_model: KV self size  = 3272.00 MiB, K (f16): 1636.00 MiB, V (f16): 1636.00 MiB"),
         [("mem.kv_tokens", 8192, 1), ("knob.kv_cache_dtype", "f16", 1), ("mem.kv_total_bytes", MiB(3272), 2),
          ("knob.model_layers", 61, 1), ("knob.max_model_len", 8192, 1)]),
    case("kv-buffers-are-not-weights",
         lines("llama_kv_cache_init:      CUDA0 KV buffer size =  3200.00 MiB",
               "llama_kv_cache_init:  CUDA_Host KV buffer size =    72.00 MiB"),
         [("mem.kv_cache_bytes", MiB(3200), 1), ("mem.kv_total_bytes", MiB(3272), 2)]),
    case("compute-buffers-are-not-weights",
         lines("llama_context:      CUDA0 compute buffer size =   552.00 MiB",
               "llama_context:  CUDA_Host compute buffer size =    40.01 MiB"),
         [("mem.compute_buffer_bytes", MiB(552), 1)]),
    case("rocm-kv-buffers-are-not-weights",  # corpus: Ollama on ROCm
         lines("Apr 19 22:43:30 box ollama[641298]: llama_kv_cache_init:      ROCm0 KV buffer size =   488.00 MiB",
               "Apr 19 22:43:30 box ollama[641298]: llama_kv_cache_init:  ROCm_Host KV buffer size =   152.00 MiB"),
         [("mem.kv_cache_bytes", MiB(488), 1), ("mem.kv_total_bytes", MiB(640), 2)], framework="ollama"),
    # ---- accounting, new prefixes (KNOBS.md 6.2)
    case("weights-buffers-new-prefix",
         lines("load_tensors: offloaded 33/33 layers to GPU",
               "load_tensors:        CUDA0 model buffer size =  4403.49 MiB",
               "load_tensors:   CPU_Mapped model buffer size =   281.81 MiB"),
         [("mem.layers_offloaded", 33, 1), ("mem.layers_total", 33, 1),
          ("mem.weights_bytes", MiB(4403.49), 2), ("mem.weights_total_bytes", MiB(4403.49) + MiB(281.81), 3)]),
    case("context-new-prefix",
         lines("llama_context: n_ctx         = 16384",
               "llama_context: n_ctx_seq     = 4096",
               "llama_context: n_seq_max     = 4",
               "llama_context: n_ctx_seq (4096) < n_ctx_train (131072) -- the full capacity of the model will not be utilized",
               "llama_kv_cache: size = 2048.00 MiB ( 16384 cells,  32 layers,  4/ 4 seqs), K (f16): 1024.00 MiB, "
               "V (f16): 1024.00 MiB"),
         [("knob.max_model_len", 16384, 1), ("knob.max_num_seqs", 4, 3), ("model.trained_context", 131072, 4),
          ("mem.kv_total_bytes", MiB(2048), 5), ("mem.kv_tokens", 16384, 5)]),
    # Vulkan's pinned buffer refused (its reason on the next line) and the run going on with host memory: the
    # allocation that failed after the output buffer (the compute buffer's reservation) is the failure
    case("vulkan-pinned-fallback-then-compute",
         lines("llama_kv_cache_init: AMD Radeon RX 5600 XT KV buffer size =   128.38 MiB",
               "ggml_vulkan: Failed to allocate pinned memory.",
               "ggml_vulkan: Requested buffer size exceeds device memory allocation limit: ErrorOutOfDeviceMemory",
               "llama_kv_cache_init:        CPU KV buffer size =  3979.63 MiB",
               "llama_new_context_with_model: Vulkan_Host  output buffer size =     0.49 MiB",
               "ggml_vulkan: Device memory allocation of size 2384005120 failed."),
         [("mem.kv_cache_bytes", MiB(128.38), 1), ("mem.kv_total_bytes", MiB(128.38) + MiB(3979.63), 4), ("oom.hint", "pinned_host", 2), ("oom.hint", "pinned_fallback", 2),
          ("oom.kind", "host_alloc_failed", 2), ("oom.cpu_alloc_failed", True, 2), ("oom.kind", "alloc_size_limit", 3),
          ("oom.hint", "per_allocation_limit", 3), ("oom.kind", "ggml_alloc_failed", 6), ("oom.requested_bytes", 2384005120, 6),
          ("oom.buffer_device", "GPU", 6), ("oom.buffer", "compute", 6)],
         phase="profile", failure_line=6),
    # the model file's type, as llama.cpp (print_info / llm_load_print_meta) and Ollama (ggml.go) print it
    case("file-type-k-quant", "print_info: file type   = Q4_K - Medium\n", [("knob.quantization", "q4_k_m", 1)]),
    case("file-type-i-quant", "print_info: file type   = IQ4_XS - 4.25 bpw\n", [("knob.quantization", "iq4_xs", 1)]),
    case("file-type-float", "print_info: file type   = BF16\n", [("knob.dtype", "bfloat16", 1)]),
    case("file-type-ollama",
         'time=2025-03-21T19:47:20.902+01:00 level=INFO source=ggml.go:67 msg="" architecture=gemma3 file_type=IQ4_XS '
         'name="Gemma 3 27b It" description="" num_tensors=808 num_key_values=45\n',
         [("knob.quantization", "iq4_xs", 1)]),
    case("slot-context-beyond-trained",  # holdout r75: llama-server capping a slot's context after the KV cache was sized to it
         "0.26.675.720 W srv load_model: the slot context (262144) exceeds the training context of the model (40960)- capping\n",
         [("knob.max_model_len", 262144, 1), ("model.trained_context", 40960, 1)]),
    case("parallel-slots-inferred",  # corpus ollama-10735: kv_size = 20 x n_ctx_per_seq
         lines("May 16 15:11:15 myH100VM ollama[1405]: llama_context: n_ctx_per_seq (32768) < n_ctx_train (131072) -- the "
               "full capacity of the model will not be utilized",
               "May 16 15:11:15 myH100VM ollama[1405]: llama_kv_cache_unified: kv_size = 655360, type_k = 'f16', "
               "type_v = 'f16', n_layer = 40, can_shift = 1, padding = 32",
               "May 16 15:11:15 myH100VM ollama[1405]: llama_kv_cache_unified: KV self size  = 51200.00 MiB, K (f16): "
               "25600.00 MiB, V (f16): 25600.00 MiB"),
         [("model.trained_context", 131072, 1), ("knob.kv_cache_dtype", "f16", 2), ("mem.kv_tokens", 655360, 2), ("knob.max_num_seqs", 20, 2),
          ("mem.kv_total_bytes", GiB(50), 3), ("knob.model_layers", 40, 2), ("knob.max_model_len", 32768, 1)],
         framework="ollama"),
    case("build-device-free-ready",
         lines("build: 4957 (2e7a28a6) with cc (GCC) 13.2.0 for x86_64-linux-gnu",
               "ggml_cuda_init: found 1 CUDA devices:",
               "  Device 0: NVIDIA GeForce RTX 3090, compute capability 8.6, VMM: yes",
               "llama_model_load_from_file_impl: using device CUDA0 (NVIDIA GeForce RTX 3090) - 23008 MiB free",
               "main: server is listening on http://127.0.0.1:8080 - starting the main loop"),
         [("framework.version", "b4957", 1), ("gpu.name", "NVIDIA GeForce RTX 3090", 3),
          ("gpu.total_bytes", 25447681229, 3),  # the card table's RTX 3090: what CUDA reports of 24 GB
          ("mem.gpu_available_bytes", MiB(23008), 4), ("gpu.device_used", "CUDA0", 4), ("gpu.name", "NVIDIA GeForce RTX 3090", 4)]),
    case("metal-buffer-length-assert",  # holdout r8: Metal's per-buffer cap, 0x86004000 bytes over 2048 MB
         lines("-[MTLDebugDevice newBufferWithBytesNoCopy:length:options:deallocator:]:700: failed assertion `Buffer Validation",
               "newBufferWith*:length 0x86004000 must not exceed 2048 MB."),
         [(OOM, "buffer_over_limit", 2), ("oom.requested_bytes", 0x86004000, 2), ("oom.buffer_limit_bytes", 2048 << 20, 2)]),
]


@pytest.mark.parametrize("c", params(CASES))
def test_llamacpp_messages(c):
    check(c)
