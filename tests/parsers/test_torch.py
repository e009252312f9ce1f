"""PyTorch / CUDA messages (parsers/torch.py): every historical phrasing of the CUDA OOM message,
the cudaMallocAsync block, CUDA/cuBLAS errors and the traceback frames that set the phase."""

from __future__ import annotations

import pytest
from parser_table import ANY, GiB, KiB, MiB, case, check, lines, params

OOM = "oom.kind"

CASES = [
    # ---- <=1.12: RuntimeError; the five fields in parentheses (KNOBS.md 11.2, pytorch#32101)
    case("1.12-runtimeerror",
         "RuntimeError: CUDA out of memory. Tried to allocate 152.00 MiB (GPU 0; 31.72 GiB total capacity; 24.89 GiB "
         "already allocated; 6.12 MiB free; 30.70 GiB reserved in total by PyTorch)\n",
         [(OOM, "torch_oom", 1), ("oom.requested_bytes", MiB(152), 1), ("oom.device", "0", 1),
          ("oom.gpu_total_bytes", GiB(31.72), 1), ("oom.torch_allocated_bytes", GiB(24.89), 1),
          ("oom.gpu_free_bytes", MiB(6.12), 1), ("oom.torch_reserved_bytes", GiB(30.70), 1),
          ("oom.torch_unallocated_bytes", GiB(30.70) - GiB(24.89), 1)],
         framework="transformers", failure_line=1),
    # ---- 1.13-2.0: torch.cuda.OutOfMemoryError, "reserved in total by PyTorch" + max_split_size_mb hint (corpus)
    case("1.13-reserved-in-total",
         "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 224.00 MiB (GPU 0; 10.73 GiB total capacity; "
         "9.85 GiB already allocated; 46.44 MiB free; 9.86 GiB reserved in total by PyTorch) If reserved memory is >> "
         "allocated memory try setting max_split_size_mb to avoid fragmentation.\n",
         [(OOM, "torch_oom", 1), ("oom.requested_bytes", MiB(224), 1), ("oom.device", "0", 1),
          ("oom.gpu_total_bytes", GiB(10.73), 1), ("oom.torch_allocated_bytes", GiB(9.85), 1),
          ("oom.gpu_free_bytes", MiB(46.44), 1), ("oom.torch_reserved_bytes", GiB(9.86), 1),
          ("oom.torch_unallocated_bytes", GiB(9.86) - GiB(9.85), 1)]),
    case("1.13-zero-bytes-free",
         "CUDA out of memory. Tried to allocate 26.00 MiB (GPU 0; 15.99 GiB total capacity; 15.09 GiB already allocated; "
         "0 bytes free; 15.14 GiB reserved in total by PyTorch) If reserved memory is >> allocated memory try setting "
         "max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF\n",
         [(OOM, "torch_oom", 1), ("oom.requested_bytes", MiB(26), 1), ("oom.device", "0", 1),
          ("oom.gpu_total_bytes", GiB(15.99), 1), ("oom.torch_allocated_bytes", GiB(15.09), 1),
          ("oom.gpu_free_bytes", 0, 1), ("oom.torch_reserved_bytes", GiB(15.14), 1),
          ("oom.torch_unallocated_bytes", GiB(15.14) - GiB(15.09), 1)]),
    case("1.13-device-4-traceback-glued",  # corpus: a frame and the message pasted onto one line
         ".OutOfMemoryError    : return forward_call(*input, **kwargs)CUDA out of memory. Tried to allocate 62.00 MiB "
         "(GPU 4; 79.19 GiB total capacity; 66.51 GiB already allocated; 61.56 MiB free; 67.77 GiB reserved in total by "
         "PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation.\n",
         [(OOM, "torch_oom", 1), ("oom.requested_bytes", MiB(62), 1), ("oom.device", "4", 1),
          ("oom.gpu_total_bytes", GiB(79.19), 1), ("oom.torch_allocated_bytes", GiB(66.51), 1),
          ("oom.gpu_free_bytes", MiB(61.56), 1), ("oom.torch_reserved_bytes", GiB(67.77), 1),
          ("oom.torch_unallocated_bytes", GiB(67.77) - GiB(66.51), 1)],
         phase="prefill"),
    # ---- a per-process memory fraction adds "X allowed;" (TGI, corpus tgi-653)
    case("allowed-field-tgi",
         "2023-07-19T21:02:09.363452Z ERROR batch{batch_size=1}:prefill:prefill{id=9 size=1}:prefill{id=9 size=1}: "
         "text_generation_client: router/client/src/lib.rs:33: Server error: CUDA out of memory. Tried to allocate 2.00 MiB "
         "(GPU 0; 22.20 GiB total capacity; 20.75 GiB already allocated; 3.12 MiB free; 22.20 GiB allowed; 20.86 GiB "
         "reserved in total by PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid "
         "fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF\n",
         [(OOM, "torch_oom", 1), ("oom.requested_bytes", MiB(2), 1), ("oom.device", "0", 1),
          ("oom.gpu_total_bytes", GiB(22.20), 1), ("oom.torch_allocated_bytes", GiB(20.75), 1),
          ("oom.gpu_free_bytes", MiB(3.12), 1), ("oom.gpu_limit_bytes", GiB(22.20), 1),
          ("oom.torch_reserved_bytes", GiB(20.86), 1), ("oom.torch_unallocated_bytes", GiB(20.86) - GiB(20.75), 1)],
         framework="tgi", phase="prefill"),
    # ---- 2.1 (PR #99699): the first text said "total capacty" and still hinted max_split_size_mb (corpus)
    case("2.1-total-capacty-typo",
         "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 518.00 MiB. GPU 0 has a total capacty of "
         "21.67 GiB of which 4.06 MiB is free. Process 2417585 has 21.65 GiB memory in use. Of the allocated memory 21.32 "
         "GiB is allocated by PyTorch, and 1018.00 KiB is reserved by PyTorch but unallocated. If reserved but unallocated "
         "memory is large try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management "
         "and PYTORCH_CUDA_ALLOC_CONF\n",
         [(OOM, "torch_oom", 1), ("oom.requested_bytes", MiB(518), 1), ("oom.device", "0", 1),
          ("oom.gpu_total_bytes", GiB(21.67), 1), ("oom.gpu_free_bytes", MiB(4.06), 1),
          ("oom.torch_allocated_bytes", GiB(21.32), 1), ("oom.torch_unallocated_bytes", KiB(1018), 1),
          ("oom.process_count", 1, 1), ("oom.process_bytes", GiB(21.65), 1), ("oom.other_process_bytes", 0, 1)]),
    # ---- 2.1+: "Process N has" for every process on the GPU; this process is the one closest to what torch reserved
    case("2.1-process-lines-vllm-worker",
         "(VllmWorkerProcess pid=42878) ERROR 08-04 16:54:59 [multiproc_worker_utils.py:238] torch.OutOfMemoryError: CUDA "
         "out of memory. Tried to allocate 4.69 GiB. GPU 3 has a total capacity of 31.74 GiB of which 3.56 GiB is free. "
         "Process 1865364 has 28.17 GiB memory in use. Of the allocated memory 27.43 GiB is allocated by PyTorch, and "
         "32.62 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting "
         "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.\n",
         [(OOM, "torch_oom", 1), ("oom.requested_bytes", GiB(4.69), 1), ("oom.device", "3", 1),
          ("oom.gpu_total_bytes", GiB(31.74), 1), ("oom.gpu_free_bytes", GiB(3.56), 1),
          ("oom.torch_allocated_bytes", GiB(27.43), 1), ("oom.torch_unallocated_bytes", MiB(32.62), 1),
          ("oom.process_count", 1, 1), ("oom.process_bytes", GiB(28.17), 1), ("oom.other_process_bytes", 0, 1)],
         framework="vllm"),
    case("2.1-two-processes",  # KNOBS.md 11.2: "[Process P has M memory in use. …]" once per process
         "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB "
         "of which 1.12 GiB is free. Process 3115 has 41.20 GiB memory in use. Process 3342 has 36.81 GiB memory in use. "
         "Of the allocated memory 35.90 GiB is allocated by PyTorch, and 400.00 MiB is reserved by PyTorch but "
         "unallocated.\n",
         [(OOM, "torch_oom", 1), ("oom.requested_bytes", GiB(2), 1), ("oom.device", "0", 1),
          ("oom.gpu_total_bytes", GiB(79.15), 1), ("oom.gpu_free_bytes", GiB(1.12), 1),
          ("oom.torch_allocated_bytes", GiB(35.90), 1), ("oom.torch_unallocated_bytes", MiB(400), 1),
          # reserved = 35.90 GiB + 400 MiB = 36.29 GiB: process 3342 (36.81 GiB) is this one, 3115 the other
          ("oom.process_count", 2, 1), ("oom.process_bytes", GiB(36.81), 1), ("oom.other_process_bytes", GiB(41.20), 1),
          ("gpu.other_processes", "pid 3115 41.20 GiB", 1)]),
    case("2.1-this-process",  # "Including non-PyTorch memory, this process has" (corpus)
         "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 124.68 GiB. GPU 0 has a total capacity of 44.53 GiB "
         "of which 19.05 GiB is free. Including non-PyTorch memory, this process has 25.46 GiB memory in use. Of the "
         "allocated memory 24.89 GiB is allocated by PyTorch, and 73.93 MiB is reserved by PyTorch but unallocated. If "
         "reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid "
         "fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)\n",
         [(OOM, "torch_oom", 1), ("oom.requested_bytes", GiB(124.68), 1), ("oom.device", "0", 1),
          ("oom.gpu_total_bytes", GiB(44.53), 1), ("oom.gpu_free_bytes", GiB(19.05), 1),
          ("oom.process_bytes", GiB(25.46), 1), ("oom.torch_allocated_bytes", GiB(24.89), 1),
          ("oom.torch_unallocated_bytes", MiB(73.93), 1)]),
    case("2.1-no-process-info",  # NVML-less container: no process lines at all (corpus)
         "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of "
         "4.00 GiB of which 2.35 GiB is free. Of the allocated memory 825.15 MiB is allocated by PyTorch, and 24.85 MiB is "
         "reserved by PyTorch but unallocated.\n",
         [(OOM, "torch_oom", 1), ("oom.requested_bytes", MiB(20), 1), ("oom.device", "0", 1),
          ("oom.gpu_total_bytes", GiB(4), 1), ("oom.gpu_free_bytes", GiB(2.35), 1),
          ("oom.torch_allocated_bytes", MiB(825.15), 1), ("oom.torch_unallocated_bytes", MiB(24.85), 1)]),
    # ---- 2.4+: "with G allocated in private pools (e.g., CUDA Graphs)"; exception printed as torch.OutOfMemoryError
    case("2.4-private-pools",
         "ERROR 04-01 23:46:56 [engine.py:160] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 546.00 MiB. "
         "GPU 0 has a total capacity of 15.77 GiB of which 514.19 MiB is free. Process 562167 has 15.25 GiB memory in use. "
         "Of the allocated memory 13.73 GiB is allocated by PyTorch, with 46.00 MiB allocated in private pools (e.g., CUDA "
         "Graphs), and 736.86 MiB is reserved by PyTorch but unallocated.\n",
         [(OOM, "torch_oom", 1), ("oom.requested_bytes", MiB(546), 1), ("oom.device", "0", 1),
          ("oom.gpu_total_bytes", GiB(15.77), 1), ("oom.gpu_free_bytes", MiB(514.19), 1),
          ("oom.torch_allocated_bytes", GiB(13.73), 1), ("oom.private_pool_bytes", MiB(46), 1),
          ("oom.torch_unallocated_bytes", MiB(736.86), 1),
          ("oom.process_count", 1, 1), ("oom.process_bytes", GiB(15.25), 1), ("oom.other_process_bytes", 0, 1)],
         framework="vllm"),
    # captured graphs in the message and nothing else: an engine captured them (vLLM is the common one); "0 bytes" is none
    case("2.4-private-pools-bare",
         "torch.OutOfMemoryError: HIP out of memory. Tried to allocate 1.63 GiB. GPU 0 has a total capacity of 63.98 GiB of "
         "which 1.18 GiB is free. Of the allocated memory 57.09 GiB is allocated by PyTorch, with 26.00 MiB allocated in "
         "private pools (e.g., HIP Graphs), and 1.23 GiB is reserved by PyTorch but unallocated.\n",
         [(OOM, "torch_oom", 1), ("oom.requested_bytes", GiB(1.63), 1), ("oom.device", "0", 1),
          ("oom.gpu_total_bytes", GiB(63.98), 1), ("oom.gpu_free_bytes", GiB(1.18), 1),
          ("oom.torch_allocated_bytes", GiB(57.09), 1), ("oom.private_pool_bytes", MiB(26), 1),
          ("oom.torch_unallocated_bytes", GiB(1.23), 1)],
         framework="vllm"),
    case("2.4-private-pools-none",
         "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.63 GiB. GPU 0 has a total capacity of 63.98 GiB of "
         "which 1.18 GiB is free. Of the allocated memory 57.09 GiB is allocated by PyTorch, with 0 bytes allocated in "
         "private pools (e.g., CUDA Graphs), and 1.23 GiB is reserved by PyTorch but unallocated.\n",
         [(OOM, "torch_oom", 1), ("oom.requested_bytes", GiB(1.63), 1), ("oom.device", "0", 1),
          ("oom.gpu_total_bytes", GiB(63.98), 1), ("oom.gpu_free_bytes", GiB(1.18), 1),
          ("oom.torch_allocated_bytes", GiB(57.09), 1), ("oom.private_pool_bytes", 0, 1),
          ("oom.torch_unallocated_bytes", GiB(1.23), 1)],
         framework="transformers"),
    # an attention layer computing its score matrix: the forward pass, whatever the model's own code calls it
    case("attention-scores-frame", lines(
        '  File "C:\\Users\\***/.cache\\huggingface\\modules\\transformers_modules\\local\\modeling_chatglm.py", line 277, in attention_fn',
        "    attention_scores = attention_scores * query_key_layer_scaling_coeff",
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 116.00 MiB (GPU 0; 6.00 GiB total capacity; 5.07 GiB "
        "already allocated; 0 bytes free; 5.31 GiB reserved in total by PyTorch)"),
        [("oom.hint", "traceback", 1), (OOM, "torch_oom", 3), ("oom.requested_bytes", MiB(116), 3), ("oom.device", "0", 3),
         ("oom.gpu_total_bytes", GiB(6), 3), ("oom.torch_allocated_bytes", GiB(5.07), 3), ("oom.gpu_free_bytes", 0, 3),
         ("oom.torch_reserved_bytes", GiB(5.31), 3), ("oom.torch_unallocated_bytes", GiB(5.31) - GiB(5.07), 3)],
        phase="prefill"),
    # ---- truncated: NVML unavailable, the message stops after the request (KNOBS.md 11.2, pytorch#126766)
    case("truncated-nvml-unavailable",
         lines("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3725.29 GiB. GPU",
               "nvmlInit_v2 failed; omitting per-process memory info from CUDA out-of-memory messages."),
         [(OOM, "torch_oom", 1), ("oom.requested_bytes", GiB(3725.29), 1)]),
    # ---- 2.14 variants (KNOBS.md 11.2)
    case("2.14-more-than-1eb", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate more than 1EB memory.\n",
         [(OOM, "torch_oom", 1), ("oom.requested_bytes", 1 << 60, 1)]),
    case("2.14-preemptively-rejected",
         "torch.OutOfMemoryError: CUDA out of memory. Allocation was preemptively rejected because it would exceed "
         "per_process_memory_fraction limit.\n",
         [(OOM, "torch_oom", 1)]),
    case("bare-exception-name", "发生异常: OutOfMemoryError\n", [(OOM, "torch_oom", 1)]),
    # ---- cudaMallocAsync backend: one field per line (Python prints the multi-line message as is)
    case("cudamallocasync-block",
         lines("torch.cuda.OutOfMemoryError: Allocation on device 0 would exceed allowed memory. (out of memory)",
               "Currently allocated     : 16.08 GiB",
               "Requested               : 4.83 GiB",
               "Device limit            : 22.20 GiB",
               "Free (according to CUDA): 11.12 MiB",
               "PyTorch limit (set by user-supplied memory fraction)",
               "                        : 22.20 GiB"),
         [(OOM, "torch_oom", 1), ("oom.hint", "async_allocator", 1), ("oom.device", "0", 1), ("oom.torch_allocated_bytes", GiB(16.08), 2),
          ("oom.requested_bytes", GiB(4.83), 3), ("oom.gpu_limit_bytes", GiB(22.20), 4), ("oom.gpu_free_bytes", MiB(11.12), 5)],
         failure_line=1),
    # ... and the same block escaped into one line by TGI's router (corpus tgi-563)
    case("cudamallocasync-tgi-escaped",
         "thread 'main' panicked at 'Unable to warmup model: Generation(\"Allocation on device 0 would exceed allowed "
         "memory. (out of memory)\\nCurrently allocated     : 16.08 GiB\\nRequested               : 4.83 GiB\\nDevice "
         "limit            : 22.20 GiB\\nFree (according to CUDA): 11.12 MiB\\nPyTorch limit (set by user-supplied memory "
         "fraction)\\n                        : 22.20 GiB\")', router/src/main.rs:216:18\n",
         [(OOM, "torch_oom", 1), ("oom.hint", "async_allocator", 1), ("oom.device", "0", 1), ("oom.torch_allocated_bytes", GiB(16.08), 1),
          ("oom.requested_bytes", GiB(4.83), 1), ("oom.gpu_limit_bytes", GiB(22.20), 1), ("oom.gpu_free_bytes", MiB(11.12), 1)],
         framework="tgi", phase="warmup"),
    # ---- the message wrapped over several lines (a terminal or an issue form wraps at ~80 columns)
    case("2.1-wrapped-at-80-columns",
         lines("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a",
               "total capacity of 4.00 GiB of which 2.35 GiB is free. Of the allocated memory",
               "825.15 MiB is allocated by PyTorch, and 24.85 MiB is reserved by PyTorch but",
               "unallocated. If reserved but unallocated memory is large try setting",
               "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation."),
         [(OOM, "torch_oom", 1), ("oom.requested_bytes", MiB(20), 1), ("oom.device", "0", ANY),
          ("oom.gpu_total_bytes", GiB(4), ANY), ("oom.gpu_free_bytes", GiB(2.35), ANY),
          ("oom.torch_allocated_bytes", MiB(825.15), ANY), ("oom.torch_unallocated_bytes", MiB(24.85), ANY)]),
    case("1.13-wrapped-at-80-columns",
         lines("RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 4.00 GiB total",
               "capacity; 3.12 GiB already allocated; 2.35 MiB free; 3.20 GiB reserved in total by",
               "PyTorch)"),
         [(OOM, "torch_oom", 1), ("oom.requested_bytes", MiB(20), 1), ("oom.device", "0", ANY),
          ("oom.gpu_total_bytes", GiB(4), ANY), ("oom.torch_allocated_bytes", GiB(3.12), ANY),
          ("oom.gpu_free_bytes", MiB(2.35), ANY), ("oom.torch_reserved_bytes", GiB(3.20), ANY),
          ("oom.torch_unallocated_bytes", GiB(3.20) - GiB(3.12), ANY)]),
    # ---- CUDA runtime errors
    case("cuda-error-oom-vllm-worker",
         "(VllmWorker rank=3 pid=1090) ERROR 06-05 06:18:13 [multiproc_executor.py:470] RuntimeError: CUDA error: out of memory\n",
         [(OOM, "cuda_error_oom", 1), ("parallel.workers", 4, 1)], framework="vllm"),
    case("cumem-allocator-sleep-mode",
         "(ActorModelRayActor pid=348952) RuntimeError: CUDA Error: out of memory at /workspace/csrc/cumem_allocator.cpp:62\n",
         [(OOM, "cuda_error_oom", 1), ("oom.hint", "sleep_wake", 1)]),
    case("cublas-alloc-failed",
         "RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`\n",
         [(OOM, "cublas_alloc_failed", 1)]),
    # ---- phase from traceback frames
    case("phase-load-weights",
         lines("Traceback (most recent call last):",
               '  File "/usr/local/lib/python3.10/dist-packages/transformers/modeling_utils.py", line 3850, in from_pretrained',
               "    model = cls(config, *model_args, **model_kwargs)",
               "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 172.00 MiB (GPU 0; 23.65 GiB total "
               "capacity; 22.99 GiB already allocated; 154.06 MiB free; 22.99 GiB reserved in total by PyTorch)"),
         [("oom.hint", "traceback", 1), (OOM, "torch_oom", 4), ("oom.requested_bytes", MiB(172), 4), ("oom.device", "0", 4),
          ("oom.gpu_total_bytes", GiB(23.65), 4), ("oom.torch_allocated_bytes", GiB(22.99), 4),
          ("oom.gpu_free_bytes", MiB(154.06), 4), ("oom.torch_reserved_bytes", GiB(22.99), 4),
          ("oom.torch_unallocated_bytes", 0, 4)],
         framework="transformers", phase="load_weights", failure_line=4),
    case("phase-cuda-graph-capture",
         lines("INFO 07-08 13:05:40 model_runner.py:1051] Capturing cudagraphs for decoding. This may lead to unexpected "
               "consequences if the model is not static.",
               "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 64.00 MiB. GPU 0 has a total capacity of "
               "23.64 GiB of which 62.81 MiB is free."),
         [(OOM, "torch_oom", 2), ("oom.requested_bytes", MiB(64), 2), ("oom.device", "0", 2),
          ("oom.gpu_total_bytes", GiB(23.64), 2), ("oom.gpu_free_bytes", MiB(62.81), 2)],
         phase="cuda_graph_capture"),
    case("cuda-driver-error-while-quantizing",  # holdout r8: bitsandbytes quantizing a checkpoint as it loads
         lines("    out = torch.zeros(((n + 1) // mod, 1), dtype=quant_storage, device=A.device)",
               "  File \"/env/site-packages/bitsandbytes/nn/modules.py\", line 296, in _quantize",
               "    w_4bit, quant_state = bnb.functional.quantize_4bit(",
               "RuntimeError: CUDA driver error: out of memory"),
         [("oom.hint", "traceback", 2), ("knob.quantization", "bnb-4bit", 3), (OOM, "cuda_error_oom", 4)], framework="transformers", phase="load_weights"),
    case("process-list-blind",  # holdout r71: NVML in a container sees no process; its zeros say nothing
         "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 MiB. GPU 0 has a total capacity of 3.63 GiB of "
         "which 320.00 KiB is free. Process 300 has 0 bytes memory in use. Including non-PyTorch memory, this process has 0 "
         "bytes memory in use. Of the allocated memory 2.29 GiB is allocated by PyTorch, and 136.41 MiB is reserved by "
         "PyTorch but unallocated.\n",
         [(OOM, "torch_oom", 1), ("oom.requested_bytes", MiB(2), 1), ("oom.device", "0", 1),
          ("oom.gpu_total_bytes", GiB(3.63), 1), ("oom.gpu_free_bytes", KiB(320), 1),
          ("oom.torch_allocated_bytes", GiB(2.29), 1), ("oom.torch_unallocated_bytes", MiB(136.41), 1)]),
    case("logits-code-line-is-forward",  # holdout r71: TRL's GRPO scaling its logits on MPS
         lines("    logits = logits / self.temperature",
               "             ~~~~~~~^~~~~~~~~~~~~~~~~~",
               "RuntimeError: MPS backend out of memory (MPS allocated: 12.74 GB, other allocations: 4.39 GB, max allowed: "
               "18.13 GB). Tried to allocate 1.02 GB on private pool."),
         [(OOM, "torch_oom", 3), ("oom.torch_allocated_bytes", 13679470838, 3), ("oom.gpu_total_bytes", 19466939269, 3),
          ("gpu.backend", "mps", 3), ("oom.requested_bytes", 1095216660, 3),
          # ("other allocations" is the process's too: held, not free)
          ("oom.process_bytes", 18393197445, 3), ("oom.gpu_free_bytes", 1073741824, 3)],
         phase="prefill"),
    case("xpu-is-level-zero",  # holdout r72: PyTorch's XPU device runs on Intel's SYCL / Level Zero
         "torch.OutOfMemoryError: XPU out of memory. Tried to allocate 4.00 GiB. GPU 0 has a total capacity of 15.11 GiB. Of the "
         "allocated memory 0 bytes is allocated by PyTorch, and 0 bytes is reserved by PyTorch but unallocated.\n",
         [(OOM, "torch_oom", 1), ("gpu.backend", "sycl", 1), ("oom.requested_bytes", GiB(4), 1), ("oom.device", "0", 1),
          ("oom.gpu_total_bytes", GiB(15.11), 1), ("oom.torch_allocated_bytes", 0, 1), ("oom.torch_unallocated_bytes", 0, 1)]),
    case("allocator-warmup-frame",
         lines("  File \"/env/site-packages/transformers/modeling_utils.py\", line 5893, in caching_allocator_warmup",
               "    _ = torch.empty(byte_count // factor, dtype=torch.float16, device=device, requires_grad=False)",
               "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 51.87 GiB."),
         [("oom.hint", "traceback", 1), ("oom.hint", "allocator_warmup", 1), (OOM, "torch_oom", 3), ("oom.requested_bytes", GiB(51.87), 3)],
         framework="transformers", phase="load_weights"),
]


@pytest.mark.parametrize("c", params(CASES))
def test_torch_messages(c):
    check(c)
