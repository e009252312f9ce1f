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
    """How one framework sets one knob: `template` is exactly what pastes (a flag, an env
    assignment, a Modelfile line, a config option, a call argument), `{v}` the value; what a
    person should also know goes in `note`, never in the template."""

    template: str  # e.g. "--max-model-len {v}"; "{v}" is the value, "{v-1}" the value less one
    since: tuple[int, ...] | None = None  # first version that accepts it
    until: tuple[int, ...] | None = None  # first version that no longer accepts it
    rerunnable: bool = True  # can be applied to argv/env of a launch command
    note: str = ""
    pasteable: bool = True  # False: the template is advice, not a setting (no flag is shown)
    source: str = ""  # where the spelling was checked (KNOBS.md section, docs or source)

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


def ADVICE(text: str, **kw: object) -> Spelling:  # noqa: N802 - table shorthand
    """A change no single setting makes (a bigger machine, another checkpoint)."""
    return Spelling(text, rerunnable=False, pasteable=False, **kw)  # type: ignore[arg-type]


_ALLOC = S("PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True", source="KNOBS.md §11.1")
_VISIBLE = ADVICE("stop the other process that holds GPU memory, or pin this server to an idle GPU with "
                  "CUDA_VISIBLE_DEVICES (nvidia-smi shows which)")
_SHM = S("--shm-size={v}", rerunnable=False, source="docker run --shm-size; KNOBS.md §2",
         note="a docker run option (or --ipc=host); in Kubernetes an emptyDir with medium: Memory mounted on /dev/shm")
# a vision-language or speech model run by a script (transformers, or a DeepSpeed trainer around it): its processor sizes
# the images, the caller the audio
_MM_PIXELS = ADVICE("a smaller input per request: fewer images or a smaller max_pixels in the processor; a shorter audio clip")
_HOST_RAM = ADVICE("more host RAM for the process or container (raise its memory limit), or fewer workers on the node")
_PY = dict(rerunnable=False)  # arguments of a Python call: they paste into the script, not the command line

# framework -> knob -> spellings (first applicable wins)
# accelerate's max_memory entries as the spelling writes them where the card and the host are not known; the suggestion
# puts this card's and this host's numbers in their place (rules/suggest.py)
MAX_MEMORY_GPU, MAX_MEMORY_CPU = '"NGiB"', '"cpu": "64GiB"'

