"""Look-alikes (parsers/host.py and friends): failures that are not out-of-memory get their own
kind (the not_oom gate), and lines that only talk about memory give no failure at all."""

from __future__ import annotations

import pytest
from parser_table import case, check, lines, params
from oomdoctor.parsers.scan import NOT_OOM_KINDS

OOM = "oom.kind"

# ---- real failures that are not OOMs: each is read as a kind the not_oom gate knows
NOT_OOM = [
    case("illegal-memory-access", "RuntimeError: CUDA error: an illegal memory access was encountered\n",
         [(OOM, "illegal_memory_access", 1)], failure_line=1),
    case("misaligned-address", "RuntimeError: CUDA error: misaligned address\n", [(OOM, "illegal_memory_access", 1)]),
    case("no-kernel-image",  # corpus tgi-1168
         lines("RuntimeError: CUDA error: no kernel image is available for execution on the device",
               "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might "
               "be incorrect."),
         [(OOM, "no_kernel_image", 1)]),
    case("device-side-assert", "RuntimeError: CUDA error: device-side assert triggered\n", [(OOM, "device_assert", 1)]),
    case("nccl-graph-capture",  # corpus
         "hostname:116024:116024 [0] misc/strongstream.cc:53 NCCL WARN NCCL cannot be captured in a graph if either it "
         "wasn't built with CUDA runtime >= 11.3 or if the installed CUDA driver < R465.\n",
         [(OOM, "nccl_graph_capture", 1)]),
    case("bitsandbytes-without-gpu",
         "The installed version of bitsandbytes was compiled without GPU support. 8-bit optimizers, 8-bit "
         "multiplication, and GPU quantization are unavailable.\n",
         [(OOM, "broken_install", 1)], framework="transformers"),
    case("driver-too-old",
         "RuntimeError: The NVIDIA driver on your system is too old (found version 11040). CUDA driver version is "
         "insufficient for CUDA runtime version\n",
         [(OOM, "broken_install", 1)]),
    case("no-cuda-gpus", "RuntimeError: No CUDA GPUs are available\n", [(OOM, "broken_install", 1)]),
    case("vulkan-max-buffer-size",  # corpus
         "vkCreateBuffer(): pCreateInfo->size (3414061312) is larger than the maximum allowed buffer size "
         "VkPhysicalDeviceMaintenance4Properties.maxBufferSize (2147483648). \n",
         [(OOM, "vulkan_max_buffer_size", 1)], framework="llamacpp"),
    case("vllm-max-model-len-over-config",
         "ValueError: User-specified max_model_len (65536) is greater than the derived max_model_len "
         "(max_position_embeddings=32768 or model_max_length=None in model's config.json).\n",
         [(OOM, "config_max_len", 1)]),
    case("ollama-queue-full",
         "Error: server busy, please try again.  maximum pending requests exceeded\n",
         [(OOM, "queue_full", 1)]),
    case("nccl-heartbeat-watchdog",  # holdout r8: a hung collective, not a kill for memory
         "[rank1]:[E ProcessGroupNCCL.cpp:1316] [PG 2 Rank 1] Heartbeat monitor timed out! Process will be terminated after "
         "dumping debug info. workMetaList_.size()=138\n",
         [(OOM, "comm_error", 1)]),
    case("guardrail-estimate-nan",  # holdout r8: LM Studio's load guardrail could not size the model
         "Error: Model loading was stopped due to insufficient system resources. Under the current settings, this model "
         "requires approximately NaN undefined of memory, and continuing to load it would likely overload your system and "
         "cause it to freeze. If you think this is incorrect, you can adjust the model loading guardrails in settings.\n",
         [(OOM, "estimator_bug", 1)], framework="llamacpp"),
]

# ---- lines that mention memory or killing but report no failure
QUIET = [
    case("vllm-cuda-graph-advice",  # corpus: an INFO line with "running out of memory" in it
         "(VllmWorkerProcess pid=116058) INFO 07-08 13:05:31 model_runner.py:928] CUDA graphs can take additional 1~3 GiB "
         "memory per GPU. If you are running out of memory, consider decreasing `gpu_memory_utilization` or enforcing "
         "eager mode. You can also reduce the `max_num_seqs` as needed to decrease memory usage.\n",
         framework="vllm"),
    case("ray-oom-documentation-pointer",  # corpus
         "(raylet) Refer to the documentation on how to address the out of memory issue: "
         "https://docs.ray.io/en/latest/ray-core/scheduling/ray-oom-prevention.html. Consider provisioning more memory on "
         "this node or reducing task parallelism by requesting more CPUs per task.\n"),
    case("vllm-preemption-warning",
         "WARNING 05-01 12:00:00 scheduler.py:1057] Sequence group 12 is preempted by PreemptionMode.RECOMPUTE mode because "
         "there is not enough KV cache space. This can affect the end-to-end performance. Increase gpu_memory_utilization "
         "or tensor_parallel_size to provide more KV cache memory. total_num_cumulative_preemption=1\n"),
    case("nvml-missing-note",
         "nvmlInit_v2 failed; omitting per-process memory info from CUDA out-of-memory messages.\n"),
    case("sigkill-handler-registration", "INFO: registering SIGKILL handler for worker shutdown\n"),
    case("word-killed-in-prose", "INFO 07-08 13:05:31 [engine.py:10] Request abc123 was killed by the client (aborted)\n"),
    case("exit-code-0", "vllm exited with code 0\n"),
    case("access-log-and-metrics",
         lines('INFO:     10.0.0.1:40000 - "POST /v1/chat/completions HTTP/1.1" 200 OK',
               "INFO 07-08 13:05:31 [loggers.py:116] Engine 000: Avg prompt throughput: 512.3 tokens/s, Avg generation "
               "throughput: 80.1 tokens/s, Running: 4 reqs, Waiting: 0 reqs, GPU KV cache usage: 99.9%, Prefix cache hit "
               "rate: 12.0%")),
    case("expandable-segments-env", "export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True\n", [("knob.expandable_segments", True, 1)]),
]


@pytest.mark.parametrize("c", params(NOT_OOM))
def test_not_oom_failures(c):
    check(c)
    kinds = {v for k, v, _ in c.facts if k == OOM}
    assert kinds and kinds <= NOT_OOM_KINDS, "the not_oom gate must know every kind a look-alike yields"


@pytest.mark.parametrize("c", params(QUIET))
def test_memory_talk_is_not_a_failure(c):
    check(c)
