"""Canonical knob ids and how each framework spells them.

The ids are those of the labeled corpus (see README, "Knobs"), plus the few added where a
real fix had none (`kv_cache_bytes`, `kv_offload`, `gpu_reserve`, `max_loaded_models`,
`load_mode`). A spelling is a template: `{v}` is replaced by the suggested value. Where the
spelling changed between versions, `Spelling.since`/`until` gate it on the version the log
printed; with no version the spelling that the most releases accept comes first.
Spellings were checked against the frameworks' own docs/source (KNOBS.md lists where).
"""

from __future__ import annotations

from dataclasses import dataclass

FRAMEWORKS: dict[str, str] = {
    "vllm": "vLLM",
    "sglang": "SGLang",
    "tgi": "Hugging Face TGI",
    "llamacpp": "llama.cpp",
    "ollama": "Ollama",
    "transformers": "transformers / PyTorch",
    "pytorch": "PyTorch",
    "tensorrt-llm": "TensorRT-LLM",
    "lmdeploy": "LMDeploy",
    "deepspeed": "DeepSpeed",
    "exllama": "ExLlamaV2",
    "other": "other / unknown",
}

# Accepted spellings of --framework.
FRAMEWORK_ALIASES: dict[str, str] = {
    "llama.cpp": "llamacpp", "llama-cpp": "llamacpp", "llama_cpp": "llamacpp",
    "trtllm": "tensorrt-llm", "tensorrt_llm": "tensorrt-llm", "trt-llm": "tensorrt-llm",
    "text-generation-inference": "tgi", "hf": "transformers", "torch": "pytorch",
    "exllamav2": "exllama", "llamafile": "llamacpp",
}

KNOBS: dict[str, str] = {
    # weights
    "quantization": "use a quantized checkpoint / quantization method",
    "dtype": "weights dtype (float32 -> bf16/fp16)",
    "tensor_parallel_size": "shard the model over more GPUs",
    "pipeline_parallel_size": "split layers over more GPUs",
    "cpu_offload": "offload part of the weights to CPU RAM",
    "gpu_layers": "layers placed on the GPU (llama.cpp -ngl, Ollama num_gpu)",
    "smaller_model": "a smaller model",
    # kv_cache
    "max_model_len": "maximum context per sequence",
    "max_num_seqs": "maximum concurrent sequences",
    "gpu_memory_utilization": "share of the GPU the engine preallocates",
    "kv_cache_dtype": "KV cache element type (fp8 / q8_0)",
    "max_total_tokens": "total KV token budget",
    "kv_cache_bytes": "explicit KV budget in bytes/blocks",
    "kv_offload": "keep (part of) the KV cache in host RAM",
    # activations
    "max_num_batched_tokens": "tokens processed in one forward pass (prefill chunk / ubatch)",
    "chunked_prefill": "process long prompts in chunks",
    "batch_size": "batch size",
    "attention_backend": "fused attention (flash/sdpa) instead of eager",
    "mm_limits": "multimodal items/pixels per prompt",
    # framework
    "enforce_eager": "disable CUDA graphs",
    "cuda_graph_sizes": "fewer/smaller CUDA-graph capture sizes",
    "expandable_segments": "PyTorch allocator expandable segments (fragmentation)",
    "free_gpu": "free the GPU from other processes / use an idle GPU",
    "disable_custom_all_reduce": "disable custom all-reduce buffers",
    "gpu_reserve": "headroom the scheduler keeps free",
    "max_loaded_models": "models resident at once",
    # host
    "swap_space": "CPU swap space for preempted sequences",
    "shm_size": "container /dev/shm size",
    "host_ram": "more host RAM / less host-side memory use",
    "load_mode": "mmap / mlock / no-mmap weight loading",
    # any
    "upgrade": "a framework version with the fix",
    "other": "see the message",
}


