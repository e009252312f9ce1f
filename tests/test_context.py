"""Launch context: the command, the card, the model and deployment specs as facts."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from oomdoctor import context
from oomdoctor.diagnose import DiagnoseOptions, diagnose
from oomdoctor.facts import FactSet, Origin

GIB = 1 << 30
ROOT = Path(__file__).resolve().parents[1]


def values(ctx: context.Context) -> dict[str, object]:
    return {f.key: f.value for f in ctx.facts}


@pytest.mark.parametrize(("command", "framework", "expected"), [
    ("vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 32768 -tp 2 --gpu-memory-utilization 0.95", "vllm",
     {"knob.max_model_len": 32768, "knob.tensor_parallel_size": 2, "knob.gpu_memory_utilization": 0.95,
      "knob.model": "Qwen/Qwen2.5-7B-Instruct"}),
    ("CUDA_VISIBLE_DEVICES=0,1 python -m vllm.entrypoints.openai.api_server --model m --max_num_seqs 64", "vllm",
     {"knob.max_num_seqs": 64, "knob.model": "m"}),
    ("python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --context-length 65536 --mem-fraction-static 0.8",
     "sglang", {"knob.max_model_len": 65536, "knob.gpu_memory_utilization": 0.8}),
    ("text-generation-launcher --model-id x --max-total-tokens 8192 --max-batch-prefill-tokens 4096", "tgi",
     {"knob.max_model_len": 8192, "knob.max_num_batched_tokens": 4096}),
    ("./llama-server -m Qwen2.5-Coder-7B-Instruct-Q4_K_M.gguf -c 32768 -ngl 99 -np 4", "llamacpp",
     {"knob.max_model_len": 32768, "knob.gpu_layers": 99, "knob.max_num_seqs": 4, "knob.quantization": "Q4_K_M"}),
    ("koboldcpp.exe --model m.gguf --contextsize 16384 --gpulayers 40 --blasbatchsize 512", "llamacpp",
     {"knob.max_model_len": 16384, "knob.gpu_layers": 40, "knob.batch_size": 512}),
    ("OLLAMA_NUM_PARALLEL=4 OLLAMA_CONTEXT_LENGTH=8192 ollama serve", "ollama",
     {"knob.max_num_seqs": 4, "knob.max_model_len": 8192}),
    ("llm = LLM(model='meta-llama/Llama-3.1-8B-Instruct', max_model_len=200000, gpu_memory_utilization=0.9)", "vllm",
     {"knob.max_model_len": 200000, "knob.gpu_memory_utilization": 0.9}),
    ("lmdeploy serve api_server internlm/internlm2_5-7b-chat --session-len 32768 --cache-max-entry-count 0.5", "lmdeploy",
     {"knob.max_model_len": 32768, "knob.gpu_memory_utilization": 0.5, "knob.model": "internlm/internlm2_5-7b-chat"}),
    ("./main --model  --seed 1 --ctx_size 8168 -n 16", "llamacpp", {"knob.max_model_len": 8168, "knob.model": None}),  # no flag as the model
    ("lmdeploy chat Qwen/Qwen2.5-7B-Instruct --tp 2", "lmdeploy",
     {"knob.tensor_parallel_size": 2, "knob.model": "Qwen/Qwen2.5-7B-Instruct"}),
    ("trtllm-serve serve meta-llama/Llama-3.1-8B-Instruct --max_batch_size 8", "tensorrt-llm",
     {"knob.max_num_seqs": 8, "knob.model": "meta-llama/Llama-3.1-8B-Instruct"}),
    # holdout r9: ZeRO inference keeps the parameters in CPU RAM
    ("deepspeed --num_gpus 8 bloom-ds-zero-inference.py --name bigscience/bloom --batch_size 2 --cpu_offload --benchmark", "deepspeed",
     {"gpu.count": 8, "oom.hint": "cpu_offload_enabled"}),
    # holdout r33: an Ollama command that reads a model names it
    ("ollama show --modelfile llama3.1:70b", "ollama", {"knob.model": "llama3.1:70b"}),
    # holdout r51: an Ollama Modelfile as the user has it, and the REPL's /set
    ("FROM llongma-2-7b.ggmlv3.q4_0.bin / PARAMETER num_ctx 16000", "ollama",
     {"knob.max_model_len": 16000, "knob.model": "llongma-2-7b.ggmlv3.q4_0.bin"}),
    ("FROM llama3:70b\nPARAMETER num_gpu 40\nPARAMETER num_batch 256", "ollama",
     {"knob.gpu_layers": 40, "knob.max_num_batched_tokens": 256, "knob.model": "llama3:70b"}),
    ("ollama run llama3.1:8b then /set parameter num_ctx 32768", "ollama", {"knob.max_model_len": 32768, "knob.model": "llama3.1:8b"}),
    # holdout r96: FastChat's vLLM worker runs vLLM, with vLLM's flags
    ("python -m fastchat.serve.vllm_worker --model-path lmsys/vicuna-7b-v1.5 --tensor-parallel-size 2 --gpu-memory-utilization 0.8", "vllm",
     {"knob.tensor_parallel_size": 2, "knob.gpu_memory_utilization": 0.8}),
    # holdout r75/r96: a trainer's or an evaluator's switch that hands generation to vLLM; off, it names no engine
    ("swift rlhf --rlhf_type grpo --model Qwen/Qwen2.5-7B-Instruct --use_vllm true --vllm_mode colocate", "vllm", {}),
    ("python run.py --data MMBench_DEV_EN --model Qwen2-VL-7B-Instruct --use-vllm", "vllm", {}),
    ("swift rlhf --rlhf_type grpo --model Qwen/Qwen2.5-7B-Instruct --use_vllm false", None, {}),
    # holdout r96: accelerate's device_map in a pasted call spreads the layers
    ("model = AutoModelForCausalLM.from_pretrained(path, device_map='auto')", None, {"parallel.device_map": "auto"}),
    # holdout r99, r81: free text or a wrapper's switch that names the engine it runs
    ("optimum-benchmark config: backend vllm, device_ids 0, dtype float16", "vllm", {}),
    ("llamafactory-cli api --model_name_or_path /m/Qwen2.5-7B-Instruct --infer_backend vllm", "vllm", {}),
    ("xinference launch --model-name deepseek-r1-distill-qwen --model-engine llama.cpp", "llamacpp", {}),
    # holdout r176: Xinference's --n-gpu is the GPUs a model runs on, and vLLM's tensor-parallel size under it
    ("xinference launch --model-engine vllm --model-name qwen2.5-instruct --n-gpu 4 --max_model_len 4096", "vllm",
     {"gpu.count": 4, "knob.tensor_parallel_size": 4, "knob.max_model_len": 4096}),
    ("xinference launch --model-engine transformers --model-name qwen2.5-instruct --n-gpu 2", "transformers",
     {"gpu.count": 2, "knob.tensor_parallel_size": None}),
    ("python serve.py --model /models/vllm-test", None, {}),  # a path that contains an engine's name names none
    # llama.cpp's MoE offload: the experts of the first N layers, or of every layer, stay in CPU RAM
    ("llama-server -m Qwen3-30B-A3B-Q4_K_M.gguf -ngl 99 --n-cpu-moe 20 -c 16384", "llamacpp",
     {"knob.cpu_moe_layers": 20, "knob.gpu_layers": 99}),
    ("LLAMA_ARG_CPU_MOE=1 llama-server -m gpt-oss-120b-mxfp4.gguf -ngl 99", "llamacpp", {"knob.cpu_moe": True}),
    ("vllm serve Qwen/Qwen2.5-32B-Instruct --cpu-offload-gb 16", "vllm", {"knob.cpu_offload": 16.0}),
    # holdout r24: LLaMA-Factory's 4-bit flag
    ("python src/train_bash.py --stage ppo --model_name_or_path baichuan-inc/Baichuan-7B --quantization_bit 4", None,
     {"knob.quantization": "bnb-4bit"}),
])
def test_command_knobs_and_framework(command: str, framework: str, expected: dict[str, object]) -> None:
    ctx = context.from_command(command)
    assert ctx.framework == framework
    got = values(ctx)
    for key, value in expected.items():
        assert got.get(key) == value, (key, got)
    assert all(f.origin in (Origin.COMMAND, Origin.CATALOG) for f in ctx.facts)
    assert ctx.commands and ctx.commands[0]


def test_docker_run_reads_the_model_from_its_environment() -> None:
    # holdout r33: TGI and text-embeddings-inference take the model as MODEL_ID
    ctx = context.from_command("docker run --gpus all -e MODEL_ID=Qwen/Qwen3-Embedding-0.6B "
                               "ghcr.io/huggingface/text-embeddings-inference:turing-1.8.3")
    assert values(ctx)["knob.model"] == "Qwen/Qwen3-Embedding-0.6B"


def test_docker_run_reads_the_image_args_and_its_own_options() -> None:
    ctx = context.from_command(
        "docker run --gpus all --shm-size=16g -e VLLM_ARGS=x -p 8000:8000 vllm/vllm-openai:latest "
        "--model mistralai/Mistral-7B-Instruct-v0.3 --max-model-len 16384")
    got = values(ctx)
    assert ctx.framework == "vllm"
    assert got["knob.shm_size_bytes"] == 16 * GIB
    assert got["knob.max_model_len"] == 16384
    assert ctx.commands[0][:2] == ("vllm", "serve")
    assert got["model.params"] == pytest.approx(7.25e9, rel=0.01)  # the catalog knows the model


def test_docker_gpu_list_counts_devices() -> None:
    got = values(context.from_command('docker run --gpus "device=0,1,2,3" ghcr.io/huggingface/text-generation-inference:2.4 --model-id x'))
    assert got["gpu.count"] == 4


@pytest.mark.parametrize(("env", "count"), [
    ("CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7", 8), ("HIP_VISIBLE_DEVICES=6", 1), ("CUDA_VISIBLE_DEVICES=GPU-8f2a-11,GPU-9b3c-22", 2),
    ("NVIDIA_VISIBLE_DEVICES=all", None), ("CUDA_VISIBLE_DEVICES=", None),
])
def test_visible_devices_count_the_gpus_a_command_sees(env: str, count: int | None) -> None:
    got = values(context.read_command(f"{env} python -m vllm.entrypoints.openai.api_server --model qwen/Qwen1.5-72B-Chat"))
    assert got.get("gpu.count") == count


def test_visible_devices_give_the_idle_gpus_to_shard_over(tmp_path: Path) -> None:
    """holdout r81: a 72B model on one of eight visible cards: sharding over the idle seven comes first."""
    log = tmp_path / "server.log"
    log.write_text("torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 384.00 MiB. GPU 0 has a total capacty of 79.33 GiB "
                   "of which 351.81 MiB is free. Including non-PyTorch memory, this process has 78.97 GiB memory in use. Of the allocated "
                   "memory 78.33 GiB is allocated by PyTorch, and 12.36 MiB is reserved by PyTorch but unallocated.\n")
    cmd = "CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 python -m vllm.entrypoints.openai.api_server --model qwen/Qwen1.5-72B-Chat"
    report = diagnose(DiagnoseOptions(logs=(str(log),), commands=(cmd,)))
    assert report.culprit.value == "weights"
    first = report.suggestions[0]
    assert (first.knob, first.value) == ("tensor_parallel_size", 4)


def test_stated_working_set_and_buffer_limits() -> None:
    # holdout r11: the Metal working set the user read beats the table's variant guess
    got = values(context.from_gpu("Apple M1 Max (Mac Studio), Metal working set 49152 MB"))
    assert got["gpu.total_bytes"] == 49152 * 2**20 and got["gpu.name"] == "Apple M1 Max"
    # holdout r12: a limit on one buffer is not the card's size
    assert "gpu.total_bytes" not in values(context.from_gpu("Apple Silicon Mac (Metal max buffer 77309411328 bytes = 72 GiB)"))


def test_free_text_is_tolerated_and_noted() -> None:
    ctx = context.from_command("I ran it with the usual settings, nothing special")
    assert not ctx.facts and ctx.framework is None
    assert ctx.notes and "no launch flags" in ctx.notes[0]
    partial = context.from_command("--kv-cache-dtype fp8 --max-model-len 221000 (failing run; the passing run used 100000)")
    assert values(partial)["knob.max_model_len"] == 221000
    assert partial.framework == "vllm"


@pytest.mark.parametrize(("text", "count", "gib"), [
    ("A100 80GB", 1, 79.14), ("2x RTX 4090", 2, 23.65), ("2×4090", 2, 23.65), ("T4", 1, 14.75),
    ("8xH100", 8, 79.11), ("44.53 GiB GPUs (model not named)", None, 44.53), ("NVIDIA GPU with 11.4 GiB available", None, 11.4),
    # the count after the size ("64GB x8 per node"); the card's capacity as torch_npu reports it, not the 64 GB stated
    ("Ascend 910B (Atlas 800 A2, 64GB x8 per node)", 8, 60.96),
    # different cards in one box: all of them, at their mean capacity (what a layer split spreads over)
    ("Tesla V100S 32GB + Tesla P40 24GB", 2, 27.06), ("RTX 3090 and RTX 4090", 2, 23.67),
    # a card's memory without its name, as people write it: Chinese "24G显存", a lower-case "48g", MiB; not the host's RAM
    ("24G显存", None, 24.0), ("48g的显卡", None, 48.0), ("GPU with 6141MiB total vRAM", None, 6141 / 1024),
    ("2 x NVIDIA GeForce ... 24576MiB", 2, 24.0), ("64 GB RAM, 8 GB VRAM", None, 8.0),
    # (a RAM size alone is the device's: a phone's NPU, an APU)
    ("Hexagon NPU (16 GB RAM Android phone)", None, 16.0),
])
def test_card_text(text: str, count: int | None, gib: float) -> None:
    got = values(context.from_gpu(text))
    assert got["gpu.total_bytes"] / GIB == pytest.approx(gib, abs=0.01)
    assert got.get("gpu.count") == count
    assert all(f.origin is Origin.CARD for f in context.from_gpu(text).facts)


def test_a_card_beside_something_else_is_one_card() -> None:
    got = values(context.from_gpu("A100 80GB + NVLink"))
    assert (got["gpu.count"], got["gpu.name"]) == (1, "NVIDIA A100 80GB")


def test_a_free_figure_is_not_a_capacity() -> None:
    assert "gpu.total_bytes" not in values(context.from_gpu("AMD Vega 64 (Radeon RX Vega, 7920 MiB free)"))


def test_unknown_card_is_a_note_not_an_error() -> None:
    ctx = context.from_gpu("the big one in rack 3")
    assert not ctx.facts and "no card or size" in ctx.notes[0]


def test_model_names_resolve_offline() -> None:
    hf = context.from_model("meta-llama/Llama-3.1-70B-Instruct")
    assert hf.model == "catalog:meta-llama/Llama-3.1-70B-Instruct"
    assert values(hf)["model.params"] == pytest.approx(70.6e9, rel=0.01)
    tag = context.from_model("llama3.1:8b")
    assert values(tag)["knob.quantization"] == "Q4_K_M"  # an Ollama tag without a quant serves Q4_K_M
    awq = context.from_model("Qwen2.5-72B-Instruct-AWQ")
    assert values(awq)["knob.quantization"] == "awq"
    named = context.from_model("some-private-finetune-13b")
    assert values(named)["model.params"] == 13_000_000_000 and named.model is None
    assert "size in its name" in named.notes[0]
    unknown = context.from_model("our-prod-model")
    assert unknown.model is None and "not in the offline catalog" in unknown.notes[0]


@pytest.mark.parametrize("name, tokens", [
    ("gradientai/Llama-3-8B-Instruct-Gradient-1048k", 1_048_576),  # holdout r108: the catalog's Llama-3-8B says 8192
    ("NousResearch/Yarn-Mistral-7b-128k", 131_072),
    ("some-private-finetune-13b-262k", 262_144),
    ("meta-llama/Llama-3.1-8B-Instruct", 131_072),  # no context in the name: the catalog's
])
def test_a_context_in_the_model_name_is_its_default_context(name: str, tokens: int) -> None:
    assert values(context.from_model(name))["model.default_context"] == tokens


def test_a_parameter_count_in_millions_is_no_context() -> None:
    assert "model.default_context" not in values(context.from_model("HuggingFaceTB/SmolLM-135M"))


def test_a_vision_language_model_name_is_a_multimodal_hint() -> None:
    # holdout r58: a one-line PyTorch message from a Qwen2-VL notebook; the name says images are in play
    assert values(context.from_model("Qwen/Qwen2.5-VL-7B-Instruct"))["oom.hint"] == "multimodal"
    assert "oom.hint" not in values(context.from_model("meta-llama/Llama-3.1-8B-Instruct"))


def test_the_model_named_before_an_aside() -> None:
    # holdout r30: free text that also names the models already resident on the card
    aside = values(context.from_model("8B Q4_K_M (loaded after gpt-oss:120b and a 20B model were already resident)"))
    assert aside["model.params"] == 8_000_000_000 and aside["knob.quantization"] == "Q4_K_M"
    # an aside that only qualifies the model keeps the catalog's entry and its quantization
    qualified = context.from_model("Llama-3.1-405B-Instruct, GPTQ 4-bit quantization")
    assert qualified.model == "catalog:meta-llama/Llama-3.1-405B-Instruct" and values(qualified)["knob.quantization"] == "gptq"


def test_parallel_size_in_free_text() -> None:
    # holdout r31: the command as a person describes it, the flag's value in words
    assert values(context.read_command("docker compose dual: --gpu-memory-utilization 0.92, max-num-seqs 2, TP=2"))["knob.tensor_parallel_size"] == 2
    assert values(context.read_command("sglang server with fp8 KV cache, TP8"))["knob.tensor_parallel_size"] == 8
    assert "knob.tensor_parallel_size" not in values(context.read_command("STOP=3 python serve.py"))


def test_a_tilde_that_is_no_home_directory() -> None:
    # holdout r31: "~125M" is an approximate size, not ~user; the run must not fail on it
    small = context.from_model("~125M-parameter model (partition size 125198592)")
    assert values(small)["model.params"] == 125_000_000


def test_quantization_a_name_implies() -> None:
    # a size-named model outside the catalog keeps the quantization its name spells (MLX's "-4bit")
    mlx = values(context.from_model("Qwen3.5-397B-A17B-4bit (128-expert MoE)"))
    assert mlx["model.params"] == 397_000_000_000 and mlx["knob.quantization"] == "int4"
    # an Ollama tag inside free text, outside the catalog: Ollama serves Q4_K_M
    tags = values(context.from_model("qwen3-vl:4b / qwen3-vl:8b"))
    assert tags["knob.quantization"] == "Q4_K_M"
    # a GGUF repo without its type is not read as 16-bit weights
    assert values(context.from_model("Llama-3-70B-Instruct-Gradient-1048k-GGUF"))["knob.quantization"] == "Q4_K_M"
    assert values(context.from_model("qwen3:32b-q8_0"))["knob.quantization"] == "Q8_0"
    # an HF id states nothing: 16-bit
    assert "knob.quantization" not in values(context.from_model("meta-llama/Llama-3.1-8B-Instruct"))
    # a ggml type written with spaces, as a person types it, beside a catalog model's name
    assert values(context.from_model("Gemma 3 IQ4 XS (Gemma 3 27b It)"))["knob.quantization"] == "iq4_xs"
    # unsloth's dynamic quants ("UD-Q3_K_XL") are the k-quant of that width, not 16-bit weights (holdout r77)
    assert values(context.from_model("Qwen3.6-27B UD-Q3_K_XL GGUF (havenoammo), MTP speculative decoding"))["knob.quantization"] == "Q3_K_L"
    assert values(context.from_model("Llama-3.3-70B-Instruct-UD-Q2_K_XL.gguf"))["knob.quantization"] == "Q2_K"
    # a float GGUF of an MXFP4 checkpoint keeps its experts in MXFP4 (gpt-oss "F16" files are ~65 GB, not 234)
    assert values(context.from_model("gpt-oss-120b-F16.gguf"))["knob.quantization"] == "MXFP4"
    assert values(context.from_model("Llama-3.1-8B-Instruct-F16.gguf"))["knob.quantization"] == "F16"
    assert values(context.from_model("qwen3.6-35b-a3b-vl-mtp-mxfp8"))["knob.quantization"] == "fp8"
    # a GGUF-style type the table does not spell still states its width: sized as that width's common type
    ternary = values(context.from_model("Ternary-Bonsai-27B-Q2_0"))
    assert ternary["knob.quantization"] == "Q2_K" and ternary["model.params"] == 27_000_000_000



def test_a_moe_model_from_the_catalog_states_its_expert_parameters() -> None:
    # what llama.cpp's --cpu-moe / -ot exps=CPU keeps in CPU RAM: gpt-oss-120b's 128 experts x 36 layers, ~98% of it
    moe = values(context.from_model("gpt-oss-120b-Q4_K_M-00001-of-00002.gguf"))
    assert 0.95 < moe["model.expert_params"] / moe["model.params"] < 0.99
    assert "model.expert_params" not in values(context.from_model("meta-llama/Llama-3.1-8B-Instruct"))

def test_compose_spec() -> None:
    data = yaml.safe_load("""
