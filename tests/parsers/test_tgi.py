"""Hugging Face TGI messages (parsers/servers.py): the launcher's Args line, warm-up failures,
the router's KV budget and the signals a shard dies of (KNOBS.md section 5)."""

from __future__ import annotations

import pytest
from parser_table import GiB, MiB, case, check, lines, params

OOM = "oom.kind"

ARGS = (
    '2024-05-01T10:00:00.000000Z  INFO text_generation_launcher: Args { model_id: "mistralai/Mistral-7B-Instruct-v0.2", '
    "revision: None, validation_workers: 2, sharded: None, num_shard: Some(2), quantize: Some(Awq), speculate: None, "
    "dtype: None, trust_remote_code: false, max_concurrent_requests: 128, max_best_of: 2, max_stop_sequences: 4, "
    "max_top_n_tokens: 5, max_input_tokens: Some(4095), max_input_length: None, max_total_tokens: Some(4096), "
    "waiting_served_ratio: 0.3, max_batch_prefill_tokens: Some(4145), max_batch_total_tokens: None, max_waiting_tokens: 20, "
    'max_batch_size: None, cuda_graphs: None, hostname: "0.0.0.0", port: 80, shard_uds_path: "/tmp/text-generation-server", '
    "cuda_memory_fraction: 1.0, rope_scaling: None }\n"
)

