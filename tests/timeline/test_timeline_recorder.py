"""`oomdoctor watch`: a real recorder process sampling a real process (RSS, cgroup) and a live
metrics endpoint into a rotating file; the recording diagnoses like a log."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from oomdoctor.timeline.recording import RotatingWriter, files, read_timeline

ROOT = Path(__file__).resolve().parents[2]


def oomdoctor(*args: str, env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "oomdoctor", *args], capture_output=True, text=True, cwd=ROOT, timeout=timeout,
                          env={**os.environ, **(env or {})})


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_watch_records_a_saturating_server_and_diagnose_reads_it(tmp_path: Path, exporter) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "timeline.jsonl"
    target = subprocess.Popen([sys.executable, "-c", "import time; x = bytearray(64 << 20); time.sleep(60)"])
    try:
        def saturate() -> None:
            time.sleep(1.2)
            for i in range(40):
                exporter.set(kv=1.0, running=12.0, waiting=12.0, capacity=12.0, preemptions=float(i))
                exporter.prompts = [("100", 0.0), ("200", 2.0 * i), ("500", 2.0 * i), ("1000", 20.0 * i), ("2000", 21.0 * i), ("+Inf", 21.0 * i)]
                time.sleep(0.1)

        threading.Thread(target=saturate, daemon=True).start()
        done = oomdoctor("watch", "--pid", str(target.pid), "--url", exporter.url, "--out", str(out), "--interval", "0.2s", "--duration", "4s")
    finally:
        target.kill()
        target.wait()
    assert done.returncode == 0, done.stderr
    assert f"samples in {out}" in done.stderr
    recs = records(out)
    header, samples = recs[0], [r for r in recs if "t" in r]
    assert header["oomdoctor_timeline"] == 1 and header["pid"] == target.pid and header["url"] == exporter.url
    assert len(samples) >= 10
    assert all(r["rss_bytes"] > 64 << 20 for r in samples)  # the watched process holds its 64 MiB
    assert samples[0]["kv_usage"] == 0.1 and samples[-1]["kv_usage"] == 1.0
    assert samples[-1]["waiting_capacity"] == 12.0 and samples[-1]["static"]["kv_tokens"] == 960 * 16
    if any("NVML unavailable" in n for r in recs if "oomdoctor_timeline" in r for n in r.get("notes", [])):
        assert "gpu_used_bytes" not in samples[0]
    else:
        assert samples[0]["gpu_total_bytes"] > 0

    report = json.loads(oomdoctor("diagnose", "--timeline", str(out), "--format", "json").stdout)
    assert report["framework"] == "vllm"
    assert report["memory_failure"] is False
    assert [p["account"] for p in report["pressure"]] == ["kv_cache"]
    assert report["pressure"][0]["since"].endswith("Z")
    facts = {f["key"]: f["value"] for f in report["facts"]}
    assert facts["mem.kv_tokens"] == 15360 and facts["knob.gpu_memory_utilization"] == 0.9
    assert facts["series.prompt_tokens_p99"] in range(1900, 2001)
    assert report["suggestions"][0]["knob"] == "max_num_seqs"


def test_watch_stops_when_the_process_exits(tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    target = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(1.0)"])
    t = time.monotonic()
    done = oomdoctor("watch", "--pid", str(target.pid), "--out", str(out), "--interval", "0.2s")
    target.wait()
    assert done.returncode == 0, done.stderr
    assert time.monotonic() - t < 30
    assert len([r for r in records(out) if "t" in r]) >= 2


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="POSIX signals")
def test_watch_stops_cleanly_on_sigterm(tmp_path: Path) -> None:
    # a supervisor or a pod's shutdown stops a sidecar with SIGTERM: the recording is kept and the exit is clean
    out = tmp_path / "t.jsonl"
    target = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    watch = subprocess.Popen([sys.executable, "-m", "oomdoctor", "watch", "--pid", str(target.pid), "--out", str(out),
                              "--interval", "0.2s"], cwd=ROOT, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and len([r for r in records(out) if "t" in r] if out.exists() else []) < 2:
            time.sleep(0.1)
        watch.send_signal(signal.SIGTERM)
        _, err = watch.communicate(timeout=30)
    finally:
        target.kill()
        target.wait()
        if watch.poll() is None:
            watch.kill()
    assert watch.returncode == 0, err
    assert "stopped; the recording is in" in err
    assert len([r for r in records(out) if "t" in r]) >= 2


def test_metrics_token_from_the_environment(tmp_path: Path, exporter) -> None:  # type: ignore[no-untyped-def]
    exporter.token = "s3cret"
    out = tmp_path / "t.jsonl"
    ok = oomdoctor("watch", "--url", exporter.url, "--out", str(out), "--interval", "0.2s", "--duration", "0.5s",
                   env={"OOMDOCTOR_METRICS_TOKEN": "s3cret"})
    assert ok.returncode == 0
    assert any("kv_usage" in r for r in records(out))
    out2 = tmp_path / "t2.jsonl"
    refused = oomdoctor("watch", "--url", exporter.url, "--out", str(out2), "--interval", "0.2s", "--duration", "0.5s")
    assert refused.returncode == 0
    recs = records(out2)
    assert not any("kv_usage" in r for r in recs)
    assert any("401" in n for r in recs if "oomdoctor_timeline" in r for n in r["notes"])
    assert any("401" in w for w in read_timeline(str(out2)).warnings)


def test_rotation_keeps_the_newest_and_reads_back_in_order(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    w = RotatingWriter(path, max_bytes=4096, keep=2)
    w.write({"oomdoctor_timeline": 1, "pid": 1, "notes": []})
    for i in range(400):
        w.write({"ts": f"2025-01-01T00:00:{i % 60:02d}Z", "t": 1735689600.0 + i, "kv_usage": i / 400, "running": 1.0})
    w.close()
    assert [p.name for p in files(path)] == ["t.jsonl.2", "t.jsonl.1", "t.jsonl"]
    assert all(p.stat().st_size <= 4096 for p in files(path))
    assert records(path)[0].get("continued") is True  # each part says what it records
    result = read_timeline(str(path))
    kv = result.series.curves["kv_usage"]
    assert kv.last == pytest.approx(399 / 400) and kv.first < kv.last  # oldest part first


def test_a_line_cut_by_the_crash_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text('{"oomdoctor_timeline":1,"notes":[]}\n{"t":1.0,"kv_usage":0.5}\n{"t":2.0,"kv_us')
    result = read_timeline(str(path))
    assert result.series.curves["kv_usage"].n == 1


@pytest.mark.parametrize("args,message", [
    (["--out", "x.jsonl"], "watch needs --pid PID, --url"),
    (["--out", "x.jsonl", "--pid", "999999999"], "no process with pid 999999999"),
    (["--out", "x.jsonl", "--url", "localhost:8000/metrics"], "--url needs an http(s) URL"),
    (["--out", "x.jsonl", "--url", "http://127.0.0.1:9/metrics", "--interval", "fast"], "bad duration 'fast'"),
])
def test_watch_usage_errors(args: list[str], message: str, tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "oomdoctor", "watch", *args], capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert done.returncode == 2 and message in done.stderr, done.stderr