SPELLINGS: dict[str, dict[str, tuple[Spelling, ...]]] = {
    "vllm": {
        "quantization": (S("--quantization {v}", note="fp8 quantizes a 16-bit checkpoint at load; AWQ/GPTQ need a "
                                                       "pre-quantized checkpoint", source="KNOBS.md §3.1"),),
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
            S("--max-cudagraph-capture-size {v}", since=(0, 11, 1), source="KNOBS.md §3.1"),
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
        "quantization": (S("--quantization {v}", note="fp8 quantizes a 16-bit checkpoint at load"),),
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
        "enforce_eager": (S("--disable-cuda-graph", note="0.5.14+ also --cuda-graph-backend-decode disabled"),),
        "cuda_graph_sizes": (
            S("--cuda-graph-max-bs {v}", until=(0, 5, 20)),
            S("--cuda-graph-max-bs-decode {v}", since=(0, 5, 14), note="0.5.20+ requires this spelling"),
        ),
        "disable_custom_all_reduce": (S("--disable-custom-all-reduce"),),
        "attention_backend": (S("--attention-backend flashinfer"),),
        "expandable_segments": (_ALLOC,),
        "kv_offload": (S("--enable-hierarchical-cache"),),
        "free_gpu": (_VISIBLE,),
        "shm_size": (_SHM,),
        "host_ram": (_HOST_RAM,),
    },
    "tgi": {
        "quantization": (S("--quantize {v}", note="fp8, bitsandbytes-nf4 and eetq quantize at load; awq/gptq need such a checkpoint"),),
        "dtype": (S("--dtype {v}"),),
        "tensor_parallel_size": (S("--num-shard {v}"),),
        # the launcher refuses max_input_tokens >= max_total_tokens (KNOBS.md §5.1)
        "max_model_len": (S("--max-total-tokens {v} --max-input-tokens {v-1}", source="KNOBS.md §5.1"),),
        "max_num_seqs": (S("--max-batch-size {v}"),),
        "gpu_memory_utilization": (S("--cuda-memory-fraction {v}"),),
        "kv_cache_dtype": (S("--kv-cache-dtype {v}"),),
        "max_total_tokens": (S("--max-batch-total-tokens {v}"),),
        "max_num_batched_tokens": (S("--max-batch-prefill-tokens {v}", source="KNOBS.md §5.1",
                                     note="it must stay at least --max-input-tokens"),),
        "enforce_eager": (S("--cuda-graphs 0"),),
        "cuda_graph_sizes": (S("--cuda-graphs 1,2,4,8", note="a shorter list than the default 1,2,4,8,16,32"),),
        "expandable_segments": (_ALLOC,),
        "free_gpu": (_VISIBLE,),
        "shm_size": (S("--shm-size=1g", rerunnable=False, note="a docker run option; or NCCL_SHM_DISABLE=1"),),
        "host_ram": (_HOST_RAM,),
    },
    "llamacpp": {
        "quantization": (ADVICE("a smaller GGUF quantization of the same model"),),
        "gpu_layers": (S("-ngl {v}"),),
        "cpu_offload": (S("--n-cpu-moe {v}", since=(6089,), note="MoE expert layers kept on the CPU"),
                        S("-ngl {v}", until=(6089,), note="layers on the GPU; the rest runs on the CPU")),
        "max_model_len": (S("-c {v}"),),
        "max_num_seqs": (S("-np {v}"),),
        "mm_limits": (ADVICE("resize the image before sending it, or cap its vision tokens with --image-max-tokens N "
                             "(dynamic-resolution encoders such as Qwen-VL encode at the image's own size)"),),
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
        "quantization": (ADVICE("a smaller quantization tag of the same model"),),
        "gpu_layers": (S("PARAMETER num_gpu {v}", rerunnable=False, note="a Modelfile line; per request: \"options\": {\"num_gpu\": N}"),),
        "max_model_len": (S("OLLAMA_CONTEXT_LENGTH={v}", since=(0, 5, 13), source="ollama v0.5.13 release; docs/faq.md",
                            note="or per model: PARAMETER num_ctx in its Modelfile"),
                          S("PARAMETER num_ctx {v}", until=(0, 5, 13), rerunnable=False,
                            note="a Modelfile line; per request: \"options\": {\"num_ctx\": N}")),
        "max_num_seqs": (S("OLLAMA_NUM_PARALLEL={v}"),),
        "kv_cache_dtype": (S("OLLAMA_KV_CACHE_TYPE={v} OLLAMA_FLASH_ATTENTION=1", since=(0, 5, 0), source="KNOBS.md §7.1 (PR #6279)"),),
        "attention_backend": (S("OLLAMA_FLASH_ATTENTION=1"),),
        "batch_size": (S("PARAMETER num_batch {v}", rerunnable=False, note="a Modelfile line"),),
        "max_num_batched_tokens": (S("PARAMETER num_batch {v}", rerunnable=False, note="a Modelfile line"),),
        "gpu_reserve": (S("OLLAMA_GPU_OVERHEAD={v}"),),
        "max_loaded_models": (S("OLLAMA_MAX_LOADED_MODELS=1"),),
        "free_gpu": (_VISIBLE,),
        "smaller_model": (ADVICE("a smaller model or quantization tag"),),
        "host_ram": (_HOST_RAM,),
    },
    "transformers": {
        "quantization": (S("quantization_config=BitsAndBytesConfig(load_in_4bit=True)", note="an argument of from_pretrained", **_PY),),
        "dtype": (S("torch_dtype=torch.{v}", note="an argument of from_pretrained (transformers 5 spells it dtype=)", **_PY),),
        "pipeline_parallel_size": (S('device_map="auto"', note="an argument of from_pretrained: spread the layers over every visible GPU", **_PY),),
        "cpu_offload": (S('device_map="auto", max_memory={{0: ' + MAX_MEMORY_GPU + ", " + MAX_MEMORY_CPU + "}}",
                          note="arguments of from_pretrained: a little under the card on the GPU (N GiB where the card is not known), the rest in CPU RAM (slower)", **_PY),),
        "attention_backend": (S('attn_implementation="sdpa"', note='an argument of from_pretrained (or "flash_attention_2")', **_PY),),
        "batch_size": (ADVICE("fewer rows per generate()/forward() call"),),
        "max_model_len": (ADVICE("shorter inputs or fewer max_new_tokens (or a smaller static cache max_cache_len)"),),
        "kv_cache_dtype": (S('cache_implementation="quantized"', note="an argument of generate()", **_PY),),
        "mm_limits": (_MM_PIXELS,),
        "expandable_segments": (_ALLOC,),
        "free_gpu": (_VISIBLE,),
        "gpu_memory_utilization": (S("torch.cuda.set_per_process_memory_fraction({v})",
                                     note="in the script, before the model is loaded: the share of the card this process may use", **_PY),),
        # (low_cpu_mem_usage=True only helps while from_pretrained runs, and is the default with
        # accelerate installed: the load rules name it in their reasons)
        "host_ram": (_HOST_RAM,),
        "shm_size": (_SHM,),
    },
    "tensorrt-llm": {
        "max_num_seqs": (S("--max_batch_size {v}"),),
        "batch_size": (S("--max_batch_size {v}"),),
        "max_num_batched_tokens": (S("--max_num_tokens {v}"),),
        "max_model_len": (S("--max_seq_len {v}"),),
        "cpu_offload": (S("--load_model_on_cpu", note="a flag of examples/<model>/convert_checkpoint.py: the checkpoint is read into CPU RAM while it is converted",
                          source="TensorRT-LLM examples/llama/convert_checkpoint.py (store_true)"),),
        "gpu_memory_utilization": (S("--kv_cache_free_gpu_memory_fraction {v}"),),
        "tensor_parallel_size": (S("--tp_size {v}"),),
        "quantization": (ADVICE("convert the checkpoint quantized, then rebuild: convert_checkpoint.py --use_weight_only "
                                "--weight_only_precision int8 (or int4), or examples/quantization/quantize.py --qformat fp8 "
                                "(int4_awq)"),),
        "attention_backend": (S("--context_fmha enable", rerunnable=False, note="a trtllm-build option"),),
        "host_ram": (_HOST_RAM,),
        "free_gpu": (_VISIBLE,),
    },
    "lmdeploy": {
        "gpu_memory_utilization": (S("--cache-max-entry-count {v}"),),
        "max_model_len": (S("--session-len {v}"),),
        "max_num_seqs": (S("--max-batch-size {v}"),),
        "kv_cache_dtype": (S("--quant-policy 8"),),
        "tensor_parallel_size": (S("--tp {v}"),),
        "quantization": (ADVICE("a 4-bit AWQ checkpoint (lmdeploy lite auto_awq), served with --model-format awq"),),
        "max_num_batched_tokens": (S("--max-prefill-token-num {v}"),),
        "enforce_eager": (S("--eager-mode"),),
        "free_gpu": (_VISIBLE,),
        "host_ram": (_HOST_RAM,),
    },
    "deepspeed": {
        "cpu_offload": (S('"offload_param": {{"device": "cpu"}}', note="in the ZeRO-3 section of the DeepSpeed config", **_PY),),
        "batch_size": (ADVICE("a smaller batch per GPU"),),
        "tensor_parallel_size": (S('tensor_parallel={{"tp_size": {v}}}', note="an argument of deepspeed.init_inference", **_PY),),
        "expandable_segments": (_ALLOC,),
        "host_ram": (_HOST_RAM,),
        "mm_limits": (_MM_PIXELS,),
        # (DeepSpeed-FastGen/MII: its state manager's limits, DSStateManagerConfig)
        "max_num_seqs": (ADVICE("fewer sequences at once (the batch, or the client's concurrency; FastGen: state_manager "
                                "max_ragged_sequence_count, 512 by default, and max_tracked_sequences, 2048)"),),
        "max_model_len": (ADVICE("shorter sequences (prompts plus max_new_tokens; deepspeed.init_inference: max_out_tokens, "
                                 "1024 by default, the tokens its kernels' workspace is sized for; FastGen: state_manager "
                                 "max_context, 8192 by default)"),),
    },
    "exllama": {
        "quantization": (ADVICE("a lower bits-per-weight EXL2/EXL3 quant of the model (e.g. 4.0bpw instead of 6.0bpw)"),),
        "max_model_len": (S("max_seq_len: {v}", rerunnable=False, note="TabbyAPI config.yml (ExLlamaV2: config.max_seq_len)"),),
        "kv_cache_dtype": (S("cache_mode: Q4", rerunnable=False, note="TabbyAPI config.yml (ExLlamaV2: ExLlamaV2Cache_Q4)"),),
    },
}
# a plain PyTorch script: transformers' arguments where it uses them, and the batch its own code sizes
# (Meta's reference scripts build the KV cache for --max_batch_size x --max_seq_len)
SPELLINGS["pytorch"] = {
    **SPELLINGS["transformers"],
    "max_num_seqs": (ADVICE("fewer prompts per batch (--max_batch_size in Meta's reference scripts)"),),
    "max_model_len": (ADVICE("shorter sequences (--max_seq_len in Meta's reference scripts; max_new_tokens in generate())"),),
}