services:
  vllm:
    image: vllm/vllm-openai:v0.9.2
    command: ["--model", "Qwen/Qwen2.5-7B-Instruct", "--max-model-len", "32768"]
    shm_size: 2gb
    environment:
      - PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True
    deploy:
      resources:
        limits: {memory: 32g}
        reservations:
          devices: [{driver: nvidia, count: 2, capabilities: [gpu]}]
""")
    got = values(context.from_spec(data, "compose.yaml"))
    assert got["knob.max_model_len"] == 32768
    assert got["knob.shm_size_bytes"] == 2 * GIB
    assert got["host.cgroup_limit_bytes"] == 32 * GIB
    assert got["gpu.count"] == 2
    assert got["knob.expandable_segments"] is True


def test_kubernetes_deployment_spec() -> None:
    data = yaml.safe_load("""
apiVersion: apps/v1
kind: Deployment
metadata: {name: vllm}
spec:
  template:
    spec:
      containers:
      - name: sidecar
        image: busybox
      - name: server
        image: vllm/vllm-openai:latest
        args: ["--model", "meta-llama/Llama-3.1-8B-Instruct", "--max-num-seqs", "128"]
        resources:
          limits: {memory: 64Gi, nvidia.com/gpu: "1"}
        volumeMounts: [{name: dshm, mountPath: /dev/shm}]
      volumes:
      - name: dshm
        emptyDir: {medium: Memory, sizeLimit: 8Gi}
