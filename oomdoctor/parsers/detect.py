"""Framework detection: weighted signals; the highest total wins.

Ollama embeds llama.cpp, and vLLM/SGLang/TGI run on PyTorch, so the more specific
framework carries the higher weight. A log with PyTorch's messages and no engine of its own
is read as Hugging Face transformers, the stack most LLM scripts run on (`ASSUMED`).
"""

from __future__ import annotations

import re

from oomdoctor.launch import LLAMA_CPP_CONVERTERS
from oomdoctor.parsers.base import P, Pattern, const
from oomdoctor.parsers.ggml import DEVICE_LIST, DEVICE_LIST_ANCHORS, KV_FULL, KV_FULL_ANCHORS, OLLAMA_PS_ROW, WRAPPER_ANCHORS, WRAPPER_NAMES
from oomdoctor.parsers.servers import SGLANG_RANK


SCRIPT = "script"  # not a framework: a Python program, counted only when nothing else is named
NAMED_PYTORCH = "pytorch-script"  # a known plain-PyTorch program (Meta's reference code): read as pytorch, not assumed transformers
PROJECT = "project"  # not a framework: a traceback frame of the program's own code
OLLAMA_RUNNER = "ollama-runner"  # not a framework: Ollama's model store or model tag, which make llama.cpp's lines Ollama's runner's
# llama.cpp's source files and tools named "llama-...", as fw-llamacpp's pattern reads them
_LLAMA_DASH_NAMES = tuple(f"llama-{name}" for name in ("mmap", "model", "context", "kv-cache", "graph", "vocab", "server", "cli", "bench",
                                                        "run", "simple", "perplexity", "mtmd-cli", "gemma3-cli", "llava-cli"))


_VLLM_PLUGINS = ("openvino", "ascend", "gaudi", "spyre", "neuron", "tpu", "metax", "kunlun", "musa")  # vLLM's platform plugin packages


def _sig(name: str, framework: str, weight: int, anchors: tuple[str, ...], regex: str, flags: int = 0) -> Pattern:
    return P(name, anchors, regex, const(("_framework", f"{framework}:{weight}")), flags=flags)