@dataclass(frozen=True)
class Spelling:
    template: str  # e.g. "--max-model-len {v}"; "{v}" is the value
    since: tuple[int, ...] | None = None  # first version that accepts it
    until: tuple[int, ...] | None = None  # first version that no longer accepts it
    rerunnable: bool = True  # can be applied to argv/env of a launch command
    note: str = ""

    def applies(self, version: tuple[int, ...] | None) -> bool:
        if version is None:
            return True
        if self.since is not None and version < self.since:
            return False
        if self.until is not None and version >= self.until:
            return False
        return True


def S(template: str, **kw: object) -> Spelling:  # noqa: N802 - table shorthand
    return Spelling(template, **kw)  # type: ignore[arg-type]


_DOCKER = dict(rerunnable=False)
_ALLOC = S("PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True")
_VISIBLE = S("CUDA_VISIBLE_DEVICES=<idle GPU index>", rerunnable=False)
_SHM = S("docker run --shm-size={v} (or --ipc=host; Kubernetes: an emptyDir with medium: Memory on /dev/shm)", **_DOCKER)
_HOST_RAM = S("more host RAM for the process/container (raise its memory limit), fewer workers", **_DOCKER)

# framework -> knob -> spellings (first applicable wins)
SPELLINGS: dict[str, dict[str, tuple[Spelling, ...]]] = {
    "vllm": {
        "quantization": (S("--quantization {v}", note="or serve a pre-quantized (AWQ/GPTQ/FP8) checkpoint"),),
        "dtype": (S("--dtype {v}"),),
        "tensor_parallel_size": (S("--tensor-parallel-size {v}"),),
        "pipeline_parallel_size": (S("--pipeline-parallel-size {v}"),),
        "cpu_offload": (S("--cpu-offload-gb {v}"),),
        "max_model_len": (S("--max-model-len {v}"),),
        "max_num_seqs": (S("--max-num-seqs {v}"),),
        "gpu_memory_utilization": (S("--gpu-memory-utilization {v}"),),
        "kv_cache_dtype": (S("--kv-cache-dtype {v}"),),
        "max_num_batched_tokens": (S("--max-num-batched-tokens {v}"),),
        "chunked_prefill": (S("--enable-chunked-prefill"),),
        "enforce_eager": (S("--enforce-eager"),),
        "cuda_graph_sizes": (
            S("--max-cudagraph-capture-size {v}", since=(0, 11, 1)),
            S("--cuda-graph-sizes {v}", since=(0, 9, 0), until=(0, 11, 1)),
            S("--max-num-seqs {v}", until=(0, 9, 0), note="before 0.9 the captured batch sizes follow max_num_seqs"),
        ),
        "disable_custom_all_reduce": (S("--disable-custom-all-reduce"),),
        "expandable_segments": (_ALLOC,),
        "swap_space": (S("--swap-space {v}", until=(0, 17, 0)),),
        "mm_limits": (S("--limit-mm-per-prompt '{v}'", since=(0, 8, 5)), S("--limit-mm-per-prompt image=1", until=(0, 8, 5))),
        "attention_backend": (
            S("--attention-backend FLASH_ATTN", since=(0, 13, 0)),
            S("VLLM_ATTENTION_BACKEND=FLASH_ATTN", until=(0, 15, 0)),
        ),
        "kv_cache_bytes": (S("--kv-cache-memory-bytes {v}", since=(0, 10, 2)),),
        "kv_offload": (S("--kv-offloading-size {v}", since=(0, 11, 1)),),
        "free_gpu": (_VISIBLE,),
        "shm_size": (_SHM,),
        "host_ram": (_HOST_RAM,),
    },
    "sglang": {
        "quantization": (S("--quantization {v}"),),
        "dtype": (S("--dtype {v}"),),
        "tensor_parallel_size": (S("--tp-size {v}"),),
        "pipeline_parallel_size": (S("--pp-size {v}"),),
        "cpu_offload": (S("--cpu-offload-gb {v}"),),
        "max_model_len": (S("--context-length {v}"),),
        "max_num_seqs": (S("--max-running-requests {v}"),),
        "gpu_memory_utilization": (S("--mem-fraction-static {v}"),),
        "max_total_tokens": (S("--max-total-tokens {v}"),),
        "max_num_batched_tokens": (S("--chunked-prefill-size {v}"),),
        "chunked_prefill": (S("--chunked-prefill-size {v}"),),
        "kv_cache_dtype": (S("--kv-cache-dtype {v}"),),
        "enforce_eager": (S("--disable-cuda-graph", note="0.5.14+: --cuda-graph-backend-decode disabled"),),
        "cuda_graph_sizes": (
            S("--cuda-graph-max-bs {v}", until=(0, 5, 20), note="0.5.14+: --cuda-graph-max-bs-decode; 0.5.20+ requires it"),
            S("--cuda-graph-max-bs-decode {v}", since=(0, 5, 14)),
        ),
        "disable_custom_all_reduce": (S("--disable-custom-all-reduce"),),
        "attention_backend": (S("--attention-backend flashinfer"),),
        "expandable_segments": (_ALLOC,),
        "kv_offload": (S("--enable-hierarchical-cache"),),
        "free_gpu": (_VISIBLE, S("--base-gpu-id <idle GPU index>")),
        "shm_size": (_SHM,),
        "host_ram": (_HOST_RAM,),
    },
    "tgi": {
        "quantization": (S("--quantize {v}"),),
        "dtype": (S("--dtype {v}"),),
        "tensor_parallel_size": (S("--num-shard {v}"),),
        "max_model_len": (S("--max-total-tokens {v}", note="and --max-input-tokens below it"),),
        "max_num_seqs": (S("--max-batch-size {v}"),),
        "gpu_memory_utilization": (S("--cuda-memory-fraction {v}"),),
        "kv_cache_dtype": (S("--kv-cache-dtype {v}"),),
        "max_total_tokens": (S("--max-batch-total-tokens {v}"),),
        "max_num_batched_tokens": (S("--max-batch-prefill-tokens {v}"),),
        "enforce_eager": (S("--cuda-graphs 0"),),
        "cuda_graph_sizes": (S("--cuda-graphs 1,2,4,8", note="a shorter list than the default 1,2,4,8,16,32"),),
        "expandable_segments": (_ALLOC,),
        "free_gpu": (_VISIBLE,),
        "shm_size": (S("docker run --shm-size 1g (or NCCL_SHM_DISABLE=1)", **_DOCKER),),
        "host_ram": (_HOST_RAM,),
    },
    "llamacpp": {
        "quantization": (S("a smaller GGUF quant, e.g. -m model.{v}.gguf", rerunnable=False),),
        "gpu_layers": (S("-ngl {v}"),),
        "cpu_offload": (S("--n-cpu-moe N", rerunnable=False, note="N MoE expert layers kept on the CPU, builds b6089+; else lower -ngl"),),
        "max_model_len": (S("-c {v}"),),
        "max_num_seqs": (S("-np {v}"),),
        # -fa took a value (on|off|auto) from build b6327 (Aug 2025); before, it was a bare switch
        "kv_cache_dtype": (S("-ctk {v} -ctv {v} -fa on", since=(6327,), note="a quantized V cache needs flash attention"),
                           S("-ctk {v} -ctv {v} -fa", until=(6327,), note="a quantized V cache needs flash attention")),
        "attention_backend": (S("-fa on", since=(6327,)), S("-fa", until=(6327,))),
        "max_num_batched_tokens": (S("-ub {v}"),),
        "batch_size": (S("-b {v}"),),
        "kv_offload": (S("-nkvo"),),
        "free_gpu": (_VISIBLE,),
        "host_ram": (_HOST_RAM,),
        "load_mode": (S("--load-mode none", since=(10114,)), S("--no-mmap", until=(10114,))),
    },
    "ollama": {
        "quantization": (S("a smaller tag, e.g. ollama run <model>:{v}", rerunnable=False),),
        "gpu_layers": (S("PARAMETER num_gpu {v} (Modelfile) or \"options\": {{\"num_gpu\": {v}}}"),),
        "max_model_len": (S("OLLAMA_CONTEXT_LENGTH={v} (or option num_ctx)"),),
        "max_num_seqs": (S("OLLAMA_NUM_PARALLEL={v}"),),
        "kv_cache_dtype": (S("OLLAMA_KV_CACHE_TYPE={v} OLLAMA_FLASH_ATTENTION=1"),),
        "attention_backend": (S("OLLAMA_FLASH_ATTENTION=1"),),
        "batch_size": (S("option num_batch {v}"),),
        "max_num_batched_tokens": (S("option num_batch {v}"),),
        "gpu_reserve": (S("OLLAMA_GPU_OVERHEAD={v}"),),
        "max_loaded_models": (S("OLLAMA_MAX_LOADED_MODELS=1"),),
        "free_gpu": (_VISIBLE,),
        "smaller_model": (S("a smaller model or quant tag", rerunnable=False),),
        "host_ram": (_HOST_RAM,),
    },
    "transformers": {
        "quantization": (S("from_pretrained(..., quantization_config=BitsAndBytesConfig(load_in_4bit=True))", rerunnable=False),),
        "dtype": (S("from_pretrained(..., torch_dtype=torch.bfloat16)  (transformers 5: dtype=)", rerunnable=False),),
        "tensor_parallel_size": (S("from_pretrained(..., device_map=\"auto\") over more GPUs", rerunnable=False),),
        "cpu_offload": (S("from_pretrained(..., device_map=\"auto\", max_memory={{0: \"<GiB>\", \"cpu\": \"<GiB>\"}})", rerunnable=False),),
        "attention_backend": (S("from_pretrained(..., attn_implementation=\"sdpa\")  (or \"flash_attention_2\")", rerunnable=False),),
        "batch_size": (S("a smaller batch (rows per generate/forward call)", rerunnable=False),),
        "max_model_len": (S("shorter inputs / smaller max_new_tokens (or a smaller static cache max_cache_len)", rerunnable=False),),
        "kv_cache_dtype": (S("generate(..., cache_implementation=\"quantized\")", rerunnable=False),),
        "mm_limits": (S("processor max_pixels / fewer images per prompt", rerunnable=False),),
        "expandable_segments": (_ALLOC,),
        "free_gpu": (_VISIBLE,),
        "host_ram": (S("more host RAM for the process (transformers 4.x: from_pretrained(..., low_cpu_mem_usage=True))", rerunnable=False),),
        "shm_size": (_SHM,),
    },
    "tensorrt-llm": {
        "max_num_seqs": (S("--max_batch_size {v}"),),
        "batch_size": (S("--max_batch_size {v}"),),
        "max_num_batched_tokens": (S("--max_num_tokens {v}"),),
        "max_model_len": (S("--max_seq_len {v}"),),
        "gpu_memory_utilization": (S("--kv_cache_free_gpu_memory_fraction {v}"),),
        "tensor_parallel_size": (S("--tp_size {v}"),),
        "attention_backend": (S("trtllm-build --context_fmha enable --gpt_attention_plugin auto", rerunnable=False),),
        "host_ram": (_HOST_RAM,),
        "free_gpu": (_VISIBLE,),
    },
    "lmdeploy": {
        "gpu_memory_utilization": (S("--cache-max-entry-count {v}"),),
        "max_model_len": (S("--session-len {v}"),),
        "max_num_seqs": (S("--max-batch-size {v}"),),
        "kv_cache_dtype": (S("--quant-policy 8"),),
        "tensor_parallel_size": (S("--tp {v}"),),
        "quantization": (S("--model-format awq (a 4-bit AWQ checkpoint)", rerunnable=False),),
        "max_num_batched_tokens": (S("--max-prefill-token-num {v}"),),
        "enforce_eager": (S("--eager-mode"),),
        "free_gpu": (_VISIBLE,),
        "host_ram": (_HOST_RAM,),
    },
    "deepspeed": {
        "cpu_offload": (S("ZeRO-3 \"offload_param\": {{\"device\": \"cpu\"}} in the DeepSpeed config", rerunnable=False),),
        "batch_size": (S("a smaller batch per GPU", rerunnable=False),),
        "tensor_parallel_size": (S("deepspeed.init_inference(..., tensor_parallel={{\"tp_size\": {v}}})", rerunnable=False),),
        "expandable_segments": (_ALLOC,),
        "host_ram": (_HOST_RAM,),
    },
    "exllama": {
        "max_model_len": (S("config.max_seq_len = {v} (or -l {v})", rerunnable=False),),
        "kv_cache_dtype": (S("ExLlamaV2Cache_Q4 (or _Q8) instead of ExLlamaV2Cache", rerunnable=False),),
    },
}
SPELLINGS["pytorch"] = SPELLINGS["transformers"]

