"""vLLM messages (parsers/vllm.py): V0 and V1 KV-capacity checks, the start-up memory budget
lines of both engines, the config lines, and vLLM's other start-up failures."""

from __future__ import annotations

import pytest
from parser_table import GiB, case, check, lines, params

OOM = "oom.kind"

CASES = [
    # ---- the API server's answer once the engine has died (MQEngineDeadError, AsyncEngineDeadError): names vLLM, is no failure itself
    case("engine-dead-mq",
         "Engine loop is not running. Inspect the stacktrace to find the original error: RuntimeError('Engine loop has died').\n",
         [], framework="vllm"),
    case("engine-dead-async",
         "AsyncEngineDeadError: Background loop is not running. If it was running, inspect the output to find the "
         "stacktrace of the error that caused the background loop to stop (AsyncEngineDeadError).\n",
         [("error.final", "AsyncEngineDeadError: Background loop is not running. If it was running, inspect the output to "
           "find the stacktrace of the error that caused the background loop to stop (AsyncEngineDeadError).", 1)],
         framework="vllm"),
    # ---- KV capacity: V0 (worker.py raise_if_cache_size_invalid)
    case("v0-kv-capacity",
         "ValueError: The model's max seq len (32768) is larger than the maximum number of tokens that can be stored in KV "
         "cache (16816). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.\n",
         [(OOM, "kv_capacity", 1), ("oom.requested_max_model_len", 32768, 1), ("oom.kv_capacity_tokens", 16816, 1)],
         framework="vllm", failure_line=1),
    # ---- KV capacity: V1 (kv_cache_utils.py), with the engine-core prefix and the "models's" typo of some releases
    case("v1-kv-capacity",
         "(EngineCore_DP0 pid=1094) ValueError: To serve at least one request with the models's max seq len (262144), "
         "(24.0 GiB KV cache is needed, which is larger than the available KV cache memory (3.18 GiB). Based on the "
         "available memory, the estimated maximum model length is 34736. Try increasing `gpu_memory_utilization` or "
         "decreasing `max_model_len` when initializing the engine. See "
         "https://docs.vllm.ai/en/latest/configuration/conserving_memory/ for more details.\n",
         [(OOM, "kv_capacity", 1), ("oom.requested_max_model_len", 262144, 1), ("oom.kv_needed_bytes", GiB(24), 1),
          ("oom.kv_available_bytes", GiB(3.18), 1), ("oom.max_model_len_estimate", 34736, 1)],
         framework="vllm"),
    case("v1-kv-capacity-knobs-quote",  # KNOBS.md 3.3, "model's"
         "ValueError: To serve at least one request with the model's max seq len (131072), (16.00 GiB KV cache is needed, "
         "which is larger than the available KV cache memory (4.21 GiB). Based on the available memory, the estimated "
         "maximum model length is 34480. Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when "
         "initializing the engine.\n",
         [(OOM, "kv_capacity", 1), ("oom.requested_max_model_len", 131072, 1), ("oom.kv_needed_bytes", GiB(16), 1),
          ("oom.kv_available_bytes", GiB(4.21), 1), ("oom.max_model_len_estimate", 34480, 1)]),
    case("v1-kv-capacity-wrapped",  # corpus vllm-kaito-2132: the message over three lines
         lines("ValueError: To serve at least one request with the model's max seq len (1048576),",
               "22.5 GiB KV cache is needed, which is larger than the available KV cache memory (17.39 GiB).",
               "Based on the available memory, the estimated maximum model length is 810208."),
         [(OOM, "kv_capacity", 1), ("oom.requested_max_model_len", 1048576, 1), ("oom.kv_needed_bytes", GiB(22.5), 2),
          ("oom.kv_available_bytes", GiB(17.39), 2), ("oom.max_model_len_estimate", 810208, 3)],
         failure_line=1),
    case("v1-kv-capacity-cut",  # corpus: the stored copy stops mid-sentence
         "(EngineCore_DP0 pid=6880) ValueError: To serve at least one request with the models's max seq len (131072), "
         "(4.54 GiB KV cache is needed, which is larger than the available KV cache memory (1.71 GiB). Based on the "
         "available memory, the estimated maximum model lengt\n",
         [(OOM, "kv_capacity", 1), ("oom.requested_max_model_len", 131072, 1), ("oom.kv_needed_bytes", GiB(4.54), 1),
          ("oom.kv_available_bytes", GiB(1.71), 1)]),
    case("no-cache-blocks",
         "ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing "
         "the engine.\n",
         [(OOM, "no_kv_memory", 1)], phase="kv_alloc"),
    # ---- V0 budget: weights, the profiling lines, blocks, concurrency (vllm#12330 / corpus vllm-795 style)
    case("v0-budget-lines",
         lines("INFO 01-23 07:32:42 model_runner.py:1071] Loading model weights took 4.3752 GB",
               "INFO 01-23 07:34:20 worker.py:262] Memory profiling takes 1.32 seconds",
               "INFO 01-23 07:34:20 worker.py:262] the current vLLM instance can use total_gpu_memory (39.50GiB) x "
               "gpu_memory_utilization (0.90) = 35.55GiB",
               "INFO 01-23 07:34:20 worker.py:262] model weights take 4.38GiB; non_torch_memory takes 0.22GiB; PyTorch "
               "activation peak memory takes 1.26GiB; the rest of the memory reserved for KV Cache is 29.69GiB.",
               "INFO 01-23 07:34:26 gpu_executor.py:122] # GPU blocks: 11836, # CPU blocks: 4681",
               "INFO 01-23 07:34:26 gpu_executor.py:126] Maximum concurrency for 200 tokens per request: 946.88x"),
         [("mem.weights_bytes", GiB(4.3752), 1),
          ("mem.gpu_total_bytes", GiB(39.50), 3), ("knob.gpu_memory_utilization", 0.9, 3), ("mem.budget_bytes", GiB(35.55), 3),
          ("mem.weights_bytes", GiB(4.38), 4), ("mem.non_torch_bytes", GiB(0.22), 4),
          ("mem.activation_peak_bytes", GiB(1.26), 4), ("mem.kv_cache_bytes", GiB(29.69), 4),
          ("mem.gpu_blocks", 11836, 5), ("mem.cpu_blocks", 4681, 5),
          ("knob.max_model_len", 200, 6), ("mem.max_concurrency", 946.88, 6)],
         framework="vllm"),
    # ---- V0.6-0.7 "Memory profiling results" line: activation peak = peak_torch - weights
    case("memory-profiling-results",
         lines("Loading model weights took 14.9888 GB",
               "Memory profiling results: total_gpu_memory=23.58GiB initial_memory_usage=15.34GiB "
               "peak_torch_memory=17.98GiB memory_usage_post_profile=15.35GiB non_torch_memory=0.35GiB "
               "kv_cache_size=2.89GiB gpu_memory_utilization=0.90"),
         [("mem.weights_bytes", GiB(14.9888), 1),
          ("mem.gpu_total_bytes", GiB(23.58), 2), ("mem.non_torch_bytes", GiB(0.35), 2), ("mem.kv_cache_bytes", GiB(2.89), 2),
          ("knob.gpu_memory_utilization", 0.9, 2), ("mem.peak_torch_bytes", GiB(17.98), 2),
          ("mem.activation_peak_bytes", GiB(17.98) - GiB(14.9888), 2), ("mem.initial_usage_bytes", GiB(15.34), 2)]),
    # ---- V1 budget (KNOBS.md 3.2; corpus vllm-25350 lines)
    case("v1-budget-lines",
         lines("INFO 07-08 13:05:20 [gpu_model_runner.py:1770] Model loading took 14.2474 GiB and 5.12 seconds",
               "INFO 07-08 13:05:31 [gpu_worker.py:232] Available KV cache memory: 10.55 GiB",
               "INFO 07-08 13:05:31 [kv_cache_utils.py:716] GPU KV cache size: 230,528 tokens",
               "INFO 07-08 13:05:31 [kv_cache_utils.py:868] Maximum concurrency for 100,000 tokens per request: 2.31x",
               "INFO 07-08 13:05:45 [gpu_model_runner.py:2326] Graph capturing finished in 14 secs, took 0.21 GiB"),
         [("mem.weights_bytes", GiB(14.2474), 1), ("mem.kv_cache_bytes", GiB(10.55), 2), ("mem.kv_tokens", 230528, 3),
          ("knob.max_model_len", 100000, 4), ("mem.max_concurrency", 2.31, 4), ("mem.cuda_graph_bytes", GiB(0.21), 5)],
         framework="vllm"),
    case("v1-kv-size-and-concurrency-bare",  # corpus vllm-25350: no prefixes
         lines("Available KV cache memory: 10.55 GiB", "GPU KV cache size: 230,528 tokens",
               "[kv_cache_utils.py:868] Maximum concurrency for 100,000 tokens per request: 2.31x"),
         [("mem.kv_cache_bytes", GiB(10.55), 1), ("mem.kv_tokens", 230528, 2),
          ("knob.max_model_len", 100000, 3), ("mem.max_concurrency", 2.31, 3)]),
    case("v0-blocks-below-one-request",  # examples/: the pool holds 0.82 of one request
         lines("# GPU blocks: 1478, # CPU blocks: 2048", "Maximum concurrency for 29000 tokens per request: 0.82x"),
         [("mem.gpu_blocks", 1478, 1), ("mem.cpu_blocks", 2048, 1), ("knob.max_model_len", 29000, 2),
          ("mem.max_concurrency", 0.82, 2)]),
    case("v0-no-blocks-cut-paste",  # a paste cut after the GPU count: nothing was left for KV blocks
         "INFO 10-14 21:40:24 llm_engine.py:205] # GPU blocks: 0,\n",
         [("mem.gpu_blocks", 0, 1), (OOM, "no_kv_memory", 1)], phase="kv_alloc", failure_line=1),
    # ---- config lines
    case("v1-config-and-args",
         lines("INFO 07-08 13:05:01 [api_server.py:1043] vLLM API server version 0.9.2",
               "INFO 07-08 13:05:01 [cli_args.py:325] non-default args: {'model': 'Qwen/Qwen2.5-7B-Instruct', "
               "'max_model_len': 32768, 'gpu_memory_utilization': 0.95, 'max_num_seqs': 128}",
               "INFO 07-08 13:05:10 [core.py:69] Initializing a V1 LLM engine (v0.9.2) with config: "
               "model='Qwen/Qwen2.5-7B-Instruct', speculative_config=None, tokenizer='Qwen/Qwen2.5-7B-Instruct', "
               "dtype=torch.bfloat16, max_seq_len=32768, download_dir=None, load_format=auto, tensor_parallel_size=1, "
               "pipeline_parallel_size=1, quantization=None, enforce_eager=False, kv_cache_dtype=auto"),
         [("framework.version", "0.9.2", 1),
          ("knob.model", "Qwen/Qwen2.5-7B-Instruct", 2), ("knob.max_model_len", 32768, 2),
          ("knob.gpu_memory_utilization", 0.95, 2), ("knob.max_num_seqs", 128, 2),
          ("framework.version", "0.9.2", 3), ("knob.model", "Qwen/Qwen2.5-7B-Instruct", 3), ("knob.dtype", "bfloat16", 3),
          ("knob.max_model_len", 32768, 3), ("knob.tensor_parallel_size", 1, 3), ("knob.pipeline_parallel_size", 1, 3),
          ("knob.enforce_eager", False, 3), ("knob.kv_cache_dtype", "auto", 3),
          ("model.params", 7_000_000_000, 3)],
         framework="vllm"),
    # ---- other start-up failures
    case("free-memory-below-utilization",
         lines("(EngineCore pid=79) ValueError: Free memory on device cuda:0 (22.76/24.0 GiB) on startup is less than "
               "desired GPU memory utilization (0.97, 23.28 GiB). Decrease GPU memory utilization or reduce GPU memory "
               "used by other processes.",
               "[multiproc_executor.py:492] ValueError: Free memory on device (31.44/47.38 GiB) on startup is less than "
               "desired GPU memory utilization (0.95, 45.01 GiB). Decrease GPU memory utilization or reduce GPU memory "
               "used by other processes."),
         [(OOM, "free_below_util", 1), ("oom.free_at_start_bytes", GiB(22.76), 1), ("mem.gpu_total_bytes", GiB(24), 1),
          ("oom.util_requested", 0.97, 1), ("knob.gpu_memory_utilization", 0.97, 1), ("oom.util_requested_bytes", GiB(23.28), 1),
          (OOM, "free_below_util", 2), ("oom.free_at_start_bytes", GiB(31.44), 2), ("mem.gpu_total_bytes", GiB(47.38), 2),
          ("oom.util_requested", 0.95, 2), ("knob.gpu_memory_utilization", 0.95, 2), ("oom.util_requested_bytes", GiB(45.01), 2)],
         framework="vllm", phase="startup", failure_line=1),
    case("sampler-warmup",
         "RuntimeError: CUDA out of memory occurred when warming up sampler with 256 dummy requests. Please try lowering "
         "`max_num_seqs` or `gpu_memory_utilization` when initializing the engine.\n",
         # the sentence also carries PyTorch's "CUDA out of memory": both kinds are read
         [(OOM, "sampler_warmup", 1), (OOM, "torch_oom", 1), ("oom.dummy_requests", 256, 1), ("knob.max_num_seqs", 256, 1)],
         phase="warmup"),
    case("load-failed-not-enough-memory",  # 0.33 gpu_model_runner.py
         "Failed to load model - not enough GPU memory. Try lowering --gpu-memory-utilization to free memory for weights, "
         "increasing --tensor-parallel-size, or using --quantization.\n",
         [(OOM, "weights_load_oom", 1)], phase="load_weights"),
    case("max-model-len-over-derived",  # a config error, not an OOM
         "ValueError: User-specified max_model_len (65536) is greater than the derived max_model_len "
         "(max_position_embeddings=32768 or model_max_length=None in model's config.json). To allow overriding this "
         "maximum, set the env var VLLM_ALLOW_LONG_MAX_MODEL_LEN=1.\n",
         [(OOM, "config_max_len", 1)]),
    case("swap-space-warning",
         "WARNING 03-02 10:11:12 config.py:1203] Possibly too large swap space. 16.00 GiB out of the 31.26 GiB total CPU "
         "memory is allocated for the swap space.\n",
         [("knob.swap_space", 16.0, 1), ("oom.hint", "swap_space_large", 1), ("host.ram_total_bytes", GiB(31.26), 1)]),
    case("v1-input-dump-is-the-same-attempt",  # holdout r71: the dump of a failed step restates the running config
         lines("(Worker_TP0 pid=1400) ERROR 03-02 02:46:13 [multiproc_executor.py:815] RuntimeError: UR backend failed. UR "
               "backend returns:40 (UR_RESULT_ERROR_OUT_OF_RESOURCES)",
               "(EngineCore_DP0 pid=1258) ERROR 03-02 02:46:13 [dump_input.py:72] Dumping input data for V1 LLM engine "
               "(v0.11.2.dev0+g439368496.d20260115) with config: model='/llm/models/MiniCPM-V-4_5', speculative_config=None, "
               "tensor_parallel_size=2, enforce_eager=True"),
         [(OOM, "cuda_error_oom", 1), ("gpu.backend", "sycl", 1), ("framework.version", "0.11.2.dev0+g439368496.d20260115", 2),
          ("knob.tensor_parallel_size", 2, 2), ("knob.enforce_eager", True, 2), ("knob.model", "/llm/models/MiniCPM-V-4_5", 2),
          ("oom.hint", "multimodal", 2), ("parallel.workers", 1, 1)],
         framework="vllm", phase="prefill", failure_line=1),
    case("serving-metrics-are-not-facts",
         lines("INFO:     10.0.0.1:40000 - \"POST /v1/chat/completions HTTP/1.1\" 200 OK",
               "INFO 07-08 13:05:31 [loggers.py:116] Engine 000: Avg prompt throughput: 512.3 tokens/s, Avg generation "
               "throughput: 80.1 tokens/s, Running: 4 reqs, Waiting: 0 reqs, GPU KV cache usage: 42.1%, Prefix cache hit "
               "rate: 12.0%",
               "WARNING 05-01 12:00:00 scheduler.py:1057] Sequence group 12 is preempted by PreemptionMode.RECOMPUTE mode "
               "because there is not enough KV cache space. This can affect the end-to-end performance. Increase "
               "gpu_memory_utilization or tensor_parallel_size to provide more KV cache memory. "
               "total_num_cumulative_preemption=1"),
         []),
]


@pytest.mark.parametrize("c", params(CASES))
def test_vllm_messages(c):
    check(c)