# Where a framework meets a knob's purpose with another knob: transformers shards a model over
# GPUs by placing whole layers on each (accelerate's device_map), a pipeline split, not a tensor one;
# with one GPU visible the same device_map keeps the layers that do not fit it in CPU RAM.
STANDS_FOR: dict[tuple[str, str], str] = {
    ("transformers", "tensor_parallel_size"): "pipeline_parallel_size",
    ("pytorch", "tensor_parallel_size"): "pipeline_parallel_size",
}
ONE_GPU_STANDS_FOR: dict[str, str] = {"pipeline_parallel_size": "cpu_offload"}


def knob_for(framework: str, knob: str, gpus: float | None = None) -> str:
    """The knob this framework turns for a suggestion's purpose (STANDS_FOR), else the knob itself; where a
    split over GPUs stands for it and the log shows fewer than two (`gpus`), offloading to CPU RAM."""
    stand_in = STANDS_FOR.get((framework, knob))
    if stand_in is None:
        return knob
    return stand_in if gpus is not None and gpus >= 2 else ONE_GPU_STANDS_FOR.get(stand_in, stand_in)


# Generic spellings used when a framework has none for a knob.
GENERIC: dict[str, Spelling] = {
    "expandable_segments": _ALLOC,
    "free_gpu": _VISIBLE,
    "shm_size": _SHM,
    "host_ram": _HOST_RAM,
    "swap_space": ADVICE("less CPU swap space"),
    "smaller_model": ADVICE("a smaller model, or a pre-quantized (AWQ/GPTQ/FP8) checkpoint of this one"),
    "upgrade": ADVICE("a release of the framework with the fix"),
    "other": ADVICE("the change the finding describes"),
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


# programs that run an engine and take its settings in their own spelling (KoboldCpp runs llama.cpp and parses its own
# flags, checked against its argument list and users' launch scripts): the knob's setting as that program spells it
LAUNCHER_SPELLINGS: dict[str, dict[str, Spelling]] = {
    "koboldcpp": {
        "model": S("--model {v}"),
        "gpu_layers": S("--gpulayers {v}"),
        "max_model_len": S("--contextsize {v}"),
        "batch_size": S("--blasbatchsize {v}"),
        "attention_backend": S("--flashattention"),
        "kv_cache_dtype": S("--quantkv {v} --flashattention", note="--quantkv 1 is an 8-bit cache, 2 a 4-bit one; it needs flash attention"),
    },
}
# a value in the engine's terms as the launcher takes it (KoboldCpp numbers its cache types)
_LAUNCHER_VALUES: dict[tuple[str, str], dict[str, object]] = {
    ("koboldcpp", "kv_cache_dtype"): {"q8_0": 1, "q8": 1, "fp8": 1, "int8": 1, "q4_0": 2, "q4": 2, "int4": 2, "f16": 0},
}


def render_launcher(launcher: str, knob: str, value: object) -> Rendered | None:
    """The setting as the launcher spells it; None where it has no spelling of its own for the knob (or for the value)."""
    sp = LAUNCHER_SPELLINGS.get(launcher, {}).get(knob)
    if sp is None:
        return None
    values = _LAUNCHER_VALUES.get((launcher, knob))
    if values is not None:
        if str(value) not in values:
            return None
        value = values[str(value)]
    if "{v}" in sp.template and value is None:
        return None
    return Rendered(sp.template.replace("{v}", fmt_value(value) if value is not None else ""), sp.note, False)


def spelling(framework: str, knob: str, version: str | None = None) -> Spelling | None:
    ver = parse_version(version)
    for sp in SPELLINGS.get(framework, {}).get(knob, ()):
        if sp.applies(ver):
            return sp
    return GENERIC.get(knob)


def needs_value(framework: str, knob: str, version: str | None = None) -> bool:
    """Does this framework's setting for the knob take a value?"""
    sp = spelling(framework, knob, version)
    return sp is not None and sp.pasteable and "{v" in sp.template


@dataclass(frozen=True)
class Rendered:
    text: str | None  # what pastes, with the value filled in; None when there is no such setting
    note: str  # what else to know (goes into the suggestion's why)
    rerunnable: bool


def render(framework: str, knob: str, value: object, version: str | None = None) -> Rendered | None:
    """The pasteable setting for a knob and value. None when the framework has no spelling for
    the knob; `text` None when the spelling is advice or needs a value that is missing."""
    sp = spelling(framework, knob, version)
    if sp is None:
        return None
    needs_value = "{v" in sp.template
    if not sp.pasteable or (needs_value and value is None):
        note = sp.template if not sp.pasteable else sp.note
        return Rendered(None, "; ".join(x for x in (note, sp.note if not sp.pasteable else "") if x), False)
    shown = fmt_value(value) if value is not None else ""
    text = sp.template.replace("{v}", shown)
    if "{v-1}" in text and isinstance(value, int):
        text = text.replace("{v-1}", str(value - 1))
    text = text.replace("{{", "{").replace("}}", "}")
    return Rendered(text, sp.note, sp.rerunnable)


def fmt_value(value: object) -> str:
    """A knob value as a flag takes it: booleans lower-case, floats without trailing zeros."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:.4f}".rstrip("0").rstrip(".")
    return str(value)
