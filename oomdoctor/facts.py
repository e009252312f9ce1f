"""Facts: typed observations with units and provenance.

Everything oomdoctor knows about a failure is a `Fact`: a dotted key from
`FACT_KEYS`, a value (bytes and token counts are ints), the `origin` that
produced it (log, probe, settings, estimate) and, when it came from text, the
`Evidence` line. A `FactSet` is immutable; `with_()` returns a new one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum
from typing import Iterable, Iterator, Mapping, Union

Value = Union[int, float, str, bool]


def format_bytes(n: int) -> str:
    """Bytes as messages print them: `8.00 GiB`, `512.00 MiB`, `0 B`."""
    size = float(n)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"):
        if abs(size) < 1024 or unit == "EiB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.2f} {unit}"
        size /= 1024
    return f"{n} B"


class Origin(str, Enum):
    LOG = "log"
    PROBE = "probe"
    SETTINGS = "settings"  # the running server's flags and environment (--pid)
    COMMAND = "command"  # a launch command or deployment spec the user gave (--cmd, --spec, --rerun)
    CARD = "card"  # the shipped card table (--gpu)
    CATALOG = "catalog"  # the shipped model catalog, or the size in a model's name (--model)
    ESTIMATE = "estimate"


@dataclass(frozen=True)
class Evidence:
    """Where a fact was read: a source (file path or probe name), 1-based line, the text."""

    source: str
    line: int | None
    text: str

    @property
    def location(self) -> str:
        return f"{self.source}:{self.line}" if self.line is not None else self.source


@dataclass(frozen=True)
class Fact:
    key: str
    value: Value
    origin: Origin = Origin.LOG
    evidence: Evidence | None = None


@dataclass(frozen=True)
class FactSpec:
    type: type
    unit: str  # bytes | tokens | ratio | count | text | flag | seconds
    doc: str


def _spec(t: type, unit: str, doc: str) -> FactSpec:
    return FactSpec(t, unit, doc)


B, TOK, N, R, S, F = "bytes", "tokens", "count", "ratio", "text", "flag"

# The registry of fact keys. Rules and templates may only name these.
FACT_KEYS: dict[str, FactSpec] = {
    # identity
    "framework": _spec(str, S, "detected serving framework id"),
    "framework.version": _spec(str, S, "framework version as printed"),
    "launcher": _spec(str, S, "the program that runs the engine and takes its settings in its own spelling (koboldcpp)"),
    "phase": _spec(str, S, "phase the failure happened in"),
    "phase.reached": _spec(str, S, "last start-up phase a log without a failure line reached"),
    "phase.reached_tail": _spec(int, N, "lines the log goes on after the last start-up phase it reached"),
    "source.rank": _spec(str, S, "rank/pod label of the log the failure came from"),
    # the failure
    "oom.kind": _spec(str, S, "family of the failure message (several may be present)"),
    "oom.memory": _spec(bool, F, "one of the failures is a lack of memory (not only a look-alike)"),
    "oom.requested_bytes": _spec(int, B, "size of the allocation that failed"),
    "oom.resident_bytes": _spec(int, B, "memory already held when a load was refused (other models, caches), as a guard states it"),
    "oom.pool_bytes": _spec(int, B, "size of the fixed pool the failed allocation had to fit in"),
    "oom.gpu_total_bytes": _spec(int, B, "device capacity stated by the error"),
    "oom.gpu_free_bytes": _spec(int, B, "free device memory stated by the error"),
    "oom.largest_free_bytes": _spec(int, B, "the largest contiguous free region the error states (fragmentation)"),
    "oom.gpu_limit_bytes": _spec(int, B, "per-process limit (memory fraction) stated by the error"),
    "oom.torch_allocated_bytes": _spec(int, B, "memory allocated by PyTorch"),
    "oom.torch_reserved_bytes": _spec(int, B, "memory reserved by PyTorch in total"),
    "oom.torch_unallocated_bytes": _spec(int, B, "reserved by PyTorch but unallocated (fragmentation)"),
    "oom.private_pool_bytes": _spec(int, B, "allocated in private pools (CUDA graphs)"),
    "oom.process_bytes": _spec(int, B, "memory this process holds including non-PyTorch"),
    "oom.other_process_bytes": _spec(int, B, "memory other processes hold on the device"),
    "oom.process_count": _spec(int, N, "number of processes listed by the error"),
    "oom.non_torch_bytes": _spec(int, B, "process memory outside PyTorch (context, NCCL, cuBLAS)"),
    "oom.device": _spec(str, S, "device the failure happened on"),
    "oom.kv_capacity_tokens": _spec(int, TOK, "tokens the KV pool holds, as the engine states"),
    "oom.kv_needed_bytes": _spec(int, B, "KV bytes one full-length request needs"),
    "oom.kv_available_bytes": _spec(int, B, "KV bytes available, as the engine states"),
    "oom.max_model_len_estimate": _spec(int, TOK, "largest context the engine says fits"),
    "oom.requested_max_model_len": _spec(int, TOK, "context length the engine was asked for"),
    "oom.prefill_tokens": _spec(int, TOK, "prefill tokens the failing warm-up/batch held"),
    "oom.total_tokens": _spec(int, TOK, "total-token budget the failing check held"),
    "oom.requested_tokens": _spec(int, TOK, "KV tokens the failing allocation asked for"),
    "oom.available_tokens": _spec(int, TOK, "KV tokens the allocator said were available"),
    "oom.dummy_requests": _spec(int, N, "sampler warm-up dummy requests"),
    "oom.util_requested": _spec(float, R, "memory fraction the failing start-up check wanted"),
    "oom.util_requested_bytes": _spec(int, B, "bytes the failing start-up check wanted"),
    "oom.free_at_start_bytes": _spec(int, B, "free memory at start-up, as the engine states"),
    "oom.buffer": _spec(str, S, "which llama.cpp/ggml buffer failed: weights|kv|compute|unknown (a runtime's own: runtime)"),
    "oom.runtime_used_bytes": _spec(int, B, "what a runtime's own breakdown says the device held at the failure (AWS Neuron's total)"),
    "oom.runtime_tensors_bytes": _spec(int, B, "the model's tensors in that breakdown: weights, the KV cache it holds, inputs"),
    "oom.runtime_overhead_bytes": _spec(int, B, "the runtime's own buffers in that breakdown (DMA rings, scratchpad, collectives, code): the rest of its total"),
    "oom.host_required_bytes": _spec(int, B, "host memory required, as stated"),
    "oom.host_available_bytes": _spec(int, B, "host memory available, as stated"),
    "oom.shm_requested_bytes": _spec(int, B, "shared memory requested"),
    "oom.shm_available_bytes": _spec(int, B, "shared memory available"),
    "oom.cpu_alloc_failed": _spec(bool, F, "a host (CPU) allocation failed"),
    "oom.exit_signal": _spec(str, S, "signal/exit code that ended the process (SIGKILL, 137, SIGBUS)"),
    "oom.message": _spec(str, S, "the failure line, verbatim"),
    "error.final": _spec(str, S, "a final error line that names a cause other than memory"),
    "error.timeout": _spec(str, S, "a timeout the run stopped on (a wait for a worker or a peer that did not answer)"),
    "error.setting": _spec(str, S, "the knob a configuration check names, where the final error is one setting checked against another"),
    "error.setting_value": _spec(int, N, "the value that knob needs to pass the check"),
    "error.positions": _spec(int, N, "the positions a sequence ran past (an index or a slice beyond the model's context)"),
    "oom.hint": _spec(str, S, "a clue beside the failure: eager_attention, multimodal, container, ..."),
    "oom.buffer_device": _spec(str, S, "device of the failed ggml buffer (CUDA0, CPU, Vulkan0)"),
    "oom.buffer_limit_bytes": _spec(int, B, "largest single buffer the device/runtime allows"),
    "oom.limited_knob": _spec(str, S, "the setting an engine says exceeds what it can hold"),
    "oom.stated_limit": _spec(int, N, "the largest value of that setting the engine says it can hold"),
    # engine settings (canonical knob ids; from log config lines, a command line or a probe)
    "knob.model": _spec(str, S, "model path or id"),
    "knob.dtype": _spec(str, S, "weights/activation dtype"),
    "knob.quantization": _spec(str, S, "quantization method"),
    "knob.tensor_parallel_size": _spec(int, N, "tensor-parallel size"),
    "parallel.workers": _spec(int, N, "model-parallel workers the log's line prefixes name (highest rank + 1)"),
    "parallel.device_map": _spec(str, S, "accelerate's device_map (auto, balanced, sequential: the layers spread over the visible GPUs)"),
    "knob.pipeline_parallel_size": _spec(int, N, "pipeline-parallel size"),
    "knob.max_model_len": _spec(int, TOK, "maximum context per sequence"),
    "knob.max_input_tokens": _spec(int, TOK, "longest prompt accepted (TGI --max-input-tokens)"),
    "knob.max_num_seqs": _spec(int, N, "maximum concurrent sequences"),
    "knob.max_num_batched_tokens": _spec(int, TOK, "batched-token (prefill chunk) budget"),
    "knob.max_total_tokens": _spec(int, TOK, "total KV token budget"),
    "knob.gpu_memory_utilization": _spec(float, R, "memory fraction the engine may use"),
    "knob.kv_cache_dtype": _spec(str, S, "KV cache dtype"),
    "knob.enforce_eager": _spec(bool, F, "CUDA graphs disabled"),
    "knob.chunked_prefill": _spec(bool, F, "chunked prefill enabled"),
    "knob.gpu_layers": _spec(int, N, "layers offloaded to the GPU (llama.cpp/Ollama)"),
    "knob.model_layers": _spec(int, N, "layers the model has"),
    "knob.batch_size": _spec(int, N, "logical batch size (llama.cpp -b / offline batch)"),
    "knob.ubatch_size": _spec(int, N, "physical batch size (llama.cpp -ub)"),
    "knob.flash_attention": _spec(bool, F, "flash attention enabled"),
    "knob.cpu_offload": _spec(float, R, "GiB of weights offloaded to CPU"),
    "knob.cpu_moe_layers": _spec(int, N, "layers whose MoE expert weights stay in CPU RAM (llama.cpp --n-cpu-moe)"),
    "knob.cpu_moe": _spec(bool, F, "every layer's MoE expert weights stay in CPU RAM (llama.cpp --cpu-moe)"),
    "knob.swap_space": _spec(float, R, "CPU swap space in GiB"),
    "knob.expandable_segments": _spec(bool, F, "PYTORCH_CUDA_ALLOC_CONF expandable_segments on"),
    "knob.cuda_graph_sizes": _spec(int, N, "largest CUDA-graph capture size"),
    "knob.mm_limits": _spec(str, S, "multimodal items per prompt"),
    "knob.shm_size_bytes": _spec(int, B, "container /dev/shm size"),
    # memory accounting (from the engine's own lines, or the estimator)
    "mem.gpu_total_bytes": _spec(int, B, "device capacity"),
    "mem.budget_bytes": _spec(int, B, "total x memory fraction: what the engine may use"),
    "mem.weights_bytes": _spec(int, B, "weights on one GPU, as the engine states (or the memory model computes)"),
    "mem.weights_estimate_bytes": _spec(int, B, "weights on one GPU from the model name's parameter count"),
    "mem.non_torch_bytes": _spec(int, B, "non-torch memory (CUDA context, NCCL, cuBLAS)"),
    "mem.activation_peak_bytes": _spec(int, B, "profiled activation peak"),
    "mem.kv_cache_bytes": _spec(int, B, "KV pool size on one GPU"),
    "mem.kv_rank_gap_bytes": _spec(int, B, "how far apart the KV memory left on different ranks of one engine is, where one rank has none"),
    "mem.kv_tokens": _spec(int, TOK, "tokens the KV pool holds"),
    "mem.kv_bytes_per_token": _spec(int, B, "KV bytes one token costs on one GPU"),
    "mem.gpu_blocks": _spec(int, N, "KV blocks on one GPU"),
    "mem.cpu_blocks": _spec(int, N, "KV swap blocks in host RAM (vLLM V0)"),
    "mem.peak_torch_bytes": _spec(int, B, "peak PyTorch memory in the profile run (weights included)"),
    "mem.host_required_bytes": _spec(int, B, "host RAM the engine needs for the part not on the GPU"),
    "mem.host_large_alloc_bytes": _spec(int, B, "the largest host allocation the C allocator reported as large (tcmalloc)"),
    "mem.weights_total_bytes": _spec(int, B, "weights of the whole model (all devices and host)"),
    "mem.kv_total_bytes": _spec(int, B, "KV cache of the whole model (all devices and host)"),
    "mem.prefill_tokens": _spec(int, TOK, "tokens in the last prefill batch before the failure"),
    "model.name_quantization": _spec(str, S, "the quantization method a model's name gives (awq, gptq) where the engine runs it without one"),
    "model.params": _spec(int, N, "parameter count (the catalog's published figure, or the size in the model's name)"),
    "model.kv_bytes_per_token": _spec(int, B, "KV bytes one token costs the whole model at 16 bits, from its config (the catalog)"),
    "model.expert_params": _spec(int, N, "parameters in the routed experts of a MoE model, from its config (the catalog)"),
    "model.largest_tensor_params": _spec(int, N, "elements of the model's largest weight tensor (embedding, fused gate/up, stacked experts), from its config"),
    "model.exceeds_host": _spec(bool, F, "the whole model is about as large as the host's RAM (a workstation's when unstated)"),
    "model.exceeds_any_gpu": _spec(bool, F, "the weights on one GPU are more than any discrete card holds (no card named)"),
    "model.low_bit_weights": _spec(bool, F, "the weights are quantized to 4 or 8 bits (bitsandbytes, AWQ, GPTQ, int4/int8)"),
    "model.default_context": _spec(int, TOK, "the context the model's config advertises (the engines' default max_model_len)"),
    "model.trained_context": _spec(int, TOK, "the context the model was trained for, as the runtime prints it (GGUF n_ctx_train)"),
    "mem.block_size": _spec(int, TOK, "tokens per KV block"),
    "mem.max_concurrency": _spec(float, R, "KV tokens / max_model_len as the engine states"),
    "mem.cuda_graph_bytes": _spec(int, B, "memory CUDA-graph capture took"),
    "mem.free_after_capture_bytes": _spec(int, B, "GPU memory still free once the CUDA graphs were captured"),
    "ratio.graphs_of_free_after": _spec(float, R, "memory the CUDA graphs took / what was still free after capture"),
    "mem.cuda_graph_estimate_bytes": _spec(int, B, "the engine's estimate of its CUDA graphs' memory, made before the KV cache is sized"),
    "mem.cuda_graph_estimate_out_of_line": _spec(bool, F, "the CUDA-graph memory estimate is far above what graphs take (of the card, of the weights)"),
    "mem.compute_buffer_bytes": _spec(int, B, "llama.cpp compute buffer"),
    "mem.layer_bytes": _spec(int, B, "one layer's weights (and its KV share) as Ollama's scheduler sized it"),
    "mem.planned_cache_tokens": _spec(int, TOK, "tokens a cache built at start-up holds: max_batch_size x max_seq_len"),
    "mem.workspace_tokens": _spec(int, TOK, "tokens (input + output) DeepSpeed's inference kernels sized their workspace for"),
    "mem.free_after_load_bytes": _spec(int, B, "free device memory after weights loaded"),
    "mem.free_stated_bytes": _spec(int, B, "device memory the engine last stated free before the failure (SGLang's avail mem=)"),
    "mem.weights_stated": _spec(bool, F, "the weights per GPU come from the log's own numbers, not an estimate from the model and card"),
    "mem.context_left_to_model": _spec(bool, F, "no context set, and the engine sizes its KV cache for the model's own of 256K tokens or more"),
    "mem.stated_room_to_spare": _spec(bool, F, "4 GiB or more stated free before the failure, and captured graphs under a quarter of what they left"),
    "mem.layers_offloaded": _spec(int, N, "layers placed on the GPU"),
    "mem.layers_total": _spec(int, N, "layers of the model"),
    "mem.gpu_available_bytes": _spec(int, B, "device memory available to the engine at start"),
    "mem.devices_free_bytes": _spec(int, B, "free memory of all the devices a run loads its layers onto, together"),
    "mem.required_bytes": _spec(int, B, "memory the engine estimated it needs"),
    "oom.need_room_bytes": _spec(int, B, "the room a runtime's own check says a part (its cache, a step) has: free memory or a ceiling"),
    "mem.gpu_used_bytes": _spec(int, B, "device memory in use by the engine, as its last running total states"),
    "mem.initial_usage_bytes": _spec(int, B, "device memory in use when the engine began profiling (its weights included)"),
    "mem.used_at_start_bytes": _spec(int, B, "device memory in use before the engine placed anything (a device list's capacity less its free memory)"),
    "mem.gpu_planned_bytes": _spec(int, B, "GPU memory the scheduler planned to use (Ollama memory.required.partial)"),
    "mem.gpu_allocatable_ratio": _spec(float, R, "share of the card a cluster scheduler found allocatable (GPUStack)"),
    # live probes
    "gpu.count": _spec(int, N, "GPUs NVML sees"),
    "gpu.name": _spec(str, S, "GPU model"),
    "gpu.device_used": _spec(str, S, "a device the engine says it loads onto (llama.cpp's 'using device CUDA0'), one fact each"),
    "gpu.backend": _spec(str, S, "compute backend the log names (cuda, rocm, vulkan, sycl, metal, ...)"),
    "gpu.total_bytes": _spec(int, B, "GPU capacity (first or failing device)"),
    "gpu.used_bytes": _spec(int, B, "GPU memory in use now"),
    "gpu.free_bytes": _spec(int, B, "GPU memory free now"),
    "gpu.other_process_bytes": _spec(int, B, "GPU memory held by processes other than the server"),
    "gpu.other_processes": _spec(str, S, "processes other than the server holding GPU memory"),
    "gpu.mig": _spec(bool, F, "MIG mode enabled"),
    "gpu.fp8": _spec(bool, F, "the card has fp8 tensor cores (Ada, Hopper, Blackwell)"),
    "gpu.compute_capability": _spec(str, S, "CUDA compute capability of the card (8.0 Ampere, 8.9 Ada, 9.0 Hopper)"),
    "model.split_unknown": _spec(bool, F, "several GPUs are in use and nothing says how the model is split: estimated weights per GPU are a guess"),
    "oom.on_integrated_gpu": _spec(bool, F, "the failing device is an integrated GPU beside another listed device"),
    "gpu.idle_count": _spec(int, N, "GPUs the machine has beyond those the engine's parallel split uses"),
    "gpu.integrated_device": _spec(str, S, "index of a listed device that is an integrated GPU (its memory a carve-out of host RAM)"),
    "gpu.unified_memory": _spec(bool, F, "the device shares host RAM (Apple silicon, Jetson)"),
    "model.may_fill_unified_pool": _spec(bool, F, "on a GPU that shares host RAM, the model may be what filled it: its weights take "
                                                 "most of the pool, or, unstated, the pool is small"),
    "host.ram_total_bytes": _spec(int, B, "host RAM"),
    "host.ram_available_bytes": _spec(int, B, "host RAM available"),
    "host.ram_used_ratio": _spec(float, R, "share of host RAM in use, as the log states"),
    "host.swap_total_bytes": _spec(int, B, "swap"),
    "host.swap_used_ratio": _spec(float, R, "share of swap in use, as the log states"),
    "host.shm_total_bytes": _spec(int, B, "/dev/shm size"),
    "host.disk_total_bytes": _spec(int, B, "size of a filesystem a log reports full (a disk, not RAM)"),
    "host.shm_free_bytes": _spec(int, B, "/dev/shm free"),
    "host.cgroup_limit_bytes": _spec(int, B, "container memory limit"),
    "host.limit_below_model": _spec(bool, F, "the container's memory limit is below the model's weights, which loaders stage through RAM"),
    "host.cgroup_usage_bytes": _spec(int, B, "container memory use"),
    "host.cgroup_oom_kills": _spec(int, N, "OOM kills counted by the container's cgroup"),
    "host.kernel_oom_kill": _spec(str, S, "a kernel OOM-killer line seen in dmesg/journal"),
    # the curve before the failure: periodic stats lines, a recording, Prometheus (oomdoctor.timeline)
    "series.samples": _spec(int, N, "stats samples read (log lines, recorded samples, Prometheus steps)"),
    "series.kv_usage_peak": _spec(float, R, "highest KV-cache usage on the curve (0..1)"),
    "series.kv_usage_last": _spec(float, R, "KV-cache usage of the last sample before the failure (or the end)"),
    "series.kv_usage_recent_peak": _spec(float, R, "highest KV-cache usage of the last samples before the failure"),
    "series.kv_saturated_samples": _spec(int, N, "samples in the saturation window: KV usage held near its ceiling (>= 90%)"),
    "series.waiting_at_saturation": _spec(int, N, "most requests waiting while KV usage was at its ceiling"),
    "series.running_at_saturation": _spec(int, N, "most requests running while KV usage was at its ceiling"),
    "series.waiting_peak": _spec(int, N, "most requests waiting on the curve"),
    "series.running_peak": _spec(int, N, "most requests running on the curve"),
    "series.preemptions": _spec(int, N, "preemptions/retractions counted on the curve"),
    "series.prompt_tokens_p99": _spec(int, TOK, "P99 prompt length of the requests seen"),
    "series.prompt_tokens_mean": _spec(int, TOK, "mean prompt length of the requests seen"),
    "series.prompt_tokens_max": _spec(int, TOK, "longest prompt seen"),
    "series.requests": _spec(int, N, "requests whose length was seen"),
    "series.context_tokens": _spec(int, TOK, "context per sequence the P99 is compared with (max_model_len, llama.cpp n_ctx_slot)"),
    "series.context_shifts": _spec(int, N, "context shifts (llama.cpp dropped KV to keep generating)"),
    "series.over_context": _spec(int, N, "requests longer than the context: rejected or truncated"),
    "series.gpu_growth_bytes": _spec(int, B, "steady growth of the server's GPU memory over the curve (a leak)"),
    "series.host_growth_bytes": _spec(int, B, "steady growth of the server's host memory over the curve (a leak)"),
    "series.growth_seconds": _spec(int, "seconds", "how long that growth went on"),
    "series.load_steady": _spec(bool, F, "the load (running requests) was steady while memory grew"),
    "ratio.gpu_growth": _spec(float, R, "GPU memory growth / where it started"),
    "ratio.host_growth": _spec(float, R, "host memory growth / where it started"),
    "ratio.prompt_p99_of_context": _spec(float, R, "P99 prompt length / context per sequence"),
    "ratio.p99_batch_of_pool": _spec(float, R, "max_num_seqs sequences at the P99 length / tokens the KV pool holds"),
    "fit.context_for_p99": _spec(int, TOK, "context per sequence that holds the P99 prompt with room to generate"),
    # derived by the memory model
    "fit.max_model_len": _spec(int, TOK, "largest context the KV pool holds"),
    "fit.gpu_memory_utilization": _spec(float, R, "memory fraction that makes the request fit"),
    "fit.gpu_memory_utilization_lower": _spec(float, R, "memory fraction that leaves room for non-pool memory"),
    "fit.gpu_memory_utilization_graph_headroom": _spec(float, R, "the highest memory fraction that leaves a negative CUDA-graph estimate's excess outside the pool"),
    "fit.max_num_seqs": _spec(int, N, "concurrency that fits"),
    "fit.max_num_batched_tokens": _spec(int, TOK, "batched-token budget that fits"),
    "fit.max_total_tokens": _spec(int, TOK, "total-token budget that fits"),
    "fit.gpu_layers": _spec(int, N, "GPU layers that fit"),
    "fit.tensor_parallel_size": _spec(int, N, "tensor-parallel size that fits the weights"),
    "fit.pipeline_parallel_size": _spec(int, N, "pipeline stages (nodes of eight 80 GB cards) that fit the weights where no card is stated"),
    "fit.kv_cache_dtype": _spec(str, S, "smaller KV-cache dtype that makes the request fit"),
    "fit.cpu_offload_gb": _spec(float, R, "GiB to offload so the weights fit"),
    "fit.shm_size": _spec(str, S, "suggested /dev/shm size"),
    "fit.swap_space": _spec(int, N, "CPU swap space per GPU (GiB) within the engine's share of host RAM"),
    "fit.cpu_kv_space": _spec(int, N, "vLLM CPU backend's KV cache space (GiB, VLLM_CPU_KVCACHE_SPACE) within the RAM found free"),
    "fit.trace_region_size": _spec(int, B, "Tenstorrent's trace_region_size (bytes) that holds the traces the warm-up records"),
    "fit.trt_workspace_mib": _spec(int, N, "TensorRT's builder workspace limit (MiB) below the scratch a tactic could not get"),
    "fit.triton_cuda_pool": _spec(str, S, "Triton's --cuda-memory-pool-byte-size value (GPU:bytes) that holds the refused tensor"),
    "fit.cpu_kv_utilization": _spec(float, R, "the memory share at which vLLM's CPU backend sizes its KV cache within the RAM found free"),
    "fit.host_memory_limit": _spec(str, S, "a container memory limit that holds the model's weights staged in RAM (docker --memory)"),
    "fit.dtype": _spec(str, S, "a 16-bit dtype for weights loaded in float32"),
    # derived shares (0..1) used by rules
    "ratio.weights_of_total": _spec(float, R, "weights per GPU / GPU capacity"),
    "ratio.weights_of_host": _spec(float, R, "the whole model's weights / host RAM (or the container's limit)"),
    "ratio.weights_of_host_available": _spec(float, R, "the whole model's weights / the host RAM free when the run started"),
    "ratio.allocated_of_weights": _spec(float, R, "PyTorch's allocated bytes / weights per GPU"),
    "ratio.allocated_of_total": _spec(float, R, "PyTorch-allocated / GPU capacity at the failure"),
    "ratio.process_of_total": _spec(float, R, "everything the failing process held on the GPU / GPU capacity at the failure"),
    "ratio.allocated_of_usable": _spec(float, R, "PyTorch-allocated / the GPU less the memory outside this process's PyTorch pool"),
    "ratio.unallocated_of_total": _spec(float, R, "reserved-but-unallocated / GPU capacity"),
    "ratio.request_of_total": _spec(float, R, "failed request / GPU capacity"),
    "ratio.request_of_free": _spec(float, R, "failed request / free memory at the failure"),
    "ratio.request_of_available": _spec(float, R, "failed request / device memory free when the engine started"),
    "ratio.request_of_activations": _spec(float, R, "failed request / the activation memory the engine planned (TensorRT's builder)"),
    "ratio.compute_of_available": _spec(float, R, "compute buffer (graph) / device memory free when the engine started"),
    "ratio.compute_of_kv": _spec(float, R, "compute buffers (graph) / the KV cache, both as ggml reserved them"),
    "ratio.layer_of_compute": _spec(float, R, "one layer / the compute graph, as Ollama's scheduler weighed them"),
    "ratio.request_of_process": _spec(float, R, "failed request / everything this process held on the GPU at the failure"),
    "ratio.free_of_total": _spec(float, R, "free / GPU capacity at the failure"),
    "ratio.other_process_of_total": _spec(float, R, "memory of other processes / GPU capacity"),
    "ratio.non_torch_of_total": _spec(float, R, "memory outside this process's PyTorch pool / GPU capacity"),
    "ratio.foreign_of_total": _spec(float, R, "memory outside this process's PyTorch pool beyond one process's CUDA context and workspaces / GPU capacity"),
    "ratio.host_required_of_available": _spec(float, R, "host RAM needed / host RAM available"),
    "ratio.host_required_of_weights": _spec(float, R, "memory a load asks the host for / the model's weights"),
    "ratio.private_pools_of_total": _spec(float, R, "PyTorch's private pools (CUDA graphs, engine memory pools) / GPU capacity"),
    "ratio.planned_of_available": _spec(float, R, "GPU memory the scheduler planned / memory it saw available"),
    "ratio.kv_of_available": _spec(float, R, "KV the scheduler needs / GPU memory it saw available"),
    "ratio.kv_of_device": _spec(float, R, "KV buffer on the device / the device's memory budget"),
    "ratio.host_of_required": _spec(float, R, "share of the engine's memory that lives in host RAM"),
    "ratio.weights_of_budget": _spec(float, R, "weights / the memory the runtime says it may use (working set, available budget)"),
    "ratio.kv_of_budget": _spec(float, R, "the KV pool an engine's profile left / the engine's budget (total x gpu_memory_utilization)"),
    "ratio.profile_peak_of_budget": _spec(float, R, "the profile run's activation peak / the engine's budget (total x gpu_memory_utilization)"),
    "ratio.model_of_budget": _spec(float, R, "(weights + the profile run's activation peak) / the engine's budget (total x gpu_memory_utilization)"),
    "ratio.activations_of_budget": _spec(float, R, "activation/temporary buffers / the memory the runtime may use"),
    "ratio.activations_of_total": _spec(float, R, "activation/temporary buffers (a profiled or compiled peak) / GPU capacity"),
    "ratio.used_of_budget": _spec(float, R, "the runtime's running total / the memory it may use"),
    "ratio.non_torch_of_budget": _spec(float, R, "the overhead the runtime states (non-torch, CUDA context, its profiled extra) / the memory it may use"),
    "ratio.unstated_of_budget": _spec(float, R, "what a runtime's stated budget parts (weights, overhead, activations, KV) leave unaccounted / the budget, where the KV part came out at zero or below"),
    "ratio.used_before_start_of_total": _spec(float, R, "memory in use before the engine started (initial usage less its own weights) / GPU capacity"),
    "ratio.limit_of_total": _spec(float, R, "the memory PyTorch allows this process (a per-process fraction) / GPU capacity"),
    "ratio.request_of_largest_tensor": _spec(float, R, "failed allocation / the model's largest weight tensor at its dtype (16 bits at least)"),
    "ratio.request_of_weights": _spec(float, R, "failed allocation / the model's weights on one device (stated or estimated)"),
    "ratio.request_of_buffer_limit": _spec(float, R, "failed allocation / the largest single buffer allowed"),
    "ratio.allocated_of_util_budget": _spec(float, R, "what PyTorch held at the failure / the engine's share of the card (gpu_memory_utilization x capacity)"),
    "ratio.request_of_unallocated": _spec(float, R, "failed allocation / what PyTorch reserved but had not allocated"),
    "ratio.request_of_outside_pool": _spec(float, R, "failed allocation / the card less what PyTorch reserved (the most that could have been free)"),
    "ratio.process_non_torch_of_total": _spec(float, R, "this process's memory outside PyTorch's pool / GPU capacity"),
    "ratio.runtime_overhead_of_used": _spec(float, R, "the runtime's own buffers / what its breakdown says the device held"),
    "ratio.runtime_tensors_of_used": _spec(float, R, "the model's tensors / what the runtime's breakdown says the device held"),
    "ratio.kv_of_required": _spec(float, R, "KV cache / total memory the engine needs"),
    "ratio.compute_of_required": _spec(float, R, "compute buffers / total memory the engine needs"),
    "ratio.context_of_kv_pool": _spec(float, R, "one max_model_len sequence / the tokens the KV pool holds"),
    "ratio.kv_of_weights": _spec(float, R, "KV cache of the whole model / its weights (all devices and host)"),
    "ratio.kv_estimate_of_weights": _spec(float, R, "KV cache the context asks of the model (its config's KV per token x n_ctx, at the KV type set) / its weights"),
    "ratio.kv_estimate_of_left": _spec(float, R, "KV cache the context asks of the model (per GPU) / what the weights leave of the card"),
    "ratio.required_of_weights": _spec(float, R, "memory the runtime needs for the loaded model / the model's weights"),
    "ratio.allocated_of_model": _spec(float, R, "PyTorch's allocation on the failing rank / the whole model's weights (tensor parallel)"),
}


def is_known_key(key: str) -> bool:
    return key in FACT_KEYS


# more than any count or size (an unsigned 64-bit figure that wrapped below zero, 2**64, is still read: it says
# the arithmetic underflowed); products of three such stay finite
_LARGEST = 2.0 ** 96


def _sane(value: object) -> bool:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return True
    return math.isfinite(value) and abs(value) <= _LARGEST


class FactSet:
    """An immutable collection of facts. Several facts may share a key."""

    __slots__ = ("_facts", "_by_key")

    def __init__(self, facts: Iterable[Fact] = ()) -> None:
        # a garbled number (nan, inf, or past any real quantity: "--max_seq_len 1e308") states nothing: it never
        # reaches arithmetic or a rule
        self._facts: tuple[Fact, ...] = tuple(f for f in facts if _sane(f.value))
        by_key: dict[str, list[Fact]] = {}
        for f in self._facts:
            by_key.setdefault(f.key, []).append(f)
        self._by_key: Mapping[str, list[Fact]] = by_key

    def __iter__(self) -> Iterator[Fact]:
        return iter(self._facts)

    def __len__(self) -> int:
        return len(self._facts)

    def has(self, key: str) -> bool:
        return key in self._by_key

    def get(self, key: str) -> Fact | None:
        """The fact that decides the key: log and probe facts beat settings, settings beat
        estimates; among equals, the last one read (closest to the failure) wins."""
        facts = self._by_key.get(key)
        if not facts:
            return None
        return max(enumerate(facts), key=lambda p: (_RANK[p[1].origin], p[0]))[1]

    def all(self, key: str) -> list[Fact]:
        return list(self._by_key.get(key, ()))

    def values(self, key: str) -> list[Value]:
        return [f.value for f in self._by_key.get(key, ())]

    def value(self, key: str, default: Value | None = None) -> Value | None:
        f = self.get(key)
        return default if f is None else f.value

    def number(self, *keys: str) -> float | None:
        """The deciding value of the first of these keys that holds a number (not a flag)."""
        for key in keys:
            v = self.value(key)
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                return float(v)
        return None

    def keys(self) -> list[str]:
        return list(self._by_key)

    def stated(self, *keys: str | None) -> "FactSet":
        """These keys' facts that the log, a probe or the user stated (no card table, catalog or estimate)."""
        return FactSet(f for k in keys if k for f in self._by_key.get(k, ()) if f.origin in STATED)

    def with_(self, facts: Iterable[Fact]) -> "FactSet":
        return FactSet((*self._facts, *facts))


# what someone or something stated, as opposed to what the shipped tables and the memory model filled in
STATED = frozenset({Origin.LOG, Origin.PROBE, Origin.SETTINGS, Origin.COMMAND})
_RANK = {Origin.ESTIMATE: 0, Origin.CATALOG: 0, Origin.CARD: 1, Origin.COMMAND: 1, Origin.SETTINGS: 1, Origin.PROBE: 2, Origin.LOG: 3}
