"""What any log states, whatever printed it (parsers/generic.py and the scanner's run logic):
failure statements in any wording, a final error that names another cause, launches pasted
one after another, and the frameworks a log implies without naming them."""

from __future__ import annotations

import pytest
from parser_table import ANY, GiB, MiB, case, check, lines, params
from oomdoctor.parsers.scan import read_text_stream

OOM = "oom.kind"
FINAL = "error.final"
ASCEND_NO_CONTEXT = ("the Ascend runtime has no device context in the calling thread (error 107002, context pointer null): the NPU was "
                     "not set in that thread (torch.npu.set_device there), not memory")
GUNICORN_TIMEOUT = ("gunicorn's arbiter killed a worker that did not answer within its --timeout (WORKER TIMEOUT): "
                    "the SIGKILL it reports is its own, not the OOM killer's")
RAY_UNPLACED = "Ray could not place the workers: the cluster lacks the free GPUs or resources they ask for; nothing ran out of memory"

STATED = [
    # ---- a runtime's own words for an allocation that failed for lack of memory
    case("runtime-error-out-of-memory",  # holdout r8 ctranslate2: no PyTorch numbers, no engine
         "RuntimeError: CUDA failed with error out of memory\n", [(OOM, "cuda_error_oom", 1)], failure_line=1),
    case("bytes-on-device",  # holdout r9: a SYCL build's allocator
         "can't allocate 21583194624 Bytes of memory on device\n",
         [(OOM, "cuda_error_oom", 1), ("oom.requested_bytes", 21583194624, 1), ("gpu.backend", "sycl", 1)]),
    case("dataloader-worker-killed",  # holdout r19: a host kill spelled with a capital K
         "RuntimeError: DataLoader worker (pid 2637) is killed by signal: Killed. \n",
         [(OOM, "killed", 1), ("oom.exit_signal", "SIGKILL", 1)]),
    case("mps-array-size-field",  # holdout r19: one MPS array over 2**32 bytes is a size field, not a full device
         "/AppleInternal/Library/x/MPSNDArray.mm:761: failed assertion `[MPSNDArray initWithDevice:descriptor:] Error: total bytes of NDArray > 2**32'\n",
         [(OOM, "alloc_size_limit", 1)], framework="transformers"),
    case("stream-creation-oom",  # holdout r19: ggml names the function; a stream is created before any buffer
         lines("ROCm error: out of memory", "  current device: 0, in function stream at //ml/backend/ggml/ggml/src/ggml-cuda/common.cuh"),
         [(OOM, "cuda_error_oom", 1), ("oom.device", "0", 2), ("oom.hint", "ggml_fn_stream", 2)]),
    case("vmm-reservation-named",  # holdout r19: the failing call is the pool's address reservation
         lines("CUDA error: out of memory", "  current device: 0, in function alloc at ggml-cuda.cu:476",
               "  cuMemAddressReserve(&pool_addr, CUDA_POOL_VMM_MAX_SIZE, 0, 0, 0)"),
         [(OOM, "ggml_cuda_error_oom", 1), ("oom.device", "0", 2), ("oom.hint", "ggml_fn_alloc", 2), (OOM, "va_reservation", 3)]),
    case("hip-vmm-pool-failure",  # holdout r56: a HIP build's VMM pool names no call, only "HipVMM Failure"
         "/src/llama.cpp/ggml/src/ggml-cuda/ggml-cuda.cu:359: HipVMM Failure: out of memory\n",
         [(OOM, "va_reservation", 1)]),
    # a card named by the log: its capacity from the shipped card table, as the runtime reports it
    # Metal's working set in "MB": 10^6 bytes in current ggml, MiB in 2023's (2/3 of 8 GiB of RAM)
    case("metal-working-set-units", lines("ggml_metal_init: recommendedMaxWorkingSetSize  =  5461.34 MB",
                                          "ggml_metal_init: recommendedMaxWorkingSetSize  = 11453.25 MB"),
         [("mem.gpu_available_bytes", MiB(5461.34), 1), ("mem.gpu_available_bytes", 11453250000, 2)]),
    # a paste cut inside Metal's running total keeps the total
    case("metal-running-total-cut",
         "ggml_metal_add_buffer: allocated 'data            ' buffer, size =  3533.78 MB, offs =   4160536576, ( 7630.41 /\n",
         [("mem.weights_bytes", MiB(3533.78), 1), ("mem.gpu_used_bytes", MiB(7630.41), 1)]),
    # holdout r58: a KV budget at or below zero, stated as a count
    case("vllm-negative-blocks", "INFO 06-21 10:00:18 llm_engine.py:128] # GPU blocks: -1, # CPU blocks: 512\n",
         [("mem.gpu_blocks", 0, 1), ("mem.cpu_blocks", 512, 1), (OOM, "no_kv_memory", 1)], framework="vllm"),
    case("sglang-negative-profiled-tokens",
         "[2025-07-02 07:41:59 DP0 TP0] max_total_tokens=131072 is larger than the profiled value -561981. Use the profiled value instead.\n",
         [("knob.max_total_tokens", 131072, 1), ("mem.kv_tokens", 0, 1), (OOM, "no_kv_memory", 1)], framework="sglang"),
    # holdout r58: notebooks' own words for a kernel gone (Colab's RAM notice, VS Code's Jupyter log)
    case("colab-ram-notice", "Your session crashed after using all available RAM\n", [(OOM, "kernel_oom_kill", 1), ("oom.hint", "notebook", 1)]),
    case("vscode-kernel-process-died", "22:55:16.349 [error] Disposing session as kernel process died ExitCode: undefined, Reason: \n",
         [("oom.hint", "kernel_died", 1)]),
    # holdout r57: an APU's integrated GPU listed beside the discrete card, by ROCm's name or Vulkan's uma flag
    case("ggml-integrated-device", lines("  Device 0: AMD Radeon RX 6500M, compute capability 10.3, VMM: no",
                                         "  Device 1: AMD Radeon Graphics, compute capability 10.3, VMM: no",
                                         "ggml_vulkan: 0 = Intel(R) Iris(R) Xe Graphics (Intel Corporation) | uma: 1 | fp16: 1 | warp size: 32"),
         [("gpu.name", "AMD Radeon RX 6500M", 1), ("gpu.name", "AMD Radeon Graphics", 2), ("gpu.integrated_device", "1", 2),
          ("gpu.name", "Intel(R) Iris(R) Xe Graphics (Intel Corporation)", 3), ("gpu.integrated_device", "0", 3)]),
    # holdout r59: vLLM refusing a multimodal request its encoder cache cannot hold (an HTTP 400, no memory short)
    case("vllm-encoder-cache-request",
         "The decoder prompt contains a(n) image item with length 4641, which exceeds the pre-allocated encoder cache size 3721. "
         "Please reduce the input size or increase the encoder cache size by setting --limit-mm-per-prompt at startup.\n",
         [(OOM, "request_rejected", 1), ("oom.hint", "multimodal", 1)]),
    # holdout r59: the container runtime's GPU set-up failing before any workload, whatever CUDA error it quotes
    case("nvidia-container-cli-init",
         "nvidia-container-cli: initialization error: cuda error: out of memory\n", [(OOM, "broken_install", 1)]),
    case("ggml-device-card-table",  # holdout r56: an RDNA2 card the scanner's old size list did not know
         "  Device 0: AMD Radeon RX 6700 XT, compute capability 10.3, VMM: yes\n",
         [("gpu.name", "AMD Radeon RX 6700 XT", 1), ("gpu.total_bytes", GiB(12) - MiB(20), 1)]),
    case("ggml-device-card-table-variant",  # the table's CUDA figure, not the marketing size (was 8 GiB for any 1080)
         "  Device 0: NVIDIA GeForce GTX 1080 Ti, compute capability 6.1, VMM: yes\n",
         [("gpu.name", "NVIDIA GeForce GTX 1080 Ti", 1), ("gpu.total_bytes", MiB(11178 - 8), 1)]),
    case("pinned-copy-frame",  # holdout r19: the failing frame copies to the host with non_blocking=True
         '--> 145     saved_hidden_states = hidden_states.to(\\"cpu\\", non_blocking = True)\n\nRuntimeError: CUDA error: out of memory\n',
         [("oom.hint", "pinned_copy", 1), ("oom.hint", "pinned_host", 1), (OOM, "cuda_error_oom", 3)]),
    case("optimizer-step-frame",  # holdout r19: Adam's moments are made on the optimizer's step
         lines('  File "/opt/conda/lib/python3.10/site-packages/torch/optim/adamw.py", line 568, in _multi_tensor_adamw',
               "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 112.00 MiB (GPU 0; 79.15 GiB total capacity; "
               "76.61 GiB already allocated; 112.38 MiB free; 77.55 GiB reserved in total by PyTorch)"),
         [("oom.hint", "optimizer_step", 1), ("oom.hint", "traceback", 1), (OOM, "torch_oom", 2), ("oom.device", "0", 2),
          ("oom.gpu_free_bytes", 117838971, 2), ("oom.gpu_total_bytes", 84986665370, 2), ("oom.requested_bytes", 117440512, 2),
          ("oom.torch_allocated_bytes", 82259361137, 2), ("oom.torch_reserved_bytes", 83268678451, 2),
          ("oom.torch_unallocated_bytes", 1009317314, 2)]),
    # PyTorch names itself "this process"; every numbered process is another one, or this one in
    # another rank's message on the same GPU (holdout r19: two processes sharing GPU 0 both fail)
    case("this-process-and-another",
         "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 268.00 MiB. GPU 0 has a total capacity of 79.15 GiB of which "
         "164.62 MiB is free. Process 95805 has 34.72 GiB memory in use. Including non-PyTorch memory, this process has 44.25 GiB "
         "memory in use. Of the allocated memory 43.82 GiB is allocated by PyTorch, and 21.69 MiB is reserved by PyTorch but unallocated.\n",
         [(OOM, "torch_oom", 1), ("oom.device", "0", 1), ("oom.requested_bytes", MiB(268), 1), ("oom.gpu_total_bytes", GiB(79.15), 1),
          ("oom.gpu_free_bytes", MiB(164.62), 1), ("oom.process_bytes", GiB(44.25), 1),
          ("oom.torch_allocated_bytes", GiB(43.82), 1), ("oom.torch_unallocated_bytes", MiB(21.69), 1),
          ("oom.process_count", 2, 1), ("oom.other_process_bytes", GiB(34.72), 1), ("gpu.other_processes", "pid 95805 34.72 GiB", 1)]),
    case("trt-builder-asks-past-its-activations",  # holdout r20: the request is the engine's weights, not its workspace
         lines("[12/29/2023-05:24:11] [TRT] [I] Total Activation Memory: 335907840",
               "[12/29/2023-05:24:11] [TRT] [E] 2: [virtualMemoryBuffer.cpp::resizePhysical::140] Error Code 2: OutOfMemory (no further information)",
               "[12/29/2023-05:24:11] [TRT] [W] Requested amount of GPU memory (20572012544 bytes) could not be allocated. "
               "There may not be enough free memory for allocation to succeed."),
         [("mem.activation_peak_bytes", 335907840, 1), ("oom.hint", "engine_build", 1), (OOM, "cuda_error_oom", 2),
          ("oom.hint", "engine_build", 3), ("oom.requested_bytes", 20572012544, 3)], framework="tensorrt-llm"),
    case("vllm-sleep-freed-nothing",  # holdout r20: sleep mode that released nothing
         "INFO 02-25 19:13:26 worker.py:133] Sleep mode freed 0.00 GiB memory, 63.15 GiB memory is still in use.\n",
         [(OOM, "sleep_freed_nothing", 1), ("mem.gpu_used_bytes", GiB(63.15), 1)], framework="vllm"),
    case("vllm-sleep-freed-the-memory",
         "INFO 02-25 19:13:26 worker.py:133] Sleep mode freed 60.10 GiB memory, 3.15 GiB memory is still in use.\n", framework="vllm"),
    case("vllm-profile-saw-memory-grow",  # holdout r20: another tenant let go while the profile measured
         "AssertionError: Error in memory profiling. Initial free memory 82.94 GiB,\n", [(OOM, "profile_inconsistent", 1)],
         framework="vllm", phase="profile"),
    case("memory-saver-resume",  # holdout r20: SGLang's torch_memory_saver re-creating what it paused
         lines("[torch_memory_saver.cpp] cuMemCreate CUDA_ERROR_OUT_OF_MEMORY (may not be an issue e.g. torch allocator will free cache and retry)",
               "[torch_memory_saver.cpp] cudaError error: 2 (out of memory)  file=csrc/core.cpp func=resume line=172"),
         [(OOM, "cuda_error_oom", 1), (OOM, "cuda_error_oom", 2), ("oom.hint", "sleep_wake", 2)], framework="sglang"),
    case("nvml-assert-in-the-oom-report",  # holdout r20: on a MIG slice NVML refuses the OOM report's query
         lines("RuntimeError: NVML_SUCCESS == r INTERNAL ASSERT FAILED at", '"/pytorch/c10/cuda/CUDACachingAllocator.cpp":1154'),
         [(OOM, "torch_oom", 1), ("oom.hint", "nvml_assert", 1)], framework="transformers"),
    case("launcher-return-code-minus-9",  # holdout r20: DeepSpeed's launcher, Python's minus-signal return code
         "[ERROR] [launch.py:325:sigkill_handler] exits with return code = -9\n",
         [(OOM, "killed", 1), ("oom.exit_signal", "SIGKILL", 1)], framework="deepspeed"),
    case("ollama-other-models-hold-the-card",  # holdout r20: the scheduler takes off what loaded models hold
         'time=... level=INFO source=sched.go:627 msg="updated VRAM based on existing loaded models" gpu=GPU-fad7 library=CUDA '
         'total="48.0 GiB" available="308.2 MiB"\n',
         [("mem.gpu_total_bytes", GiB(48), 1), ("oom.hint", "other_models_loaded", 1), ("oom.other_process_bytes", GiB(48) - MiB(308.2), 1)],
         framework="ollama"),
    case("vllm-v0-dead-while-serving",  # holdout r20: the front end found the engine dead when a request came in
         lines("INFO 02-10 18:06:30 engine.py:275] Added request cmpl-30aaf466904d4d148c2e17a584f448e0-0.",
               "CRITICAL 02-10 18:06:30 launcher.py:101] MQLLMEngine is already dead, terminating server process",
               "ERROR 02-10 18:06:30 engine.py:139] OutOfMemoryError('CUDA out of memory. Tried to allocate 1.27 GiB.')"),
         [(OOM, "torch_oom", 3), ("oom.requested_bytes", GiB(1.27), 3)], framework="vllm", phase="prefill"),
    case("vllm-v0-background-loop-died",  # holdout r27: the async engine's loop ends only once it serves
         lines("  File \"/envs/x/lib/python3.10/site-packages/vllm/engine/async_llm_engine.py\", line 70, in _log_task_completion",
               "vllm.engine.async_llm_engine.AsyncEngineDeadError: Task finished unexpectedly.",
               "ERROR    Model actor is out of memory, model id: Qwen2.5-VL-32B, error: CUDA out of memory. Tried to allocate 318.00 MiB."),
         [("oom.hint", "traceback", 1), (OOM, "torch_oom", 3), ("oom.requested_bytes", MiB(318), 3), ("oom.hint", "multimodal", 3)],
         framework="vllm", phase="prefill"),
    case("vllm-worker-failed-wrapper",  # holdout r20: V1's executor quoting a worker's error
         " Worker failed with error 'CUDA out of memory. Tried to allocate 408.29 GiB.', please check the stack trace above for the root cause\n",
         [(OOM, "torch_oom", 1), ("oom.requested_bytes", GiB(408.29), 1)], framework="vllm"),
    case("lmms-eval-is-multimodal",  # holdout r20: an omni model under the multimodal eval harness
         "2025-05-03 13:40:54.819 | ERROR    | lmms_eval.models.qwen2_5_omni:generate_until:302 - Error CUDA out of memory. "
         "Tried to allocate 334.76 GiB.\n",
         [("oom.hint", "multimodal", 1), (OOM, "torch_oom", 1), ("oom.requested_bytes", GiB(334.76), 1)]),
    case("vllm-before-0.8-log-format",  # holdout r20: no bracket around the file name, no version on the engine line
         "INFO 09-20 11:38:01 llm_engine.py:72] Initializing an LLM engine with config: model='gpt2', tokenizer='gpt2'\n",
         framework="vllm"),
    case("ollama-cli-relays-a-500",  # holdout r21: the CLI's relay of the server's load failure
         "Error: 500 Internal Server Error: llama-server process has terminated: exit status 1: radv/amdgpu: Not enough memory for "
         "command submission.\n", [(OOM, "host_alloc_failed", 1), ("oom.hint", "gtt_exhausted", 1)], framework="ollama"),
    case("rocm-aperture-violation",  # holdout r21: a kernel reading past the legal address range
         ":0:rocdevice.cpp            :3675: 2139490044663 us:  Callback: Queue 0x7ee7b4200000 aborting with error : "
         "HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: The agent attempted to access memory beyond the largest legal address. code: 0x29\n",
         [(OOM, "illegal_memory_access", 1)]),
    case("conda-env-named-vllm-is-no-vllm",  # holdout r21: a TRL script run from an environment called vllm
         '  File "/home/xxx/miniconda3/envs/vllm/lib/python3.12/site-packages/transformers/trainer.py", line 2241, in train\n',
         [("oom.hint", "traceback", 1)], framework="transformers"),
    case("old-graph-allocator-buffer",  # holdout r21: ggml's measured compute buffer, the 2023 spelling
         "AI: ggml_allocr_alloc: not enough space in the buffer (needed 308691360, largest block available 281657952)\n",
         [(OOM, "ggml_fixed_pool", 1)], framework="llamacpp"),
    case("nvrm-check-failed",  # holdout r21: the kernel driver's resource manager out of (system) memory
         "NVRM: nvCheckOkFailedNoLog: Check failed: Out of memory [NV\n", [(OOM, "driver_no_memory", 1)]),
    case("adam-moment-line",  # holdout r21: Adam's step, by its own code line
         "    denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)\n", [("oom.hint", "optimizer_step", 1)]),
    case("backend-buffer-names-no-device",  # holdout r21: llama.cpp's load error does not say GPU or RAM
         "Error: llama runner process has terminated: error loading model: unable to allocate backend buffer\n",
         [(OOM, "ggml_alloc_failed", 1), ("oom.buffer", "weights", 1), ("oom.hint", "context_failed", 1)], framework="ollama"),
    case("metal-buffer-type-size",  # holdout r22: Metal's buffer type states the size it could not allocate
         "ggml_backend_metal_buffer_type_alloc_buffer: error: failed to allocate buffer, size = 70400.38 MiB\n",
         [(OOM, "ggml_alloc_failed", 1), ("oom.requested_bytes", MiB(70400.38), 1), ("oom.buffer_device", "GPU", 1),
          ("gpu.backend", "metal", 1)], framework="llamacpp"),
    case("ggml-cuda-check-other-error",  # holdout r22: ggml's CUDA check on an error that is not memory
         lines("CUDA error: invalid argument", "  current device: 0, in function ggml_cuda_mul_mat_id at ggml/src/ggml-cuda/ggml-cuda.cu:2346"),
         [(FINAL, "CUDA error: invalid argument", 1), ("oom.device", "0", 2), ("oom.hint", "ggml_fn_ggml_cuda_mul_mat_id", 2), ("oom.hint", "ggml_running_op", 2)]),
    case("ggml-cuda-check-numbered",  # holdout r23: older ggml builds number the error and name the file
         "CUDA error 9 at C:\\koboldcpp\\ggml-cuda.cu:6858: invalid configuration argument\n",
         [(FINAL, "CUDA error 9 at C:\\koboldcpp\\ggml-cuda.cu:6858: invalid configuration argument", 1), ("oom.hint", "llamacpp_wrapper", 1)]),
    case("ggml-cublas-status-number",  # holdout r23: cuBLAS's status as a number only (15: not supported)
         "cuBLAS error 15 at /src/llama.cpp/ggml-cuda.cu:7282\n",
         [(FINAL, "cuBLAS error 15 at /src/llama.cpp/ggml-cuda.cu:7282 (CUBLAS_STATUS_NOT_SUPPORTED)", 1)]),
    case("rocm-check-behind-syslog-prefix",  # holdout r23: a journal prefix before ggml's ROCm check
         "Mar 01 10:00:00 host ollama[42]: ROCm error: invalid argument\n", [(FINAL, "ROCm error: invalid argument", 1)]),
    case("ggml-cuda-check-sentence",  # holdout r23: a message with a full stop (a driver older than the build)
         "CUDA error: the provided PTX was compiled with an unsupported toolchain.\n",
         [(FINAL, "CUDA error: the provided PTX was compiled with an unsupported toolchain.", 1)]),
    case("ggml-cuda-check-numbered-oom",  # holdout r23: the numbered form of an out-of-memory is no other error
         "CUDA error 2 at /go/src/ollama/llm/llama.cpp/ggml-cuda.cu:4856: out of memory\n", [(OOM, "ggml_cuda_error_oom", 1)]),
    case("ollama-runner-no-kv-slot",  # holdout r23: Ollama's Go runner spells llama.cpp's full KV cache its own way
         "panic: failed to decode batch: could not find a kv cache slot\n", [(OOM, "kv_runtime_exhausted", 1)], phase="decode"),
    case("vllm-v0-kv-capacity-wrapped",  # holdout r23: the capacity wrapped onto the next line as pasted
         lines("ValueError: The model's max seq len (30000) is larger than the maximum number of tokens that can be stored in KV cache (",
               "3984). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine."),
         [(OOM, "kv_capacity", 1), ("oom.requested_max_model_len", 30000, 1), ("oom.kv_capacity_tokens", 3984, 1)]),
    case("launcher-return-code-minus-7",  # holdout r24: a launcher's -7 is its child's SIGBUS (/dev/shm)
         "[ERROR] [launch.py:321:sigkill_handler] ['python', 'train.py'] exits with return code = -7\n",
         [(OOM, "bus_error", 1), ("oom.exit_signal", "SIGBUS", 1)], framework="deepspeed"),
    case("ollama-driver-too-old",  # holdout r24: Ollama's discovery cannot load the bundled CUDA runtime
         'level=DEBUG source=gpu.go:537 msg="Unable to load cudart" error="your nvidia driver is too old or missing.  If you have a CUDA GPU please upgrade"\n',
         [(FINAL, "your nvidia driver is too old or missing (the bundled CUDA runtime cannot load)", 1)]),
    case("trl-trainer-colocated",  # holdout r24: a TRL trainer driving vLLM in its own process
         '  File "/opt/conda/lib/python3.11/site-packages/trl/trainer/grpo_trainer.py", line 421, in __init__\n',
         [("oom.hint", "colocated_trainer", 1), ("oom.hint", "traceback", 1)]),
    case("torch-old-format-cut",  # holdout r25: the old format cut after "already allocated" (a pasted title)
         "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 16.00 MiB (GPU 0; 31.74 GiB total capacity; 31.25 GiB already allocated; 11.38\n",
         [(OOM, "torch_oom", 1), ("oom.requested_bytes", 16 * 1024**2, 1), ("oom.device", "0", 1),
          ("oom.gpu_total_bytes", int(31.74 * 1024**3), 1), ("oom.torch_allocated_bytes", int(31.25 * 1024**3), 1)]),
    case("xla-program-reserve",  # holdout r25: a TPU program that could not reserve its memory
         "RESOURCE_EXHAUSTED: Error loading program 'jit__multi_slice': Attempting to reserve 6.14G at the bottom of memory. That was not possible.\n",
         [(OOM, "xla_reserve_failed", 1), ("oom.requested_bytes", int(6.14 * 1024**3), 1)]),
    case("slurm-oom-kill-event",  # holdout r25: Slurm relaying the kernel's kill
         "slurmstepd: error: Detected 1 oom_kill event in StepId=9178265.0. Some of the step tasks have been OOM Killed.\n",
         [(OOM, "kernel_oom_kill", 1), ("oom.exit_signal", "SIGKILL", 1)]),
    case("triton-python-backend-shm",  # holdout r25: Triton's python backend region in /dev/shm
         "UNAVAILABLE: Internal: Unable to initialize shared memory key 'triton_python_backend_shm_region_3' to requested size (67108864 bytes).\n",
         [(OOM, "shm_exhausted", 1), ("oom.shm_requested_bytes", 67108864, 1)]),
    case("sglang-request-slots",  # holdout r25: SGLang's request-slot table, a count and not an allocation
         "RuntimeError: alloc_req_slots runs out of memory. Please set a smaller number for `--max-running-requests`.\n",
         [(OOM, "req_slots_exhausted", 1)], framework="sglang"),
    case("ggml-out-of-free-blocks",  # holdout r26: the graph allocator's fixed list of free blocks
         'GGML_ASSERT: ggml-alloc.c:230: alloc->n_free_blocks < MAX_FREE_BLOCKS && "out of free blocks"\n', [(OOM, "ggml_fixed_pool", 1)]),
    case("mlx-malloc-wrapped",  # holdout r26: MLX's buffer cap wrapped over two lines as pasted
         lines("  [metal::malloc] Attempting to allocate 447143641344 bytes which is greater    ",
               "  than the maximum allowed buffer size of 373662154752 bytes."),
         [(OOM, "buffer_over_limit", 1), ("oom.requested_bytes", 447143641344, 1), ("oom.buffer_limit_bytes", 373662154752, 1)]),
    case("qwen2-5-vl-module-path",  # holdout r16: a Qwen2.5-VL model file in a traceback is a multimodal run
         '  File "/x/site-packages/vllm/model_executor/models/qwen2_5_vl.py", line 100, in forward\n',
         [("oom.hint", "multimodal", 1), ("oom.hint", "traceback", 1)]),
    case("mlc-memory-plan",  # holdout r17: MLC-LLM's plan of one GPU's memory, part by part
         "[2024-03-25 15:35:00] INFO engine.py:243: Estimated total single GPU memory usage: 14361.14 MB (Parameters: 3615.13 MB. "
         "KVCache: 10689.56 MB. Temporary buffer: 56.44 MB)\n",
         [("mem.required_bytes", int(14361.14 * 2**20), 1), ("mem.weights_total_bytes", int(3615.13 * 2**20), 1),
          ("mem.kv_total_bytes", int(10689.56 * 2**20), 1), ("mem.compute_buffer_bytes", int(56.44 * 2**20), 1)]),
    case("node-llama-cpp-context-check",  # holdout r18: node-llama-cpp's check before it creates a context
         "Error: InsufficientMemoryError: A context size of 4096 with 4 sequences is too large for the available VRAM\n",
         [(OOM, "ggml_alloc_failed", 1), ("oom.buffer", "kv", 1), ("knob.max_model_len", 4096, 1), ("knob.max_num_seqs", 4, 1)],
         framework="llamacpp", phase="kv_alloc"),
    case("jan-memory-check",  # Jan's own check before it starts llama.cpp, in bytes
         lines("[tauri_plugin_llamacpp::gguf::commands][INFO] modelSize: 2999182176",
               "[tauri_plugin_llamacpp::gguf::utils][INFO] KV estimate (no SWA detected) -> full: 1207959552 bytes (~1152.00 MB)",
               "isModelSupported: Total memory requirement: 4207141728 for C:\\models\\model.gguf; Got kvCacheSize: 1207959552 from BE",
               "Total VRAM reported/calculated (in bytes): 1073741824",
               "Usable VRAM: 14882990387 bytes"),
         [("mem.weights_total_bytes", 2999182176, 1), ("mem.kv_total_bytes", 1207959552, 2), ("mem.required_bytes", 4207141728, 3),
          ("mem.gpu_total_bytes", 1073741824, 4), ("mem.gpu_available_bytes", 14882990387, 5)], framework="llamacpp"),
    case("lmstudio-load-error",  # LM Studio's load error: what it tried and what it saw
         lines('  "title": "Failed to load model",', '    "n_ctx": 1048576,', '    "n_gpu_layers": 81',
               '      "ram_capacity": "314.65 GB",', '      "ram_unused": "316.65 KB"', '      "vram_recommended_capacity": "141.90 GB",'),
         [("oom.hint", "context_failed", 1), ("knob.max_model_len", 1048576, 2), ("knob.gpu_layers", 81, 3),
          ("host.ram_total_bytes", 337852864922, 4), ("host.ram_available_bytes", 324250, 5), ("mem.gpu_total_bytes", 152363964826, 6)]),
    case("ascend-address-out-of-range",  # holdout r23: Ascend's AI core faulting on an address
         "[AIC_INFO] The DDR address of the MTE instruction is out of range.\n", [(OOM, "illegal_memory_access", 1)]),
    case("trtllm-cuda-check-other-error",  # holdout r22: the runtime's CUDA check on an unsupported call
         "E0305 19:29:57.029880 119 backend_model.cc:634] ERROR: Failed to create instance: unexpected error when creating "
         "modelInstanceState: [TensorRT-LLM][ERROR] CUDA runtime error in cudaDeviceGetDefaultMemPool(&memPool, device): "
         "operation not supported (/app/tensorrt_llm/cpp/x.cpp:42)\n",
         [(FINAL, "CUDA runtime error in cudaDeviceGetDefaultMemPool: operation not supported", 1)], framework="tensorrt-llm"),
    case("vulkan-out-of-device-memory", "vk::Device::allocateMemory: ErrorOutOfDeviceMemory\n", [(OOM, "cuda_error_oom", 1)]),
    case("host-side-wording", "std::bad_alloc while loading tensors into system memory\n",
         [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1)]),
    # a family a parser knows reads the line; the wording fallback adds nothing beside it
    case("known-family-wins", "ggml_gallocr_reserve_n: failed to allocate CUDA0 buffer of size 1852573696\n",
         [(OOM, "ggml_alloc_failed", 1), ("oom.buffer_device", "GPU", 1), ("oom.requested_bytes", 1852573696, 1),
          ("oom.buffer", "compute", 1)], framework="llamacpp"),
    case("tensor-range-then-kv",  # holdout r11: the line after the failed buffer says whose it was
         lines("alloc_tensor_range: failed to allocate ROCm0 buffer of size 2147483648",
               "llama_init_from_model: failed to initialize the context: failed to allocate buffer for kv cache"),
         [(OOM, "ggml_alloc_failed", 1), ("oom.requested_bytes", 2147483648, 1), ("oom.buffer_device", "GPU", 1),
          ("gpu.backend", "rocm", 1), (OOM, "ggml_alloc_failed", 2), ("oom.buffer", "kv", 2), ("oom.hint", "context_failed", 2)], phase="kv_alloc"),
    case("tensor-range-alone-is-the-model",  # holdout r6: nothing after it names the buffer
         "alloc_tensor_range: failed to allocate CUDA0 buffer of size 6776811776\n",
         [(OOM, "ggml_alloc_failed", 1), ("oom.requested_bytes", 6776811776, 1), ("oom.buffer_device", "GPU", 1),
          ("oom.buffer", "weights", 1), ("gpu.backend", "cuda", 1)]),
    case("ggml-graph-buffer-is-its-own-pool",  # holdout r9: the allocator's measured buffer, not the device
         "ggml_tallocr_alloc: not enough space in the buffer (needed 155582464, largest block available 151388160)\n",
         [(OOM, "ggml_fixed_pool", 1)]),
    case("request-refused",  # holdout r9: an HTTP 400, the server stays up
         "Error code: 400 - {'error': {'message': 'The decoder prompt contains a(n) image item with length 4200, which exceeds "
         "the pre-allocated encoder cache size 3721.'}}\n",
         [(OOM, "request_rejected", 1), ("oom.hint", "multimodal", 1)]),
    case("host-ram-percent",  # DeepSpeed's see_memory_usage
         "[INFO] [utils.py:834:see_memory_usage] CPU Virtual Memory:  used = 502.63 GB, percent = 99.8%\n",
         [("host.ram_used_ratio", 0.998, 1)]),
    case("ray-table-with-spaces",  # holdout r9: the table pasted with its tabs turned to spaces
         lines("PID     MEM(GB) COMMAND", "40126   11.20   ray::WorkerDict.actor_rollout_generate_sequences"),
         [(OOM, "ray_oom_kill", 2)], framework="vllm"),
    case("compose-prefixed-continuation",  # holdout r10: docker compose's service prefix on every line of the message
         lines("tabbyapi-1  | 2025-03-14 11:05:29.634 ERROR:    torch.OutOfMemoryError: CUDA out of memory.",
               "tabbyapi-1  | Tried to allocate 260.00 MiB. GPU 1 has a total capacity of 23.53 GiB of which",
               "tabbyapi-1  | 190.50 MiB is free."),
         [(OOM, "torch_oom", 1), (OOM, "torch_oom", 2), ("oom.requested_bytes", MiB(260), ANY), ("oom.device", "1", ANY),
          ("oom.gpu_total_bytes", GiB(23.53), ANY), ("oom.gpu_free_bytes", MiB(190.5), ANY)]),
    case("torch-capacity-without-device",  # holdout r6: "GPU  has" (no device number)
         "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 MiB. GPU  has a total capacity of 44.53 GiB "
         "of which 1.94 MiB is free.\n",
         [(OOM, "torch_oom", 1), ("oom.requested_bytes", MiB(2), 1), ("oom.gpu_total_bytes", GiB(44.53), 1),
          ("oom.gpu_free_bytes", MiB(1.94), 1)]),
    case("ollama-available-over-every-gpu",  # the plan's totals are over all GPUs of the split
         'time=2025-04-21T12:31:00 level=INFO source=server.go:138 msg=offload library=cuda layers.requested=-1 layers.model=62 '
         'layers.offload=62 memory.available="[78.7 GiB 68.3 GiB]"\n',
         [("mem.gpu_available_bytes", GiB(78.7) + GiB(68.3), 1), ("gpu.count", 2, 1), ("mem.layers_total", 62, 1),
          ("mem.layers_offloaded", 62, 1)],
         framework="ollama"),
    case("negative-kv-budget",  # holdout r12: the profile left less than nothing for the KV cache
         "(EngineCore_DP0 pid=563) INFO 12-23 23:34:23 [gpu_worker.py:298] Available KV cache memory: -2.77 GiB\n",
         [(OOM, "no_kv_memory", 1), ("mem.kv_cache_bytes", -GiB(2.77), 1)], framework="vllm", phase="kv_alloc"),
    case("stated-oom-names-its-step",  # holdout r71: a test harness's own words name the phase
         "  ✗ HTTP 500 — OOM during ~25K-token tool-response prefill\n",
         [(OOM, "cuda_error_oom", 1)], phase="prefill"),
    case("stated-oom-while-loading",
         "Error: out of memory while loading the model\n",
         [(OOM, "cuda_error_oom", 1)], phase="load_weights"),
    case("logits-processor-frames",  # holdout r9: SGLang's logprob path
         lines('  File "/sglang/python/sglang/srt/layers/logits_processor.py", line 461, in _get_logits',
               "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 6.05 GiB."),
         [("oom.hint", "sampler_logits", 1), (OOM, "torch_oom", 2), ("oom.requested_bytes", GiB(6.05), 2),
          ("oom.hint", "traceback", 1)], framework="sglang"),
]

NOT_STATED = [
    # advice, warnings and a runtime working around it: no failure
    case("advice", "Tip: to avoid out of memory errors, lower --max-model-len\n"),
    # (TensorRT's builder passing over a tactic whose scratch does not fit: a notice, the build goes on; not-oom-memory-notice
    # where nothing else is stated)
    case("trt-skipping-tactic",
         "[11/10/2023-21:47:10] [TRT] [W] Skipping tactic 2 due to insufficient memory on requested size of 132096\n",
         [(OOM, "memory_notice", 1), ("oom.hint", "engine_build", 1)], framework="tensorrt-llm"),
    case("warning-level", "WARNING: not enough memory for the prompt cache, falling back to disk\n"),
]

FINAL_ERRORS = [
    case("python-error", lines("Traceback (most recent call last):", "ValueError: Unrecognized configuration class Foo"),
         [("oom.hint", "traceback", 1), (FINAL, "ValueError: Unrecognized configuration class Foo", 2)]),
    case("native-abort",  # holdout r8 mlx-swift-lm; code 0x0e is macOS stopping a command buffer that held up the display (r54)
         "[METAL] Command buffer execution failed: Internal Error (0000000e:Internal Error)\n",
         [(OOM, "gpu_timeout", 1)]),
    # wrappers and memory-worded messages are not a cause of their own
    case("wrapper-error", "RuntimeError: Engine core initialization failed. See root cause above.\n"),
    case("wrapper-type", "ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n"),
    case("memory-worded", "ValueError: The model's max seq len is larger than the KV cache can hold\n"),
    case("nccl-error", "RuntimeError: NCCL error: unhandled system error\n", [("oom.hint", "nccl_system_error", 1)]),
    # llama.cpp's fit step threw on a context it cannot create (holdout r19: a KV type the head size rejects)
    case("fit-threw",
         "llama_params_fit: encountered an error while trying to fit params to free device memory: failed to create llama_context from model\n",
         [(FINAL, "encountered an error while trying to fit params to free device memory: failed to create llama_context from model", 1)],
         framework="llamacpp"),
    case("fit-threw-on-memory",
         "llama_params_fit: encountered an error while trying to fit params to free device memory: failed to allocate CUDA0 buffer\n"),
]

ENDINGS = [
    # the shell's prompt back (or an interrupt) on the last line: the process ended
    case("prompt-back-at-the-end",
         lines("Loading checkpoint shards:   0%|          | 0/3 [00:00<?, ?it/s]", "PS C:\\work\\unlimiformer>", "", ""),
         [("oom.hint", "process_ended", 2)], framework="transformers"),
    case("interrupted", "Loading checkpoint shards:   0% 0/2 [00:00<?, ?it/s]^C\n", [("oom.hint", "process_ended", 1)],
         framework="transformers"),
    case("a-prompt-before-more-output-is-no-end",
         lines("user@box:~/llm$", "Loading checkpoint shards:   0%|          | 0/3 [00:00<?, ?it/s]"), framework="transformers"),
]

RUNS = [
    case("lmdeploy-serving-loop",  # holdout r19: the PyTorch engine's loop fails while serving
         "2024-05-08 16:16:10,360 - lmdeploy - ERROR - Engine loop failed with error: CUDA out of memory. Tried to allocate 488.00 MiB.\n",
         [(OOM, "torch_oom", 1), ("oom.requested_bytes", MiB(488), 1)], framework="lmdeploy", phase="prefill"),
    # the user's second attempt fails differently: the last attempt is what fails now
    case("second-launch-after-a-failure",
         lines("INFO 03-27 16:40:00 [llm_engine.py:1] Initializing an LLM engine (v0.8.2) with config: model='m', max_seq_len=116160",
               "ERROR 03-27 16:43:19 [core.py:343] RuntimeError: CUDA error: out of memory",
               "INFO 03-27 17:30:00 [llm_engine.py:1] Initializing an LLM engine (v0.7.3) with config: model='m', max_seq_len=53008",
               "ERROR 03-27 17:34:18 [core.py:343] RuntimeError: CUDA out of memory occurred when warming up sampler with 1024 "
               "dummy requests."),
         [("framework.version", "0.7.3", 3), ("knob.max_model_len", 53008, 3), ("knob.model", "m", 3),
          (OOM, "torch_oom", 4), (OOM, "sampler_warmup", 4), ("oom.dummy_requests", 1024, 4), ("knob.max_num_seqs", 1024, 4)],
         framework="vllm", failure_line=4),
    case("failures-minutes-apart",  # a paste of two runs without their launch lines
         lines("ERROR 03-27 16:43:19 [core.py:343] RuntimeError: CUDA error: out of memory",
               "ERROR 03-27 17:34:18 [core.py:343] RuntimeError: CUDA error: out of memory"),
         [(OOM, "cuda_error_oom", 2)], failure_line=2),
    case("one-crash-many-lines",  # the same crash's lines, seconds apart, stay one run
         lines("ERROR 03-27 16:43:19 [core.py:343] RuntimeError: CUDA error: out of memory",
               "ERROR 03-27 16:43:20 [core.py:343] RuntimeError: CUDA error: out of memory"),
         [(OOM, "cuda_error_oom", 1), (OOM, "cuda_error_oom", 2)], failure_line=1),
    case("traceback-source-line-is-no-launch",
         lines("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.69 GiB.", "[rank0]:     llm = LLM("),
         [(OOM, "torch_oom", 1), ("oom.requested_bytes", GiB(4.69), 1)], failure_line=1),
]

FRAMEWORKS = [
    # holdout r79: vLLM's own check of its CPU swap space against the host's RAM, the name not printed
    case("vllm-swap-check-without-its-name", "ValueError: Too large swap space. 4.00 GiB out of the 4.30 GiB total CPU memory is allocated "
         "for the swap space.\n", [(OOM, "host_swap_over_ram", 1), ("knob.swap_space", 4.0, 1), ("oom.host_required_bytes", GiB(4), 1),
          ("oom.host_available_bytes", 4617089843, 1)], framework="vllm"),
    # holdout r80: ggml's applications that are not LLM runtimes
    case("whisper-cpp-app", "whisper_model_load: failed to allocate memory for the model\n", [(OOM, "cuda_error_oom", 1)],
         framework="other"),
    # holdout r79: ctransformers runs ggml's models
    case("ctransformers-path", "GGML_ASSERT: D:\\a\\ctransformers\\ctransformers\\models\\ggml/llama.cpp:453: data\n",
         [(FINAL, "GGML_ASSERT: D:\\a\\ctransformers\\ctransformers\\models\\ggml/llama.cpp:453: data", 1)], framework="llamacpp"),
    case("vllm-engine-line-without-its-name", "Initializing an LLM engine (v0.6.3.post1) with config: model='Llama-3.2-3B'\n",
         [("framework.version", "0.6.3.post1", 1), ("knob.model", "Llama-3.2-3B", 1), ("model.params", 3_000_000_000, 1)],
         framework="vllm"),
    case("deepspeed-ops-without-its-name",  # holdout r24: ZeRO-3's offload and its JIT ops, the name not printed
         lines("Loading extension module utils...", "Time to load utils op: 0.2017381191253662 seconds",
               "Parameter Offload: Total persistent parameters: 414720 in 81 params"), framework="deepspeed"),
    case("vllm-dummy-run-frame",  # holdout r24: the model runner's dummy forward pass, in a condensed quote
         "CUDA out of memory. Tried to allocate 2.00 GiB. (Model loading took 13.31 GiB) during torch.compile autotuning in _dummy_run\n",
         [(OOM, "torch_oom", 1), ("oom.requested_bytes", 2 * 1024**3, 1), ("mem.weights_bytes", 14291503677, 1)], framework="vllm"),
    case("llamafactory-quantization-bit",  # holdout r24: LLaMA-Factory's 4-bit flag (bitsandbytes)
         "python src/train_bash.py --stage ppo --model_name_or_path baichuan-7B --quantization_bit 4\n",
         [("knob.quantization", "bnb-4bit", 1), ("knob.model", "baichuan-7B", 1), ("model.params", 7_000_000_000, 1)]),
    case("llama-bench-and-gguf-repo", "./build/bin/llama-bench -hf unsloth/Qwen3-30B-A3B-GGUF:UD-Q4_K_M -ngl 999\n",
         [("knob.gpu_layers", 999, 1)], framework="llamacpp"),
    # the worker prefixes of a multi-GPU engine name how many workers share the model (holdout r19)
    case("vllm-worker-ranks",
         lines("(VllmWorker rank=0 pid=783) Loading safetensors using Runai Model Streamer:   8% Completed | 9/118",
               "(VllmWorker rank=7 pid=790) [RunAI Streamer] CPU Buffer size: 3.7 GiB for file: model-00010-of-00118.safetensors",
               "(VllmWorker rank=3 pid=786) [RunAI Streamer] CPU Buffer size: 3.7 GiB for file: model-00011-of-00118.safetensors"),
         [("parallel.workers", 8, 2)], framework="vllm"),
    case("sglang-tp-prefix",
         lines("[2025-05-29 14:59:00 TP5] Scheduler hit an exception: Traceback (most recent call last):",
               "[2025-05-29 14:59:00 TP1] Load weight end. type=Llama4ForConditionalGeneration, mem usage=25.10 GB."),
         [("parallel.workers", 6, 1), ("oom.hint", "traceback", 1)], framework="sglang"),
    case("llamacpp-source-path",  # holdout r19: an app's bundled llama.cpp asserting in its mmap code
         lines("llm-engine/llama.cpp/src/llama-mmap.cpp:790: GGML_ASSERT(addr) failed", "llama_mlock::grow_to(unsigned long)"),
         [(OOM, "ggml_assert", 1)], framework="llamacpp"),
    case("webui-llamacpp-loader",
         '  File "/home/textgen/text-generation-webui/modules/llamacpp_model.py", line 58, in __del__\n',
         [("oom.hint", "traceback", 1)], framework="llamacpp"),
    case("gguf-under-an-ollama-folder",
         "./llama-cli -m ../ollama_gguf/gguf/command-r-plus.gguf -ngl 999\n",
         [("knob.model", "../ollama_gguf/gguf/command-r-plus.gguf", 1), ("knob.gpu_layers", 999, 1)], framework="llamacpp"),
    case("vllm-shard-progress", "Loading safetensors checkpoint shards:  20% Completed | 1/5 [00:00<00:00,  4.18it/s]\n",
         framework="vllm"),
    case("llamacpp-system-info", "AVX = 0 | AVX2 = 0 | AVX512 = 0 | FMA = 0 | NEON = 0 | ARM_FMA = 0 | F16C = 0\n", framework="llamacpp"),
    case("accelerate-offload-folder",
         "ValueError: The current `device_map` had weights offloaded to the disk. Please provide an `offload_folder` for them.\n",
         [(OOM, "weights_offloaded", 1)], framework="transformers", phase="load_weights"),
    case("cpu-allocator-is-pytorch",
         "RuntimeError: [enforce fail at ..\\c10\\core\\CPUAllocator.cpp:72] data. DefaultCPUAllocator: not enough memory: "
         "you tried to allocate 16777216 bytes.\n",
         [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1), ("oom.requested_bytes", 16777216, 1)],
         framework="transformers"),
    case("verl-rollout-workers", "(WorkerDict pid=1) ray::WorkerDict.actor_rollout_generate_sequences\n", framework="vllm"),
    case("only-pytorch-reads-as-transformers", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB.\n",
         [(OOM, "torch_oom", 1), ("oom.requested_bytes", MiB(20), 1)], framework="transformers"),
    # holdout r13: the engine implied by its source paths, its device list and its wrappers' names
    case("ggml-source-path-in-a-binding",
         lines("/home/runner/work/node-llama-cpp/llama/llama.cpp/ggml/src/ggml-cuda/ggml-cuda.cu:96: CUDA error",
               "[node-llama-cpp] CUDA error: out of memory"),
         [(OOM, "ggml_cuda_error_oom", 2)], framework="llamacpp"),
    case("ggml-allocation-wording", lines("allocating 3076.72 MiB on device 2: cudaMalloc failed: out of memory",
                                          "graph_reserve: failed to allocate compute buffers"),
         [(OOM, "ggml_alloc_failed", 1), ("oom.buffer_device", "GPU", 1), ("oom.device", "2", 1),
          ("oom.requested_bytes", 3226174751, 1), (OOM, "ggml_alloc_failed", 2), ("oom.buffer", "compute", 2)], framework="llamacpp"),
    case("llamacpp-device-list", lines("Available devices:", "  ROCm0: AMD Radeon(TM) Graphics (110511 MiB, 110357 MiB free)"),
         [("mem.gpu_total_bytes", MiB(110511), 2), ("mem.gpu_available_bytes", MiB(110357), 2), ("mem.used_at_start_bytes", MiB(110511 - 110357), 2),
          ("gpu.backend", "rocm", 2)],
         framework="llamacpp"),
    case("lm-studio-models-folder", '    "downloadsDir": "/home/me/.cache/lm-studio/models"\n', [("oom.hint", "llamacpp_wrapper", 1)], framework="llamacpp"),
    case("vllm-sleep-allocator", "RuntimeError: CUDA Error: out of memory at /workspace/csrc/cumem_allocator.cpp:163\n",
         [(OOM, "cuda_error_oom", 1), ("oom.hint", "sleep_wake", 1)], framework="vllm"),
    # holdout r14: zsh's job report, Ollama's RAM + swap check, accelerate refusing a CPU/disk placement
    case("zsh-job-killed", "Loading checkpoint shards:   0%|          | 0/3 [00:00<?, ?it/s][1]    26478 killed     python test.py\n",
         [(OOM, "killed", 1), ("oom.exit_signal", "SIGKILL", 1)], phase="load_weights"),
    case("ollama-too-large-for-system",
         'msg="model request too large for system" requested="75.2 GiB" available=66355601408 total="31.2 GiB" free="29.8 GiB"\n',
         [(OOM, "host_insufficient", 1), ("oom.host_required_bytes", GiB(75.2), 1), ("oom.host_available_bytes", GiB(29.8), 1)],
         framework="ollama", phase="load_weights"),
    case("dispatched-on-cpu-or-disk",
         "Some modules are dispatched on the CPU or the disk. Make sure you have enough GPU RAM to fit the quantized model.\n",
         [(OOM, "bnb_dispatch", 1)], framework="transformers"),
    case("axolotl-runs-transformers", "python -m axolotl.cli.inference config.yml --lora_model_dir=./out\n", framework="transformers"),
    # holdout r15: a Vulkan result code, a device lost, llama.cpp's memory breakdown, its API names,
    # the web UI's loader, a vLLM command's positional model, PyTorch's module.to() frames
    case("vulkan-result-code", "vulkan_buffer.cc:61: InternalError: Check failed: (__e == VK_SUCCESS) is false: Vulkan Error, "
         "code=-2: VK_ERROR_OUT_OF_DEVICE_MEMORY\n", [(OOM, "cuda_error_oom", 1)]),
    case("vulkan-host-result-code", "Vulkan Error, code=-1: VK_ERROR_OUT_OF_HOST_MEMORY\n",
         [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1)]),
    case("device-lost", "radv/amdgpu: The CS has been cancelled because the context is lost. This context is innocent.\n"
         "terminate called after throwing an instance of 'vk::DeviceLostError'\n", [(OOM, "device_lost", 1), (OOM, "device_lost", 2)]),
    case("ggml-memory-breakdown",
         "| SYCL0 (Intel Arc Pro B65 Graphics)            | 32656 = 31827 + (20798 = 20583 + 142 + 72) + -19970 |\n",
         [("mem.gpu_total_bytes", MiB(32656), 1), ("mem.gpu_available_bytes", MiB(31827), 1), ("mem.weights_bytes", MiB(20583), 1),
          ("mem.kv_cache_bytes", MiB(142), 1), ("mem.compute_buffer_bytes", MiB(72), 1), ("gpu.backend", "sycl", 1)]),
    # llama_decode's -3: the backend failed to run the graph (a compute failure, no size)
    case("llama-decode-api", "Failed to send message llama_decode: failed to decode, ret = -3\n", [(OOM, "ggml_compute_failed", 1)],
         framework="llamacpp"),
    case("kv-buffer-message", "Failed to initialize the context: failed to allocate buffer for kv cache\n",
         [(OOM, "ggml_alloc_failed", 1), ("oom.buffer", "kv", 1)], framework="llamacpp", phase="kv_alloc"),
    case("textgen-exllama-loader", lines(
        r'  File "C:\webui\text-generation-webui\modules\models.py", line 65, in load_model',
        r'  File "C:\webui\text-generation-webui\modules\models.py", line 277, in ExLlama_loader',
        "    model, tokenizer = ExllamaModel.from_pretrained(model_name)"), [("oom.hint", "traceback", 2)], framework="exllama"),
    # a transformers model built with no placement: in host RAM ("device_map", "**kwargs" or an open call say nothing)
    case("hf-load-on-host", lines(
        '  File "/home/.cache/huggingface/modules/evaluate_modules/metrics/perplexity.py", line 114, in _compute',
        "    model = AutoModelForCausalLM.from_pretrained(model_id)"),
        [("oom.hint", "traceback", 1), ("oom.hint", "load_on_host", 2)], framework="transformers"),
    # holdout r72: a cast and a move chained after the call come once the model is built in host RAM
    case("hf-load-on-host-then-moved",
         'In [3]: model = AutoModel.from_pretrained("THUDM/chatglm-6b", trust_remote_code=True).half().cuda()\n',
         [("oom.hint", "load_on_host", 1), ("knob.model", "THUDM/chatglm-6b", 1), ("model.params", 6000000000, 1)],
         framework="transformers"),
    case("hf-load-placed", lines(
        '  File "/app/run.py", line 12, in main',
        '    model = LlamaForCausalLM.from_pretrained(path, device_map="auto")'),
        [("oom.hint", "traceback", 1), ("parallel.device_map", "auto", 2)], framework="transformers"),
    # Python's assert is an invariant of the code, whatever words of size it holds
    case("python-assert-not-memory", "AssertionError: Data too large for buffer 'cu_seqlen': 114 > 5\n",
         [("error.final", "AssertionError: Data too large for buffer 'cu_seqlen': 114 > 5", 1)]),
    # TensorRT-LLM's paged KV pool, in both spellings, and the fraction it takes by default
    case("trt-kv-pool-bytes", lines(
        "[TensorRT-LLM][INFO] Max tokens in paged KV cache: 117760. Allocating 54022635520 bytes.",
        "[TensorRT-LLM][WARNING] kv_cache_free_gpu_mem_fraction is not specified, will use default value of 0.9 or max_tokens_in_paged_kv_cache"),
        [("mem.kv_tokens", 117760, 1), ("mem.kv_cache_bytes", 54022635520, 1), ("knob.gpu_memory_utilization", 0.9, 2)],
         framework="tensorrt-llm"),
    case("trt-kv-pool-gib", "[TensorRT-LLM][INFO] [MemUsageChange] Allocated 4.53 GiB for max tokens in paged KV cache (395776).\n",
         [("mem.kv_tokens", 395776, 1), ("mem.kv_cache_bytes", GiB(4.53), 1)], framework="tensorrt-llm", phase=None),
    # Ollama's scheduler weighing a GPU for one layer: the graph it sized and what was free
    case("ollama-no-layer-fits",
         'time=2024-11-08T01:05:27.404+05:30 level=DEBUG source=memory.go:170 msg="gpu has too little memory to allocate any layers" '
         'id=0 library=metal total="21.3 GiB" available="21.3 GiB" minimum_memory=536870912 layer_size="2.1 GiB" '
         'gpu_zer_overhead="0 B" partial_offload="32.3 GiB" full_offload="32.3 GiB"\n',
         [("oom.hint", "ollama_no_layer_fits", 1), ("mem.gpu_available_bytes", GiB(21.3), 1), ("mem.compute_buffer_bytes", GiB(32.3), 1),
          ("mem.layer_bytes", GiB(2.1), 1)], framework="ollama"),
    # a Python program launched from a shell names a script (read as transformers), prose naming python does not
    case("python-launch-with-env", "CUDA_VISIBLE_DEVICES=0,1 python run.py --data Q-Bench1_TEST --verbose\n",
         [("gpu.count", 2, 1)], framework="transformers"),
    case("streamlit-launch-after-prompt", "(internlm-demo) root@***:~/code/InternLM# streamlit run web_demo.py --server.port 6006\n",
         [], framework="transformers"),
    case("python-named-in-prose", "see the python docs for setup.py\n", [], framework="other"),
    # ggml-sycl's buffer refusal with its function name cut off still names llama.cpp
    case("ggml-sycl-alloc-bare", "can't allocate 2303168640 Bytes of memory on device\n",
         [(OOM, "cuda_error_oom", 1), ("oom.requested_bytes", 2303168640, 1), ("gpu.backend", "sycl", 1)], framework="llamacpp"),
    # an engine running transformers' model code (SGLang's vision encoder): a tie of votes goes to the engine
    case("engine-over-transformers-tie", lines(
        '  File "/usr/local/lib/python3.10/dist-packages/transformers/models/siglip/modeling_siglip.py", line 389, in forward',
        "[2025-09-07 06:10:23] Received sigquit from a child process. It usually means the child failed."),
        [("oom.hint", "traceback", 1), ("oom.hint", "multimodal", 1), ("oom.hint", "multimodal_encoder", 1)], framework="sglang"),
    # a model moved to the GPU by nn.Module.to(): the load, even with the traceback cut before _apply
    case("module-to-cuda-cut", lines(
        '  File "c:\\Users\\***\\MiniGPT-4\\demo.py", line 60, in <module>',
        "    model = model_cls.from_config(model_config).to('cuda:{}'.format(args.gpu_id))",
        '  File "C:\\Users\\***\\.conda\\envs\\minigpt4\\lib\\site-packages\\torch\\nn\\modules\\module.py", line 989, in to',
        "    return self._apply(convert)"),
        [("oom.hint", "traceback", 3)], framework="transformers"),
    # a markdown paste's bold around the shell's "Killed" job line
    case("killed-job-line-bold", "eval_gsm8k.sh: line 11: 268385 **Killed                  python eval_llada.py --tasks gsm8k\n",
         [(OOM, "killed", 1), ("oom.exit_signal", "SIGKILL", 1)], framework="transformers"),
    case("cublas-runtime-error", "RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`\n",
         [(OOM, "cublas_alloc_failed", 1)], framework="transformers"),
    case("vllm-serve-positional-model", "vllm serve Qwen/Qwen3-32B --port 8000\n",
         [("knob.model", "Qwen/Qwen3-32B", 1)], framework="vllm"),
    # holdout r16: llama.cpp's mlock warning, 2023 Metal buffer lines in MB, the context line as the KV
    # phase, NCCL's own CUDA failure line, vLLM's load wrapper typeset with a dash, its multimodal
    # profiling warning, a training step's frames, SGLang's weight-load lines, accelerate's CPU offload
    case("mlock-limit", lines("warning: failed to mlock 139264000-byte buffer (after previously locking 0 bytes): Cannot allocate memory",
                              "Try increasing RLIMIT_MLOCK ('ulimit -l' as root)."), [(OOM, "mlock_limit", 1)], framework="llamacpp"),
    # holdout r72: on Windows the same lock is VirtualLock
    case("virtuallock-limit", "warning: failed to VirtualLock 39347507200-byte buffer (after previously locking 0 bytes): Invalid "
         "access to memory location.\n", [(OOM, "mlock_limit", 1)], framework="llamacpp"),
    case("metal-buffer-in-mb", "ggml_metal_add_buffer: allocated 'scr1            ' buffer, size =   256.00 MB, (23984.91 / 21845.34), "
         "warning: current allocated size is greater than the recommended max working set size\n",
         [(OOM, "working_set_exceeded", 1), ("mem.gpu_used_bytes", MiB(23984.91), 1), ("mem.gpu_available_bytes", MiB(21845.34), 1)]),
    case("context-line-is-kv-phase", "llama_new_context_with_model: n_ctx      = 131072\n", [("knob.max_model_len", 131072, 1)],
         framework="llamacpp"),
    case("nccl-cuda-failure-not-memory", lines("[rank2]: Last error:", "[rank2]: Cuda failure 1 'invalid argument'"), [(OOM, "comm_error", 2)]),
    case("ggml-pinned-fallback-not-memory",  # holdout r28: pinning refused for another reason: only the fallback to pageable memory
         "ggml_cuda_host_malloc: failed to allocate 2428.11 MiB of pinned memory: resource already mapped\n",
         [(OOM, "pin_refused", 1), ("oom.hint", "pinned_host", 1)], framework="llamacpp"),
    case("ggml-pinned-driver-mismatch",  # a driver the build does not match: a broken setup
         "ggml_cuda_host_malloc: failed to allocate 512.00 MiB of pinned memory: CUDA driver version is insufficient for CUDA runtime version\n",
         [(OOM, "broken_install", 1), ("oom.hint", "pinned_host", 1)], framework="llamacpp"),
    case("ggml-pinned-out-of-memory",  # pinning ran out: a hint, llama.cpp goes on with pageable memory
         "ggml_cuda_host_malloc: failed to allocate 17088.00 MiB of pinned memory: out of memory\n",
         [("oom.hint", "pinned_host", 1), ("oom.hint", "pinned_fallback", 1), (OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1),
          ("oom.requested_bytes", MiB(17088), 1)], framework="llamacpp"),
    case("macos-shell-killed",  # holdout r28: macOS's shell reports the kill with its signal number
         " 75%|###   | 15/20 [1:53:33<37:51, 454.28s/it]Killed: 9               python train.py\n",
         [(OOM, "killed", 1), ("oom.exit_signal", "SIGKILL", 1)]),
    case("illegal-access-cut", '"error": "an unknown error was encountered while running the model CUDA error: an illegal memory access was enc\n',
         [(OOM, "illegal_memory_access", 1)]),
    case("vllm-shm-broadcast-wait",  # holdout r28: the engine waiting on its workers names shared memory
         "No available shared memory broadcast block found in 60 seconds. This typically happens when some processes are hanging.\n",
         [("oom.hint", "workers_busy", 1)], framework="vllm"),
    case("vllm-shm-broadcast-wait-0.5",  # the same wait in 0.5.x's words, from a TP worker
         "(VllmWorkerProcess pid=3253) WARNING 08-13 11:31:37 shm_broadcast.py:386] No available block found in 60 second\n",
         [("oom.hint", "workers_busy", 1)], framework="vllm"),
    case("ollama-misread-memory",  # holdout r28: the card's memory read as total 0, used negative
         lines("[0] CUDA totalMem 0", "[0] CUDA usedMem -1022029824"),
         [("error.final", "the GPU's memory was read as total 0 or negative used: a driver/NVML misreading, not a full card", 1),
          ("error.final", "the GPU's memory was read as total 0 or negative used: a driver/NVML misreading, not a full card", 2)],
         framework="ollama"),
    case("sgl-kernel-custom-all-reduce",  # holdout r28: sgl-kernel prints the error, then its file and line alone
         lines("RuntimeError: invalid argument", "/sgl-kernel/csrc/allreduce/custom_all_reduce.cuh:350"),
         [(OOM, "comm_error", 2), ("oom.hint", "custom_all_reduce", 2), ("error.final", "RuntimeError: invalid argument", 1)],
         framework="sglang"),
    case("hf-generate-input-length",  # holdout r28: transformers' warning on a prompt longer than max_length
         lines("Input length of input_ids is 46371, but `max_length` is set to 128. This can lead to unexpected behavior.",
               "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 8.01 GiB"),
         [("mem.prefill_tokens", 46371, 1), (OOM, "torch_oom", 2), ("oom.requested_bytes", GiB(8.01), 2)], phase="prefill"),
    case("nvidia-smi-row", "| N/A   54C    P0   246W / 300W |  15514MiB / 16130MiB |    100%      Default |\n",
         [("gpu.total_bytes", MiB(16130), 1)]),
    case("torch-allocated-on-a-cut-line",  # holdout r21: the message pasted with its middle cut
         lines("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB.",
               "... 181.80 GiB is allocated by PyTorch, with 71.20 GiB allocated in private pools"),
         [(OOM, "torch_oom", 1), ("oom.requested_bytes", MiB(20), 1), ("oom.torch_allocated_bytes", GiB(181.80), 2),
          ("oom.private_pool_bytes", GiB(71.20), 2)]),
    case("ggml-aligned-malloc-is-host",  # holdout r29: ggml's CPU allocator refusing the context
         "ggml_aligned_malloc: insufficient memory (attempted to allocate 17928.72 MB)\n",
         [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1), ("oom.requested_bytes", MiB(17928.72), 1)]),
    case("container-state-not-oom-killed",  # holdout r29: docker inspect saying it was NOT killed for memory, exit 139
         lines('    "OOMKilled": false,', '    "ExitCode": 139,'),
         [("error.final", "exit code 139: the process crashed (SIGSEGV, a segmentation fault), it was not killed for memory", 2)]),
    case("rocm-memory-query-failed",  # holdout r75: ROCm's free-memory query failing under an old host driver
         lines(":1:rocdevice.cpp            :1824: 3852921762 us: [pid:9     tid:0x7fcd5fa0c4c0] HSA_AMD_AGENT_INFO_MEMORY_AVAIL query failed.",
               ":3:hip_memory.cpp           :777 : 3852921767 us: [pid:9     tid:0x7fcd5fa0c4c0] hipMemGetInfo: Returned hipErrorInvalidValue :",
               ":3:hip_memory.cpp           :777 : 3852921767 us: [pid:9     tid:0x7fcd5fa0c4c0] hipMalloc: Returned hipErrorOutOfMemory :"),
         [(OOM, "gpu_memory_unreported", 1), (OOM, "gpu_memory_unreported", 2), (OOM, "cuda_error_oom", 3)]),
    case("exit-132-illegal-instruction",  # holdout r75: a crash signal ends the process; not a kill for memory
         "container exited with code 132\n",
         [("error.final", "exit code 132: the process crashed (SIGILL, an illegal instruction), it was not killed for memory", 1)]),
    case("shell-illegal-instruction",  # the shell's report of SIGILL: a CPU without an instruction the build uses
         lines("llm_load_tensors: ggml ctx size =    0.11 MiB", "Illegal instruction (core dumped)"),
         [("error.final", "Illegal instruction (core dumped)", 2)]),
    case("tgi-shard-failed-silently",  # holdout r29: the launcher has no error to quote: the shard was ended from outside
         "2023-09-26T09:40:57.571196Z ERROR text_generation_launcher: Shard 0 failed to start:\n",
         [("oom.hint", "process_ended", 1)], framework="tgi"),
    case("jupyter-oom-header",  # holdout r29: Jupyter's header above the traceback is not the message
         lines("OutOfMemoryError                          Traceback (most recent call last)",
               "OutOfMemoryError: CUDA out of memory. Tried to allocate 280.00 MiB. GPU 0 has a total capacity of 14.74 GiB of w"),
         [("oom.hint", "traceback", 1), (OOM, "torch_oom", 1), (OOM, "torch_oom", 2),
          ("oom.requested_bytes", MiB(280), 2), ("oom.device", "0", 2), ("oom.gpu_total_bytes", GiB(14.74), 2)], failure_line=2),
    case("exllama-temp-state-buffer",  # holdout r29: exllama's fixed act-order scratch
         "RuntimeError: The temp_state buffer is too small in the exllama backend for GPTQ with act-order.\n",
         [(OOM, "static_plan_overflow", 1)], framework="exllama"),
    case("vllm-workspace-locked",  # holdout r29: vLLM's workspace, locked after the warm-up sized it
         "AssertionError: Workspace is locked but allocation from 'turboquant_attn.py:879:_decode_attention' requires 0.76 MB\n",
         [(OOM, "workspace_overflow", 1)]),
    case("lmdeploy-run-out-of-tokens",  # holdout r29: the request does not fit session_len
         "2024-08-27 01:34:56,929 - lmdeploy - ERROR - run out of tokens. session_id=0.\n", [(OOM, "config_max_len", 1)],
         framework="lmdeploy"),
    case("sglang-prefill-out-of-memory",  # holdout r29: early SGLang's router when the pool cannot serve a prefill
         "Prefill out of memory. This should nerver happen.\n", [(OOM, "cuda_error_oom", 1)], framework="sglang"),
    case("nccl-cuda-failure-no-number",  # older NCCL prints the CUDA error without its number
         lines("ncclUnhandledCudaError: Call to CUDA function failed.", "Last error:", "Cuda failure 'invalid argument'"),
         [(OOM, "comm_error", 3)]),
    case("data-parallel-gather-warning",  # nn.DataParallel's gather on GPU 0
         lines("site-packages/torch/nn/parallel/_functions.py:68: UserWarning: Was asked to gather along dimension 0, but all input "
               "tensors were scalars; will instead unsqueeze and return a vector."),
         [("oom.hint", "data_parallel", 1)]),
    case("unknown-model-architecture",  # a model this llama.cpp build cannot read, as LM Studio quotes it
         '  "cause": "llama.cpp error: \'unknown model architecture: \'gemma\'\'",\n',
         [("error.final", "unknown model architecture 'gemma' (this build does not support the model)", 1)]),
    case("windows-console-colours",  # ESC shown as an arrow in a pasted Windows console
         "[2024-01-28 19:05:04] INFO model_metadata.py:95: \u2190[92mTotal memory usage\u2190[0m: 3323.30 MB (Parameters: 3123.04 MB. "
         "KVCache: 128.00 MB. Temporary buffer: 72.26 MB)\n",
         [("mem.required_bytes", MiB(3323.30), 1), ("mem.weights_total_bytes", MiB(3123.04), 1), ("mem.kv_total_bytes", MiB(128), 1),
          ("mem.compute_buffer_bytes", MiB(72.26), 1)]),
    case("nccl-cuda-failure-memory", lines("[rank0]: Last error:", "[rank0]: Cuda failure 2 'out of memory'"), [(OOM, "nccl_oom", 2)]),
    case("vllm-load-failed-dash", "[gpu_model_runner.py:4957] Failed to load model \u2014 not enough GPU memory.\n", [(OOM, "weights_load_oom", 1)],
         phase="load_weights"),
    case("vllm-profiling-multimodal", "WARNING 04-27 16:27:59 [profiling.py:245] The sequence length used for profiling (max_num_batched_tokens / "
         "max_num_seqs = 20000) is too short to hold the multi-modal embeddings in the worst case (98304 tokens in total)\n", [("oom.hint", "multimodal", 1)]),
    case("training-step-frames", lines(
        '  File "/v/recipes/full_finetune_distributed.py", line 919, in train',
        "    current_loss = self._loss_step(batch) * current_num_tokens"), [("oom.hint", "traceback", 1)]),
    case("sglang-load-weight-line", "[2025-03-29 18:18:34 TP0] Load weight end. type=Gemma3ForConditionalGeneration, dtype=torch.bfloat16, "
         "avail mem=3.64 GB, mem usage=18.82 GB.\n",
         [("knob.dtype", "bfloat16", 1), ("mem.free_after_load_bytes", GiB(3.64), 1), ("mem.weights_bytes", GiB(18.82), 1),
          ("mem.free_stated_bytes", GiB(3.64), 1)], framework="sglang"),
    case("accelerate-cpu-offload", "WARNING [big_modeling.py:433] Some parameters are on the meta device device because they were offloaded "
         "to the cpu.\n", [("oom.hint", "weights_cpu_offloaded", 1)]),
    # holdout r17: llama_decode's "no KV slot", Windows' mlock quota, Metal totals padded with spaces, SGLang's
    # capture wrapper around a kernel's own error, a crashed kernel, CUDA that cannot start, Ollama's
    # worst-case graph, TensorRT's builder running out
    case("llama-decode-no-kv-slot", "10.05.651.308 E llama_decode: failed to decode, ret = 1\n", [(OOM, "kv_runtime_exhausted", 1)],
         framework="llamacpp", phase="decode"),
    case("mlock-windows-quota", "warning: failed to mlock 43745280-byte buffer (after previously locking 0 bytes): Out of memory "
         "(win32 error 1453)\n", [(OOM, "mlock_limit", 1)], framework="llamacpp"),
    case("metal-totals-padded", lines(
        "ggml_metal_add_buffer: allocated 'kv              ' buffer, size =   512.03 MiB, ( 4458.33 /  4096.00)",
        "ggml_metal_add_buffer: allocated 'alloc           ' buffer, size =   576.01 MiB, ( 5034.34 /  4096.00)"),
         [("mem.kv_cache_bytes", MiB(512.03), 1), ("mem.gpu_used_bytes", MiB(4458.33), 1), ("mem.gpu_available_bytes", MiB(4096), 1),
          ("mem.gpu_used_bytes", MiB(5034.34), 2), ("mem.gpu_available_bytes", MiB(4096), 2), ("mem.weights_bytes", MiB(4458.33 - 512.03), 1)]),
    case("sglang-capture-inner-kernel-error", "Exception: Capture cuda graph failed: Error in function 'VariableLengthMergeStates' at "
         "flashinfer/attention/cascade.cuh:687: Unsupported head_dim: 106\n", [(OOM, "capture_error", 1)], phase="cuda_graph_capture"),
    case("sglang-capture-inner-empty", "Exception: Capture cuda graph failed: \n",
         [(OOM, "cuda_graph_capture_failed", 1), ("oom.hint", "capture_reason_unstated", 1)],
         phase="cuda_graph_capture"),
    case("unspecified-launch-failure", "Error: llama runner process has terminated: CUDA error: unspecified launch failure\n",
         [(OOM, "illegal_memory_access", 1), (FINAL, "CUDA error: unspecified launch failure", 1)], framework="ollama"),
    case("cuda-init-failed", "llama-cpp    | ggml_cuda_init: failed to initialize CUDA: unknown error\n", [(OOM, "broken_install", 1)]),
    case("ollama-worst-case-graph", lines(
        "github.com/ollama/ollama/runner/ollamarunner.(*Server).reserveWorstCaseGraph(0xc00054e000)",
        'level=ERROR source=sched.go:489 msg="error loading llama server" error="llama runner process has terminated: cudaMalloc failed: '
        'out of memory"'), [(OOM, "ggml_alloc_failed", 2), ("oom.buffer", "compute", 1)], framework="ollama", phase="profile"),
    case("trt-builder-out-of-memory", lines(
        "[11/10/2023-06:30:40] [TRT] [W] Requested amount of GPU memory (24793579520 bytes) could not be allocated. There may not be "
        "enough free memory for allocation to succeed.",
        "[11/10/2023-06:30:40] [TRT] [E] 2: [globWriter.cpp::makeResizableGpuMemory::423] Error Code 2: OutOfMemory (no further information)",
        "[11/10/2023-06:30:40] [TRT-LLM] [E] Engine building failed, please check the error log."),
         [("oom.requested_bytes", 24793579520, 1), ("oom.hint", "engine_build", 1), (OOM, "cuda_error_oom", 2), ("oom.hint", "engine_build", 3)],
         framework="tensorrt-llm"),
    # holdout r18: the old server's KV retry lines, llama.cpp's fit refused by a hand-set -ngl, a garbage
    # size PyTorch states in exabytes, a prompt over GPT4All's window, custom all-reduce's own CUDA check
    case("kv-free-space-retry", lines(
        "[1707364943] update_slots : failed to find free space in the KV cache, retrying with smaller n_batch = 1",
        "[1707364943] update_slots : failed to decode the batch, n_batch = 1, ret = 1"),
         [(OOM, "kv_runtime_exhausted", 1), (OOM, "kv_runtime_exhausted", 2), ("knob.batch_size", 1, 1), ("knob.batch_size", 1, 2)],
         framework="llamacpp", phase="decode"),
    case("llama-fit-refused", "llama_params_fit: failed to fit params to free device memory: n_gpu_layers already set by user to 99, abort\n",
         [(OOM, "ggml_alloc_failed", 1), ("oom.buffer", "weights", 1)], framework="llamacpp", phase="load_weights"),
    case("exabyte-request", "NPU out of memory. Tried to allocate more than 1EB memory\n",
         [(OOM, "torch_oom", 1), ("oom.requested_bytes", 1 << 60, 1)]),
    case("prompt-over-context-window", "ERROR: The prompt size exceeds the context window size and cannot be processed.\n",
         [(OOM, "config_max_len", 1)]),
    case("custom-all-reduce-cuda-check", "RuntimeError: Runtime check failed at /sgl/jit_kernel/include/sgl_kernel/distributed/"
         "custom_all_reduce.cuh:37: CUDA error: invalid argument\n",
         [(OOM, "comm_error", 1), ("oom.hint", "custom_all_reduce", 1), (FINAL, "CUDA error: invalid argument", 1)]),
    case("module-to-frames", lines(
        '  File "/x/torch/nn/modules/module.py", line 797, in _apply',
        "    return t.to(device, dtype if t.is_floating_point() or t.is_complex() else None, non_blocking)",
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 314.00 MiB (GPU 0; 8.00 GiB total capacity; "
        "6.75 GiB already allocated; 0 bytes free; 6.98 GiB reserved in total by PyTorch)"),
         [(OOM, "torch_oom", 3), ("oom.hint", "traceback", 1), ("oom.device", "0", 3), ("oom.requested_bytes", MiB(314), 3),
          ("oom.gpu_total_bytes", GiB(8), 3), ("oom.gpu_free_bytes", 0, 3), ("oom.torch_allocated_bytes", GiB(6.75), 3),
          ("oom.torch_reserved_bytes", GiB(6.98), 3), ("oom.torch_unallocated_bytes", GiB(6.98) - GiB(6.75), 3)], phase="load_weights"),
]


# holdout r30-r32: kinds of evidence read for the first time (numbers, limits and look-alikes in any framework)
ROUNDS_30_32 = [
    case("free-h-row", lines("Mem:           119Gi       119Gi       789Mi        44Mi       195Mi        95Mi",
                             "Swap:           15Gi       4.8Gi        11Gi"),
         [("host.ram_total_bytes", GiB(119), 1), ("host.ram_available_bytes", MiB(95), 1), ("host.ram_used_ratio", 0.9992, 1),
          ("host.swap_total_bytes", GiB(15), 2), ("host.swap_used_ratio", 0.32, 2)]),
    # plain `free`: every cell in KiB, so only the share is read
    case("free-kib-row", lines("              total        used        free      shared  buff/cache   available",
                               "Mem:       16318464    15872000      120000       1000      300000      150000"),
         [("host.ram_used_ratio", 0.9908, 2)]),
    case("killed-after-prompt", lines("$  ./gemma --tokenizer tokenizer.spm --compressed_weights 2b-it.sbs", "$  Killed"),
         [(OOM, "killed", 2), ("oom.exit_signal", "SIGKILL", 2)], failure_line=2),
    case("memlock-named-with-enomem", lines(
        "allocate memory : Please set max locked memory (ulimit -l) to 'unlimited' (current: 8192 kbytes)",
        "UCX  ERROR mlx5_0: mlx5dv_devx_umem_reg(size=131072 access=0x0) failed: Cannot allocate memory"),
         [("oom.hint", "memlock_limit", 1), (OOM, "host_alloc_failed", 2), ("oom.cpu_alloc_failed", True, 2)]),
    case("context-cannot-shift", "llama.cpp:11968: The current context does not support K-shift\n", [(OOM, "context_full", 1)]),
    case("free-figure-underflowed", 'level=DEBUG source=server.go:965 msg="available gpu" library=CUDA "available layer vram"="17179869183.3 GiB" '
         'minimum="457.0 MiB" overhead="0 B"\n', [("mem.gpu_available_bytes", 18446744072957931520, 1)], framework="ollama"),
    case("paged-attention-shared-memory", "RuntimeError: vLLM cannot currently support max_model_len=65536 with block_size=16 on GPU with "
         "compute capability (8, 9) (required shared memory 264252.0 > available shared memory 101376).\n", [(OOM, "kernel_resource", 1)]),
    case("int32-tensor-volume", "[TensorRT-LLM][ERROR] IExecutionContext::inferShapes: Error Code 7: Internal Error (GATHER_0_output_0: "
         "tensor volume exceeds 2147483647, dimensions are [num_tokens,4096])\n", [(OOM, "alloc_size_limit", 1)]),
    case("device-error-after-progress", lines(
        "Processing Prompt [BATCH] (4096 / 30609 tokens)CUDA error: an unsupported value or parameter was passed to the function",
        "  current device: 0, in function ggml_cuda_op_mul_mat_cublas at ggml-cuda.cu:1775"),
         [(FINAL, "CUDA error: an unsupported value or parameter was passed to the function", 1), ("oom.device", "0", 2),
          ("oom.hint", "ggml_fn_ggml_cuda_op_mul_mat_cublas", 2), ("oom.hint", "ggml_running_op", 2)]),
    case("notebook-kernel-unresponsive", "Fatal error: The Python kernel is unresponsive.\n", [("oom.hint", "kernel_died", 1)]),
    # holdout r31
    case("windows-commit-limit", "WeightLoadError: OSError: 页面文件太小，无法完成操作。 (os error 1455)\n",
         [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1)]),
    case("windows-commit-limit-english", "OSError: The paging file is too small for this operation to complete. (os error 1455)\n",
         [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1)]),
    case("flashinfer-workspace-misspelled", "RuntimeError: RuntimeError: Out of workspace memory in AlignedAlloactor\n", [(OOM, "workspace_overflow", 1)]),
    case("driver-too-old-for-an-api", "RuntimeError: [TM][ERROR] CUDA runtime error: API call is not supported in the installed CUDA driver "
         "/lmdeploy/src/turbomind/utils/allocator.h:169\n", [(OOM, "broken_install", 1)]),
    case("context-truncated-to-the-pool", "[TM][WARNING] `session_len` truncated to 4928 due to limited KV cache memory\n",
         [(OOM, "kv_capacity", 1), ("oom.kv_capacity_tokens", 4928, 1)], phase="kv_alloc"),
    case("ray-oom-name-cut", lines('  File "/usr/lib/python3.8/asyncio/tasks.py", line 695, in _wrap_awaitable',
                                   "    return (yield from awaitable.__await__())", "ray.exceptions.OutOfMe"),
         [(OOM, "ray_oom_kill", 3), ("oom.hint", "traceback", 1)]),
    case("fork-weights-line", "INFO:     Total model weights memory usage: 5.36 GiB\n", [("mem.weights_bytes", GiB(5.36), 1)]),
    # holdout r32
    case("xla-buffer-fragmented", lines("RESOURCE_EXHAUSTED: Error allocating device buffer: ", "Attempting to allocate 1.96G. ",
                                        "That was not possible. ", "There are 3.46G free. ",
                                        "The largest contiguous region of free memory is 1.75G due to fragmentation."),
         [(OOM, "xla_oom", 1), ("oom.requested_bytes", GiB(1.96), 1), ("oom.gpu_free_bytes", GiB(3.46), 1),
          ("oom.largest_free_bytes", GiB(1.75), 5)], failure_line=1),
    case("kernel-oom-reaper", "oom reaper: reaped process 2583(python),now\n", [(OOM, "kernel_oom_kill", 1), ("oom.exit_signal", "SIGKILL", 1)]),
    case("free-below-util-wrapped", lines("ValueError: Free memory on device cuda:0 (30.12/31.84 GiB) on startup",
                                          "is less than desired GPU memory utilization (0.95, 30.25 GiB)."),
         [(OOM, "free_below_util", 1), ("oom.free_at_start_bytes", GiB(30.12), 1), ("mem.gpu_total_bytes", GiB(31.84), 1),
          ("oom.util_requested", 0.95, 1), ("knob.gpu_memory_utilization", 0.95, 1), ("oom.util_requested_bytes", GiB(30.25), 1)]),
    case("assert-after-progress", "Processing Prompt (19 / 19 tokens)GGML_ASSERT: D:\\a\\koboldcpp\\llama.cpp:6669: n_tokens <= n_batch\n",
         [(FINAL, "GGML_ASSERT: D:\\a\\koboldcpp\\llama.cpp:6669: n_tokens <= n_batch", 1), ("oom.hint", "llamacpp_wrapper", 1)]),
    # ggml-metal's bare assert follows a failed command buffer: not another cause
    case("metal-assert-false", lines("GGML_ASSERT: /Users/x/ggml/ggml-metal.m:1459 false", "Abort trap: 6"), []),
    case("capture-wrapper-names-sglang", "Exception: Capture cuda graph failed: CUDA out of memory.\n",
         [(OOM, "torch_oom", 1), (OOM, "cuda_graph_capture_failed", 1)], framework="sglang", phase="cuda_graph_capture"),
    # holdout r33
    case("killed-with-a-period-after-progress", "Loading checkpoint shards:  97%|  | 29/30 [00:35<00:01,  1.39s/it]Killed.\n",
         [(OOM, "killed", 1), ("oom.exit_signal", "SIGKILL", 1)], phase="load_weights"),
    case("ggml-init-host-malloc", lines("gptj_model_load: ggml ctx size = 5401.45 MB",
                                        "GGML_ASSERT: /home/x/llama.cpp-230511/ggml.c:4411: ctx->mem_buffer != NULL", "Aborted (core dumped)"),
         [(OOM, "host_alloc_failed", 2), ("oom.cpu_alloc_failed", True, 2), (FINAL, "Aborted (core dumped)", 3)]),
    case("container-runtime-cuda-requirement", "nvidia-container-cli: requirement error: unsatisfied condition: cuda>=11.8, please update "
         "your driver to a newer version, or use an earlier cuda container: unknown.\n", [(OOM, "broken_install", 1)]),
    # a paste cut mid-word, in the step that reserves the compute graph: the buffer that step allocates
    case("cudamalloc-cut-while-reserving", lines(
        "common_params_fit_impl: projected to use 24840 MiB of device memory vs. 22341 MiB of free device memory",
        "common_fit_params: failed to fit params to free device memory: model_params::tensor_buft_overrides already set by user, abort",
        "llama_dsv4_comp_state:      CUDA0 DSV4 lid state buffer size =     0.33 MiB",
        "0.11.118.576 I sched_reserve: reserving ...",
        "0.11.257.162 E ggml_backend_cuda_buffer_type_alloc_buffer: allocating 14656.12 MiB on device 0: cudaMalloc failed: ou"),
         [(OOM, "ggml_alloc_failed", 5), ("oom.requested_bytes", MiB(14656.12), 5), ("oom.device", "0", 5), ("oom.buffer_device", "GPU", 5),
          ("oom.buffer", "compute", 5)], failure_line=5, phase="profile"),
    # llama.cpp's refused fit with nothing after it: the projection is the failure
    case("fit-refused-alone", "llama_params_fit: failed to fit params to free device memory: n_gpu_layers already set by user to 99, abort\n",
         [(OOM, "ggml_alloc_failed", 1), ("oom.buffer", "weights", 1)], failure_line=1, phase="load_weights"),
    case("modelfile-num-ctx", "echo 'PARAMETER num_ctx 131072' >> Modelfile3.1-70b\n", [("knob.max_model_len", 131072, 1)]),
    case("request-options-num-ctx", '{"model": "qwen3:8b", "options": {"num_ctx": 32768}}\n', [("knob.max_model_len", 32768, 1)]),
    # holdout r34: a runtime's own words with the size it asked for
    case("opencl-usm-device", "[CL ext] Can not allocate 16049884928 bytes for USM Device. ptr: 0000000000000000, error: 0\n",
         [(OOM, "cuda_error_oom", 1), ("oom.requested_bytes", 16049884928, 1)]),
    case("opencl-max-object-size", "[GPU] Exceeded max size of memory object allocation: requested 2305843008391495680 bytes, but max alloc "
         "size supported by device is 4294959104 bytes.Please try to reduce batch size or use lower precision.\n",
         [(OOM, "alloc_size_limit", 1), ("oom.requested_bytes", 2305843008391495680, 1), ("oom.buffer_limit_bytes", 4294959104, 1)]),
    case("slurm-task-out-of-memory", lines(
        "slurmstepd: error: Detected 1 oom_kill event in StepId=26161866.0. Some of the step tasks have been OOM Killed.",
        "srun: error: node-01: task 0: Out Of Memory"),
         [(OOM, "kernel_oom_kill", 1), ("oom.exit_signal", "SIGKILL", 1), (OOM, "host_alloc_failed", 2), ("oom.cpu_alloc_failed", True, 2)],
         failure_line=1),
    case("warmup-failed-names-the-step", "[llm] [ERROR] : Warmup failed, because of multimodal model inference out of memory when "
         "`maxInputTokenLen` set to 8192.\n", [(OOM, "cuda_error_oom", 1)], phase="warmup"),
    # a terminal's wrap splits a word of the message: read back unsplit
    case("wrap-splits-a-word", lines(
        "[rank4]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 462.00 MiB. GPU 4 has a total capacity of 79.11 GiB of "
        "which 462.56 MiB is free. Process 179754 has 78.61 GiB memory in use. Of the allocated memor",
        "y 74.57 GiB is allocated by PyTorch, and 92.46 MiB is reserved by PyTorch but unallocated."),
         [(OOM, "torch_oom", 1), ("oom.requested_bytes", MiB(462), 1), ("oom.device", "4", 1), ("oom.gpu_total_bytes", GiB(79.11), 1),
          ("oom.gpu_free_bytes", MiB(462.56), 1), ("oom.torch_allocated_bytes", GiB(74.57), 1), ("oom.torch_unallocated_bytes", MiB(92.46), 2),
          ("oom.process_bytes", GiB(78.61), 1), ("oom.process_count", 1, 1), ("oom.other_process_bytes", 0, 1)],
         failure_line=1),
    # holdout r35
    case("kv-store-statement", lines(
        'self.value_buffer = [torch.empty((size, head_num, head_dim), dtype=dtype, device="cuda") for _ in range(layer_num)]',
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.14 GiB (GPU 0; 79.35 GiB total capacity; 77.83 GiB already "
        "allocated; 711.19 MiB free; 77.83 GiB reserved in total by PyTorch)"),
         [(OOM, "torch_oom", 2), ("oom.requested_bytes", GiB(1.14), 2), ("oom.device", "0", 2), ("oom.gpu_total_bytes", GiB(79.35), 2),
          ("oom.torch_allocated_bytes", GiB(77.83), 2), ("oom.gpu_free_bytes", MiB(711.19), 2), ("oom.torch_reserved_bytes", GiB(77.83), 2),
          ("oom.torch_unallocated_bytes", 0, 2)], phase="kv_alloc", failure_line=2),
    # a projection, not a cache: an attention's value states are computed, not allocated
    case("value-states-projection-is-no-cache", "    value_states = self.v_proj(hidden_states)\n", []),
    case("vulkan-buffer-size-limit", "ggml_vulkan: Requested buffer size exceeds device buffer size limit: ErrorOutOfDeviceMemory\n",
         [(OOM, "alloc_size_limit", 1), ("oom.hint", "per_allocation_limit", 1)]),
    case("dram-banks", "TT_FATAL: Out of Memory: Not enough space to allocate 6589251584 B DRAM buffer across 12 banks, where each bank "
         "needs to store 549105664 B, but bank size is 1071821792 B (\n",
         [(OOM, "cuda_error_oom", 1), ("gpu.backend", "tenstorrent", 1), ("oom.requested_bytes", 6589251584, 1), ("oom.gpu_total_bytes", 12 * 1071821792, 1)]),
    case("dram-banks-free", "TT_FATAL: Out of Memory: Not enough space to allocate 1050673152 B DRAM buffer across 12 banks "
         "(allocated: 999238944 B/bank, free: 71534240 B/bank)\n",
         [(OOM, "cuda_error_oom", 1), ("gpu.backend", "tenstorrent", 1), ("oom.requested_bytes", 1050673152, 1), ("oom.gpu_free_bytes", 12 * 71534240, 1)]),
    case("context-size-exceeded", lines("context size exceeded", "llama_decode: failed to decode, ret = 1"),
         [(OOM, "context_full", 1), (OOM, "kv_runtime_exhausted", 2)], phase="decode", failure_line=1),
    case("job-killed-at-line-end", "/home/runner/work/_temp/f00a.sh: line 5:  4181 Killed\n", [(OOM, "killed", 1), ("oom.exit_signal", "SIGKILL", 1)]),
    case("engine-layer-frame-is-a-forward", lines(
        '  File "/usr/local/lib/python3.10/dist-packages/vllm/model_executor/layers/quantized_linear/awq.py", line 55, in apply_weights',
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.75 GiB (GPU 0; 21.99 GiB total capacity; 18.87 GiB already "
        "allocated; 1.64 GiB free; 19.56 GiB reserved in total by PyTorch)"),
         [(OOM, "torch_oom", 2), ("oom.requested_bytes", GiB(1.75), 2), ("oom.device", "0", 2), ("oom.gpu_total_bytes", GiB(21.99), 2),
          ("oom.torch_allocated_bytes", GiB(18.87), 2), ("oom.gpu_free_bytes", GiB(1.64), 2), ("oom.torch_reserved_bytes", GiB(19.56), 2),
          ("oom.torch_unallocated_bytes", GiB(19.56) - GiB(18.87), 2), ("oom.hint", "traceback", 1)], phase="prefill", failure_line=2),
    case("flashinfer-overflow-wrapped", lines(
        "RuntimeError: Error in function 'aligned_alloc' at /workspace/include/flashinfer/allocator.h:49:",
        "  Buffer overflow when allocating memory for batch_prefill_tmp_v", "  with size 536346624 and alignment 16,",
        "  but only 413138944 bytes available in AlignedAllocator.", "  Increase the workspace buffer size."),
         [(OOM, "workspace_overflow", 2), (OOM, "workspace_overflow", 4)], failure_line=2),
    case("device-count-failed", "RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before "
         "calling NumCudaDevices() that might have already set an error? Error 802: system not yet initialized\n", [(OOM, "broken_install", 1)]),
    # a frame that loads a weight is no forward
    case("engine-weight-loader-frame", '  File "/x/vllm/model_executor/layers/linear.py", line 380, in weight_loader\n',
         [("oom.hint", "traceback", 1)]),
    # holdout r36
    # llama.cpp's pinned staging buffer refused in MB (older builds) or MiB: it goes on with pageable memory
    case("pinned-fallback-mb", "WARNING: failed to allocate 1024.00 MB of pinned memory: out of memory\n",
         [("oom.hint", "pinned_host", 1), ("oom.hint", "pinned_fallback", 1)]),
    # ggml's bare allocation failure line names no engine, and only ggml prints it
    case("bare-cudamalloc-line", "NvMapMemHandleAlloc: error 0\ncudaMalloc failed: out of memory\n",
         [(OOM, "cuda_error_oom", 2)], framework="llamacpp", failure_line=2),
    case("trt-executor-component", lines(
        "RuntimeError: Executor creation failed due to insufficient GPU memory.", "",
        "The following component could not be created: KV cache"),
         [(OOM, "trt_oom", 1), (OOM, "trt_kv_component", 3)], framework="tensorrt-llm", phase="kv_alloc"),
    case("bnb-managed-memory", "Error out of memory at line 380 in file /x/bitsandbytes/csrc/pythonInterface.c\n",
         [(OOM, "cuda_error_oom", 1), ("oom.hint", "managed_memory", 1)]),
    # holdout r37
    # a C printf under a decimal-comma locale ("55296,00 MB"); one or two digits after the comma are decimals
    case("metal-decimal-comma", lines(
        "ggml_metal_init: recommendedMaxWorkingSetSize  = 73728,00 MB",
        "ggml_metal_add_buffer: allocated 'eval            ' buffer, size =     1,48 MB, (120025,58 / 73728,00), warning: current "
        "allocated size is greater than the recommended max working set size"),
         # (2023's ggml printed the working set in MiB, as its running total shows: 3/4 of 96 GiB)
         [("mem.gpu_available_bytes", MiB(73728), 1), (OOM, "working_set_exceeded", 2), ("mem.gpu_used_bytes", MiB(120025.58), 2),
          ("mem.gpu_available_bytes", MiB(73728), 2)], failure_line=2),
    # a paste quoted in Markdown: the engine's own line format under the "> "
    case("quoted-paste", "> [2025-12-09 05:12:15 DP5 TP5] Memory pool end. avail mem=7.43 GB\n",
         [("parallel.workers", 6, 1), ("mem.free_stated_bytes", GiB(7.43), 1), ("oom.hint", "kv_pool_made", 1)],
         framework="sglang"),
    case("metal-command-buffer", "RuntimeError: [METAL] Command buffer execution failed: Insufficient Memory "
         "(00000008:kIOGPUCommandBufferCallbackErrorOutOfMemory)\n",
         [(OOM, "ggml_cuda_error_oom", 1), ("oom.hint", "metal_command_buffer", 1), ("gpu.backend", "metal", 1)], failure_line=1),
    case("llama-decode-invalid-batch", "3.49.305.562 E llama_decode: failed to decode, ret = -1\n", [(OOM, "request_rejected", 1)],
         framework="llamacpp"),
    case("llama-decode-alloc-failed", "llama_decode: failed to decode, ret = -2\n",
         [(OOM, "ggml_alloc_failed", 1), ("oom.buffer", "compute", 1)], framework="llamacpp"),
    case("llama-server-input-over-ubatch", "srv send_error: task id = 12, error: input is too large to process, please increase the "
         "physical batch size\n", [(OOM, "request_rejected", 1), ("oom.hint", "input_over_ubatch", 1)], framework="llamacpp"),
    case("ollama-runner-exited", "Error: llama runner exited, you may not have enough available memory to run this model\n",
         [(OOM, "runner_exited", 1)], framework="ollama"),
    case("kv-cache-named-in-failure", "OnnxRuntimeGenAIException: 'Could not allocate the key-value cache buffer of shape: "
         "[batch_size (1), num_key_value_heads (32), max_length (131072), head_size (96)\n",
         [(OOM, "cuda_error_oom", 1), ("knob.max_model_len", 131072, 1)], framework="other", phase="kv_alloc"),
    # holdout r76: ggml's check of a CUDA call, behind a wrapper's bare "Error: " prefix: not a Python exception
    case("ggml-cuda-error-behind-wrapper-prefix", lines("Error: ggml_cuda_compute_forward: MUL_MAT_ID failed", "Error: CUDA error: invalid argument"),
         [("error.final", "CUDA error: invalid argument", 2)]),
    # holdout r76: a hybrid model's recurrent-state cache, made beside its KV cache
    case("rs-cache-buffer", "Failed to initialize the context: failed to allocate buffer for rs cache\n",
         [(OOM, "ggml_alloc_failed", 1), ("oom.buffer", "kv", 1)], phase="kv_alloc"),
    # holdout r76: Ollama relaying its runner's abort, the signal between the exit and ggml's message: a failed load
    case("ollama-runner-abort-cudamalloc",
         'time=2024-06-18T13:23:19.008+02:00 level=ERROR source=sched.go:388 msg="error loading llama server" error="llama runner '
         'process has terminated: signal: aborted (core dumped) cudaMalloc failed: out of memory"\n',
         [(OOM, "ggml_alloc_failed", 1), ("oom.buffer", "weights", 1)], framework="ollama", phase="load_weights"),
    # holdout r76: the caching allocator's expandable segments failing to map more, its sizes wrapped to the next line
    case("expandable-segments-map-failed", lines("expandable_segments: memory mapping failed with OOM on device 0 while trying to",
                                                 "map 20971520 bytes (free: 20578304, total: 25272516608)"),
         [(OOM, "cuda_error_oom", 1), ("oom.device", "0", 1), ("oom.requested_bytes", 20971520, 2), ("oom.gpu_free_bytes", 20578304, 2),
          ("oom.gpu_total_bytes", 25272516608, 2)]),
    # a captured CUDA graph that could not be launched for lack of memory (vllm.rs through cudarc)
    case("cuda-graph-replay-oom", 'Error when replaying graph Err(CUDA Graph launch failed: cuGraphLaunch failed: '
         'DriverError(CUDA_ERROR_OUT_OF_MEMORY, "out of memory"))\n',
         [(OOM, "cuda_error_oom", 1), ("oom.hint", "graph_replay", 1)]),
    # holdout r77: AWS Neuron's runtime refusing a device tensor while the weights are moved onto the NeuronCores
    case("neuron-tensor-allocate", lines("    torch.ops.neuron._parallel_to_neuron(tensors)",
                                         'RuntimeError: nrt_tensor_allocate status=4 message="Allocation Failure"'),
         [(OOM, "cuda_error_oom", 2), ("gpu.backend", "neuron", 2)], phase="load_weights"),
    # holdout r76: vllm.rs (a Rust engine on candle, not vLLM) naming the KV cache it could not allocate
    case("vllm-rs-kv-allocation-failed", "2026-01-20T15:24:43.340496Z ERROR vllm_rs::utils::kvcache_allocator: KVCache allocation failed: "
         "Insufficient GPU memory for KVCache allocation.\n",
         [(OOM, "cuda_error_oom", 1), (OOM, "cuda_error_oom", 1)], framework="other", phase="kv_alloc"),
    # holdout r80: Intel MKL's host allocator (CTranslate2's faster-whisper on a CPU) is host memory
    case("mkl-malloc-host", "RuntimeError: mkl_malloc: failed to allocate memory\n",
         [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1)], failure_line=1),
    # holdout r80: stable-diffusion.cpp reserving one model's compute graph after its weights loaded
    case("sdcpp-compute-buffer", lines("[INFO ] model_loader.cpp:1224 - loading tensors completed, taking 0.20s",
                                       "[DEBUG] ggml_extend.hpp:2061 - vae compute buffer size: 14978.25 MB(VRAM)",
                                       "[ERROR] ggml_extend.hpp:70   - ROCm error: out of memory"),
         [("mem.compute_buffer_bytes", MiB(14978.25), 2), (OOM, "cuda_error_oom", 3)], framework="other", phase="prefill"),
    # holdout r80: bitsandbytes' int8 matmul unsupported on the GPU or build, before "cublasLt ran into an error!"
    case("bnb-cublas-not-supported", "cuBLAS API failed with status 15\n",
         [(FINAL, "cuBLAS API failed with status 15 (CUBLAS_STATUS_NOT_SUPPORTED)", 1)]),
    # holdout r79: NCCL's own allocator refusing a device buffer, under its "unhandled cuda error"
    case("nccl-cuda-calloc", lines("  ncclUnhandledCudaError: Call to CUDA function failed.", "  Last error:",
                                   "  Failed to CUDA calloc 8388608 bytes"),
         [(OOM, "nccl_oom", 3), ("oom.requested_bytes", 8388608, 3)]),
    # holdout r79: Triton's driver call failing for memory (its autotuner's buffers); cuBLAS's NOT_INITIALIZED, which has more causes
    case("triton-driver-oom", "RuntimeError: Triton Error [CUDA]: out of memory\n", [(OOM, "cuda_error_oom", 1), ("oom.hint", "triton", 1)]),
    case("cublas-not-initialized-hint", "RuntimeError: CUDA error: CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasCreate(handle)`\n",
         [(OOM, "cublas_alloc_failed", 1), ("oom.hint", "cublas_not_initialized", 1)]),
    # holdout r79: accelerate refusing to place a submodule on disk without a folder: the weights fit neither GPU nor RAM
    case("accelerate-submodule-offload-folder", "ValueError: At least one of the model submodule will be offloaded to disk, please pass along an "
         "`offload_folder`.\n", [(OOM, "weights_offloaded", 1)], phase="load_weights"),
    # holdout r79: an engine building the model through its generic Hugging Face backend
    case("vllm-generic-backend-frame", '  File "/usr/local/lib/python3.12/dist-packages/vllm/model_executor/models/transformers.py", line 792, '
         "in __init__\n", [("oom.hint", "generic_model_backend", 1), ("oom.hint", "traceback", 1)]),
    case("wsl-residency", lines("RuntimeError: CUDA driver error: device not ready", "dxgkio_make_resident: Ioctl failed: -12"),
         [(OOM, "wsl_residency_failed", 2), ("error.final", "RuntimeError: CUDA driver error: device not ready", 1)]),
    case("gaudi-devmem", "RuntimeError: [Rank:0] FATAL ERROR :: MODULE:PT_DEVMEM Allocation failed for size::56836702208 (54203.7)MB\n",
         [(OOM, "cuda_error_oom", 1), ("oom.requested_bytes", 56836702208, 1)]),
    # the old message with two spaces before the device, cut after the capacity
    case("xpu-cut-after-capacity", "RuntimeError: Current platform can NOT allocate memory block with size larger than 4GB! Tried to "
         "allocate 40.00 GiB (GPU  0; 15.11 GiB total capacity; 10.03 GiB al\n",
         [(OOM, "alloc_size_limit", 1), ("oom.buffer_limit_bytes", GiB(4), 1), ("oom.requested_bytes", GiB(40), 1), ("oom.device", "0", 1),
          ("oom.gpu_total_bytes", GiB(15.11), 1)]),
    # a feature the build lacks, and an assertion raised as an exception: causes, whatever words they hold
    case("unsupported-feature", "ValueError: HiRadixCache only supports MHA, MLA, and NSA (DSA) models\n",
         [("error.final", "ValueError: HiRadixCache only supports MHA, MLA, and NSA (DSA) models", 1)]),
    case("assertion-as-exception", "RuntimeError: Failed: Assertion error /build/DeepEP/csrc/deep_ep.cpp:1233 'x.size(0) <= "
         "num_max_dispatch_tokens_per_rank'\n",
         [("error.final", "RuntimeError: Failed: Assertion error /build/DeepEP/csrc/deep_ep.cpp:1233 'x.size(0) <= "
           "num_max_dispatch_tokens_per_rank'", 1)]),
    case("go-runner-segfault", "Error: llama runner process has terminated: signal: segmentation fault (core dumped)\n",
         [("error.final", "segmentation fault (core dumped)", 1)], framework="ollama"),
    case("mamba-cache-blocks", "ValueError: max_num_seqs (256) exceeds available Mamba cache blocks (243).\n",
         [(OOM, "kv_capacity_limit", 1), ("knob.max_num_seqs", 256, 1), ("oom.limited_knob", "max_num_seqs", 1), ("oom.stated_limit", 243, 1)],
         framework="vllm"),
    case("trt-pool-under-one-sequence", lines(
        "Using 523 tokens in paged KV cache.",
        "E1028 18:34:33.926976 4434 backend_model.cc:634] ERROR: Failed to create instance: unexpected error when creating "
        "modelInstanceState: maxTokensInPagedKvCache must be large enough to process at least 1 sequence to completion"),
         [("mem.kv_tokens", 523, 1), (OOM, "kv_capacity", 2)], framework="tensorrt-llm", phase="kv_alloc"),
    case("openvino-server", ".\\ovms.exe --source_model OpenVINO/Qwen3-8B-int4-ov --task text_generation --target_device GPU\n",
         [("knob.model", "OpenVINO/Qwen3-8B-int4-ov", 1), ("knob.quantization", "int4", 1), ("model.params", 8000000000, 1)], framework="other"),
    # holdout r38
    case("numpy-array-memory", lines("numpy._core._exceptions._ArrayMemoryError: Unable to allocate 561. MiB for an array",
                                     "with shape (132, 2048, 2176) and data type uint8"),
         [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1), ("oom.requested_bytes", MiB(561), 1)], failure_line=1),
    case("zsh-killed", "zsh: killed     python convert.py --model_path mixtral-8x7b-32kseqlen/\n",
         [(OOM, "killed", 1), ("oom.exit_signal", "SIGKILL", 1), ("knob.model", "mixtral-8x7b-32kseqlen", 1), ("model.params", 56 * 10**9, 1),
          ("oom.hint", "converting", 1)]),
    # a library's API mismatch is a cause, whatever its message says about offloading
    case("unexpected-keyword", "TypeError: dispatch_model() got an unexpected keyword argument 'offload_index'\n",
         [("error.final", "TypeError: dispatch_model() got an unexpected keyword argument 'offload_index'", 1)]),
    case("tpu-smem", "RuntimeError: Bad StatusOr access: RESOURCE_EXHAUSTED: XLA:TPU compile permanent error. Ran out of memory in "
         "memory space smem. Used 1.00M of 1.00M smem. Exceeded smem capacity by 1.7K.\n",
         [(OOM, "xla_smem_overflow", 1)], failure_line=1),
    case("webllm-kv-step", "llm_chat.ts:202 Using Paged KVCache\n15vkAllocateMemory failed with VK_ERROR_OUT_OF_DEVICE_MEMORY\n",
         [(OOM, "cuda_error_oom", 2)], phase="kv_alloc", failure_line=2),
    case("ollama-vram-recovery-warning", 'level=WARN source=sched.go:646 msg="gpu VRAM usage didn\'t recover within timeout"\n',
         [(OOM, "vram_recovery_warning", 1)], framework="ollama"),
    # a quantized checkpoint's weights repacked for the Marlin kernel: still loading
    case("marlin-repack-frame", lines('  File "/x/vllm/model_executor/layers/quantization/utils/marlin_utils_fp8.py"',
                                      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 140.00 MiB."),
         [(OOM, "torch_oom", 2), ("oom.requested_bytes", MiB(140), 2)], phase="load_weights", failure_line=2),
    # holdout r39
    case("sglang-no-space-one-request", "AssertionError: No space left for only one request, "
         "self.token_to_kv_pool_allocator.available_size()=0\n", [(OOM, "kv_runtime_exhausted", 1)], framework="sglang", phase="decode"),
    case("ollama-gpu-reported-zero", 'time=2025-08-15T16:00:48.291Z level=DEBUG source=memory.go:111 msg=evaluating library=vulkan '
         'gpu_count=1 available="[0 B]"\n', [(OOM, "gpu_memory_unreported", 1)], framework="ollama"),
    # transformers' pipeline task named 'text-generation' is not the server of that name
    case("pipeline-task-is-not-tgi", "generator = pipeline('text-generation', model='EleutherAI/gpt-neo-2.7B', device=0)\n",
         [("knob.model", "EleutherAI/gpt-neo-2.7B", 1), ("model.params", 2700000000, 1)], framework="other"),
    # (a PyTorch source path names PyTorch, and its Ascend backend alone gives vllm-ascend's weak vote: round 115)
    case("npu-allocator-path", "RuntimeError: allocate:/w/pytorch/torch_npu/csrc/core/npu/NPUCachingAllocator.cpp:1406 NPU error, "
         "error code is 107002\n", [(FINAL, ASCEND_NO_CONTEXT, 1)], framework="vllm"),
    # holdout r40
    case("sglang-hicache-host-check", "ValueError: Not enough host memory available. Requesting 40.00 GB but only have 44.87 GB free. "
         "Please reduce the size of the hierarchical cache.\n",
         [(OOM, "host_insufficient", 1), ("oom.host_required_bytes", 42949672960, 1), ("oom.host_available_bytes", 48178795643, 1),
          ("oom.hint", "hicache", 1)], framework="sglang"),
    # a person retyping vLLM's check: "maxinum", the pool's token count left out
    case("vllm-kv-capacity-retyped", "ValueError : the model's max seq len (32768) is larger than the maxinum number of tokens that can be "
         "stored in KV cache, Try increasing 'gpu_memory_utilization' or decreasing 'max_model_len' when initializing the engine\n",
         [(OOM, "kv_capacity", 1), ("oom.requested_max_model_len", 32768, 1)], framework="vllm"),
    case("nccl-ib-registration-enomem", "[2025-06-16 17:17:39] ***:318:3584 [5] misc/ibvwrap.cc:183 NCCL WARN Call to ibv_reg_dmabuf_mr "
         "failed with error Cannot allocate memory\n", [(OOM, "nccl_oom", 1), ("oom.hint", "nccl_registration", 1)]),
    # Ray's advice after its memory monitor's kill names no failure of its own
    case("ray-oom-advice", "(raylet) Refer to the documentation on how to address the out of memory issue: "
         "https://docs.ray.io/en/latest/ray-core/scheduling/ray-oom-prevention.html.\n", []),
    # a frame moving tensors to the host: PyTorch's CUDA error there is the pinned copy, and not ggml's message
    case("to-cpu-frame", '  File "sequential_backend.py", line 66, in _to_cpu\ntorch.AcceleratorError: CUDA error: out of memory\n',
         [("oom.hint", "pinned_host", 1), ("oom.hint", "pinned_copy", 1), (OOM, "cuda_error_oom", 2), ("oom.hint", "traceback", 1)],
         framework="pytorch"),  # (a project's own frame under PyTorch's error: a PyTorch program)
    # holdout r41
    case("ggml-loader-names-the-weights-buffer",
         lines("ggml_backend_cuda_buffer_type_alloc_buffer: allocating 7825.94 MiB on device 0: cudaMalloc failed: out of memory",
               "llama_model_load: error loading model: failed to allocate buffer"),
         [(OOM, "ggml_alloc_failed", 1), ("oom.requested_bytes", 8206092861, 1), ("oom.device", "0", 1), ("oom.buffer_device", "GPU", 1),
          ("oom.buffer", "weights", 2), ("oom.hint", "context_failed", 2)], framework="llamacpp", phase="load_weights"),
    case("llama-bench-model", "llama-bench -m llama-3.1-70b-instruct-Q4_K_M.gguf -dev CUDA1 -v\n",
         [("knob.model", "llama-3.1-70b-instruct-Q4_K_M.gguf", 1), ("model.params", 70e9, 1), ("knob.quantization", "q4_k_m", 1)],
         framework="llamacpp"),
    case("tabbyapi-model-name", "--model-name FuseO1-DeepSeekR1-QwQ-SkyT1-32B-Preview-exl2_4.65bpw --max-seq-len 16384\n",
         [("knob.model", "FuseO1-DeepSeekR1-QwQ-SkyT1-32B-Preview-exl2_4.65bpw", 1), ("model.params", 32000000000, 1),
          ("knob.quantization", "exl2-4.65bpw", 1)], framework="exllama"),
    # a project folder named after vLLM above the interpreter's lib/ is not vLLM
    case("vllm-named-project-folder", '  File "/media/star/8T/demo/llava-vllm/ENV/lib/python3.10/site-packages/lmdeploy/turbomind/turbomind.py", '
         "line 199, in _create_weight_func\n", [("oom.hint", "multimodal", 1), ("oom.hint", "traceback", 1)], framework="lmdeploy"),
    # a start-up check whose own numbers fit with room to spare measured something wrong
    case("budget-check-contradicts-itself", "TVMError: Check failed: (output_res.IsOk()) is false: Insufficient GPU memory error: The available "
         "single GPU memory is 19314.976 MB, which is less than the sum of model weight size (51.083 MB) and temporary buffer size (106.819 MB).\n",
         [(OOM, "estimator_bug", 1), ("mem.gpu_available_bytes", 20253220274, 1), ("mem.weights_bytes", 53564408, 1),
          ("mem.activation_peak_bytes", 112007840, 1)], phase="startup"),
    # vLLM's config line running a checkpoint named as quantized with quantization=None
    case("quantized-name-run-unquantized", "INFO 04-07 09:02:48 [llm_engine.py:242] Initializing a V0 LLM engine (v0.8.3) with config: "
         "model='OPEA/Mistral-Small-3.1-24B-Instruct-2503-int4-AutoRound-awq-sym', dtype=torch.bfloat16, max_seq_len=128, quantization=None, "
         "enforce_eager=False\n",
         [("framework.version", "0.8.3", 1), ("knob.dtype", "bfloat16", 1), ("knob.max_model_len", 128, 1),
          ("knob.model", "OPEA/Mistral-Small-3.1-24B-Instruct-2503-int4-AutoRound-awq-sym", 1), ("oom.hint", "quantization_unset", 1),
          ("model.name_quantization", "awq", 1), ("knob.enforce_eager", False, 1), ("knob.quantization", "int4", 1),
          ("model.params", 24000000000, 1)], framework="vllm"),
    # holdout r42
    case("neuron-device-alloc",
         lines("WARN  PyProcess W-80-model-stderr: 2024-Apr-30 09:46:17.904255    80:80    ERROR  TDRV:dmem_alloc_internal"
               "                     Failed to alloc DEVICE memory: 469762048",
               "WARN  PyProcess W-80-model-stderr: 2024-Apr-30 09:46:17.926062    80:80    ERROR  TDRV:log_dev_mem"
               "                             Failed to allocate 448.000MB (usage: tensors) on ND 0:NC 0, current utilization:"),
         [(OOM, "cuda_error_oom", 1), ("oom.requested_bytes", 469762048, 1), ("gpu.backend", "neuron", 1), (OOM, "cuda_error_oom", 2),
          ("oom.requested_bytes", 469762048, 2), ("gpu.backend", "neuron", 2), ("oom.buffer", "weights", 2)], phase="load_weights"),
    case("ggml-scratch-pool", "Processing Prompt [BLAS] (7168 / 7321 tokens)ggml_new_tensor_impl: not enough space in the scratch memory "
         "pool (needed 1279262720, available 1197473792)\n",
         [(OOM, "ggml_pool_outgrown", 1), ("oom.requested_bytes", 1279262720, 1), ("oom.pool_bytes", 1197473792, 1)], framework="llamacpp"),
    # holdout r47: within 1% of the pool is ggml's own sizing, not a batch that outgrew it
    case("ggml-pool-sized-short", "ggml_new_tensor_impl: not enough space in the context's memory pool (needed 458853944, "
         "available 454395136)\n", [(OOM, "ggml_fixed_pool", 1)], framework="llamacpp"),
    # holdout r59-r72: a context's memory pool is the library's own arena, however far the graph outgrew it
    case("ggml-context-pool-far-short", "ggml_new_object: not enough space in the context's memory pool (needed 330192, available 16)\n",
         [(OOM, "ggml_fixed_pool", 1)], framework="llamacpp"),
    # holdout r47: PyTorch's report without its head (an excerpt starting at "Tried to allocate"), both formats
    case("torch-body-old", " Tried to allocate 36.00 MiB (GPU 0; 14.84 GiB total capacity; 14.06 GiB already allocated; 28.19 MiB free; "
         "14.07 GiB reserved in total by PyTorch)\n",
         [(OOM, "torch_oom", 1), ("oom.requested_bytes", MiB(36), 1), ("oom.device", "0", 1), ("oom.gpu_total_bytes", GiB(14.84), 1),
          ("oom.torch_allocated_bytes", GiB(14.06), 1), ("oom.gpu_free_bytes", MiB(28.19), 1), ("oom.torch_reserved_bytes", GiB(14.07), 1),
          ("oom.torch_unallocated_bytes", GiB(14.07) - GiB(14.06), 1)]),
    # holdout r48: the shell's "Killed" in a Chinese locale, alone and in a job line; a message that merely uses the word is none
    case("killed-zh", "  warnings.warn(\n已杀死\n", [(OOM, "killed", 2), ("oom.exit_signal", "SIGKILL", 2)]),
    case("killed-zh-job", "[1]+  已杀死               nohup python serve.py\n", [(OOM, "killed", 1), ("oom.exit_signal", "SIGKILL", 1)]),
    case("killed-zh-prose", "已杀死服务器进程: 1234\n", []),
    # holdout r47: vLLM V1's executor relaying a worker's exception names the engine
    case("vllm-worker-relay", "RuntimeError: Worker failed with error 'CUDA out of memory. Tried to allocate 128.00 MiB.\n",
         [(OOM, "torch_oom", 1), ("oom.requested_bytes", MiB(128), 1)], framework="vllm"),
    case("torch-body-new", "Tried to allocate 19.75 GiB. GPU 0 has a total capacity of 22.03 GiB of which 19.51 GiB is free.\n",
         [(OOM, "torch_oom", 1), ("oom.requested_bytes", GiB(19.75), 1), ("oom.device", "0", 1), ("oom.gpu_total_bytes", GiB(22.03), 1),
          ("oom.gpu_free_bytes", GiB(19.51), 1)]),
    # a commented-out argument of a config list is a setting turned off
    case("commented-out-flag", '  # "--quantization=fp8", # quantization of the model weights\n'
         '  "--kv-cache-dtype=fp8" #dynamic quantization of the KV cache\n', [("knob.kv_cache_dtype", "fp8", 2)]),
    case("vllm-v0-step-wrapper", "torch.OutOfMemoryError: Error in model execution (input dumped to /tmp/err_execute_model_input_20241108-"
         "023641.pkl): CUDA out of memory. Tried to allocate 296.00 MiB.\n",
         [(OOM, "torch_oom", 1), ("oom.requested_bytes", 310378496, 1), ("oom.hint", "model_step_wrapper", 1)], framework="vllm", phase="prefill"),
    # holdout r43
    case("mps-backend-figures", "        RuntimeError: MPS backend out of memory (MPS allocated: 18.00 GB, other allocations: 4.87 MB, max allowed: "
         "18.13 GB). Tried to allocate 256.00 MB on private pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable upper limit for memory "
         "allocations (may cause system failure).\n",
         [(OOM, "torch_oom", 1), ("oom.torch_allocated_bytes", 19327352832, 1), ("oom.gpu_total_bytes", 19466939269, 1), ("gpu.backend", "mps", 1),
          ("oom.requested_bytes", 268435456, 1), ("oom.process_bytes", 19332459397, 1), ("oom.gpu_free_bytes", 134479872, 1)],
         framework="transformers"),
    case("ray-worker-died-cut", "(raylet) A worker died or was killed while executing a task by an unexpected system error. To troubleshoot "
         "the problem, check the logs for the dead worker. Worker exit type: SYSTEM_ERROR Worker exit detail: Worker unexpectedly exits with a "
         "connection error code 2. End of file.\n", [(OOM, "ray_worker_died", 1)]),
    case("adreno-unified-memory", "W Adreno-GSL: <gsl_ldd_control:549>: ioctl fd 58 code 0xc0300945 (IOCTL_KGSL_GPUOBJ_ALLOC) failed: errno 12 "
         "Out of memory\n", [("oom.hint", "unified_memory", 1), (OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1)]),
    # the names as words: a Jetson's L4T release line, a Tegra kernel
    case("jetson-l4t-unified-memory", "# R36 (release), REVISION: 4.0, GCID: 37537400, BOARD: generic, EABI: aarch64 (Jetson Orin Nano, L4T 36.4)\n",
         [("oom.hint", "unified_memory", 1)]),
    case("tegra-kernel-unified-memory", "Linux orin 5.15.148-tegra #1 SMP PREEMPT aarch64 GNU/Linux\n", [("oom.hint", "unified_memory", 1)]),
    case("exl2-bits-in-name", " -- Model: /content/exllamav2/my_model/QwQ-32B-exl2-3_0\n",
         [("knob.model", "/content/exllamav2/my_model/QwQ-32B-exl2-3_0", 1), ("model.params", 32000000000, 1),
          ("knob.quantization", "exl2-3.0bpw", 1)], framework="exllama"),
    # holdout r45
    case("ollama-model-store", "llama_model_loader: loaded meta data with 22 key-value pairs and 723 tensors from "
         "/data/models/blobs/sha256-6a0746a1ec1aef3e7ec53868f220ff6e389f6f8ef87a01d77c96807de94ca2aa (version GGUF V3 (latest))\n",
         framework="ollama"),
    case("ort-arena-cap", "[ONNXRuntimeError] : 6 : RUNTIME_EXCEPTION : Non-zero status code returned while running Softmax node. "
         "Name:'Softmax_1' Status Message: Available memory of 0 is smaller than requested bytes of 5505024\n",
         [(OOM, "allocator_cap", 1), ("oom.requested_bytes", 5505024, 1)]),
    case("metal-command-buffer-status-5", "ggml_metal_graph_compute: command buffer 0 failed with status 5\n",
         [(OOM, "metal_command_buffer_error", 1), ("oom.hint", "metal_command_buffer", 1), ("gpu.backend", "metal", 1)]),
    # holdout r51
    # Metal's running total read from the working-set warning when the paste lost the buffer's name
    case("metal-running-total-unnamed",
         "size =   160.00 MB, (12018.69 / 10922.67), warning: current allocated size is greater than the recommended max working set size\n",
         [(OOM, "working_set_exceeded", 1), ("mem.gpu_used_bytes", MiB(12018.69), 1), ("mem.gpu_available_bytes", MiB(10922.67), 1)]),
    # Go's crash report under llama.cpp's lines: Ollama's runner
    case("ollama-cgo-crash", lines("ggml_metal_graph_compute: command buffer 0 failed with status 5", "GGML_ASSERT: ggml-metal.m:1177: false",
                                   "SIGABRT: abort", "signal arrived during cgo execution"),
         [(OOM, "metal_command_buffer_error", 1), ("oom.hint", "metal_command_buffer", 1), ("gpu.backend", "metal", 1)], framework="ollama"),
    # the model loader's error, its reason cut off: the buffer that failed just before held the weights
    case("model-load-error-cut", lines("ggml_backend_cuda_buffer_type_alloc_buffer: allocating 30649.55 MiB on device 0: cudaMalloc failed: out of memory",
                                       "llama_model_load: error loading model:"),
         [(OOM, "ggml_alloc_failed", 1), ("oom.requested_bytes", MiB(30649.55), 1), ("oom.device", "0", 1), ("oom.buffer_device", "GPU", 1),
          ("oom.buffer", "weights", 2), ("oom.hint", "context_failed", 2)], framework="llamacpp", phase="load_weights"),
    # vLLM's CUDA-graph memory profile and its custom all-reduce source name vLLM
    case("vllm-graph-profile-line", lines("Profiling CUDA graph memory: PIECEWISE=2 (largest=2), FULL=1 (largest=1)",
                                          "Failed: Cuda error csrc/custom_all_reduce.cuh:455 'invalid argument'"),
         [(OOM, "comm_error", 2), ("oom.hint", "custom_all_reduce", 2)], framework="vllm"),
    # holdout r52
    # Tenstorrent's per-bank message with the largest free block: free in total, not in one piece
    case("bank-dram-largest-free-block",
         "TT_FATAL: Out of Memory: Not enough space to allocate 1050673152 B DRAM buffer across 12 banks, where each bank needs to store "
         "87556096 B, but bank size is 1073741792 B (allocated: 943941568 B, free: 129800224 B, largest free block: 34201600 B)\n",
         [(OOM, "cuda_error_oom", 1), ("gpu.backend", "tenstorrent", 1), ("oom.requested_bytes", 1050673152, 1), ("oom.gpu_total_bytes", 12 * 1073741792, 1),
          ("oom.gpu_free_bytes", 12 * 129800224, 1), ("oom.largest_free_bytes", 12 * 34201600, 1)]),
    # Intel's SYCL runtime reports a GPU's memory running out as out of resources, or out of host memory
    case("sycl-out-of-resources", "RuntimeError: Native API failed. Native API returns: -5 (PI_ERROR_OUT_OF_RESOURCES) -5 (PI_ERROR_OUT_OF_RESOURCES)\n",
         [(OOM, "cuda_error_oom", 1), ("gpu.backend", "sycl", 1)]),
    # ggml clearing a new buffer (its KV cache, as the context is made) when the device ran out
    case("ggml-buffer-clear-kv", lines("Native API failed. Native API returns: -6 (PI_ERROR_OUT_OF_HOST_MEMORY) -6 (PI_ERROR_OUT_OF_HOST_MEMORY)",
                                       "SYCL error: CHECK_TRY_ERROR((*stream) .memset(ctx->dev_ptr, value, buffer->size) .wait()): Meet error"),
         [(OOM, "cuda_error_oom", 1), ("gpu.backend", "sycl", 1), ("oom.buffer", "kv", 2)], phase="kv_alloc"),
    # LMCache's pinned host pool (inside vLLM's workers) without room for one more chunk
    case("lmcache-host-pool-full",
         "[2025-05-19 18:08:26,176] LMCache WARNING: Failed to allocate memory for tensor(torch.Size([256, 2, 1024]), torch.bfloat16) "
         "because no memory is available (memory_management.py:576:lmcache.experimental.memory_management)\n",
         [(OOM, "host_pool_full", 1), ("oom.requested_bytes", 256 * 2 * 1024 * 2, 1)], framework="vllm"),
    # a size that must divide evenly is a setting, whatever memory words the assertion holds; quoted in prose
    case("divisibility-assertion-in-prose",
         "When I used the Disaggregated prefill feature, I encountered the following error: AssertionError: Buffer size 1073741824 must be "
         "a multiple of align bytes 29360128 in paged memory allocator.\n",
         [(FINAL, "When I used the Disaggregated prefill feature, I encountered the following error: AssertionError: Buffer size 1073741824 "
                  "must be a multiple of align bytes 29360128 in paged memory allocator.", 1)]),
    # holdout r53
    # ExLlamaV3's wording of its split that holds no room for the cache
    case("exllamav3-split-insufficient", "RuntimeError: Insufficient VRAM in split for model and cache\n",
         [(OOM, "exllama_insufficient_vram", 1)], framework="exllama", phase="kv_alloc"),
    # mistral.rs names the engine step that failed: a prompt is a prefill
    case("mistralrs-prompt-failed", "2024-04-26T20:17:25.483829Z ERROR mistralrs_core::engine: prompt - Model failed with error: "
         "Cuda(Cuda(DriverError(CUDA_ERROR_OUT_OF_MEMORY, \"out of memory\")))\n",
         [(OOM, "cuda_error_oom", 1)], framework="other", phase="prefill"),
    # `ollama ps` (the loaded model's memory and context) and `ollama list` (its file)
    case("ollama-ps-and-list", lines("glm-4.7-flash:latest              ff14144f31df    18 GB     29 hours ago",
                                     "NAME                    ID              SIZE      PROCESSOR          CONTEXT    UNTIL",
                                     "glm-4.7-flash:latest    ff14144f31df    145 GB    35%/65% CPU/GPU    128000     4 minutes from now"),
         [("mem.weights_total_bytes", GiB(18), 1), ("mem.required_bytes", GiB(145), 3), ("knob.max_model_len", 128000, 3),
          ("oom.hint", "context_spilled", 3)]),
    case("ollama-ps-without-context", "gemma3:4b    a2af6cc3eb7f    8.4 GB    100% GPU     4 minutes from now\n",
         [("mem.required_bytes", GiB(8.4), 1)]),
    # a traceback through SGLang's KV token-slot allocator
    case("sglang-kv-slot-frame", lines('  File "/sgl/python/sglang/srt/speculative/eagle_info.py", line 111, in prepare_for_verify',
                                       "    batch.out_cache_loc = alloc_token_slots("),
         [("oom.hint", "traceback", 1), ("oom.hint", "kv_slot_alloc", 2)], framework="sglang"),
    # holdout r54
    # a Metal command buffer macOS stopped for holding up the display (code 0x0e), not out of memory (0x08)
    case("metal-impacting-interactivity", lines("ggml_metal_graph_compute: command buffer 1 failed with status 5",
                                                "error: Internal Error (0000000e:Internal Error)"),
         [(OOM, "metal_command_buffer_error", 1), ("oom.hint", "metal_command_buffer", 1), ("gpu.backend", "metal", 1),
          (OOM, "gpu_timeout", 2)]),
    # Ollama's API access lines (the Go web framework's) make llama.cpp's lines Ollama's runner's
    case("ollama-gin-access-line", lines('[GIN] 2025/05/16 - 11:35:51 | 200 |  4.355901125s |       127.0.0.1 | POST     "/api/generate"',
                                         "llama_kv_cache_init:      CUDA0 KV buffer size =  1024.00 MiB"),
         [("mem.kv_cache_bytes", MiB(1024), 2), ("mem.kv_total_bytes", MiB(1024), 2)], framework="ollama"),
    # Ollama's own structured log line from a Go file it has not named before; llama.cpp inside Ollama's build tree;
    # a Windows path into Ollama's model store
    case("ollama-slog-any-source", 'time=2025-12-02T17:06:47.184-05:00 level=INFO source=runner.go:1271 msg=load request="{Operation:alloc}"\n',
         framework="ollama"),
    case("llamacpp-inside-ollama-build", "GGML_ASSERT: /tmp/ollama-20231213-4188-jpu97j/llm/llama.cpp/gguf/ggml-metal.m:1623: false\n",
         framework="ollama"),
    case("ollama-blobs-windows-path", "llama_init_from_gpt_params: error: failed to create context with model "
         "'C:\\Users\\a\\.ollama\\models\\blobs\\sha256-912687f2b75ca31331bfcf8b55a34a366dbb0f31df6b'\n",
         [("oom.hint", "context_failed", 1)], framework="ollama"),
    # holdout r55: SGLang's first scheduler, before its lines named it
    case("sglang-early-scheduler", "new fill batch. #seq: 1. #cached_token: 477. #new_token: 198. #remaining_req: 1. #running_req: 3. "
         "tree_cache_hit_rate: 80.83%.\n", framework="sglang"),
    # llama.cpp's context refusing a quantized V cache without flash attention: a setting
    case("v-cache-needs-flash-attention", "llama_new_context_with_model: V cache quantization requires flash_attn\n",
         [(FINAL, "a quantized V cache needs flash attention (-fa on): the context refused the setting", 1),
          ("oom.hint", "cache_needs_flash_attention", 1)]),
    # NVML blind to the process (a container, WSL): "this process has 0 bytes" states nothing
    case("this-process-zero-bytes", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.88 GiB. GPU 3 has a total capacity of "
         "21.96 GiB of which 1.29 GiB is free. Including non-PyTorch memory, this process has 0 bytes memory in use. Of the allocated "
         "memory 19.02 GiB is allocated by PyTorch, and 1.32 GiB is reserved by PyTorch but unallocated.\n",
         [(OOM, "torch_oom", 1), ("oom.requested_bytes", GiB(1.88), 1), ("oom.device", "3", 1), ("oom.gpu_total_bytes", GiB(21.96), 1),
          ("oom.gpu_free_bytes", GiB(1.29), 1), ("oom.torch_allocated_bytes", GiB(19.02), 1), ("oom.torch_unallocated_bytes", GiB(1.32), 1)]),
    # vLLM relaying a worker's exception that is not about memory: that exception is the final error
    case("vllm-worker-relay-inner-error",
         "ERROR 05-19 22:17:53 [core.py:386] RuntimeError: ('Worker failed with error %s, please check the stack trace above for the root "
         "cause', \"'tuple' object has no attribute 'ndim'\")\n",
         [(FINAL, "ERROR 05-19 22:17:53 [core.py:386] RuntimeError: ('Worker failed with error %s, please check the stack trace above for "
                  "the root cause', \"'tuple' object has no attribute 'ndim'\")", 1)], framework="vllm"),
    case("vllm-worker-relay-memory-error",
         "RuntimeError: Worker failed with error 'CUDA out of memory. Tried to allocate 128.00 MiB.', please check the stack trace above for the root cause\n",
         [(OOM, "torch_oom", 1), ("oom.requested_bytes", MiB(128), 1)], framework="vllm"),
    # holdout r69: DeepSpeed FastGen (MII) allocating its blocked KV cache, in its logger's own line shape
    case("deepspeed-fastgen-kv-shape",
         "[2025-03-13 18:29:53,201] [INFO] [kv_cache.py:135:__init__] Allocating KV-cache 0 with shape: (32, 6352, 64, 2, 16, 96) "
         "consisting of 6352 blocks.\n",
         [("mem.kv_total_bytes", 2 * 32 * 6352 * 64 * 2 * 16 * 96, 1), ("mem.kv_tokens", 6352 * 64, 1)], framework="deepspeed"),
    # holdout r81: accelerate refusing a .to() on a model it offloaded, and its warning when RAM held not all of the rest
    case("accelerate-offloaded-move-refused", "RuntimeError: You can't move a model that has some modules offloaded to cpu or disk.\n",
         [("oom.hint", "weights_cpu_offloaded", 1), ("oom.hint", "offloaded_model_moved", 1),
          (FINAL, "RuntimeError: You can't move a model that has some modules offloaded to cpu or disk.", 1)]),
    case("accelerate-offload-disk-and-cpu", "WARNING:root:Some parameters are on the meta device device because they were offloaded to the disk and cpu.\n",
         [("oom.hint", "weights_cpu_offloaded", 1)]),
    # holdout r81: ExLlamaV2's loader placing modules over a manual split
    case("exllama-split-full", "AssertionError: Insufficient space in device allocation\n", [(OOM, "exllama_split_full", 1)],
         framework="exllama", phase="load_weights"),
    # holdout r81: a sliding-window model's KV cache step, and the tensor-range failure right after it: the cache's buffer
    case("ggml-iswa-kv-buffer", lines(
        "llama_kv_cache_iswa: creating non-SWA KV cache, size = 128000 cells",
        "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 4500.00 MiB on device 0: cudaMalloc failed: out of memory",
        "alloc_tensor_range: failed to allocate ROCm0 buffer of size 4718592000"),
         [(OOM, "ggml_alloc_failed", 2), ("oom.requested_bytes", 4718592000, 2), ("oom.device", "0", 2), ("oom.buffer_device", "GPU", 2),
          (OOM, "ggml_alloc_failed", 3), ("oom.requested_bytes", 4718592000, 3), ("oom.buffer_device", "GPU", 3), ("gpu.backend", "rocm", 3),
          ("oom.buffer", "kv", 3)], phase="kv_alloc"),
    # holdout r81: the call that failed only asked the device for its free memory
    case("ggml-device-query-oom", lines(
        "CUDA error: out of memory",
        "  current device: 0, in function ggml_backend_cuda_device_get_memory at /src/llama.cpp/ggml/src/ggml-cuda/ggml-cuda.cu:3330",
        "  cudaMemGetInfo(free, total)"),
         [(OOM, "ggml_cuda_error_oom", 1), ("oom.hint", "device_query", 2), ("oom.hint", "ggml_fn_ggml_backend_cuda_device_get_memory", 2),
          ("oom.device", "0", 2)]),
    # holdout r81: a runner that could not start (a missing program or library): no memory figure at all
    case("ollama-runner-exit-127", "Error: llama runner process has terminated: exit status 127\n",
         [(FINAL, "the runner exited with status 127 (a program or shared library it needs was not found): a build or install fault, "
                  "not memory", 1)], framework="ollama"),
    # holdout r81: mistral.rs's device map, wrapped over lines: devices that all report 0 MB are misread, others are full
    case("mistralrs-no-fit-zero", lines("CPU load failed: This model does not fit on the devices", '["cpu (avail: 0MB)", "cpu (avail: 0MB)"], and exceeds total',
                                        "capacity by 5706MB."),
         [(FINAL, "every device reported 0 MB available: the memory query misread the devices, they are not full", 1)]),
    case("mistralrs-no-fit", 'This model does not fit on the devices ["cuda[0] (avail: 7800MB)"], and exceeds total capacity by 1200MB.\n',
         [(OOM, "weights_load_oom", 1)], phase="load_weights"),
    # holdout r81: vLLM's KV check as a person shortens it
    case("vllm-kv-needed-short", "ValueError: 1.75 GiB KV cache is needed, available 0.13 GiB\n",
         [(OOM, "kv_capacity", 1), ("oom.kv_needed_bytes", GiB(1.75), 1), ("oom.kv_available_bytes", GiB(0.13), 1)],
         framework="vllm", phase="kv_alloc"),
    # holdout r81: a Rust engine's scheduler logging a failed step: the model was running
    case("scheduler-step-failed", 'WARN openinfer_qwen3_4b::scheduler: Execution step failed: Alloc failed: DriverError(CUDA_ERROR_OUT_OF_MEMORY, '
         '"out of memory")\n', [(OOM, "cuda_error_oom", 1)], phase="prefill"),
    # holdout r81: PyTorch's message with its exception name cut: its own advice after it names PyTorch, not ggml
    case("torch-cuda-error-name-cut", "CUDA error: out of memory CUDA kernel errors might be asynchronously reported at some other API call, so "
         "the stacktrace below might be incorrect.\n", [(OOM, "cuda_error_oom", 1)]),
    case("vllm-relayed-cuda-error", "RuntimeError: Worker failed with error 'CUDA error: out of memory\n", [(OOM, "cuda_error_oom", 1)],
         framework="vllm"),
    # holdout r82: NVSHMEM (DeepEP's transport) backing its symmetric heap: cuMemCreate's status 2 is out of memory
    case("nvshmem-heap-oom", lines("/nvshmem/src/host/mem/mem_heap.cpp:1509: non-zero status: 2 cuMemCreate failed ",
                                   "/nvshmem/src/host/mem/mem_heap.cpp:1590: non-zero status: 7 allocate_physical_memory_to_heap failed"),
         [(OOM, "nccl_oom", 1), ("oom.hint", "nvshmem", 1), (OOM, "nccl_oom", 2), ("oom.hint", "nvshmem", 2)]),
    # holdout r82: a container runtime's own record of the cgroup's OOM killer
    case("docker-inspect-oomkilled", "OOMKilled=true   ExitCode=137   mem_limit=2684354560 (2560M)\n",
         [(OOM, "exit_137", 1), (OOM, "kernel_oom_kill", 1), ("oom.hint", "container", 1), ("oom.exit_signal", "137", 1)]),
    # holdout r82: vLLM's start-up check wrapped over two lines names vLLM from its first
    case("vllm-free-below-util-wrapped", lines("ValueError: Free memory on device cuda:0 (79.12/94.97 GiB) on startup is less",
                                               "than desired GPU memory utilization (0.95, 90.22 GiB)."),
         [(OOM, "free_below_util", 1), ("oom.free_at_start_bytes", GiB(79.12), 1), ("mem.gpu_total_bytes", GiB(94.97), 1),
          ("oom.util_requested", 0.95, 1), ("knob.gpu_memory_utilization", 0.95, 1), ("oom.util_requested_bytes", GiB(90.22), 1)],
         framework="vllm"),
    # holdout r82: llama.cpp's converter, whose per-tensor lines name it
    case("llamacpp-converter-lines", lines("blk.34.attn_qkv.weight, n_dims = 2, torch.bfloat16 --> float16", "Killed"),
         [(OOM, "killed", 2), ("oom.exit_signal", "SIGKILL", 2)], framework="llamacpp"),
    # holdout r82: DeepSpeed-FastGen's scheduler finding its KV blocks dry mid-decode
    case("fastgen-kv-deadlock", "Deadlock detected. Resetting KV cache and recomputing requests. Consider limiting number of concurrent "
         "requests or decreasing max lengths of prompts/generations.\n", [(OOM, "kv_runtime_exhausted", 1)], framework="deepspeed", phase="decode"),
    # holdout r82: a quantizer's frame: the job holds the full-precision weights by design
    case("quantizer-frame", lines('  File "/home/u/AutoFP8/auto_fp8/quantize.py", line 56, in per_tensor_quantize',
                                  "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 512.00 MiB."),
         [("oom.hint", "quantizing", 1), ("oom.hint", "traceback", 1), (OOM, "torch_oom", 2), ("oom.requested_bytes", MiB(512), 2)]),
    # holdout r83: TensorFlow's pinned host allocator: the host's memory, whatever CUDA's status name says
    case("tf-pinned-host", lines("2020-09-23 13:19:24.605173: E tensorflow/stream_executor/cuda/cuda_driver.cc:893] failed to alloc 336952320 bytes "
                                 "on host: CUDA_ERROR_OUT_OF_MEMORY: out of memory",
                                 "2020-09-23 13:19:24.605206: W ./tensorflow/core/common_runtime/gpu/gpu_host_allocator.h:44] could not allocate "
                                 "pinned host memory of size: 336952320"),
         [(OOM, "host_alloc_failed", 1), ("oom.hint", "pinned_host", 1), ("oom.requested_bytes", 336952320, 1),
          (OOM, "host_alloc_failed", 2), ("oom.hint", "pinned_host", 2), ("oom.requested_bytes", 336952320, 2)]),
    # holdout r83: ROCm's BLAS library failing to read its kernel file (here: out of file descriptors under -tp 8)
    case("rocblaslt-kernel-file", "rocblaslt error: Could not load /home/u/envs/vllm/lib/python3.11/site-packages/torch/lib/hipblaslt/library/"
         "TensileLibrary_lazy_gfx942.dat\n",
         [(FINAL, "ROCm's BLAS library could not read its kernel file TensileLibrary_lazy_gfx942.dat: a build without kernels for this GPU, "
                  "or the process out of open files (ulimit -n); not memory", 1)]),
    case("rocblas-cannot-read", "rocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat: Illegal seek\n",
         [(FINAL, "ROCm's BLAS library could not read its kernel file TensileLibrary.dat: a build without kernels for this GPU, "
                  "or the process out of open files (ulimit -n); not memory", 1)]),
    # holdout r84: the kernel's kill with the pid elided by the paste
    case("kernel-kill-elided-pid", "Out of memory: Killed process \u2026 (VLLM::EngineCor)\n",
         [(OOM, "kernel_oom_kill", 1), ("host.kernel_oom_kill", "Out of memory: Killed process \u2026 (VLLM::EngineCor)", 1),
          ("oom.exit_signal", "SIGKILL", 1)]),
    # holdout r84: the kernel's report of a pod's memory cgroup at its limit (an unlimited one is not read)
    case("cgroup-at-limit", lines("[44517.301476] memory: usage 131072kB, limit 131072kB, failcnt 15691",
                                  "[44517.301477] memory+swap: usage 0kB, limit 9007199254740988kB, failcnt 0"),
         [(OOM, "kernel_oom_kill", 1), ("host.cgroup_limit_bytes", 131072 << 10, 1)]),
    case("cgroup-below-limit", "memory: usage 65536kB, limit 131072kB, failcnt 0\n", []),
    # holdout r84: only the runtime's pointer to the error's name survived the paste
    case("illegal-address-name", "Search for `cudaErrorIllegalAddress' in https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html "
         "for more information.\n", [(OOM, "illegal_memory_access", 1)]),
    # holdout r84: torch_memory_saver's driver status: 1 is an invalid value, 2 would be out of memory
    case("memory-saver-status", "(WorkerDict pid=1) [torch_memory_saver.cpp] CUresult error  result=1 file=csrc/torch_memory_saver.cpp func=resume line=206\n",
         [("oom.hint", "sleep_wake", 1),
          (FINAL, "torch_memory_saver: the CUDA driver returned CUDA_ERROR_INVALID_VALUE: not out of memory", 1)]),
    case("memory-saver-oom", "[torch_memory_saver.cpp] CUresult error  result=2 file=csrc/torch_memory_saver.cpp func=resume line=206\n",
         [("oom.hint", "sleep_wake", 1), (OOM, "cuda_error_oom", 1)], framework="sglang"),
    # holdout r84: a GEMM runner's failed launch, which SGLang reports as a failed graph capture
    case("gemm-run-failed", "Error occurred when running GEMM! (numBatches: 256, GemmMNK: 128 1024 6144,\n",
         [(FINAL, "a GEMM kernel failed to run (256 batches of 128x1024x6144): its kernel or tactic for this shape or GPU, not memory", 1)]),
    # holdout r84: Jetson's nvmap refusing the service user: the GPU is never used
    case("nvmap-denied", "Nov 27 16:54:54 jetson ollama[7008]: NvRmMemInitNvmap failed with Permission denied\n",
         [("oom.hint", "unified_memory", 1), (OOM, "broken_install", 1)], framework="ollama"),
    # holdout r85: vllm-ascend's worker stating the bytes left for the KV cache
    case("vllm-ascend-available-zero", "(EngineCore_DP0 pid=4146) INFO 01-15 06:47:41 [worker_v1.py:270] Available memory: 0, total memory: 65452113920\n",
         [("mem.gpu_total_bytes", 65452113920, 1), (OOM, "no_kv_memory", 1)], phase="kv_alloc"),
    # holdout r85: a failure raised in vLLM V0's CPU swap allocation (pinned host RAM)
    case("vllm-cpu-swap-frame", lines('[rank0]:     self.cpu_cache = self._allocate_kv_cache(self.num_cpu_blocks, "cpu")',
                                      "[rank0]: RuntimeError: CUDA error: invalid argument"),
         [("oom.hint", "cpu_swap_alloc", 1), (FINAL, "[rank0]: RuntimeError: CUDA error: invalid argument", 2)]),
    # holdout r85: LMCache's cache engine skipping a store for lack of room in its host pool
    case("lmcache-store-skipped", lines("[2025-07-03 12:45:27,563] LMCache WARNING: Failed to allocate memory for the KV cache.",
                                        "The KV cache will not be stored. (cache_engine.py:200:lmcache.v1.cache_engine)"),
         [(OOM, "host_pool_full", 1)]),
    # holdout r85: Ascend's driver (drvRetCode 6: out of memory) and runtime refusing device memory; HCCL asking for it
    case("ascend-hal-alloc", "[npu_driver.cc:1274]29953 DevMemAllocManaged:[INIT][DEFAULT][drv api] halMemAlloc failed:size=32(Byte), type=17, "
         "moduleId=3, drvFlag=216172782156776448, drvRetCode=6, device_id=0!\n",
         [(OOM, "cuda_error_oom", 1), ("oom.requested_bytes", 32, 1), ("gpu.backend", "npu", 1)]),
    case("ascend-hal-alloc-other-code", "halMemAlloc failed:size=32(Byte), type=17, moduleId=3, drvRetCode=3, device_id=0!\n", []),
    case("ascend-hccl-resource", lines("        Failed to allocate resource[DeviceMemory] with info [size:2147483648]. Reason: Memory resources are exhausted.",
                                       "        Nnopbase fails to invoke the HcclAllocComResourceByTiling function of the hccl module. ret = 2"),
         [(OOM, "cuda_error_oom", 1), ("oom.requested_bytes", 2147483648, 1), ("gpu.backend", "npu", 1),
          (OOM, "nccl_oom", 2), ("oom.hint", "hccl", 2)]),
    # holdout r85: TensorFlow's CPU allocator is the host's RAM; its GPU allocator the card's
    case("tf-cpu-allocator", "tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor with shape[41500,1002,1024] "
         "and type float on /job:localhost/replica:0/task:0/device:CPU:0 by allocator cpu [Op:ResourceGather]\n",
         [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1), ("oom.requested_bytes", 4 * 41500 * 1002 * 1024, 1)]),
    case("tf-gpu-allocator", "ResourceExhaustedError: OOM when allocating tensor with shape[8,1024,4096] and type half on "
         "/job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n",
         [(OOM, "cuda_error_oom", 1), ("oom.requested_bytes", 2 * 8 * 1024 * 4096, 1)]),
    # holdout r85: the NVIDIA driver's Xid 31 (an MMU fault) in dmesg; NVSHMEM's team table; an RDMA registration
    case("nvidia-xid-31", "NVRM: Xid (PCI:0000:03:00): 31, pid=18865, name=llama-server, channel 0x00000019, intr 10000000. MMU Fault: "
         "ENGINE GRAPHICS GPC0 GPCCLIENT_T1_5 faulted @ 0x32_0134b000. Fault is of type FAULT_PDE ACCESS_TYPE_READ\n",
         [(OOM, "illegal_memory_access", 1)]),
    case("nvidia-xid-79", "NVRM: Xid (PCI:0000:41:00): 79, pid=1234, GPU has fallen off the bus.\n", [(OOM, "device_lost", 1)]),
    case("nvshmem-teams", "team_internal.cpp:1821: error status: 2 (NVSHMEMX_ERROR_OUT_OF_MEMORY) No more teams available (max = 7), "
         "try setting NVSHMEM_MAX_TEAMS environment variable\n",
         [(FINAL, "NVSHMEM ran out of teams (max = 7): a fixed table, raised with NVSHMEM_MAX_TEAMS; its out-of-memory status is not a "
                  "lack of memory", 1)]),
    case("mooncake-registration", '    raise RuntimeError("Mooncake memory registration failed.")\n',
         [(FINAL, "Mooncake memory registration failed: the network card could not register the buffer for RDMA (GPUDirect RDMA, "
                  "the driver or the transfer engine's version), not a lack of memory", 1)]),
    # holdout r86: Mesa's RADV driver refusing a buffer (its size on the next line); Metal's API validation failing
    case("radv-alloc", lines("radv/amdgpu: Failed to allocate a buffer:", "radv/amdgpu:    size      : 963379200 bytes"),
         [(OOM, "ggml_alloc_failed", 1), ("oom.buffer_device", "GPU", 1), ("gpu.backend", "vulkan", 1), ("oom.requested_bytes", 963379200, 2)]),
    case("metal-api-assertion", "-[_MTLCommandBuffer addCompletedHandler:]:1011: failed assertion `Completed handler provided after commit call'\n",
         [(FINAL, "Metal's API check failed (Completed handler provided after commit call): the engine misused the API, not memory", 1)]),
    # holdout r86: a launcher's negative return code of a crash (cog guesses memory; -9 would be a kill)
    case("return-code-crash", "cog.server.exceptions.FatalWorkerException: Prediction failed for an unknown reason. It might have run out of memory? "
         "(exitcode -11)\n",
         [(FINAL, "return code -11: the process crashed (SIGSEGV, a segmentation fault), it was not killed for memory", 1)]),
    case("metal-api-assertion-memory", "-[MTLDebugDevice newBufferWithLength:options:]:670: failed assertion `Buffer Validation Illegal MTLStorageMode "
         "for memory'\n", []),    # holdout r87: vllm.rs sizing its KV pool, and its Rust backtrace through the KV step
    case("kv-blocks-for-seqs", "WARN vllm_rs::utils: Allocating 8192 KV blocks (131072 MB) for [2 seqs x 262144 tokens]\n",
         [("mem.kv_cache_bytes", 131072 << 20, 1), ("knob.max_num_seqs", 2, 1), ("knob.max_model_len", 262144, 1)]),
    # holdout r87: ggml-backend's own assert on a buffer it could not get, no GPU backend set up: the CPU's
    case("ggml-assert-alloc-cpu", 'GGML_ASSERT: D:\\a\\whisper.cpp\\whisper.cpp\\ggml-backend.c:460: data != NULL && "failed to allocate buffer"\n',
         [(OOM, "ggml_alloc_failed", 1), ("oom.buffer_device", "CPU", 1)]),
    case("ggml-assert-alloc-gpu", lines("ggml_cuda_init: found 1 CUDA devices:",
                                        'GGML_ASSERT: ggml-backend.c:460: data != NULL && "failed to allocate buffer"'),
         [(OOM, "ggml_alloc_failed", 2)]),
    # holdout r87: Android's low-memory killer; a supervisor's crash signal; Triton's Python stub
    case("android-lmkd", "2024-09-25 10:24:19.378   495-495   lowmemorykiller         lmkd                                 I  Kill "
         "'com.google.android.apps.scone' (15964), uid 10137, oom_score_adj 500 to free 92212kB rss, 33036kB swap; reason: low watermark is "
         "breached and swap is low (712kB < 389076kB)\n", [(OOM, "kernel_oom_kill", 1), ("oom.exit_signal", "SIGKILL", 1)]),
    case("signal-crash", "[12:46:25] INFO: Service exited with code 256 (by signal 4)\n",
         [(FINAL, "signal 4: the process crashed (SIGILL, an illegal instruction), it was not killed for memory", 1)]),
    case("triton-stub-unhealthy", "tritonclient.utils.InferenceServerException: [StatusCode.INTERNAL] Failed to process the request(s) for "
         "model instance 'damage_0', message: Stub process is not healthy.\n", [(OOM, "stub_unhealthy", 1)], framework="other"),
    # holdout r88: look-alikes: a driver library too old for the runtime, a kernel library's launch check, an exception
    # under a container's service prefix, an allocator's and a transport's notices
    case("driver-library-symbol", 'unable to load cuda driver library" library=/usr/lib/x86_64-linux-gnu/libcuda.so.418.226.00 '
         'error="symbol lookup for cuCtxCreate_v3 failed: /usr/lib/x86_64-linux-gnu/libcuda.so.418.226.00: undefined symbol: cuCtxCreate_v3\n',
         [(OOM, "broken_install", 1)]),
    case("cuda-launch-check", "CUDA error (/__w/xformers/xformers/third_party/flash-attention/hopper/flash_fwd_launch_template.h:188): "
         "invalid argument\n", [(FINAL, "CUDA error: invalid argument (a kernel launch was refused), not out of memory", 1)]),
    case("compose-prefixed-exception", "tabbyapi  |                        RuntimeError: cudaHostRegister(0x70a98bbe9000, 71397376)\n",
         [(FINAL, "tabbyapi  |                        RuntimeError: cudaHostRegister(0x70a98bbe9000, 71397376)", 1)]),
    case("tf-pool-allocator-notice", lines(
        "PoolAllocator: After 2573 get requests, put_count=2268 evicted_count=1000 eviction_rate=0.440917 and unsatisfied allocation "
        "rate=0.546055",
        "I tensorflow/core/common_runtime/gpu/pool_allocator.cc:256] Raising pool_size_limit_ from 100 to 110"),
         [(OOM, "memory_notice", 1), (OOM, "memory_notice", 2)]),
    case("openmpi-shm-notice", "[host:1300619] create_and_attach: unable to create shared memory BTL coordinating structure :: size 134217728\n",
         [(OOM, "memory_notice", 1)]),
    # holdout r88: TensorRT-LLM's native backtrace through its KV cache manager's pools: the KV step
    case("trt-kv-pools-frame", lines(
        "[TensorRT-LLM][ERROR] CUDA runtime error in ::cudaMalloc(ptr, n): out of memory",
        "3       0x7cb3c5bae3ab tensorrt_llm::batch_manager::kv_cache_manager::WindowBlockManager::allocatePools(bool) + 635",
        "5       0x7cb3c5baf5bd tensorrt_llm::batch_manager::kv_cache_manager::KVCacheManager::allocatePools(bool) + 61"),
         [(OOM, "trt_oom", 1)], phase="kv_alloc"),
    # holdout r88: a vLLM layer's frame pasted without its function's name is a forward pass
    case("layer-frame-without-function", lines(
        'File "/usr/local/lib/python3.12/dist-packages/vllm/model_executor/layers/fla/ops/fused_gdn_prefill_post_conv.py", line 200',
        "    k = torch.empty(L, H, K, dtype=dtype, device=device)",
        "RuntimeError: CUDA driver error: out of memory"),
         [(OOM, "cuda_error_oom", 3)], phase="prefill"),
    # holdout r89: a request longer than the server's context, in each server's words
    case("llama-server-request-over-context", "srv    send_error: task id = 0, error: request (68885 tokens) exceeds the available context size "
         "(65536 tokens), try increasing it\n",
         [(OOM, "request_over_context", 1), ("mem.prefill_tokens", 68885, 1), ("knob.max_model_len", 65536, 1)]),
    case("openai-request-over-context", "This model's maximum context length is 8192 tokens. However, you requested 8204 tokens (12 in the "
         "messages, 8192 in the completion). Please reduce the length of the messages or completion.\n",
         [(OOM, "request_over_context", 1), ("mem.prefill_tokens", 8204, 1), ("knob.max_model_len", 8192, 1)]),
    case("lm-studio-request-over-context", "2025-05-20 15:33:59 [ERROR] Trying to keep the first 10136 tokens when context the overflows. However, "
         "the model is loaded with context length of only 7866 tokens, which is not enough.\n",
         [(OOM, "request_over_context", 1), ("mem.prefill_tokens", 10136, 1), ("knob.max_model_len", 7866, 1)]),
    case("ollama-truncating-prompt", 'time=2025-04-22T11:21:47.546Z level=WARN source=runner.go:131 msg="truncating input prompt" limit=2048 '
         "prompt=5065 keep=5 new=2048\n",
         [(OOM, "request_over_context", 1), ("mem.prefill_tokens", 5065, 1), ("knob.max_model_len", 2048, 1)], framework="ollama"),
    case("request-over-context-json-type", '"type":"exceed_context_size_error","n_prompt_tok\n', [(OOM, "request_over_context", 1)]),
    # holdout r89: look-alikes on Ascend, Metal, AMD and Intel GPUs
    case("cann-not-implemented", "CANN error: EZ9903: [PID: 71888] 2025-12-17-18:13:01.238.630 support for Ascend910 is not implemented\n",
         [(FINAL, "CANN error: EZ9903: [PID: 71888] 2025-12-17-18:13:01.238.630 support for Ascend910 is not implemented", 1)]),
    case("metal-library-failed", "ggml_metal_init: error: failed to initialize the Metal library\n", [(OOM, "broken_install", 1), ("oom.hint", "metal_build", 1)]),
    case("amd-gfxhub-page-fault", "[gfxhub] page fault\n", [(OOM, "illegal_memory_access", 1)]),
    case("xe-faulted-address", "Faulted Address: 0x0000d556aa4c7000\n", [(OOM, "illegal_memory_access", 1)]),
    case("ascend-stream-queues", "[ERROR] RUNTIME(6651,):2025-12-20-12:52:31.887.694 [stream_sqcq_manage.cc:79]6651 AllocStreamSqCq:[SqCqManage]"
         "Alloc sq cq fail, stream_id=1088, retCode=0x7020023.\n",
         [(FINAL, "the Ascend runtime could not create a stream's queues (sq/cq) or begin capturing on it: the driver's stream resources, "
                  "not device memory", 1)]),
    # holdout r89: the kernel's memory report (its zone under the minimum watermark)
    case("kernel-mem-info", "kern  :warn  : [qua jul  8 09:49:25 2026] Mem-Info:\n", [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1)]),
    case("kernel-zone-below-min", "[Fri Apr 17 19:56:16 2026] Node 0 Normal free:20084kB boost:0kB min:66452kB low:162724kB high:258996kB\n",
         [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1)]),
    case("kernel-zone-above-min", "[Fri Apr 17 19:56:16 2026] Node 0 Normal free:920084kB boost:0kB min:66452kB low:162724kB high:258996kB\n", []),
    # holdout r89: torch_npu's workspace allocator refusing an operator's scratch
    case("npu-workspace", "[rank0]:[E522 11:31:08.878836785 OpParamMaker.cpp:454] NPU out of memory. NPUWorkspaceAllocator tried to allocate "
         "216.00 MiB(NPU 0; 61.27 GiB total capacity; 90.23 MiB free). If you want to reduce memory usage, take a try to set the environment "
         "variable TASK_QUEUE_ENABLE=1.\n",
         [(OOM, "torch_oom", 1), ("oom.hint", "op_workspace", 1), ("gpu.backend", "npu", 1), ("oom.requested_bytes", 216 << 20, 1), ("oom.device", "0", 1),
          ("oom.gpu_total_bytes", GiB(61.27), 1), ("oom.gpu_free_bytes", 94613012, 1)]),
    # holdout r90: a kernel build that cannot link libcuda; a thread the process could not start; RDMA registration refused
    case("link-no-libcuda", lines("/usr/bin/ld: cannot find -lcuda: No such file or directory", "collect2: error: ld returned 1 exit status"),
         [(OOM, "broken_install", 1), (OOM, "broken_install", 2)]),
    case("pthread-create-failed", "E0710 15:24:06.605366961 2474524 thd.cc:157]                           pthread_create failed: Resource "
         "temporarily unavailable\n",
         [(FINAL, "a thread could not be started (EAGAIN): the process's or its container's thread limit (ulimit -u, pids.max), not memory", 1)]),
    case("boost-thread-failed", "(bundle_reservation_check_func pid=630) [2025-02-16 02:29:23,228 E 630 630] logging.cc:108: Unhandled "
         "exception: N5boost10wrapexceptINS_6system12system_errorEEE. what(): thread: Resource temporarily unavailable [system:11]\n",
         [(FINAL, "a thread could not be started (EAGAIN): the process's or its container's thread limit (ulimit -u, pids.max), not memory", 1)]),
    case("rdma-reg-mr-enomem", "Call to ibv_reg_mr_iova2 failed with error Cannot allocate memory\n", [(OOM, "mlock_limit", 1)]),
    # holdout r90: torch's storage pinning a host buffer: a CUDA error there is the host's pinned memory
    case("pin-memory-frame", lines('  File "/home/u/.conda/envs/m/lib/python3.10/site-packages/torch/storage.py", line 226, in pin_memory',
                                   "    cast(Storage, self)).pin_memory(device)", "RuntimeError: CUDA error: out of memory"),
         [("oom.hint", "pinned_host", 1), ("oom.hint", "pinned_copy", 1), ("oom.hint", "traceback", 1), (OOM, "cuda_error_oom", 3)]),
    # holdout r81/r82: a checkpoint conversion job (its whole model in host RAM by design)
    case("converter-command", "python inference/convert.py --hf-ckpt-path models/DeepSeek-V3/ --save-path models/DeepSeek-V3-Demo "
         "--n-experts 256 --model-parallel 16\n", [("oom.hint", "converting", 1)]),
    case("converter-module", "[1]    16261 killed     python3 -m llama.convert_llama --ckpt_dir $CKPT_DIR --tokenizer_path   65B\n",
         [("oom.hint", "converting", 1), (OOM, "killed", 1), ("oom.exit_signal", "SIGKILL", 1), ("oom.hint", "kv_preallocated", 1)]),
    # holdout r87: PyTorch's report shortened by the user ("this process has 20.67 GiB in use")
    case("torch-this-process-shortened", "Process 29529 has 796.00 MiB memory in use. ... this process has 20.67 GiB in use.\n",
         [("oom.process_bytes", 22194243502, 1), ("oom.other_process_bytes", 834666496, 1), ("oom.process_count", 2, 1),
          ("gpu.other_processes", "pid 29529 796.00 MiB", 1)]),
    # holdout r91: engines named only by their own lines: koboldcpp's progress line, SGLang's newer scheduler
    # punctuation, llama.cpp's graph placement warning, vLLM's all-reduce source in its image's build folder
    case("koboldcpp-progress", "Processing Prompt (18 / 18 tokens)\nROCm error: CUBLAS_STATUS_INTERNAL_ERROR\n",
         [(FINAL, "ROCm error: CUBLAS_STATUS_INTERNAL_ERROR", 2)], framework="llamacpp"),
    case("koboldcpp-progress-blas", "Processing Prompt [BLAS] (512 / 1024 tokens)\n", [], framework="llamacpp"),
    case("sglang-decode-batch-comma", "[03:51:54] Decode batch, #running-req: 6, #full token: 2435072, full token usage: 0.92, "
         "swa token usage: 0.09, gen throughput (token/s): 24.33\n", [], framework="sglang"),
    case("llamacpp-missing-support", "layer 0 is assigned to device CPU but fused Gated Delta Net (chunked) is assigned to device "
         "CUDA0 (usually due to missing support)\n", [], framework="llamacpp"),
    case("vllm-all-reduce-image-path", "Failed: Cuda error /workspace/csrc/custom_all_reduce.cuh:336 'invalid argument'\n",
         [(OOM, "comm_error", 1), ("oom.hint", "custom_all_reduce", 1)], framework="vllm"),
    # holdout r92: a Windows exit status in each spelling a launcher prints; a double that two statuses share names neither
    case("ntstatus-hex", 'Error: llama runner process has terminated: exit status 0xc0000409 CUDA error"\n',
         [(FINAL, "exit status 0xC0000409 (STATUS_STACK_BUFFER_OVERRUN): the runtime aborted itself (a failed check or an "
                  "unhandled error); the status itself names no memory failure", 1)], framework="ollama"),
    case("ntstatus-js-double", "(Exit code: 18446744072635812000). Unknown error. Try a different model and/or config.\n",
         [(FINAL, "exit status 0xC0000409 (STATUS_STACK_BUFFER_OVERRUN): the runtime aborted itself (a failed check or an "
                  "unhandled error); the status itself names no memory failure", 1)]),
    case("ntstatus-signed", "Process finished with exit code -1073741795\n",
         [(FINAL, "exit status 0xC000001D (STATUS_ILLEGAL_INSTRUCTION): the build uses CPU instructions this CPU lacks "
                  "(AVX2, AVX-512); the status itself names no memory failure", 1)]),
    case("ntstatus-no-memory", "exited with code 3221225495\n", [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1)]),
    case("ntstatus-double-shared", "(Exit code: 18446744072635810000). Unknown error.\n", []),
    # a driver status by name, decided by its number where one is printed
    case("driver-status-ptx", 'Error: DriverError(CUDA_ERROR_UNSUPPORTED_PTX_VERSION, "the provided PTX was compiled with an '
         'unsupported toolchain.") when loading dequantize_block_q4_K_f32\n',
         [(FINAL, "the GPU driver returned CUDA_ERROR_UNSUPPORTED_PTX_VERSION: not out of memory", 1)]),
    case("driver-status-code-700", "CUDA stream synchronization failed: CUDA driver error: CUDA_ERROR_UNKNOWN (code: 700)\n",
         [(OOM, "illegal_memory_access", 1)]),
    case("driver-status-unknown-alone", "cuCtxSynchronize returned CUDA_ERROR_UNKNOWN\n", []),
    # Windows could not map the model file (a 32-bit build's address space), in the user's language
    case("windows-map-view", "error loading model: MapViewOfFile failed: No hay suficientes recursos de memoria disponibles para "
         "procesar este comando.\n", [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1), ("oom.hint", "context_failed", 1)],
         phase="load_weights"),
    # the engine's step named by an inner frame of the traceback below the failure: a decode step
    case("decode-step-frame", lines(
        "CUDA Error: out of memory (2) /sglang/3rdparty/flashinfer/include/flashinfer/handler.cuh: line 100 at function cudaMallocAsync",
        "Traceback (most recent call last):",
        '  File "/sglang/python/sglang/srt/managers/router/model_rpc.py", line 165, in exposed_step',
        "    self.forward_step()",
        '  File "/sglang/python/sglang/srt/managers/router/model_rpc.py", line 192, in forward_step',
        "    self.forward_decode_batch(self.running_batch)"),
         [(OOM, "cuda_error_oom", 1), ("oom.hint", "traceback", 2)], phase="decode"),
    case("sglang-router-prefix", "[Router (Rust)] 2025-03-08 02:33:09 - INFO - Worker http://0.0.0.0:31000 health check is pending "
         "with error: error sending request for url (http://0.0.0.0:31000/health)\n", [], framework="sglang"),
    # environment assignments a paste shows: the settings a launch command's environment gives
    case("env-before-command", "OLLAMA_NUM_PARALLEL=64 ollama serve\n", [("knob.max_num_seqs", 64, 1)]),
    case("env-exported-alloc-conf", "export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True\n", [("knob.expandable_segments", True, 1)]),
    case("env-docker-quoted", "docker run --gpus all -e 'MAX_TOTAL_TOKENS=8192' -e OLLAMA_FLASH_ATTENTION=1 busybox\n",
         [("knob.max_model_len", 8192, 1), ("knob.flash_attention", True, 1), ("oom.hint", "container", 1)]),
    # the H200 recording: transformers 5 allocating a static cache's layer at its first update
    case("hf5-static-cache-lazy", lines(
        '  File "/venv/lib/python3.12/site-packages/transformers/cache_utils.py", line 434, in lazy_initialization',
        "    self.keys = torch.zeros(",
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 8.12 GiB."),
         [(OOM, "torch_oom", 3), ("oom.hint", "traceback", 1), ("oom.requested_bytes", GiB(8.12), 3)], phase="kv_alloc"),
    # holdout r93: a CUDA runtime call that failed with another error, however the engine prints its check
    case("trt-cuda-call-nested-parens", "[TensorRT-LLM][ERROR] Encountered an error in forwardAsync function: [TensorRT-LLM][ERROR] CUDA runtime "
         "error in cudaMemcpyAsync(dst, src.data(), src.getSizeInBytes(), cudaMemcpyDefault, mStream->get()): invalid argument "
         "(/workspace/tensorrt_llm/cpp/tensorrt_llm/runtime/bufferManager.cpp:146)\n",
         [(FINAL, "CUDA runtime error in cudaMemcpyAsync: invalid argument", 1)], framework="tensorrt-llm"),
    case("trt-cuda-call-windows-spacing", "RuntimeError: [TensorRT-LLM] [ERROR] CUDA runtime error in cudaDeviceGetDefaultMemPool(&memPool, device): "
         "operation not supported (C:\\workspace\\bufferManager.cpp:171)\n",
         [(FINAL, "CUDA runtime error in cudaDeviceGetDefaultMemPool: operation not supported", 1)]),
    case("cuda-check-at-source-line", "CUDA error at src/cuda/nonzero_bitwise.cu:138: invalid configuration argument\n",
         [(FINAL, "CUDA error at src/cuda/nonzero_bitwise.cu:138: invalid configuration argument", 1)]),
    # a request longer than the context, in vLLM's newer wording and in TensorRT-LLM's check: its tokens are the input and the output asked
    case("vllm-max-tokens-too-large", "ValueError: 'max_tokens' or 'max_completion_tokens' is too large: 8192. This model's maximum context "
         "length is 8192 tokens and your request has 1210 input tokens (8192 > 8192 - 1210).\n",
         [(OOM, "request_over_context", 1), ("mem.prefill_tokens", 9402, 1), ("knob.max_model_len", 8192, 1)]),
    case("trt-input-plus-new-tokens", "[TensorRT-LLM][ERROR] Assertion failed: Input length (6973) + max new tokens (4095) + draft tokens (0) "
         "must be less than max sequence length (8192).\n",
         [(OOM, "request_over_context", 1), ("mem.prefill_tokens", 11068, 1), ("knob.max_model_len", 8192, 1)]),
    # llama_decode's status 1 (no KV slot) as bindings name it
    case("llamasharp-no-kv-slot", "Unhandled exception. LLama.Exceptions.LLamaDecodeError: llama_decode failed: 'NoKvSlot'\n",
         [(OOM, "kv_runtime_exhausted", 1)], phase="decode"),
    case("rust-no-kv-cache-slot", "ERROR: Model worker crashed: Llama.cpp failed decoding: Decode Error 1: NoKvCacheSlot\n",
         [(OOM, "kv_runtime_exhausted", 1)], phase="decode"),
    # whisper.cpp's KV cache: ggml's other application, its own words
    case("whisper-kv-cache-init", lines(
        "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 560.00 MiB on device 0: cudaMalloc failed: out of memory",
        "whisper_kv_cache_init: failed to allocate memory for the kv cache",
        "whisper_full_with_state: whisper_kv_cache_init() failed for self-attention cache"),
         [(OOM, "ggml_alloc_failed", 1), (OOM, "ggml_alloc_failed", 2), (OOM, "ggml_alloc_failed", 3), ("oom.buffer", "kv", 2),
          ("oom.buffer", "kv", 3), ("oom.buffer_device", "GPU", 1), ("oom.device", "0", 1), ("oom.requested_bytes", 587202560, 1)],
         framework="other", phase="kv_alloc"),
    # ptxas refusing a JIT-built kernel's static shared memory: the kernel's limit, not the device's memory
    case("ptxas-too-much-shared-data", "NVCC compilation failed: ptxas error   : Entry function '_ZN9deep_gemm5sched30smxx_paged_mqa_logits_"
         "metadataILj12896ELj256ELj78EEEvjjbPKjPj' uses too much shared data (0xc980 bytes, 0xc000 max)\n",
         [(OOM, "kernel_resource", 1)]),
    # a server's start-up warning that the container's /dev/shm is small (Ray's object store, NVIDIA's containers)
    case("ray-object-store-shm-wrapped", lines(
        "2025-10-09 20:16:32,652    WARNING services.py:2159 -- WARNING: The object store is using /tmp instead",
        "  of /dev/shm because /dev/shm has only 5368709120 bytes available. This will harm performance! You may"),
         [("host.shm_total_bytes", 5368709120, 2), ("oom.hint", "shm_warned_small", 2)]),
    case("ngc-shmem-note", "NOTE: The SHMEM allocation limit is set to the default of 64MB.  This may be\n",
         [("host.shm_total_bytes", 64 << 20, 1), ("oom.hint", "shm_warned_small", 1)]),
    # vLLM's estimate of its CUDA graphs' memory, taken off the KV budget
    case("vllm-graph-estimate", "(Worker_DP1_TP1_EP3 pid=3585771) INFO 08-19 05:56:57 [gpu_model_runner.py:6936] Estimated CUDA graph "
         "memory: 118.65 GiB total\n", [("mem.cuda_graph_estimate_bytes", GiB(118.65), 1)], framework="vllm"),
    # SGLang's pool check, its first sentence only; ggml's Vulkan allocation with its bare byte count
    case("sglang-not-enough-first-sentence", "RuntimeError: Not enough memory.\n", [(OOM, "sglang_kv_pool_empty", 1)], phase="kv_alloc"),
    case("vulkan-allocation-of-size", "ggml_vulkan: Memory allocation of size 638668800 failed.\n",
         [(OOM, "cuda_error_oom", 1), ("oom.requested_bytes", 638668800, 1)]),
    case("tenstorrent-kv-progress", lines(
        "Allocating TT kv caches for each layer (submesh 1):  69%|##   | 22/32 [00:01<00:00, 11.60it/s]",
        "Out of Memory: Not enough space to allocate 71999488 B DRAM buffer across 12 banks, where each bank needs to store 6000320 B"),
         [(OOM, "cuda_error_oom", 2), ("gpu.backend", "tenstorrent", 2), ("oom.requested_bytes", 71999488, 2)], phase="kv_alloc"),
    # a C assertion: its condition is the cause, not the source path printed after it
    case("c-assertion-condition", "Assertion `res == CUresult::CUDA_SUCCESS` failed (/workspace/.deps/flashmla-src/csrc/sm90/prefill/"
         "sparse/instantiations/../phase1.cuh:614):\n",
         [(FINAL, "Assertion `res == CUresult::CUDA_SUCCESS` failed (/workspace/.deps/flashmla-src/csrc/sm90/prefill/sparse/"
                  "instantiations/../phase1.cuh:614):", 1)]),
    case("c-assertion-on-allocation", "Assertion `ptr != nullptr` failed (/src/alloc.cpp:12):\n", []),
    # the loader failing to read the model file: the read's errno names the cause
    case("ggml-read-error", "llama_model_load: error loading model: read error: Bad address\n",
         [(FINAL, "the model could not be loaded (read error: Bad address): not memory", 1), ("oom.hint", "context_failed", 1)],
         framework="llamacpp"),
    case("ggml-read-error-enomem", "llama_model_load: error loading model: read error: Cannot allocate memory\n",
         [("oom.hint", "context_failed", 1), (OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1)], framework="llamacpp"),
    case("vllm-build-deps-path", "Assertion `res == CUresult::CUDA_SUCCESS` failed (/workspace/.deps/flashmla-src/csrc/sm90/prefill/"
         "phase1.cuh:614):\n", [(FINAL, "Assertion `res == CUresult::CUDA_SUCCESS` failed (/workspace/.deps/flashmla-src/csrc/sm90/"
                                "prefill/phase1.cuh:614):", 1)], framework="vllm"),
    # engines named by their own messages or package names alone
    case("vllm-platform-plugin", '[rank0]:   File "/usr/local/lib/python3.10/dist-packages/vllm_openvino/worker/openvino_worker.py", line 274, '
         "in determine_num_available_blocks\n", [("oom.hint", "traceback", 1)], framework="vllm"),
    case("sglang-bare-rank-prefix", "[TP0] EAGLE draft cuda graph replay padding: raw_bs=3 graph_bs=4 raw_out_cache_loc=9\n", [],
         framework="sglang"),
    case("llamacpp-kv-slot-in-a-client", "[Error: could not find a KV slot for the batch (try reducing the size of the batch or increase "
         "the context)]\n", [(OOM, "kv_runtime_exhausted", 1)], framework="llamacpp", phase="decode"),
    case("pytorch-xpu-free-memory", "RuntimeError: The device (Intel(R) Graphics [0x64a0]) doesn't support querying the available free "
         "memory.\n", [(FINAL, "RuntimeError: The device (Intel(R) Graphics [0x64a0]) doesn't support querying the available free memory.", 1)],
         framework="transformers"),
    case("vllm-api-server-prefix", '(APIServer pid=1) INFO:     10.0.0.1:46494 - "POST /v1/chat/completions HTTP/1.1" 200 OK\n', [],
         framework="vllm"),
    # holdout r94: a handler for OutOfMemoryError under a PyTorch without the class: another error, hidden by it
    case("torch-oom-name-missing", " AttributeError: module 'torch.cuda' has no attribute 'OutOfMemoryError'\n",
         [(FINAL, "AttributeError on the name OutOfMemoryError: an out-of-memory handler written for a newer PyTorch, raised while it "
                  "handled another error, which it hides", 1)]),
    # holdout r94: the loader's reason is a setting, not memory (its "0 MiB free" on a CPU-only build says nothing)
    case("ggml-load-error-setting", "llama_model_load: error loading model: It is not possible to use split mode 'graph' with less than 2 devices\n",
         [(FINAL, "the model could not be loaded (It is not possible to use split mode 'graph' with less than 2 devices): not memory", 1),
          ("oom.hint", "context_failed", 1)], framework="llamacpp"),
    # holdout r94: a quantized KV cache copied where the backend has no kernel for it; Ollama's settings name the engine
    case("ggml-unsupported-type", lines("set OLLAMA_KV_CACHE_TYPE=q4_0", "ggml_cuda_cpy_fn: unsupported type combination (q4_0 to f32)"),
         [(FINAL, "ggml_cuda_cpy_fn: unsupported type combination (q4_0 to f32): the backend has no kernel for it, not a lack of memory", 2)],
         framework="ollama"),
    # holdout r94: vLLM's graph estimate below zero (added to the KV budget)
    case("vllm-graph-estimate-negative", "(EngineCore pid=257) INFO 06-06 16:17:13 [gpu_model_runner.py:6369] Estimated CUDA graph memory: "
         "-35.69 GiB total\n", [("mem.cuda_graph_estimate_bytes", -GiB(35.69), 1)], framework="vllm", phase=None),
    # holdout r94: nvtop's memory bar gives the card's size
    case("nvtop-memory-bar", " GPU[||                              5%] MEM[|||||||||||||||||79.020Gi/80.000Gi]\n",
         [("gpu.total_bytes", GiB(80), 1)]),
    # holdout r94: vLLM's own check of a context past the model's, under a wrapper; SGLang's container folder in a path
    case("vllm-derived-max-model-len", "ValueError: [address=127.0.0.1:37657, pid=3125985] User-specified max_model_len (4096) is greater "
         "than the derived max_model_len (seq_length=2048 or model_max_length=None in model's config.json).\n", [(OOM, "config_max_len", 1)],
         framework="vllm"),
    case("sglang-workspace-path", "RuntimeError: Failed: Assertion error /sgl-workspace/DeepEP/csrc/deep_ep.cpp:1025 'x.size(0) <= "
         "num_max_dispatch_tokens_per_rank'\n",
         [(FINAL, "RuntimeError: Failed: Assertion error /sgl-workspace/DeepEP/csrc/deep_ep.cpp:1025 'x.size(0) <= "
                  "num_max_dispatch_tokens_per_rank'", 1)], framework="sglang"),
]


REACHED = [
    # a log without a failure line: the last step it reached
    # holdout r75: TGI's and LoRAX's warm-up building the paged cache, its list opened on one line and filled on the next
    ('  File "/opt/conda/lib/python3.10/site-packages/lorax_server/models/cache_manager.py", line 124, in set_cache_manager\n', "kv_alloc"),
    ("    self.kv_cache = [\n", "kv_alloc"),
    ("llama_new_context_with_model: n_ctx      = 131072\n", "kv_alloc"),
    ("WARNING 04-27 16:27:59 [profiling.py:245] The sequence length used for profiling (max_num_batched_tokens / max_num_seqs = 20000) "
     "is too short to hold the multi-modal embeddings in the worst case\n", "profile"),
    ('  File "/v/recipes/full_finetune_distributed.py", line 919, in train\n    current_loss = self._loss_step(batch)\n', "prefill"),
    ("WARNING [big_modeling.py:433] Some parameters are on the meta device device because they were offloaded to the cpu.\n", "load_weights"),
    # holdout r30-era cut logs: the loaders' and caches' own progress lines
    ("Loading safetensors checkpoint shards:  10% Completed | 6/62 [00:29<05:21,  5.75s/it]\n", "load_weights"),
    ("Loading pt checkpoint shards:   0% Completed | 0/1 [00:00<?, ?it/s]\n", "load_weights"),
    ("llm_load_tensors: ggml ctx size =    0.77 MiB\n", "load_weights"),
    ('level=INFO source=server.go:589 msg="waiting for server to become available" status="llm server loading model"\n', "load_weights"),
    ("llama_kv_cache_init:      CUDA0 KV buffer size =   690.00 MiB\n", "kv_alloc"),
    ("done_getting_tensors: tensor 'token_embd.weight' (q4_K) (and 0 others) cannot be used with preferred buffer type CUDA_Host, "
     "using CPU instead\n", "load_weights"),
    ("INFO 06-11 13:57:14 [executor_base.py:110] # CUDA blocks: 1234, # CPU blocks: 512\n", "kv_alloc"),
    ("INFO:     Profiling peak memory usage...\n", "profile"),
    # holdout r46: the loaded weights repacked for the kernels, whatever layer helper the frames below name
    ('  File "/usr/lib/python3.12/dist-packages/vllm/attention/backends/mla/utils.py", line 378, in process_weights_after_loading\n'
     "    self.impl.process_weights_after_loading(act_dtype)\n", "load_weights"),
    ('  File "/opt/conda/lib/python3.10/site-packages/text_generation_server/models/custom_modeling/flash_mixtral_modeling.py", '
     "line 691, in __init__\n", "load_weights"),
    # a torch.nn layer or a transformers model being constructed allocates its parameters; a checkpoint being unpickled
    ('  File "/home/u/.conda/envs/llama/lib/python3.9/site-packages/torch/nn/modules/linear.py", line 96, in __init__\n'
     "    self.weight = Paramete\n", "load_weights"),
    ('  File "C:\\env\\lib\\site-packages\\torch\\serialization.py", line 1101, in persistent_load\n'
     "    load_tensor(dtype, nbytes, key, _maybe_decode_ascii(location))\n", "load_weights"),
    # a layer helper computing below the loading frame of the same traceback is still loading
    ('  File "/usr/lib/python3.12/dist-packages/vllm/attention/backends/mla/utils.py", line 378, in process_weights_after_loading\n'
     "    self.impl.process_weights_after_loading(act_dtype)\n"
     '  File "/usr/lib/python3.12/dist-packages/vllm/model_executor/layers/quantization/utils/quant_utils.py", line 88, in scaled_quantize\n'
     "    W_UV_O, W_UV_O_scales = scaled_quantize(\n", "load_weights"),
    # ... but a new traceback, or a log line outside it, starts afresh
    ('  File "/usr/lib/python3.12/dist-packages/vllm/attention/backends/mla/utils.py", line 378, in process_weights_after_loading\n'
     "Traceback (most recent call last):\n"
     '  File "/usr/lib/python3.12/dist-packages/vllm/model_executor/layers/quantization/utils/quant_utils.py", line 88, in scaled_quantize\n',
     "prefill"),
    # holdout r69: the output buffer, logged from whichever function the build uses, is allocated right before
    # the compute buffers are reserved
    ("llama_init_from_model: KV self size  = 2208.00 MiB, K (f16): 1104.00 MiB, V (f16): 1104.00 MiB\n"
     "llama_init_from_model:  SYCL_Host  output buffer size =     0.58 MiB\n"
     "llama_init_from_model: pipeline parallelism enabled (n_copies=4)\n", "profile"),
    # holdout r69: a native (TVM) backtrace through reading the parameter shards is the load
    ("  1: tvm::runtime::relax_vm::NDArrayCache::Load(std::__cxx11::basic_string<char> const&, int, int)\n"
     "  11: mlc::llm::serve::Engine::Create(std::__cxx11::basic_string<char> const&, DLDevice)\n", "load_weights"),
    # holdout r71: MLC's own numbered frame, no namespace, reading the parameters
    ("Error: Traceback (most recent call last):\n"
     "  8: mlc::llm::LLMChat::Reload(tvm::runtime::TVMArgValue, tvm::runtime::String, tvm::runtime::String)\n"
     "        at /workspace/mlc-llm/cpp/llm_chat.cc:504\n"
     "  7: LoadParams\n"
     "        at /workspace/mlc-llm/cpp/llm_chat.cc:237\n", "load_weights"),
    # holdout r87: a Rust engine's backtrace through its KV step
    ("vllm-rs-med0  |    4: vllm_rs::core::runner::ModelRunner::init_kv_cache\n", "kv_alloc"),
    # holdout r71: Metal's KV buffer allocated, and nothing after it: the KV step
    ("ggml_metal_add_buffer: allocated 'data            ' buffer, size =  7501.59 MB, ( 7502.22 / 21845.34)\n"
     "ggml_metal_add_buffer: allocated 'kv              ' buffer, size = 12675.02 MB, (20177.23 / 21845.34)\n", "kv_alloc"),
]


def test_an_engine_signal_names_the_framework_before_pytorch_messages():
    # holdout r50: PyTorch's report and its process-group warning, and one line of vLLM's shard loader: the engine is vLLM
    from oomdoctor.parsers import detect
    from parser_table import scan_text

    log = lines("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 64.00 MiB. GPU 0 has a total capacity of 79.20 GiB "
                "of which 48.62 MiB is free. Including non-PyTorch memory, this process has 2.46 GiB memory in use. Of the allocated memory "
                "1.15 GiB is allocated by PyTorch, and 13.45 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory "
                "is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.",
                "Loading safetensors checkpoint shards:  13% Completed | 2/15 [00:01<00:11,  1.12it/s]",
                "[rank0]:[W612 11:14:08.810596063 ProcessGroupNCCL.cpp:1496] Warning: WARNING: destroy_process_group() was not called "
                "before program exit, which can leak resources. For more info, please see https://pytorch.org/docs/stable/distributed.html"
                "#shutdown (function operator())")
    assert detect.decide(scan_text(log).framework_scores) == "vllm"
    # PyTorch's report alone is read as transformers (assumed)
    assert detect.decide(scan_text(lines("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 64.00 MiB.")).framework_scores) \
        == detect.ASSUMED
    # vLLM's OpenAI server refusing a request longer than max_model_len, in both its wordings; OpenAI's own API words it
    # "your messages resulted in", which names no engine
    for refusal in ("This model's maximum context length is 8192 tokens. However, you requested 8204 tokens (12 in the messages, "
                    "8192 in the completion). Please reduce the length of the messages or completion.",
                    "This model's maximum context length is 4096 tokens. However, you requested 512 output tokens and your prompt "
                    "contains at least 3585 input tokens, for a total of at least 4097 tokens."):
        assert detect.decide(scan_text(lines(refusal)).framework_scores) == "vllm"
    assert detect.decide(scan_text(lines("This model's maximum context length is 4097 tokens. However, your messages resulted "
                                         "in 4135 tokens.")).framework_scores) != "vllm"
    # each engine's own check of a prompt against the context, and transformers' generate() against its max_length
    for text, engine in (("ValueError: The decoder prompt (length 163270) is longer than the maximum model length of 128000.", "vllm"),
                         ("ValueError: The input (9000 tokens) is longer than the model's context length (8192 tokens).", "sglang"),
                         ("ValueError: Input length of input_ids is 158, but `max_length` is set to 128.", "transformers")):
        assert detect.decide(scan_text(lines(text)).framework_scores) == engine, text
    # a notebook's own notice is a Python script too (holdout r58: Colab, VS Code's Jupyter log)
    for notice in ("Your session crashed after using all available RAM", "your session crashed after using all available ram",
                   "22:55:16.349 [error] Disposing session as kernel process died ExitCode: undefined, Reason: ",
                   "Jun 9, 2024, 11:45:20 AM | INFO | KernelRestarter: restarting kernel (1/5), keep random ports"):
        assert detect.decide(scan_text(lines(notice)).framework_scores) == detect.ASSUMED


def test_wrappers_name_the_engine_they_run():
    # holdout r63: a wrapper's own words, with no line of the engine's usual prefixes
    from oomdoctor.parsers import detect
    from parser_table import scan_text

    lm_studio = lines("Failed to load model", "error loading model: unable to allocate Vulkan0 buffer", "[", "  {",
                      '    "modelCompatibilityType": "gguf",')
    assert detect.decide(scan_text(lm_studio).framework_scores) == "llamacpp"
    lm_eval = lines("2024-10-30:14:04:49,740 INFO     [evaluator.py:457] Running loglikelihood requests",
                    "--> 185 results = lm_eval.simple_evaluate(")
    assert detect.decide(scan_text(lm_eval).framework_scores) == "transformers"
    # lm-eval's vLLM backend: vLLM's own lines name vLLM
    with_vllm = lm_eval + lines("INFO 10-30 14:04:49 llm_engine.py:72] Initializing an LLM engine (v0.6.3) with config: model='m'")
    assert detect.decide(scan_text(with_vllm).framework_scores) == "vllm"
    # holdout r71: text-generation-webui's own paths around llama.cpp's message: the engine is llama.cpp
    webui = lines("llama_new_context_with_model: failed to allocate compute buffers",
                  "│ /root/text-generation-webui-main/server.py:253 in <module>   │",
                  "│ /root/text-generation-webui-main/modules/models.py:93 in load_model    │")
    assert detect.decide(scan_text(webui).framework_scores) == "llamacpp"


def test_a_projects_own_frames_are_not_a_transformers_script():
    # holdout r87: PyTorch's report under a trainer's own frames (slime), no engine or transformers named: a PyTorch program
    # of its own (holdout r57-92: 17 such logs labelled pytorch or transformers, none labelled an engine)
    from oomdoctor.parsers import detect
    from parser_table import scan_text

    trainer = lines("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.84 GiB.",
                    '  File "slime/utils/ppo_utils.py", line 219, in vocab_parallel_softmax')
    assert detect.decide(scan_text(trainer).framework_scores) == "pytorch"
    assert detect.assumed(scan_text(trainer).framework_scores, "pytorch")  # and the report says it was not named
    # Meta's reference code, named, is PyTorch without the caveat
    named = lines("torch.OutOfMemoryError: CUDA out of memory.", '  File "/home/u/llama/llama/generation.py", line 68, in build')
    scores = scan_text(named).framework_scores
    assert detect.decide(scores) == "pytorch"
    # an installed package's frames or a notebook cell's are still a script's
    for frame in ('  File "/usr/lib/python3/dist-packages/torch/nn/modules/module.py", line 1501, in _call_impl',
                  '  File "/tmp/ipykernel_1234/2871.py", line 3, in <module>'):
        assert detect.decide(scan_text(lines("torch.OutOfMemoryError: CUDA out of memory.", frame)).framework_scores) == detect.ASSUMED
    # ktransformers' folders are not transformers: SGLang's frames name the engine
    kt = lines('  File "/home/u/ktransformers/.venv/lib/python3.11/site-packages/sglang/srt/layers/attention/triton_ops/extend_attention.py", '
               'line 597, in extend_attention_fwd',
               *['  File "/home/u/ktransformers/ktransformers/.venv/lib/python3.11/site-packages/triton/runtime/jit.py", line 390, in <lambda>'] * 5)
    assert detect.decide(scan_text(kt).framework_scores) == "sglang"
    # vLLM V1's front end reporting its engine core's death
    assert detect.decide(scan_text(lines("RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}",
                                         "torch.OutOfMemoryError: CUDA out of memory.")).framework_scores) == "vllm"


def test_a_finished_start_up_reached_no_step():
    # holdout r19: vLLM's "init engine (profile, create kv cache, warmup model) took" ends the start-up
    from parser_table import scan_text

    log = lines("INFO 12-24 06:17:49 model_runner.py:1527] Graph capturing finished in 71 secs, took 6.56 GiB",
                "INFO 12-24 06:17:49 llm_engine.py:446] init engine (profile, create kv cache, warmup model) took 118.12 seconds")
    assert [f for f in scan_text(log).facts if f.key == "phase.reached"] == []


def test_llama_server_load_model_prefix_is_not_the_load():
    """llama-server prefixes every line of its load_model() with "srv load_model:", the context's
    creation and warm-up included; a Python frame "in load_model" is the load."""
    from parser_table import scan_text

    after = lines("0.26.672.359 E ggml_metal_synchronize: error: command buffer 0 failed with status 5",
                  "0.26.675.720 W srv load_model: the slot context (262144) exceeds the training context of the model (40960)- capping")
    assert scan_text(after).phase is None
    frame = lines('  File "/app/server.py", line 40, in load_model', "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB.")
    assert scan_text(frame).phase == "load_weights"


@pytest.mark.parametrize(("log", "phase"), REACHED)
def test_phase_reached(log, phase):
    from parser_table import scan_text

    assert ("phase.reached", phase) in [(f.key, f.value) for f in scan_text(log).facts]


# holdout r95: the reason a failure states, where it is not memory, and the host's own allocation failures
ROUND_95 = [
    case("metal-page-fault",  # a command buffer macOS stopped for a GPU address fault: not its out-of-memory reason
         "Prefill:   0%|          | 0/16722 [00:00<?, ?tok/s]libc++abi: terminating due to uncaught exception of type std::runtime_error: "
         "[METAL] Command buffer execution failed: Caused GPU Address Fault Error (0000000b:kIOGPUCommandBufferCallbackErrorPageFault)\n",
         [(OOM, "illegal_memory_access", 1), ("gpu.backend", "metal", 1)]),
    case("metal-hang", "error: Caused GPU Hang Error (00000003:kIOGPUCommandBufferCallbackErrorHang)\n",
         [(OOM, "gpu_timeout", 1), ("gpu.backend", "metal", 1)]),
    case("ggml-no-device-code",  # ggml's wording of a build without kernels for this GPU
         "ggml-cuda.cu:3211: ERROR: CUDA kernel vec_dot_q5_K_q8_1_impl_vmmq has no device code compatible with CUDA arch 520. "
         "ggml-cuda.cu was compiled for: 520\n",
         [(OOM, "no_kernel_image", 1)], framework="llamacpp"),
    case("go-signal-sigfpe",  # Go's name for the signal that ended Ollama's runner
         "Error: 500 Internal Server Error: llama-server process has terminated: signal: floating point exception (core dumped)\n",
         [(FINAL, "signal: floating point exception: the process crashed (SIGFPE, an arithmetic fault), it was not killed for memory", 1)],
         framework="ollama"),
    case("ntstatus-delay-load", "sona process died during model loading (exited with code -1066598274)\n",
         [(FINAL, "exit status 0xC06D007E (VcppException ERROR_MOD_NOT_FOUND): a library it loads on first use is missing (a "
                  "delay-loaded DLL: Vulkan's, CUDA's); the status itself names no memory failure", 1)]),
    case("rust-allocation-failed",  # Rust's allocation-error handler, then its abort (0xC0000409 on Windows)
         lines("vibe-server process died during transcription (exited with code -1073740791)", "",
               "vibe-server stderr: memory allocation of 194493608 bytes failed"),
         [(FINAL, "exit status 0xC0000409 (STATUS_STACK_BUFFER_OVERRUN): the runtime aborted itself (a failed check or an "
                  "unhandled error); the status itself names no memory failure", 1),
          (OOM, "host_alloc_failed", 3), ("oom.cpu_alloc_failed", True, 3), ("oom.requested_bytes", 194493608, 3)]),
    case("traceback-cut-at-raise",  # the paste stops at the raise statement: its class is the error
         lines('[rank0]:   File "/x/site-packages/swift/llm/base.py", line 36, in _parse_args',
               "[rank0]:     raise ValueError(f'remaining_argv: {remaining_argv}')"),
         [("oom.hint", "traceback", 1),
          (FINAL, "the log ends where the code raises ValueError ([rank0]:     raise ValueError(f'remaining_argv: {remaining_argv}')); "
                  "its message line is cut", 2)]),
    case("traceback-cut-at-a-memory-raise",  # a raise about memory is not read as another cause
         lines('  File "/x/vllm/worker/worker.py", line 36, in determine_num_available_blocks',
               '    raise ValueError("No available memory for the cache blocks. "'),
         [("oom.hint", "traceback", 1), (OOM, "no_kv_memory", 2)], framework="vllm"),
    case("shape-mismatch-names-its-cause",  # "size" in a shape mismatch is not about memory
         "RuntimeError: The size of tensor a (32000) must match the size of tensor b (151936) at non-singleton dimension 1\n",
         [(FINAL, "RuntimeError: The size of tensor a (32000) must match the size of tensor b (151936) at non-singleton dimension 1", 1)]),
    case("sglang-free-at-each-step",  # SGLang's avail mem= in either order with its graph memory
         lines("[2025-06-09 18:16:26 TP1] Capture draft cuda graph end. Time elapsed: 13.48 s. avail mem=31.31 GB. mem usage=1.10 GB.",
               "[2025-06-09 18:16:26 TP1] Capture draft extend cuda graph begin. This can take up to several minutes. avail mem=31.31 GB"),
         [("mem.cuda_graph_bytes", GiB(1.10), 1), ("mem.free_after_capture_bytes", GiB(31.31), 1), ("mem.free_stated_bytes", GiB(31.31), 1),
          ("mem.free_stated_bytes", GiB(31.31), 2), ("parallel.workers", 2, 1)], framework="sglang"),
    case("ollama-vendored-ggml-path", "//ml/backend/ggml/ggml/src/ggml-cuda/cpy.cu:396: GGML_ASSERT(ggml_nbytes(src0) <= INT_MAX) failed\n",
         [(OOM, "ggml_assert", 1)], framework="ollama"),
    case("lmcache-logger-location",
         "Failed to allocate memory for tensor(torch.Size([2, 62, 13, 128]), torch.bfloat16) because no free blocks is available "
         "(memory_management.py:992:lmcache.v1.memory_management)\n",
         [(OOM, "cuda_error_oom", 1)], framework="vllm"),
]

ROUND_96 = [
    case("model-over-its-memory-limit",  # a server's own check of the model's size against the memory it may use
         "Model 'Qwen3-8B-4bit' (4.62GB) exceeds max-model-memory (4.00GB)\n",
         [(OOM, "budget_exceeded", 1), ("mem.weights_bytes", GiB(4.62), 1), ("mem.gpu_available_bytes", GiB(4.0), 1),
          ("knob.model", "Qwen3-8B-4bit", 1), ("model.params", 8_000_000_000, 1)], phase="load_weights"),
    case("scratch-pool-a-few-percent-over",  # the engine's estimate of its own graph fell short: not the workload
         "ggml_new_tensor_impl: not enough space in the scratch memory pool (needed 545259520, available 536870912)\n",
         [(OOM, "ggml_fixed_pool", 1)], framework="llamacpp"),
    case("scratch-pool-outgrown",  # a graph well past the pool's size: a larger batch or prompt than it was sized for
         "ggml_new_tensor_impl: not enough space in the scratch memory pool (needed 600000000, available 536870912)\n",
         [(OOM, "ggml_pool_outgrown", 1), ("oom.requested_bytes", 600000000, 1), ("oom.pool_bytes", 536870912, 1)], framework="llamacpp"),
    case("rocblas-no-devices", "rocBLAS error: Could not initialize Tensile host: No devices found\n", [(OOM, "broken_install", 1)]),
    case("hip-no-device", "RuntimeError: HIP error: no ROCm-capable device is detected\n", [(OOM, "broken_install", 1)]),
    case("app-checks-cuda-version", "CUDA version 12.2 is not compatible with TensorRT-LLM models. Required version: 12.4\n",
         [(OOM, "broken_install", 1)]),
    case("bitsandbytes-refuses-cpu-modules",  # older transformers' words for modules device_map left off the GPUs
         "ValueError: 8-bit operations on `bitsandbytes` are not supported under CPU!\n",
         [(OOM, "bnb_dispatch", 1)], phase="load_weights"),
    case("exclusive-process-card", "RuntimeError: CUDA error: all CUDA-capable devices are busy or unavailable\n",
         [(OOM, "device_taken", 1)]),
    case("server-has-no-free-gpu-slot", "Server error: 503 - [address=0.0.0.0:41000, pid=1] No available slot found for the model\n",
         [(OOM, "device_taken", 1)]),
    case("allocating-a-queue-pair",  # a transport's resource, whatever memory words its reason holds
         "RuntimeError: EI0007: Failed to allocate resource[qp] with info [rank:7]. Reason: Memory resources are exhausted.\n",
         [(FINAL, "a qp resource could not be allocated (the transport or the driver): not device memory", 1), ("oom.hint", "other_resource", 1)]),
    case("a-possible-cause-is-a-guess",  # the runtime's list of what might have gone wrong states no failure
         "        Possible Cause: Failed to allocate memory or the Notify register due to resource insufficiency.\n", []),
    case("tma-descriptor-status", "Error: Failed to initialize the TMA descriptor 700\n", [(OOM, "illegal_memory_access", 1)]),
    case("capture-runs-a-dummy-batch",  # vLLM's _dummy_run inside capture_model is the capture, not the profile
         lines('  File "/x/vllm/v1/worker/gpu_worker.py", line 216, in compile_or_warm_up_model',
               "    self.model_runner.capture_model()",
               '  File "/x/vllm/v1/worker/gpu_model_runner.py", line 1492, in capture_model',
               "    self._dummy_run(num_tokens)",
               "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 23.64 GiB of which 3.69 MiB is free."),
         [("oom.hint", "traceback", 3), (OOM, "torch_oom", 5), ("oom.device", "0", 5), ("oom.requested_bytes", MiB(20), 5),
          ("oom.gpu_total_bytes", GiB(23.64), 5), ("oom.gpu_free_bytes", MiB(3.69), 5)], framework="vllm", phase="cuda_graph_capture"),
    case("ggml-alloc-buffer-bare",  # the graph allocator's measured buffer, without its function's name
         lines("not enough space in the buffer (needed 1409024, largest block available 1389584)",
               'GGML_ASSERT: /x/PowerInfer/ggml-alloc.c:116: !"not enough space in the buffer"'),
         [(OOM, "ggml_fixed_pool", 1), (OOM, "ggml_fixed_pool", 2)]),
    case("sycl-memory-query", "[ggml_backend_sycl_device_get_memory] failed to get device memory size\n", [(OOM, "gpu_memory_unreported", 1)]),
    case("workspace-over-its-limit",
         "The actual workspace size to be allocated for cuDNN is expected to be less than the limit. But recieved : "
         "The actual workspace size = 104861696, limit = 67108864.\n",
         [(OOM, "buffer_over_limit", 1), ("oom.requested_bytes", 104861696, 1), ("oom.buffer_limit_bytes", 67108864, 1)]),
    case("hami-negative-use", "[HAMI-core ERROR (pid:1 thread=1 allocator.c:53)]: Device 0 OOM 18446744073707737660 / 24146608128\n",
         [(OOM, "bookkeeping_bug", 1)]),
    case("hami-over-the-pod-limit", "[HAMI-core ERROR (pid:1 thread=1 allocator.c:53)]: Device 0 OOM 25000000000 / 24146608128\n",
         [(OOM, "cuda_error_oom", 1), ("oom.gpu_total_bytes", 24146608128, 1)]),
    case("macos-gpu-bookkeeping-panic",
         'panic(cpu 18 caller 0xfffffe00427725d8): "completeMemory() prepare count underflow" @IOGPUMemory.cpp:550\n',
         [(FINAL, "the macOS kernel panicked in its GPU driver's memory bookkeeping (completeMemory() prepare count underflow at "
                  "IOGPUMemory.cpp:550): a driver fault (a runtime release or heavy unified-memory pressure triggers it); no allocation failed", 1)]),
    case("macos-panic-elsewhere", 'panic(cpu 2 caller 0xfffffe0012345678): "zalloc: zone map exhausted while allocating"\n', []),
    case("device-map-spreads-the-layers", 'model = AutoModelForCausalLM.from_pretrained(path, device_map="auto")\n',
         [("parallel.device_map", "auto", 1)]),
]


ROUND_97 = [
    case("ctranslate2-names-another-status", "Faild to load model, CUDA failed with error invalid device ordinal\n",
         [(FINAL, "the CUDA runtime returned 'invalid device ordinal': not out of memory", 1)]),
    case("ctranslate2-out-of-memory-is-memory", "RuntimeError: CUDA failed with error out of memory\n", [(OOM, "cuda_error_oom", 1)]),
    case("gaudi-taken-by-another-process", "synStatus=20 [Device already acquired] Device acquire failed.\n", [(OOM, "device_taken", 1)]),
    case("fp8-network-on-a-card-without-fp8",
         "[TRT] [E] 9: [standardEngineBuilder.cpp::buildEngine::2266] Error Code 9: Internal Error (Networks with FP8 precision "
         "require hardware with FP8 support.)\n",
         [(OOM, "no_kernel_image", 1)], framework="tensorrt-llm"),
    case("fp8-attention-gated-by-architecture",
         "  what():  [TensorRT-LLM][ERROR] Assertion failed: FP8 FMHA cannot be enabled except on Ada or Hopper or Blackwell Arch.\n",
         [(OOM, "no_kernel_image", 1)]),
    case("acl-graph-capture-cannot-begin",  # CANN's "apply for memory" under a capture that cannot begin: its streams
         lines("RuntimeError: capture_begin:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:214 NPU function error: "
               "c10_npu::acl::AclmdlRICaptureBegin(capture_stream_, mode), error code is 207018",
               "[Error]: Failed to apply for memory."),
         [(OOM, "capture_error", 1)]),
    case("expandable-segments-assertion-quoted", 'assert "expandable_segments:True" not in conf\n',
         [("oom.hint", "expandable_segments_conflict", 1),
          (FINAL, "the run refuses the allocator's expandable_segments:True (a memory pool that cannot use it): a setting, not a lack of memory", 1)]),
    case("old-ggml-scratch-without-figures", "ggml_new_tensor_impl: not enough space in the scratch memory\n", [(OOM, "ggml_fixed_pool", 1)]),
    case("quantization-method-creates-weights",  # a quant method's create_weights allocates the layer's parameters
         lines('File "vllm/model_executor/layers/quantization/mxfp4.py", line 622, in create_weights',
               "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 392.00 MiB."),
         [("oom.hint", "traceback", 1), (OOM, "torch_oom", 2), ("oom.requested_bytes", MiB(392), 2)], phase="load_weights"),
    case("pinned-buffer-in-the-failing-frame",
         lines('  File "/w/lmcache/v1/memory_management.py", line 1285, in __init__',
               "    buffer = torch.empty(size, dtype=torch.uint8, pin_memory=True)",
               "RuntimeError: CUDA error: invalid argument"),
         [("oom.hint", "traceback", 1), ("oom.hint", "pinned_host", 2), (FINAL, "RuntimeError: CUDA error: invalid argument", 3)]),
    case("host-kv-pool-module",
         lines('  File "/sgl-workspace/sglang/python/sglang/srt/mem_cache/memory_pool_host.py", line 240, in init_kv_buffer',
               "    return torch.empty(",
               "RuntimeError: CUDA error: invalid argument"),
         [("oom.hint", "traceback", 1), ("oom.hint", "pinned_host", 1), (FINAL, "RuntimeError: CUDA error: invalid argument", 3)]),
    case("pytorch-device-assert-alone",  # PyTorch's words only: read as a script, not an unknown engine
         lines("CUDA error: device-side assert triggered", "Compile with TORCH_USE_CUDA_DSA to enable device-side assertions."),
         [(OOM, "device_assert", 1), (FINAL, "CUDA error: device-side assert triggered", 1)], framework="transformers"),
    case("aten-index-assertion", 'Assertion `-sizes[i] <= index && index < sizes[i] && "index out of bounds"` failed.\n',
         [(FINAL, 'Assertion `-sizes[i] <= index && index < sizes[i] && "index out of bounds"` failed.', 1)], framework="transformers"),
]


ROUND_98 = [
    case("quantized-shape-not-aligned",  # an alignment is a divisibility: the parallel size splits the groups unevenly
         "ValueError: The input size is not aligned with the quantized weight shape. This can be caused by too large tensor parallel size.\n",
         [(FINAL, "ValueError: The input size is not aligned with the quantized weight shape. This can be caused by too large tensor "
                  "parallel size.", 1)]),
    case("cxx-map-lookup-out-of-range",
         "ERROR llama_cpp_bindings::llama: crates/llama-cpp-bindings/src/llama.rs:78: Failed to step: _Map_base::at\n",
         [(FINAL, "a C++ lookup out of its range (_Map_base::at): an engine bug or an input it does not handle, not memory", 1)]),
    case("ray-node-gpus-reserved", "(EngineCore_DP0 pid=5919) ValueError: Current node has no GPU available. current_node_resource={'node:***'\n",
         [(OOM, "device_taken", 1)]),
]


ROUND_99 = [
    # torch_npu's report with each field named before its number (as it reads translated)
    case("npu-insufficient-named-fields",
         "RuntimeError: NPU memory is insufficient. Attempting to allocate 386.00 MiB (NPU 1; total capacity 29.49 GiB; allocated 28.90 GiB; "
         "currently active 28.90 GiB; free 171.96 MiB; PyTorch has reserved a total of 28.95 GiB). If the reserved memory is significantly larger\n",
         [(OOM, "torch_oom", 1), ("oom.requested_bytes", MiB(386), 1), ("oom.device", "1", 1), ("oom.gpu_total_bytes", GiB(29.49), 1),
          ("oom.torch_allocated_bytes", GiB(28.90), 1), ("oom.gpu_free_bytes", MiB(171.96), 1), ("oom.torch_reserved_bytes", GiB(28.95), 1),
          ("oom.torch_unallocated_bytes", GiB(28.95) - GiB(28.90), 1)]),
    # TensorRT's warning that it skips a tactic is no failure (but it says an engine is being built)
    case("trt-tactic-memory-insufficient",
         "[01/17/2024-22:14:09] [TRT] [W] Tactic Device request: 16512MB Available: 12281MB. Device memory is insufficient to use tactic.\n",
         [("oom.hint", "engine_build", 1)]),
    case("glibc-heap-corrupted", "corrupted double-linked list\n\nAborted (core dumped)\n",
         [(FINAL, "the C heap was corrupted (corrupted double-linked list): a native bug that wrote past its buffers, not a lack of memory", 1),
          (FINAL, "Aborted (core dumped)", 3)]),
    case("errno-port-in-use",
         "2023-09-09 03:34:11 | ERROR | stderr | ERROR:    [Errno 98] error while attempting to bind on address ('0.0.0.0', 20001): address already in use\n",
         [(FINAL, "[Errno 98] error while attempting to bind on address ('0.0.0.0', 20001): address already in use: the address (port) is "
                  "already in use by another process, not memory", 1)]),
    case("unified-runtime-invalid-value", "[62617] level_zero backend failed with error: 4 (UR_RESULT_ERROR_INVALID_VALUE)\n",
         [(FINAL, "the GPU runtime returned UR_RESULT_ERROR_INVALID_VALUE: not out of memory", 1)]),
    case("no-space-no-path", "[Errno 28] No space left on device.\n", [(OOM, "no_space_left", 1)]),
    case("no-space-disk-path", "OSError: [Errno 28] No space left on device: '/root/.cache/huggingface/hub/tmpab12'\n",
         [(FINAL, "the disk holding /root/.cache/huggingface/hub/tmpab12 is full (ENOSPC): a filesystem, not memory", 1)]),
    case("setting-larger-than-setting",
         "ValueError: Chunked MM input disabled but max_tokens_per_mm_item (1500) is larger than max_num_batched_tokens (448)\n",
         [(FINAL, "max_tokens_per_mm_item (1500) is larger than max_num_batched_tokens (448): one setting checked against another, "
                  "a configuration error, not memory", 1), ("knob.max_num_batched_tokens", 448, 1),
          ("error.setting", "max_num_batched_tokens", 1), ("error.setting_value", 1500, 1)], framework="vllm"),
    case("setting-larger-wrapped",
         "  Chunked MM input disabled but max_tokens_per_mm_item (2496) is larger\n  than max_num_batched_tokens (512).\n",
         [(FINAL, "max_tokens_per_mm_item (2496) is larger: one setting checked against another, a configuration error, not memory", 1)]),
    # (a setting checked against what the KV cache holds is the cache's capacity, not a configuration clash)
    case("setting-larger-than-kv-capacity",
         "ValueError: The model's max seq len (32768) is larger than the maximum number of tokens that can be stored in KV cache (12000). "
         "Try increasing gpu_memory_utilization or decreasing max_model_len when initializing the engine.\n",
         [(OOM, "kv_capacity", 1), ("oom.requested_max_model_len", 32768, 1), ("oom.kv_capacity_tokens", 12000, 1)]),
    case("need-over-available-pool",
         "Error: Preflight failed: inference buffers alone need 9.35 GB but only 6.92 GB is free on the GPU (before weights load). "
         "SSM pool + GDN chunked prefill scales with `--max-seq-len=8192 x --max-batch-size=8`.\n",
         [("mem.required_bytes", GiB(9.35), 1), ("oom.need_room_bytes", GiB(6.92), 1), (OOM, "need_over_available", 1),
          ("oom.buffer", "kv", 1), ("mem.kv_cache_bytes", GiB(9.35), 1)]),
    case("need-over-available-prefill",
         "Prefill would require ~26.16 GB peak (current 21.79 GB + KV+SDPA 4.37 GB) but metal_cap ceiling is 24.96 GB. Raise kernel "
         "iogpu.wired_limit_mb in Terminal (currently caps Metal at 24.96 GB), or reduce context length.\n",
         [("mem.gpu_used_bytes", GiB(21.79), 1), ("mem.required_bytes", GiB(26.16), 1), ("oom.need_room_bytes", GiB(24.96), 1),
          (OOM, "need_over_available", 1), ("oom.buffer", "compute", 1), ("mem.activation_peak_bytes", GiB(4.37), 1)]),
    # (a need the sentence does not tie to a part is left to the other readings)
    case("need-over-available-unnamed",
         'Error: 400: {"message":"Prompt (138254 tokens) requires ~28903MB GPU memory but only ~28745MB available. Reduce prompt size or '
         'use a smaller model.","type":"invalid_request_error"}\n', []),
    case("request-over-kv-budget",
         "prompt is too long: 16535 tokens > 8221 maximum (prompt + generation); shorten the prompt or increase the KV cache budget\n",
         [(OOM, "kv_capacity", 1), ("oom.kv_capacity_tokens", 8221, 1), ("mem.prefill_tokens", 16535, 1)], phase="prefill"),
    case("bare-timeout",
         '  File "/x/vllm/distributed/device_communicators/shm_broadcast.py", line 460, in acquire_read\n    raise TimeoutError\nTimeoutError\n',
         [("error.timeout", "TimeoutError", 3), ("oom.hint", "traceback", 1)]),
    # llama.cpp's fit projected the layers would not fit, then the model ran its ops: the projection was wrong
    case("ggml-fit-refuted-by-compute",
         lines("0.01.274.655 W common_fit_params: failed to fit params to free device memory: n_gpu_layers already set by user to 99, abort",
               "1.22.718.157 I cmn          init: llama threadpool init, n_threads = 6",
               "llamacpp/ggml/src/ggml-cuda/ggml-cuda.cu:108: CUDA error",
               "1.22.756.113 E CUDA error: the requested functionality is not supported",
               "1.22.756.116 E   current device: 0, in function ggml_cuda_mul_mat_cublas_impl at llamacpp/ggml/src/ggml-cuda/ggml-cuda.cu:1554"),
         [(FINAL, "CUDA error: the requested functionality is not supported", 4), ("oom.device", "0", 5),
          ("oom.hint", "ggml_fn_ggml_cuda_mul_mat_cublas_impl", 5), ("oom.hint", "ggml_running_op", 5)]),
    # (and where the load itself then failed, the projection stands)
    case("ggml-fit-then-load-error",
         lines("[WARNING] common_fit_params: failed to fit params to free device memory: n_gpu_layers already set by user to 90, abort",
               "[ERROR] llama_model_load: error loading model: invalid vector subscript"),
         [(FINAL, "the model could not be loaded (invalid vector subscript): not memory", 2), ("oom.hint", "context_failed", 2),
          (OOM, "ggml_alloc_failed", 1), ("oom.buffer", "weights", 1)], phase="load_weights"),
    # a command-line tool's last line, "Error: <message>", naming its own cause; not one relaying another's
    case("bare-error-line", "Error: Patch script failed on ***\n",
         [(FINAL, "the log ends on Error: Patch script failed on ***: an error that names its own cause, not memory", 1)]),
    case("bare-error-relayed", 'Error: Post "http://127.0.0.1:11434/api/chat": EOF\n', [("oom.hint", "runner_died_silently", 1)]),
    case("bare-error-nested", "Error: CUDA error: invalid argument\n", [(FINAL, "CUDA error: invalid argument", 1)]),
    case("bare-error-word", "Error\n", []),
    # round 100: a slice past a tensor's end (a sequence longer than the cache it was sized for), also cut after "exceeds"
    case("slice-past-tensor-end", "RuntimeError: start (0) + length (2049) exceeds dimension size (2048).\n",
         [(FINAL, "RuntimeError: start (0) + length (2049) exceeds dimension size (2048).", 1), ("error.positions", 2048, 1)]),
    case("slice-past-tensor-end-cut", "RuntimeError: start (3313) + length (808) exceeds \n",
         [(FINAL, "RuntimeError: start (3313) + length (808) exceeds", 1)]),
    # HCCL's queue pair named after a space
    case("allocating-a-queue-pair-spaced",
         "Resource_Error(EI0007): Failed to allocate resource qp with info aicpu rank:1,localUserrank:1. Reason: Resources are exhausted.\n",
         [(FINAL, "a qp resource could not be allocated (the transport or the driver): not device memory", 1), ("oom.hint", "other_resource", 1)]),
    case("no-space-shm-path", "failed to extend /dev/shm/nccl-YrFC5V to 33030532 bytes, error: No space left on device (28)\n",
         [(OOM, "shm_exhausted", 1)]),
]

ROUND_101 = [
    # a request longer than the context, in more engines' words; transformers' generate() against its own max_length
    # states no model context
    case("request-over-context-vllm-prompt",
         "ValueError: The decoder prompt (length 163270) is longer than the maximum model length of 128000. Make sure that "
         "`max_model_len` is no smaller than the number of text tokens plus multimodal tokens.\n",
         [(OOM, "request_over_context", 1), ("mem.prefill_tokens", 163270, 1), ("knob.max_model_len", 128000, 1)]),
    case("request-over-context-sglang", "ValueError: The input (9000 tokens) is longer than the model's context length (8192 tokens).\n",
         [(OOM, "request_over_context", 1), ("mem.prefill_tokens", 9000, 1), ("knob.max_model_len", 8192, 1)]),
    case("request-over-context-llama-cpp-python", "ValueError: Prompt exceeds n_ctx: 2892 > 2048\n",
         [(OOM, "request_over_context", 1), ("mem.prefill_tokens", 2892, 1), ("knob.max_model_len", 2048, 1)]),
    case("request-over-context-generate-max-length",
         "ValueError: Input length of input_ids is **1024**, but `max_length` is set to 1024. This can lead to unexpected behavior.\n",
         [(OOM, "request_over_context", 1), ("mem.prefill_tokens", 1024, 1)]),
    # OpenCL's statuses: -4 a memory object the device could not allocate, -61 a buffer over the device's single-allocation cap
    case("opencl-status-4", "CLBlast: OpenCL error: clEnqueueNDRangeKernel: -4\n", [(OOM, "cuda_error_oom", 1)]),
    case("opencl-status-61",
         "InternalError: Check failed: (err_code == CL_SUCCESS) is false: OpenCL Error, code=-61: CL_INVALID_BUFFER_SIZE\n",
         [(OOM, "alloc_size_limit", 1)]),
    case("opencl-status-other", "OpenCL error: -5 at clEnqueueReadBuffer\n", []),
    # Rust's capacity overflow: a size computed wrong, not memory
    case("rust-capacity-overflow",
         lines("thread 'main' panicked at library/alloc/src/raw_vec.rs:25:5:", "capacity overflow"),
         [(FINAL, "Rust's capacity overflow: a size past what any allocation can be, computed wrong (an integer that wrapped), "
                  "not a lack of memory", 2)]),
    # vLLM's executor of 2024 in lower case, and its statement of how many full-length requests the pool holds
    case("vllm-cuda-blocks-lower-case",
         lines("INFO 04-07 08:59:33 executor_base.py:111] # cuda blocks: 1797, # CPU blocks: 2340",
               "INFO 04-07 08:59:33 executor_base.py:116] Maximum concurrency for 131072 tokens per request: 0.22x"),
         [("mem.gpu_blocks", 1797, 1), ("mem.cpu_blocks", 2340, 1), ("knob.max_model_len", 131072, 2), ("mem.max_concurrency", 0.22, 2)]),
    # a guard's need wrapped over lines, where what is resident is already over its ceiling
    case("guard-resident-over-ceiling-wrapped",
         lines("oMLX prefill memory guard rejected this prompt: Prefill context too large",
               "for available memory (preflight safety guard, kv_len=143, min_chunk=32):",
               "predicted peak would require ~45.05 GB (current 44.88 GB + KV 54.62 MB +",
               "min-chunk transient 122.03 MB) but prefill safety cap is 42.75 GB (90% of",
               "metal_cap"),
         [("mem.gpu_used_bytes", GiB(44.88), 3), ("oom.hint", "resident_over_room", 3), ("mem.required_bytes", GiB(45.05), 3),
          ("oom.need_room_bytes", GiB(42.75), 3), (OOM, "need_over_available", 3), ("oom.buffer", "kv", 3),
          ("mem.kv_cache_bytes", MiB(54.62), 3)]),
    # host memory pinned after it was allocated, refused
    case("host-register-failed", "RuntimeError: cudaHostRegister failed (rc=1, ...) at offset=0 size=34760392704\n",
         [(OOM, "host_alloc_failed", 1), ("oom.hint", "pinned_host", 1), ("oom.requested_bytes", 34760392704, 1)]),
    # SGLang's pools named in a traceback's frames: the KV step
    case("sglang-pool-frame",
         lines('File "/home/***/sglang-env/lib/python3.10/site-packages/sglang/srt/mem_cache/memory_pool.py",',
               "line 499, in _init_mamba_pool", "torch.OutOfMemoryError: CUDA out of memory.", "Tried to allocate 18.56 GiB."),
         # (the request on its own line reads as the message's core too; the failure stays on line 3)
         [(OOM, "torch_oom", 3), (OOM, "torch_oom", 4), ("oom.requested_bytes", GiB(18.56), 4)], phase="kv_alloc"),
    # NVML that cannot reach the driver: the container lost its GPU, whatever is said about memory next
    case("nvml-unknown-error", lines("root@ollama:/# nvidia-smi", "Failed to initialize NVML: Unknown Error"),
         [(OOM, "broken_install", 2)]),
    # Ollama's scheduler: a runner that did not start in time, a stopped runner's VRAM that came back slowly
    # ROCm's runtime out of its own resources, with the device's free memory on the line or the next
    case("hsa-out-of-resources", "HSA_STATUS_ERROR_OUT_OF_RESOURCES ... Available Free mem : 0 MB\n",
         [(OOM, "runtime_resources", 1), ("oom.gpu_free_bytes", 0, 1)]),
    case("hsa-out-of-resources-next-line",
         lines("HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary resources.", "Available Free mem: 30 MB"),
         [(OOM, "runtime_resources", 1), ("oom.gpu_free_bytes", MiB(30), 2)]),
    # round 102: a frame in a vision tower's own module file is the encoder running (not its weights loading)
    case("vision-module-frame",
         '  File "/x/site-packages/vllm/model_executor/models/intern_vit.py", line 134, in forward\n',
         [("oom.hint", "multimodal", 1), ("oom.hint", "multimodal_encoder", 1), ("oom.hint", "traceback", 1)]),
    case("vision-module-frame-loading",
         '  File "/x/site-packages/vllm/model_executor/models/intern_vit.py", line 400, in load_weights\n',
         [("oom.hint", "traceback", 1)]),
    case("ollama-runner-start-timeout", lines("Error: timed out waiting for llama runner to start:", "gpu VRAM usage didn't recover within timeout"),
         [(OOM, "vram_recovery_warning", 2)], framework="ollama"),
]

ROUND_103 = [
    # llama.cpp loads its layers onto every device it lists: what they have free together is the weights' budget
    case("ggml-free-on-two-devices", lines(
        "llama_model_load_from_file_impl: using device CUDA0 (NVIDIA GeForce RTX 4070) - 11696 MiB free",
        "llama_model_load_from_file_impl: using device CUDA1 (NVIDIA GeForce RTX 3090) - 23741 MiB free"),
         [("mem.gpu_available_bytes", 11696 << 20, 1), ("gpu.device_used", "CUDA0", 1),
          ("mem.gpu_available_bytes", 23741 << 20, 2), ("gpu.device_used", "CUDA1", 2),
          ("mem.devices_free_bytes", (11696 + 23741) << 20, 2),
          # (each card by its name, and the card table's capacity of the first: what CUDA reports of a 12 GB RTX 4070)
          ("gpu.name", "NVIDIA GeForce RTX 4070", 1), ("gpu.name", "NVIDIA GeForce RTX 3090", 2), ("gpu.total_bytes", 12604932096, 1)],
         framework="llamacpp"),
    # a runtime that could not read a device's memory: a query that failed, not a lack of memory
    case("memory-query-failed-rust", lines("Error: Cannot get memory available for CUDA device",
                                           "   0: candle_core::error::Error::bt"),
         [(FINAL, "Cannot get memory available for CUDA device: the runtime could not read the device's memory (a driver or "
                  "a device it cannot query), not a lack of memory", 1)]),
    case("memory-query-failed-info", "RuntimeError: failed to query device memory info on the GPU\n",
         [(FINAL, "failed to query device memory info on the GPU: the runtime could not read the device's memory (a driver or "
                  "a device it cannot query), not a lack of memory", 1)]),
    # Xinference's refusal is read whatever follows it (a typo in the paste: "found tor the model")
    case("no-available-slot-typo", "No available slot found tor the model.\n", [(OOM, "device_taken", 1)]),
    # bfloat16 on a card without it: a dtype, not memory; the flag the message offers is advice, not a setting
    case("bf16-unsupported", "ValueError: Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your Tesla P40 GPU "
                             "has compute capability 6.1. You can use float16 instead by explicitly setting the `dtype` flag in CLI, for "
                             "example: --dtype=half.\n",
         [(OOM, "no_kernel_image", 1), ("oom.hint", "bf16_unsupported", 1)], framework="vllm"),
    # vLLM's start-up check wrapped over two lines and cut after "utilization": free and total still read
    case("free-below-util-wrapped-and-cut", lines("    ValueError: Free memory on device xpu:0 (0.0/22.71 GiB) is less than",
                                          "    desired GPU memory utilization ..."),
         [(OOM, "free_below_util", 1), ("oom.free_at_start_bytes", 0, 1), ("mem.gpu_total_bytes", GiB(22.71), 1)],
         framework="vllm"),
    # (an allocation that failed is no query: still memory)
    case("memory-query-not-allocation", "RuntimeError: failed to allocate memory on the device\n", [(OOM, "cuda_error_oom", 1)]),
]


ROUND_105 = [
    # the OOM killer's task table, its header or a row of it alone (the kernel prints it only when it kills for memory)
    case("oom-task-table-header", "[  pid  ]   uid  tgid total_vm      rss pgtables_bytes swapents oom_score_adj name\n",
         [(OOM, "kernel_oom_kill", 1), ("oom.exit_signal", "SIGKILL", 1)]),
    case("oom-task-table-row", "[四 3月 20 21:01:25 2025] [   2665]     0  2665    55756      339    77824       68             0 crond\n",
         [(OOM, "kernel_oom_kill", 1), ("oom.exit_signal", "SIGKILL", 1)]),
    # (a table of another tool with fewer columns is not it)
    case("bracketed-numbers-not-a-task-row", "[   12]  3  4  5 python\n"),
    # Kubernetes' node event for the kernel's kill
    case("k8s-system-oom", "Warning  SystemOOM  node/...   System OOM encountered, victim process: llama-server\n",
         [(OOM, "kernel_oom_kill", 1), ("oom.exit_signal", "SIGKILL", 1)]),
    # Ollama's earlier check of the model against the machine: the model's size and the machine's
    case("ollama-model-too-large", '{"error":"requested model (18.4 GiB) is too large for this system (6.8 GiB)"}\n',
         [(OOM, "model_exceeds_system", 1), ("mem.weights_total_bytes", GiB(18.4), 1), ("host.ram_total_bytes", GiB(6.8), 1)]),
    # faulthandler refused its signal stack: the frame above the ENOMEM says so
    case("faulthandler-enomem", lines('  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2238, in run_scheduler_process',
                                      "    faulthandler.enable()", "OSError: [Errno 12] Cannot allocate memory"),
         [("oom.hint", "traceback", 1), ("oom.hint", "faulthandler_enable", 2), (OOM, "host_alloc_failed", 3), ("oom.cpu_alloc_failed", True, 3)]),
    # LMDeploy's PyTorch engine lowering its prefill budget, and the cache config it then sizes
    case("lmdeploy-prefill-shrunk", lines(
        "2024-10-18 17:52:13,322 - lmdeploy - WARNING - model_agent.py:70 - device<2> No enough memory. update max_prefill_token_num=4096",
        "2024-10-18 17:52:14,511 - lmdeploy - INFO - cache_engine.py:36 - build CacheEngine with config:CacheConfig(max_batches=128, "
        "block_size=64, num_cpu_blocks=204, num_gpu_blocks=365, window_size=-1, cache_max_entry_count=0.5, max_prefill_token_num=4096, "),
         [("oom.hint", "prefill_budget_shrunk", 1), ("knob.max_num_batched_tokens", 4096, 1), ("knob.gpu_memory_utilization", 0.5, 2),
          ("knob.max_num_batched_tokens", 4096, 2)],
    ),
    # Ollama's load request placing no layer on a GPU
    case("ollama-no-gpu-layers", 'time=2025-09-16T15:57:19.430+02:00 level=INFO source=runner.go:799 msg=load request="{Operation:commit '
                                 "LoraPath:[] Parallel:1 BatchSize:512 FlashAttention:false KvSize:131072 KvCacheType: NumThreads:8 "
                                 'GPULayers:[] MultiUserCache:false ProjectorPath: "\n',
         [("knob.max_num_seqs", 1, 1), ("knob.batch_size", 512, 1), ("knob.flash_attention", False, 1), ("knob.max_model_len", 131072, 1),
          ("knob.gpu_layers", 0, 1), ("oom.hint", "no_gpu_layers", 1)]),
    # Ray's session directory full: on a disk of a disk's size it is disk, not RAM; 64 MiB is a container's /dev/shm
    case("ray-session-disk-full", "(raylet) file_system_monitor.cc:111: /tmp/ray/session_2024-01-04_09-39-43_289383_3199100 is over 95% full, "
                                  "available space: 0; capacity: 1081985105920. Object creation will fail if spilling is required.\n",
         [(OOM, "disk_full", 1), ("host.disk_total_bytes", 1081985105920, 1)]),
    case("ray-session-shm-full", "(raylet) file_system_monitor.cc:111: /tmp/ray/session_2024 is over 95% full, available space: 0; "
                                 "capacity: 67108864. Object creation will fail if spilling is required.\n",
         [(OOM, "shm_exhausted", 1), ("host.shm_total_bytes", 67108864, 1)]),
    # vLLM's scheduler abort for its CPU swap space names vLLM
    case("vllm-swap-space-abort", "RuntimeError: Aborted due to the lack of CPU swap space. Please increase the swap space to avoid this error.\n",
         [(OOM, "kv_swap_exhausted", 1)], framework="vllm"),
    # a vision-language model or harness by name, and video inputs: multimodal
    case("vlm-by-name", '  File "/data/VLMEvalKit/vlmeval/vlm/smolvlm.py", line 97, in generate_inner\n',
         [("oom.hint", "traceback", 1), ("oom.hint", "multimodal", 1)]),
    case("video-inputs", "pixel_values_videos = inputs.pop('pixel_values_videos')\n", [("oom.hint", "multimodal", 1)]),
    case("vllm-is-not-vlm", "INFO 01-01 00:00:00 [api_server.py:1] vllm serve /models/m --max-model-len 4096\n",
         [("knob.max_model_len", 4096, 1), ("knob.model", "/models/m", 1)]),
    # TurboMind's (FasterTransformer's) CUDA check naming a reason other than memory
    case("turbomind-invalid-argument", "RuntimeError: [TM][ERROR] CUDA runtime error: invalid argument /lmdeploy/src/turbomind/utils/memory_utils.cu:136 \n",
         [(FINAL, "CUDA runtime error: invalid argument (TurboMind), not out of memory", 1)]),
    case("turbomind-out-of-memory-still", "[TM][ERROR] CUDA runtime error: out of memory /lmdeploy/src/turbomind/utils/allocator.h:231\n",
         [(OOM, "turbomind_oom", 1), ("oom.hint", "turbomind_runtime_allocator", 1)]),
    # a native crash report naming its signal; Metal's API validation in a crash report's frames
    case("tombstone-sigsegv", "signal 11 (SIGSEGV), code 1 (SEGV_MAPERR), fault addr 0x0000000000000258\n",
         [(FINAL, "signal 11: the process crashed (SIGSEGV, a segmentation fault), it was not killed for memory", 1)]),
    case("metal-report-failure", "Metal                    MTLReportFailure\n",
         [(FINAL, "MTLReportFailure: Metal's API validation stopped the process (a call the API does not allow), not a lack of memory", 1)]),
    # a memory guard's sum: the model, the ceiling, and what was already resident
    case("guard-projected-load", "omlx 0.4.1: Cannot load GLM-5.1-MXFP4-Q8: projected memory 774.68GB would exceed the memory ceiling 506.00GB "
                                 "(current: 378.17GB, model: 396.52GB). Free system memory or lower memory_guard_tier.\n",
         [(OOM, "load_refused", 1), ("mem.gpu_total_bytes", GiB(506.00), 1), ("oom.resident_bytes", GiB(378.17), 1),
          ("mem.weights_bytes", GiB(396.52), 1)]),
    # llama.rn's library in an Android tombstone names llama.cpp
    case("llama-rn-library", "      #00 pc 00000000000f527c  /data/app/base.apk!librnllama_v8_2_fp16_dotprod.so (offset 0x1654000)\n",
         framework="llamacpp"),
    # an engine that keeps the experts in host RAM by design (KTransformers, llama.cpp's experts on the CPU)
    case("host-resident-ktransformers", "  File \"/opt/ktransformers/ktransformers/local_chat.py\", line 110, in local_chat\n",
         [("oom.hint", "traceback", 1), ("oom.hint", "host_resident_weights", 1)]),
    case("host-resident-n-cpu-moe", "llama-server -m /m/GLM-4.5-Air-Q4_K_M.gguf --n-cpu-moe 30 -c 32768\n",
         [("oom.hint", "host_resident_weights", 1), ("knob.max_model_len", 32768, 1), ("knob.model", "/m/GLM-4.5-Air-Q4_K_M.gguf", 1),
          ("knob.cpu_moe_layers", 30, 1)],
         framework="llamacpp"),
    # Triton's autotuner benchmarking its candidate configs: trial launches outside any engine's pool
    case("triton-autotune-frames", '  File "/usr/local/lib/python3.12/dist-packages/triton/testing.py", line 149, in do_bench\n',
         [("oom.hint", "traceback", 1), ("oom.hint", "triton_autotune", 1)]),
]


ROUND_108 = [
    # vLLM's KV pool given in bytes: its size, and that the fraction no longer sizes it
    case("vllm-kv-bytes-given", "(EngineCore pid=83) INFO 07-26 12:29:34 [gpu_worker.py:479] Initial free memory 93.88 GiB, reserved 49.0 GiB "
                                "memory for KV Cache as specified by kv_cache_memory_bytes config and skipped memory profiling.\n",
         [("mem.kv_cache_bytes", GiB(49.0), 1), ("oom.hint", "kv_bytes_given", 1)], framework="vllm"),
    # Intel's compute runtime (NEO) stopping on a check in its own source: a driver's abort
    case("intel-neo-abort", lines("2025-01-19 19:47:07 Abort was called at 63 line in file:",
                                  "2025-01-19 19:47:07 ../../neo/shared/source/os_interface/os_interface.h"),
         [(FINAL, "Intel GPU driver (compute runtime) aborted on an internal check in neo/shared/source/os_interface/os_interface.h, "
                  "not for lack of memory", 2)]),
    case("intel-neo-memory-manager-is-not-read", "../../neo/shared/source/memory_manager/memory_manager.cpp\n"),
    # newer Ray states the session directory's space in GB and warns while some is left: a disk
    case("ray-session-disk-warning-gb", "(raylet) [2025-04-21 10:05:37,313 E 959680 959717] file_system_monitor.cc:116: /tmp/ray/session_2025 "
                                        "is over 95% full, available space: 42.6695 GB; capacity: 876.137 GB. Object creation will fail if spilling is required.\n",
         [(OOM, "disk_full", 1), ("host.disk_total_bytes", GiB(876.137), 1)], framework="vllm"),
    # (a RAM-backed one with room left has not run out)
    case("ray-session-shm-room-left", "(raylet) file_system_monitor.cc:111: /tmp/ray/session_2024 is over 95% full, available space: 1048576; "
                                      "capacity: 67108864. Object creation will fail if spilling is required.\n",
         [("host.shm_total_bytes", 67108864, 1)], framework="vllm"),
    # ComfyUI's cudaMallocAsync out-of-memory, only the message's first words; a batch of images as a tensor's shape
    case("comfyui-allocation-on-device", "!!! Exception during processing !!! Allocation on device \n", [(OOM, "torch_oom", 1), ("oom.hint", "async_allocator", 1)]),
    case("image-batch-shape", "Batch of torch.Size([217, 852, 480, 3]) images\n",
         [("oom.hint", "multimodal", 1), ("oom.hint", "multimodal_encoder", 1)]),
    case("few-images-are-no-batch", "Batch of torch.Size([4, 852, 480, 3]) images\n"),
    # a mapping at a fixed address the address space lacks (strace; llamafile's loader)
    case("mmap-fixed-enomem", "mmap(0x10000000000, 2201924, PROT_READ|PROT_EXEC, MAP_PRIVATE|MAP_FIXED, 3, 0x278000) = -1 ENOMEM (Cannot allocate memory)\n",
         [(OOM, "va_reservation", 1), ("oom.hint", "fixed_mapping", 1)]),
    case("ape-prog-mmap", "ape error: ./phi-2.Q4_K_M.llamafile: prog mmap failed w/ errno 12\n",
         [(OOM, "va_reservation", 1), ("oom.hint", "fixed_mapping", 1)], framework="llamacpp"),
    # frameworks named indirectly: llama.cpp's common library; transformers' own deepspeed module is not DeepSpeed;
    # KTransformers' package (not a folder named after it) is an engine of its own
    case("llamacpp-common-fit", "common_params_fit_impl: projected to use 29178 MiB of host memory vs. 15989 MiB of total host memory\n",
         framework="llamacpp"),
    case("transformers-deepspeed-module", "/usr/local/lib/python3.10/dist-packages/transformers/deepspeed.py:24: FutureWarning: transformers.deepspeed "
                                          "module is deprecated and will be removed in a future version. Please import deepspeed modules directly "
                                          "from transformers.integrations\n"),
    case("ktransformers-package", lines(
        '  File "/home/u/.env/lib/python3.12/site-packages/ktransformers/server/backend/interfaces/transformers.py", line 272, in prefill'),
         [("oom.hint", "traceback", 1), ("oom.hint", "host_resident_weights", 1)], framework="other"),
]


ROUND_109 = [
    # mlx-lm's warning that the model alone is about Metal's recommended working set (cut, and whole)
    case("mlx-model-near-working-set-cut", "[WARNING] Generating with a model that requires 11516 MB which is close\n",
         [("mem.weights_bytes", MiB(11516), 1), ("oom.hint", "weights_near_working_set", 1)]),
    case("mlx-model-near-working-set", "[WARNING] Generating with a model that requires 11516 MB which is close to the maximum "
                                       "recommended size of 10922 MB. This can be slow.\n",
         [("mem.weights_bytes", MiB(11516), 1), ("oom.hint", "weights_near_working_set", 1), ("mem.gpu_available_bytes", MiB(10922), 1)]),
    # LMDeploy's PyTorch engine distributing the weights over its ranks: the load
    case("lmdeploy-distribute", lines("01/18 15:13:25 - lmdeploy - INFO - distribute model parameters.",
                                      "torch.cuda.OutOfMemoryError: CUDA out of memory."),
         [(OOM, "torch_oom", 2)], phase="load_weights", framework="lmdeploy"),
    # a fit step's layer count wrapped below zero: its arithmetic, not the memory
    case("fit-layers-wrapped", "common_params_fit_impl: id=2, n_layer=4294966816, n_part= 0, overflow_type=4, mem= 38981 MiB\n",
         [(OOM, "estimator_bug", 1)], framework="llamacpp"),
    case("fit-layers-plain", "common_params_fit_impl: id=0, n_layer=23, n_part= 0, overflow_type=4, mem=   995 MiB\n", framework="llamacpp"),
    # Tenstorrent's generator at a prompt's pass, and its model library (not Hugging Face transformers)
    case("tt-generator-prefilling", "2025-10-13 18:00:17.286 | INFO     | models.tt_transformers.tt.generator:prefill_forward_llama_vision:620 - "
                                    "Prefilling User 1 up to 32650 tokens\nOut of Memory: Not enough space to allocate 234881024 B DRAM buffer\n",
         # (its function names the model's vision path: prefill_forward_llama_vision)
         [(OOM, "cuda_error_oom", 2), ("oom.requested_bytes", 234881024, 2), ("gpu.backend", "tenstorrent", 2), ("oom.hint", "multimodal", 1)],
         phase="prefill"),
    # XLA's program over a TPU chip's HBM: what it needs, what the chip has; vLLM's swap check cut after its first words
    case("xla-hbm-used", "RuntimeError: Bad StatusOr access: RESOURCE_EXHAUSTED: XLA:TPU compile permanent error. Ran out of memory in memory "
                         "space hbm. Used 20.44G of 15.75G hbm. Exceeded hbm capacity by 4.70G.\n",
         [(OOM, "xla_oom", 1), ("mem.required_bytes", GiB(20.44), 1), ("oom.gpu_total_bytes", GiB(15.75), 1)]),
    case("vllm-swap-cut", " ValueError: Too large swap space.\n", [(OOM, "host_swap_over_ram", 1)], framework="vllm"),
]


ROUND_110 = [
    # Metal failing to compile the backend's shaders; oneDNN with no primitive for the operation: neither is memory
    case("metal-shader-compile", "program_source:6464:18: error: use of undeclared identifier 'kernel_mul_mm_id'\n",
         [(FINAL, "Metal could not compile the backend's shaders: a build that does not match this macOS, not a lack of memory", 1)]),
    case("onednn-no-primitive", "**could not create a primitive descriptor for a matmul primitive**\n",
         [(FINAL, "oneDNN could not create a primitive for this operation on this device: an unsupported case, not a lack of memory", 1)]),
    # V0's async engine giving up on a step that hung
    case("vllm-iteration-timeout", "ERROR 08-29 02:12:22 async_llm_engine.py:658] Engine iteration timed out. This should never happen!\n",
         [(FINAL, "Engine iteration timed out: the engine's step hung, it did not run out of memory", 1)], framework="vllm"),
    # vLLM's periodic stats line names vLLM
    case("vllm-stats-line-names-vllm", "llm_engine.py:653] Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 33.3 tokens/s, "
                                       "Running: 1 reqs, Swapped: 0 reqs, Pending: 0 reqs, GPU KV cache usage: 82.6%, CPU KV cache usage: 0.0%\n",
         framework="vllm"),
    # vllm-ascend's start-up check that passed: what others held before it, and the fraction asked for
    case("vllm-ascend-free-at-start", lines("Free memory on device: 23.45 / 43.24 GiB", "Requested memory:      43.24 * 0.50 = 21.62 GiB"),
         [("mem.gpu_total_bytes", GiB(43.24), 1), ("mem.initial_usage_bytes", GiB(43.24) - GiB(23.45), 1),
          ("knob.gpu_memory_utilization", 0.5, 2)], framework="vllm"),
    # Apple silicon as ggml's Metal backend and Ollama's scheduler state it
    case("metal-unified-memory", "ggml_metal_init: hasUnifiedMemory       = true\n", [("oom.hint", "unified_memory", 1)]),
    # a ggml assertion cut after its first letters at the end of a paste
    case("ggml-assert-cut", "Loading model... -/home/u/src/llama.cpp/ggml/src/ggml-backend.cpp:1367: GGML_ASSE\n",
         [(OOM, "ggml_assert", 1)], framework="llamacpp"),
    # TGI's router sizing the batch once warm-up passed (serving begins), then a step that raised while serving
    case("tgi-serving-prefill-error", lines(
        "2024-06-17T14:22:01.460404Z  INFO text_generation_router: router/src/main.rs:354: Setting max batch total tokens to 42768",
        "2024-06-17T14:22:46.490042Z ERROR text_generation_launcher: Method Prefill encountered an error."),
         [("mem.kv_tokens", 42768, 1)], framework="tgi"),
    # vLLM's worker setting up its device, in a traceback's frames
    case("vllm-init-device-frame", '(EngineCore_0 pid=2691)   File "/usr/local/lib/python3.11/dist-packages/vllm/v1/worker/gpu_worker.py", '
                                   'line 179, in init_device\n',
         [("oom.hint", "traceback", 1), ("oom.hint", "init_device", 1)], framework="vllm"),
]

ROUND_111 = [
    # MLX's own words for a command buffer that ran out ("[METAL] ... Insufficient Memory"), with or without Metal's code
    case("mlx-metal-insufficient", "[METAL] Command buffer execution failed: Insufficient Memory.\n",
         [(OOM, "ggml_cuda_error_oom", 1), ("oom.hint", "metal_command_buffer", 1), ("gpu.backend", "metal", 1)]),
    # Ollama's placement of each part by device: the GPU's share, and the whole across devices
    case("ollama-placement", lines(
        'time=2025-09-30T10:01:02.000Z level=INFO source=backend.go:315 msg="model weights" device=CUDA0 size="2.3 GiB"',
        'time=2025-09-30T10:01:02.000Z level=INFO source=backend.go:315 msg="model weights" device=CPU size="512.0 MiB"',
        'time=2025-09-30T10:01:02.000Z level=INFO source=backend.go:321 msg="kv cache" device=CUDA0 size="36.0 GiB"',
        'time=2025-09-30T10:01:02.000Z level=INFO source=backend.go:332 msg="compute graph" backend=ROCm0 buffer_type=ROCm0 size="2.1 GiB"'),
         [("mem.weights_bytes", int(2.3 * 2**30), 1), ("mem.weights_total_bytes", int(2.3 * 2**30) + 512 * 2**20, 2),
          ("mem.kv_cache_bytes", 36 * 2**30, 3), ("mem.kv_total_bytes", 36 * 2**30, 3), ("mem.compute_buffer_bytes", int(2.1 * 2**30), 4)],
         framework="ollama"),
    # a backend reporting its largest buffer as 0 bytes: the device was never measured, nothing ran out
    case("ggml-zero-buffer-limit", "ggml_backend_alloc_ctx_tensors_from_buft: tensor output_norm.weight is too large to fit in a Metal buffer "
                                   "(tensor size: 16384, max buffer size: 0)\n",
         [(OOM, "gpu_memory_unreported", 1), ("oom.hint", "zero_buffer_limit", 1)]),
    # `free`'s Swap row, a paste's closing fence stuck to it
    case("free-swap-row", lines("               total        used        free      shared  buff/cache   available",
                                "Mem:           7.3Gi       5.2Gi       384Mi        78Mi       1.7Gi       1.2Gi",
                                "Swap:          3.0Gi       2.8Gi       182Mi```"),
         [("host.ram_total_bytes", int(7.3 * 2**30), 2), ("host.ram_available_bytes", int(1.2 * 2**30), 2), ("host.ram_used_ratio", 0.8356, 2),
          ("host.swap_total_bytes", 3 * 2**30, 3), ("host.swap_used_ratio", round(2.8 / 3.0, 4), 3)]),
    # vLLM's worker process calling init_device, a paste cut above the frame of gpu_worker.py
    case("vllm-init-device-call", "(Worker pid=322179) ERROR 04-24 20:16:15 [multiproc_executor.py:857]     self.worker.init_device()  # type: ignore\n",
         [("oom.hint", "init_device", 1)], framework="vllm"),
    # Ollama's CLI relaying a runner that dropped the request
    case("ollama-post-predict", 'Error: POST predict: Post "http://127.0.0.1:62898/completion": read tcp 127.0.0.1:62900->127.0.0.1:62898: '
                                'wsarecv: An existing connection was forcibly closed by the remote host.\n', framework="ollama"),
    # macOS's GPU-driver panic wrapped after its header: the message alone on the next line
    case("iogpu-panic-wrapped", lines("panic(cpu 12 caller 0xfffffe004ad1f968):", '"completeMemory() prepare count underflow" @IOGPUMemory.cpp:550'),
         [(FINAL, "the macOS kernel panicked in its GPU driver's memory bookkeeping (completeMemory() prepare count underflow at "
                  "IOGPUMemory.cpp:550): a driver fault (a runtime release or heavy unified-memory pressure triggers it); no allocation failed", 2)]),
]


ROUND_112 = [
    # PyTorch's request quoted alone on its line: the out-of-memory report's core, and PyTorch's
    case("torch-request-alone", "Tried to allocate 31.50 GiB\n", [(OOM, "torch_oom", 1), ("oom.requested_bytes", GiB(31.5), 1)], framework="transformers"),
    # tensors whose shapes disagree name their cause, whatever size words the message holds
    case("shape-expand-mismatch", "RuntimeError: The expanded size of the tensor (2048) must match the existing size (8192) at non-singleton "
                                  "dimension 0.  Target sizes: [2048, 8].  Tensor sizes: [8192, 8]\n",
         [(FINAL, "RuntimeError: The expanded size of the tensor (2048) must match the existing size (8192) at non-singleton dimension 0.  "
                  "Target sizes: [2048, 8].  Tensor sizes: [8192, 8]", 1)]),
    # SGLang's scheduler stating its pool and limits names SGLang
    case("sglang-scheduler-limits", "max_total_num_tokens=32768, chunked_prefill_size=-1, max_prefill_tokens=16384, max_running_requests=2048, "
                                    "context_len=40960\n",
         [("mem.kv_tokens", 32768, 1), ("knob.max_num_seqs", 2048, 1), ("knob.max_model_len", 40960, 1)], framework="sglang"),
    # TensorRT-LLM's masked attention kernel out of on-chip shared memory: a kernel's limit, not device memory
    case("trtllm-mmha-shared-memory", " what():  [TensorRT-LLM][ERROR] Assertion failed: Sequence Length is too long for the MMHA kernel "
                                      "(not enough shared memory). (/root/repo/cpp/tensorrt_llm/kernels/decoderMaskedMultiheadAttentionLaunch.h:232)\n",
         [(OOM, "kernel_resource", 1)], framework="tensorrt-llm"),
]

ROUND_113 = [
    # llama.cpp's fit step finding that everything fits with its margin to spare
    case("ggml-fit-fits", "common_params_fit_impl: will leave 49133 >= 1024 MiB of free device memory, no changes needed\n",
         [("oom.hint", "fit_leaves_room", 1)], framework="llamacpp"),
    # its memory breakdown after the printing function's name and a timestamp: the device, what is free, and the parts
    case("ggml-breakdown-prefixed", "0.00.483.104 I common_memory_breakdown_print: |   - CUDA0 (RTX 3090)   | 24126 = 23403 + (25610 = 15621 +    "
                                    "9152 +     836) +      -24888 |\n",
         [("mem.gpu_total_bytes", MiB(24126), 1), ("mem.gpu_available_bytes", MiB(23403), 1), ("mem.weights_bytes", MiB(15621), 1),
          ("mem.kv_cache_bytes", MiB(9152), 1), ("mem.compute_buffer_bytes", MiB(836), 1), ("gpu.backend", "cuda", 1)], framework="llamacpp"),
    # the amdgpu driver's watchdog on a ring that stopped answering, and RADV's cancelled submission cut after its first words
    case("amdgpu-ring-timeout", lines("amdgpu 0000:0a:00.0: ring comp_1.1.0 timeout, signaled seq=1924, emitted seq=1926",
                                      "radv/amdgpu: The CS has been cancelled because th"),
         [(OOM, "device_lost", 1), (OOM, "device_lost", 2)]),
    # Ollama's discovery that could not open a context on the card: its memory was never measured
    case("ollama-gpu-lookup-failed", 'time=2025-04-25T11:23:03.125+02:00 level=INFO source=gpu.go:272 msg="error looking up nvidia GPU memory" '
                                     'error="cuda driver library failed to get device context 801"\n',
         [(OOM, "gpu_memory_unreported", 1)], framework="ollama"),
    # Ollama's 2023-24 server about its runner, and the folder it unpacked that runner into
    case("ollama-2023-runner-lines", lines("2023/11/17 14:08:33 llama.go:385: signal: killed",
                                           "2023/11/17 14:08:33 llama.go:459: llama runner stopped successfully"),
         [(OOM, "killed", 1), ("oom.exit_signal", "SIGKILL", 1)], framework="ollama"),
    case("ollama-unpacked-runner", "ggml_metal_init: loading '/var/folders/tw/8r367x6x1t12cqcm0w9fhcgh0000gn/T/ollama2368397414/llama.cpp/gguf/"
                                   "build/metal/bin/ggml-metal.metal'\n", framework="ollama"),
    # vLLM's sleep-mode allocator refusing expandable segments names vLLM
    case("vllm-cumem-expandable", "AssertionError: Expandable segments are not compatible with memory pool. Please track "
                                  "https://github.com/pytorch/pytorch/issues/147851 for the latest updates.\n",
         [(FINAL, "the run refuses the allocator's expandable_segments:True (a memory pool that cannot use it): a setting, not a lack of memory", 1),
          ("oom.hint", "expandable_segments_conflict", 1)], framework="vllm"),
    # a vision model named by its vision segment (Llama-3.2-Vision, Phi-3-vision, deepseek-vl2, GLM-4V, an OCR model)
    case("vision-model-names", lines("INFO 10-01 12:00:00 llm_engine.py:237] Initializing an LLM engine (v0.6.2) with config: "
                                     "model='meta-llama/Llama-3.2-11B-Vision-Instruct', speculative_config=None",
                                     "Loading nanonets/Nanonets-OCR-s ..."),
         [("oom.hint", "multimodal", 1), ("oom.hint", "multimodal", 2), ("knob.model", "meta-llama/Llama-3.2-11B-Vision-Instruct", 1),
          ("framework.version", "0.6.2", 1), ("model.params", 11_000_000_000, 1)],
         framework="vllm"),
    # TensorRT-LLM's paged KV pool stated in tokens
    case("trtllm-kv-pool-tokens", "[TensorRT-LLM][INFO] Max tokens in paged KV cache: 128. Allocating 16777216 bytes.\n",
         [("mem.kv_tokens", 128, 1), ("mem.kv_cache_bytes", 16777216, 1)], framework="tensorrt-llm"),
]

ROUND_114 = [
    # pdb's printout of the exception it stopped on ("*** RuntimeError: ..."): a shape, not memory
    case("pdb-exception", "*** RuntimeError: start (0) + length (16) exceeds dimension size (1).\n",
         [(FINAL, "*** RuntimeError: start (0) + length (16) exceeds dimension size (1).", 1)]),
    # Ollama's runner that aborted and relayed nothing: a failed check, no memory failure named; with ggml's
    # out-of-memory relayed on the line, that is the failure
    case("ollama-runner-aborted-bare", "Error: llama runner process has terminated: signal: aborted (core dumped) \n",
         [(FINAL, "the runner aborted (SIGABRT: a failed check or assertion) and relayed no error: no memory failure is named", 1),
          ("oom.hint", "runner_aborted_silently", 1)],
         framework="ollama"),
    case("ollama-runner-aborted-oom", "Error: llama runner process has terminated: signal: aborted (core dumped) CUDA error: out of memory\n",
         [(OOM, "ggml_cuda_error_oom", 1)], framework="ollama"),
]

ROUND_115 = [
    # ggml's scheduler re-reserving a graph whose shape changed: notices it prints before it goes on, not failures
    case("ggml-sched-reserve-notice", lines("ggml_backend_sched_alloc_splits: failed to allocate graph, reserving (backend_ids_changed = 1)",
                                            "ggml_gallocr_alloc_graph: cannot reallocate multi buffer graph automatically, call reserve"),
         [(OOM, "memory_notice", 1), (OOM, "memory_notice", 2)], framework="llamacpp"),
    # a KV cache refused in blocks, with vLLM's block setting named as the advice
    case("kv-blocks-not-enough", "RuntimeError: Not enough memory for 800 blocks of KV cache. Try reducing the number of blocks by "
                                 "setting --num-gpu-blocks-override.\n",
         [(OOM, "no_kv_memory", 1)], framework="vllm", phase="kv_alloc"),
    # a native signal handler's banner for a segfault: a crash, not memory
    case("segfault-banner", "!!!!!!! Segfault encountered !!!!!!!\n", [(FINAL, "Segfault encountered !!!!!!!", 1)]),
    # a traceback frame in vLLM V0's graph runner: the run was capturing CUDA graphs
    case("capture-frame", lines('  File "/x/vllm/worker/model_runner.py", line 1102, in capture', "    self.model("),
         [("oom.hint", "traceback", 1)], framework="vllm"),
    # TensorRT-LLM's component named first, the KV cache it was sized for only in its note
    case("trtllm-component-executor-resources", "The following component could not be created: Additional executor resources "
                                                "(temporary for KV cache size estimation)\n",
         [(OOM, "trt_executor_resources", 1)], phase="kv_alloc"),
    # the NVIDIA driver's watchdog on a channel that stopped processing (Xid 8, and its own line): a hang, not memory
    case("nvidia-xid-8-watchdog", lines("NVRM: krcWatchdog_IMPL: RC watchdog: GPU is probably locked!",
                                        "NVRM: Xid (PCI:0000:01:00): 8, pid=1234, name=python3, channel 0x00000002"),
         [(OOM, "gpu_timeout", 1), (OOM, "gpu_timeout", 2)]),
    # ggml's scheduler refusing an operation the tensor's backend lacks, and llama.cpp's batch-position check
    case("ggml-op-unsupported", "/llama.cpp/ggml/src/ggml-backend.cpp:809: pre-allocated tensor (cache_k_l0 (view)) in a buffer (OpenCL) "
                                "that cannot run the operation (SET_ROWS)\n",
         [(FINAL, "the OpenCL backend cannot run the operation SET_ROWS on a tensor placed in its buffer: an operation that backend "
                  "lacks, not memory", 1)], framework="llamacpp"),
    case("llamacpp-batch-positions", "init: the tokens of sequence 3 in the input batch have inconsistent sequence positions:\n",
         [(FINAL, "the batch's sequence positions do not follow the KV cache's: a batch-construction bug, not memory", 1)]),
    # SGLang's graph-capture progress bar names SGLang
    case("sglang-capture-progress", "Capturing batches (bs=512 avail_mem=19.45 GB):   0%|          | 0/52 [00:00<?, ?it/s]\n",
         [("mem.free_stated_bytes", 20884278477, 1)], framework="sglang"),
    # Ollama naming the llama-server it runs, in Go's words, and that build's vendored source path
    case("ollama-llama-server-terminated", "Error: 500 llama-server process has terminated: signal: segmentation fault (core dumped)\n",
         [(FINAL, "segmentation fault (core dumped)", 1)], framework="ollama"),
    case("ollama-llama-server-build-path", "/build/llama-server-cuda_v13/_deps/llama_cpp-src/ggml/src/ggml-cuda/ggml-cuda.cu:106: CUDA error\n",
         [("oom.hint", "llamacpp_wrapper", 1)], framework="ollama"),
    # Vulkan's driver and API words with no engine named: llama.cpp and the apps on it (a weak vote)
    case("vulkan-device-lost-only", "vk::DeviceLostError: vk::Queue::submit: ErrorDeviceLost\n", [(OOM, "device_lost", 1)],
         framework="llamacpp"),
    # torchrun's elastic agent (its module path, no leading slash) is PyTorch's; it ends the other ranks once one exited (r168)
    case("torchrun-elastic-sigterm", "W0504 08:39:36.777000 2950364 torch/distributed/elastic/multiprocessing/api.py:897] Sending process "
                                     "2950432 closing signal SIGTERM\n", [("oom.hint", "child_ended", 1)], framework="transformers"),
    # vLLM's sleep-mode allocator check, where the paste kept only its assertion line
    case("vllm-cumem-assert-line", 'assert "expandable_segments:True" not in conf\n',
         [(FINAL, "the run refuses the allocator's expandable_segments:True (a memory pool that cannot use it): a setting, not a lack "
                  "of memory", 1), ("oom.hint", "expandable_segments_conflict", 1)], framework="vllm"),
    # TensorRT's running totals print the unit once, after both; its engine deserialization is the weights, its
    # execution context the activation workspace
    case("trt-memusage-deserialization", "[TensorRT-LLM][INFO] [MemUsageChange] TensorRT-managed allocation in engine deserialization: "
                                         "CPU +0, GPU +12875, now: CPU 0, GPU 12875 (MiB)\n",
         [("mem.gpu_used_bytes", MiB(12875), 1), ("mem.weights_bytes", MiB(12875), 1)], framework="tensorrt-llm"),
    case("trt-execution-context", "[TensorRT-LLM][INFO] [MemUsageChange] Allocated 37812.51 MiB for execution context memory.\n",
         [("mem.activation_peak_bytes", 39649290486, 1)], framework="tensorrt-llm"),
    # PyTorch's Ascend backend with no engine named: serving on Ascend is mostly vllm-ascend's (a weak vote)
    case("ascend-runtime-only", "[ERROR] 2025-09-28-07:22:30 (PID:316198, Device:7, RankID:-1) ERR00100 PTA call acl api failed\n",
         framework="vllm"),
]

ROUND_117 = [
    # ROCm's HSA runtime out of blocks in a device memory region: a device allocation that failed
    case("hsa-block-allocator", "HSA exception: MemoryRegion::BlockAllocator::alloc failed\n", [(OOM, "cuda_error_oom", 1)]),
    # an app's refusal to make the context, with a reason that is a setting (LM Studio's words): not memory, and llama.cpp's
    case("lmstudio-context-refused", "Failed to initialize the context: quantized V cache was requested, but this requires Flash Attention\n",
         [(FINAL, "Failed to initialize the context: quantized V cache was requested, but this requires Flash Attention", 1),
          ("oom.hint", "cache_needs_flash_attention", 1)], framework="llamacpp"),
    # the same refusal whose reason is memory is that failure, not a final error naming another cause
    case("lmstudio-context-no-memory", "Failed to initialize the context: failed to allocate compute pp buffers\n",
         [(OOM, "ggml_alloc_failed", 1), ("oom.buffer", "compute", 1)], framework="llamacpp"),
    # C++'s new[] refused a length computed wrong; its abort may still print std::bad_alloc
    case("bad-array-new-length-frame", "[ 8] /usr/lib/x86_64-linux-gnu/libstdc++.so.6(_ZSt28__throw_bad_array_new_lengthv+0x0)[0x7f790fd70265]\n",
         [("oom.hint", "array_length_bug", 1)]),
    # SGLang's piecewise graphs' capture progress, stopped at 1/58: the room it had, and the forward pass in the
    # traceback below it is that capture's, not a prefill
    case("sglang-piecewise-capture-progress", lines("Capturing num tokens (num_tokens=3968 avail_mem=0.05 GB):   2%|2   | 1/58 [00:00<00:56,  1.01it/s]",
                                                    '  File "<eval_with_key>.3", line 11, in forward', "torch.OutOfMemoryError:"),
         [("mem.free_stated_bytes", 53687091, 1), ("oom.hint", "traceback", 2), (OOM, "torch_oom", 3)], phase="cuda_graph_capture"),
    # an engine announcing the request it starts on: its prompt's tokens, a prefill
    case("candle-vllm-new-request", lines("2025-08-11T19:07:03.163071Z  WARN candle_vllm::openai::pipelines::llm_engine: New Request with "
                                          "length 103762 (cmpl-36549ac9).",
                                          'called `Result::unwrap()` on an `Err` value: DriverError(CUDA_ERROR_OUT_OF_MEMORY, "out of memory")'),
         [("mem.prefill_tokens", 103762, 1), (OOM, "cuda_error_oom", 2)], phase="prefill", framework="other"),
    # ExLlama's benchmark script's per-device readings name ExLlama
    case("exllama-bench-vram", lines(" -- Groupsize (inferred): 128",
                                     " ** VRAM, Model: [cuda:0] 6,683.17 MB - [cuda:1] 0.00 MB - [cuda:2] 0.00 MB"), framework="exllama"),
]

ROUND_118 = [
    # a TPU core its runtime halted (a program's bounds check that tripped): a device fault, not memory
    case("tpu-core-halted", "ERROR :: Error in chat completion: INTERNAL: Core halted unexpectedly: INTERNAL: Accelerator device halt\n",
         [(OOM, "illegal_memory_access", 1)]),
    # LM Studio's load guardrail: its estimate against the machine's memory, and the repo it was loading
    case("lmstudio-guardrail", 'Loading model mistralai/mistral-nemo-instruct-2407 Q4_K_M shows error message "Model loading was stopped due to '
                               'insufficient system resources. Under the current settings, this model requires approximately 273.25 GB of memory"\n',
         [(OOM, "host_insufficient", 1), ("oom.host_required_bytes", 293399953408, 1),
          ("knob.model", "mistralai/mistral-nemo-instruct-2407", 1)], phase="load_weights"),
    # an exception whose message only opens a native traceback names no cause (the cause is below it, cut here)
    case("tvm-error-traceback-header", "tvm._ffi.base.TVMError: Traceback (most recent call last):\n", [("oom.hint", "traceback", 1)]),
]

ROUND_119 = [
    # Tenstorrent's L1 is the cores' on-chip SRAM, where the compiler places a program's buffers: a plan that overflowed,
    # not device memory (and its per-bank figures are no measure of the device)
    case("tenstorrent-l1-buffer", "TT_FATAL: Out of Memory: Not enough space to allocate 26542080 B L1 buffer across 48 banks, where each bank "
                                  "needs to store 552960 B, but bank size is 1329888 B (allocated: 417792 B, free: 912096 B, largest free block: "
                                  "522240 B)\n",
         [(OOM, "onchip_overflow", 1), ("gpu.backend", "tenstorrent", 1)]),
    # text-generation-webui's ExLlama loader on Windows, its module path in backslashes
    case("textgen-exllama-windows-path", '  File "C:\\oobabooga_windows\\text-generation-webui\\modules\\exllama.py", line 81, in generate_with_streaming\n',
         [("oom.hint", "traceback", 1)], framework="exllama"),
    # Ollama's GPU discovery fields with the slog prefix cut: its runner's llama.cpp lines are Ollama's
    case("ollama-gpu-fields-unprefixed", lines('gpu memory: id=0 library="Intel(R) Arc(TM) Graphics" available="951.0 MiB" free="1.6 GiB"',
                                               "load_tensors: offloaded 29/29 layers to GPU"),
         [("mem.layers_offloaded", 29, 2), ("mem.layers_total", 29, 2)], framework="ollama"),
]

ROUND_120 = [
    # verl's actors prefix every line; SGLang's own lines name the rollout engine they run
    case("verl-actor-running-sglang", lines(
        "(WorkerDict pid=281552) /usr/local/lib/python3.12/dist-packages/sglang/srt/entrypoints/verl_engine.py:160: RuntimeWarning: "
        "coroutine 'TokenizerManager.flush_cache' was never awaited",
        "(WorkerDict pid=281552) RuntimeWarning: Enable tracemalloc to get the object allocation traceback",
        "(WorkerDict pid=281552) RuntimeWarning: Enable tracemalloc to get the object allocation traceback",
        "(WorkerDict pid=281552) RuntimeWarning: Enable tracemalloc to get the object allocation traceback",
        "(WorkerDict pid=281552) RuntimeWarning: Enable tracemalloc to get the object allocation traceback"),
         [], framework="sglang"),
    # (with nothing else, verl's actors still read as its default rollout, vLLM)
    case("verl-actor-alone", "(WorkerDict pid=2782) RuntimeWarning: Enable tracemalloc to get the object allocation traceback\n", [], framework="vllm"),
    # vllm-mlx (Rapid-MLX's server) runs MLX, not vLLM
    case("vllm-mlx-is-not-vllm", "ERROR:vllm_mlx.mllm_scheduler:Batch generation failed: Total prompt tokens (11573) exceeds safe limit (2048)\n",
         [], framework="other"),
    # a JAX program's frames, no engine named: not a transformers script; its paged cache out of pages is the KV pool full
    case("jax-kv-pages-exhausted", lines(
        '  File "/home/ray/anaconda3/lib/python3.11/site-packages/jax/_src/callback.py", line 93, in pure_callback_impl',
        "equinox._errors._EquinoxRuntimeError: Out of free pages during allocation"),
         [("oom.hint", "traceback", 1), (OOM, "kv_runtime_exhausted", 2)], framework="other"),
    # LM Studio's cause with exit code 0: the runtime refused an operation and returned; the VRAM it lists as unused
    case("lmstudio-exit-code-zero", lines(
        '  "cause": "(Exit code: 0). Some model operation failed. Try a different model and/or config.",',
        '      "vram_recommended_capacity": "8.00 GB",', '      "vram_unused": "6.93 GB"'),
         [(FINAL, "LM Studio's runtime ended with exit code 0 (Some model operation failed. Try a different model and/or config.): "
                  "an operation failed, no crash", 1), ("mem.gpu_total_bytes", GiB(8), 2), ("mem.gpu_free_bytes", GiB(6.93), 3)]),
    # torch_memory_saver's resume in the interpreter's fault-handler dump: a slept engine re-mapping its memory
    case("memory-saver-resume-frame", lines("Fatal Python error: Aborted", "", "Current thread ...:",
                                            '  File ".../torch_memory_saver/entrypoint.py", line 169 in resume'),
         [("oom.hint", "traceback", 3), ("oom.hint", "sleep_wake", 4)]),
]

ROUND_121 = [
    # Tenstorrent's check of an op's static circular buffers against the cores' L1, in both wordings: on-chip memory the op
    # library and compiler plan, not device DRAM
    case("tt-circular-buffers-clash", "Statically allocated circular buffers in program 65 clash with L1 buffers on core range [(x=0,y=0) - "
                                      "(x=0,y=0)]. L1 buffer allocated at 1167360 and static circular buffer region ends at 1250432\n",
         [(OOM, "onchip_plan_clash", 1), ("gpu.backend", "tenstorrent", 1)]),
    case("tt-circular-buffers-grow", "ERROR 05-05 19:27:47 engine.py:159] Statically allocated circular buffers on core range [(x=0,y=0) - "
                                     "(x=3,y=0)] grow to 2292704 B which is beyond max L1 size of 1499136 B\n",
         [(OOM, "onchip_plan_clash", 1), ("gpu.backend", "tenstorrent", 1)], framework="vllm"),
    # llama.cpp's 2023 binaries, before their llama- names: the launch line's settings
    case("llamacpp-old-server-binary", "./server -m models/yarn-llama-2-13b-128k.Q6_K.gguf --batch-size 512 -ngl 1000 -c 65536\n",
         [("knob.model", "models/yarn-llama-2-13b-128k.Q6_K.gguf", 1), ("knob.batch_size", 512, 1), ("knob.gpu_layers", 1000, 1),
          ("knob.max_model_len", 65536, 1), ("model.params", 13e9, 1), ("knob.quantization", "q6_k", 1)], framework="llamacpp"),
    # a buffer of no size refused: not the memory
    case("zero-size-buffer", "ggml_backend_metal_buffer_from_ptr: error: failed to allocate buffer, size =     0.00 MiB\n",
         [(OOM, "zero_size_alloc", 1)], framework="llamacpp"),
    # the kernel's report of a process it stopped for a fault: a crash, not the OOM killer
    case("kernel-trap-gp-fault", "[ 3214.755513] traps: ld.so[59393] general protection fault ip:74bf1a58afeb sp:7ffd18c9d2d8 error:0 in "
                                 "libc.so.6[18afeb,74bf1a428000+188000]\n",
         [(FINAL, "the kernel's trap (general protection fault): the process crashed (SIGSEGV, a segmentation fault), it was not "
                  "killed for memory", 1)]),
    # SGLang's loader summary, cut after the model class
    case("sglang-load-weight-end-cut", "2025-01-13 12:42:03 TP0] Load weight end. type=Qwen2ForCausalLM, dtype=torch.bfloat1\n", [],
         framework="sglang"),
]

ROUND_123 = [
    # Vulkan refusing an object that holds no memory to speak of (a fence, a command buffer begun): not the memory
    case("vulkan-create-fence-refused", "llama_model_load: error loading model: vk::Device::createFence: ErrorOutOfHostMemory\n",
         [(FINAL, "vk::Device::createFence: ErrorOutOfHostMemory: Vulkan refused an object that holds no memory to speak of (the "
                  "driver's object limit, or a mapping it could not make), not a lack of memory", 1), ("oom.hint", "context_failed", 1)],
         framework="llamacpp"),
    # a Windows launch line: its backslashes are path separators, and the model's file name is read whole
    case("llamacpp-windows-launch", ".\\build\\bin\\Release\\llama-cli.exe -m models\\Llama-3-8B-GGUF\\Llama-3-8B.Q4_K_M.gguf "
                                    "-ngl 0 -c 4096\n",
         [("knob.model", "models\\Llama-3-8B-GGUF\\Llama-3-8B.Q4_K_M.gguf", 1), ("knob.gpu_layers", 0, 1), ("knob.max_model_len", 4096, 1),
          ("model.params", 8e9, 1), ("knob.quantization", "q4_k_m", 1)],
         framework="llamacpp"),
]

ROUND_124 = [
    # vLLM's executor calling its workers' init_device, where a paste is cut above the worker's own frame
    case("vllm-collective-rpc-init-device", '    self.collective_rpc("init_device")\n', [("oom.hint", "init_device", 1)]),
    # a compute pipeline Vulkan would not create: an object, not memory
    case("vulkan-create-pipeline-refused", "llama_model_load: error loading model: vk::Device::createComputePipeline: ErrorOutOfHostMemory\n",
         [(FINAL, "vk::Device::createComputePipeline: ErrorOutOfHostMemory: Vulkan refused an object that holds no memory to speak "
                  "of (the driver's object limit, or a mapping it could not make), not a lack of memory", 1), ("oom.hint", "context_failed", 1)],
         framework="llamacpp"),
    # a runner the OS could not execute
    case("exec-bad-cpu-type", "2023/11/08 18:37:15 llama.go:386: error starting the external llama runner: fork/exec "
                              "/tmp/ollama1055606081/llama.cpp/ggml/build/metal/bin/ollama-runner: bad CPU type in executable\n",
         [(FINAL, "bad CPU type in executable: the OS could not run the program (a binary built for another CPU or OS), not a lack of "
                  "memory", 1)], framework="ollama"),
    # XLA's buffer-assignment report, kept where the error line above it was cut
    case("xla-buffer-assignment-stats", "(MeshHostWorker pid=489) BufferAssignment stats:\n"
                                        "(MeshHostWorker pid=489)              parameter allocation:    7.78GiB\n",
         [(OOM, "xla_oom", 1)]),
    # ggml's OpenCL backend printing a status code: -61, a buffer over the device's largest single allocation
    case("ggml-opencl-error-61", "ggml_opencl: (mem = clCreateBuffer(context, CL_MEM_READ_WRITE, size, NULL, &err), err) error -61 at "
                                 "/tmp/pip-req-build-34ftntbj/vendor/llama.cpp/ggml-opencl.cpp:1339\n",
         [(OOM, "alloc_size_limit", 1)], framework="llamacpp"),
    # KoboldCpp printing its parsed arguments: its settings, read as the flags they came from
    case("koboldcpp-namespace", "Namespace(bantokens=None, blasbatchsize=2048, contextsize=16384, gpulayers=0, usecublas=None, "
                                "usevulkan=0, ropeconfig=[1.0, 32000.0], noshift=True)\n",
         [("knob.batch_size", 2048, 1), ("knob.max_model_len", 16384, 1), ("knob.gpu_layers", 0, 1), ("launcher", "koboldcpp", 1)],
         framework="llamacpp"),
    # another program's parsed arguments (an empty string in a list included): no engine's flags, nothing read
    # LocalAI's gRPC backend failing to load: llama.cpp's server, the backend it tries first
    case("localai-internal-loader", "failed to load model with internal loader: could not load model: rpc error: code = Unknown desc = "
                                    "could not load model\n", [], framework="llamacpp"),
    # vLLM's sleep mode reporting what it gave back, quoted without its engine's prefix (an RL trainer's comment)
    case("vllm-sleep-freed-quoted", "Sleep mode freed 43.82 GiB, 4.11 GiB memory is still in use\n", [], framework="vllm"),
    case("namespace-no-engine-flags", "Namespace(packages=['minigpt4'], prefer=['local', 'registry'], disable=[''], quiet=False)\n", []),
]

ROUND_125 = [
    # a kernel fault in an engine's own words, and in cuda-gdb's
    case("engine-failed-illegal-access", "ds4: CUDA launch dense token-tile HMMA attention failed: an illegal memory access\n",
         [(OOM, "illegal_memory_access", 1)]),
    case("cuda-gdb-warp-exception", "CUDA Exception: Warp Out-of-range Address\n", [(OOM, "illegal_memory_access", 1)]),
    case("cuda-gdb-signal", 'Thread 1 "llama-server" received signal CUDA_EXCEPTION_5, Warp Out-of-range Address.\n',
         [(OOM, "illegal_memory_access", 1)]),
    # ggml's abort at a source line: an internal check
    case("ggml-fatal-error", "[46009] /home/u/llama.cpp-b9568/ggml/src/ggml-cuda/fattn.cu:579: fatal error\n",
         [(OOM, "ggml_assert", 1), ("oom.hint", "flash_attention_kernel", 1)], framework="llamacpp"),
    # a fault located in the flash-attention kernel: the workaround is to run without it
    case("ggml-fault-in-flash-attention", "  current device: 0, in function ggml_cuda_flash_attn_ext_mma_f16_case at "
                                          "/build/ggml/src/ggml-cuda/template-instances/../fattn-mma-f16.cuh:1945\n",
         [("oom.device", "0", 1), ("oom.hint", "ggml_fn_ggml_cuda_flash_attn_ext_mma_f16_case", 1), ("oom.hint", "ggml_running_op", 1),
          ("oom.hint", "flash_attention_kernel", 1)], framework="llamacpp"),
    case("flash-attn-package-frame", '  File "/usr/lib/python3/site-packages/flash_attn/flash_attn_interface.py", line 91, in _flash_attn_forward\n',
         [("oom.hint", "flash_attention_kernel", 1), ("oom.hint", "traceback", 1)]),
]

ROUND_126 = [
    # an engine's own words for a refused cudaHostRegister: pinned host memory, not the card's
    case("engine-host-registration-oom", "ds4: CUDA host registration skipped: out of memory\n",
         [(OOM, "host_alloc_failed", 1), ("oom.hint", "pinned_host", 1)]),
    # Ray refusing an object store larger than /dev/shm (decimal GB)
    case("ray-object-store-over-shm", "ValueError: The configured object store size (20.24 GB) exceeds /dev/shm size (10.73 GB). "
                                      "This will harm performance.\n",
         [(OOM, "shm_exhausted", 1), ("oom.shm_requested_bytes", 20_240_000_000, 1), ("host.shm_total_bytes", 10_730_000_000, 1)]),
    # MLX without its Metal kernels: an install fault
    case("mlx-metallib-missing", "MLX error: Failed to load the default metallib. library not found\n",
         [(FINAL, "Failed to load the default metallib. library not found: MLX's Metal kernels are missing from the install, "
                  "not a lack of memory", 1)]),
    # a sequence longer than TensorRT-LLM's KV cache manager was built for: a length check
    case("trtllm-kv-manager-length", "tensorrt_llm.executor.utils.RequestError: The max KV cache length of input sequences (1500) "
                                     "exceeds the KV cache manager's maximum supported length (1024).\n",
         [(OOM, "request_over_context", 1), ("mem.prefill_tokens", 1500, 1), ("knob.max_model_len", 1024, 1)], framework="tensorrt-llm"),
    # transformers' generate() setting up its cache when the failure came: the KV step
    case("hf-generate-cache-setup", lines('  File "/env/lib/python3.11/site-packages/transformers/generation/utils.py", line 1922, in generate',
                                          "    self._prepare_cache_for_generation(",
                                          "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB."),
         [("oom.hint", "traceback", 1), (OOM, "torch_oom", 3), ("oom.requested_bytes", GiB(2), 3)], phase="kv_alloc"),
    # an engine loop logging the error it caught as its repr: a multimodal prompt whose placeholders do not match
    case("engine-logs-error-repr", "ERROR 03-04 17:31:43 engine.py:136] ValueError('Attempted to assign 1 x 576 = 576 multimodal "
                                   "tokens to 0 placeholders')\n",
         [(FINAL, "ERROR 03-04 17:31:43 engine.py:136] ValueError('Attempted to assign 1 x 576 = 576 multimodal tokens to 0 "
                  "placeholders')", 1)], framework="vllm"),
    # llama.cpp's abort as LM Studio relays it, and LM Studio's report of its runtime dying: llama.cpp
    case("lmstudio-llamacpp-abort", "llama.cpp abort:5263: GGML_ASSERT(nei0 * nei1 <= 3072) failed\n", [(OOM, "ggml_assert", 1)],
         framework="llamacpp"),
    case("lmstudio-crashed-no-information", "The model has crashed without additional information. (Exit code: 18446744072635812000)\n",
         [(FINAL, "exit status 0xC0000409 (STATUS_STACK_BUFFER_OVERRUN): the runtime aborted itself (a failed check or an unhandled "
                  "error); the status itself names no memory failure", 1)], framework="llamacpp"),
    # vLLM's start-up figures in later releases' words
    case("vllm-startup-free-memory", lines("Free memory on device (110.37/121.69 GiB) on startup.",
                                           "Desired GPU memory utilization is (0.87, 105.87 GiB)."), [], framework="vllm"),
]

ROUND_127 = [
    # a program's own short statement of the GPU running out, in lower case
    case("lowercase-gpu-oom", "gpu oom\n", [(OOM, "cuda_error_oom", 1)]),
    case("no-oom-in-a-word", "the room is full\n", []),
    # llama-cpp-python forks naming llama_decode's 1: the context has no KV cells free
    case("llamacpp-python-no-kv-slot", "RuntimeError: Decode Failed at Pos 256. Batch size: 1. Error: llama_decode failed (code 1): "
                                       "No KV slot available: try reducing batch size or increasing context window.\n",
         [(OOM, "kv_runtime_exhausted", 1)], framework="llamacpp", phase="decode"),
    # vLLM V1's capture progress bar, with the batch kind and the graph mode
    case("vllm-v1-capture-progress", "Capturing CUDA graphs (mixed prefill-decode, PIECEWISE): 0/3\n", [], framework="vllm"),
]

ROUND_128 = [
    # macOS's JetsamEvent report: the system killed processes for memory
    case("macos-jetsam-event", lines("  {", '    "bug_type": "298",', '    "largestProcess": "Python",'),
         [(OOM, "kernel_oom_kill", 2), ("oom.exit_signal", "SIGKILL", 2), ("oom.hint", "jetsam", 2)]),
    # another kind of report names its own bug type: no memory read
    case("macos-other-report", '    "bug_type": "309",\n', []),
]

ROUND_129 = [
    # Ascend's report of an AI core's exception, and its address check cut where the paste ends: a kernel fault
    case("ascend-aivec-exception", "EZ9999: [PID: 37027] The error from device(chipId:5, dieId:0), serial number is 11, there is an "
                                   "exception of aivec error, core id is 2, error code = 0x800000\n", [(OOM, "illegal_memory_access", 1)]),
    case("ascend-mte-address-cut", "       The extend info: errcode:(0x800000, 0, 0) errorStr: The DDR address of the MTE instruction is out\n",
         [(OOM, "illegal_memory_access", 1)]),
]

ROUND_130 = [
    # the amdgpu kernel driver refusing to map GPU-shared memory past its limit on the host's resident memory: host RAM
    case("amdgpu-svm-system-limit", "amdgpu: SVM mapping failed, exceeds resident system memory limit\n",
         [(OOM, "host_alloc_failed", 1), ("oom.hint", "pinned_host", 1)]),
    # Ollama's server body for a runner that failed mid-request, and `ollama ps`'s table header: Ollama
    case("ollama-run-error-body", "Error: 500 an error was encountered while running the model: ROCm error\n", [], framework="ollama"),
    case("ollama-ps-header", lines("NAME          ID              SIZE     PROCESSOR          CONTEXT    UNTIL",
                                   "gemma4:31b    6316f0629137    35 GB    54%/46% CPU/GPU    262144     30 hours from now"),
         [("mem.required_bytes", 35 * 1024**3, 2), ("knob.max_model_len", 262144, 2), ("oom.hint", "context_spilled", 2)], framework="ollama"),
    # llama-server's slot lines with their fields aligned: llama.cpp, and after the load (no load phase)
    case("llama-server-aligned-slot", "0.02.505.689 I slot   load_model: id  0 | task -1 | new slot, n_ctx = 1024\n",
         [("knob.max_model_len", 1024, 1)],
         framework="llamacpp"),
    # llama.cpp's -ot: every layer's experts kept in CPU RAM (as --cpu-moe), not a pattern naming some layers
    case("llamacpp-override-tensor-experts", "llama-server -m gpt-oss-120b-Q4_K_M.gguf -ngl 100 -ot exps=CPU -c 131072\n",
         [("knob.cpu_moe", True, 1), ("knob.gpu_layers", 100, 1), ("knob.max_model_len", 131072, 1),
          ("knob.model", "gpt-oss-120b-Q4_K_M.gguf", 1), ("oom.hint", "host_resident_weights", 1), ("model.params", 120e9, 1),
          ("knob.quantization", "q4_k_m", 1)], framework="llamacpp"),
    # (the experts' up and down projections only: a partial offload, not read as every expert on the CPU)
    case("llamacpp-override-tensor-some-projections", 'llama-server -m q.gguf -ot ".ffn_(up|down)_exps.=CPU"\n',
         [("knob.model", "q.gguf", 1)], framework="llamacpp"),
]

ROUND_131 = [
    # amdgpu refusing a command submission for lack of memory, as RADV relays it and as the kernel logs it: the GTT is full
    case("radv-cs-no-memory", lines("radv/amdgpu: Not enough memory for command submission.", "vk::Queue::submit: ErrorDeviceLost"),
         [(OOM, "host_alloc_failed", 1), ("oom.hint", "gtt_exhausted", 1), (OOM, "device_lost", 2)], framework="llamacpp"),
    case("amdgpu-drm-cs-no-memory", "amdgpu 0000:c4:00.0: [drm] *ERROR* Not enough memory for command submission!\n",
         [(OOM, "host_alloc_failed", 1), ("oom.hint", "gtt_exhausted", 1)]),
    # TensorRT-LLM's build reading the Hugging Face checkpoint: in host RAM
    case("trtllm-build-hf-load", "[10/31/2023-08:02:57] [TRT-LLM] [I] Loading weights from HF Baichuan v2_13b...\n",
         [("oom.hint", "build_loads_on_host", 1)], framework="tensorrt-llm"),
    # Ollama's warning for a context past the one the model was trained for, without its slog prefix: Ollama
    case("ollama-context-too-large", 'msg="requested context size too large for model" num_ctx=131072 num_parallel=2 n_ctx_train=32768\n',
         [("knob.max_model_len", 131072, 1), ("model.trained_context", 32768, 1)], framework="ollama"),
]

ROUND_133 = [
    # llama.cpp's model-load error, only its last words as an app quotes it: llama.cpp
    case("llamacpp-unable-to-allocate-device-buffer", "unable to allocate Vulkan0 buffer\n",
         [(OOM, "ggml_alloc_failed", 1), ("oom.buffer", "weights", 1), ("oom.buffer_device", "GPU", 1)], framework="llamacpp"),
]

ROUND_134 = [
    # a shell's report of a child's arithmetic fault (zsh's job line, bash's words): a crash, no memory failure
    case("zsh-job-floating-point-exception", "[1]    2771397 floating point exception  lmdeploy serve api_server  --backend turbomind --tp 4\n",
         [(FINAL, "floating point exception  lmdeploy serve api_server  --backend turbomind --tp 4", 1),
          ("knob.tensor_parallel_size", 4, 1)], framework="lmdeploy"),
    case("bash-floating-point-exception", "Floating point exception (core dumped)\n", [(FINAL, "Floating point exception (core dumped)", 1)]),
    # the CUDA driver's core dump naming the fault: a kernel's bad address, not a full device
    case("cuda-coredump-illegal-address",
         "(AsyncVLLMInferenceEngine pid=127749) [08:52:36.868726] coredump: Detected an exception of type CUDBG_EXCEPTION_WARP_ILLEGAL_ADDRESS (14)\n",
         [(OOM, "illegal_memory_access", 1)], framework="vllm"),
    # Direct3D's removed or hung device (DirectML, WebGPU on Windows): the device is gone, not full
    case("dxgi-device-hung", "ID3D12Device::GetDeviceRemovedReason failed with DXGI_ERROR_DEVICE_HUNG (0x887A0006)\n",
         [(OOM, "device_lost", 1)]),
    # a launcher's pre-flight check, the free memory first: with no part named, the whole launch's ask against what was free
    case("preflight-free-below-need", "[preflight] ERROR: GPU 0 has 7.1 GiB free, but this config needs ~21.7 GiB/card\n",
         [(OOM, "free_below_util", 1), ("oom.free_at_start_bytes", GiB(7.1), 1), ("oom.util_requested_bytes", GiB(21.7), 1)],
         failure_line=1),
    # ... and with a part named, that part's check
    case("free-below-need-kv", "GPU 1 has 3.2 GiB free but the KV cache needs 8 GiB\n",
         [(OOM, "need_over_available", 1), ("oom.buffer", "kv", 1), ("oom.need_room_bytes", GiB(3.2), 1), ("mem.required_bytes", GiB(8), 1),
          ("mem.kv_cache_bytes", GiB(8), 1)]),
    case("free-enough-for-need", "GPU 0 has 30 GiB free, but this config needs ~21.7 GiB\n", []),
]

ROUND_135 = [
    # ggml's Metal shader library failing to compile, the line a paste keeps when the next is cut: a build this GPU
    # family cannot run, not memory
    case("metal-library-compile-error",
         'ggml_metal_library_init: error: Error Domain=MTLLibraryErrorDomain Code=3 "program_source:7131:28: warning: variable\n',
         [(OOM, "broken_install", 1), ("oom.hint", "metal_build", 1)], framework="llamacpp"),
    # a Go panic beside llama.cpp's lines: the runner is Ollama's (the Go program that embeds it)
    case("go-panic-names-ollamas-runner",
         lines("llama_init_from_model: failed to initialize the context: failed to initialize Metal backend", "",
               "panic: unable to create llama context"),
         [("oom.hint", "context_failed", 1),
          ("error.final", "llama.cpp could not start its Metal backend (no Metal device, or a shader library that did not load): the run "
                          "stopped before any buffer was allocated, not a lack of memory", 1)], framework="ollama"),
    # read again in earlier rounds' logs: amdgpu's fault report where a paste keeps only its later lines (holdout r80), and
    # FlashInfer's workspace overflow by its second half (holdout r92): a kernel's bad address, a fixed buffer outgrown
    case("amdgpu-vm-protection-fault", "[Tue Sep  9 02:30:28 2025] amdgpu 0000:c6:00.0: amdgpu: VM_L2_PROTECTION_FAULT_STATUS:0x00341051\n",
         [(OOM, "illegal_memory_access", 1)]),
    case("amdgpu-vm-protection-status-clear", "amdgpu: VM_L2_PROTECTION_FAULT_STATUS:0x00000000\n"),
    case("amdgpu-fault-page-from-utcl2",
         "amdgpu 0000:66:00.0: amdgpu:   in page starting at address 0x00007ee25e5fd000 from IH client 0x1b (UTCL2)\n",
         [(OOM, "illegal_memory_access", 1)]),
    # a shell's report of a child's SIGABRT, the command after it (holdout r117; the command's words are not a cause)
    case("bash-job-aborted-core-dumped",
         "./launchLmDeploy: line 2: 3385755 Aborted                 (core dumped) python3 -m lmdeploy.serve.openai.api_server ./workspace --tp 4\n",
         [(FINAL, "Aborted                 (core dumped) python3 -m lmdeploy.serve.openai.api_server ./workspace --tp 4", 1)]),
    case("flashinfer-workspace-second-half", "  ... only 0 bytes available in AlignedAllocator. Increase the workspace\n",
         [(OOM, "workspace_overflow", 1)]),
]

ROUND_137 = [
    # ggml's Metal shaders failing to build for this GPU family (an iPhone's A12), or Metal's compiler service dying:
    # the backend never started, and the "failed to allocate context" after it is not memory
    case("metal-pipeline-unlowered-call",
         'ggml_metal_init: error: load pipeline error: Error Domain=AGXMetalA12 Code=3 "Encountered unlowered function call to air.simd_sum.f32"\n',
         [(OOM, "broken_install", 1), ("oom.hint", "metal_build", 1)], framework="llamacpp"),
    case("metal-compiler-service-interrupted", "> MTLCompiler: Compilation failed with XPC_ERROR_CONNECTION_INTERRUPTED on 3 try\n",
         [(OOM, "broken_install", 1), ("oom.hint", "metal_build", 1)]),
    case("metal-init-library-error",
         'ggml_metal_init: error: Error Domain=MTLLibraryErrorDomain Code=3 "Compiler encountered an internal error"\n',
         [(OOM, "broken_install", 1), ("oom.hint", "metal_build", 1)], framework="llamacpp"),
    # ggml's type-converter lookup failing (bf16 weights on a build with no CUDA converter for them) is an assertion on
    # a kernel, not on an allocation's result
    case("ggml-assert-missing-converter", "GGML_ASSERT: ggml-cuda.cu:1277: to_fp32_cuda != nullptr\n",
         [(FINAL, "GGML_ASSERT: ggml-cuda.cu:1277: to_fp32_cuda != nullptr", 1)]),
    # SGLang's advice about an exit code it did not print (it printed -3): no kill read
    case("sglang-exit-code-advice",
         "RuntimeError: Rank 0 scheduler died during initialization (exit code: -3). If exit code is -9 (SIGKILL), a common cause is "
         "the OS OOM killer. Run `dmesg -T | grep -i oom` to check.\n"),
    # a SkyRL trainer's traceback: its rollouts run on vLLM unless told otherwise (a weak vote)
    case("skyrl-trainer-paths",
         '  File "/home/ray/default/SkyRL/skyrl/train/entrypoints/main_base.py", line 411, in main\n',
         [("oom.hint", "traceback", 1)], framework="vllm"),
]

ROUND_138 = [
    # vLLM's start-up check of free memory against the asked share, as a person shortens it in a PR's text
    case("vllm-free-below-util-shortened", "Free memory on cuda:0 (38.74/121.63 GiB) < desired utilization (0.35, 42.57 GiB)\n",
         [(OOM, "free_below_util", 1), ("oom.free_at_start_bytes", GiB(38.74), 1), ("mem.gpu_total_bytes", GiB(121.63), 1),
          ("oom.util_requested", 0.35, 1), ("knob.gpu_memory_utilization", 0.35, 1), ("oom.util_requested_bytes", GiB(42.57), 1)],
         framework="vllm"),
    # vLLM's bfloat16 check, the space before a backtick lost in the paste: still vLLM's words
    case("vllm-bf16-check-no-space",
         "ValueError: Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your Tesla T4 GPU has compute capability "
         "7.5. You can use float16 instead by explicitly setting the`dtype` flag in CLI, for example: --dtype=half.\n",
         [(OOM, "no_kernel_image", 1), ("oom.hint", "bf16_unsupported", 1)], framework="vllm"),
]

ROUND_139 = [
    # AWS Neuron's breakdown of what a core held at the failure (holdout r138): the request for the runtime's own buffers,
    # the total and the model's tensors (the runtime's buffers are the rest)
    case("neuron-runtime-buffer-request",
         "2023-Oct-02 08:17:45.0957  4703:4866  ERROR  TDRV:log_dev_mem                             Failed to allocate 13.107MB "
         "(usage: dma rings) on ND 0:NC 1, current utilization:\n",
         [(OOM, "cuda_error_oom", 1), ("oom.requested_bytes", 13743685, 1), ("gpu.backend", "neuron", 1), ("oom.buffer", "runtime", 1)]),
    case("neuron-breakdown-rows", lines("        * total: 15.970GB", "        * tensors: 8.216GB", "        * dma rings: 6.518GB"),
         [("oom.runtime_used_bytes", 17147656929, 1), ("oom.runtime_tensors_bytes", 8821862826, 2)]),
    # DeepSpeed-Inference's workspace check: its figures (request, free, total, in bytes, one per line) and its error
    case("deepspeed-workspace-figures", lines("Requested:\t104873984", "Free:\t49217536", "Total:\t4294443008"),
         [(OOM, "ds_workspace_alloc", 1), ("oom.requested_bytes", 104873984, 1), ("oom.gpu_free_bytes", 49217536, 2),
          ("oom.gpu_total_bytes", 4294443008, 3)], framework="deepspeed"),
    case("deepspeed-workspace-error", "RuntimeError: Workspace can't be allocated, no enough memory.\n",
         [(OOM, "ds_workspace_alloc", 1)], framework="deepspeed"),
    # (a count under 100 MiB on a "Requested:" line is not its figure)
    case("requested-count-is-not-deepspeeds", "Requested: 4096\n"),
]

ROUND_140 = [
    # a CUDA kernel's own assertion line, kept alone and cut by the paste: a device-side assert, not memory
    case("cuda-kernel-assertion-line",
         "../aten/src/ATen/native/cuda/Indexing.cu:1093: indexSelectSmallIndex: block: [0,0,0], thread: [1,0,0] Assertion "
         "`srcIndex < srcSelectDimSize` fa\n",
         [(OOM, "device_assert", 1)]),
    # CUDA libraries the loader cannot find or use: an install, not memory
    case("cudnn-not-loadable", lines("Unable to load any of {libcudnn_cnn.so.9.1.0, libcudnn_cnn.so.9.1, libcudnn_cnn.so.9, libcudnn_cnn.so}",
                                     "Invalid handle. Cannot load symbol cudnnCreateConvolutionDescriptor"),
         [(OOM, "broken_install", 1), (OOM, "broken_install", 2), ("oom.hint", "cuda_libraries", 1), ("oom.hint", "cuda_libraries", 2)]),
    case("ctranslate2-library-not-found", "RuntimeError: Library libcublas.so.12 is not found\n",
         [(OOM, "broken_install", 1), ("oom.hint", "cuda_libraries", 1)]),
    case("cudart-not-found",
         "WARNING 08-27 13:59:59 _custom_ops.py:15] Failed to import from vllm._C with ImportError('libcudart.so.12: cannot open shared "
         "object file: No such file or directory')\n",
         [(OOM, "broken_install", 1), ("oom.hint", "cuda_libraries", 1)], framework="vllm"),
    # a peer's memory read over NVLink that faulted: a fault, not a full device
    case("peer-access-fault", "torch.AcceleratorError: CUDA error: Invalid access of peer GPU memory over nvlink or a hardware error\n",
         [(OOM, "illegal_memory_access", 1)]),
    # vLLM's check of bfloat16 against the card, the traceback cut inside it
    case("vllm-dtype-check-frame", '  File "/usr/local/lib/python3.10/dist-packages/vllm/worker/worker.py", line 231, in _check_if_gpu_supports_dtype\n',
         [(OOM, "no_kernel_image", 1), ("oom.hint", "bf16_unsupported", 1), ("oom.hint", "traceback", 1)], framework="vllm"),
    # V0's scheduler ignoring a prompt over its limit: a length check, whose limit may be the batched-token budget
    case("vllm-scheduler-prompt-limit", "WARNING 09-13 05:35:42 scheduler.py:130] Input prompt (2713 tokens) is too long and exceeds limit of 2560\n",
         [(OOM, "request_over_context", 1), ("mem.prefill_tokens", 2713, 1), ("oom.hint", "scheduler_prompt_limit", 1)], framework="vllm"),
    # vLLM's wait on its workers, the line cut by the paste
    case("vllm-shm-wait-cut", "(EngineCore pid=...) INFO [shm_broadcast.py:705] No available shared memory broadcast block found in 60 seco\n",
         [("oom.hint", "workers_busy", 1)], framework="vllm"),
    # ROCm's BLAS kernel file under a path with a space in it
    case("rocblas-tensile-path-with-space",
         r"rocBLAS error: Cannot read C:\Program Files\AMD\ROCm\5.7\bin\rocblas\library\/TensileLibrary.dat: No such file or directory "
         "for GPU arch : gfx1032\n",
         [(FINAL, "ROCm's BLAS library could not read its kernel file TensileLibrary.dat: a build without kernels for this GPU, or the "
                  "process out of open files (ulimit -n); not memory", 1)]),
    # an OpenCL call refused as malformed (not CL_INVALID_BUFFER_SIZE, a size cap)
    case("opencl-invalid-event", "Error: [GPU] clWaitForEvents, error code: -58 CL_INVALID_EVENT / ProgramBuilder build failed\n",
         [(FINAL, "OpenCL refused a call (CL_INVALID_EVENT): the driver or the runtime's use of it, not memory", 1)]),
    # a page pool out of pages (shortfin's KV cache)
    case("page-pool-exhausted", "[error] [base_attention_cache.py:182] FATAL CacheAllocationFailure: Failed to allocate 6 pages from `PagePool`.\n",
         [(OOM, "kv_runtime_exhausted", 1)]),
    # (its counts: a pool of a fixed number of pages)
    case("page-pool-counts", "Required pages: 6, Available pages: 2, Total pages: 2\n", [("oom.hint", "fixed_page_pool", 1)]),
    # Metal's pipeline error as older ggml builds print it, and its library file that would not open
    case("metal-pipeline-error-old-wording",
         'ggml_metal_init: load pipeline error: Error Domain=CompilerError Code=2 "AIR builtin function was called but no definition was found."\n',
         [(OOM, "broken_install", 1), ("oom.hint", "metal_build", 1)], framework="llamacpp"),
    case("metal-library-file-invalid", 'ggml_metal_init: error: Error Domain=NSCocoaErrorDomain Code=258 "The file name is invalid."\n',
         [(OOM, "broken_install", 1), ("oom.hint", "metal_build", 1)], framework="llamacpp"),
    # drivers and firmware the runtime refuses
    case("musa-display-driver",
         "ggml_cuda_init: failed to initialize MUSA: system has unsupported display driver / musa driver combination\n",
         [(OOM, "broken_install", 1), ("oom.hint", "driver_refused", 1)]),
    case("npu-firmware-incompatible", lines("   [ERROR]  NPU firmware version on /dev/accel/accel0 is incompatible. Please update NPU firmware!",
                                            "   [ERROR]  amdxdna version 0.1 is incompatible"),
         [(OOM, "broken_install", 1), (OOM, "broken_install", 2), ("oom.hint", "driver_refused", 1), ("oom.hint", "driver_refused", 2)]),
    # a multimodal projector this build cannot read
    case("ggml-unknown-projector",
         "clip_init: failed to load model 'mmproj-gemma-4-12B-it-QAT-BF16.gguf': load_hparams: unknown projector type: gemma4uv\n",
         # (the projector's file name is read as the model's, as any GGUF name is)
         [(FINAL, "unknown projector type 'gemma4uv' (this build does not support the model)", 1), ("knob.dtype", "bfloat16", 1),
          ("knob.model", "mmproj-gemma-4-12B-it-QAT-BF16.gguf", 1), ("model.params", 12000000000, 1)]),
    # an errno printed as a field: ENOMEM mapping a file is the host's memory; EINVAL is not memory
    case("errno-field-enomem-map", "Load model error: Failed to initialize engine: %sUNKNOWN: Unable to map file to memory buffer, errno=12\n",
         [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1)]),
    case("errno-field-einval",
         "[ERROR]  Failed to load model: DRM_IOCTL_AMDXDNA_CREATE_HWCTX IOCTL failed (err=-22): Invalid argument\n",
         [(FINAL, "[ERROR]  Failed to load model: DRM_IOCTL_AMDXDNA_CREATE_HWCTX IOCTL failed (err=-22): Invalid argument: errno 22, "
                  "an invalid argument, not memory", 1)]),
    # a JavaScript ArrayBuffer is the host's heap; ONNX Runtime's session is the model's load
    case("js-array-buffer", "llama2c-worker.js:25 Uncaught RangeError: Array buffer allocation failed\n",
         [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1)]),
    case("ort-session-buffer",
         "Uncaught (in promise) Error: Can't create a session. failed to allocate a buffer of size 2079237968.\n",
         [(OOM, "cuda_error_oom", 1), ("oom.requested_bytes", 2079237968, 1)]),
    # iOS ending an app over its memory limit (jetsam), as Xcode and the crash report say it
    case("ios-terminated-memory", "Failure Reason: Message from debugger: Terminated due to memory issue\n",
         [(OOM, "kernel_oom_kill", 1), ("oom.exit_signal", "SIGKILL", 1), ("oom.hint", "jetsam", 1), ("oom.hint", "unified_memory", 1)]),
    case("ios-exc-resource", "Task 1: EXC_RESOURCE (RESOURCE_TYPE_MEMORY: high watermark memory limit exceeded) (limit=6144 MB)\n",
         [(OOM, "kernel_oom_kill", 1), ("oom.exit_signal", "SIGKILL", 1), ("oom.hint", "jetsam", 1), ("oom.hint", "unified_memory", 1)]),
]

ROUND_141 = [
    # the shell's "Killed" ending a program's unfinished progress line, in English or the user's locale
    case("killed-after-progress", "Loading model... Killed\n", [(OOM, "killed", 1), ("oom.exit_signal", "SIGKILL", 1)]),
    case("killed-after-progress-zh", "...                                       已杀死\n", [(OOM, "killed", 1), ("oom.exit_signal", "SIGKILL", 1)]),
    # (not a sentence that says a process was killed)
    case("killed-in-a-sentence", "the worker was killed...\n"),
    # a phone app's llama.cpp binding stopping a chat whose context is full: a length, not memory
    case("llama-rn-context-full", "Completion failed: Context is full\n", [(OOM, "context_full", 1)]),
    # a speech encoder or audio codec on the input audio: what to shorten is the clip
    case("wav2vec2-frame", '  File "D:\\tts\\Lib\\site-packages\\transformers\\models\\wav2vec2\\modeling_wav2vec2.py", line 336, in forward\n',
         [("oom.hint", "audio_input", 1), ("oom.hint", "traceback", 1)]),
    case("acoustic-tokenizer-encode", "    encoder_output = self.model.acoustic_tokenizer.encode(speech_tensors.unsqueeze(1))\n",
         [("oom.hint", "audio_input", 1)]),
    case("voice-conversion-pass", "🔄 Voice conversion pass 1/1...\n", [("oom.hint", "audio_input", 1)]),
    # vLLM's bfloat16 check cut before its advice, and its platform check of old cards: a weak vote for vLLM
    case("vllm-bf16-check-cut", "ValueError: Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your Tesla T4 GPU "
         "has compute capability 7.5.\n", [(OOM, "no_kernel_image", 1), ("oom.hint", "bf16_unsupported", 1)], framework="vllm"),
    # vLLM V1's worker prefix
    case("vllm-worker-prefix", "(Worker_TP7 pid=380351) ERROR 04-28 15:50:31 [multiproc_executor.py:706]     return self._op(*args, **kwargs)\n",
         [("parallel.workers", 8, 1)], framework="vllm"),
    # kernels named after TensorRT-LLM in other engines' code are not TensorRT-LLM
    case("flashinfer-trtllm-kernel", "    return flashinfer.fused_moe.trtllm_bf16_moe(\n"),
    # llama.rn's iOS framework in a crash's frames
    case("llama-rn-crash-frame", "  rnllama +0x317e00 rnllama::llama_rn_context::loadModel\n", framework="llamacpp"),
    # the GPUs a pasted command lets the process see: a split over them is what transformers' device_map can do
    case("visible-devices-list", "CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 python web_demo.py \\\n", [("gpu.count", 8, 1)]),
    # a kernel library's error naming its source under /workspace: the folder's name is not a memory word
    case("final-error-workspace-path",
         "RuntimeError: Error in function 'run' at /workspace/flashinfer/csrc/trtllm_fused_moe.cu:55: Check failed: (status == cudaSuccess) is false\n",
         [(FINAL, "RuntimeError: Error in function 'run' at /workspace/flashinfer/csrc/trtllm_fused_moe.cu:55: Check failed: (status == "
                  "cudaSuccess) is false", 1)]),
]

ROUND_142 = [
    # a generic exception's name alone (Jupyter's header line over a traceback cut below it) states no cause ...
    case("jupyter-bare-runtimeerror", "---------------------------------------------------------------------------\nRuntimeError\n"),
    # ... a bare AssertionError does: an invariant of the code
    case("bare-assertion-error", "AssertionError\n", [(FINAL, "AssertionError", 1)]),
    # a library saying the card lacks a feature (bitsandbytes' int8 matmul on a Maxwell or Pascal card)
    case("bnb-int8-unsupported", "ERROR: Your GPU does not support Int8 Matmul!\n", [(OOM, "no_kernel_image", 1)]),
    # a kernel's check of an input's dimension names a shape, not memory, whatever the words "cache" and "sequence"
    case("ort-dimension-check", "OrtException: Non-zero status code returned while running GroupQueryAttention node. "
         "Status Message: cos_cache dimension 0 should be of max_sequence_length.\n",
         [(FINAL, "OrtException: Non-zero status code returned while running GroupQueryAttention node. Status Message: cos_cache "
                  "dimension 0 should be of max_sequence_length.", 1)]),
    # OpenCL's host-side failure in any runtime's words
    case("out-of-host-memory", "Failed to build program executable - Out of host memory\n",
         [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1)]),
    # MLC's and web-llm's paged cache with no page left: the conversation outgrew the context window's pages
    case("mlc-kv-full", "Check failed: (!free_page_ids_.empty()) is false: The KV cache is full. No page can be allocated.\n",
         [(OOM, "kv_runtime_exhausted", 1), ("oom.hint", "context_window_pages", 1)], phase="decode"),
    # accelerate asked to put a weight it kept on the meta device (offloaded past the GPU's room) on a GPU
    case("accelerate-meta-weight", "ValueError: weight is on the meta device, we need a `value` to put in on 0.\n",
         [(OOM, "weights_on_meta", 1)]),
    # torch reading a pickled checkpoint: into host RAM first
    case("torch-load-frame", '  File "C:\\env\\lib\\site-packages\\torch\\serialization.py", line 1131, in _load\n',
         [("oom.hint", "checkpoint_read_on_host", 1), ("oom.hint", "traceback", 1)]),
    # a Hugging Face model class built from its config: its parameters made in host RAM
    case("hf-model-from-config", "    model = LlamaForCausalLM(config)\n", [("oom.hint", "load_on_host", 1)]),
    # Ollama's device line: the card's name and the total it prints (not the table's figure for the card)
    case("ollama-inference-compute", 'time=2024-12-28T00:12:38.013+08:00 level=INFO source=types.go:131 msg="inference compute" id=GPU-0 '
         'library=cuda variant=v12 compute=8.6 driver=12.4 name="NVIDIA A40" total="44.3 GiB" available="44.1 GiB"\n',
         [("gpu.name", "NVIDIA A40", 1), ("gpu.total_bytes", GiB(44.3), 1)]),
    # a launcher's summary of the card, with its VRAM
    case("launcher-gpu-vram", "      GPU: NVIDIA GeForce RTX 3080 Ti Laptop GPU (SM86, 16384 MB VRAM, 912 GB/s)\n",
         [("gpu.name", "NVIDIA GeForce RTX 3080 Ti Laptop GPU", 1), ("gpu.total_bytes", MiB(16384), 1)]),
    # (a card named where no line prints its total: the shipped table's capacity for it, 79.14 GiB as CUDA reports an
    # 80 GB A100)
    case("nvidia-smi-list", "GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-5d2f1c3e)\n",
         [("gpu.name", "NVIDIA A100-SXM4-80GB", 1), ("gpu.total_bytes", 84_975_927_951, 1)]),
    # a model's name after a label padded with spaces
    case("launcher-model-two-spaces", "      Model:  tvall43/Qwen3.6-35B-A3B-heretic (moe, 36B total / 1B active)\n",
         [("knob.model", "tvall43/Qwen3.6-35B-A3B-heretic", 1), ("model.params", 35_000_000_000, 1)]),
]

ROUND_143 = [
    # a parent's report of its child killed by signal 9 (Jittor's SIGCHLD line): the kill, not the runtime's guess beside it
    case("jittor-sigchld-killed", "[e 0605 09:51:45.324432 64 log.cc:246] Caught SIGCHLD. Maybe out of memory, please reduce your "
         "worker size. si_errno: 0 si_code: 2 si_status: 9 , quick exit\n", [(OOM, "killed", 1), ("oom.exit_signal", "SIGKILL", 1)]),
    # (a runtime's guess is no statement that memory ran out)
    case("maybe-oom-guess", "Error: maybe out of memory\n"),
    # PyTorch's check of the driver at its first CUDA call: an install, not memory
    case("torch-driver-too-old", "The NVIDIA driver on your system is too old (found version 9010). Please update your GPU driver "
         "by downloading and installing a new version from the URL: http://www.nvidia.com/Download/index.aspx\n", [(OOM, "broken_install", 1)]),
    # a server that was up, failing a model load it was asked for: the load, not a request's forward
    case("load-call-failed-oom", lines(
        "INFO:     Application startup complete.",
        '{"detail":"failed to load: CUDA out of memory. Tried to allocate 224.00 MiB (GPU 0; 23.70 GiB total capacity; 21.72 GiB '
        'already allocated; 202.56 MiB free; 22.76 GiB reserved in total by PyTorch)"}'),
         [(OOM, "torch_oom", 2), ("oom.device", "0", 2), ("oom.requested_bytes", MiB(224), 2), ("oom.gpu_total_bytes", GiB(23.70), 2),
          ("oom.torch_allocated_bytes", GiB(21.72), 2), ("oom.gpu_free_bytes", MiB(202.56), 2), ("oom.torch_reserved_bytes", GiB(22.76), 2),
          ("oom.torch_unallocated_bytes", GiB(22.76) - GiB(21.72), 2)], phase="load_weights"),
    # a model named by its file needing more than the runtime has, in a check that warns before the load ("loading may
    # fail"): the sizes and the warning, no failure yet
    case("model-file-needs-about", "whisper: model C:\\m\\ggml-large-v3-turbo.bin needs about 1624555275 bytes but only 1297448960 "
         "bytes are available; loading may fail\n",
         [("oom.hint", "may_fail_warning", 1), ("mem.required_bytes", 1624555275, 1), ("mem.weights_bytes", 1624555275, 1),
          ("mem.gpu_available_bytes", 1297448960, 1)]),
    # a loguru line's location naming the step a script was in when a device buffer was refused
    case("loguru-decode-step", lines(
        "2024-07-03 11:33:32.714 | INFO     | __main__:run_decode:199 - Loop 88",
        "Out of Memory: Not enough space to allocate 1048576 B DRAM buffer across 12 banks, where each bank needs to store 88064 B"),
         [(OOM, "cuda_error_oom", 2), ("gpu.backend", "tenstorrent", 2), ("oom.requested_bytes", 1048576, 2)], phase="decode"),
    # an app announcing the pickled checkpoint it reads (into host RAM, whole, before anything moves to a GPU)
    case("checkpoint-file-load", "Loading J:/ChatRWKV/RWKV-4-Pile-14B-20230313-ctx8192-test1050.pth ...\n",
         [("oom.hint", "checkpoint_read_on_host", 1)]),
    case("checkpoint-file-load-glued", "INFO:Loading RWKV-4-Raven-14B-v6-EngChnJpn-20230401-ctx4096.pth...\n",
         [("oom.hint", "checkpoint_read_on_host", 1)]),
    # (not safetensors, which is mapped, nor shards by count)
    case("safetensors-file-load", "Loading model.safetensors ...\n"),
    # Windows' `pause` after a batch file's program ended, in the user's language, glued to its last output: the process is gone
    case("windows-pause-pt", "Loading checkpoint shards:  33%|###       | 5/15 [00:02<00:06,  1.51it/s]Pressione qualquer tecla para "
         "continuar. . .\n", [("oom.hint", "process_ended", 1)]),
    case("windows-pause-ja", "続行するには何かキーを押してください . . .\n", [("oom.hint", "process_ended", 1)]),
    case("windows-pause-en", "Press any key to continue . . .\n", [("oom.hint", "process_ended", 1)]),
    # the memory named in the statement ("ran out of GPU memory"), and the same words asked, not stated
    case("ran-out-of-gpu-memory", "Error: Transcription ran out of GPU memory. Close other GPU apps or Flush models, then try again\n",
         [(OOM, "cuda_error_oom", 1)]),
    case("out-of-vram-asked", "Device: CPU GPU loading failed (out of vram?)\n"),
    # vLLM's KV capacity check retyped from a screenshot, a letter wrong and curly quotes
    case("vllm-kv-capacity-misread", "The model’s max sew len (32768) is larger than the maximum number of tokens that can be stored in KV "
         "cache (18896). Try increasing ‘gpu_memory_utilization’ or decreasing ‘max_model_len’ when initializing the engine.\n",
         [(OOM, "kv_capacity", 1), ("oom.requested_max_model_len", 32768, 1), ("oom.kv_capacity_tokens", 18896, 1)]),
    # text-generation-webui's own module is not TGI's server
    case("textgen-webui-module", '  File "/opt/tgwui/modules/text_generation.py", line 378, in generate_reply_HF\n',
         [("oom.hint", "traceback", 1)], framework="transformers"),
]

_TF_OOM = "Resource exhausted: OOM when allocating tensor with shape[{}] and type {} on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc"

ROUND_144 = [
    # an early ggml program's one host buffer for the whole model, then a segfault in the shell's language: that malloc
    case("ggml-ctx-size-segfault-pt", lines("llama_model_load: ggml ctx size = 6065.34 MB", "Falha de segmentação (imagem do núcleo gravada)"),
         [("oom.hint", "announced_alloc_crashed", 1), ("mem.host_required_bytes", MiB(6065.34), 1),
          ("error.final", "Falha de segmentação (imagem do núcleo gravada)", 2)]),
    # (a small buffer, or a crash well after the announcement, is not read as that allocation)
    case("ggml-ctx-size-small", lines("llama_model_load: ggml ctx size =    0.13 MB", "Segmentation fault (core dumped)"),
         [("error.final", "Segmentation fault (core dumped)", 2)]),
    case("mem-required-then-run", lines("llama_model_load_internal: mem required  = 5809.78 MB (+ 2052.00 MB per state)",
                                        "llama_init_from_file: kv self size  = 1024.00 MB", "system_info: n_threads = 8 / 16",
                                        "main: interactive mode on.", "Segmentation fault"),
         [("error.final", "Segmentation fault", 5)]),
    # an app's own inference call in a traceback: a hint that the model was running on an input, not the phase
    case("app-inference-frame", '  File "/home/u/so-vits-svc/inference/infer_tool.py", line 470, in slice_inference\n',
         [("oom.hint", "traceback", 1), ("oom.hint", "app_inference_call", 1)]),
    case("app-predict-frame", '  File "/content/app.py", line 133, in predict\n', [("oom.hint", "traceback", 1), ("oom.hint", "app_inference_call", 1)]),
    # (a method whose name only contains the word is not the call: "in inferred_shape")
    case("app-inferred-shape-frame", '  File "/x/shape.py", line 9, in inferred_shape\n', [("oom.hint", "traceback", 1)]),
    # round 145: TensorFlow's failing graph node names the step: an op on the input is a forward pass, a variable's
    # initializer the load, and a step of the sampling loop no step of its own
    case("tf-node-forward", lines(_TF_OOM.format("2,21803,2049", "complex64"), "\t [[{{node stft/rfft}}]]"),
         [(OOM, "cuda_error_oom", 1), ("oom.requested_bytes", 2 * 21803 * 2049 * 8, 1)], phase="prefill"),
    case("tf-node-initializer", lines(_TF_OOM.format("4096,4096", "float"), "\t [[{{node dense/kernel/Initializer/random_uniform/RandomUniform}}]]"),
         [(OOM, "cuda_error_oom", 1), ("oom.requested_bytes", 4096 * 4096 * 4, 1)], phase="load_weights"),
    case("tf-node-sampling-loop", lines(_TF_OOM.format("1,48,2,25,498,64", "float"), "\t [[{{node sample_sequence/while/concat}}]]"),
         [(OOM, "cuda_error_oom", 1), ("oom.requested_bytes", 48 * 2 * 25 * 498 * 64 * 4, 1)]),
    # cuBLAS statuses that name another cause than memory
    case("cublas-not-supported", "RuntimeError: cuBLAS failed with status CUBLAS_STATUS_NOT_SUPPORTED\n",
         [("error.final", "cuBLAS returned CUBLAS_STATUS_NOT_SUPPORTED: the GPU or the build does not support the call, not memory", 1)]),
    # a Go program's nil dereference: "invalid memory address" is no lack of memory
    case("go-nil-dereference", "panic: runtime error: invalid memory address or nil pointer dereference\n",
         [("error.final", "a nil pointer dereference in a Go program (invalid memory address): a bug, not a lack of memory", 1)]),
    # vLLM's start-up check with its spaces dropped, as a wrapper relays it
    case("vllm-free-below-util-unspaced", "Free memory on device (0.75/14.57GiB) on startup is less than desired GPU memory utilization(0.4,5.83GiB).\n",
         [(OOM, "free_below_util", 1), ("oom.free_at_start_bytes", GiB(0.75), 1), ("mem.gpu_total_bytes", GiB(14.57), 1),
          ("oom.util_requested", 0.4, 1), ("knob.gpu_memory_utilization", 0.4, 1), ("oom.util_requested_bytes", GiB(5.83), 1)], phase="startup"),
    # a translation server's and an OCR pipeline's inference calls
    case("app-translate-frame", '  File "/m/jobs/nmt_engine_build_job.py", line 77, in _translate_batch\n',
         [("oom.hint", "traceback", 1), ("oom.hint", "app_inference_call", 1)]),
    # (an OCR step reads images: the multimodal hint too)
    case("app-ocr-frame", '  File "/m/pipeline/steps.py", line 40, in run_ocr\n',
         [("oom.hint", "traceback", 1), ("oom.hint", "app_inference_call", 1), ("oom.hint", "multimodal", 1)]),
    # round 146: PaddlePaddle's CPU allocator (host RAM, ENOMEM) and the operator it was running
    case("paddle-host-alloc", lines("ResourceExhaustedError: Fail to alloc memory of 129472640 size, error code is 12.",
                                    "      [operator < elementwise_add > error]"),
         [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1), ("oom.requested_bytes", 129472640, 1)], phase="prefill"),
    # (Paddle's and TensorFlow's own frames name a tensor library no listed engine runs on)
    case("paddle-frame", "  File \"/usr/lib/python3.8/site-packages/paddle/fluid/executor.py\", line 1110, in run\n",
         [("oom.hint", "traceback", 1)], framework="other"),
    # a segfault as a German shell reports it names no cause either
    case("segfault-de", "Speicherzugriffsfehler (Speicherabzug geschrieben)\n", [("error.final", "Speicherzugriffsfehler (Speicherabzug geschrieben)", 1)]),
]

ROUND_147 = [
    # a size bug in any unit a runtime prints: Paddle's GPU allocator asked for petabytes
    case("paddle-petabytes", "Out of memory error on GPU 0. Cannot allocate 655.142555PB memory on GPU 0, 1.729004GB memory has been allocated\n",
         [(OOM, "cuda_error_oom", 1), ("oom.requested_bytes", int(round(655.142555 * (1 << 50))), 1)]),
    # ONNX Runtime running a node of the graph: a forward pass on the input
    case("ort-node-alloc", "[E:onnxruntime:, sequential_executor.cc:494 onnxruntime::ExecuteKernel] Non-zero status code returned while running "
                           "Conv node. Name:'p2o.Conv.2' Status Message: bfc_arena.cc:368 onnxruntime::BFCArena::AllocateRawInternal Failed to "
                           "allocate memory for requested buffer of size 1277558784\n",
         [(OOM, "runtime_alloc_failed", 1), ("oom.requested_bytes", 1277558784, 1)], phase="prefill"),
    # a Paddle C++ traceback cut at its allocator's frame (innermost last), under a GPU kernel: an allocation failed in a
    # forward pass
    case("paddle-stack-cut-at-alloc", lines("C++ Traceback (most recent call last):",
                                            "2   void phi::ScaleKernel<float, phi::GPUContext>(phi::GPUContext const&, phi::DenseTensor const&, float, bool, phi::DenseTensor*)",
                                            "3   float* phi::DeviceContext::Alloc<float>(phi::TensorBase*, unsigned long, bool) const"),
         [("oom.hint", "traceback", 1), (OOM, "runtime_alloc_failed", 3), ("oom.hint", "native_alloc_frame", 3)], phase="prefill"),
    # (the same frame with more stack below it is not where the stack was cut)
    case("paddle-alloc-frame-inside", lines("3   float* phi::DeviceContext::Alloc<float>(phi::TensorBase*, unsigned long, bool) const",
                                            "4   phi::DenseTensor::AllocateFrom(phi::Allocator*, phi::DataType, unsigned long, bool)",
                                            "Error Message Summary:", "InvalidArgumentError: the shape does not match"),
         [("error.final", "InvalidArgumentError: the shape does not match", 4)]),
    # Kaldi's decoders loading their model files: a load into host RAM (a GPU build says so with cu-device.cc)
    case("kaldi-load", "LOG (VoskAPI:ReadDataFiles():model.cc:283) Loading HCLG from model/graph/HCLG.fst\n",
         [("oom.hint", "runtime_on_cpu", 1)]),
    case("ort-cpu-provider", "['CPUExecutionProvider'], in descending order of preference\n", [("oom.hint", "runtime_on_cpu", 1)]),
    # an app's report that its model's load is done: what follows runs on the input
    case("app-loaded-model", lines("Loading caption model blip-large...", "Loaded CLIP model and data in 7.47 seconds.",
                                    "CUDA out of memory. Tried to allocate 918.00 MiB"),
         [(OOM, "torch_oom", 3), ("oom.requested_bytes", MiB(918), 3)], phase="prefill"),
    # (vLLM's report of the load it finished is not a load under way)
    case("vllm-weights-took", "INFO 06-30 18:37:30 model_runner.py:160] Loading model weights took 17.9828 GB\n",
         [("mem.weights_bytes", GiB(17.9828), 1)]),
    # MemGPT's refusal of a prompt over its context window
    case("memgpt-context", "Exception: Request exceeds maximum context length (8465 > 8192 tokens)\n",
         [(OOM, "request_over_context", 1), ("mem.prefill_tokens", 8465, 1), ("knob.max_model_len", 8192, 1)]),
    # look-alikes: Docker without a GPU runtime, OpenBLAS's table of buffers, gunicorn's own kill after a worker timeout,
    # and CPython's refcount check ("deallocating None" is no allocation)
    case("docker-no-gpu", 'docker: Error response from daemon: could not select device driver "" with capabilities: [[gpu]].\n',
         [("oom.hint", "container", 1), ("error.final", "Docker could not give the container a GPU (no NVIDIA container toolkit or runtime on the host): "
                                          "the container never started, not a lack of memory", 1)]),
    case("openblas-regions", "BLAS : Program is Terminated. Because you tried to allocate too many memory regions.\n",
         [("error.final", "OpenBLAS ran out of its fixed table of buffers (too many threads or processes calling it: "
                          "OPENBLAS_NUM_THREADS lower), not a lack of memory", 1)]),
    case("gunicorn-timeout-kill", lines("[11/01/23 16:49:09] CRITICAL WORKER TIMEOUT (pid:13)",
                                        "[11/01/23 16:49:10] ERROR    Worker (pid:13) was sent SIGKILL! Perhaps out of memory?"),
         [("error.final", GUNICORN_TIMEOUT, 1),
          (OOM, "killed", 2), ("oom.exit_signal", "SIGKILL", 2)]),
    # round 148: an older Paddle naming the op whose allocation threw; Go's runtime out of heap (host RAM); TensorFlow's
    # reservation refused by the driver; the kernel's OOM kill as older kernels capitalise it, and its segfault report;
    # an exception whose native traceback a console wrapped after "call" names no cause of its own
    case("paddle-op-badalloc", "W0109 11:16:28.406390 11887 operator.cc:179] mul raises an exception paddle::memory::allocation::BadAlloc, \n",
         [(OOM, "runtime_alloc_failed", 1)], phase="prefill"),
    case("go-runtime-oom", "photoprism-admin_1  | fatal error: runtime: out of memory\n",
         [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1)]),
    case("tf-region-refused", "2023-03-15 06:09:57.022658: I tensorflow/stream_executor/cuda/cuda_driver.cc:733] failed to allocate 20.79G "
                              "(22317891584 bytes) from device: CUDA_ERROR_OUT_OF_MEMORY: out of memory\n",
         [(OOM, "cuda_error_oom", 1), ("oom.requested_bytes", 22317891584, 1), ("oom.hint", "runtime_region_refused", 1)]),
    case("kernel-oom-kill-capitalised", "[111607.682574] Out of Memory: Killed process 8366405 (photoprism) total-vm:5763668kB\n",
         [(OOM, "kernel_oom_kill", 1), ("host.kernel_oom_kill", "Out of Memory: Killed process 8366405 (photoprism)", 1),
          ("oom.exit_signal", "SIGKILL", 1)]),
    case("kernel-segfault-pid-elided", "python[...]: segfault at 0 ip ...ade46b ... error 6 in libopenvino.so.2541[ade46b,...+117d000]\n",
         [("error.final", "the kernel's trap (segfault): the process crashed (SIGSEGV, a segmentation fault), it was not killed for memory", 1)]),
    case("wrapped-native-traceback", lines("immich_machine_learning  |      ONNXRuntimeError: Traceback (most recent call",
                                           "immich_machine_learning  |      last):"), []),
    # round 149: PHP's Symfony Process quoting the signal; ggml's Metal backend unable to make its shader library
    case("symfony-signal-9", 'The process has been signaled with signal "9".\n', [(OOM, "killed", 1), ("oom.exit_signal", "SIGKILL", 1)]),
    case("ggml-metal-create-library-failed", "ggml_metal_device_init: error: failed to create library\n",
         [(OOM, "broken_install", 1), ("oom.hint", "metal_build", 1)]),
    # NVML's -1 read as unsigned (2**64 bytes, under WSL) is no process's use
    case("torch-this-process-nvml-garbage", "Including non-PyTorch memory, this process has 17179869184.00 GiB memory in use.\n", []),
    # TensorFlow's C++ logging names the tensor library, no listed engine
    case("tf-cpp-log-line", "2023-03-15 06:09:56.391024: I tensorflow/core/platform/cpu_feature_guard.cc:193] This TensorFlow binary is optimized\n",
         [], framework="other"),
    case("python-none-dealloc", "Fatal Python error: none_dealloc: deallocating None: bug likely caused by a refcount error in a C extension\n",
         [("error.final", "Fatal Python error: none_dealloc: deallocating None: bug likely caused by a refcount error in a C extension", 1)]),
]

ROUND_150 = [
    # llama.cpp's device list as a router's child prints it (its pid first, a space before the colon): before any model
    # is placed, what is not free is held by others
    case("ggml-device-list-router-child", "[36701] CUDA0 : NVIDIA GeForce RTX 3090 (24124 MiB, 10552 MiB free)\n",
         [("mem.gpu_total_bytes", 24124 << 20, 1), ("mem.gpu_available_bytes", 10552 << 20, 1),
          ("mem.used_at_start_bytes", (24124 - 10552) << 20, 1), ("gpu.backend", "cuda", 1)], framework="llamacpp"),
    # a process choosing its device creates its CUDA context: an out-of-memory there places nothing of a model
    # (a stack a user shortened to the calls, SGLang's worker classes naming the engine)
    case("set-device-oom", lines(" → TpModelWorker(...)                          managers/tp_worker.py:269  __init__",
                                 " → torch._C._cuda_setDevice(device)            torch/cuda/__init__.py:638",
                                 "torch.AcceleratorError: CUDA error: out of memory"),
         [("oom.hint", "device_context", 2), (OOM, "cuda_error_oom", 3)], framework="sglang"),
    # a project's folder named text-generation is no TGI; DeepSpeed's launcher is DeepSpeed
    case("deepspeed-example-folder", lines("CUDA_VISIBLE_DEVICES=3,5,6,7 deepspeed inference-test.py --name facebook/opt-1.3b",
                                           '  File "/home/u/dsexamples/inference/huggingface/text-generation/utils.py", line 66, in __call__'),
         [("oom.hint", "traceback", 2), ("gpu.count", 4, 1)], framework="deepspeed"),
    # llama.cpp's loader's own words, as the apps over it relay them
    case("llamacpp-unknown-architecture", "error loading model: error loading model architecture: unknown model architecture: 'qwen35moe'\n",
         [("error.final", "the model could not be loaded (error loading model architecture: unknown model architecture: 'qwen35moe'): not memory", 1),
          ("error.final", "unknown model architecture 'qwen35moe' (this build does not support the model)", 1), ("oom.hint", "context_failed", 1)],
         framework="llamacpp"),
    # vLLM's profile left no room for one KV block, and a user forced a count
    case("vllm-zero-blocks-overridden", "INFO 04-01 11:25:38 [kv_cache_utils.py:826] Overriding num_gpu_blocks=0 with num_gpu_blocks_override=256\n",
         [(OOM, "no_kv_memory", 1)], phase="kv_alloc"),
    # KoboldCpp's arguments, the line cut by the paste (its last pair dropped), and its survey of the GPU
    case("koboldcpp-namespace-cut", lines("Detected Available GPU Memory: 6144 MB",
                                          "Namespace(admin=False, batchsize=512, contextsize=131072, debugmode=0, embeddingsm"),
         [("mem.gpu_total_bytes", 6144 << 20, 1), ("knob.max_model_len", 131072, 2)]),
    # a custom op's check after its launch, and Ascend's memory manager reporting a device's page fault: faults
    case("kernel-launch-failed", "RuntimeError: moe_sum_reduce CUDA kernel (small-token) launch failed\n",
         [(OOM, "illegal_memory_access", 1)]),
    case("ascend-devmm-fault", "[1716848.455103] [T3084147] [ascend] [devmm] [ERROR] [devmm_chan_query_vaflgs_d2h_process 130] "
                               "<kworker/165:0:3084147,3084147> Device fault error. (hostpid=2787445; va=0x12f2f4c00000; ret=-22)\n",
         [(OOM, "illegal_memory_access", 1)]),
    # PyTorch's message cut after "is": what was free is still stated
    case("torch-cut-after-is", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.93 GiB. GPU 0 has a total capacity of 79.14 GiB of which 3.79 GiB is\n",
         [(OOM, "torch_oom", 1), ("oom.requested_bytes", GiB(4.93), 1), ("oom.device", "0", 1), ("oom.gpu_total_bytes", GiB(79.14), 1),
          ("oom.gpu_free_bytes", GiB(3.79), 1)]),
    # a cuBLAS status that is no allocation, whatever the quoted call's arguments are named
    case("cublas-execution-failed", "RuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasLtMatmul( ltHandle, "
                                    "computeDesc.descriptor(), &alpha_val, mat1_ptr, workspaceSize, at::cuda::getCurrentCUDAStream())`\n",
         [("error.final", "RuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasLtMatmul( ltHandle, "
                          "computeDesc.descriptor(), &alpha_val, mat1_ptr, workspaceSize, at::cuda::getCurrentCUDAStream())`", 1)]),
]

ROUND_153 = [
    # PaddlePaddle's (and TensorFlow's) out-of-memory class, its message on lines a paste cut away
    case("paddle-resource-exhausted-cut", lines("Error Message Summary:", "----------------------", "ResourceExhaustedError:"),
         [(OOM, "cuda_error_oom", 3)]),
    # Android's Java heap: the runtime's own figures of the allocation and the heap's limit
    case("android-java-heap", "Could not invoke Onnxruntime.run. Failed to allocate a 54000015 byte allocation with 25165824 free bytes "
                              "and 41MB until OOM, target foorprint 249685672, growth limit 268435456\n",
         [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1), ("oom.requested_bytes", 54000015, 1)]),
    # a distributed runtime's placement with no room anywhere, sizes unstated
    case("exo-no-cycles", "ValueError:No cycles found with sufficient memory.\n", [(OOM, "placement_no_room", 1)], phase="load_weights"),
    # vLLM's CPU backend checking its KV cache against a NUMA node's free RAM
    case("vllm-cpu-kv-over-ram", "(Worker pid=1671) ERROR 06-09 16:29:44 [multiproc_executor.py:987] ValueError: Available memory on node 0 "
                                 "(149.11/692.65 GiB) on kv cache allocation is less than requested memory for kv (206.54/207.8 GiB). "
                                 "Reduce CPU memory used by other processes.\n",
         [(OOM, "cpu_kv_over_ram", 1), ("oom.host_available_bytes", GiB(149.11), 1), ("host.ram_total_bytes", GiB(692.65), 1),
          ("oom.host_required_bytes", GiB(206.54), 1)], phase="kv_alloc"),
]

ROUND_154 = [
    # a JVM's OutOfMemoryError is its heap's or its direct buffers': host memory, not PyTorch's
    case("jvm-direct-buffer", "java.lang.OutOfMemoryError: Direct buffer memory\n",
         [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1), ("oom.hint", "managed_heap", 1)]),
    # TensorRT's CUDA status by its number: 2 is cudaErrorMemoryAllocation
    case("trt-cuda-error-2", "E0311 14:15:13.700653 1 logging.cc:43] runtime.cpp (24) - Cuda Error in allocate: 2\n",
         [(OOM, "cuda_error_oom", 1)]),
    # Triton's own CUDA memory pool too small for a tensor: the server's cap, with the size refused
    case("triton-cnmem-pool", "W0410 13:51:44.743979 1 memory.cc:212] Failed to allocate CUDA memory with byte size 102236160 on GPU 0: "
                              "CNMEM_STATUS_OUT_OF_MEMORY, falling back to pinned system memory\n",
         [(OOM, "allocator_cap", 1), ("oom.hint", "triton_cuda_pool", 1), ("oom.requested_bytes", 102236160, 1), ("oom.device", "0", 1)]),
    # a block-paged KV cache refusing a request's blocks, with what it had left
    case("kv-blocks-left", "ErrorMsg: failed to malloc 134 blocks, only 28 blocks left\n", [(OOM, "kv_runtime_exhausted", 1)]),
    # an SDK's own words for a failed device allocation
    case("sophon-alloc-device-memory", "[STREAM_CHECK_MESSAGE]  Expected ret == 0 to be true, but got false. Alloc Device Memory Failed! Program Terminated.\n",
         [(OOM, "cuda_error_oom", 1)]),
    # AMD MIOpen skipping a solver the caller gave no workspace: a notice, nothing failed
    case("miopen-workspace-notice", "MIOpen(HIP): Warning [IsEnoughWorkspace] [EvaluateInvokers] Solver <GemmFwdRest>, workspace required: "
                                    "3416064, provided ptr: 0 size: 0\n",
         [(OOM, "memory_notice", 1)]),
    # iOS refusing GPU work from an app in the background, the status cut by the paste
    case("metal-background-denied", "libc++abi: terminating due to uncaught exception of type std::runtime_error: [METAL] Command buffer "
                                    "execution failed: Insufficient Permission (to submit GPU work from background) "
                                    "(00000006:kIOGPUCommandBufferCallbackErrorBackgroundExecutionNotPermitt\n",
         [(OOM, "gpu_background_denied", 1), ("gpu.backend", "metal", 1)]),
    # Vulkan's allocation status by its number: -2 the device's memory, -1 the host's
    case("vk-allocate-device", "vkAllocateMemory failed -2\n", [(OOM, "cuda_error_oom", 1), ("gpu.backend", "vulkan", 1)]),
    case("vk-allocate-host", "vkAllocateMemory failed -1\n", [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1)]),
    # TensorRT's builder: skipped tactics are a notice; its advice to lower the workspace names the pool's limit
    case("trt-tactics-workspace-notice", "[TRT]: Some tactics do not have sufficient workspace memory to run. Increasing workspace size "
                                         "may increase performance, please check verbose output.\n", [(OOM, "memory_notice", 1)]),
    case("trt-workspace-limit", lines("WARNING: [TRT]: Requested amount of GPU memory (4294967296 bytes) could not be allocated. "
                                      "There may not be enough free memory for allocation to succeed.",
                                      "Try decreasing the workspace size with IBuilderConfig::setMemoryPoolLimit()."),
         [("oom.requested_bytes", 4294967296, 1), ("oom.hint", "engine_build", 1), ("oom.hint", "engine_build", 2),
          ("oom.hint", "trt_workspace_limit", 2)]),
    # TensorFlow's allocator on a request its caller can do without: a notice, not a failure
    case("tf-bfc-not-a-failure", "2019-01-08 14:17:28.210777: W tensorflow/core/common_runtime/bfc_allocator.cc:215] Allocator (GPU_0_bfc) "
                                 "ran out of memory trying to allocate 3.54GiB. The caller indicates that this is not a failure, but may "
                                 "mean that there could be performance gains if more memory were available.\n",
         [(OOM, "memory_notice", 1)]),
    # an offline conversion reads the checkpoint into host RAM
    case("optimum-export", "Running: optimum-cli export openvino --model Qwen/Qwen3-Coder-Next --weight-format int8 out\n",
         [("oom.hint", "build_loads_on_host", 1)]),
]

ROUND_155 = [
    # the kernel's OOM killer before 4.x: it chose first, then killed ("Kill process", not "Killed process")
    case("kernel-oom-kill-old", "Out of memory: Kill process 7248 (python3) score 266 or sacrifice child\n",
         [(OOM, "kernel_oom_kill", 1), ("host.kernel_oom_kill", "Out of memory: Kill process 7248 (python3)", 1),
          ("oom.exit_signal", "SIGKILL", 1)]),
    # TensorFlow's tensor out-of-memory with no allocator named (a paste cut it, or an older release): the device the
    # tensor was for; the kernel that failed, by its source file, is a pass over the input or the load
    case("tf-tensor-oom-no-allocator", "2018-09-13 20:19:19.562196: W tensorflow/core/framework/op_kernel.cc:1275] OP_REQUIRES failed at "
                                       "transpose_op.cc:199 : Resource exhausted: OOM when allocating tensor with shape[1,32,952,1424] "
                                       "and type float on /job:localhost/replica:0/task:0/device:GPU:0\n",
         [(OOM, "cuda_error_oom", 1), ("oom.requested_bytes", 4 * 32 * 952 * 1424, 1)], phase="prefill"),
    # a runtime's CUDA status other than out of memory, in ONNX Runtime's and Triton's words: no memory ran out
    case("ort-cuda-failure-invalid", "Status Message: CUDA failure 1: invalid argument ; GPU=0 ; hostname=*** ;\n",
         [("error.final", "ONNX Runtime's CUDA call returned CUDA_ERROR_INVALID_VALUE: not out of memory", 1)]),
    case("ort-cuda-failure-oom", "Status Message: CUDA failure 2: out of memory ; GPU=0 ; hostname=*** ;\n", [(OOM, "cuda_error_oom", 1)]),
    case("triton-cnmem-invalid", "E1203 05:19:54.453868 1 server.cc:163] Failed to finalize CUDA memory manager: CNMEM_STATUS_INVALID_ARGUMENT\n",
         [("error.final", "Triton's CUDA memory manager failed (CNMEM_STATUS_INVALID_ARGUMENT): not out of memory, a GPU or driver it "
                          "does not support", 1)]),
    case("tf-op-requires-initializer", "W tensorflow/core/framework/op_kernel.cc:1767] OP_REQUIRES failed at random_op.cc:77 : Resource "
                                       "exhausted: OOM when allocating tensor with shape[3,3,512,1024] and type float on "
                                       "/job:localhost/replica:0/task:0/device:CPU:0\n",
         [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1), ("oom.requested_bytes", 4 * 3 * 3 * 512 * 1024, 1)],
         phase="load_weights"),
]

ROUND_156 = [
    # Tenstorrent's trace region, a reserved region sized by a setting, smaller than the traces a warm-up records (the
    # message's two halves on one line or two)
    case("tt-trace-region", "TT_FATAL: Creating trace buffers of size 55820288B on MeshDevice 0, but only 50000000B is allocated for trace region.\n",
         [(OOM, "region_outgrown", 1), ("oom.hint", "trace_region", 1), ("oom.requested_bytes", 55820288, 1), ("oom.pool_bytes", 50000000, 1),
          ("gpu.backend", "tenstorrent", 1)]),
    case("tt-trace-region-two-lines", "  Creating trace buffers of size 93102080B on MeshDevice 0,\n  but only 58000000B is allocated for trace region\n",
         [(OOM, "region_outgrown", 1), ("oom.hint", "trace_region", 1), ("oom.requested_bytes", 93102080, 1), ("oom.pool_bytes", 58000000, 2),
          ("gpu.backend", "tenstorrent", 1)]),
    case("tt-trace-region-check", "RuntimeError: TT_FATAL @ mesh_trace.cpp:78: mesh_cq.device()->get_trace_buffers_size() <= trace_region_size\n",
         [(OOM, "region_outgrown", 1), ("oom.hint", "trace_region", 1), ("gpu.backend", "tenstorrent", 1)]),
    case("tt-l1-small", "Out of Memory: Not enough space to allocate 192 B L1_SMALL buffer across 48 banks, where each bank needs to store 32 B\n",
         [(OOM, "region_outgrown", 1), ("oom.hint", "l1_small_region", 1), ("oom.requested_bytes", 192, 1), ("gpu.backend", "tenstorrent", 1)]),
    # a device compiler that could not build the model's program: not memory; a wrapper's "failed for <file>" relays it
    case("npu-compiler-failed-pass", "[vpux-compiler] Failed Pass ForbidFourBitOutputs\n",
         [("error.final", "the device's compiler could not build the model's program (Failed Pass ForbidFourBitOutputs): an operation, "
                          "precision or shape it does not support, not a lack of memory", 1)]),
    case("sycl-build-program", " -11 (PI_ERROR_BUILD_PROGRAM_FAILURE)Exception caught at file:ggml-sycl.cpp, line:3781\n",
         [("error.final", "the device's compiler could not build the model's program (PI_ERROR_BUILD_PROGRAM_FAILURE): an operation, "
                          "precision or shape it does not support, not a lack of memory", 1)]),
    case("compiler-wrapper-relays", "ERROR ||NEURON_CC_WRAPPER||: Compilation failed for /tmp/model.hlo_module.pb after 0 retries.\n",
         []),
    # a CUDA API status as cuda-gdb reports it: the number decides
    case("cuda-api-error-detected", "warning: Cuda API error detected: cudaLaunchKernel returned (0x9)\n",
         [("error.final", "cudaLaunchKernel returned status 9: not out of memory", 1)]),
    case("cuda-api-error-detected-oom", "warning: Cuda API error detected: cudaMalloc returned (0x2)\n", [(OOM, "cuda_error_oom", 1)]),
    # an older project's assertion macro reads as GGML_ASSERT does
    case("llama-assert", "LLAMA_ASSERT: /home/runner/src/llama/llama.cpp:918: false\n",
         [("error.final", "LLAMA_ASSERT: /home/runner/src/llama/llama.cpp:918: false", 1)]),
    # OpenVINO's failed check: a cause, unless it only says an earlier step did not succeed
    case("openvino-check", "Check '::getPort(port, name, {_impl->get_inputs(), _impl->get_outputs()})' failed at src/inference/src/cpp/infer_request.cpp:80:\n",
         [("error.final", "a failed check (Check '::getPort(port, name, {_impl->get_inputs(), _impl->get_outputs()})' failed at "
                          "src/inference/src/cpp/infer_request.cpp:80:): an invariant of the code, not memory", 1)]),
    case("openvino-check-relays", "Check 'false' failed at src/plugins/intel_gpu/src/plugin/program_builder.cpp:168:\n", []),
    case("file-write-no-space", "OSError: Not enough free space to write 156797952 bytes\n",
         [("error.final", "the converter could not grow its output file (Not enough free space to write): the disk or its quota is full, "
                          "not memory", 1)]),
    # the frame that failed names an attention kernel's workspace, or FlashInfer's sampler over the logits
    case("workspace-frame", 'File "/opt/vllm/vllm/v1/attention/backends/flashinfer.py", line 753, in _get_workspace_buffer\n',
         [("oom.hint", "op_workspace", 1), ("oom.hint", "traceback", 1)]),
    # PyTorch's start-up warning that its build has no kernels for the card
    case("torch-arch-not-compatible", "NVIDIA GeForce RTX 5060 Ti with CUDA capability sm_120 is not compatible with the current PyTorch installation.\n",
         [(OOM, "no_kernel_image", 1)]),
    # a Windows status: E_INVALIDARG is a refused call, E_OUTOFMEMORY is memory
    case("hresult-invalidarg", "DirectML.dll!00007FFF57CE26E6: (caller: 00007FFF57E00FC5) Exception(1) tid(a48c) 80070057 The parameter is incorrect.\n",
         [("error.final", "Windows status 80070057 (E_INVALIDARG, a parameter is incorrect): a call the driver or the library refused, not memory", 1)]),
    case("hresult-outofmemory", "Exception(3) tid(1f0) 8007000E Not enough memory resources are available to complete this operation.\n",
         [(OOM, "cuda_error_oom", 1), ("gpu.backend", "directml", 1)]),
    case("cxx-vector-max-size", "[TensorRT-LLM][ERROR] Encountered an error in forwardSync function: cannot create std::vector larger than max_size()\n",
         [("error.final", "a C++ container asked for more elements than it can count (cannot create std::vector larger than max_size()): "
                          "a size computed wrong, not a lack of memory", 1)]),
    # a kill glued to the progress bar it cut
    case("killed-after-progress-bar", "collecting calibration activations in model.layers.25:  77%|\u2588\u2588\u2588Killed\n",
         [(OOM, "killed", 1), ("oom.exit_signal", "SIGKILL", 1), ("oom.hint", "quantizing", 1)]),
    # a quantization job by its own progress lines; not a model named after the tool that quantized it
    case("quantizing-job-table", "INFO  | gptq        | 56        | self_attn.k_proj     | 0.0001644955 | 462487      |\n", [("oom.hint", "quantizing", 1)]),
    case("quantizing-tool-in-model-name", "vllm serve /models/Qwen3-8B-W4A16-AutoRound-fast --max-model-len 10000\n",
         [("knob.model", "/models/Qwen3-8B-W4A16-AutoRound-fast", 1), ("knob.max_model_len", 10000, 1)], framework="vllm"),
    case("flashinfer-sampling-frame", 'File "/usr/local/lib/python3.12/dist-packages/flashinfer/sampling.py", line 981, in top_k_top_p_sampling_from_logits\n',
         [("oom.hint", "sampler_logits", 1), ("oom.hint", "traceback", 1)]),
]

ROUND_158 = [
    # a compiler driver's child ended by SIGKILL, in its own words
    case("compile-returned-minus-9", "INFO:Neuron:Compile command returned: -9\n", [(OOM, "killed", 1), ("oom.exit_signal", "SIGKILL", 1)]),
    # a compiler's internal error and a graph compiler's failure name no memory
    case("neuron-ice", "2023-10-25T08:32:15Z ERROR 50940 [neuronxcc.driver.CommandDriver]:  An Internal Compiler Error has occurred\n",
         [("error.final", "the device's compiler could not build the model's program (An Internal Compiler Error has occurred): an operation, "
                          "precision or shape it does not support, not a lack of memory", 1)]),
    case("gaudi-graph-compile", "[PT_BRIDGE][error] synapse_helpers/graph.cpp: 599Graph compile failed. synStatus=synStatus 26 [Generic failure]. compile\n",
         [("error.final", "the device's compiler could not build the model's program (Graph compile failed): an operation, "
                          "precision or shape it does not support, not a lack of memory", 1)]),
    # NeuronCores held by another process
    case("neuron-cores-taken", "nrtd[20664]: [NMGR:kmgr_create_eg] Not enough free NCs to allocate 2 members group\n", [(OOM, "device_taken", 1)]),
    # a runner relaying ROCm's missing kernel file: not memory
    case("rocm-kernel-file-relayed", 'error="runner crashed" detail="error: Cannot read /usr/local/lib/ollama/rocm/rocblas/library/TensileLibrary.dat: '
                                     'Illegal seek for GPU arch : gfx1035"\n',
         [("error.final", "ROCm's BLAS library could not read its kernel file TensileLibrary.dat: a build without kernels for this GPU, "
                          "or the process out of open files (ulimit -n); not memory", 1)]),
    # the engine whose offline tool ran: a fork's copy of llama.cpp's converter and its logger; ExLlama's converter by its
    # measurement lines; TensorRT-LLM's quantization example by its flag
    case("gguf-converter-fork", "INFO:hf-to-gguf:Loading model: Llama3-8B-1.58-100B-tokens\n", [], framework="llamacpp"),
    case("exllama-convert-measure", " -- 1.0:5b 128g s4                 5.03 bpw    rfn_error: 0.00671\n", [], framework="exllama"),
    case("trtllm-quantize-example", "python quantize.py --model_dir ./hf/ --dtype float16 --qformat int4_awq --export_path ./q --calib_size 32\n",
         [("knob.dtype", "float16", 1), ("oom.hint", "quantizing", 1)], framework="tensorrt-llm"),
]

ROUND_159 = [
    # a traceback's final line under a bare time stamp
    case("timestamped-timeout", "09:14:37 TimeoutError: RPC call to sample_tokens timed out.\n",
         [("error.timeout", "09:14:37 TimeoutError: RPC call to sample_tokens timed out.", 1)]),
    # the driver's Xid events for the device itself and for a GPU that stopped processing
    case("xid-62-halt", "kern: warning: NVRM: Xid (PCI:0000:48:00): 62, 00002740 00002b08 00001126 0000117a\n", [(OOM, "device_lost", 1)]),
    case("xid-46-stopped", "NVRM: Xid (PCI:0000:3b:00): 46, GPU stopped processing\n", [(OOM, "gpu_timeout", 1)]),
    # a CUDA kernel's own assertion in a header, not only in a .cu file
    case("device-assert-header", "/src/cutlass/arch/memory_sm75.h:208: void cutlass::arch::ldsm(const void *) [with MatrixCount = 4]: "
                                 "block: [0,21,0], thread: [95,0,0] Assertion `0 && __PRETTY_FUNCTION__` failed.\n",
         [(OOM, "device_assert", 1)]),
    # statuses that name no memory: PTX from a newer toolkit in a library's words, a backend without the operation's
    # kernel, llama.cpp without its Metal backend, a model file with the wrong tensor count, CUTLASS's internal error,
    # Ascend without a device, Neuron's core count, and Qualcomm's card out of memory
    case("ptx-toolchain-library", "FastllmCudaHalfPagedAttentionBatch: FlashInfer error: the provided PTX was compiled with an unsupported toolchain.\n",
         [("error.final", "the provided PTX was compiled with an unsupported toolchain: a CUDA toolkit newer than the driver (upgrade the "
                          "driver or install a build for it), not a lack of memory", 1)]),
    case("ggml-unsupported-op", "ggml_metal_encode_node: error: unsupported op 'CPY'\n",
         [("error.final", "ggml's backend has no kernel for the operation CPY (a build older than the model, or a cache type it does not "
                          "support): not a lack of memory", 1)]),
    case("metal-backend-init", "llama_new_context_with_model: failed to initialize Metal backend\n",
         [("error.final", "llama.cpp could not start its Metal backend (no Metal device, or a shader library that did not load): the run "
                          "stopped before any buffer was allocated, not a lack of memory", 1)]),
    case("ggml-tensor-count", "llama runner process has terminated: signal: abort trap error:done_getting_tensors: wrong number of tensors; "
                              "expected 255, got 254\n",
         [("error.final", "the model file holds 254 tensors where its architecture names 255 (a download cut short, or a model newer than "
                          "the build): not a lack of memory", 1)]),
    case("cutlass-internal", "CUTLASS 87a built for 120a: Got cutlass error: Error Internal at: 420\n",
         [("error.final", "CUTLASS could not run its kernel (Error Internal): a build for another architecture or a shape it does not "
                          "support, not a lack of memory", 1)]),
    case("cutlass-memory-not-final", "Got cutlass error: Error Memory Allocation at: 88\n", []),
    case("ascend-no-device", "rtMemGetInfoEx execution failed, reason=driver error:no valid device[FUNC:FuncErrorReason]\n",
         [("error.final", "the NPU's driver found no valid device (a driver, container or card problem): the memory query failed for "
                          "that, not for a lack of memory", 1)]),
    case("neuron-topology", "ERROR   NRT:nrt_load_collectives   Unsupported topology. Supported number of Neuron Cores is 1, 2, 8, 16 or a "
                            "multiple of 32.  For other configurations\n",
         [("error.final", "AWS Neuron's runtime: Unsupported topology. Supported number of Neuron Cores is 1, 2, 8, 16 or a multiple of 32: "
                          "the tensor-parallel degree names a core count it cannot connect, not a lack of memory", 1)]),
    case("qaic-activate", "ERROR : [09:28:07.820][error][QKmdDevice][activate:#1172] Device 0 activate failed: Memory resource exhausted\n",
         [(OOM, "cuda_error_oom", 1), ("gpu.backend", "qaic", 1)]),
]

ROUND_160 = [
    # a CUDA or HIP runtime allocation in an engine's own words: the device's, and pinned host memory's
    case("hipmalloc-own-words", "DFlash draft load failed draft scratch: HipError(2): hipMalloc: out of memory\n", [(OOM, "cuda_error_oom", 1)]),
    case("cudamallochost-pinned", "FATAL server failed during startup | cudaMallocHost failed: cudaErrorMemoryAllocation: out of memory\n",
         [(OOM, "host_alloc_failed", 1), ("oom.hint", "pinned_host", 1), (OOM, "cuda_error_oom", 1)]),
    # refusals that name no memory: Metal's API check without its leading dash, a runtime's failed check, TensorRT's
    # parameters outside the profile, llama.cpp's context refused for a setting, a transport's registration
    case("metal-api-assertion-no-dash", "[MTLComputePipelineDescriptorInternal setComputeFunction:withType:]:722: failed assertion "
                                        "`computeFunction must not be nil.'\n",
         [("error.final", "Metal's API check failed (computeFunction must not be nil.): the engine misused the API, not memory", 1)]),
    case("glog-check-failed", "/src/tvm/src/runtime/ndarray.cc:213: Check failed: relative_byte_offset + view_size <= curr_size (32727630 vs. 518400)\n",
         [("error.final", "a runtime's check failed (relative_byte_offset + view_size <= curr_size (32727630 vs. 518400)): a size or shape "
                          "the code did not expect, not a lack of memory", 1)]),
    case("glog-check-alloc-not-final", "/src/bfc_allocator.cc:88: Check failed: allocator != nullptr\n", []),
    case("trt-api-usage", "[TRT] [E] IExecutionContext::setInputShape: Error Code 3: API Usage Error (Parameter check failed, condition: "
                          "satisfyProfile.)\n",
         [("error.final", "TensorRT refused the call's parameters (API Usage Error: Parameter check failed, condition: satisfyProfile.)): "
                          "an input outside what the engine was built for, not a lack of memory", 1)]),
    case("ggml-context-reason", "llama_init_from_model: failed to initialize the context: dflash requires ctx_other to be set\n",
         [("error.final", "llama.cpp refused the context: dflash requires ctx_other to be set: a setting or a build, not a lack of memory", 1),
          ("oom.hint", "context_failed", 1)]),
    case("ascend-register-mem", "E0805 09:42:09.763501 80495 ascend direct transport.cpp:460 Register mem ret:103900.\n",
         [("error.final", "Register mem ret:103900: the network card could not register the buffer for RDMA (GPUDirect RDMA, the driver "
                          "or the transfer engine's version), not a lack of memory", 1)]),
    # a final line under uvicorn's level prefix and in asyncio's report of a future's exception
    case("uvicorn-level-prefix", "ERROR:    RuntimeError: Unsupported dtype for this kernel\n",
         [("error.final", "ERROR:    RuntimeError: Unsupported dtype for this kernel", 1)]),
    case("asyncio-future-exception", "future: <Future finished exception=AssertionError('seq_len 512 should be equal to N_txt + N_img')>\n",
         [("error.final", "future: <Future finished exception=AssertionError('seq_len 512 should be equal to N_txt + N_img')>", 1)]),
    # TabbyAPI's request over the context: the prompt and the tokens asked for, and the context
    case("tabby-request-over-context", "ERROR:    ValueError: Request length 71599 + 2048 is greater than max_seq_len 65536\n",
         [(OOM, "request_over_context", 1), ("mem.prefill_tokens", 73647, 1), ("knob.max_model_len", 65536, 1)]),
]

ROUND_161 = [
    # amdgpu's watchdog on a ring that stopped, as journalctl keeps the line alone
    case("amdgpu-ring-timeout-alone", "ring comp_1.1.0 timeout\n", [(OOM, "device_lost", 1)]),
    # jobs known by their own commands and lines (TensorRT-LLM's quantization script is read in ROUND_158's case):
    # LLaMA-Factory's export (a merge on the CPU), Hugging Face's exporters naming the framework they trace; LLaMA-Factory's
    # commands run transformers
    case("llamafactory-export", "llamafactory-cli export examples/merge_lora/llama3_lora_sft.yaml\n",
         [("oom.hint", "build_loads_on_host", 1)], framework="transformers"),
    case("exporters-framework-line", "Using framework PyTorch: 2.1.0\n", [("oom.hint", "build_loads_on_host", 1)]),
    # Unsloth merging LoRA weights into the 16-bit model, by its message and by its save.py in an IPython traceback
    case("unsloth-merge-message", "Unsloth: Merging 4bit and LoRA weights to 16bit...\n", [("oom.hint", "merge_gpu_share", 1)]),
    case("unsloth-merge-frame", "File /usr/local/lib/python3.10/dist-packages/unsloth/save.py:1298, in unsloth_save_pretrained_merged(self)\n",
         [("oom.hint", "merge_gpu_share", 1)]),
    # a shell prompt's environment named vllm is not vLLM
    case("prompt-env-named-vllm", "(vllm) user@host:/data/LLaMA-Factory$ llamafactory-cli export examples/merge.yaml\n",
         [("oom.hint", "build_loads_on_host", 1)], framework="transformers"),
]

ROUND_162 = [
    # macOS's crash report (and lldb's stop reason) for a touch of an unmapped address: a crash, not a kill for memory
    case("macos-bad-access", "Exception Type:  EXC_BAD_ACCESS (SIGSEGV)\n",
         [(FINAL, "EXC_BAD_ACCESS: the process crashed (SIGSEGV, a segmentation fault), it was not killed for memory", 1)]),
    # the IOMMU's report of a device's access outside its mappings is a fault
    case("iommu-io-page-fault", "[234620.907219] mtgpu 0000:81:00.0: AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x0010 "
         "address=0x7da7796200 flags=0x0000]\n", [(OOM, "illegal_memory_access", 1)]),
    # Ascend's vector core exception (with the FFTS+ prefix) and its MTE address line as a paste cuts it
    case("ascend-fftsplus-aivector", "PrintCoreInfo:The error from device(chipId:3, dieId:1), serial number is 1, there is an "
         "exception of fftsplus aivector error, core id is 7\n", [(OOM, "illegal_memory_access", 1)]),
    case("ascend-mte-cut", "PrintCoreInfo:The extend info: errcode:(0x800000, 0, 0) errorStr: The DDR address of the MTE instruction is\n",
         [(OOM, "illegal_memory_access", 1)]),
    # the shell's localized "Killed" glued to the progress bar the kill cut
    case("killed-zh-after-progress-bar", "  0%|          | 0/1 [00:00<?, ?it/s]已杀死\n",
         [(OOM, "killed", 1), ("oom.exit_signal", "SIGKILL", 1)]),
    # a server's pinned host buffer pool with too few buffers left for a model
    case("pinned-pool-oom", "E20250102 11:26:26.954870 2775106 pinned_memory_pool.cpp:64] PinnedMemoryPool out of memory "
         "(358 buffers available, 794 buffers needed)\n", [(OOM, "host_alloc_failed", 1), ("oom.hint", "pinned_host", 1)]),
    # Paddle's allocator on a Kunlun XPU
    case("paddle-kunlun-xpu-oom", "OSError: (External) XPU API return wrong value[-705], no enough memory\n",
         [(OOM, "cuda_error_oom", 1), ("gpu.backend", "kunlun", 1)]),
    # IPython's arrow on the raising frame, where the notebook paste stops above the exception's own line; an allocator's
    # raise there stays a memory failure
    case("ipython-raise-line", "---> 21 m = m.merge_and_unload()\n"
         "--> 352     raise ValueError(\"Cannot merge LORA layers when the model is loaded in 8-bit mode\")\n",
         [(FINAL, "ValueError: Cannot merge LORA layers when the model is loaded in 8-bit mode", 2)]),
]

ROUND_163 = [
    # Node's V8 heap limit is the process's heap in host RAM
    case("v8-heap-oom", "FATAL ERROR: Ineffective mark-compacts near heap limit Allocation failed - JavaScript heap out of memory\n",
         [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1), ("oom.hint", "managed_heap", 1)]),
    # the shell's kill report as a paste quotes it
    case("zsh-killed-quoted", '"zsh: killed ./SwiftLM....." \n', [(OOM, "killed", 1), ("oom.exit_signal", "SIGKILL", 1)]),
    # ROCm's queue aborting on a kernel's hardware exception is a fault
    case("hsa-hardware-exception", ":0:rocdevice.cpp:3586: Callback: Queue 0x7f78cb400000 aborting with error : "
         "HSA_STATUS_ERROR_EXCEPTION: An HSAIL operation resulted in a hardware exception. code: 0x1016\n",
         [(OOM, "illegal_memory_access", 1)]),
    # Triton's fp8 type missing on an older card, and Apple's Neural Engine compiler failing: not memory
    case("triton-fp8-unsupported", "type fp8e4nv not supported in this architecture. The supported fp8 dtypes are ('fp8e4b15', 'fp8e5')\n",
         [(FINAL, "Triton cannot build this fp8 kernel for this GPU generation (its fp8 type is not supported here): a newer card "
                  "or another kernel path, not memory", 1)]),
    case("ane-compile-failed", "E5RT: ANE error: failed to compile ANE model using ANEF. Error=_ANECompiler : ANECCompile() FAILED (11)\n",
         [(FINAL, "Apple's Neural Engine compiler could not compile the model (ANECCompile): a model or OS-version limit, not a "
                  "lack of memory", 1)]),
]

ROUND_164 = [
    # ggml's Metal device context not created, with nothing above it: the backend did not start
    case("metal-device-init-failed", "flutter: [llama.cpp] ggml_backend_metal_device_init: error: failed to allocate context\n",
         [(FINAL, "llama.cpp could not start its Metal backend (no Metal device, or a shader library that did not load): the run "
                  "stopped before any buffer was allocated, not a lack of memory", 1)], framework="llamacpp"),
    # OpenCL's queue lost under a launch, Android's heap corrupted, Android's foreground-service timeout: none is memory
    case("opencl-invalid-queue", "Failed to clEnqueueNDRangeKernel - Invalid command queue\n",
         [(FINAL, "OpenCL's command queue became invalid (the driver lost it: a kernel fault or a device reset), not a lack of memory", 1)]),
    case("scudo-heap-corruption", "Abort message: 'Scudo ERROR: invalid chunk state when deallocating address 0x200007b5e2ad0'\n",
         [(FINAL, "Android's allocator (Scudo) found its heap corrupted (a double free or an overrun), not a lack of memory", 1)]),
    case("android-foreground-timeout", "ActivityManager: Context.startForegroundService() did not then call Service.startForeground(): "
         "RecordingService\n",
         [(FINAL, "Android stopped the app because its service did not reach the foreground in time (a start-up timeout), not for "
                  "memory", 1)]),
]

ROUND_165 = [
    # TensorRT's check with its condition in words: the condition is the cause (a setting), unless the paste cuts it
    case("trt-assertion-words", "[TensorRT-LLM][ERROR] Assertion failed: Do not set crossKvCacheFraction for decoder-only model\n",
         [(FINAL, "Assertion failed: Do not set crossKvCacheFraction for decoder-only model", 1)]),
    case("trt-assertion-cut", "what(): [TensorRT-LLM][ERROR] Assertion failed: maxTo\n", []),
    # an error that names the KV cache and states no shortfall of it checks its settings: the cause
    case("kv-spec-check", "ValueError: Hybrid KV cache manager is disabled but failed to convert the KV cache specs to one unified type.\n",
         [(FINAL, "ValueError: Hybrid KV cache manager is disabled but failed to convert the KV cache specs to one unified type.", 1)]),
    case("kv-shortfall-not-a-cause", "ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization`\n",
         [(OOM, "no_kv_memory", 1)]),
    # ROCm's runtime finding memory still in use by the device where it frees it: a fault, not a full device
    case("hsa-memory-in-use", "Memory critical error by agent node-0 (Agent handle: 0x560304d08f00) on address 0x7f091de3f000. "
         "Reason: Memory in use.\n", [(OOM, "illegal_memory_access", 1)]),
]

ROUND_166 = [
    # macOS's GPU panic with its cpu and address masked, or with the word alone: the same driver fault
    case("iogpu-panic-masked", 'panic(cpu N caller 0xXXXX): "completeMemory() prepare count underflow" @IOGPUMemory.cpp:550\n',
         [(FINAL, "the macOS kernel panicked in its GPU driver's memory bookkeeping (completeMemory() prepare count underflow at "
                 "IOGPUMemory.cpp:550): a driver fault (a runtime release or heavy unified-memory pressure triggers it); no allocation failed", 1)]),
    case("iogpu-panic-bare", 'panic: "completeMemory() prepare count underflow" @IOGPUMemory.cpp:550\n',
         [(FINAL, "the macOS kernel panicked in its GPU driver's memory bookkeeping (completeMemory() prepare count underflow at "
                 "IOGPUMemory.cpp:550): a driver fault (a runtime release or heavy unified-memory pressure triggers it); no allocation failed", 1)]),
    # Triton's Python backend region cut before its size: /dev/shm all the same
    case("triton-shm-no-size", "Unable to initialize shared memory key 'triton_python_backend_shm_region_2' to requested size\n",
         [(OOM, "shm_exhausted", 1)]),
    # the kubelet evicting a pod because the node ran low on RAM
    case("kubelet-memory-eviction", "Message: The node was low on resource: memory. Container plugin-daemon was using 11423936Ki, "
         "which exceeds its request of 0.\n", [(OOM, "killed", 1)]),
    # WebGPU's per-binding cap: a device limit on one buffer
    case("webgpu-binding-size", "    Buffer binding 0 range 524288000 exceeds `max_*_buffer_binding_size` limit 134217728\n",
         [(OOM, "vulkan_max_buffer_size", 1), ("oom.requested_bytes", 524288000, 1)]),
    # a watchdog's kill that says why: a timeout, not the OOM killer
    case("watchdog-kill", "[ERROR]init environment failed: failed to install dependencies: signal: killed, output: init process exited "
         "due to no activity for 120 seconds, retry in 30s\n",
         [("error.timeout", "signal: killed, output: init process exited due to no activity for 120 seconds", 1)]),
    # Ollama's runner exiting with status 2: a Go panic or a fatal signal in its native code
    case("ollama-runner-exit-2", "Error: llama runner process has terminated: exit status 2\n",
         [(FINAL, "the runner crashed (exit status 2: a Go panic, or a fatal signal in its native code such as a segmentation fault); "
                  "its own lines above name the cause", 1)]),
    # ggml-vulkan's allocation failure cut after its size: the line is printed only on failure
    case("vulkan-alloc-cut", "ggml_vulkan: Device memory allocation of size 63547340\n",
         [(OOM, "ggml_alloc_failed", 1), ("oom.requested_bytes", 63547340, 1), ("oom.buffer_device", "GPU", 1)]),
]

ROUND_167 = [
    # text-embeddings-inference refusing an input over the model's tokens: the request, not memory
    case("tei-input-over-tokens", "text_embeddings_core::infer: core/src/infer.rs:83: Input validation error: `inputs` must have less than "
         "512 tokens. Given: 551\n",
         [(OOM, "request_over_context", 1), ("mem.prefill_tokens", 551, 1), ("knob.max_model_len", 512, 1)]),
    # llama-server's embedding input over one physical batch, in the wording that names its tokens
    case("llamacpp-input-tokens-over-ubatch", "srv    send_error: task id = 24528, error: input (681 tokens) is too large to process. "
         "increase the physical batch size (current batch size: 512)\n",
         [(OOM, "request_rejected", 1), ("oom.hint", "input_over_ubatch", 1), ("mem.prefill_tokens", 681, 1), ("knob.ubatch_size", 512, 1)]),
    # an attention kernel library's op in the traceback: a layer computing
    case("fla-ops-frame", lines('(Worker) ERROR  File ".../flash_linear_attention/ops/chunk_delta_h.py", line 357,',
                                "(Worker) ERROR  torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.25 GiB."),
         [(OOM, "torch_oom", 2), ("oom.requested_bytes", GiB(1.25), 2)], phase="prefill"),
]

ROUND_168 = [
    # the caching allocator's own bookkeeping checks (not NVML's, which replaces an OOM report): a PyTorch bug
    case("torch-allocator-assert", 'RuntimeError: captures_underway.empty() INTERNAL ASSERT FAILED at "../c10/cuda/CUDACachingAllocator.cpp":2967; '
         "please report a bug to PyTorch. \n",
         [(FINAL, "the caching allocator's own check failed (captures_underway.empty()): its bookkeeping went wrong (a PyTorch bug, "
                  "often with graph capture or memory pools), not a lack of memory", 1)]),
    case("torch-allocator-assert-comparison", "ERROR - Error in generation loop: it->second->use_count > 0 INTERNAL ASSERT FAILED at "
         '"/__w/pytorch/pytorch/c10/cuda/CUDACachingAllocator.cpp":3332, please report a bug to PyTorch. \n',
         [(FINAL, "the caching allocator's own check failed (it->second->use_count > 0): its bookkeeping went wrong (a PyTorch bug, "
                  "often with graph capture or memory pools), not a lack of memory", 1)]),
    # (NVML's own assertion in the same file is the OOM report it replaces, not a bookkeeping bug)
    case("torch-nvml-assert-is-not-bookkeeping", 'RuntimeError: NVML_SUCCESS == r INTERNAL ASSERT FAILED at "../c10/cuda/CUDACachingAllocator.cpp":844, '
         "please report a bug to PyTorch.\n", [(OOM, "torch_oom", 1), ("oom.hint", "nvml_assert", 1)]),
    # Ray Serve's health check reporting its replicas' workers killed by the memory monitor
    case("ray-serve-workers-killed", "14 worker(s) were killed due to the node running low on memory. ... 28.64GB used / 30.00GB limit\n",
         [(OOM, "ray_oom_kill", 1)]),
    # user-space OOM killers: earlyoom and systemd-oomd
    case("earlyoom-kill", 'Aug 04 10:39:10 host earlyoom[845]: sending SIGTERM to process 322603 uid 1000 "python3.13": oom_score 1282, '
         "VmRSS 29931 MiB\n", [(OOM, "killed", 1)]),
    case("systemd-oomd-kill", "Dec 01 09:12:44 host systemd-oomd[713]: Killed /user.slice/user-1000.slice/user@1000.service/app.slice/app-llama.scope "
         "due to memory pressure for /user.slice/user-1000.slice/user@1000.service being 61.05% > 50.00% for > 20s with reclaim activity\n",
         [(OOM, "killed", 1)]),
    case("systemd-oomd-unit-line", "Dec 18 19:34:56 host systemd[1837]: vte-spawn-1.scope: systemd-oomd killed 12 process(es) in this unit.\n",
         [(OOM, "killed", 1)]),
    # MegEngine's cudaMalloc report states the request, what was free and the card's total
    case("megengine-cudamalloc-figures", "11 16:42:50[mgb] ERR cudaMalloc failed while requesting 57933824 bytes (55.250MiB) of memory; error: out of "
         "memory(last_err=2(out of memory) device=0 mem_free=29.312MiB mem_tot=24220.312MiB)\n",
         [(OOM, "cuda_error_oom", 1), ("oom.requested_bytes", 57933824, 1), ("oom.gpu_free_bytes", 30735860, 1),
          ("oom.gpu_total_bytes", 25396837876, 1)]),
    # a report whose figures a paste set in bold
    case("torch-oom-bold-figures", "Tried to allocate **144.00 MiB** (GPU 0; 23.99 GiB total capacity; 14.22 GiB already allocated; **7.57 GiB "
         "free**; 14.43 GiB reserved in total by PyTorch)\n",
         [(OOM, "torch_oom", 1), ("oom.requested_bytes", 150994944, 1), ("oom.gpu_free_bytes", 8128225608, 1), ("oom.device", "0", 1),
          ("oom.gpu_total_bytes", 25759066358, 1), ("oom.torch_allocated_bytes", 15268608737, 1), ("oom.torch_reserved_bytes", 15494094520, 1),
          ("oom.torch_unallocated_bytes", 225485783, 1)]),
    # UCX's shared-memory transport could not map its receive queue: /dev/shm
    case("ucx-mm-fifo", "mm_iface failed to allocate receive FIFO\n", [(OOM, "shm_exhausted", 1)]),
    # Metal Performance Shaders' buffer-against-shape check: a bug in the op
    case("mps-buffer-too-small", "/AppleInternal/Library/BuildRoots/x/MPSCore/Types/MPSNDArray.mm:782: failed assertion `[MPSNDArray, "
         "initWithBuffer:descriptor:] Error: buffer is not large enough. Must be 201452 bytes\n",
         [(FINAL, "[MPSNDArray, initWithBuffer:descriptor:] Error: buffer is not large enough. Must be 201452 bytes: Metal's shaders were "
                  "given a buffer smaller than the array's shape, a bug in the op (often fixed in a later PyTorch or macOS), not a lack of memory", 1)]),
]

_GGML_ABORT = ("ggml aborted on a failed check (a GGML_ASSERT or GGML_ABORT in its backtrace): where no memory failure is stated, a bug or "
               "an unsupported case, not a lack of memory")

ROUND_169 = [
    # library and build faults that stop a run with no memory failure: rocBLAS, a SYCL kernel missing, a GPU index past
    # the devices (in a line other ranks' output garbled)
    case("rocblas-tensile-exception", 'rocBLAS error: Tensile solution found, but exception thrown for { a_type: "f16_r", b_type: "f16_r" }\n',
         [(FINAL, "rocBLAS error: Tensile solution found, but exception thrown: ROCm's BLAS library stopped (a library, build or device "
                  "fault for this GPU), not a lack of memory", 1)]),
    case("sycl-no-kernel", "No kernel named _ZTSZZL17rms_norm_f32_syclPKfPfiiiilllfPN4sycl3_V15queueEiENKU\n",
         [(FINAL, "SYCL found no kernel for an op on this device (a build without it for this GPU, or a driver that cannot load it), "
                  "not a lack of memory", 1)]),
    case("invalid-device-ordinal-garbled", "^^:     ^^CUDA error: invalid device ordinal\n",
         [(FINAL, "CUDA error: invalid device ordinal: a GPU index past the devices the process sees (more ranks than GPUs, or "
                  "CUDA_VISIBLE_DEVICES narrower than the launch), not a lack of memory", 1)]),
    # ggml_abort in gdb's, glibc's and macOS's backtraces
    case("ggml-abort-gdb", "#5  0x00007f122fb44209 in ggml_abort () from /usr/local/lib64/libggml-base.so.0\n", [(FINAL, _GGML_ABORT, 1)]),
    case("ggml-abort-glibc", "/app/bin/libggml-base.so.0(ggml_abort+0x11e) [0x7f984d9607fe]\n", [(FINAL, _GGML_ABORT, 1)]),
    case("ggml-abort-macos", "1   ollama                              0x0000000101362cd0 ggml_abort + 156\n", [(FINAL, _GGML_ABORT, 1)]),
    # cudaErrorStreamCaptureInvalidated in its own words
    case("capture-invalidated", "RuntimeError: CUDA error: operation failed due to a previous error during capture\n",
         [(OOM, "capture_error", 1)]),
    # vLLM's CPU KV-offload region in /dev/shm, with its figures and cut before them
    case("shm-offload-region", "RuntimeError: Insufficient space in /dev/shm: 160 MiB required, 64 MiB free. Increase /dev/shm (e.g. "
         "--shm-size or --ipc=host).\n", [(OOM, "shm_exhausted", 1), ("oom.shm_requested_bytes", 160 << 20, 1)]),
    case("shm-offload-region-cut", "RuntimeError: Insufficient space in /dev/shm:\n4095/4096 MiB required, 1405 MiB free\n",
         [(OOM, "shm_exhausted", 1)]),
    # XLA's breakdown under its out-of-memory line: the arguments (weights and what is passed in) and the program's temporaries
    case("xla-hbm-breakdown", "Total hbm usage >= 30.73G:\n    reserved        528.00M \n    program          14.31G \n    arguments        15.90G \n",
         [("mem.activation_peak_bytes", 15365245501, 3), ("mem.weights_bytes", 17072495002, 4)]),
    case("xla-hbm-no-arguments", "    program          87.08G\n    arguments            0B\n", [("mem.activation_peak_bytes", 93501438034, 1)]),
]

# holdout r170: kills, faults and checks in the words these logs state them
ROUND_170 = [
    # the shell's kill glued to the progress bar it cut
    case("zsh-killed-after-progress", "  0%|          | 0/2 [00:00<?, ?it/s]zsh: killed     python txt2image.py --verbose 'an octopus'\n",
         [(OOM, "killed", 1), ("oom.exit_signal", "SIGKILL", 1)]),
    # Triton's ptxas failing on a kernel it generated, and newer Triton's own error for it
    case("ptxas-failed", "subprocess.CalledProcessError: Command '['/usr/local/lib/python3.12/dist-packages/triton/backends/nvidia/bin/ptxas', "
         "'-lineinfo', '-v', '--gpu-name=sm_120a', '/tmp/tmp9ixzjgni.ptx', '-o', '/tmp/tmp9ixzjgni.ptx.o']' returned non-zero exit status 255.\n",
         [(OOM, "compile_error", 1)]),
    case("ptxas-error", "triton.runtime.errors.PTXASError: PTXAS error: Internal Triton PTX codegen error\n", [(OOM, "compile_error", 1)]),
    # ggml's GGML_ABORT in a header's inline function
    case("ggml-fatal-in-header", "  ggml-impl.h:318: fatal error\n", [(OOM, "ggml_assert", 1)]),
    # an Xid event without the driver's prefix
    case("xid-bare", "Xid 31, MMU Fault ... FAULT_PDE ACCESS_TYPE_VIRT_READ\n", [(OOM, "illegal_memory_access", 1)]),
    # df's row of a full /dev/shm (one with room is only its size)
    case("df-shm-full", "Filesystem      Size  Used Avail Use% Mounted on\nshm              64M   64M     0 100% /dev/shm\n",
         [(OOM, "shm_exhausted", 2), ("host.shm_total_bytes", 64 << 20, 2)]),
    case("df-shm-room", "shm              64M   12M   52M  19% /dev/shm\n", [("host.shm_total_bytes", 64 << 20, 1)]),
    # the NCCL watchdog's thread in a native backtrace
    case("nccl-watchdog-frame", "(RayWorkerWrapper pid=2667395) /venv/lib/python3.11/site-packages/torch/lib/libtorch_cuda.so(+0xe427c9) "
         "[0x7fd15b3007c9] c10d::ProcessGroupNCCL::ncclCommWatchdog()\n", [(OOM, "comm_error", 1)]),
    # a private forward's frame is the forward pass
    case("private-forward-frame", '  File "/app/comfy/weight_adapter/bypass.py", line 174, in _bypass_forward\n'
         "torch.AcceleratorError: CUDA error: out of memory\n", [("oom.hint", "traceback", 1), (OOM, "cuda_error_oom", 2)], phase="prefill"),
    # Go's runtime naming the exception an Ollama runner died on
    case("go-exception-access-violation", "Exception 0xc0000005 in ggml_backend_sched_graph_compute_async\n",
         [(FINAL, "exit status 0xC0000005 (STATUS_ACCESS_VIOLATION): the process crashed on a bad pointer; the status itself names no "
                  "memory failure", 1)]),
    # ggml's graph allocator's assert alone, its figures line not pasted
    case("ggml-alloc-assert-alone", 'GGML_ASSERT: C:\\Temp\\vendor\\llama.cpp\\ggml-alloc.c:148: !"not enough space in the buffer"\n',
         [(OOM, "ggml_fixed_pool", 1)]),
    # Ollama's embedding runner refusing an input longer than the model's context
    case("ollama-embedding-over-context", 'level=INFO source=server.go:1635 msg="llm embedding error: Failed to create new sequence: the input '
         'length exceeds the context length"\n', [(OOM, "request_over_context", 1)]),
    # a block allocator freeing a block it has no record of
    case("block-free-unknown", "[2025-10-10 13:38:41.190629] [error] [3590832] [block_mem_allocation_solver.cpp:63] can't find block: "
         "0x12cfd5eda400, free fail\n", [(OOM, "bookkeeping_bug", 1)]),
]

# holdout r171: a buffer past Metal's cap, a Node heap at its limit, a TPU program that could not load
ROUND_171 = [
    # PyTorch's MPS allocator naming only the buffer it refused
    case("mps-invalid-buffer-size", "RuntimeError: Invalid buffer size: 19.38 GiB\n",
         [(OOM, "buffer_over_limit", 1), ("oom.requested_bytes", 20809116549, 1), ("gpu.backend", "metal", 1)]),
    # V8's frame in a Node crash's native stack is its heap, not a device
    case("v8-frame-host-side", " 4: 0xebb167 v8::internal::V8::FatalProcessOutOfMemory(v8::internal::Isolate*, char const*, "
         "v8::OOMDetails const&) [node]\n", [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1)]),
    # only the "Last few GCs" of V8's report
    case("v8-last-gcs", "[1:0x79bf12627690] 240600620 ms: Mark-Compact 4012.3 (4129.4) -> 3996.3 (4129.1) MB, 3206.37 / 0.02 ms  "
         "(average mu = 0.107, current mu = 0.037) task; scavenge might not succeed\n",
         [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1)]),
    # the TPU runtime failing to load a compiled program, its size on the next line
    case("tpu-program-load", "RuntimeProgramAllocationFailure: Error loading program 'jit__forward':\n"
         "Attempting to allocate 1.13G. That was not possible. There are 528.72M free.\n",
         [(OOM, "xla_reserve_failed", 1), ("oom.requested_bytes", 1213328261, 2), ("oom.gpu_free_bytes", 554403103, 2)]),
    # Ollama's runner on an embedding input larger than a batch names Ollama
    case("ollama-runner-batch-panic", "panic: caching disabled but unable to fit entire input in a batch\n",
         [(OOM, "config_max_len", 1)], framework="ollama"),
    # numpy's array of logits for every position of the context: the context is the setting
    case("numpy-logits-over-context", "Unable to allocate 62.6 GiB for an array with shape (131072, 128256) and data type float32\n",
         [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1), ("oom.requested_bytes", 67216238182, 1),
          ("knob.max_model_len", 131072, 1)]),
    # (an array that is not floats, or not a vocabulary wide, is only its size)
    case("numpy-other-array", "Unable to allocate 561. MiB for an array with shape (7680, 76800) and data type bool\n",
         [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1), ("oom.requested_bytes", 588251136, 1)]),
    # a failure stated with a word between "not enough" (or "insufficient") and "memory"
    case("not-enough-free-memory", "Failed to load model : Not enough free memory to load model...\n", [(OOM, "cuda_error_oom", 1)]),
    case("insufficient-device-memory", "RuntimeError: insufficient device memory\n", [(OOM, "cuda_error_oom", 1)]),
    # ... and in the casings a program prints them (a case-insensitive reading's prefilter literals match in any case)
    *[case(f"stated-oom-casing-{i}", f"Error: {words} while running\n", [(OOM, "cuda_error_oom", 1)])
      for i, words in enumerate(("Not enough GPU memory", "NOT ENOUGH MEMORY", "Out Of Device Memory", "insufficient gpu memory",
                                 "out of cuda memory", "INSUFFICIENT VRAM"))],
    # LLaMA-Factory's loggers name the transformers run it drives
    case("llamafactory-logger", "07/06/2024 02:12:04 - INFO - llamafactory.model.model_utils.attention - Using torch SDPA for faster "
         "training and inference.\n", [], framework="transformers"),
]

# holdout r172: WebGPU's per-buffer limits as ONNX Runtime Web and TVM's runtime state them, and Electron's renderer ended
# for memory
ROUND_172 = [
    case("webgpu-buffer-size", "Buffer size (3185049600) exceeds the max buffer size limit (1073741824)\n",
         [(OOM, "buffer_over_limit", 1), ("oom.requested_bytes", 3185049600, 1), ("oom.buffer_limit_bytes", 1073741824, 1)]),
    case("webgpu-binding-request", "Error: Cannot initialize runtime because of requested maxStorageBufferBindingSize exceeds limit. "
         "requested=1024MB, limit=128MB.\n", [(OOM, "vulkan_max_buffer_size", 1), ("oom.requested_bytes", 1 << 30, 1)]),
    case("electron-renderer-oom", '{"reason":"oom","exitCode":-536870904}\n', [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1)]),
]

ROUND_173 = [
    # node-llama-cpp's context check against the RAM or both (its VRAM form is read since round 130's)
    case("node-llama-cpp-context-resources", "error: A context size of 8192 is too large for the available resources\n",
         [(OOM, "ggml_alloc_failed", 1), ("oom.buffer", "kv", 1), ("knob.max_model_len", 8192, 1)], phase="kv_alloc"),
    case("node-llama-cpp-context-ram", "A context size of 4096 with 4 sequences is too large for the available RAM (including swap)\n",
         [(OOM, "ggml_alloc_failed", 1), ("oom.buffer", "kv", 1), ("knob.max_model_len", 4096, 1), ("knob.max_num_seqs", 4, 1)]),
    # Triton's model instance failing its warm-up requests: the warm-up phase
    case("triton-warmup-error", lines(
        "E0504 19:31:21.415679 91 backend_model_instance.cc:99] warmup error: Internal - 2 root error(s) found.",
        "  (0) Resource exhausted: OOM when allocating tensor with shape[128,3,299,299] and type float on "
        "/job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc"),
         [(OOM, "cuda_error_oom", 2), ("oom.requested_bytes", 137319936, 2)], phase="warmup"),
    # a context refused for a stated setting, a remark in parentheses after it; a memory status in parentheses stays the reason
    case("ggml-context-reason-remark", "llama_init_from_model: failed to initialize the context: Gemma4Assistant requires ctx_other "
         "to be set (this warning is normal during memory fitting)\n",
         [(FINAL, "llama.cpp refused the context: Gemma4Assistant requires ctx_other to be set: a setting or a build, not a lack of "
                  "memory", 1), ("oom.hint", "context_failed", 1)]),
    case("ggml-context-reason-oom-status", "llama_init_from_model: failed to initialize the context: ggml op failed (out of memory)\n",
         [(OOM, "cuda_error_oom", 1), ("oom.hint", "context_failed", 1)]),
    # ggml's Metal backend that got no command queue, or no context in the newer step's name
    case("metal-command-queue", "ggml_metal_init: error: failed to create command queue\n",
         [(FINAL, "llama.cpp could not start its Metal backend (no Metal device, or a shader library that did not load): the run "
                  "stopped before any buffer was allocated, not a lack of memory", 1)]),
    case("metal-init-backend-context", "ggml_backend_metal_device_init_backend: error: failed to allocate context\n",
         [(FINAL, "llama.cpp could not start its Metal backend (no Metal device, or a shader library that did not load): the run "
                  "stopped before any buffer was allocated, not a lack of memory", 1)]),
    # PyTorch's DataLoader worker's bus error names PyTorch
    case("dataloader-bus-error", "ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared "
         "memory (shm).\n", [(OOM, "bus_error", 1), ("oom.exit_signal", "SIGBUS", 1)], framework="transformers"),
]

ROUND_174 = [
    # Inductor's template kernel over the per-block shared memory, named where Triton says "shared memory"
    case("inductor-template-smem", "torch._inductor.exc.InductorError: RuntimeError: No valid triton configs. OutOfMemoryError: out of "
         "resource: triton_tem_fused_0 Required: 107008 Hardware limit:101376 Reducing block sizes or `num_stages` may help.\n",
         [(OOM, "kernel_resource", 1), (OOM, "compile_error", 1), (OOM, "torch_oom", 1)]),
    # Ascend's DMA engine faulting on an address its SMMU could not translate
    case("ascend-smmu-terminate", "(EngineCore_DP0 pid=6903) ERROR 10-09 01:31:16 [core.py:718]         The error from device(0), serial "
         "number is 1. there is a sdma error, sdma channel is 0, the channel exist the following problems: The SMMU returns a Terminate "
         "error during page table translation.. the value of CQE status is 2.\n", [(OOM, "illegal_memory_access", 1)], framework="vllm"),
    # a Windows debugger's note of a C++ exception: its memory location is an address; std::bad_alloc stays memory
    case("msvc-exception-thrown", "Exception thrown at 0x00007FFFF9ED6D9A in app.exe: Microsoft C++ exception: _com_error at memory "
         "location 0x0000006A74D6D680.\n",
         [(FINAL, "a C++ exception (_com_error) thrown in the program, as a Windows debugger reports each one: its memory location is an "
                  "address, not memory running out", 1)]),
    case("msvc-exception-bad-alloc", "Exception thrown at 0x00007FFFF9ED6D9A in app.exe: Microsoft C++ exception: std::bad_alloc at "
         "memory location 0x0000006A74D6D680.\n", [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1)]),
    # llama.cpp by its context's refusal with the function cut, its warm-up's flash-attention warning, ggml's tensor print
    case("llamacpp-context-refused-bare", "failed to initialize the context: quantized V cache was requested, but this requires Flash "
         "Attention\n", [(FINAL, "llama.cpp refused the context: quantized V cache was requested, but this requires Flash Attention: a "
                                 "setting or a build, not a lack of memory", 1), ("oom.hint", "context_failed", 1),
                                ("oom.hint", "cache_needs_flash_attention", 1)], framework="llamacpp"),
    case("llamacpp-warmup-fa-warning", "warmup: WARNING: flash attention not supported by CUDA0, memory usage will increase\n",
         framework="llamacpp"),
    case("ggml-tensor-print", "warmup:    dst: type = f32, ne = [88 16 577 1], nb = [4 352 5632 3249664]\n", framework="llamacpp"),
    # SGLang's launcher reporting a scheduler that did not start
    case("sglang-scheduler-died", "RuntimeError: Rank 0 scheduler died during initialization (exit code: -6)\n", framework="sglang"),
]

ROUND_175 = [
    # the multimodal projector that did not load, even in the step that estimates its memory
    case("clip-load-failed-alone", "0.00.284.239 E mtmd_get_memory_usage: error: Failed to load CLIP model from C:\\models\\mmproj.gguf\n",
         [(FINAL, "the multimodal projector (mmproj) could not be loaded: its file or this build, not a lack of memory", 1)],
         framework="llamacpp"),
    # LMDeploy's PyTorch engine by its model loop
    case("lmdeploy-model-agent-loop", "model_agent.py:498 - Task <ModelAgentLoop> failed\n", framework="lmdeploy"),
    # (from the review of every holdout log whose framework was missed) vLLM's V1 front end in its newer wording, and its
    # engine's module in its log format's file tag with the level cut
    case("vllm-core-init-failed-procs", "Engine core initialization failed. Failed core proc(s): {}\n", framework="vllm"),
    case("vllm-engine-file-tag", "NFO 07-04 19:10:08 async_llm_engine.py:152] Aborted request cmpl-e5fb5cad96e9402dabbbece3611ae22f-0.\n",
         framework="vllm"),
    # PyTorch by its ATen sources in a kernel's assertion, and by its meta-device error
    case("aten-source-assert", "../aten/src/ATen/native/cuda/Indexing.cu:1093: indexSelectSmallIndex: block: [0,0,0], thread: [1,0,0] "
         "Assertion `srcIndex < srcSelectDimSize` failed.\n", [(OOM, "device_assert", 1)], framework="transformers"),
    case("meta-tensor-copy", "NotImplementedError: Cannot copy out of meta tensor; no data!\n", [(OOM, "weights_on_meta", 1)],
         framework="transformers"),
    # Ollama by its scheduler's failed load request, and by a crash inside its cgo calls alone; a bare Go panic is not enough
    case("ollama-do-load-request", '500 Internal Server Error: do load request: Post "http://127.0.0.1:52058/load": read tcp '
         "127.0.0.1:52063->127.0.0.1:52058: wsarecv\n", framework="ollama"),
    case("ollama-cgo-crash-alone", lines("SIGBUS: bus error", "PC=0x7a7e89d52e07 m=3 sigcode=2 addr=0x7a7d52fae020",
                                         "signal arrived during cgo execution"),
         [(OOM, "bus_error", 1), ("oom.exit_signal", "SIGBUS", 1)], framework="ollama"),
    # PyTorch's NCCL process group in an inference log: a weak vote for vLLM, which DeepSpeed's own lines outweigh
    case("nccl-process-group-votes-vllm", "[rank0]:[E822 16:31:16.131931664 ProcessGroupNCCL.cpp:632] [Rank 0] Watchdog caught collective "
         "operation timeout: WorkNCCL(SeqNum=5730, OpType=BROADCAST, NumelIn=3612672, NumelOut=3612672, Timeout(ms)=600000) ran for "
         "600009 milliseconds before timing out.\n", [(OOM, "comm_error", 1)], framework="vllm"),
    case("nccl-process-group-under-deepspeed", lines(
        "[rank0]:[E822 16:31:16.131931664 ProcessGroupNCCL.cpp:632] [Rank 0] Watchdog caught collective operation timeout",
        '  File "/usr/local/lib/python3.10/dist-packages/deepspeed/runtime/engine.py", line 1842, in forward'),
         [(OOM, "comm_error", 1), ("oom.hint", "traceback", 2)], framework="deepspeed"),
    case("go-panic-alone-names-nothing", "panic: runtime error: invalid memory address or nil pointer dereference\n",
         [(FINAL, "a nil pointer dereference in a Go program (invalid memory address): a bug, not a lack of memory", 1)], framework="other"),
]

ROUND_176 = [
    # PyTorch 1.0-1.3's report, whose last field is what its cache held beyond the allocated ("cached")
    case("torch-1x-cached-field", "RuntimeError: CUDA out of memory. Tried to allocate 1.62 GiB (GPU 0; 6.00 GiB total capacity; "
         "921.75 MiB already allocated; 3.54 GiB free; 4.25 MiB cached)\n",
         [(OOM, "torch_oom", 1), ("oom.requested_bytes", 1739461755, 1), ("oom.device", "0", 1), ("oom.gpu_total_bytes", 6442450944, 1),
          ("oom.torch_allocated_bytes", 966524928, 1), ("oom.gpu_free_bytes", 3801046057, 1), ("oom.torch_reserved_bytes", 970981376, 1),
          ("oom.torch_unallocated_bytes", 4456448, 1)]),
    # ROCm's aperture violation in its own words, where a terminal's wrap cut the status's name
    case("hsa-aperture-words", "RROR_MEMORY_APERTURE_VIOLATION: The agent attempted to access memory beyond the largest legal address. "
         "code: 0x29\n", [(OOM, "illegal_memory_access", 1)]),
    # Ascend's runtime refusing a synchronous copy inside a captured graph
    case("ascend-capture-mode-copy", "rtMemcpy:ErrCode=107030, desc=[the current capture mode does not support this operation\n",
         [(OOM, "capture_error", 1)]),
    # llama-server's refusal of an embedding or rerank input longer than its physical batch, relayed with its figures
    # and without its advice
    case("llama-server-input-over-ubatch-figures", "input (2793 tokens) is too large to process (current batch size: 2048)\n",
         [(OOM, "request_rejected", 1), ("oom.hint", "input_over_ubatch", 1), ("mem.prefill_tokens", 2793, 1),
          ("knob.ubatch_size", 2048, 1)], framework="llamacpp"),
]

ROUND_177 = [
    # accelerate's disk offload with the name in quotes, not backticks
    case("device-map-disk-offload-quoted", "ValueError: The current 'device_map' had weights offloaded to the disk. Please provide an "
         "'offload_folder' for them.\n", [(OOM, "weights_offloaded", 1)]),
    # a memory check that asks for a negative size: an overflow, not memory
    case("negative-bytes-needed", lines("[ERROR] There is no enough device memory for gemm test!",
                                        " -4261412864 Bytes is needed, but only 84586856448 Bytes is free."),
         [(FINAL, "a memory check stated a negative size (-4261412864 bytes): a size that overflowed, not a lack of memory", 2)]),
    # cuda-gdb's report of a kernel's fault on a register, and llama.cpp by its flash-attention kernel's name
    case("cuda-gdb-misaligned-register", lines("CUDA Exception: Warp Misaligned Register",
                                               "kernel: void flash_attn_ext_f16<256, 256, 32, 2, false, false>(...)"),
         [(OOM, "illegal_memory_access", 1), ("oom.hint", "flash_attention_kernel", 2)], framework="llamacpp"),
    # the address sanitizer's report of a native memory bug
    case("asan-bad-free", "==PID==ERROR: AddressSanitizer: attempting free on address which was not malloc()-ed\n",
         [(FINAL, "the address sanitizer caught a memory bug (attempting free on address which was not malloc()-ed): a native bug, "
                  "not a lack of memory", 1)]),
    # pickle's end of file, relayed by an app's logger without the exception's name
    case("pickle-ran-out-of-input", "2024-07-21 13:52:52.546 | ERROR    | magic_pdf.cli.magicpdf:parse_doc:338 - Ran out of input\n",
         [(FINAL, 'a file ended before its data (pickle\'s "Ran out of input"): an empty or truncated model or cache file, not a lack '
                  "of memory", 1)]),
    # the shell's kill over a counter the program kept rewriting
    case("killed-over-counter", "Killed(282 / 283)\n", [(OOM, "killed", 1), ("oom.exit_signal", "SIGKILL", 1)]),
]

ROUND_178 = [
    # PyTorch's device check relayed without its exception's name (a thread's title); with the name the final-error
    # reading has it
    case("device-mismatch-relayed", "Expected all tensors to be on the same device, but found at least two devices, cpu and cuda:0! "
         "(when checking argument for argument index in method wrapper_CUDA__index_select)\n",
         [(FINAL, "tensors on two devices (cpu and cuda:0): a placement bug (a layer or an input left on another device), not a lack "
                  "of memory", 1)]),
    # a negative budget an engine printed: an overflowed size
    case("negative-vram-budget", "llm_load_sparse_model_tensors: offloaded layers from VRAM budget(-2147483648 bytes): 81/80\n",
         [(FINAL, "a memory check stated a negative size (-2147483648 bytes): a size that overflowed, not a lack of memory", 1)]),
    # (from the review of the holdout's cut-log fallbacks) Ollama's scheduler's newer words for its runner's crash
    case("ollama-runner-terminated-status-2", 'time=2026-01-23T16:35:42.409-06:00 level=ERROR source=sched.go:455 msg="error loading '
         'llama server" error="llama runner terminated: exit status 2"\n',
         [(FINAL, "the runner crashed (exit status 2: a Go panic, or a fatal signal in its native code such as a segmentation fault); "
                  "its own lines above name the cause", 1)], framework="ollama"),
    # LLVM stopping a kernel's build; its own out of memory is the host's
    case("llvm-error-compiler", "(RayWorkerWrapper pid=373) LLVM ERROR: Unsupported rounding mode for conversion.\n",
         [(FINAL, "LLVM ERROR: Unsupported rounding mode for conversion: the compiler stopped building a kernel, not a lack of memory", 1)]),
    case("llvm-error-out-of-memory", "LLVM ERROR: out of memory Fatal Python error: Aborted\n",
         [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1)]),
    # (round 179) SGLang by its own launch flags in a command cut above its program name, outweighing PyTorch's NCCL process
    # group's vote for vLLM
    case("sglang-flags-outvote-nccl", lines("                --enable-dp-attention \\", "                --dp 8 \\",
                                            "[rank3]:[E306 02:01:13.687410612 ProcessGroupNCCL.cpp:2057] [PG ID 2 PG GUID 3 Rank 3] "
                                            "Process group watchdog thread terminated with exception: CUDA error: an illegal memory "
                                            "access was encountered"),
         [(OOM, "illegal_memory_access", 3)], framework="sglang"),
    # TensorRT-LLM by its Triton backend's per-iteration statistics
    case("trtllm-backend-stats", 'I0123 04:45:45.034982 120 model_instance_state.cc:1239] "{\\"Active Request Count\\":1,\\"Iteration '
         'Counter\\":458,\\"Max Request Count\\":8,\\"Runtime CPU Memory Usage\\":17252,\\"Runtime GPU Memory Usage\\":16178570883}"\n',
         framework="tensorrt-llm"),
    # vLLM by its sleep-mode endpoints and by its MoE kernel oracle's choice
    case("vllm-sleep-endpoint", "[root@host ~]# curl -XPOST http://localhost:8090/sleep?level=1\n", framework="vllm"),
    case("vllm-moe-oracle", "INFO [nvfp4.py:244] Using 'FLASHINFER_B12X' NvFp4 MoE backend out of potential backends: [...]\n",
         framework="vllm"),
]

ROUND_180 = [
    # ROCm's runtime log of a refused device allocation, with its numbers
    case("rocclr-alloc-failed", ":1:hip_memory.cpp           :303 : 9616777863 us: 4277 : [tid:0x7f2accbfe6c0] Allocation failed : Device "
         "memory : required :4 | free :2314338304 | total :17163091968 \n",
         [(OOM, "cuda_error_oom", 1), ("oom.requested_bytes", 4, 1), ("oom.gpu_free_bytes", 2314338304, 1),
          ("oom.gpu_total_bytes", 17163091968, 1)]),
    # a pod Kubernetes could not place: nothing ran
    case("k8s-unschedulable", "  Warning  FailedScheduling  52m                hami-scheduler  0/1 nodes are available: 1 Insufficient "
         "huawei.com/Ascend910B3-memory. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.\n",
         [(FINAL, "Kubernetes could not schedule the pod: no node has the huawei.com/Ascend910B3-memory it requests free; nothing "
                  "ran out of memory", 1)]),
    # the shell's "Killed" in zh_CN, in a script's report of its child
    case("killed-localized-script-job", "script/run_ChnSentiCorp2.sh: 行 30: 23195 已杀死\n",
         [(OOM, "killed", 1), ("oom.exit_signal", "SIGKILL", 1)]),
    # Dask's nanny restarting a worker past its memory budget
    case("dask-nanny-restart", "2025-02-07 09:12:47,532 - distributed.nanny.memory - WARNING - Worker tcp://127.0.0.1:34349 (pid=342998) "
         "exceeded 95% memory budget. Restarting...\n", [(OOM, "killed", 1)]),
    # a pinned host buffer refused (the locked-memory limit)
    case("unable-to-pin-host-memory", "RuntimeError: Unable to pin host memory with error code: -1\n",
         [(OOM, "host_alloc_failed", 1), ("oom.hint", "pinned_host", 1)]),
    # Direct3D's lost device by its code alone, as DirectML's allocator prints it
    case("dxgi-code-device-lost", "887A0005 The GPU device instance has been suspended. Use GetDeviceRemovedReason to determine the "
         "appropriate action.\n", [(OOM, "device_lost", 1)]),
    # bitsandbytes' call on a paged optimizer's managed memory failing in its own words (not out of memory)
    case("bnb-managed-other-error", "Error invalid device ordinal at line 359 in file /home/tim/git/bitsandbytes/csrc/pythonInterface.c\n",
         [("oom.hint", "managed_memory", 1),
          (FINAL, "invalid device ordinal from bitsandbytes' call on that memory, not a lack of it", 1)]),
    # llama-server's prompt cache past its --cache-ram limit by its numbers only; under it, nothing
    case("prompt-cache-over-limit-numbers", " - cache state: 1 prompts, 18803.422 MiB (limits: 8192.000 MiB, 0 tokens, 23208 est)\n",
         [(OOM, "prompt_cache_over_limit", 1)], framework="llamacpp"),
    case("prompt-cache-under-limit", "srv        update:  - cache state: 0 prompts, 0.000 MiB (limits: 8192.000 MiB, 32768 tokens, "
         "8589934592 est)\n"),
]

ROUND_181 = [
    # Ray could not place the workers: its autoscaler, Serve, vLLM's executor; a wait of seconds is not yet a failure
    case("ray-no-node-type", "(autoscaler +32s) Error: No available node types can fulfill resource request defaultdict(<class 'float'>, "
         "{'CPU': 8.0, 'GPU': 8.0}). Add suitable node types to this cluster to resolve this issue.\n", [(FINAL, RAY_UNPLACED, 1)]),
    case("ray-serve-not-scheduled", "has 1 replicas that have taken more than 30s to be scheduled. This may be caused by waiting for the "
         'cluster to auto-scale. Resources required for each replica: {"accelerator_type_cpu": 0.01, "CPU": 1}, resources available: '
         '{"CPU": 15.0}\n', [(FINAL, RAY_UNPLACED, 1)]),
    case("vllm-placement-group-refused", "ValueError: The number of required GPUs exceeds the total number of available GPUs in the "
         "placement group.\n", [(FINAL, RAY_UNPLACED, 1)]),
    case("vllm-placement-group-waiting-long", "INFO 06-07 18:13:55 [ray_utils.py:464] Waiting for creating a placement group of specs "
         "for 150 seconds. specs=[{'GPU': 1.0}, {'GPU': 1.0}].\n", [(FINAL, RAY_UNPLACED, 1)]),
    case("vllm-placement-group-waiting-short", "INFO 04-01 02:46:00 ray_utils.py:214] Waiting for creating a placement group of specs "
         "for 10 seconds. specs=[{'GPU': 1.0}, {'GPU': 1.0}].\n"),
    # Windows' access violation as a program catching it prints it
    case("access-violation-reading", "Processing Prompt [BATCH] (431 / 431 tokens)exception: access violation reading 0x0000000000000010\n",
         [(FINAL, "an access violation reading 0x0000000000000010: the process crashed on a bad pointer, naming no memory failure", 1)]),
    # ggml's OpenCL backend failing a call with a status that names no memory
    case("ggml-opencl-invalid-value", "ggml_opencl: ggml_cl_h2d_tensor_2d(queue, d_X, 0, src0, i03, i02, NULL) error -30 at "
         "/data/data/com.termux/files/home/ollama/ggml-opencl.cpp:1501\n",
         [(FINAL, "OpenCL error -30 (CL_INVALID_VALUE): a call the driver refused, not memory", 1)]),
    # Windows' integer division by zero as a runner's exit status
    case("ntstatus-integer-divide", "Error: llama runner process has terminated: exit status 0xc0000094\n",
         [(FINAL, "exit status 0xC0000094 (STATUS_INTEGER_DIVIDE_BY_ZERO): the process divided an integer by zero (a bug in its "
                  "code); the status itself names no memory failure", 1)]),
    # TensorFlow's warning that it has no TensorRT names no engine
    case("tf-trt-warning-not-tensorrt-llm", "2023-06-19 03:05:27.249011: W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] TF-TRT "
         "Warning: Could not find TensorRT\n", framework="other"),
    # LM Studio's MLX engine: the model against its working-set ceiling, and the context it cut
    case("lmstudio-context-fit", "[context_fit][INFO]: Model context auto-fit: family=qwen3_5 max=262,144 fitted=152,576 "
         "working_set=36.00GiB reserve=3.00GiB safe_ceiling=33.00GiB baseline=20.15GiB full_kv=20480B/token\n",
         [("mem.gpu_available_bytes", GiB(33), 1), ("mem.weights_bytes", GiB(20.15), 1)]),
    case("lmstudio-context-cut", "[cache_store][INFO]: VLM prompt cache context target: configured=200,000 fitted=152,576 effect\n",
         [(OOM, "kv_capacity_limit", 1), ("knob.max_model_len", 200000, 1), ("oom.limited_knob", "max_model_len", 1),
          ("oom.stated_limit", 152576, 1), ("oom.hint", "multimodal", 1)]),
    # (round 182) Ollama's server's structured line for its runner's exit
    case("ollama-runner-terminated-structured", 'time=2026-03-20T16:36:39.720-04:00 level=ERROR source=server.go:303 msg="llama runner '
         'terminated" error="exit status 2"\n',
         [(FINAL, "the runner crashed (exit status 2: a Go panic, or a fatal signal in its native code such as a segmentation fault); "
                  "its own lines above name the cause", 1)], framework="ollama"),
    # (from a review of the holdout's framework misses) vLLM by its offline progress bar
    case("vllm-offline-progress", "Processed prompts: 100%|██████████| 11873/11873 [15:35<00:00, 12.69it/s]\n", framework="vllm"),
    # llama.cpp by ggml's device line and its system-info line's backend fields
    case("ggml-device-line-rocm", "  Device 0: AMD Radeon AI PRO R9700, gfx1201 (0x1201), VMM: no, Wave Size: 32, VRAM: 32624 MiB\n",
         framework="llamacpp"),
    case("ggml-system-info-backend", "system_info: ... | ROCm : NO_VMM = 1 | PEER_MAX_BATCH_SIZE = 128 | ...\n", framework="llamacpp"),
    # (round 183) Qualcomm's QNN runtime refusing the model's weights buffer on the NPU
    case("qnn-weights-buffer", "[ERROR] [Qnn ExecuTorch]:  <E> Could not allocate persistent weights buffer!\n",
         [(OOM, "cuda_error_oom", 1)], phase="load_weights"),
]

ROUND_184 = [
    # accelerate's older wordings of a device map that put weights on the disk
    case("accelerate-need-offload-dir", "ValueError: We need an `offload_dir` to dispatch this model according to this `device_map`, the "
         "following submodules need to be offloaded: base_model.model.model.layers.28\n", [(OOM, "weights_offloaded", 1)], phase="load_weights"),
    case("accelerate-whole-model-to-disk", "ValueError: You are trying to offload the whole model to the disk. Please use the `disk_offload` "
         "function instead.\n", [(OOM, "weights_offloaded", 1)], phase="load_weights"),
    # `ollama ps`'s later wording of a split model, at a long context: the context pushed layers off the GPU
    case("ollama-ps-split-long-context", "tom_himanen/deepseek-r1-roo-cline-tools:32b     86116af8fe27    68 GB   53% CPU / 47% GPU  "
         "131072     24 h from now\n",
         [("mem.required_bytes", GiB(68), 1), ("knob.max_model_len", 131072, 1), ("oom.hint", "context_spilled", 1)], framework="ollama"),
    # (the same split at a short context, in the older wording, is the weights' own size)
    case("ollama-ps-split-short-context", "Gpt-oss:120b    a951a23b46a1    67 GB    48%/52% CPU/GPU    8192       4 minutes from now\n",
         [("mem.required_bytes", GiB(67), 1), ("knob.max_model_len", 8192, 1)], framework="ollama"),
    # the loss over the logits is a forward step's work
    case("cross-entropy-frame", lines("    return torch._C._nn.cross_entropy_loss(input, target, weight, _Reduction.get_enum(reduction), "
                                      "ignore_index, label_smoothing)", "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 250.00 MiB"),
         [(OOM, "torch_oom", 2), ("oom.requested_bytes", MiB(250), 2)], phase="prefill"),
    # MindSpore's device allocator: what it holds, the request and the card
    case("mindspore-alloc-over-total", "[ERROR] PRE_ACT(54175,fffdbcff91e0,python):2024-10-22-11:24:55.301.443 [mindspore/ccsrc/backend/common/"
         "mem_reuse/mem_dynamic_allocator.cc:392] AddMemBlockAndMemBufByEagerFree] TotalUsedMemStatistics : 29356337664 plus "
         "TotalUsedByEventMemStatistics : 0 and plus alloc size : 301990400 is more than total mem size : 29464985600.\n",
         [(OOM, "torch_oom", 1), ("oom.torch_allocated_bytes", 29356337664, 1), ("oom.requested_bytes", 301990400, 1),
          ("oom.gpu_total_bytes", 29464985600, 1), ("oom.gpu_free_bytes", 108647936, 1)], framework="other"),
    # the OpenCL driver's compiler failing on a runtime's kernels: its status, not the process's RAM
    case("opencl-build-error", lines("TVMError: OpenCL build error for device=0x6fc6718ae0", "Error: CL_OUT_OF_HOST_MEMORY"),
         [(OOM, "broken_install", 1), ("oom.hint", "kernel_build", 1), (OOM, "host_alloc_failed", 2), ("oom.cpu_alloc_failed", True, 2)]),
    # ExecuTorch's method pool, sized by the application
    case("executorch-pool", "E executorch:memory_allocator.h:87] Memory allocation failed: 48B requested (adjusted for alignment), 44B available\n",
         [(OOM, "allocator_cap", 1), ("oom.hint", "executorch_pool", 1), ("oom.requested_bytes", 48, 1)]),
    # IREE's compiler: a kernel over the per-block shared memory
    case("iree-shared-memory", "8b_fp8.mlir:3525:13: error: function 'prefill_bs4$async_dispatch_16_matmul_like' uses 66560 bytes of shared "
         "memory; exceeded the limit of 65536 bytes\n", [(OOM, "kernel_resource", 1)]),
    # Ascend's runtime: a device task's fault, by its code
    case("ascend-task-fault", "[rank0]:[W220 02:16:08.680800943 NPUStream.cpp:487] Warning: NPU warning, error code is 507001[Error]: \n",
         [(FINAL, "the Ascend runtime reported a fault in a device task (error 507001): a kernel, driver or firmware fault, not memory", 1)]),
    case("ascend-inner-error", lines("[Error]: The vector core execution is abnormal.", "EH9999: Inner Error!"),
         [(FINAL, "the Ascend runtime reported a fault in a device task (EH9999): a kernel, driver or firmware fault, not memory", 2)]),
    # torch_npu's allocator retrying after it freed its cache: a notice, nothing failed
    case("npu-pool-retry", "torch_npu.memory: [ERROR] [269128] Get a block from the existing pool failed. Try to free cached blocks and "
         "reallocate. This error log can be ignored.\n",
         [(OOM, "memory_notice", 1)]),
    # MNN's OpenCL backend's status by number
    case("mnn-opencl-invalid-queue", "CL ERROR CODE : -36, info:image_to_nchw_buffer \n",
         [(FINAL, "OpenCL error -36 (CL_INVALID_COMMAND_QUEUE): a call the driver refused, not memory", 1)]),
    # a Java nested class's exception (TVM's Android runtime)
    case("java-nested-exception", "org.apache.tvm.Base$TVMError: TVMError: Function vm.builtin.attention_kv_cache_create(0: int64_t) "
         "expects 19 arguments, but 18 were provided.\n",
         [(FINAL, "org.apache.tvm.Base$TVMError: TVMError: Function vm.builtin.attention_kv_cache_create(0: int64_t) expects 19 arguments, "
                  "but 18 were provided.", 1)]),
    # Android's tombstone of an abort: a failed check
    case("tombstone-sigabrt", "Fatal signal 6 (SIGABRT), code -1 (SI_QUEUE) in tid 26912 (DefaultDispatch)\n",
         [(FINAL, "signal 6 (SIGABRT): the process aborted on a failed check or assertion; no memory failure is named", 1)]),
    # LLamaSharp, the C# binding, by its namespace in a .NET stack trace
    case("llamasharp-stack", "   at LLama.StatelessExecutor.<InferAsync>d__9.MoveNext()\n", framework="llamacpp"),
    # (round 185) the kernel's cgroup report wrapped by a paste: its words alone name host memory
    case("memcg-oom-wrapped", lines("kernel: Memory cgroup out of memory:", "  Killed process 1703792 (ray::IDLE) total-vm:68545920kB, anon-rss:37760kB,"),
         [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1), (OOM, "kernel_oom_kill", 1), ("oom.exit_signal", "SIGKILL", 1),
          ("host.kernel_oom_kill", "Memory cgroup out of memory: Killed process 1703792 (ray::IDLE)", 1)]),
    # Ollama's server choosing a context from the VRAM
    # (from a review of the knobs the final errors missed) a check of one setting against another names the value that passes it
    case("setting-smaller-than-setting", "ValueError: max_num_batched_tokens (2048) is smaller than max_model_len (8192). This effectively "
         "limits the maximum sequence length to max_num_batched_tokens and makes vLLM reject longer sequences.\n",
         [(FINAL, "max_num_batched_tokens (2048) is smaller than max_model_len (8192): one setting checked against another, a configuration "
                  "error, not memory", 1), ("knob.max_num_batched_tokens", 2048, 1), ("error.setting", "max_num_batched_tokens", 1),
          ("error.setting_value", 8192, 1)], framework="vllm"),
    # vLLM V0's prompt check and ExLlamaV2's cache check: a request over the context
    case("vllm-v0-prompt-length", "ValueError: Prompt length of 4178 is longer than the maximum model length of 4096.\n",
         [(OOM, "request_over_context", 1), ("mem.prefill_tokens", 4178, 1), ("knob.max_model_len", 4096, 1)]),
    case("exllamav2-cache-size", "AssertionError: Total sequence length exceeds cache size in model.forward\n",
         [(OOM, "request_over_context", 1)]),
    # an event recorded during a graph's capture, used outside it
    case("capture-recorded-event", "RuntimeError: CUDA error: operation not permitted on an event last recorded in a capturing stream\n",
         [(OOM, "capture_error", 1)]),
    case("ollama-vram-default-context", 'time=2026-06-04T14:14:20.147Z level=INFO source=routes.go:2031 msg="vram-based default context" '
         'total_vram="113.5 GiB" default_num_ctx=262144\n', framework="ollama"),
]

ROUND_187 = [
    # a managed platform's memory limit: the container's RAM
    case("cloud-run-memory-limit", "Memory limit of 2048M exceeded with 2126M used.\n",
         [(OOM, "killed", 1), ("host.cgroup_limit_bytes", GiB(2), 1)]),
    case("spaces-memory-limit", "Memory limit exceeded (16Gi)\n", [(OOM, "killed", 1), ("host.cgroup_limit_bytes", GiB(16), 1)]),
    case("heroku-r14", "2024-01-05T10:00:00.000000+00:00 heroku[web.1]: Error R14 (Memory quota exceeded)\n", [(OOM, "killed", 1)]),
    # AWS Neuron's compiler estimating the program over a core's HBM
    case("neuron-hbm-estimate", "[XCG815]  Estimated peak HBM usage (22.839451) exceeds 16GB. Neff won't be able to load on chip\n",
         [(OOM, "xla_oom", 1), ("mem.required_bytes", 24523673776, 1), ("oom.gpu_total_bytes", GiB(16), 1)]),
    # vLLM's Mamba-cache check cut before its setting: the concurrency it guards
    case("mamba-blocks-cut", "exceeds available Mamba cache blocks (95)... CUDA graph capture cannot proceed\n",
         [(OOM, "kv_capacity_limit", 1), ("oom.limited_knob", "max_num_seqs", 1), ("oom.stated_limit", 95, 1)]),
    # Mooncake's store: no room for a put, or a client's staging buffer full
    case("mooncake-no-handle", "E0414 11:10:42.514200 18822 client.cpp:170] Failed to start put operation: NO_AVAILABLE_HANDLE\n",
         [(OOM, "host_pool_full", 1), ("oom.hint", "mooncake_store", 1)]),
    case("mooncake-put-parts", "E0804 05:20:44.874174 1321649 store_py.cpp:495] Failed to allocate buffer for put_parts operation, key: "
         "vllm@meta-llama/Llama-3.1-8B-Instruct@1@0@7193353375021096452, total size: 33554460\n",
         [(OOM, "host_pool_full", 1), ("oom.hint", "mooncake_store", 1), ("oom.requested_bytes", 33554460, 1)]),
    # RDMA registrations refused by the card or never made: a setup fault
    case("ucx-reg-mr-bad-address", "ib_md.c:282     UCX  ERROR ibv_reg_mr(address=0xa02000000, length=2097152, access=0xf) failed: Bad address\n",
         [(FINAL, "ibv_reg_mr(address=0xa02000000, length=2097152, access=0xf) failed: Bad address: the network card could not register the "
                  "buffer for RDMA (GPUDirect RDMA, the driver or the transfer engine's version), not a lack of memory", 1)]),
    case("mooncake-region-not-registered", "E1125 01:42:29.248446 13170 rdma_transport.cpp:336] Memory region not registered by any active "
         "device(s): 0x12c180000000\n",
         [(FINAL, "Memory region not registered by any active device: the network card could not register the buffer for RDMA (GPUDirect "
                  "RDMA, the driver or the transfer engine's version), not a lack of memory", 1)]),
    case("nvshmem-ibgda-memory-type", "WARN: device mlx5_0 cannot allocate buffer on the specified memory type. Skipping...\n",
         [(FINAL, "cannot allocate buffer on the specified memory type: the network card could not register the buffer for RDMA "
                  "(GPUDirect RDMA, the driver or the transfer engine's version), not a lack of memory", 1)]),
    # macOS's allocator finding its heap corrupted; ROCm's GPU hang
    case("macos-pointer-not-allocated", "python(123,0x20bb3a240) malloc: *** error for object 0x600001720008: pointer being freed was not allocated\n",
         [(FINAL, "the C heap was corrupted (pointer being freed was not allocated): a native bug that wrote past its buffers, not a lack of "
                  "memory", 1)]),
    case("hsa-gpu-hang", "HW Exception by GPU node-4 (Agent handle: 0x559da9432ce0) reason :GPU Hang\n",
         [(FINAL, 'the GPU hung (ROCm\'s hardware exception "GPU Hang"): a kernel that did not finish, not a lack of memory', 1)]),
    # an app's error class for its llama.cpp process; a client's request to Ollama's port
    case("jan-llamacpp-process-error", 'LlamaCppProcessError, message: \\"The model process encountered an unexpected error.\\" }"\n',
         framework="llamacpp"),
    case("ollama-api-eof", 'Error: Post "http://127.0.0.1:11434/api/generate": EOF\n', [("oom.hint", "runner_died_silently", 1)],
         framework="ollama"),
    # (round 188) KoboldCpp's older survey line; the KV cache named as what failed to allocate
    case("koboldcpp-free-gpu-memory", "Detected Free GPU Memory: 8192 MB (Set GPU layers manually if incorrect)\n",
         [("mem.gpu_total_bytes", GiB(8), 1)]),
    case("kv-pool-malloc", lines("[kv] malloc k_pool: out of memory", "[FAIL] load_gguf"), [(OOM, "cuda_error_oom", 1)], phase="kv_alloc"),
    # an RDMA card's queue it could not create: not the RAM
    case("rdma-completion-queue", lines("E0620 17:20:15.656373   293 rdma_context.cpp:116] Failed to create completion queue: Cannot allocate "
                                        "memory [12]", "Fatal Python error: Segmentation fault"),
         [(FINAL, "Fatal Python error: Segmentation fault", 2)]),
    case("lmcache-memory-block", "LMCache WARNING: Failed to allocate memory block of size 15\n", [(OOM, "host_pool_full", 1)]),
    # KoboldCpp, which takes llama.cpp's settings in its own flags: its banner, its build's source paths
    case("koboldcpp-banner", "Welcome to KoboldCpp - Version 1.91\n", [("launcher", "koboldcpp", 1), ("oom.hint", "llamacpp_wrapper", 1)],
         framework="llamacpp"),
    case("koboldcpp-build-path", "D:\\a\\koboldcpp\\koboldcpp\\ggml\\src\\ggml-cuda.cu:728: GGML_ASSERT(tensor->view_src == nullptr) failed\n",
         [("launcher", "koboldcpp", 1), ("oom.hint", "llamacpp_wrapper", 1), (OOM, "ggml_assert", 1)], framework="llamacpp"),
    # (round 189) accelerate's batch-size search with no batch left: one sample's forward ran out of memory
    case("batch-search-exhausted", "RuntimeError: No executable batch size found, reached zero.\n",
         [(OOM, "torch_oom", 1), ("oom.hint", "batch_search_exhausted", 1)], phase="prefill"),
    # Ollama's runner gone with no cause given
    case("runner-terminated-bare", "Error: llama runner process has terminated\n", [("oom.hint", "runner_died_silently", 1)], framework="ollama"),
    case("runner-terminated-with-status", "Error: llama runner process has terminated: exit status 2\n",
         [(FINAL, "the runner crashed (exit status 2: a Go panic, or a fatal signal in its native code such as a segmentation fault); "
                  "its own lines above name the cause", 1)], framework="ollama"),
    # colour codes whose escape character a paste dropped
    case("bare-colour-codes", "\x5b2m2025-01-03T19:06:50.366843Z\x5b0m \x5b32m INFO\x5b0m \x5b2mtext_generation_launcher\x5b0m\x5b2m:\x5b0m "
         "Download: [13/30] -- ETA: 0:06:42.769236\n", framework="tgi"),
]

ROUND_190 = [
    # XLA's older wording of a device buffer it could not place, with no error code
    case("xla-not-possible", "*** [3]   (1) Resource exhausted: Attempting to allocate 180.59M. That was not possible. There are 142.58M "
         "free.; (0x3x0_HBM1)\n",
         [(OOM, "xla_oom", 1), ("oom.requested_bytes", MiB(180.59), 1), ("oom.gpu_free_bytes", MiB(142.58), 1)]),
    # a prompt longer than what the KV cache has left at that moment, counted in tokens
    case("prompt-over-kv-left", "ERROR vllm_rs::server::server: Stream generation failed: Remaining 416192 kvcache tokens, but your prompt "
         "requires 524288 new tokens, please request later!\n",
         [(OOM, "kv_runtime_exhausted", 1), ("oom.available_tokens", 416192, 1), ("oom.requested_tokens", 524288, 1)], phase="prefill"),
    case("prompt-under-kv-left", "Remaining 416192 kvcache tokens, but your prompt requires 2048 new tokens\n"),
    # OpenVINO's GPU plugin out of device memory; the CPU allocator's check cut after its file name
    case("openvino-gpu-resources", "[GPU] out of GPU resources\n", [(OOM, "cuda_error_oom", 1)]),
    case("cpu-allocator-cut", "RuntimeError: [enforce fail at alloc_cpu.cp\n", [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1)]),
    # PyTorch 2.1's out-of-memory report failing to load the driver's API
    case("torch-driver-api-assert", 'RuntimeError: handle_0 INTERNAL ASSERT FAILED at "../c10/cuda/driver_api.cpp":15, please report a bug '
         "to PyTorch.\n", [(OOM, "torch_oom", 1), ("oom.hint", "nvml_assert", 1)]),
    # XLA saying its own scalar memory cannot run out: its bug; a kernel's shared memory over the SM's
    case("xla-smem-bug", "(0) Resource exhausted: Ran out of memory in memory space smem. It should not be possible to run out of smem - "
         "please file a bug against XLA.\n",
         [(FINAL, "XLA ran out of the core's scalar memory (SMEM), which it says should not be possible: a compiler bug to report (or a "
                  "newer release), not a lack of memory", 1)]),
    case("xla-shared-memory-requested", "INTERNAL: Shared memory requested exceeds device resources.\n", [(OOM, "kernel_resource", 1)]),
    # the failure line naming the step that failed
    case("batch-prefill-failed", "batch prefill failed: Alloc failed: DriverError(CUDA_ERROR_OUT_OF_MEMORY)\n", [(OOM, "cuda_error_oom", 1)],
         phase="prefill"),
    case("image-decode-failed-no-phase", "image decode failed: unsupported format\n", phase=None),
    # Sophgo's bmlib refusing a device allocation, its size in hexadecimal
    case("bmlib-alloc-zero", "[bmlib_memory][error] bm_alloc_gmem failed, dev_id = 0, size = 0x0\n",
         [(OOM, "cuda_error_oom", 1), ("oom.requested_bytes", 0, 1)]),
    case("bmlib-alloc-16m", "[bmlib_memory][error] bm_alloc_gmem failed, dev_id = 0, size = 0x1000000\n",
         [(OOM, "cuda_error_oom", 1), ("oom.requested_bytes", MiB(16), 1)]),
    # vLLM's workspace manager; PyTorch's XPU allocator
    case("vllm-workspace-locked-names-vllm", "AssertionError: Workspace is locked but allocation from 'turboquant_attn.py:879:_decode_attention' "
         "requires 0.76 MB\n", [(OOM, "workspace_overflow", 1)], framework="vllm"),
    case("xpu-oom-bare", "RuntimeError: XPU out of memory\n", [(OOM, "torch_oom", 1), ("gpu.backend", "sycl", 1)], framework="transformers"),
    # (round 191) a runtime's report of a failed driver allocation by its status number, with the device's own figures
    case("cumemalloc-status-2", "Caused by: cuMemAlloc_v2 failed: status 2, requested 4683632640 bytes (device reports 4280.2 MB free / "
         "95.0 GB total)\n",
         [(OOM, "cuda_error_oom", 1), ("oom.requested_bytes", 4683632640, 1), ("oom.gpu_free_bytes", MiB(4280.2), 1),
          ("oom.gpu_total_bytes", GiB(95), 1)]),
    case("cumemalloc-status-1", "cuMemAlloc_v2 failed: status 1, requested 64 bytes\n",
         [(FINAL, "the CUDA driver's cuMemAlloc returned CUDA_ERROR_INVALID_VALUE: not out of memory", 1)]),
    # a hosted API's size policy, not memory
    case("hf-api-size-limit", "ValueError: Error occured when fetching info: {'error': 'The model akjindal53244/Llama-3.1-Storm-8B is too "
         "large to be loaded automatically (16GB > 10GB). Please use Spaces (https://huggingface.co/spaces) or Inference Endpoints.'}\n",
         [(FINAL, "the hosted Inference API loads models up to 10GB by itself and this one is 16GB: a service's size policy, not memory "
                  "that ran out (a dedicated endpoint or a local server runs it)", 1),
          ("knob.model", "akjindal53244/Llama-3.1-Storm-8B", 1), ("model.params", 8000000000, 1)]),
    # a failure line no family knows, its figures read in its own words (oomdoctor.parsers.capacity)
    case("stated-need-free-total", "CUDA OOM: need 12.3GB but only 8.1GB free (total 24GB)\n",
         [(OOM, "cuda_error_oom", 1), ("mem.required_bytes", GiB(12.3), 1), ("oom.gpu_free_bytes", GiB(8.1), 1), ("oom.gpu_total_bytes", GiB(24), 1)]),
    case("stated-used-of-total", "ERROR: insufficient VRAM (used 23.5 GB of 24 GB) while loading model\n",
         [(OOM, "cuda_error_oom", 1), ("oom.gpu_free_bytes", GiB(0.5), 1), ("oom.gpu_total_bytes", GiB(24), 1)], phase="load_weights"),
    # (a host allocation's figures are not the card's)
    case("stated-host-figures-not-the-card", "RAM allocation failed: requested 4096 MiB, available 1024 MiB\n",
         [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1)]),
    # LMCache's older module path names the vLLM it runs in
    case("lmcache-experimental-path", "Failed to allocate memory for tensor(torch.Size([2, 80, 256, 256]), torch.float16) because no memory "
         "is available (memory_management.py:444:lmcache.experimental.memory_management)\n",
         [(OOM, "host_pool_full", 1), ("oom.requested_bytes", MiB(20), 1)], framework="vllm"),
]

ROUND_192 = [
    # PyTorch's report since 2.1 with the share the process may use, set by a memory fraction ("... is free. 1.05 GiB allowed;")
    case("torch-new-allowed", "torch.OutOfMemoryError: HIP out of memory. Tried to allocate 2.00 MiB. GPU 0 has a total capacity of 23.41 GiB of "
         "which 21.22 GiB is free. 1.05 GiB allowed; Of the allocated memory 1017.01 MiB is allocated by PyTorch, and 54.99 MiB is reserved "
         "by PyTorch but unallocated.\n", [(OOM, "torch_oom", 1), ("oom.requested_bytes", MiB(2), 1), ("oom.device", "0", 1),
                                           ("oom.gpu_total_bytes", GiB(23.41), 1), ("oom.gpu_free_bytes", GiB(21.22), 1),
                                           ("oom.gpu_limit_bytes", GiB(1.05), 1), ("oom.torch_allocated_bytes", MiB(1017.01), 1),
                                           ("oom.torch_unallocated_bytes", MiB(54.99), 1)], framework="transformers"),
    # XLA's compile-time check by its own name
    case("xla-compile-time-hbm", "jax.errors.JaxRuntimeError: RESOURCE_EXHAUSTED: CompileTimeHbmOom — Used 94.78G of 94.75G hbm. Exceeded hbm "
         "capacity by 35.55M.\n", [(OOM, "xla_oom", 1), ("mem.required_bytes", GiB(94.78), 1), ("oom.gpu_total_bytes", GiB(94.75), 1)]),
    # std::bad_alloc in Microsoft's C++ library, passed on by ONNX Runtime under Windows: the host's memory
    case("msvc-bad-allocation", "2025-08-14 10:47:21.4888608 [E:onnxruntime:, sequential_executor.cc:572 onnxruntime::ExecuteKernel] Non-zero "
         "status code returned while running MatMulNBits node. Name:'/lm_head/MatMul_Q4' Status Message: bad allocation\n",
         [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1)]),
    # ROCm that could not open the GPU: its device query failing to start the runtime, the driver's device refusing to open
    case("rocminfo-init-failed", lines("hsa api call failure at: /long_pathname/src/rocminfo/rocminfo.cc:1306",
                                       "Call returned HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary resources."),
         [(OOM, "broken_install", 1), ("oom.hint", "device_init", 1), (OOM, "runtime_resources", 2)]),
    case("kfd-open-refused", "Unable to open /dev/kfd read-write: Cannot allocate memory\n",
         [(OOM, "broken_install", 1), ("oom.hint", "device_init", 1)]),
    # Qualcomm's QNN backend: a graph over the allocation one graph may have
    case("qnn-graph-over-limit", "1475479.4ms [ ERROR ] fa_alloc.cc:2425::ERROR:graph requires estimated allocation of 2741569 KB, limit is "
         "2097152 KB\n", [(OOM, "cuda_error_oom", 1), ("mem.required_bytes", 2741569 << 10, 1), ("oom.gpu_limit_bytes", 2097152 << 10, 1)]),
    # Windows' video memory manager out of room, its status text wrapped over lines
    case("windows-video-memory-page-in", lines("[XRT] ERROR: Failed to submit command to hw queue (0xc01e0200):",
                                               "Even after the video memory manager split the DMA buffer, the video ",
                                               "memory manager could not page-in all of the required allocations into",
                                               "video memory at the same time. The device is unable to continue."),
         [(OOM, "cuda_error_oom", 3)]),
    # SGLang's hybrid-model state pool and sliding-window allocator name it; vLLM's workspace check wrapped before its caller
    case("sglang-mamba-pool-line", "max_mamba_cache_size: 4, conv_state 0.01GB, ssm_state 0.35GB, intermediate_ssm_state_cache 1.69GB\n",
         framework="sglang"),
    case("sglang-mamba-alloc-assert", "AssertionError: Can not alloc mamba cache\n", framework="sglang"),
    case("sglang-swa-allocator", "DEBUG: alloc: need_size=1, self.full_attn_allocator.available_size()=5710, "
         "self.swa_attn_allocator.available_size()=206\n", framework="sglang"),
    # (round 193) Microsoft's C++ library naming a lookup out of its range: not memory
    case("msvc-map-key", "2025-04-03 19:28:32.7755193 [E:onnxruntime:onnxruntime-genai, inference_session.cc:2118] Exception during "
         "initialization: invalid unordered_map<K, T> key\n",
         [(FINAL, "a C++ lookup out of its range (invalid unordered_map<K, T> key): an engine bug or an input it does not handle, not memory", 1)]),
    # a WebAssembly build's runtime out of its linear memory
    case("wasm-aborted-oom", lines("whisper_init_state: kv cross size =   17.58 MB", "Aborted(OOM)"),
         [(OOM, "host_alloc_failed", 2), ("oom.cpu_alloc_failed", True, 2), ("oom.hint", "managed_heap", 2)]),
    case("wasm-cannot-enlarge", "Aborted(Cannot enlarge memory arrays to size 2164326400 bytes (OOM). Either (1) compile with "
         "-sINITIAL_MEMORY=X with X higher than the current value 2147483648, (2) compile with -sALLOW_MEMORY_GROWTH)\n",
         [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1), ("oom.requested_bytes", 2164326400, 1),
          ("oom.hint", "managed_heap", 1)]),
    case("vllm-workspace-locked-wrapped", lines("  AssertionError: Workspace is locked but allocation from",
                                                "  'rocm_aiter_mla.py:767:_mla_fp8_prefill_attn' requires 30.29 MB,"),
         [(OOM, "workspace_overflow", 1)], framework="vllm"),
]

ROUND_196 = [
    # a GGUF file named in an app's line, its size in its name: the model (not a speculative-decoding draft's file)
    case("gguf-file-named", "Model found at C:\\Users\\me\\models\\codellama-34b-instruct.Q2_K.gguf\n",
         [("knob.model", "codellama-34b-instruct.Q2_K", 1), ("model.params", 34e9, 1), ("knob.quantization", "q2_k", 1)]),
    case("gguf-draft-file-not-the-model", "-md /models/Mistral-Small-3.1-DRAFT-0.5B.Q8_0.gguf \\\n", []),
    # a device that lacks a named feature (SYCL's aspect): a missing feature, whatever memory words the aspect's name holds
    case("sycl-missing-aspect", "RuntimeError: The device does not have the ext_intel_free_memory aspect\n",
         [(FINAL, "RuntimeError: The device does not have the ext_intel_free_memory aspect", 1)]),
    # a 4-bit layer's forward (bitsandbytes dequantizes its weight on every step, then the matmul): not the load's quantizing
    case("bnb-dequantize-forward", lines("--> 520 output = torch.nn.functional.linear(A, F.dequantize_4bit(B, quant_state).to(A.dtype).t(), bias)",
                                         "OutOfMemoryError: HIP out of memory. Tried to allocate 224.00 MiB. GPU "),
         [(OOM, "torch_oom", 2), ("oom.requested_bytes", MiB(224), 2)], phase="prefill"),
    # (round 197) llama-server's prompt cache in RAM evicting its oldest entry to keep to --cache-ram: housekeeping
    case("llamacpp-prompt-cache-evict", "srv      alloc:  - making room for prompt cache entry, removing oldest entry (size = 3418.112 MiB)\n",
         [(OOM, "memory_notice", 1)]),
    # an index past a dimension the size of a context: a sequence longer than the model's positions; a vocabulary's size is
    # no context
    case("gather-past-positions", "tensorflow.python.framework.errors_impl.InvalidArgumentError: indices[0,0] = 1024 is not in [0, 1024)\n",
         [(FINAL, "tensorflow.python.framework.errors_impl.InvalidArgumentError: indices[0,0] = 1024 is not in [0, 1024)", 1),
          ("error.positions", 1024, 1)]),
    case("gather-past-vocabulary", "InvalidArgumentError: indices[3,7] = 50257 is not in [0, 50257)\n",
         [(FINAL, "InvalidArgumentError: indices[3,7] = 50257 is not in [0, 50257)", 1)]),
    # SGLang's check of its radix cache's pool, by its own wording: SGLang, and a bookkeeping bug, not memory
    case("sglang-pool-check", lines("ValueError: pool memory leak detected! [full] total=205888, available=205888,",
                                    "evictable=0, protected=-12, session_hel"),
         [(OOM, "bookkeeping_bug", 1)], framework="sglang"),
    # Ollama's ggml asking the driver for a device's memory: the card's size
    case("ollama-ggml-device-memory", "ggml_backend_vk_get_device_memory utilizing DXGI + PDH memory reporting free: 14816755712 total: 17071108096\n",
         [("gpu.total_bytes", 17071108096, 1)]),
]

ROUND_198 = [
    # PyTorch's old message cut by the paste after its free figure ("... 228.56 MiB free; 11.57 GiB reserved in total by PyTor"):
    # the free memory is still read, so what sits outside PyTorch's pool is known
    case("torch-old-cut-after-free",
         "RuntimeError: CUDA out of memory. Tried to allocate 568.00 MiB (GPU 0; 23.69 GiB total capacity; 11.57 GiB already allocated; "
         "228.56 MiB free; 11.57 GiB reserved in total by PyTor\n",
         [(OOM, "torch_oom", 1), ("oom.requested_bytes", MiB(568), 1), ("oom.gpu_total_bytes", GiB(23.69), 1),
          ("oom.torch_allocated_bytes", GiB(11.57), 1), ("oom.gpu_free_bytes", MiB(228.56), 1), ("oom.device", "0", 1)]),
    # DeepSpeed's inference kernels sizing their workspace: DeepSpeed, and the tokens it is sized for
    case("deepspeed-workspace-sizing",
         "Free memory : 10964500480 (Bytes)  Total memory: 25434587136 (Bytes)  Setting maximum total tokens (input + output) to 414 \n",
         [("mem.workspace_tokens", 414, 1)], framework="deepspeed"),
    # (round 199) Colab's notice in lower case, and the Jupyter server restarting a kernel that died
    case("colab-ram-notice-lower-case", "your session crashed after using all available ram\n",
         [(OOM, "kernel_oom_kill", 1), ("oom.hint", "notebook", 1)]),
    case("jupyter-kernel-restarted", "Jun 9, 2024, 11:45:20 AM | INFO | KernelRestarter: restarting kernel (1/5), keep random ports\n",
         [("oom.hint", "kernel_died", 1)]),
    # XLA's stream executor refusing one device allocation: its size
    case("xla-request", "RuntimeError: Resource exhausted: Failed to allocate request for 87.48GiB (93935126000B) on device ordinal 0\n",
         [(OOM, "cuda_error_oom", 1), ("oom.requested_bytes", 93935126000, 1)]),
]

ROUND_200 = [
    # Python's process pool after a worker ended without raising: a kill from outside, most often the OOM killer's
    case("process-pool-worker-died",
         "2026-02-26 11:02:37.228 | ERROR    | mineru.cli.client:parse_doc:211 - A process in the process pool was terminated "
         "abruptly while the future was running or pending.\n",
         [(OOM, "pool_worker_died", 1)]),
    case("process-pool-unusable", "BrokenProcessPool: A child process terminated abruptly, the process pool is not usable anymore\n",
         [(OOM, "pool_worker_died", 1)]),
    # Paddle Lite's host allocator refusing a size: host RAM and the size
    case("paddle-lite-host-malloc",
         "[F  8/ 5 17: 3:21.389 ...ite/lite/backends/host/target_wrapper.cc:29 Malloc] Check failed: p: Error occurred in "
         "TargetWrapper::Malloc period: no enough for mallocing 57446400 bytes.\n",
         [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1), ("oom.requested_bytes", 57446400, 1)]),
    # a graphics API's cap on one bound buffer, the sizes in either order: not the card's memory (2048 MB is a cap, not free)
    case("binding-limit-model-over",
         "ERROR shimmy::openai_compat: Failed to load model 'gemma-4-12b-it-q8-0': Airframe GPU load failed: Model file (12083 MB) "
         "exceeds this GPU's storage buffer binding limit (2048 MB). Try a more quantized model or update your GPU drivers.\n",
         [(OOM, "buffer_over_limit", 1), ("oom.requested_bytes", MiB(12083), 1), ("oom.buffer_limit_bytes", MiB(2048), 1),
          ("knob.model", "gemma-4-12b-it-q8-0", 1), ("knob.quantization", "q8", 1), ("model.params", 12_000_000_000, 1)],
         phase="load_weights"),
    case("binding-limit-chunk-over",
         "Error: Airframe GPU load failed: GPU storage buffer binding limit (1024 MB) is too small for the bindless chunk size "
         "(1907 MB). Update your GPU drivers.\n",
         [(OOM, "buffer_over_limit", 1), ("oom.requested_bytes", MiB(1907), 1), ("oom.buffer_limit_bytes", MiB(1024), 1)],
         phase="load_weights"),
    # a cluster's per-user memory watchdog killing a job
    case("user-memory-watchdog", lines("Killed process marian (PID: 193038) of user ***",
                                       "User was using total 21844M, and had requested ram_free=9000M;"),
         [(OOM, "killed", 1)]),
    # an embedding job: the inputs per batch are what its buffers grow with
    case("embeddings-endpoint", "Embedding: model=bge-m3-mlx-8bit, 32 inputs, 1024 dims, 143059 tokens, max_length=8194 in 73.126s\n",
         [("oom.hint", "embedding", 1), ("knob.model", "bge-m3-mlx-8bit", 1)]),
    # gunicorn's timeout a second before its kill, ten minutes after an earlier pair: the lead-in stays with the failure
    case("relaunch-keeps-lead-in",
         lines("[2025-01-06 07:28:04 +0000] [1] [CRITICAL] WORKER TIMEOUT (pid:418)",
               "[2025-01-06 07:28:05 +0000] [1] [ERROR] Worker (pid:418) was sent SIGKILL! Perhaps out of memory?",
               "[2025-01-06 07:28:05 +0000] [511] [INFO] Booting worker with pid: 511",
               "[2025-01-06 07:38:01 +0000] [1] [CRITICAL] WORKER TIMEOUT (pid:424)",
               "[2025-01-06 07:38:02 +0000] [1] [ERROR] Worker (pid:424) was sent SIGKILL! Perhaps out of memory?"),
         [(FINAL, GUNICORN_TIMEOUT, 4), (OOM, "killed", 5), ("oom.exit_signal", "SIGKILL", 5)], failure_line=5),
]

ROUND_194 = [
    # a traceback through PyTorch's fused attention call: the failure is the attention's own, a forward's
    case("torch-sdpa-call", lines("    torch_fn = lambda: torch.nn.functional.scaled_dot_product_attention(",
                                  "                       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
                                  "RuntimeError: UR backend failed. UR backend returns:40 (UR_RESULT_ERROR_OUT_OF_RESOURCES)"),
         [(OOM, "cuda_error_oom", 3), ("gpu.backend", "sycl", 3)], phase="prefill"),
    # accelerate's disk offload with no folder, the backtick glued to the next word; its offloaded-weights loader refusing to start
    case("accelerate-offload-dir-glued", "ValueError: We need an `offload_dir`to dispatch this model according to this`device_map`, the "
         "following submodules need to be offloaded: base_model.model.model.layers.27\n", [(OOM, "weights_offloaded", 1)], phase="load_weights"),
    case("accelerate-offload-loader", lines('  File "/envs/app/lib/python3.10/site-packages/accelerate/utils/offload.py", line 150, in __init__',
                                            '    raise ValueError("Need'),
         [(OOM, "weights_offloaded", 1), ("oom.hint", "traceback", 1),
          (FINAL, 'the log ends where the code raises ValueError (raise ValueError("Need); its message line is cut', 2)], phase="load_weights"),
    # Ascend's runtime with no device context in the calling thread: not memory, though the allocator's call names it
    case("ascend-no-context", lines("RuntimeError: allocate:/usr1/02/workspace/pytorch/torch_npu/csrc/core/npu/NPUCachingAllocator.cpp:1406 "
                                    "NPU error, error code is 107002", "[Error]: The context is empty."),
         [(FINAL, ASCEND_NO_CONTEXT, 1), (FINAL, ASCEND_NO_CONTEXT, 2)]),
    # the shell's "Killed" in Brazilian Portuguese and Spanish
    case("killed-pt-br", lines("Quantizing model weights for int8 weight-only symmetric per-channel quantization", "Morto"),
         [(OOM, "killed", 2), ("oom.exit_signal", "SIGKILL", 2)]),
    case("killed-es", "Terminado (killed)\n", [(OOM, "killed", 1), ("oom.exit_signal", "SIGKILL", 1)]),
    # CubeCL's memory manager (burn's GPU backends) with no pool for the request: its configured pools, not the device
    case("cubecl-no-pool", "No memory pool big enough to reserve 262144000 bytes.\n",
         [(OOM, "allocator_cap", 1), ("oom.hint", "cubecl_pool", 1), ("oom.requested_bytes", 262144000, 1)]),
    case("cubecl-no-pool-handles", "thread 'main' panicked at cubecl-runtime/src/memory_management/memory_manage.rs:341:32:\n"
         "No pool handles allocation of size 411041792\n",
         [(OOM, "allocator_cap", 2), ("oom.hint", "cubecl_pool", 2), ("oom.requested_bytes", 411041792, 2)]),
    # PyTorch's out-of-memory report with only its end kept: its advice, and the old report's last fields
    case("torch-oom-tail-only", lines("allocated; 0 bytes free; 7.13 GiB reserved in total by PyTorch) If reserved memory is >> allocated memory try setting",
                                      "max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF"),
         [(OOM, "torch_oom", 1), ("oom.gpu_free_bytes", 0, 1), ("oom.torch_reserved_bytes", GiB(7.13), 1)]),
    case("torch-oom-advice-new", "If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to "
         "avoid fragmentation.\n", [(OOM, "torch_oom", 1)]),
    # Gaudi's graph helper refusing the compiled graph's workspace: one step's intermediate tensors
    case("hpu-graph-workspace", "RuntimeError: FATAL ERROR :: MODULE:SYNHELPER workspace Allocation of size ::14493741952 failed\n",
         [(OOM, "cuda_error_oom", 1), ("oom.requested_bytes", 14493741952, 1), ("mem.activation_peak_bytes", 14493741952, 1)]),
    # PyTorch's cudaMallocAsync report names its backend
    case("torch-async-names-backend", "torch.cuda.OutOfMemoryError: Allocation on device 5 would exceed allowed memory. (out of memory)\n",
         [(OOM, "torch_oom", 1), ("oom.hint", "async_allocator", 1), ("oom.device", "5", 1)]),
    # LM Studio's embedding engine, which its llama.cpp engine runs
    case("lmstudio-embedding-engine", "Failed to load model into embedding engine. Message: Embedding engine exception: Failed to load model. "
         "Internal error: failed to allocate compute buffers\n", [("oom.kind", "ggml_alloc_failed", 1), ("oom.buffer", "compute", 1)], framework="llamacpp"),
    # (round 195) a supervisor or a platform reporting its child killed for memory; not PyTorch's exception by that name
    case("istio-envoy-oom-killed", lines("2026-06-08T11:19:42.225881ZEnvoy may have been out of memory killed. Check memory usage and limitswarn",
                                         "2026-06-08T11:19:42.225939ZerrorEnvoy exited with error: signal: killed"),
         [(OOM, "killed", 1), ("oom.hint", "container", 1), (OOM, "killed", 2), ("oom.exit_signal", "SIGKILL", 2)]),
    case("platform-container-killed", "exit 137  OutOfMemoryError: container killed due to memory usage  19:51:01\n",
         [(OOM, "exit_137", 1), ("oom.exit_signal", "137", 1), (OOM, "killed", 1), ("oom.hint", "container", 1)], framework="other"),
    # a JAX error by its module's name, with no JAX frame kept: a JAX program, no engine in the list
    case("jaxlib-error-name", "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: XLA:TPU compile permanent error. Ran out of memory in "
         "memory space hbm. Used 21.90G of 7.48G hbm. Exceeded hbm capacity by 14.42G.\n",
         [(OOM, "xla_oom", 1), ("mem.required_bytes", GiB(21.90), 1), ("oom.gpu_total_bytes", GiB(7.48), 1)], framework="other"),
]

INT32_CAP = ("the library caps one buffer or tensor at 2^31 (its sizes are 32-bit integers): a size past its limit, not a "
             "lack of memory; split the input or lower its resolution")
ACCESS_VIOLATION = ("an access violation: native code read or wrote protected memory (a native library that does not match its "
                    "binding, a bad pointer), not a lack of memory")

ROUND_202 = [
    # a cap on one message or one allocation, not free memory: gRPC's message size, PostgreSQL's 1 GiB per allocation
    case("grpc-message-over-max", "grpc: received message larger than max (79782097 vs. 67108864)\n",
         [(OOM, "buffer_over_limit", 1), ("oom.requested_bytes", 79782097, 1), ("oom.buffer_limit_bytes", 67108864, 1),
          ("oom.hint", "message_size_cap", 1)]),
    case("postgres-alloc-request-size", "ERROR:  invalid memory alloc request size 1073774812\n",
         [(OOM, "buffer_over_limit", 1), ("oom.requested_bytes", 1073774812, 1), ("oom.buffer_limit_bytes", (1 << 30) - 1, 1),
          ("oom.hint", "alloc_size_cap", 1)]),
    # .NET's access violation names memory that is protected, not exhausted
    case("dotnet-access-violation",
         "Fatal error. System.AccessViolationException: Attempted to read or write protected memory. This is often an indication "
         "that other memory is corrupt.\n",
         [(FINAL, ACCESS_VIOLATION, 1)]),
    # Slurm's step daemon relaying a kill in its cgroup, "event(s)" as it prints it
    case("slurm-oom-kill-events",
         "slurmstepd: error: Detected 1 oom-kill event(s) in StepId=27501792.batch cgroup. Some of your processes may have been "
         "killed by the cgroup out-of-memory handler.\n",
         [(OOM, "kernel_oom_kill", 1), ("oom.exit_signal", "SIGKILL", 1)]),
    # faiss's cudaMalloc refusals with their sizes: status 2 or none is out of memory, another status its own error
    case("faiss-cudamalloc-size",
         "Faiss assertion 'cudaMalloc(p, size) == cudaSuccess' failed in void faiss::gpu::allocMemorySpace(faiss::gpu::MemorySpace, "
         "void**, size_t) at utils/MemorySpace.cpp:20; details: Failed to cudaMalloc 16000000000 bytes\n",
         [(OOM, "cuda_error_oom", 1), ("oom.requested_bytes", 16000000000, 1)]),
    case("faiss-cudamalloc-error-2",
         "Faiss assertion 'err == cudaSuccess' failed in char* faiss::gpu::StackDeviceMemory::Stack::getAlloc(size_t, cudaStream_t) "
         "at StackDeviceMemory.cpp:77; details: cudaMalloc error 2 on alloc size 18446744065779875840\n",
         [(OOM, "cuda_error_oom", 1), ("oom.requested_bytes", 18446744065779875840, 1)]),
    case("faiss-cudamalloc-other-status",
         "Error: 'err == cudaSuccess' failed: Failed to cudaMalloc 1048576 bytes on device 0 (error 700 an illegal memory access "
         "was encountered)\n",
         [(OOM, "illegal_memory_access", 1)]),
    # cymem's pool (spaCy, thinc) refusing host RAM, its size stated
    case("cymem-error-assigning", "MemoryError: Error assigning 18446744072562989824 bytes\n",
         [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1), ("oom.requested_bytes", 18446744072562989824, 1)]),
    # a question, then the answer on the same line
    case("question-then-statement",
         "Could not predict test_cdf7a. Not Enough GPU memory? RESOURCE_EXHAUSTED: Out of memory while trying to allocate 7866899248 "
         "bytes.\n",
         [(OOM, "cuda_error_oom", 1), ("oom.requested_bytes", 7866899248, 1)]),
    # a managed runtime's heap over its cap: host RAM, and the cap to raise
    case("v8-heap-limit", lines("FATAL ERROR: Ineffective mark-compacts near heap limit Allocation failed",
                                "- JavaScript heap out of memory"),
         [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1), ("oom.hint", "managed_heap", 1),
          (OOM, "host_alloc_failed", 2), ("oom.cpu_alloc_failed", True, 2), ("oom.hint", "managed_heap", 2)]),
    case("netty-direct-memory",
         "io.netty.util.internal.OutOfDirectMemoryError: failed to allocate 65536 byte(s) of direct memory (used: 10429447, max: "
         "10485760)\n",
         [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1), ("oom.hint", "managed_heap", 1)]),
    # a failure that names no side, beside one that names the host, in a log that names no device: the host's
    case("side-unstated-beside-host", lines("NOT ENOUGH MEMORY TO PARSE SENTENCES OF LENGTH 130",
                                             'Exception in thread "Thread-3" java.lang.OutOfMemoryError: Java heap space'),
         [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1),
          (OOM, "host_alloc_failed", 2), ("oom.cpu_alloc_failed", True, 2), ("oom.hint", "managed_heap", 2)]),
    # tcmalloc's notices of large host allocations: the largest
    case("tcmalloc-large-allocs", lines("tcmalloc: large alloc 2550136832 bytes == 0x24120000 @",
                                        "tcmalloc: large alloc 3489660928 bytes == 0x24120000 @"),
         [("mem.host_large_alloc_bytes", 3489660928, 2)]),
    # a batch skipped for memory is a forward pass that did not fit, a warning though it is
    case("oom-batch-skipped", "      Predicting DataLoader 0:   0%|   | 0/1 [00:00<?, ?it/s]| WARNING: ran out of memory, skipping batch\n",
         [(OOM, "cuda_error_oom", 1)], phase="prefill"),
    # libraries' own statuses for a device allocation refused
    case("curand-allocation-failed", "CURANDError: CURAND_STATUS_ALLOCATION_FAILED\n", [(OOM, "cuda_error_oom", 1)]),
    case("tf-dst-tensor", "tensorflow.python.framework.errors_impl.InternalError: Dst tensor is not initialized.\n",
         [(OOM, "cuda_error_oom", 1)]),
    # a model's .cuda() is the load (an input's is not: test_an_input_moved_onto_the_card_is_not_the_load)
    case("model-to-cuda-is-load", lines("    model = model.cuda()", "OutOfMemoryError: CUDA out of memory. Tried to allocate 18.53 GiB. GPU"),
         [(OOM, "torch_oom", 2), ("oom.requested_bytes", GiB(18.53), 2)], phase="load_weights"),
    # TensorFlow's tensor of three or more dimensions, this large: a batch's pass (not GPT-2's stacked key/value cache, with its 2)
    case("tf-4d-tensor-is-a-pass",
         "ResourceExhaustedError (see above for traceback): OOM when allocating tensor with shape[3,16,1024,1024] and type float on "
         "/job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n",
         [(OOM, "cuda_error_oom", 1), ("oom.requested_bytes", 201326592, 1)], phase="prefill"),
    case("tf-kv-pair-tensor-no-phase",
         "ResourceExhaustedError: OOM when allocating tensor with shape[1,48,2,25,566,64] and type float on "
         "/job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n",
         [(OOM, "cuda_error_oom", 1), ("oom.requested_bytes", 347750400, 1)], phase=None),
    # TensorFlow 1.x's node with its op: a MatMul is a pass
    case("tf1-node-op", lines("ResourceExhaustedError (see above for traceback): OOM when allocating tensor with shape[1664,279617]",
                              "\t [[Node: dynamic_seq2seq/decoder/output_projection/Tensordot/MatMul = MatMul[T=DT_FLOAT, "
                              "transpose_a=false, _device=\"/job:localhost/replica:0/task:0/gpu:0\"](dynamic_seq2seq/decoder/Reshape)]]"),
         [(OOM, "cuda_error_oom", 1)], phase="prefill"),
    case("fairseq-skipped-on-gpu", "| WARNING: ran out of memory on GPU #2, skipping batch\n", [(OOM, "cuda_error_oom", 1)], phase="prefill"),
    # TensorRT's tactic notice glued to its state's name
    case("trt-tactic-skipped-glued",
         "[11/28/2023-15:47:38] [TRT] [W] UNSUPPORTED_STATESkipping tactic 4 due to insufficient memory on requested size of 66048 "
         "detected for tactic 0x000000000000001f.\n",
         [(OOM, "memory_notice", 1), ("oom.hint", "engine_build", 1)], framework="tensorrt-llm"),
    # (a device named anywhere in the log keeps it the device's)
    case("side-unstated-with-device", lines("  Device 0: NVIDIA GeForce RTX 4090, compute capability 8.9, VMM: yes",
                                             "NOT ENOUGH MEMORY TO PARSE SENTENCES OF LENGTH 130",
                                             'Exception in thread "Thread-3" java.lang.OutOfMemoryError: Java heap space'),
         [("gpu.name", "NVIDIA GeForce RTX 4090", 1), ("gpu.total_bytes", 25393994138, 1), (OOM, "cuda_error_oom", 2),
          (OOM, "host_alloc_failed", 3), ("oom.cpu_alloc_failed", True, 3), ("oom.hint", "managed_heap", 3)]),
]


ROUND_204 = [
    # the shell's kill glued to what the program left unended: a timer, a "...", a Chinese locale's word after a cut line;
    # a launcher's own upper-case word alone
    case("killed-after-timer", "OCR     ━━━╺━━━━━━━━━━━━━━━━━━━━━━━━━━━   8%  1/13 0:00:01Killed\n",
         [(OOM, "killed", 1), ("oom.exit_signal", "SIGKILL", 1)]),
    case("zsh-killed-after-ellipsis", "Diffusers  7.08s/it 78% 7/9 00:30 00:14 Loading pipeline components...zsh: killed     ./webui.sh\n",
         [(OOM, "killed", 1), ("oom.exit_signal", "SIGKILL", 1)]),
    case("killed-zh-after-cut-line",
         "CRITICAL 04-02 10:00:15 [core_client.py:269] Got fatal signal from worker processes, shutting down. See stack trace above "
         "for root cause issue.rm) 已杀死\n",
         [(OOM, "killed", 1), ("oom.exit_signal", "SIGKILL", 1)]),
    case("killed-upper-case-alone", "KILLED\n", [(OOM, "killed", 1), ("oom.exit_signal", "SIGKILL", 1)]),
    # a driver status a warning reports the run went on past is not the failure; the kill after it is
    case("driver-status-in-warnings",
         lines("/venv/lib/python3.10/site-packages/torch/cuda/__init__.py:83: UserWarning: HIP initialization: Unexpected error from "
               "hipGetDeviceCount(). Error 101: hipErrorInvalidDevice (Triggered internally at ../c10/hip/HIPFunctions.cpp:110.)",
               "Warning: caught exception 'Unexpected error from hipGetDeviceCount(). Error 101: hipErrorInvalidDevice', memory "
               "monitor disabled",
               "Killed"),
         [(OOM, "killed", 3), ("oom.exit_signal", "SIGKILL", 3)]),
    # older V8's last collection before it gave up, and an Emscripten build's heap at its compiled size: host heaps with caps
    case("v8-last-resort-gc",
         "[19278:0x102804600]    39027 ms: Mark-sweep 651.8 (658.9) -> 651.8 (658.9) MB, 189.5 / 0.0 ms  last resort gc\n",
         [("oom.hint", "managed_heap", 1), (OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1)]),
    case("wasm-heap-cannot-enlarge",
         "Cannot enlarge memory arrays. Either (1) compile with -s TOTAL_MEMORY=X with X higher than the current value 100663296, "
         "(2) compile with ALLOW_MEMORY_GROWTH which adjusts the size at runtime but prevents some optimizations\n",
         [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1), ("oom.hint", "managed_heap", 1)]),
    # Jupyter naming the notebook whose kernel died
    case("jupyter-kernel-for-notebook-died", "The kernel for tabicl.ipynb appears to have died. It will restart automatically.\n",
         [("oom.hint", "kernel_died", 1)]),
    # a library's 2^31 cap on one buffer or one tensor's elements: a size past its limit, not memory
    case("leptonica-2-31-bytes", "ERROR -  213: [tesseract] Error in pixCreateHeader: requested bytes >= 2^31\n", [(FINAL, INT32_CAP, 1)]),
    case("mxnet-2-31-elements",
         "MXNetError: Check failed: inp->shape().Size() < (int64_t{1} << 31) - 1 (3062188800 vs. 2147483647) : [SetNDInputsOutputs] "
         "Size of tensor you are trying to allocate is larger than 2^31 elements. Please build with flag USE_INT64_TENSOR_SIZE=1\n",
         [(FINAL, INT32_CAP, 1)]),
    # a training library's own check of a model against free RAM, with its numbers or its share
    case("fit-memory-check-numbers",
         lines("\tWarning: Not enough memory to safely train model, roughly requires: 9.425 GB, but only 9.642 GB is available...",
               "\tNot enough memory to train LightGBM... Skipping this model."),
         [(OOM, "host_insufficient", 1), ("oom.host_required_bytes", GiB(9.425), 1), ("oom.host_available_bytes", GiB(9.642), 1),
          (OOM, "host_insufficient", 2)]),
    case("fit-memory-check-share", "Warning: Model is expected to require 149.58% of available memory...\n",
         [(OOM, "host_insufficient", 1)]),
    # "unsufficient", as a non-native writer spells it
    case("unsufficient-ram",
         "The generation of the video has encountered an error: it is likely that you have unsufficient RAM and / or Reserved RAM "
         "allocation should be reduced\n",
         [(OOM, "host_alloc_failed", 1), ("oom.cpu_alloc_failed", True, 1)]),
    # a cluster scheduler's refusal with its arithmetic: the largest need against the largest worker; no card; a card's share
    case("scheduler-refusal-numbers",
         lines("Unable to find a schedulable worker for the model.",
               "- The model requires approximately 87.8 GiB of VRAM.",
               "- With --gpu-memory-utilization=0.9, all GPUs combined need to provide at least 97.56 GiB of total VRAM and each GPU "
               "needs 90% of allocatable VRAM.",
               "- The largest available worker has 175.95 GiB allocatable VRAM, 4/4 of GPUs meet the VRAM utilization ratio, providing "
               "158.35 GiB of allocatable VRAM."),
         [(OOM, "placement_no_room", 1), ("knob.gpu_memory_utilization", 0.9, 3), ("mem.gpu_planned_bytes", GiB(97.56), 3),
          ("mem.gpu_available_bytes", GiB(175.95), 4)], phase="load_weights"),
    case("scheduler-refusal-no-gpu",
         "Unable to find a schedulable worker for the model. The largest available worker has 0.0 GiB allocatable VRAM across 0 GPUs.\n",
         [(OOM, "placement_no_room", 1), ("oom.hint", "no_gpu_seen", 1)], phase="load_weights"),
    case("scheduler-filters-left-no-worker",
         lines("No suitable workers.", "- Matched 1/2 workers by label selector: {'worker-name': 'a30-07'}.",
               "- Matched 0/1 workers by READY status."),
         [(OOM, "placement_no_room", 1), ("oom.hint", "placement_filtered", 3)], phase="load_weights"),
    case("scheduler-card-share-short",
         "INFO - Action: auto_single_gpu_scheduling_msg, - The current available GPU only has 7.0 GiB allocatable VRAM (87.50%)., {}\n",
         [(OOM, "placement_no_room", 1), ("oom.hint", "allocatable_share_short", 1), ("mem.gpu_available_bytes", GiB(7.0), 1),
          ("mem.gpu_allocatable_ratio", 0.875, 1)]),
]


ROUND_205 = [
    # a scheduler's other refusals and sums: GPUs chosen by hand, a planner's search, the best combination it found
    case("scheduler-selected-gpus-short",
         lines("Selected GPUs may not have enough resources to run the model.",
               "The model requires 90.0% (--gpu-memory-utilization=0.9) VRAM for each GPU, with a total VRAM requirement of "
               "771.56 GiB VRAM."),
         [(OOM, "placement_no_room", 1), ("mem.gpu_planned_bytes", GiB(771.56), 2)], phase="load_weights"),
    case("planner-fits-no-configuration",
         "ERROR -   -> Experiment agg failed: No results found: the model does not fit in GPU memory for any parallel configuration. "
         "Try increasing --total-gpus\n",
         [(OOM, "placement_no_room", 1)], phase="load_weights"),
    case("scheduler-optimal-combination",
         "- The optimal combination ['gpuhost409048g1', '4080'] provides 115.16 GiB of allocatable VRAM.\n",
         [("mem.gpu_available_bytes", GiB(115.16), 1)]),
    # zsh's job line split where the unended line took its "[1]"
    case("zsh-job-line-split", lines("Loading checkpoint shards:  25%|███▎       | 1/4 [00:01<00:05,  1.86s/it][1] ",
                                     "60190 killed     python main.py"),
         [(OOM, "killed", 2), ("oom.exit_signal", "SIGKILL", 2)], phase="load_weights"),
    # a launcher's analysis naming the exit status: an abort, not memory, whatever it guessed above
    case("exit-code-name-stack-overrun",
         lines("Warning: The application possibly crashed due to running out of memory.",
               "System exit code name: STACK_BUFFER_OVERRUN"),
         [(FINAL, "exit status 0xC0000409 (STATUS_STACK_BUFFER_OVERRUN): the runtime aborted itself (a failed check or an "
                  "unhandled error); the status itself names no memory failure", 2)]),
    # a launcher's note that RAM was nearly full when its backend died
    case("backend-died-ram-full",
         "15:56:37.001 [Warning] Your system memory usage exceeded 98.2% just before the backend process failed. This might "
         "indicate a memory overload.\n",
         [(OOM, "host_insufficient", 1)]),
]


@pytest.mark.parametrize("c", params(STATED + NOT_STATED + FINAL_ERRORS + ENDINGS + RUNS + FRAMEWORKS + ROUNDS_30_32 + ROUND_95 + ROUND_96
                                     + ROUND_97 + ROUND_98 + ROUND_99 + ROUND_101 + ROUND_103
                                     + ROUND_105 + ROUND_108 + ROUND_109 + ROUND_110 + ROUND_111 + ROUND_112 + ROUND_113 + ROUND_114 + ROUND_115 + ROUND_117 + ROUND_118 + ROUND_119 + ROUND_120 + ROUND_121 + ROUND_123 + ROUND_124 + ROUND_125 + ROUND_126 + ROUND_127 + ROUND_128 + ROUND_129 + ROUND_130 + ROUND_131 + ROUND_133 + ROUND_134 + ROUND_135 + ROUND_137 + ROUND_138 + ROUND_139 + ROUND_140 + ROUND_141 + ROUND_142 + ROUND_143 + ROUND_144 + ROUND_147 + ROUND_150 + ROUND_153 + ROUND_154 + ROUND_155 + ROUND_156 + ROUND_158 + ROUND_159 + ROUND_160 + ROUND_161 + ROUND_162 + ROUND_163 + ROUND_164 + ROUND_165 + ROUND_166 + ROUND_167 + ROUND_168 + ROUND_169 + ROUND_170 + ROUND_171 + ROUND_172 + ROUND_173 + ROUND_174 + ROUND_175 + ROUND_176 + ROUND_177 + ROUND_178 + ROUND_180 + ROUND_181 + ROUND_184 + ROUND_187 + ROUND_190 + ROUND_192 + ROUND_194 + ROUND_196 + ROUND_198 + ROUND_200 + ROUND_202 + ROUND_204 + ROUND_205))
def test_any_wording(c):
    check(c)


@pytest.mark.parametrize(("bar", "phase"), [
    ("Training:  18%|█▊        | 1935/10920 [17:45<1:13:32,  2.04it/s, loss=0.081]", "prefill"),  # holdout r203 ludwig-3583
    ("parse_acc: 0.00, loss: 13.04 ||:  14%|#4        | 975/6886 [08:46<53:09,  1.85it/s]", "prefill"),  # r202 allennlp-860
    ("100%|██████████| 443/443 [00:00<00:00, 943kB/s]", None),  # a download, in bytes a second
    (" 55%|█████▌    | 22/40 [00:31<00:25,  1.43s/it]", None),  # no name: a merge, a map, anything
    ("Unsloth: Merging weights:  55%|█████▌    | 22/40 [00:31<00:25,  1.43s/it]", None),
    ("Training:   0%|          | 0/10920 [00:00<?, ?it/s]", None),  # nothing done yet
    ("Loading checkpoint shards:  50%|█████     | 1/2 [00:05<00:05,  5.02s/it]", "load_weights"),
    # (the load's bar, then the loop's, its steps rewritten: the loop)
    ("Loading checkpoint shards: 100%|██████████| 2/2 [00:05<00:00,  2.51s/it]\n"
     "Training:  10%|█         | 1092/10920 [10:01<1:30:00,  1.82it/s]\nTraining:  10%|█         | 1093/10920 [10:02<1:30:00,  1.82it/s]",
     "prefill"),
])
def test_a_named_loop_with_iterations_done_had_the_weights_resident(bar: str, phase: str | None) -> None:
    """A progress bar over a loop's iterations, some done, before the failure: the model had run (a pass, not the load)."""
    from parser_table import scan_text

    result = scan_text(lines(bar, "OutOfMemoryError: CUDA out of memory. Tried to allocate 86.00 MiB (GPU 0; 14.75 GiB total "
                                  "capacity; 13.37 GiB already allocated; 80.81 MiB free; 13.79 GiB reserved in total by PyTorch)"))
    assert result.first_failure_line == bar.count("\n") + 2 and result.phase == phase


def test_an_input_moved_onto_the_card_is_not_the_load():
    """holdout r202: SAM 2's video predictor moving 1,581 frames onto the card ("image = image.cuda()") ran out of memory
    on its input, not while loading the model."""
    from parser_table import scan_text

    result = scan_text(lines("    206             image = image.cuda()", "OutOfMemoryError: CUDA out of memory. Tried to allocate 18.53 GiB. GPU"))
    assert result.first_failure_line == 2 and result.phase is None


def test_a_command_pasted_after_the_error_is_read_with_it():
    """Lines after the failure that do not fail themselves (the launch command a user pastes
    below the traceback) are read with the failure, as one log."""
    from parser_table import scan_text

    result = scan_text(lines(
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 232.00 MiB.",
        "python3 -m vllm.entrypoints.openai.api_server --model /m --max-model-len 32768 --gpu-memory-utilization 0.95"))
    assert result.first_failure_line == 1
    read = {(f.key, f.value) for f in result.facts}
    assert {("knob.max_model_len", 32768), ("knob.gpu_memory_utilization", 0.95), ("oom.kind", "torch_oom")} <= read
    assert not any("several launches" in w for w in result.warnings)


def test_a_stats_line_wrapped_inside_its_throughput_is_read_from_running():
    """holdout r168: a paste wrapped vLLM's stats line inside "Avg generation throughput"; the sample is read from "Running:" on."""
    from parser_table import scan_text

    result = scan_text(lines(
        "INFO 10-14 17:07:48 [loggers.py:123] Engine 000: Avg prompt throughput: 0.0 tokens/s, Avg generation throughpu",
        "t: 605.4 tokens/s, Running: 26 reqs, Waiting: 63 reqs, GPU KV cache usage: 97.9%, Prefix cache hit rate: 46.6%"))
    assert result.series is not None and result.series.samples == 1
    assert result.series.curves["kv_usage"].peak == pytest.approx(0.979)
    assert result.series.curves["waiting"].peak == 63


def test_a_folder_named_llamafiles_is_not_llamafile():  # holdout r13: Meta's reference code under ../llamafiles/
    result = read_text_stream(b"$ torchrun --nproc_per_node 1 example.py --ckpt_dir ../llamafiles/7B\n")
    assert "llamacpp" not in result.framework_scores
    assert "llamacpp" in read_text_stream(b"./llamafile -m mistral.gguf\n").framework_scores


def test_a_model_loaded_on_request_after_start_up_is_the_phase_reached_where_the_log_ends_in_it():
    """holdout r142: a server that loads its model when asked (FastChat's worker after uvicorn started) and a paste that
    stops in the shards' progress bar: the load is the step reached; the same load well before the end is not."""
    from parser_table import scan_text

    ready = "2023-11-09 23:46:21 | ERROR | stderr | INFO:     Application startup complete."
    load = "Loading checkpoint shards:   0%|          | 0/7 [00:00<?, ?it/s]"
    reached = {(f.key, f.value) for f in scan_text(lines(ready, load)).facts}
    assert ("phase.reached", "load_weights") in reached
    served = scan_text(lines(ready, load, *[f"INFO: 127.0.0.1:5{i:04d} - \"POST /v1/chat HTTP/1.1\" 200 OK" for i in range(12)]))
    assert not any(f.key == "phase.reached" for f in served.facts)


def test_a_serving_step_after_the_engine_was_ready_is_the_phase_reached():
    """holdout r108: TGI's router set its batch budget (warm-up passed), then a prefill raised and the paste stops
    before its error: the phase reached is that serving step, not start-up (nor nothing, as 'ready' read before)."""
    from parser_table import scan_text

    result = scan_text(lines(
        "2024-06-17T14:22:01.460404Z  INFO text_generation_router: router/src/main.rs:354: Setting max batch total tokens to 42768",
        "2024-06-17T14:22:46.490042Z ERROR text_generation_launcher: Method Prefill encountered an error.",
        "Traceback (most recent call last):"))
    assert ("phase.reached", "prefill") in {(f.key, f.value) for f in result.facts}
    ready_only = scan_text("2024-06-17T14:22:01Z  INFO text_generation_router: router/src/main.rs:354: Setting max batch total tokens to 42768\n")
    assert not any(f.key == "phase.reached" for f in ready_only.facts)


def test_a_warning_that_names_fused_attention_is_no_forward_pass() -> None:
    """A code line calling PyTorch's fused attention puts the failure in a forward pass; a warning that names the
    function, or a frame's file line, does not."""
    from parser_table import scan_text

    oom = "RuntimeError: CUDA error: out of memory\n"
    assert scan_text("    attn_output = F.scaled_dot_product_attention(q, k, v)\n" + oom).phase == "prefill"
    assert scan_text("/x.py:5: UserWarning: torch.nn.functional.scaled_dot_product_attention(...) is slow\n" + oom).phase is None
    assert scan_text('  File "/a/functional.py", line 3, in F.scaled_dot_product_attention(\n' + oom).phase is None
