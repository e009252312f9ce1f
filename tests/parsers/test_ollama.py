"""Ollama messages (parsers/ggml.py): the scheduler's offload estimate (one line, or wrapped by
journald), host memory, the runner command line and Ollama's own errors (KNOBS.md section 7)."""

from __future__ import annotations

import pytest
from parser_table import GiB, MiB, case, check, lines, params

OOM = "oom.kind"

CASES = [
    case("runner-load-request",  # holdout r77: Ollama 0.12's load request, its KV cells the context times the sequences
         'time=2025-10-29T20:39:42.487-04:00 level=INFO source=runner.go:1210 msg=load request="{Operation:fit LoraPath:[] '
         'Parallel:2 BatchSize:512 FlashAttention:false KvSize:256000 KvCacheType:q8_0 NumThreads:16 GPULayers:65[ID:0 '
         'Layers:65(0..64)] MultiUserCache:false ProjectorPath: MainGPU:0 UseMmap:false}"\n',
         [("knob.max_num_seqs", 2, 1), ("knob.batch_size", 512, 1), ("knob.flash_attention", False, 1),
          ("knob.max_model_len", 128000, 1), ("knob.kv_cache_dtype", "q8_0", 1)], framework="ollama"),
    case("offload-to-cuda-0.5",  # KNOBS.md 7.2 (ollama#8447)
         'time=2025-01-20T10:00:00.000Z level=INFO source=memory.go:356 msg="offload to cuda" layers.requested=-1 '
         'layers.model=62 layers.offload=5 layers.split="" memory.available="[23.3 GiB]" memory.gpu_overhead="0 B" '
         'memory.required.full="415.7 GiB" memory.required.partial="17.6 GiB" memory.required.kv="9.5 GiB" '
         'memory.required.allocations="[17.6 GiB]" memory.weights.total="385.0 GiB" memory.weights.repeating="384.3 GiB" '
         'memory.weights.nonrepeating="725.0 MiB" memory.graph.full="654.0 MiB" memory.graph.partial="1019.5 MiB"\n',
         [("mem.layers_total", 62, 1), ("mem.layers_offloaded", 5, 1), ("mem.gpu_available_bytes", GiB(23.3), 1),
          ("mem.kv_total_bytes", GiB(9.5), 1), ("mem.weights_total_bytes", GiB(385.0), 1),
          ("mem.compute_buffer_bytes", MiB(654), 1),
          # required.full - required.partial lives in host RAM
          ("mem.required_bytes", GiB(415.7), 1), ("mem.host_required_bytes", GiB(415.7) - GiB(17.6), 1),
          ("mem.gpu_planned_bytes", GiB(17.6), 1)],
         framework="ollama"),
    case("offload-to-cpu",  # corpus: nothing on the GPU, layers.requested=0
         'time=2025-01-29T06:36:08.360-05:00 level=INFO source=memory.go:356 msg="offload to cpu" layers.requested=0 '
         'layers.model=62 layers.offload=0 layers.split="" memory.available="[50.1 GiB]" memory.gpu_overhead="0 B" '
         'memory.required.full="172.7 GiB" memory.required.partial="0 B" memory.required.kv="38.1 GiB" '
         'memory.required.allocations="[990.7 MiB]" memory.weights.total="167.5 GiB" memory.weights.repeating="166.8 GiB" '
         'memory.weights.nonrepeating="725.0 MiB" memory.graph.full="2.2 GiB" memory.graph.partial="3.0 GiB"\n',
         [("knob.gpu_layers", 0, 1), ("mem.layers_total", 62, 1), ("mem.layers_offloaded", 0, 1),
          ("mem.gpu_available_bytes", GiB(50.1), 1), ("mem.kv_total_bytes", GiB(38.1), 1),
          ("mem.weights_total_bytes", GiB(167.5), 1), ("mem.compute_buffer_bytes", GiB(2.2), 1), ("oom.hint", "cpu_only", 1),
          ("mem.required_bytes", GiB(172.7), 1), ("mem.host_required_bytes", GiB(172.7), 1),
          ("mem.gpu_planned_bytes", 0, 1)]),
    case("offload-wrapped-by-journald",  # corpus: msg=offload and its fields over four lines
         lines("May 16 17:44:49 Debian ollama[6012]: time=2025-05-16T17:44:49.187+02:00 level=INFO source=server.go:168 msg=offload",
               ' library=cuda layers.requested=-1 layers.model=49 layers.offload=4 layers.split="" memory.available="[11.4 GiB]"',
               ' memory.gpu_overhead="0 B" memory.required.full="68.3 GiB" memory.required.partial="10.9 GiB" '
               'memory.required.kv="2.2 GiB"',
               ' memory.required.allocations="[10.9 GiB]" memory.weights.total="60.6 GiB" memory.weights.repeating="59.8 GiB"'),
         [("mem.layers_total", 49, 2), ("mem.layers_offloaded", 4, 2), ("mem.gpu_available_bytes", GiB(11.4), 2),
          ("mem.kv_total_bytes", GiB(2.2), 3), ("mem.weights_total_bytes", GiB(60.6), 4),
          ("mem.required_bytes", GiB(68.3), 3), ("mem.host_required_bytes", GiB(68.3) - GiB(10.9), 3),
          ("mem.gpu_planned_bytes", GiB(10.9), 3)],
         framework="ollama"),
    case("system-memory",
         'time=2025-01-29T06:36:08.359-05:00 level=INFO source=server.go:104 msg="system memory" total="64.0 GiB" '
         'free="50.1 GiB" free_swap="0 B"\n',
         [("host.ram_total_bytes", GiB(64), 1), ("host.ram_available_bytes", GiB(50.1), 1)], framework="ollama"),
    case("requires-more-system-memory",
         lines("Error: model requires more system memory (44.0 GiB) than is available (7.6 GiB)",
               '{"error":"model requires more system memory (5.5 GiB) than is available (3.2 GiB)"}'),
         [(OOM, "host_insufficient", 1), ("oom.host_required_bytes", GiB(44), 1), ("oom.host_available_bytes", GiB(7.6), 1),
          (OOM, "host_insufficient", 2), ("oom.host_required_bytes", GiB(5.5), 2), ("oom.host_available_bytes", GiB(3.2), 2)],
         phase="load_weights", failure_line=1),
    case("runner-command-new",  # KNOBS.md 7.2: "... runner [--ollama-engine] --model ... --ctx-size ..."
         'time=2025-03-01T10:00:00.000Z level=INFO source=server.go:405 msg="starting llama server" '
         'cmd="/usr/local/bin/ollama runner --model /root/.ollama/models/blobs/sha256-6a0746a1ec1a --ctx-size 8192 '
         '--batch-size 512 --n-gpu-layers 48 --threads 28 --flash-attn --parallel 4 --port 41235"\n',
         [("knob.model", "/root/.ollama/models/blobs/sha256-6a0746a1ec1a", 1), ("knob.max_model_len", 8192, 1),
          ("knob.batch_size", 512, 1), ("knob.gpu_layers", 48, 1), ("knob.flash_attention", True, 1),
          ("knob.max_num_seqs", 4, 1)], framework="ollama"),
    case("runner-command-ollama-engine",
         'time=2025-06-01T10:00:00.000Z level=INFO source=server.go:405 msg="starting llama server" '
         'cmd="/usr/local/bin/ollama runner --ollama-engine --model /root/.ollama/models/blobs/sha256-6a0746a1ec1a '
         '--ctx-size 8192 --batch-size 512 --n-gpu-layers 48 --threads 28 --parallel 1 --port 41235"\n',
         [("knob.model", "/root/.ollama/models/blobs/sha256-6a0746a1ec1a", 1), ("knob.max_model_len", 8192, 1),
          ("knob.batch_size", 512, 1), ("knob.gpu_layers", 48, 1), ("knob.max_num_seqs", 1, 1)]),
    case("runner-command-0.1-0.3",  # the pre-0.5 runner binary: .../runners/cuda_v11/ollama_llama_server
         'time=2024-06-01T10:00:00.000Z level=INFO source=server.go:320 msg="starting llama server" '
         'cmd="/tmp/ollama3270829990/runners/cuda_v11/ollama_llama_server --model '
         '/usr/share/ollama/.ollama/models/blobs/sha256-6a0746a1ec1a --ctx-size 8192 --batch-size 512 --embedding '
         '--log-disable --n-gpu-layers 33 --parallel 4 --port 37933"\n',
         [("knob.model", "/usr/share/ollama/.ollama/models/blobs/sha256-6a0746a1ec1a", 1), ("knob.max_model_len", 8192, 1),
          ("knob.batch_size", 512, 1), ("knob.gpu_layers", 33, 1), ("knob.max_num_seqs", 4, 1)]),
    case("new-engine-offloaded",
         'time=2025-06-01T10:00:00.000Z level=INFO source=ggml.go:370 msg="offloaded 41/41 layers to GPU"\n',
         [("mem.layers_offloaded", 41, 1), ("mem.layers_total", 41, 1)], framework="ollama"),
    case("cudamalloc-through-journald",  # corpus ollama-10735
         "May 16 15:11:15 myH100VM ollama[1405]: ggml_backend_cuda_buffer_type_alloc_buffer: allocating 42256.00 MiB on "
         "device 0: cudaMalloc failed: out of memory\n",
         [(OOM, "ggml_alloc_failed", 1), ("oom.requested_bytes", MiB(42256), 1), ("oom.device", "0", 1),
          ("oom.buffer_device", "GPU", 1)], framework="ollama"),
    case("client-side-cuda-error",  # corpus: what `ollama run` prints
         lines("Error: an unknown error was encountered while running the model CUDA error: out of memory"),
         [(OOM, "ggml_cuda_error_oom", 1)]),
    case("runner-stopped-is-a-hint",
         "Error: model runner has unexpectedly stopped, this may be due to resource limitations or an internal error, "
         "check ollama server logs for details\n",
         [("oom.hint", "runner_stopped", 1)], framework="ollama"),
    # holdout r33: commands that read or build a model name it, and start no run
    case("show-modelfile-names-the-model", "ollama show --modelfile llama3.1:70b > Modelfile3.1-70b\n",
         [("knob.model", "llama3.1:70b", 1)], framework="ollama"),
    case("create-names-the-new-model", "ollama create llama3.1:70b-128k -f Modelfile3.1-70b\n",
         [("knob.model", "llama3.1:70b-128k", 1)], framework="ollama"),
]


@pytest.mark.parametrize("c", params(CASES))
def test_ollama_messages(c):
    check(c)