SIGNALS: tuple[Pattern, ...] = (
    # (not a conda/virtualenv or project folder merely named vllm: ".../envs/vllm/lib/python3.12/site-packages/transformers/...",
    # ".../llava-vllm/ENV/lib/python3.10/site-packages/lmdeploy/...": a folder above the interpreter's lib/; nor a shell
    # prompt's environment: "(vllm) user@host:~/LLaMA-Factory$ llamafactory-cli export ...")
    # (V1's front-end process prefixes its lines: "(APIServer pid=1) INFO: ...")
    # (and its V1 workers' prefix, "(Worker_TP7 pid=380351)", "(Worker_TP0_EP0 pid=...)", which wrappers keep)
    _sig("fw-vllm", "vllm", 10, ("vllm", "vLLM", "VLLM", "Vllm", "EngineCore", "(APIServer pid=", "(Worker_"),
         r"(?<!envs/)(?<!envs\\)vllm(?![\w.-]*/(?:[\w.-]+/){0,3}lib/python)(?!\)\s+(?:[^\s@]*@[^\s:]*:|\$))|VllmWorker|EngineCore|VLLM_|\(APIServer pid=\d+\)|"
         r"\(Worker(?:_(?:TP|PP|DP|EP)\d+)+ pid=\d+\)", re.I),
    _sig("fw-vllm-msg", "vllm", 6, ("gpu_memory_utilization", "GPU blocks", "Maximum concurrency", "KV cache memory", "stored in KV cache",
                                    "Loading model weights took", "Model loading took",
                                    "err_execute_model_", "Error in model execution", "LLM engine (v", "% Completed |",
                                    "cumem_allocator", "less than desired GPU memory utilization", "Worker failed with error '",
                                    "Initializing an LLM engine with config:", "Error in memory profiling",
                                    "shared memory broadcast block", "dump_input.py", "Dumping input data for V1", "Mamba cache blocks",
                                    "pre-allocated encoder cache size", "Too large swap space", "KV cache is needed", "on startup is less", "Free memory on device", ") < desired utilization (",
                                    "Requested memory:", "Desired GPU memory utilization is", "Capturing CUDA graphs (",
                                    "Engine core initialization failed", "derived max_model_len", "max_tokens_per_mm_item",
                                    "lack of CPU swap space", "Expandable segments are not compatible with memory pool",
                                    "num-gpu-blocks-override", "num_gpu_blocks_override", "expandable_segments:True\" not in conf",
                                    "Sleep mode freed", "is too long and exceeds limit of", "llm_engine.py:",
                                    "Workspace is locked but allocation from"),
         # (its workspace manager refusing to grow the scratch buffer it locked after warm-up: "Workspace is locked but
         # allocation from 'turboquant_attn.py:879:_decode_attention' requires 0.76 MB, current size is 0.00 MB")
         # (a paste that wraps it before the caller's name)
         r"\bWorkspace is locked but allocation from(?: '|\s*$)|"
         # (its engine's module in its log format's file tag, the level cut from the paste: "NFO 07-04 19:10:08 async_llm_engine.py:152]")
         r"\b(?:async_)?llm_engine\.py:\d+\]|"
         # (the V1 front end's report that its engine core process died while starting)
         r"Engine core initialization failed\. (?:See root cause above|Failed core proc)|"
         # (its sleep-mode allocator refusing expandable segments: "Expandable segments are not compatible with memory pool")
         r"Expandable segments are not compatible with memory pool|"
         # (the same check's assertion line, where the paste kept only it: 'assert "expandable_segments:True" not in conf')
         r'assert "expandable_segments:True" not in conf|'
         # (its sleep mode's report of what it gave back: "Sleep mode freed 43.82 GiB memory, 4.11 GiB memory is still in use")
         r"Sleep mode freed [\d.]+ GiB|"
         r"gpu_memory_utilization|exceeds available Mamba cache blocks|less than desired GPU memory utilization|GiB\) < desired utilization \(|Worker failed with error '|Error in memory profiling\. Initial free memory|"
         r"No available shared memory broadcast block found|"
         # (V0's scheduler ignoring a prompt over its limit: "Input prompt (2715 tokens) is too long and exceeds limit of 2560")
         r"Input prompt \(\d+ tokens\) is too long and exceeds limit of \d+|"
         # (its check of a context longer than the model's: "User-specified max_model_len (4096) is greater than the derived max_model_len")
         r"is greater than the derived max_model_len|"
         # (vllm-ascend's start-up check, which passed: "Free memory on device: 23.45 / 43.24 GiB", "Requested memory: 43.24 * 0.50 = 21.62 GiB")
         r"Free memory on device: [\d.]+ / [\d.]+ GiB|"
         # (its start-up figures as later releases print them: "Free memory on device (110.37/121.69 GiB) on startup.
         # Desired GPU memory utilization is (0.87, 105.87 GiB).")
         r"Free memory on device \([\d./]+ GiB\) on startup\b|Desired GPU memory utilization is \(|"
         # (its V1 runner's capture progress bar names the batch kind and the graph mode: "Capturing CUDA graphs (mixed
         # prefill-decode, PIECEWISE)", "(decode, FULL)"; the V2 runner's names the mode alone)
         r"Capturing CUDA graphs \((?:(?:mixed prefill-decode|decode), )?(?:FULL|PIECEWISE)\)|^Requested memory:\s+[\d.]+ \* [\d.]+ = [\d.]+ GiB|"
         r"Initializing an LLM engine with config:|cumem_allocator\.(?:cpp|py)|# GPU blocks|Maximum concurrency for|[Aa]vailable KV cache memory|stored in KV cache|KV cache is needed|Free memory on device \S+ \([\d./]+ GiB\)(?: on startup)? is less|err_execute_model_|"
         # (its model runner's load summary: "Loading model weights took 27.5376 GB", "Model loading took 14.99 GiB")
         r"Loading model weights took [\d.]+ GB|Model loading took [\d.]+ Gi?B|"
         # (the V1 engine core's dump of the failing step's inputs)
         r"Error in model execution \(input dumped|Initializing an? (?:V1 )?LLM engine \(v\d|\[dump_input\.py:\d+\]|Dumping input data for V1|"
         r"exceeds the pre-allocated encoder cache size|"
         # (its multimodal budget's name for one item's tokens)
         r"max_tokens_per_mm_item|"
         # (its cache config's check of the CPU swap space against the host's RAM)
         r"Too large swap space\.(?: [\d.]+ GiB out of the|\s*$)|"
         # (its scheduler's abort when the preempted sequences' KV blocks fill that swap space)
         r"Aborted due to the lack of CPU swap space|"
         # (its cache setting named as advice: "Try reducing the number of blocks by setting --num-gpu-blocks-override")
         r"(?:setting|set|with) `?--num-gpu-blocks-override\b"),
    # vLLM's platform plugins (vllm-openvino, vllm-ascend, vllm-gaudi, vllm-spyre) run vLLM's engine on another device: their
    # names outweigh the runtime's below them ("site-packages/vllm_openvino/worker/openvino_worker.py")
    _sig("fw-vllm-plugin", "vllm", 40, tuple(f"vllm{sep}{name}" for name in _VLLM_PLUGINS for sep in "_-"),
         r"\bvllm[_-](?:" + "|".join(_VLLM_PLUGINS) + r")\b"),
    # the kernels vLLM's build fetches and compiles in (FlashMLA, DeepGEMM, CUTLASS) keep their build's folder in their
    # source paths ("/workspace/.deps/flashmla-src/csrc/sm90/..."): a weak vote
    _sig("fw-vllm-deps", "vllm", 3, ("/.deps/",), r"/\.deps/[\w-]+-src/"),
    # PyTorch's Ascend backend (torch_npu: "PTA call acl api failed", aclnn operators) with no engine named: LLM
    # serving on Ascend NPUs is mostly vllm-ascend's (SGLang's or llama.cpp's own lines outvote it): a weak vote
    _sig("fw-vllm-ascend-runtime", "vllm", 3, ("torch_npu", "PTA call acl api", "aclnn"), r"\btorch_npu\b|\bPTA call acl api failed|\baclnn[A-Z]\w+"),
    # LMCache, the KV offload connector, runs inside vLLM's workers: a weak vote
    # (or its logger's location: "(memory_management.py:992:lmcache.v1.memory_management)", in older releases
    # "lmcache.experimental.memory_management")
    _sig("fw-vllm-lmcache", "vllm", 3, ("LMCache", "lmcache.v1.", "lmcache.experimental."),
         r"\bLMCache (?:INFO|WARNING|ERROR|DEBUG)\b|:lmcache\.(?:v1|experimental)\.\w"),
    # vLLM's weight loader's progress bar, which SGLang's loader prints as well: a weak vote
    _sig("fw-vllm-loader", "vllm", 2, ("% Completed |",), r"Loading safetensors checkpoint shards:\s+\d+% Completed \|"),
    # its OpenAI server's refusal of a request longer than max_model_len ("This model's maximum context length is 8192 tokens.
    # However, you requested 8204 tokens (12 in the messages, 8192 in the completion)"; later "... you requested 512 output
    # tokens and your prompt contains at least ..."): other OpenAI-style servers copy the wording, so a weak vote
    _sig("fw-vllm-context-refusal", "vllm", 3, ("maximum context length is",),
         r"maximum context length is \d+ tokens\. However, you requested \d+ (?:output )?tokens"),
    # its input processor's own check ("The decoder prompt (length 163270) is longer than the maximum model length of 128000")
    _sig("fw-vllm-prompt-length", "vllm", 6, ("longer than the maximum model length",),
         r"prompt \(length \d+\) is longer than the maximum model length of \d+"),
    # its worker's check of bfloat16 against the card ("... You can use float16 instead by explicitly setting the `dtype` flag
    # in CLI, for example: --dtype=half."): pages that quote it are about vLLM too
    # (a paste may lose the space before the backtick: "setting the`dtype` flag")
    _sig("fw-vllm-bf16-check", "vllm", 6, ("flag in CLI",), r"You can use float16 instead by explicitly setting the ?`dtype` flag in CLI"),
    # (the same check cut before its advice, and its platform check of old cards: "Bfloat16 is only supported on GPUs with compute
    # capability of at least 8.0. Your Tesla T4 GPU has compute capability 7.5.", "GPUs with compute capability below 7.0 are not
    # supported."): other projects copied the first sentence, so a weak vote
    _sig("fw-vllm-capability-check", "vllm", 3, ("Bfloat16 is only supported on GPUs", "compute capability below 7.0 are not supported"),
         r"Bfloat16 is only supported on GPUs with compute capability of at least 8\.0\. Your .{1,60} GPU has compute capability\b|"
         r"GPUs with compute capability below 7\.0 are not supported\."),
    # SGLang's ("The input (9000 tokens) is longer than the model's context length (8192 tokens)"), which hosted APIs built on
    # it repeat: a weak vote
    _sig("fw-sglang-input-length", "sglang", 3, ("longer than the model's context length",),
         r"The input \(\d+ tokens\) is longer than the model's context length \(\d+ tokens\)"),
    _sig("fw-sglang-memory-saver", "sglang", 6, ("torch_memory_saver",), r"torch_memory_saver"),
    # its scheduler's check of the radix cache's pool when idle ("pool memory leak detected! [full] total=..., available=...,
    # evictable=..., protected=...")
    _sig("fw-sglang-pool-check", "sglang", 6, ("memory leak detected! [full]", "evictable="),
         r"pool memory leak detected! \[full\]|\bevictable=\d+, protected="),
    # (vLLM before 0.3 named its Ray actor RayWorker)
    _sig("fw-vllm-ray", "vllm", 1, ("raylet", "RayWorker"), r"\(raylet\)|RayWorkerWrapper|\(RayWorker pid="),
    # V1's multiprocess executor relaying a worker's exception to the engine core
    _sig("fw-vllm-worker-relay", "vllm", 4, ("Worker failed with error",), r"RuntimeError: Worker failed with error '"),
    # the model runner's dummy forward pass (profile, warm-up, graph capture), its CUDA-graph memory
    # profile, and its custom all-reduce kernel's source file
    # (also as built in its container image: "/workspace/csrc/custom_all_reduce.cuh")
    _sig("fw-vllm-dummy-run", "vllm", 4, ("_dummy_run", "Profiling CUDA graph memory", "csrc/custom_all_reduce.cuh"),
         r"\b_dummy_run\b|^Profiling CUDA graph memory: |(?<![\w/-])(?:/workspace/)?csrc/custom_all_reduce\.cuh"),
    # its HTTP endpoints for sleep mode ("curl -XPOST http://localhost:8090/sleep?level=1", "/is_sleeping"; SGLang's are
    # /release_memory_occupation and /resume_memory_occupation), and its MoE kernel oracle's choice ("Using 'FLASHINFER_B12X'
    # NvFp4 MoE backend out of potential backends: [...]")
    _sig("fw-vllm-sleep-endpoints", "vllm", 6, ("/sleep?level=", "/is_sleeping", "MoE backend out of potential backends"),
         r"/sleep\?level=\d|/is_sleeping\b|\bMoE backend out of potential backends\b"),
    # its offline LLM.generate progress bars ("Processed prompts: 100%|████| 11873/11873", newer "Adding requests: 100%|")
    _sig("fw-vllm-offline-progress", "vllm", 6, ("Processed prompts:", "Adding requests:"), r"\b(?:Processed prompts|Adding requests): +\d+%\|"),
    # RL frameworks' rollout workers named for vLLM (OpenRLHF's LLMRayActor, verl's vllm_rollout)
    _sig("fw-vllm-actors", "vllm", 6, ("LLMRayActor", "vllm_rollout", "VllmWorker"), r"LLMRayActor|vllm_rollout|VllmWorker"),
    # verl's own actors (WorkerDict, actor_rollout_ref) prefix every line they print and run vLLM by default, SGLang when
    # its rollout is chosen: a weak vote that any line SGLang prints outweighs
    _sig("fw-verl-actors", "vllm", 2, ("actor_rollout", "WorkerDict"), r"actor_rollout|WorkerDict"),
    # SkyRL's trainer (its package in a traceback's paths) runs its rollouts on vLLM unless told SGLang: a weak vote too
    _sig("fw-skyrl", "vllm", 2, ("skyrl",), r"[/\\.]skyrl[/\\.]|\bskyrl_entrypoint\b"),
    _sig("fw-sglang", "sglang", 12, ("sglang", "SGLang", "mem-fraction-static", "mem_fraction_static", "ServerArgs", "model_rpc", "Prefill batch", "Decode batch",
                                     "memory capacity is unbalanced", "sgl-kernel", "sgl_kernel",
                                     "hierarchical cache", "hicache", "sgl-workspace", "enable-dp-attention", "chunked-prefill-size",
                                     "disable-radix-cache", "cuda-graph-max-bs", "max-running-requests"),
         # (its container's working folder, /sgl-workspace/, in the paths of a traceback; its own launch flags in a command
         # whose program name the paste cut: "--enable-dp-attention", "--chunked-prefill-size 8192")
         r"sglang|sgl[-_]kernel|sgl-workspace/|mem[-_]fraction[-_]static|ServerArgs\(|model_rpc\.py|Prefill batch[.,] #new-seq|Decode batch[.,] #running-req: \d|memory capacity is unbalanced|"
         r"size of the hierarchical cache|--(?:enable-)?hicache|"
         r"--(?:enable-dp-attention|chunked-prefill-size|disable-radix-cache|cuda-graph-max-bs|max-running-requests)\b", re.I),
    # its scheduler's worker classes and files in a stack a paste shortened to bare names ("TpModelWorker(...)
    # managers/tp_worker.py:269", "init_model_worker → init_tp_model_worker")
    _sig("fw-sglang-workers", "sglang", 10, ("TpModelWorker", "init_tp_model_worker", "managers/tp_worker.py"),
         r"\bTpModelWorker\b|\binit_tp_model_worker\b|\bmanagers/tp_worker\.py"),
    _sig("fw-sglang-prefix", "sglang", 8, (), r"^\[\d{4}-\d\d-\d\d " + SGLANG_RANK),
    # its rank prefix alone, the time cut off ("[TP0] EAGLE draft cuda graph replay padding: ...", "[DP1 TP3] ...")
    _sig("fw-sglang-bare-rank", "sglang", 6, ("[TP", "[DP", "[PP", "[EP"), r"^\[(?:(?:DP|TP|PP|EP)\d+ ?)+\] \S"),
    # SGLang's first scheduler (2024) before its lines named it: "new fill batch. #seq: 1. ... tree_cache_hit_rate: 80.83%."
    _sig("fw-sglang-early-scheduler", "sglang", 8, ("new fill batch.", "tree_cache_hit_rate"), r"new fill batch\. #seq: \d|tree_cache_hit_rate: [\d.]+%"),
    _sig("fw-sglang-msg", "sglang", 10, ("Received sigquit from a child", "#retracted_reqs", "out of memory happened", "Try to lower your batch size",
                                         "token_to_kv_pool", "leave no GPU memory for the KV cache", "Load weight end", "Load weight begin",
                                         "alloc_req_slots", "req_to_token_pool", "Prefill out of memory", "Decode out of memory", "Capture cuda graph failed",
                                         "[Router (Rust)]", "max_total_num_tokens=", "Capturing batches (bs=", "scheduler died during initialization",
                                         "max_mamba_cache_size: ", "Can not alloc mamba cache", "full_to_swa_index_mapping", "swa_attn_allocator"),
         r"Received sigquit from a child process|#retracted_reqs|(?:Decode|Prefill) out of memory|token_to_kv_pool|leave no GPU memory for the KV cache|"
         # (its CUDA graph runner's wrapper: "Exception: Capture cuda graph failed: CUDA out of memory.")
         r"alloc_req_slots|req_to_token_pool|Capture cuda graph failed|"
         # (its launcher's report of a scheduler process that did not start: "Rank 0 scheduler died during initialization (exit code: -6)")
         r"\bRank \d+ scheduler died during initialization\b|"
         # (its loader's summary, cut anywhere after the model class: "Load weight end. type=Qwen2ForCausalLM, dtype=torch.bfloat1")
         r"Load weight (?:begin|end)\. (?:type=\w+|.{0,120}avail mem=)|"
         # (its graph capture's progress bar: "Capturing batches (bs=512 avail_mem=19.45 GB):   0%|")
         r"Capturing batches \(bs=\d+ avail_mem=|"
         # (its router, sgl-router, prefixes its own lines: "[Router (Rust)] 2025-03-08 02:33:09 - INFO - Worker http://...")
         r"^\[Router \(Rust\)\] \d{4}-\d\d-\d\d|"
         # (its scheduler's pool and limits: "max_total_num_tokens=32768, chunked_prefill_size=-1, max_prefill_tokens=16384")
         r"max_total_num_tokens=\d+, chunked_prefill_size=|"
         # (its hybrid models' state pool and its check, "Mamba Cache is allocated. max_mamba_cache_size: 48, conv_state size: ...",
         # "AssertionError: Can not alloc mamba cache"; its sliding-window allocator's two pools, "self.swa_attn_allocator",
         # "full_to_swa_index_mapping")
         r"\bmax_mamba_cache_size: \d+|\bCan not alloc mamba cache\b|\bfull_to_swa_index_mapping\b|\bswa_attn_allocator\b"),
    _sig("fw-tgi", "tgi", 12, ("text_generation", "text-generation", "router/src", "WebserverFailed", "Webserver Crashed", "ShardCannotStart",
                               "max_batch_prefill_tokens", "max-batch-prefill-tokens", "max_batch_total_tokens", "max-batch-total-tokens"),
         # (a quoted 'text-generation' is transformers' pipeline task, not the server)
         # (nor text-generation-webui's own module, "modules/text_generation.py")
         # (nor a project's folder of that name, "inference/huggingface/text-generation/utils.py": TGI's own are text_generation_server/)
         r"(?<!pipelines/)(?<![\w])(?<!modules/)(?<!modules\\)text(?:_generation|-generation(?![/\\]))(?![_-]webui|['\"])|router/src|Webserver(?:Failed| Crashed)|ShardCannotStart|max[_-]batch[_-](?:prefill|total)[_-]tokens"),
    _sig("fw-textgen-webui", "transformers", 3, ("text-generation-webui", "Running on local URL", "text_generation.py", "generate_reply"),
         r"text-generation-webui|Running on local URL|modules[/\\]text_generation\.py|\bgenerate_reply(?:_HF)?\b"),
    # the web UI's loader modules name the engine underneath
    # (weighted over the web UI's own paths and the transformers frames every loader passes through)
    _sig("fw-textgen-loader-llamacpp", "llamacpp", 50, ("llamacpp_model", "llamacpp_hf", "llamacpp_loader", "LlamaCppModel"),
         r"modules[/\\]llamacpp_(?:model|hf)\.py|\bllamacpp(?:_HF)?_loader\b|\bLlamaCppModel\b"),
    # (Windows installs print the module's path with backslashes: "text-generation-webui\modules\exllama.py")
    _sig("fw-textgen-loader-exllama", "exllama", 50, ("exllama_model", "exllama_hf", "exllamav2_model", "exllamav2_hf", "exllamav3_", "ExLlama",
                                                      "exllama.py", "exllamav2.py", "exllamav3.py"),
         r"modules[/\\]exllama(?:v[23])?\w*\.py|\bExLlama(?:v[23])?(?:_HF)?_loader\b|\bExllama(?:V2)?Model\b"),
    _sig("fw-tgi-shard", "tgi", 4, ("Shard", "Download process"), r"Shard \d+ terminated|Shard process|Download process was signaled"),
    # (its "llama-" names by the prefixes the pattern reads, not "llama-" alone: a model name, "llama-3.1-8b", on every request
    # line of a log would run this long alternation on each)
    _sig("fw-llamacpp", "llamacpp", 6, ("llama_", "ggml_", "ggml-", "llm_load_", "load_tensors:", *_LLAMA_DASH_NAMES, "llamafile", "gguf", "GGUF",
                                        "graph_reserve", "cudaMalloc failed", "buffer for kv cache", "buffer for rs cache", "llama.cpp/",
                                        "common_params_fit", "common_init_from_params", "common_memory_breakdown_print",
                                        "due to missing support", "exceeds the available context size", "llama.cpp abort:",
                                        "unknown model architecture", "llama.cpp unable to load model", "failed to initialize the context: ",
                                        "memory usage will increase", "], nb = [", "is too large to process", "flash_attn_ext_",
                                        *KV_FULL_ANCHORS),
         r"llama_(?:new_context|context|kv_cache|model_load|init|decode|eval|load_model_from_file|batch_init|sampler_|params_fit|mlock|mmap)|"
         r"llama\.cpp/(?:src|ggml|common|tools|examples)/|llama-(?:mmap|model|context|kv-cache|graph|vocab|model-loader)\.cpp\b|"
         r"failed to allocate buffer for (?:kv|rs) cache|ggml_|ggml-(?:cuda|vulkan|metal|sycl|hip|backend)\b|llm_load_(?:tensors|print_meta|vocab)\b|"
         r"load_tensors:|llama-(?:server|cli|bench|run|simple|perplexity|mtmd-cli|gemma3-cli|llava-cli)|llamafile\b|\.gguf\b|-GGUF\b|"
         # (its abort as an app that embeds it relays it: "llama.cpp abort:5263: GGML_ASSERT(...) failed")
         r"\bllama\.cpp abort:\d+|"
         # (its GGUF reader and loader's own words, as an app relays them: "gguf_init_from_file: failed to open ''",
         # "error loading model architecture: unknown model architecture: 'qwen35moe'", cortex's "llama.cpp unable to load model")
         r"\bgguf_init_from_file\w*|error loading model architecture: unknown model architecture|\bllama\.cpp unable to load model|"
         # (its common library's fit step and initialisation: "common_params_fit_impl: projected to use 29178 MiB of host memory")
         r"\bcommon_(?:params_fit\w*|init_from_params|memory_breakdown_print)\b|"
         r"graph_reserve: failed|allocating [\d.]+ MiB on device \d+: cudaMalloc failed|^\s*cudaMalloc failed: out of memory\s*$|"
         # (its own words for a full context, printed by the clients over it too: "could not find a KV slot for the batch (try
         # reducing the size of the batch or increase the context)", llama-server's "the request exceeds the available context size")
         + KV_FULL + r"|the request exceeds the available context size|"
         # (its graph placing an operation away from its layer: "layer 0 is assigned to device CPU but ... CUDA0 (usually due to missing support)")
         r"is assigned to device \S+ but .* is assigned to device \S+ \(usually due to missing support\)|"
         # (its context's refusal, the function's prefix cut: "failed to initialize the context: quantized V cache was requested,
         # but this requires Flash Attention"; its warm-up's warning for a device without flash attention for an op, and the op's
         # tensor as ggml prints it: "dst: type = f32, ne = [88 16 577 1], nb = [4 352 5632 3249664]")
         r"^\W*failed to initialize the context: |flash attention not supported by \w+, memory usage will increase|"
         r"\bne = \[\d+ \d+ \d+ \d+\], nb = \[\d+ |"
         # (llama-server's refusal of an embedding input longer than its physical batch: "input (2793 tokens) is too large to
         # process. increase the physical batch size (current batch size: 2048)")
         r"\binput (?:\(\d+ tokens\) )?is too large to process\b|"
         # (its flash-attention kernels by name, in a debugger's or a sanitizer's report: "kernel: void flash_attn_ext_f16<256, ...>")
         r"\bflash_attn_ext_\w+"),
    # its conversion and quantization tools (a checkpoint converted to GGUF in host RAM), and the converter's per-tensor line
    _sig("fw-llamacpp-convert", "llamacpp", 6, ("to-gguf", "to_gguf", "to-ggml", "to_ggml", "llama-quantize", " --> "),
         LLAMA_CPP_CONVERTERS + r"|\bn_dims = \d+, torch\.\w+ --> \w+"),
    _sig("fw-llamacpp-devices", "llamacpp", 6, DEVICE_LIST_ANCHORS, DEVICE_LIST),
    # ExLlama's converter (convert.py of exllamav2/v3) by its own progress lines: the job header ("-- Creating new job",
    # "-- Resuming job"), the measurement's per-setting error (" -- 1.0:5b 128g s4   5.03 bpw    rfn_error: 0.00671")
    _sig("fw-exllama-convert", "exllama", 6, ("rfn_error:", "-- Creating new job", "-- Resuming job"),
         r"\bbpw\s+rfn_error: [\d.]+|^\s*-- (?:Creating new job|Resuming job)\b"),
    # Vulkan's driver or API words with no engine named (RADV's "radv/amdgpu: ...", "vk::Queue::submit: ErrorDeviceLost"):
    # LLM inference over Vulkan compute is llama.cpp's and the apps built on it: a weak vote
    _sig("fw-llamacpp-vulkan-driver", "llamacpp", 3, ("radv/amdgpu:", "vk::", "ErrorDeviceLost"),
         r"\bradv/amdgpu:|\bvk::\w+(?:::\w+)*:? ?(?:Error|\w+Error)|\bErrorDeviceLost\b"),
    # node-llama-cpp's error class, printed without llama.cpp's own lines
    _sig("fw-node-llama-cpp", "llamacpp", 8, ("InsufficientMemoryError",), r"InsufficientMemoryError: A context size of \d+"),
    # ggml's SYCL backend refusing a buffer, the prefix cut ("can't allocate 2303168640 Bytes of memory on device";
    # ggml spells "Bytes" with a capital)
    _sig("fw-llamacpp-sycl-alloc", "llamacpp", 4, ("Bytes of memory on device",), r"can't allocate \d+ Bytes of memory on device"),
    _sig("fw-llamacpp-vulkan", "llamacpp", 3, ("ggml_vulkan", "vkCreateBuffer", "VkPhysicalDevice"), r"ggml_vulkan|vkCreateBuffer|VkPhysicalDevice"),
    _sig("fw-llamacpp-server", "llamacpp", 4, ("prompt_save", "cache state:", "slot ", "srv ", "set_adapters_lora", "update_slots"),
         r"prompt_save:|cache state:|slot\s+\w+: id|\bsrv\s+\w+: |set_adapters_lora:|\bupdate_slots\s?:"),
    # llama.cpp's system-info line and its mlock warning
    _sig("fw-llamacpp-sysinfo", "llamacpp", 6, ("AVX2 = ", "failed to mlock", "failed to VirtualLock"),
         r"\bAVX = \d \| AVX2 = \d|failed to (?:mlock|VirtualLock) \d+-byte buffer"),
    # ggml's GPU backends listing a device ("Device 0: NVIDIA GeForce RTX 3090, compute capability 8.6, VMM: yes"; ROCm's
    # "Device 0: AMD Radeon AI PRO R9700, gfx1201 (0x1201), VMM: no, Wave Size: 32") and the system-info line's backend fields
    # ("system_info: ... | ROCm : NO_VMM = 1 | PEER_MAX_BATCH_SIZE = 128 |"); Ollama prints them too, and names itself
    _sig("fw-llamacpp-device-line", "llamacpp", 3, ("VMM: ", "system_info:"),
         r"^\s*Device \d+: .{1,120}, VMM: (?:yes|no)\b|\bsystem_info: .*\| (?:CUDA|ROCm|Vulkan|SYCL|Metal|CPU) : "),
    # (Go's structured log, as Ollama writes it: "time=... level=INFO source=runner.go:1271 msg=...")
    _sig("fw-ollama", "ollama", 40, ("ollama", "Ollama", "source=server.go", "source=sched.go", "source=memory.go", "source=ggml.go",
                                     "source=cache.go", "source=runner.go", "layers.offload", "memory.required", "level=INFO source=",
                                     "level=WARN source=", "level=ERROR source=", "level=DEBUG source="),
         r"(?<![/.\w])ollama(?![_\w])|source=(?:server|sched|memory|ggml|cache|runner)\.go|layers\.offload=|memory\.required\.|"
         r"level=(?:INFO|WARN|ERROR|DEBUG) source=[\w/.-]+\.go:\d+ msg=", re.I),
    # Ollama's own settings as they are set ("set OLLAMA_KV_CACHE_TYPE=q4_0", "Environment=OLLAMA_HOST=0.0.0.0")
    _sig("fw-ollama-env", "ollama", 20, ("OLLAMA_",), r"\bOLLAMA_[A-Z][A-Z_]{2,}="),
    # llama.cpp's sources or libraries inside an Ollama build: its lines are the runner Ollama embeds
    # (and ggml as Ollama vendors it, in a source path an assertion or a CUDA error prints: "//ml/backend/ggml/ggml/src/ggml-cuda/cpy.cu:396")
    _sig("fw-ollama-build", OLLAMA_RUNNER, 8, ("ollama", "ml/backend/ggml/ggml/src", "ml\\backend\\ggml\\ggml\\src", "_deps/llama_cpp-src"),
         # (and the folder an Ollama of 2023-24 unpacked its runner into: ".../T/ollama2368397414/llama.cpp/gguf/build/metal/...")
         # (and its llama-server build's vendored sources: "/build/llama-server-cuda_v13/_deps/llama_cpp-src/ggml/src/...")
         r"ollama[\w.-]*/llm/llama\.cpp/|/ollama\d{6,}/llama\.cpp/|/lib/ollama/(?:libggml|cuda_|rocm)|\bml[/\\]backend[/\\]ggml[/\\]ggml[/\\]src[/\\]|"
         r"/llama-server-(?:cuda|rocm|vulkan)_v\d+/_deps/llama_cpp-src/"),
    # its GPU discovery's and scheduler's key=value fields, even with the slog prefix cut ('gpu memory: id=0
    # library="Intel(R) Arc(TM) Graphics" available="951.0 MiB"', 'id=GPU-5320d871 library=CUDA "available layer vram"')
    _sig("fw-ollama-gpu-fields", OLLAMA_RUNNER, 8, ("library=",),
         r"\bid=\S+ library=(?:\w+|\"[^\"]+\")|\blibrary=(?:cuda|rocm|vulkan|metal|cpu|oneapi)\b(?= (?:variant|compute|layers|gpu_count)=)", re.I),
    # a file under an Ollama folder run by another program says less
    _sig("fw-ollama-path", "ollama", 8, ("ollama", "Ollama"), r"[/.]ollama\b|ollama_", re.I),
    # Ollama's model store (OLLAMA_MODELS/blobs/sha256-<digest>), which its llama.cpp runner loads from
    _sig("fw-ollama-blobs", OLLAMA_RUNNER, 8, ("blobs/sha256", "blobs\\sha256", "blobs\\\\sha256"), r"[/\\]blobs[/\\]+sha256[-:][0-9a-fx]"),
    # the CLI's own relay of a load failure: "Error: 500 Internal Server Error: llama-server process has terminated"
    # (the runner it names is Ollama's: the llama.cpp lines beside it are that runner's)
    P("fw-ollama-http-500", ("500 Internal Server Error: ",),
      r"500 Internal Server Error: (?:llama-server|llama runner|model runner|model failed to load|unable to load model)",
      const(("_framework", "ollama:40"), ("_framework", f"{OLLAMA_RUNNER}:8"))),
    # its server's body for a runner that failed mid-request ('{"error":"an error was encountered while running the model:
    # CUDA error"}'), `ollama ps`'s table header (NAME ID SIZE PROCESSOR [CONTEXT] UNTIL) or its rows pasted alone, and its
    # server's choice of a context from the VRAM ('msg="vram-based default context" total_vram="63.7 GiB" default_num_ctx=262144')
    _sig("fw-ollama-run-error", "ollama", 20, ("an error was encountered while running the model", "PROCESSOR", "% GPU", "% CPU", "CPU/GPU",
                                               "vram-based default context"),
         r"an error was encountered while running the model\b|^\s*NAME\s+ID\s+SIZE\s+PROCESSOR\s+(?:CONTEXT\s+)?UNTIL\b|"
         r"vram-based default context\b.{0,80}\bdefault_num_ctx=|" + OLLAMA_PS_ROW),
    _sig("fw-ollama-busy", "ollama", 20, ("maximum pending requests exceeded",), r"server busy, please try again\.\s+maximum pending requests exceeded"),
    _sig("fw-ollama-runner", "ollama", 40, ("llama runner process has terminated", "llama runner process no longer running", "llama runner exited",
                                           "llama runner stopped successfully", "llama runner started in", "starting llama runner",
                                           "memory layout cannot be allocated", "model requires more system memory", "mlx runner failed",
                                           "model request too large for system", "timed out waiting for llama runner", "VRAM usage didn't recover",
                                           "POST predict: Post \"", "llama-server process has terminated", "llama-server reported out-of-memory",
                                           "requested context size too large for model", "caching disabled but unable to fit", "do load request"),
         # (and its 2023-24 server's lines about its runner: "llama.go:459: llama runner stopped successfully", "starting llama runner")
         r"llama runner (?:process (?:has terminated|no longer running)|exited|stopped successfully|started in)|starting llama runner|"
         r"memory layout cannot be allocated|model requires more system memory|requested context size too large for model|"
         # (its scheduler's words: a runner that did not come up in time, a stopped runner's VRAM that came back slowly)
         r"mlx runner failed|model request too large for system|timed out waiting for llama runner to start|gpu VRAM usage didn't recover within timeout|"
         # (its CLI relaying a runner that dropped the request: 'Error: POST predict: Post "http://127.0.0.1:62898/completion": EOF')
         r'POST predict: Post "http://[\w.:]+/completion"|'
         # (its scheduler's request that a runner load the model, failed: 'do load request: Post "http://127.0.0.1:52058/load": ...')
         r'do load request: Post "http://[\w.:]+/load"|'
         # (its scheduler naming the llama-server it runs, in Go's words: "llama-server process has terminated: signal:
         # segmentation fault", "llama-server reported out-of-memory during startup")
         r"llama-server process has terminated|llama-server reported out-of-memory|"
         # (its runner's panic on an embedding input larger than a batch: "panic: caching disabled but unable to fit entire
         # input in a batch")
         r"caching disabled but unable to fit entire input in a batch"),
    # Ollama's GPU discovery in debug mode (its NVML probe): "[0] CUDA totalMem 25769803776"
    _sig("fw-ollama-gpu-info", "ollama", 8, ("CUDA totalMem", "CUDA usedMem", "CUDA freeMem"), r"^\[\d+\] CUDA (?:totalMem|usedMem|freeMem) -?\d"),
    # Go's runtime crash report: Ollama is the Go program that runs ggml in-process (cgo), so llama.cpp's lines are its runner's
    _sig("fw-ollama-cgo", OLLAMA_RUNNER, 8, ("signal arrived during cgo execution",), r"signal arrived during cgo execution"),
    # (and a Go panic, its runner giving up: "panic: unable to create llama context", "goroutine 1 [running]:"; a weaker
    # vote, since other programs panic in those words: alone it does not name Ollama, see decide())
    _sig("fw-ollama-go-panic", OLLAMA_RUNNER, 4, ("panic: ", "goroutine "), r"^panic: \S|^goroutine \d+ \[running\]:"),
    # the Go web framework's access line for Ollama's API ("[GIN] 2025/05/16 - 11:35:51 | 200 | ... POST "/api/generate"")
    P("fw-ollama-gin", ("[GIN]",), r'\[GIN\] \d{4}/\d\d/\d\d .*"/api/(?:generate|chat|embed|embeddings|pull|show|tags|ps)"',
      const(("_framework", "ollama:8"), ("_framework", f"{OLLAMA_RUNNER}:8"))),
    # a client's request to Ollama's API at its own port ("Error: Post \"http://127.0.0.1:11434/api/generate\": EOF", the CLI
    # losing its server): a weak vote, since apps over other engines may name the port in a setting
    _sig("fw-ollama-port", "ollama", 4, (":11434",), r"(?:127\.0\.0\.1|localhost|0\.0\.0\.0|\[::1?\]):11434\b"),
    _sig("fw-ollama-spinner", "ollama", 40, ("⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"), r"[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]"),
    # (the PyTorch backend's executor report when a component does not fit names no product)
    _sig("fw-trt", "tensorrt-llm", 12, ("[TRT", "TensorRT", "tensorrt_llm", "trtllm", "TRT-LLM", "Executor creation failed due to",
                                           "maxTokensInPagedKvCache", "tokens in paged KV cache"),
         # (its name alone or its commands, "trtllm-build", not kernels named after it in other engines' code:
         # flashinfer's "trtllm_fp4_block_scale_moe", vLLM's "experts/trtllm_bf16_moe.py"; nor TensorFlow's warning that it
         # has no TensorRT, printed wherever TensorFlow is imported: "TF-TRT Warning: Could not find TensorRT", "Cannot dlopen
         # some TensorRT libraries")
         r"\[TRT(?:-LLM)?\]|(?<!Could not find )(?<!dlopen some )TensorRT|tensorrt_llm|(?<![\w:.])trtllm(?:-\w+)?(?!\w)|Executor creation failed due to insufficient GPU memory|maxTokensInPagedKvCache|"
         r"Using \d+ tokens in paged KV cache"),
    # its Triton backend's per-iteration statistics, a JSON object logged by model_instance_state.cc ('"{\"Active Request
    # Count\":1,\"Iteration Counter\":458,\"Max Request Count\":8,\"Runtime GPU Memory Usage\":16178570883, ...')
    _sig("fw-trt-backend-stats", "tensorrt-llm", 8, ("Active Request Count", "Iteration Counter", "Runtime GPU Memory Usage"),
         r'"(?:Active Request Count|Iteration Counter|Max Request Count|Runtime GPU Memory Usage)\\?":'),
    # its quantization example (examples/quantization/quantize.py over ModelOpt, AMMO before it): the --qformat flag it takes,
    # and its export's refusal that names the checkpoint it writes ("Cannot export model to the model_config. The AMMO
    # optimized model state_dict ... is saved to tllm_checkpoint_mixtral_2gpu/ammo_model.0.pth")
    _sig("fw-trt-quantize", "tensorrt-llm", 8, ("--qformat", "Cannot export model to the model_config"),
         r"\bquantize\.py\b.*\s--qformat[ =]|Cannot export model to the model_config"),
    # (its PyTorch engine's model loop, the package's name cut from the paste: "model_agent.py:498 - Task <ModelAgentLoop> failed")
    _sig("fw-lmdeploy", "lmdeploy", 12, ("lmdeploy", "[TM]", "turbomind", "ModelAgentLoop"), r"lmdeploy|\[TM\]|turbomind|\bModelAgentLoop\b", re.I),
    # (not transformers' own module of that name, whose deprecation warning or frames any transformers program may print:
    # "transformers/deepspeed.py:24: FutureWarning", "transformers/integrations/deepspeed.py")
    _sig("fw-deepspeed", "deepspeed", 12, ("deepspeed", "DeepSpeed", "sigkill_handler", "ds_inference", "Resetting KV cache and recomputing",
                                           "Workspace can't be allocated"),
         r"(?<!(?:transformers|integrations)[/\\.])deepspeed(?!\.py:\d+: FutureWarning| modules directly from transformers)|"
         r"sigkill_handler|ds_inference|Deadlock detected\. Resetting KV cache and recomputing|Workspace can't be allocated, not? enough memory", re.I),
    # (its workspace check's figures, printed before that error: a request of 100 MiB or more, in bytes, on its own line; the
    # inference kernels' sizing of that workspace votes with the fact it gives, generic.py's deepspeed-workspace-tokens)
    _sig("fw-deepspeed-workspace", "deepspeed", 6, ("Requested:",), r"^Requested:\s+\d{9,}\s*$"),
    # its JIT-built ops and ZeRO-3's parameter offload, printed without its name
    _sig("fw-deepspeed-ops", "deepspeed", 8, ("Parameter Offload: Total persistent parameters", "Time to load", "Loading extension module"),
         r"Parameter Offload: Total persistent parameters|Time to load (?:utils|cpu_adam|fused_adam|\w+_adam|transformer_inference) op|"
         r"Loading extension module (?:utils|cpu_adam|fused_adam|cpu_adagrad|transformer_inference)\b"),
    # its logger's own line shape, whatever the module (MII/FastGen's "[2025-03-13 18:29:53,201] [INFO] [kv_cache.py:135:__init__]")
    _sig("fw-deepspeed-logger", "deepspeed", 8, ("] [INFO] [", "] [WARNING] [", "] [ERROR] ["),
         r"^\[\d{4}-\d\d-\d\d [\d:,]+\] \[(?:INFO|WARNING|ERROR)\] \[\w+\.py:\d+:\w+\]"),
    _sig("fw-exllama", "exllama", 12, ("exllama", "ExLlama", "Insufficient VRAM for model and cache", "Insufficient VRAM in split for model and cache",
                                       "Insufficient space in device allocation"),
         r"exllama|Insufficient VRAM (?:in split )?for model and cache|Insufficient space in device allocation", re.I),
    # ExLlama's own benchmark and test script reports ("** VRAM, Model: [cuda:0] 6,683.17 MB - [cuda:1] 0.00 MB",
    # "-- Groupsize (inferred): 128", "-- Act-order (inferred): no")
    _sig("fw-exllama-bench", "exllama", 12, ("** VRAM, ", "(inferred):"),
         r"\*\* VRAM, (?:Model|Inference|Total): \[cuda:\d+\]|-- (?:Groupsize|Act-order) \(inferred\):"),
    _sig("fw-transformers", "transformers", 5, ("transformers", "from_pretrained", "AutoModel", "Loading checkpoint shards", "bitsandbytes",
                                                "accelerate", "generate(", "modeling_", "device_map", "offload_folder"),
         # (not ktransformers or ctransformers, engines of their own, nor Tenstorrent's model library tt_transformers)
         r"(?<![A-Za-z])(?<!tt_)transformers|from_pretrained|AutoModel|(?<!safetensors )Loading checkpoint shards|bitsandbytes|accelerate|\.generate\(|"
         r"modeling_\w+\.py|device_map|offload_folder"),
    # its generate() checking a prompt against max_length ("Input length of input_ids is 1024, but `max_length` is set to 1024")
    _sig("fw-transformers-generate-length", "transformers", 5, ("Input length of input_ids is",),
         r"Input length of input_ids is \**\d+\**, but `?max_length`? is set to"),
    # LLaMA-Factory's training, chat and export commands and its older package name (llmtuner) run transformers (its API
    # server may run vLLM, which names itself)
    # (and its loggers' names, "07/06/2024 02:12:04 - INFO - llamafactory.model.model_utils.attention - Using torch SDPA")
    _sig("fw-llamafactory", "transformers", 10, ("llamafactory-cli", "llmtuner.", "llamafactory."),
         r"\bllamafactory-cli (?:export|train|chat|eval|webchat)\b|\bllmtuner\.\w|"
         r"\bllamafactory\.(?:model|train|chat|data|extras|hparams|webui|eval)\.\w+"),
    # transformers' own logging format: `[WARNING|file.py:307] 2023-10-10 15:56:27,604 >> message`
    _sig("fw-transformers-logformat", "transformers", 5, ("[INFO|", "[WARNING|", "[ERROR|"),
         r"^\[(?:INFO|WARNING|ERROR)\|\w+\.py:\d+\] [\d-]+ [\d:,]+ >> "),
    # LocalAI's gRPC backends failing to load a model ("failed to load model with internal loader: could not load model: rpc
    # error: ..."): llama.cpp's server is the backend it tries first, so a weak vote any engine's own line outweighs
    _sig("fw-localai-loader", "llamacpp", 3, ("internal loader", "could not load model: rpc error"),
         r"failed to load model with internal loader|could not load model: rpc error"),
    # LM Studio's report of its runtime dying ("The model has crashed without additional information. (Exit code: ...)"):
    # its engine is llama.cpp unless its MLX engine, whose own lines then outweigh this weak vote, ran on a Mac
    _sig("fw-lmstudio-crash", "llamacpp", 3, ("crashed without additional information",),
         r"The model has crashed without additional information"),
    # wrappers and downstream projects: the engine they run underneath
    _sig("fw-llamacpp-wrappers", "llamacpp", 8, (*WRAPPER_ANCHORS, "llama_cpp", "llama-cpp", "ctransformers", "model loading guardrails",
                                                  "Try a different model and/or config", "Failed to load the model", "🥲 Failed to load", "Failed to initialize the context",
                                                  "unable to allocate", "modelCompatibilityType", "hardwareSurveyResult", "Processing Prompt",
                                                  "rnllama", "llama.rn", "LLamaSharp", "at LLama.", "LlamaCpp", "Embedding engine exception"),
         # (llama.rn, the React Native binding mobile apps embed: its library "librnllama_v8_2_fp16_dotprod.so", its iOS
         # framework in a crash's frames, "rnllama +0x317e00 rnllama::llama_rn_context::loadModel")
         WRAPPER_NAMES + r"|llama[_-]cpp(?:[_-]python)?\b|\bctransformers\b|model loading guardrails|"
         r"\b(?:lib)?rnllama\w*\.so\b|\brnllama(?:::|\s+\+0x)|\bllama\.rn\b|"
         # (LLamaSharp, the C# binding: its name, or its namespace in a .NET stack trace, "at LLama.StatelessExecutor.<InferAsync>")
         r"\bLLamaSharp\b|^\s*at LLama\.\w+|"
         # (an app's error class for its llama.cpp process: Jan's "LlamaCppProcessError")
         r"\bLlamaCpp\w*Error\b|"
         r"Try a different model and/or config|🥲 Failed to load|^Failed to initialize the context: |"
         # (LM Studio's embedding models, which its llama.cpp engine runs: "Failed to load model into embedding engine. Message:
         # Embedding engine exception: ...")
         r"\bEmbedding engine exception: |"
         # koboldcpp's progress line: "Processing Prompt [BLAS] (512 / 1024 tokens)"
         r"^Processing Prompt (?:\[BLAS\] )?\(\d+ / \d+ tokens\)|"
         # llama.cpp's model-load error as wrappers print it (no `llama_model_load:` prefix, or only its last words: "unable to
         # allocate Vulkan0 buffer"); LM Studio's survey JSON
         r"(?:error loading model: )?unable to allocate (?:CUDA|ROCm|Vulkan|Metal|SYCL|CANN|MUSA)\d* buffer|\"(?:modelCompatibilityType|hardwareSurveyResult)\"", re.I),
    # ggml's applications that are not LLM runtimes (stable-diffusion.cpp, whisper.cpp): ggml's lines are theirs,
    # and llama.cpp's settings (-ngl, -c, -ub) are not
    _sig("fw-ggml-apps", "other", 20, ("stable-diffusion.cpp:", "ggml_extend.hpp", "whisper_"),
         r"stable-diffusion\.cpp:\d+|ggml_extend\.hpp|\bwhisper_\w+(?::(?:\s|$)|\(\) failed)"),
    # (lm-evaluation-harness runs transformers unless its vLLM backend, whose own lines then name vLLM, is chosen)
    _sig("fw-transformers-wrappers", "transformers", 6, ("fastchat", "FastChat", "ipex_llm", "bigdl", "oobabooga", "unsloth", "Unsloth",
                                                      "axolotl", "dispatched on the CPU or the disk", "lm_eval", "lm-eval"),
         r"fastchat|ipex_llm|bigdl\.llm|oobabooga|axolotl\b|Some modules are dispatched on the CPU or the disk|unsloth(?![\w/.:-]*gguf)|"
         r"\blm_eval\b|lm-evaluation-harness", re.I),
    _sig("fw-exllama-wrappers", "exllama", 12, ("tabbyAPI", "TabbyAPI", "tabby_api", "ExUI", "--inline-model-loading"),
         r"tabby_?api|\bExUI\b|--inline-model-loading\b", re.I),
    # an EXL2 quant by its name ("...-exl2_4.65bpw", "6.0bpw-exl2"): ExLlama's format, served by TabbyAPI or ExUI
    _sig("fw-exl2-model", "exllama", 6, ("exl2", "EXL2"), r"(?i)[-_.]exl2(?:[-_.]|$)"),
    # runtimes with no framework id of their own (MLC/TVM, MLX, Aphrodite, MindIE, text-embeddings-inference, mistral.rs,
    # LightLLM, fastllm, vllm.rs, candle-vllm and other engines on candle, Rust's tensor library; vllm-mlx, Rapid-MLX's
    # MLX server, is not vLLM): 'other'
    # (MLC-LLM's older package was mlc_chat, over TVM's runtime)
    _sig("fw-other-runtimes", "other", 30, ("mlc_llm", "mlc_chat", "MLCEngine", "TVMError", "tvm::runtime", "mlx_lm", "mlx_vlm", "mlx_engine",
                                           "mlx.core", "metal::malloc", "aphrodite", "onnxruntime", "ctranslate2", "mindie", "text_embeddings_router",
                                           "text-embeddings-inference", "text-embeddings-router", "openvino", "OpenVINO", "ovms", "mistralrs",
                                           "lightllm", "fastllm", "vllm_rs", "vllm-rs", "vllm.rs", "candle_core::",
                                           "candle_vllm", "candle-vllm", "candle_nn::", "vllm_mlx", "vllm-mlx", "rapid-mlx", "Rapid-MLX"),
         r"mlc_llm|mlc_chat|MLCEngine|TVMError|tvm::runtime|mlx_lm|mlx_vlm|mlx_engine|mlx\.core|\[metal::malloc\]|aphrodite|onnxruntime|ctranslate2|"
         r"mindie|text[_-]embeddings[_-](?:router|inference)|openvino|\bovms\b|mistralrs[_-]|\blightllm\b|\bfastllm\b|"
         r"\bvllm(?:_rs\b|-rs\b|\.rs\b|[_-]mlx\b)|\brapid[_-]mlx\b|\bcandle_core::|\bcandle[_-]vllm\b|\bcandle_nn::", re.I),
    # TensorFlow's, PaddlePaddle's, Jittor's and MindSpore's own frames and messages: tensor libraries other than PyTorch, which no engine
    # in the list runs on
    _sig("fw-other-tensor-libs", "other", 4, ("tensorflow", "paddle", "jittor", "GPU_0_bfc", "mindspore"),
         # (and TensorFlow's C++ logging: "2023-03-15 06:09:56.391024: I tensorflow/core/platform/cpu_feature_guard.cc:193] ...")
         r"[/\\](?:tensorflow|tensorflow_core|paddle|jittor|mindspore)[/\\][\w/\\]*\.(?:py|cc|cpp|h)\b|\btensorflow\.python\.framework\.errors_impl\b|"
         r"\b[IWEF] tensorflow/[\w/]+\.cc:\d+\]|"
         r"\bpaddle::(?:framework|memory|platform)::|\bby allocator GPU_\d+_bfc\b"),
    # a JAX program's frames (JAX, its libraries, Levanter's engine): no engine in the list runs on JAX unless it names itself
    # (or a JAX error by its module's name where the paste keeps no JAX frame: "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED")
    _sig("fw-jax", "other", 4, ("jax", "equinox", "levanter", "flax"),
         r"[/\\](?:jax|jaxlib|equinox|flax|levanter)[/\\][\w/\\]*\.py\b|\bjaxlib\.(?:xla_extension|_jax)\.\w+Error\b|\bjax\.errors\.\w+Error\b"),
    # KTransformers, an engine of its own (its package's modules in frames or commands; not a folder or an environment
    # merely named after it, under which KTransformers' SGLang build names itself)
    _sig("fw-ktransformers", "other", 10, ("ktransformers",),
         r"\bktransformers[./\\](?:local_chat|server|operators|optimize|models|util|ktransformers_ext)\b"),
    # Triton Inference Server and its client: a server with no framework id of its own, unless its engine's
    # (vLLM's, TensorRT-LLM's) lines name one
    _sig("fw-triton", "other", 2, ("tritonclient", "tritonserver", "pb_stub", "triton_python_backend"),
         r"tritonclient|tritonserver|\bpb_stub\b|triton_python_backend"),
    # (c10's CUDA check raises `RuntimeError: CUDA error: ...`; cuBLAS failures reach Python as `... when calling `cublas...``)
    _sig("fw-pytorch", "pytorch", 2, ("torch", "PyTorch", "OutOfMemoryError", "CUDA out of memory. Tried to allocate", "DefaultCPUAllocator",
                                      "RuntimeError: CUDA error", "when calling `cublas", "MPSNDArray", "MPS backend", "CUDACachingAllocator",
                                      "torch_npu", "NPUCachingAllocator", "support querying the available free memory", "TORCH_USE_CUDA_DSA",
                                      "index out of bounds\"` failed", "Tried to allocate", "torch/distributed/",
                                      "Unexpected bus error encountered in worker", "DataLoader worker (pid", "src/ATen/", "src\\ATen\\",
                                      "Cannot copy out of meta tensor", "XPU out of memory"),
         # (its XPU allocator's error, "RuntimeError: XPU out of memory. Tried to allocate ...", or the name alone)
         r"\bXPU out of memory\b|torch\.|/torch/|\btorch/distributed/|PyTorch|\btorch_npu\b|NPUCachingAllocator|(?<!java\.lang\.)OutOfMemoryError(?!: container killed)|torchchat|CUDA out of memory\. Tried to allocate|DefaultCPUAllocator|CUDACachingAllocator|"
         r"RuntimeError: CUDA error|CUBLAS_STATUS_\w+ when calling `cublas|\[MPSNDArray |MPS backend out of memory|"
         # (its DataLoader's workers: a bus error in one for want of shared memory, one killed)
         r"Unexpected bus error encountered in worker|DataLoader worker \(pid|"
         # (its ATen sources in a kernel's assertion, "aten/src/ATen/native/cuda/Indexing.cu:1093: indexSelectSmallIndex: ...
         # Assertion `srcIndex < srcSelectDimSize` failed", and its meta-device error)
         r"\baten[/\\]src[/\\]ATen[/\\]|Cannot copy out of meta tensor|"
         # (its hint under a device-side assert, and ATen's indexing kernel's own assertion)
         r"TORCH_USE_CUDA_DSA|Assertion `-sizes\[i\] <= index && index < sizes\[i\] && \"index out of bounds\"` failed|"
         # (its XPU backend on an Intel GPU whose driver cannot report free memory)
         r"doesn't support querying the available free memory|"
         # (its out-of-memory message's request alone on its line, as a report quotes it)
         r"^\s*Tried to allocate [\d.]+ ?[KMGT]i?B\.?\s*$"),
    # captured CUDA/HIP graphs in PyTorch's own OOM message ("with 26.00 MiB allocated in private pools"; none
    # is "0 bytes"): a serving engine captured them, which a generate() script does not; the most common
    # such engine is vLLM, and any engine's own lines outweigh this vote
    _sig("fw-graphs-private-pools", "vllm", 3, ("private pools",), r"\d+(?:\.\d+)? [KMGT]iB allocated in private pools"),
    # PyTorch's NCCL process group in an inference log (its watchdog, a collective that timed out): a model served over
    # several GPUs, most often by vLLM; any engine's own lines, DeepSpeed's included, outweigh this vote
    _sig("fw-nccl-process-group", "vllm", 3, ("ProcessGroupNCCL",), r"\bProcessGroupNCCL\.cpp:\d+\]"),
    # vLLM's engine-dead errors, which its API server returns to every request after the engine died
    _sig("fw-vllm-engine-dead", "vllm", 6, ("Engine loop is not running", "Background loop is not running", "EngineDeadError"),
         r"Engine loop is not running\. Inspect the stacktrace|Background loop is not running\. If it was running|\b(?:MQ|Async)EngineDeadError\b"),
    # a Python traceback and no engine named: a script (read as transformers, like PyTorch alone)
    _sig("fw-python-traceback", SCRIPT, 1, ('.py", line ',), r'File "[^"]+\.py", line \d+'),
    # a frame of the program's own code (not an installed package's, the interpreter's or a notebook cell's): with no
    # engine named, a project of its own (a trainer, an application) runs the model, not a transformers script
    _sig("fw-project-frame", PROJECT, 1, ('.py", line ',),
         r'File "(?![^"]*(?:site-packages|dist-packages|[/\\]lib[/\\]python|[/\\]Lib[/\\]|ipykernel_|<))[^"]+\.py", line \d+'),
    # a Python program launched from the shell (a prompt's command line, with its environment in front, or the
    # shell's job line for it): a script too
    _sig("fw-python-launch", SCRIPT, 1, ("python", "streamlit run", "torchrun", "accelerate launch"),
         r"(?:^\s*|[$#>]\s*|\b(?:Killed|Terminated|Aborted)\s+)(?:[A-Z_][A-Z0-9_]*=\S*\s+)*(?:python(?:3(?:\.\d+)?)?|streamlit run|torchrun|accelerate launch)\s+(?:\S+\s+){0,6}?[\w./-]+\.py\b"),
    # a notebook's own words for its Python kernel (Colab, Jupyter, VS Code), and PyTorch's meta-device error
    _sig("fw-python-notebook", SCRIPT, 1, ("after using all available RAM", "after using all available ram", "kernel process died",
                                            "kernel appears to have died", "Tensor on device meta", "KernelRestarter: restarting kernel"),
         r"(?i:session crashed after using all available RAM)|kernel process died|kernel appears to have died|Tensor on device meta|"
         r"KernelRestarter: restarting kernel"),
    _sig("fw-python-killed", "pytorch", 1, ("Killed process",), r"Killed process \d+ \(python"),
    # vLLM's own log format: "ERROR 04-01 23:46:56 [engine.py:160] ..." (before v0.8 without the bracket)
    # (checked on lines already selected)
    _sig("fw-vllm-logformat", "vllm", 3, (".py:",), r"(?:INFO|WARNING|ERROR|DEBUG) \d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? \[?[\w.]+\.py:\d+\]"),
)