# Generic spellings used when a framework has none for a knob.
GENERIC: dict[str, Spelling] = {
    "expandable_segments": _ALLOC,
    "free_gpu": _VISIBLE,
    "shm_size": _SHM,
    "host_ram": _HOST_RAM,
    "swap_space": S("less CPU swap space", rerunnable=False),
    "smaller_model": S("a smaller model", rerunnable=False),
    "upgrade": S("upgrade the framework", rerunnable=False),
    "other": S("see the finding", rerunnable=False),
}


# Values that a framework spells differently from the canonical suggestion.
VALUES: dict[tuple[str, str, str], str] = {
    ("sglang", "kv_cache_dtype", "fp8"): "fp8_e5m2",  # accepted from 0.3 to 0.5.23; plain fp8 never was
    ("tgi", "kv_cache_dtype", "fp8"): "fp8_e5m2",  # TGI takes fp8_e4m3fn or fp8_e5m2
    ("llamacpp", "kv_cache_dtype", "fp8"): "q8_0",
    ("ollama", "kv_cache_dtype", "fp8"): "q8_0",
}


def framework_value(framework: str, knob: str, value: object) -> object:
    return VALUES.get((framework, knob, value), value) if isinstance(value, str) else value


def canonical_framework(name: str) -> str | None:
    key = name.strip().lower()
    key = FRAMEWORK_ALIASES.get(key, key)
    return key if key in FRAMEWORKS else None


