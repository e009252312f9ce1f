"""Real GPU failures recorded on an NVIDIA H200 (fixtures/gpu/h200, made by fixtures/gpu/record.sh from
the scenarios beside it): PyTorch 2.11 and transformers 5.17 failing for each account, the NVML probe
with another process on the card, `oomdoctor watch` recording a process that grows, and the rerun loop
replayed through what the H200 printed at each setting it tried."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from oomdoctor.gpus import parse_card
from oomdoctor.probes import load_snapshot
from oomdoctor.rerun import KnobMapping, RerunOptions, confirm_command

ROOT = Path(__file__).resolve().parent.parent
H200 = ROOT / "fixtures" / "gpu" / "h200"
GiB = 1 << 30


def diagnose(*args: str) -> dict:
    env = {**os.environ, "NO_COLOR": "1"}
    done = subprocess.run([sys.executable, "-m", "oomdoctor", "diagnose", *args, "--format", "json"],
                          capture_output=True, text=True, timeout=120, cwd=ROOT, env=env)
    assert done.returncode == 1, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize(("log", "account", "phase", "knob"), [
    # a 70B-shaped model built in float32: the resident set is the card, the failing request one layer's matrix
    ("fp32-load", "weights", "load_weights", "dtype"),
    # eager attention materialising 64 x 16 heads x 8192^2 scores: a 128 GiB request on a card with 115 GiB free
    ("eager-prefill", "activations", "prefill", "attention_backend"),
    # transformers 5's static cache allocated layer by layer at the first update (cache_utils lazy_initialization)
    ("static-cache", "kv_cache", "kv_alloc", "max_model_len"),
    # 56.73 GiB reserved but unallocated, stranded in split 1 GiB blocks, against a 4 GiB request
    ("fragment", "framework", None, "expandable_segments"),
    # another process (PyTorch names it: 'Process 772 has 119.79 GiB memory in use') holds 86% of the card
    ("other-process", "framework", "prefill", "free_gpu"),
])
def test_real_h200_failure_names_its_account(log: str, account: str, phase: str | None, knob: str) -> None:
    report = diagnose("--log", str(H200 / f"{log}.log"))
    assert report["culprit"] == account
    assert report["phase"] == phase
    assert knob in [s["knob"] for s in report["suggestions"][:3]]


def test_probe_snapshot_names_the_process_holding_the_card() -> None:
    report = diagnose("--log", str(H200 / "other-process.log"), "--snapshot", str(H200 / "probe-other-process.json"))
    assert report["culprit"] == "framework"
    assert "pid 772" in report["summary"]
    probe = load_snapshot(H200 / "probe-other-process.json")
    (device,) = probe.gpu.devices
    (holder,) = device.processes
    assert (holder.pid, holder.command) == (772, "python3 holder.py --leave-gib 20")
    assert 119 * GiB < holder.used_bytes < 120 * GiB


def test_card_table_matches_the_measured_h200() -> None:
    idle = load_snapshot(H200 / "probe-idle.json")
    (device,) = idle.gpu.devices
    assert device.name == "NVIDIA H200"
    assert device.total_bytes == 143771 * (1 << 20)  # NVML's total is nvidia-smi's MiB figure
    card = parse_card("H200")
    assert card is not None and card.name == device.name
    # the table holds the capacity CUDA reports (PyTorch's 'total capacity of 139.80 GiB'), not NVML's
    assert abs(card.capacity_bytes - 139.80 * GiB) < 0.01 * GiB
    assert card.capacity_bytes < device.total_bytes


def test_watch_recording_of_a_growing_process_reads_as_growth() -> None:
    done = subprocess.run([sys.executable, "-m", "oomdoctor", "diagnose", "--log", str(H200 / "grow.log"),
                           "--timeline", str(H200 / "grow.jsonl"), "--format", "json"],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    report = json.loads(done.stdout)
    assert done.returncode == 0  # the process exited cleanly: pressure, not a failure
    assert [p["account"] for p in report["pressure"]] == ["framework"]
    assert "GPU memory grew by 24.51 GiB" in report["summary"]  # the rise the samples show (0 -> 24.51 GiB)


REPLAY = str(ROOT / "fixtures" / "gpu" / "replay.py")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="process groups")
def test_batch_search_follows_the_h200_runs(tmp_path: Path) -> None:
    # Each run prints what the same batch size printed on the H200 (fixtures/gpu/h200/confirm/):
    # 64, 32, 16, 12 and 10 ran out in the eager score matrix, 8 and 7 finished.
    options = RerunOptions(workdir=tmp_path, timeout_s=60, grace_s=1, max_tries=6,
                           knob_map=(KnobMapping.parse("batch_size=--batch-size"),))
    report = confirm_command([sys.executable, REPLAY, "eager-prefill", "--batch-size", "64"], dict(os.environ), options)
    assert report.culprit.value == "activations"
    rerun = report.rerun
    assert rerun is not None
    assert [(a["value"], a["result"]) for a in rerun["attempts"]] == [
        (32, "still_oom"), (16, "still_oom"), (8, "confirmed"), (12, "still_oom"), (10, "still_oom"), (7, "confirmed")]
    assert rerun["result"] == "confirmed" and rerun["fix"]["value"] == 7


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="process groups")
def test_fragmentation_fix_confirmed_as_on_the_h200(tmp_path: Path) -> None:
    options = RerunOptions(workdir=tmp_path, timeout_s=60, grace_s=1, max_tries=3)
    report = confirm_command([sys.executable, REPLAY, "fragment"], dict(os.environ), options)
    rerun = report.rerun
    assert report.culprit.value == "framework" and rerun is not None
    assert [(a["knob"], a["result"]) for a in rerun["attempts"]] == [("expandable_segments", "confirmed")]
    assert rerun["fix"]["env"] == {"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True"}
