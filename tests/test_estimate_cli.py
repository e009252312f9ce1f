"""`oomdoctor estimate` end to end, as the scorer runs it (a subprocess)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "fixtures" / "estimates"
LLAMA3 = str(CASES / "vllm-10511-llama3-8b-tp1" / "config.json")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "oomdoctor", "estimate", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)


def test_json_per_gpu_figures_and_ledger() -> None:
    p = run("--config", LLAMA3, "--framework", "vllm", "--dtype", "bfloat16", "--tensor-parallel-size", "2",
            "--max-model-len", "8192", "--gpu-memory-gib", "79.22", "--gpu-memory-utilization", "0.9",
            "--format", "json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["weights_bytes"] == pytest.approx(8_031_588_844, rel=0.03)
    assert out["kv_bytes_per_token"] == 65536
    assert isinstance(out["kv_tokens"], int) and out["kv_tokens"] == pytest.approx(966164, rel=0.05)
    assert set(out["ledger"]) == {"weights", "kv_cache", "activations", "framework", "free", "capacity"}
    assert out["ledger"]["capacity"] == {"bytes": int(79.22 * 2**30), "source": "given"}
    assert out["ledger"]["weights"]["source"] == "estimate"
    assert out["fit"]["fits"] is True


def test_json_without_a_card_has_no_capacity() -> None:
    p = run("--config", LLAMA3, "--format", "json")
    out = json.loads(p.stdout)
    assert out["kv_tokens"] is None and out["ledger"]["capacity"]["bytes"] is None
    assert "fit" not in out


def test_text_output_and_memory_map() -> None:
    p = run("--config", LLAMA3, "--gpu-memory-gib", "24", "--max-model-len", "8192", "--table")
    assert p.returncode == 0, p.stderr
    for word in ("weights", "kv_cache", "activations", "framework", "free", "capacity", "card", "memory map"):
        assert word in p.stdout
    j = json.loads(run("--config", LLAMA3, "--gpu-memory-gib", "24", "--table", "--format", "json").stdout)
    assert j["table"]["contexts"][0] == 1024 and len(j["table"]["rows"]) == len(j["table"]["concurrencies"])


def test_directory_and_gguf_type(tmp_path: Path) -> None:
    gemma = CASES / "ollama-790-gemma-7b-2k-partial"
    p = run("--config", str(gemma), "--framework", "ollama", "--quantization", "Q4_0", "--kv-cache-dtype", "f16",
            "--max-model-len", "2048", "--format", "json")
    out = json.loads(p.stdout)
    assert out["kv_bytes_per_token"] == 458752 and out["kv_tokens"] == 2048
    assert 4.5 < out["bits_per_weight"] < 4.8


@pytest.mark.parametrize("args,message", [
    (["--config", "/nonexistent/config.json"], "no such file"),
    (["--config", LLAMA3, "--framework", "vllmx"], "unknown framework"),
    (["--config", LLAMA3, "--dtype", "int3"], "unknown dtype"),
    (["--config", LLAMA3, "--quantization", "q9_magic"], "unknown quantization"),
    (["--config", LLAMA3, "--kv-cache-dtype", "fp7"], "unknown KV-cache dtype"),
    (["--config", LLAMA3, "--gpu-memory-utilization", "1.5"], "gpu_memory_utilization"),
    (["--config", LLAMA3, "--format", "yaml"], "unknown format"),
])
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    p = run(*args)
    assert p.returncode == 2
    assert "Traceback" not in p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("oomdoctor: error:") and message in lines[0]


def test_not_json_and_not_a_config(tmp_path: Path) -> None:
    bad = tmp_path / "config.json"
    bad.write_text("{oops")
    p = run("--config", str(bad))
    assert p.returncode == 2 and "not JSON" in p.stderr and "Traceback" not in p.stderr
    bad.write_text('{"name": "x"}')
    p = run("--config", str(bad))
    assert p.returncode == 2 and "not a model config" in p.stderr


def test_command_module_imports_stay_light() -> None:
    code = ("import sys, oomdoctor.cli.estimate, oomdoctor.memory; "
            "print([m for m in ('gguf', 'numpy') if m in sys.modules])")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert p.stdout.strip() == "[]"


def test_gguf_file_as_config(tmp_path: Path) -> None:
    from test_memory_gguf import write_tiny_gguf

    path = tmp_path / "tiny.gguf"
    sizes = write_tiny_gguf(path)
    p = run("--config", str(path), "--framework", "llamacpp", "--max-model-len", "256", "--format", "json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["weights_bytes"] == sizes["q8_0"] + sizes["f32"]
    assert out["ledger"]["weights"]["source"] == "given"
    assert out["model"]["gguf_file_type"] == "Q8_0"


def _weights(*args: str) -> int:
    p = run(*args, "--format", "json")
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)["weights_bytes"]


def test_weights_kept_in_cpu_ram_leave_the_gpu() -> None:
    # llama.cpp --n-cpu-moe N keeps the experts of the first N layers on the CPU: Qwen3-30B-A3B's 128 experts are
    # about 94% of its weights, so all 48 layers' experts leave about a sixteenth on the card, half of them about half
    moe = ("--model", "Qwen/Qwen3-30B-A3B", "--framework", "llamacpp", "--quantization", "Q4_K_M")
    whole, half, every = _weights(*moe), _weights(*moe, "--n-cpu-moe", "24"), _weights(*moe, "--n-cpu-moe", "999")
    assert every == pytest.approx(whole * 0.065, rel=0.25)
    assert half == pytest.approx((whole + every) / 2, rel=0.05)
    # a dense model has no experts to keep back
    dense = ("--model", "Qwen/Qwen2.5-7B-Instruct", "--framework", "llamacpp", "--quantization", "Q4_K_M")
    assert _weights(*dense, "--n-cpu-moe", "10") == _weights(*dense)
    # vLLM's --cpu-offload-gb is GiB per GPU
    vllm = ("--config", LLAMA3, "--framework", "vllm", "--dtype", "bfloat16")
    assert _weights(*vllm) - _weights(*vllm, "--cpu-offload-gb", "4") == 4 * 2**30
