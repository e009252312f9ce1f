"""End to end: a real PyTorch job fails for memory on this machine, and `oomdoctor confirm`
finds and proves the fix.

fixtures/rerun/alloc_batch.py allocates `--batch-size` rows of 1 MiB of float32. Under an
address-space cap (RLIMIT_AS, `--mem-limit 2G`) a batch of 4096 fails inside PyTorch with
its own `DefaultCPUAllocator: can't allocate memory`; oomdoctor diagnoses host memory,
searches `--batch-size` (mapped with `--knob batch_size=--batch-size`), and confirms the
largest batch that runs, less 10% headroom. Needs the CPU build of PyTorch (the `test`
extra / .ci/run install it); skipped without it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch", reason="PyTorch (CPU build) is not installed: pip install torch==2.13.0")
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS, process groups")

ROOT = Path(__file__).resolve().parents[2]
JOB = str(ROOT / "fixtures" / "rerun" / "alloc_batch.py")


def oomdoctor(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, OMP_NUM_THREADS="1", NO_COLOR="1")  # one thread: a steady address-space footprint
    return subprocess.run([sys.executable, "-m", "oomdoctor", *args], capture_output=True, text=True, env=env, timeout=600)


def test_confirm_finds_the_batch_size_that_fits(tmp_path: Path) -> None:
    proc = oomdoctor("confirm", "--format", "json", "--knob", "batch_size=--batch-size", "--mem-limit", "2G",
                     "--max-tries", "8", "--timeout", "120", "--workdir", str(tmp_path),
                     "--", sys.executable, JOB, "--batch-size", "4096")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads(proc.stdout)
    # PyTorch's own messages under the job's own frames, no engine named: read as a PyTorch program of its own, and said so
    assert report["framework"] == "pytorch" and report["culprit"] == "host_memory"
    assert any("no engine named in the log" in w for w in report["warnings"])
    rr = report["rerun"]
    baseline = Path(rr["baseline"]["log"]).read_text()
    assert "DefaultCPUAllocator: can't allocate memory" in baseline  # PyTorch's own failure, not a stand-in
    assert rr["result"] == "confirmed"
    fix = rr["fix"]
    assert fix["knob"] == "batch_size" and 256 <= fix["value"] < 1536
    assert fix["argv"] == [sys.executable, JOB, "--batch-size", str(fix["value"])]
    last = rr["attempts"][-1]
    assert last["result"] == "confirmed" and last["value"] == fix["value"] and last["exit_code"] == 0
    assert f"batch_size={fix['value']}" in Path(last["log"]).read_text()
    failed = [a for a in rr["attempts"] if a["result"] == "still_oom"]
    assert failed and all("DefaultCPUAllocator" in Path(a["log"]).read_text() for a in failed)
    assert "run 1 (batch_size=2048): still_oom" in proc.stderr  # progress on stderr, the report on stdout


def test_sweep_maps_batch_size(tmp_path: Path) -> None:
    proc = oomdoctor("sweep", "--format", "json", "--knob", "batch_size=--batch-size=64,256,1024,4096",
                     "--mem-limit", "2G", "--timeout", "120", "--workdir", str(tmp_path), "--", sys.executable, JOB)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    data = json.loads(proc.stdout)
    fits = {p["settings"]["batch_size"]: p["fit"] for p in data["points"]}
    assert fits == {64: "fit", 256: "fit", 1024: "fit", 4096: "no_fit"}
    peaks = [p["rss_bytes"] for p in data["points"][:3]]
    assert peaks == sorted(peaks) and peaks[2] - peaks[0] > 900 << 20  # ~1 GiB more resident at 1024 rows
    assert data["largest_fit"] == {"batch_size": 1024}