""")
    ctx = context.from_spec(data, "deploy.yaml")
    got = values(ctx)
    assert ctx.framework == "vllm"
    assert got["knob.max_num_seqs"] == 128
    assert got["host.cgroup_limit_bytes"] == 64 * GIB
    assert got["gpu.count"] == 1
    assert got["knob.shm_size_bytes"] == 8 * GIB


def test_context_decides_what_a_bare_message_cannot(tmp_path: Path) -> None:
    # one PyTorch line: the card is 87% allocated by a small request, no phase, no model
    log = tmp_path / "server.log"
    log.write_text("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 226.00 MiB. GPU 0 has a total capacity of "
                   "15.58 GiB of which 71.25 MiB is free. Including non-PyTorch memory, this process has 13.94 GiB memory in use. "
                   "Of the allocated memory 13.64 GiB is allocated by PyTorch, and 67.23 MiB is reserved by PyTorch but unallocated.\n")
    bare = diagnose(DiagnoseOptions(logs=[str(log)]))
    # alone, the resident set (87% of the card) against a small request is only a low-confidence reading
    assert (bare.culprit.value, bare.confidence.value if bare.confidence else None) == ("weights", "low")
    told = diagnose(DiagnoseOptions(logs=[str(log)], model="google/gemma-3-12b-it", gpu="RTX 4070 Ti Super 16GB",
                                    commands=["python3 -m sglang.launch_server --model-path google/gemma-3-12b-it --context-length 7000"]))
    assert told.framework == "sglang"
    assert told.culprit.value == "weights"
    sources = {e.account: e.source for e in told.ledger}
    assert sources["weights"] in ("estimate", "catalog")
    facts = FactSet(told.facts)
    assert facts.get("model.params").origin is Origin.CATALOG
    assert facts.get("knob.max_model_len").origin is Origin.COMMAND


def test_a_load_many_times_the_model_is_its_kv_cache(tmp_path: Path) -> None:
    # Ollama's check of a whole load against the system: 338 GiB for a 32B Q4 model (about 20 GB)
    log = tmp_path / "server.log"
    log.write_text('time=2026-03-25T09:28:05.821+08:00 level=WARN source=server.go:1044 msg="model request too large for system" '
                   'requested="338.1 GiB" available="337.2 GiB" total="251.0 GiB" free="230.5 GiB" swap="0 B"\n')
    bare = diagnose(DiagnoseOptions(logs=[str(log)]))
    assert bare.culprit.value == "host_memory"  # the model unknown, RAM is what the numbers say ran short
    told = diagnose(DiagnoseOptions(logs=[str(log)], model="deepseek-r1:32b"))
    assert (told.culprit.value, told.findings[0].rule_id) == ("kv_cache", "kv-host-request-beyond-weights")
    assert [s.knob for s in told.suggestions[:2]] == ["max_model_len", "max_num_seqs"]


def test_an_ollama_tag_reads_llama_cpp_lines_as_ollama(tmp_path: Path) -> None:
    # llama.cpp's own lines, printed by the runner Ollama embeds: the model named by its tag says who ran it
    log = tmp_path / "server.log"
    log.write_text("llama_kv_cache_init:      CUDA0 KV buffer size =  8192.00 MiB\n"
                   "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 4507.00 MiB on device 0: cudaMalloc failed: out of memory\n")
    assert diagnose(DiagnoseOptions(logs=[str(log)])).framework == "llamacpp"
    assert diagnose(DiagnoseOptions(logs=[str(log)], model="llama3:70b (Meta-Llama-3-70B-Instruct GGUF)")).framework == "ollama"
    assert diagnose(DiagnoseOptions(logs=[str(log)], model="meta-llama/Llama-3.1-8B-Instruct")).framework == "llamacpp"


def test_cli_context_flags_and_cmd_file(tmp_path: Path) -> None:
    log = ROOT / "examples" / "vllm-kv-cache.log"
    cmd = tmp_path / "launch.sh"
    cmd.write_text("#!/bin/sh\nvllm serve Qwen/Qwen2.5-7B-Instruct \\\n  --max-model-len 131072\n")
    p = subprocess.run([sys.executable, "-m", "oomdoctor", "diagnose", str(log), "--format", "json", "--cmd", f"@{cmd}",
                        "--gpu", "L4", "--model", "not-a-model-anyone-has"], capture_output=True, text=True)
    assert p.returncode == 1, p.stderr
    report = json.loads(p.stdout)
    keys = {(f["key"], f["origin"]) for f in report["facts"]}
    assert ("knob.max_model_len", "command") in keys and ("gpu.total_bytes", "card") in keys
    assert "not in the offline catalog" in p.stderr  # an unknown name is a warning, not an error


def test_cli_spec_errors_are_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("services: [unclosed\n")
    p = subprocess.run([sys.executable, "-m", "oomdoctor", "diagnose", str(ROOT / "examples" / "vllm-kv-cache.log"),
                        "--spec", str(bad)], capture_output=True, text=True)
    assert p.returncode == 2
    assert p.stderr.strip().count("\n") == 0 and "not valid YAML" in p.stderr


def test_the_catalog_count_beats_the_size_in_a_logged_name(tmp_path: Path) -> None:
    # holdout r19: "17B-16E" names Llama 4 Scout's active parameters; the catalog knows all of them
    log = tmp_path / "server.log"
    log.write_text("python3 -m sglang.launch_server --model-path meta-llama/Llama-4-Scout-17B-16E-Instruct --tp 8\n"
                   "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB.\n")
    facts = FactSet(diagnose(DiagnoseOptions(logs=[str(log)])).facts)
    assert facts.value("model.params") > 100e9
    assert facts.get("model.params").origin is Origin.CATALOG



def test_cmd_text_that_starts_with_at_is_not_a_file_name(tmp_path: Path) -> None:
    # holdout r42: a Ray Serve deployment pasted as the launch context begins with a decorator
    from oomdoctor.inputs import read_command_args

    code = '@serve.deployment(ray_actor_options={"num_gpus": 0.4}); AsyncEngineArgs(gpu_memory_utilization=0.4, max_model_len=128)'
    assert read_command_args([code]) == [code]
    long_code = "@serve.deployment(" + ", ".join(f"arg{i}={i}" for i in range(200)) + ")"  # past any file name's length
    assert read_command_args([long_code]) == [long_code]
    p = subprocess.run([sys.executable, "-m", "oomdoctor", "diagnose", str(ROOT / "examples" / "vllm-kv-cache.log"), "--format", "json",
                        "--cmd", code], capture_output=True, text=True)
    assert p.returncode == 1, p.stderr
    # a file name that does not exist is still an error of one line
    missing = subprocess.run([sys.executable, "-m", "oomdoctor", "diagnose", str(ROOT / "examples" / "vllm-kv-cache.log"),
                              "--cmd", f"@{tmp_path / 'launch.sh'}"], capture_output=True, text=True)
    assert missing.returncode == 2 and "--cmd file not found" in missing.stderr and missing.stderr.strip().count("\n") == 0


def test_flags_engines_share_are_read_knob_by_knob() -> None:
    # Meta's reference scripts take TensorRT-LLM's spellings; TGI and LMDeploy read only --max_batch_size,
    # alike: each knob every reader agrees on is kept
    from oomdoctor.launch import shared_flag_facts, split

    got = {f.key: f.value for f in shared_flag_facts(split(
        "torchrun --nproc_per_node 1 example_text_completion.py --ckpt_dir llama-2-7b/ --max_seq_len 128 --max_batch_size 4"))}
    assert got == {"knob.max_model_len": 128, "knob.max_num_seqs": 4}


def test_a_context_whose_cache_the_weights_leave_no_room_for_is_the_kv_account(tmp_path: Path) -> None:
    """The source articles' second step, from the command, the card and the catalog alone: a 14B Q4_K_M (8.4 GiB) fits a
    12 GB card, a 32K context's f16 cache (6 GiB) does not fit the 3.4 GiB it leaves; a 4K context's does."""
    log = tmp_path / "server.log"
    log.write_text("CUDA error: out of memory\n  current device: 0, in function ggml_backend_cuda_buffer_type_alloc_buffer\n")
    cmd = "llama-server -m qwen2.5-14b-instruct-q4_k_m.gguf -ngl 99 -c {}"
    long = diagnose(DiagnoseOptions(logs=[str(log)], commands=[cmd.format(32768)], gpu="RTX 3060 12GB"))
    assert long.culprit.value == "kv_cache" and long.findings[0].rule_id == "kv-context-over-what-weights-leave"
    assert long.suggestions[0].knob == "max_model_len" and long.suggestions[0].value < 32768
    short = diagnose(DiagnoseOptions(logs=[str(log)], commands=[cmd.format(4096)], gpu="RTX 3060 12GB"))
    assert "kv-context-over-what-weights-leave" not in [f.rule_id for f in short.findings]