CASES = [
    case("args-model-id", ARGS,
         [("knob.model", "mistralai/Mistral-7B-Instruct-v0.2", 1), ("model.params", 7_000_000_000, 1),
          ("knob.tensor_parallel_size", 2, 1), ("knob.quantization", "awq", 1), ("knob.max_model_len", 4096, 1),
          ("knob.max_num_batched_tokens", 4145, 1), ("knob.gpu_memory_utilization", 1.0, 1)],
         framework="tgi"),
    # the launcher prints its Rust enum names: the facts carry the launcher's own spelling
    case("args-bitsandbytes-fp4",
         "2023-11-30T14:51:44.035620Z  INFO text_generation_launcher: Args { model_id: \"meta-llama/Llama-2-70b-chat-hf\", "
         "sharded: None, num_shard: None, quantize: Some(BitsandbytesFP4), dtype: None, max_total_tokens: 2048 }\n",
         [("knob.model", "meta-llama/Llama-2-70b-chat-hf", 1), ("model.params", 70_000_000_000, 1),
          ("knob.quantization", "bitsandbytes-fp4", 1), ("knob.max_model_len", 2048, 1)],
         framework="tgi"),
    # a shell session pasted with its variables: the value, not `$model`
    case("docker-run-shell-variables",
         "$ model=bigscience/bloom-560m\n$ num_shard=1\n\n$ docker run --memory=1g --gpus all --shm-size 1g "
         "ghcr.io/huggingface/text-generation-inference:0.8.2 --model-id $model --num-shard $num_shard\n",
         [("knob.model", "bigscience/bloom-560m", 4), ("model.params", 560_000_000, 4), ("oom.hint", "container", 4),
          ("host.cgroup_limit_bytes", 1 << 30, 4), ("knob.shm_size_bytes", 1 << 30, 4)],
         framework="tgi"),
    case("warmup-prefill-tokens",
         lines('Error: Warmup(Generation("Not enough memory to handle 4096 prefill tokens. You need to decrease '
               '`--max-batch-prefill-tokens`"))',
               "2023-09-01T12:00:00.000000Z ERROR text_generation_launcher: Method Warmup encountered an error."),
         [(OOM, "tgi_prefill_oom", 1), ("oom.prefill_tokens", 4096, 1)],
         framework="tgi", phase="warmup", failure_line=1),
    case("warmup-prefill-tokens-router",
         "2023-08-02T07:22:09.123456Z ERROR warmup{max_input_length=1024 max_prefill_tokens=4096}:warmup: "
         "text_generation_client: router/client/src/lib.rs:33: Server error: Not enough memory to handle 256 prefill "
         "tokens. You need to decrease `--max-batch-prefill-tokens`\n",
         [(OOM, "tgi_prefill_oom", 1), ("oom.prefill_tokens", 256, 1)], framework="tgi", phase="warmup"),
    case("total-tokens",  # corpus tgi-710 (the stored copy lacks the closing backtick)
         "Not enough memory to handle 16000 total tokens with 2 prefill tokens. You need to decrease "
         "`--max-batch-total-tokens` or `--max-batch-prefill-tokens\n",
         [(OOM, "tgi_total_tokens_oom", 1), ("oom.total_tokens", 16000, 1), ("oom.prefill_tokens", 2, 1)],
         phase="kv_alloc"),
    case("cudamallocasync-warmup",  # corpus tgi-563
         "thread 'main' panicked at 'Unable to warmup model: Generation(\"Allocation on device 0 would exceed allowed "
         "memory. (out of memory)\\nCurrently allocated     : 16.08 GiB\\nRequested               : 4.83 GiB\\nDevice "
         "limit            : 22.20 GiB\\nFree (according to CUDA): 11.12 MiB\\nPyTorch limit (set by user-supplied memory "
         "fraction)\\n                        : 22.20 GiB\")', router/src/main.rs:216:18\n",
         [(OOM, "torch_oom", 1), ("oom.hint", "async_allocator", 1), ("oom.device", "0", 1), ("oom.torch_allocated_bytes", GiB(16.08), 1),
          ("oom.requested_bytes", GiB(4.83), 1), ("oom.gpu_limit_bytes", GiB(22.20), 1), ("oom.gpu_free_bytes", MiB(11.12), 1)],
         framework="tgi", phase="warmup"),
    case("router-kv-budget",
         lines("2024-01-01T00:00:00.000000Z  INFO text_generation_router: router/src/main.rs:100: Setting max batch total "
               "tokens to 30816",
               "2024-01-01T00:00:01.000000Z  INFO text_generation_router: router/src/main.rs:200: Connected"),
         [("mem.kv_tokens", 30816, 1)], framework="tgi"),
    case("cuda-graph-warmup-failed",
         "2024-01-01T00:00:00.000000Z ERROR warmup{max_input_length=4095 max_prefill_tokens=4145 max_total_tokens=4096 "
         "max_batch_size=None}:warmup: text_generation_client: router/client/src/lib.rs:46: Server error: Decode cuda graph "
         "warmup failed\n",
         [(OOM, "cuda_graph_capture_failed", 1)], framework="tgi"),
    # ---- signals
    case("download-sigbus",  # corpus tgi-446: /dev/shm too small while loading
         "Error: Download process was signaled to shutdown with signal 7\n",
         [(OOM, "bus_error", 1), ("oom.exit_signal", "SIGBUS", 1)], phase="load_weights"),
    case("shard-sigkill",
         "2024-01-01T00:00:00.000000Z ERROR text_generation_launcher: Shard process was signaled to shutdown with signal 9\n",
         [(OOM, "killed", 1), ("oom.exit_signal", "SIGKILL", 1)], framework="tgi"),
    case("download-illegal-instruction",  # holdout r75: SIGILL on a CPU the image was not built for
         "2024-11-24T02:43:02.184459Z ERROR download: text_generation_launcher: Download process was signaled to shutdown with signal 4:\n",
         [("error.final", "Download process was signaled to shutdown with signal 4 (SIGILL, an illegal instruction): "
                          "the process crashed, it was not killed for memory", 1)]),
    case("shard-other-signal",
         "2024-01-01T00:00:00.000000Z ERROR text_generation_launcher: Shard process was signaled to shutdown with signal 6\n",
         [(OOM, "signaled", 1), ("oom.exit_signal", "signal 6", 1)]),
    case("webserver-crashed-is-a-follow-up",  # corpus tgi-563 tail: no failure of its own
         lines("2023-07-07T17:55:43.805488Z ERROR text_generation_launcher: Webserver Crashed",
               "2023-07-07T17:55:43.805514Z  INFO text_generation_launcher: Shutting down shards",
               "2023-07-07T17:55:44.134207Z  INFO text_generation_launcher: Shard 0 terminated",
               "Error: WebserverFailed"),
         [], framework="tgi"),
]


@pytest.mark.parametrize("c", params(CASES))
def test_tgi_messages(c):
    check(c)
