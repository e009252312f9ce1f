"""SGLang messages (parsers/servers.py): server args, the start-up accounting lines of the old and
the 0.5.23 releases, and SGLang's memory errors (KNOBS.md section 4)."""

from __future__ import annotations

import pytest
from parser_table import GiB, case, check, lines, params

OOM = "oom.kind"

CASES = [
    case("startup-old-release",
         lines("[2025-01-10 10:00:00] server_args=ServerArgs(model_path='meta-llama/Llama-3.1-8B-Instruct', "
               "tokenizer_path='meta-llama/Llama-3.1-8B-Instruct', dtype='auto', kv_cache_dtype='auto', quantization=None, "
               "context_length=None, mem_fraction_static=0.88, max_running_requests=None, max_total_tokens=None, "
               "chunked_prefill_size=8192, tp_size=1, disable_cuda_graph=False, cuda_graph_max_bs=160)",
               "[2025-01-10 10:00:20 TP0] Load weight end. type=LlamaForCausalLM, dtype=torch.bfloat16, avail mem=62.65 GB, "
               "mem usage=14.99 GB.",
               "[2025-01-10 10:00:21 TP0] KV Cache is allocated. #tokens: 367404, K size: 8.23 GB, V size: 8.23 GB",
               "[2025-01-10 10:00:21 TP0] Memory pool end. avail mem=44.96 GB",
               "[2025-01-10 10:00:22 TP0] Capture cuda graph begin. This can take up to several minutes. avail mem=44.50 GB",
               "[2025-01-10 10:00:40 TP0] Capture cuda graph end. Time elapsed: 18.02 s. mem usage=1.23 GB. avail mem=43.27 GB.",
               "[2025-01-10 10:00:41 TP0] max_total_num_tokens=367404, chunked_prefill_size=8192, max_prefill_tokens=16384, "
               "max_running_requests=4096, context_len=131072, available_gpu_mem=43.27 GB",
               "[2025-01-10 10:00:45] The server is fired up and ready to roll!"),
         [("knob.model", "meta-llama/Llama-3.1-8B-Instruct", 1), ("knob.dtype", "auto", 1), ("knob.kv_cache_dtype", "auto", 1),
          ("knob.gpu_memory_utilization", 0.88, 1), ("knob.max_num_batched_tokens", 8192, 1),
          ("knob.tensor_parallel_size", 1, 1), ("knob.enforce_eager", False, 1), ("knob.cuda_graph_sizes", 160, 1),
          ("model.params", 8_000_000_000, 1),
          # SGLang prints GiB as "GB"
          ("mem.free_after_load_bytes", GiB(62.65), 2), ("mem.weights_bytes", GiB(14.99), 2), ("knob.dtype", "bfloat16", 2),
          ("mem.free_stated_bytes", GiB(62.65), 2), ("mem.free_stated_bytes", GiB(44.96), 4), ("oom.hint", "kv_pool_made", 4), ("mem.free_stated_bytes", GiB(44.50), 5),
          ("mem.free_stated_bytes", GiB(43.27), 6),
          ("mem.kv_tokens", 367404, 3), ("mem.kv_cache_bytes", GiB(8.23) * 2, 3),
          ("mem.cuda_graph_bytes", GiB(1.23), 6), ("mem.free_after_capture_bytes", GiB(43.27), 6),
          ("mem.kv_tokens", 367404, 7), ("knob.max_num_batched_tokens", 8192, 7), ("knob.max_num_seqs", 4096, 7),
          ("knob.max_model_len", 131072, 7)],
         framework="sglang"),
    case("startup-0.5.23",
         lines("[2026-01-10 10:00:20 TP0] Load weight end. elapsed=12.31 s, type=Qwen3ForCausalLM, fp8, avail mem=52.10 GB, "
               "mem usage=30.55 GB.",
               "[2026-01-10 10:00:22 TP0] KV Cache is allocated. dtype: torch.bfloat16, #tokens: 524288, K size: 12.00 GB, "
               "V size: 12.00 GB",
               "[2026-01-10 10:00:23 TP0] Capture target decode CUDA graph begin. backend=full, num_tokens_per_req=1, "
               "avail mem=27.60 GB",
               "[2026-01-10 10:00:50 TP0] Capture target decode CUDA graph end. bs=[1, 2, 4, 8], elapsed=27.01 s, "
               "mem usage=1.47 GB, avail mem=26.13 GB."),
         [("mem.free_after_load_bytes", GiB(52.10), 1), ("mem.weights_bytes", GiB(30.55), 1),
          ("mem.kv_tokens", 524288, 2), ("mem.kv_cache_bytes", GiB(24), 2), ("mem.cuda_graph_bytes", GiB(1.47), 4),
          ("mem.free_after_capture_bytes", GiB(26.13), 4),
          # what it says is free at each step
          ("mem.free_stated_bytes", GiB(52.10), 1), ("mem.free_stated_bytes", GiB(27.60), 3), ("mem.free_stated_bytes", GiB(26.13), 4)]),
    case("kv-allocated-mla",  # MLA models print one KV size
         "[2025-01-10 10:00:21 TP0] KV Cache is allocated. dtype: torch.bfloat16, #tokens: 120000, KV size: 7.81 GB\n",
         [("mem.kv_tokens", 120000, 1), ("mem.kv_cache_bytes", GiB(7.81), 1)]),
    case("not-enough-memory-raise-fraction",
         "RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.\n",
         [(OOM, "sglang_kv_pool_empty", 1)], framework="sglang", phase="kv_alloc", failure_line=1),
    case("not-enough-memory-current-value",  # 0.5.23 appends the value in use
         "RuntimeError: Not enough memory. Please try to increase --mem-fraction-static. Current value: "
         "mem_fraction_static=0.78\n",
         [(OOM, "sglang_kv_pool_empty", 1), ("knob.gpu_memory_utilization", 0.78, 1)]),
    case("capture-cuda-graph-failed",
         "Exception: Capture cuda graph failed: CUDA out of memory. Tried to allocate 2.00 GiB.\n",
         [(OOM, "cuda_graph_capture_failed", 1), (OOM, "torch_oom", 1), ("oom.requested_bytes", GiB(2), 1)],
         phase="cuda_graph_capture"),
    case("prefill-out-of-memory",
         "[2026-01-10 10:05:01 TP0] Prefill out of memory. Try to lower your batch size.\n",
         [(OOM, "kv_runtime_exhausted", 1)], phase="prefill"),
    case("prefill-out-of-memory-token-count",
         lines("[2026-01-10 10:05:01 TP0] Prefill out of memory. Try to lower your batch size.", "Try to allocate 8192 tokens."),
         [(OOM, "kv_runtime_exhausted", 1), ("oom.requested_tokens", 8192, 2)]),
    case("decode-out-of-memory", "[2026-01-10 10:05:01 TP0] Decode out of memory. Try to lower your batch size.\n",
         [(OOM, "kv_runtime_exhausted", 1)], phase="decode"),
    case("retract-warning-is-a-hint",
         "[2025-01-10 10:05:00 TP0] KV cache pool is full. Retract requests. #retracted_reqs: 1, #new_tokens_gained: 512, "
         "#new_token_ratio: 0.5000 -> 0.8000\n",
         [("oom.hint", "kv_retract", 1)]),
    case("unbalanced-memory",  # corpus sglang-1533 + the 0.5.23 numbers
         "The memory capacity is unbalanced. Some GPUs may be occupied by other processes. pre_model_load_memory=70.51, "
         "local_gpu_memory=79.06, local_gpu_memory * 0.9=71.15\n",
         [(OOM, "unbalanced_memory", 1)], framework="sglang", phase="startup"),
    case("kv-pool-fewer-than-context",
         "KV pool holds 65536 tokens, fewer than --context-length 131072. One full-length request cannot fit\n",
         [(OOM, "kv_capacity", 1), ("oom.kv_capacity_tokens", 65536, 1), ("oom.requested_max_model_len", 131072, 1),
          ("knob.max_model_len", 131072, 1)]),  # the flag named in the message is the setting
    case("batches-set-the-phase",  # corpus sglang-1030 (old "[gpu=0]" prefix)
         lines("[gpu=0] Prefill batch. #new-seq: 17, #new-token: 13938, #cached-token: 3260, cache hit rate: 17.86%,",
               "[2024-10-17 01:00:45 TP1] Decode batch. #running-req: 16, #token: 33017, token usage: 0.99, gen throughput "
               "(token/s): 220.47, #queue-req: 0"),
         [("mem.prefill_tokens", 13938, 1), ("parallel.workers", 2, 2)], framework="sglang"),
    case("req-pool-none-traceback",  # corpus sglang-165: the old router's symptom of an empty request pool
         lines('  File "/workspace/sglang/python/sglang/srt/managers/router/infer_batch.py", line 203, in prepare_for_extend',
               "    req_pool_indices_cpu = req_pool_indices.cpu().numpy()",
               "AttributeError: 'NoneType' object has no attribute 'cpu'"),
         [("oom.hint", "sglang_prepare_for_extend", 1), ("oom.hint", "nonetype", 3), ("oom.hint", "traceback", 1),
          ("error.final", "AttributeError: 'NoneType' object has no attribute 'cpu'", 3)], framework="sglang"),
    case("gloo-connection-under-capture",  # holdout r8: the inner error of SGLang's capture wrapper, cut mid-word
         "Exception: Capture cuda graph failed: [../third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection cl\n",
         [(OOM, "capture_error", 1), (OOM, "comm_error", 1)], phase="cuda_graph_capture"),
]


@pytest.mark.parametrize("c", params(CASES))
def test_sglang_messages(c):
    check(c)