ASSUMED = "transformers"  # what a log that shows only PyTorch is read as


def decide(scores: dict[str, int]) -> str:
    named = {fw: s for fw, s in scores.items() if fw not in (SCRIPT, OLLAMA_RUNNER, PROJECT)}
    engines = {fw: s for fw, s in named.items() if fw != "pytorch"}
    if PROJECT in scores and "pytorch" in scores and not engines:
        return "pytorch"  # PyTorch's messages under a project's own frames, no engine or transformers named: a PyTorch program
    if not named:
        # (Ollama's runner alone, no engine named: a crash inside its cgo calls, its build's paths or its model store, the
        # llama.cpp lines cut away; a bare panic is not enough)
        return "ollama" if scores.get(OLLAMA_RUNNER, 0) >= 8 else ASSUMED if SCRIPT in scores else "other"
    # PyTorch's own messages and a Python traceback come with every Python engine: any engine's own
    # signal names the framework before them
    # (a tie between a serving engine and transformers goes to the engine: engines import transformers' model
    # code, as SGLang's vision encoders do, and a script does not print an engine's lines)
    best = max(engines.items() if engines and max(engines.values()) >= 2 else named.items(),
               key=lambda kv: (kv[1], kv[0] != ASSUMED, kv[0]))
    if best[0] == "llamacpp" and OLLAMA_RUNNER in scores:
        return "ollama"  # llama.cpp's own lines, printed by the runner Ollama embeds
    if best[0] == NAMED_PYTORCH:
        return "pytorch"
    return ASSUMED if best[0] == "pytorch" else best[0]


def assumed(scores: dict[str, int], framework: str) -> bool:
    """The framework was read from PyTorch's messages or a Python traceback, not named (a program's own frames
    under PyTorch's messages are read as a PyTorch program of its own, "pytorch")."""
    if framework == "pytorch" and PROJECT in scores and NAMED_PYTORCH not in scores:
        return True
    return framework == ASSUMED and scores.get(ASSUMED, 0) < max(scores.values(), default=0)
