"""`oomdoctor run -- <command>`: a real child process is started, teed, recorded; when it fails the
folder holds the incident (Markdown + JSON with the launch command, the curve, the last lines)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

FAKE_SERVER = textwrap.dedent('''\
    import os, signal, sys, time
    mode = sys.argv[1]
    print("INFO 12-01 10:00:04 [api_server.py:1896] vLLM API server version 0.11.0", flush=True)
    print("INFO 12-01 10:00:04 [utils.py:233] non-default args: {'model': '/models/tiny', 'max_model_len': 2048, 'max_num_seqs': 32, 'api_key': 'sk-live-1234567890abcdef'}", flush=True)
    print("INFO 12-01 10:00:17 [kv_cache_utils.py:1087] CPU KV cache size: 15,360 tokens", flush=True)
    print("INFO:     Application startup complete.", flush=True)
    hold = bytearray(32 << 20)
    for i, u in enumerate([22.4, 48.9, 73.5, 96.8, 100.0, 100.0, 100.0, 100.0, 100.0]):
        print(f"INFO 12-01 10:01:{i * 5:02d} [loggers.py:127] Engine 000: Avg prompt throughput: 0.0 tokens/s, Avg generation "
              f"throughput: 9.9 tokens/s, Running: 12 reqs, Waiting: 12 reqs, CPU KV cache usage: {u:.1f}%, Prefix cache hit rate: 0.0%",
              flush=True)
        time.sleep(0.08)
    if mode == "oom":
        print("ERROR 12-01 10:02:00 [core.py:588] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 448.00 MiB. GPU 0 has "
              "a total capacity of 79.15 GiB of which 305.06 MiB is free.", file=sys.stderr, flush=True)
        sys.exit(1)
    if mode == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    print("INFO:     Shutting down", flush=True)
''')


@pytest.fixture
def fake(tmp_path: Path) -> Path:
    path = tmp_path / "fake_server.py"
    path.write_text(FAKE_SERVER)
    return path


def run(out: Path, *command: str, quiet: bool = False) -> subprocess.CompletedProcess[str]:
    args = [sys.executable, "-m", "oomdoctor", "run", "--out", str(out), "--interval", "0.1s", *(["-q"] if quiet else []), "--", *command]
    return subprocess.run(args, capture_output=True, text=True, cwd=ROOT, timeout=180)


def test_failed_server_leaves_the_incident(tmp_path: Path, fake: Path) -> None:
    out = tmp_path / "incident"
    done = run(out, sys.executable, str(fake), "oom")
    assert done.returncode == 1, done.stderr
    assert "Engine 000: Avg prompt throughput" in done.stdout  # teed to the terminal
    assert "the command failed (exit 1); incident in" in done.stderr
    names = sorted(p.name for p in out.iterdir())
    assert names == ["incident.json", "incident.ledger.svg", "incident.md", "incident.timeline.svg", "server.log", "timeline.jsonl"]
    log = (out / "server.log").read_text()
    assert "torch.OutOfMemoryError" in log and log.count("Engine 000") == 9  # stdout and stderr, in order
    report = json.loads((out / "incident.json").read_text())
    assert report["culprit"] == "kv_cache" and report["memory_failure"] is True
    assert [p["account"] for p in report["pressure"]] == ["kv_cache"]
    assert report["sources"][0]["path"].endswith("server.log") and report["sources"][1]["path"].endswith("timeline.jsonl")
    md = (out / "incident.md").read_text()
    assert "## Launch command" in md and str(fake) in md and "The server ended with exit status 1." in md
    assert "## Last 14 log lines" in md and "torch.OutOfMemoryError" in md.split("## Last")[1]
    assert "sk-live-1234567890abcdef" not in md and "sk-live-1234567890abcdef" not in (out / "incident.json").read_text()
    recs = [json.loads(line) for line in (out / "timeline.jsonl").read_text().splitlines()]
    assert recs[-1]["event"] == "exit" and recs[-1]["returncode"] == 1
    assert any(r.get("rss_bytes", 0) > 32 << 20 for r in recs)


def test_oom_killed_server(tmp_path: Path, fake: Path) -> None:
    out = tmp_path / "killed"
    done = run(out, sys.executable, str(fake), "kill", quiet=True)
    assert done.returncode == 137, done.stderr
    assert done.stdout == ""
    report = json.loads((out / "incident.json").read_text())
    assert report["culprit"] == "host_memory" and report["memory_failure"] is True
    assert "killed by signal 9 (SIGKILL)" in (out / "incident.md").read_text()
    facts = {(f["key"], f["value"]) for f in report["facts"]}
    assert ("oom.exit_signal", "SIGKILL") in facts


def test_clean_exit_writes_no_incident(tmp_path: Path, fake: Path) -> None:
    out = tmp_path / "clean"
    done = run(out, sys.executable, str(fake), "ok", quiet=True)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in out.iterdir()) == ["server.log", "timeline.jsonl"]


@pytest.mark.parametrize("command,message", [
    ([], "nothing to run"),
    (["/nonexistent/vllm-serve"], "cannot start '/nonexistent/vllm-serve'"),
])
def test_run_usage_errors(tmp_path: Path, command: list[str], message: str) -> None:
    done = run(tmp_path / "x", *command)
    assert done.returncode == 2 and message in done.stderr, done.stderr