def parse_version(text: str | None) -> tuple[int, ...] | None:
    """'0.6.3.post1' -> (0, 6, 3); 'b4567' / '4567' (llama.cpp build) -> (4567,)."""
    if not text:
        return None
    import re

    m = re.match(r"v?b?(\d+(?:\.\d+)*)", text.strip())
    if not m:
        return None
    return tuple(int(p) for p in m.group(1).split("."))


def spelling(framework: str, knob: str, version: str | None = None) -> Spelling | None:
    ver = parse_version(version)
    for sp in SPELLINGS.get(framework, {}).get(knob, ()):
        if sp.applies(ver):
            return sp
    return GENERIC.get(knob)


def render(
    framework: str, knob: str, value: object, version: str | None = None, action: str | None = None, current: object = None
) -> tuple[str | None, bool]:
    """The pasteable setting for a knob and value, and whether rerun can apply it. Without a
    computed value the placeholder says which way to move from the current value."""
    sp = spelling(framework, knob, version)
    if sp is None:
        return None, False
    if value is None:
        way = {"lower": "lower", "raise": "higher"}.get(action or "", "")
        shown = f"<{way} than {fmt_value(current)}>" if way and current is not None else f"<{way or 'value'}>"
    else:
        shown = fmt_value(value)
    text = sp.template.replace("{v}", shown).replace("{{", "{").replace("}}", "}")
    if sp.note:
        text = f"{text}  ({sp.note})"
    return text, sp.rerunnable and value is not None or (sp.rerunnable and "{v}" not in sp.template)


def fmt_value(value: object) -> str:
    """A knob value as a flag takes it: booleans lower-case, floats without trailing zeros."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:.4f}".rstrip("0").rstrip(".")
    return str(value)
