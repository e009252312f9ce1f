"""`--pid`: a real child process's command line and environment become knob facts."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import pytest

from oomdoctor.errors import InputError
from oomdoctor.facts import FactSet, Origin
from oomdoctor.probes import Skipped, collect, snapshot_facts
from oomdoctor.probes.process import redact_argv
from oomdoctor.probes.settings import read_server
from oomdoctor.probes.snapshot import dumps

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/PID")

SPAWN_GRANDCHILD = (
    "import subprocess, sys, time; "
    "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(30)']); time.sleep(30)"
)


@pytest.fixture
def fake_server() -> Iterator[subprocess.Popen[bytes]]:
    argv = [
        sys.executable, "-c", SPAWN_GRANDCHILD,
        "vllm", "serve", "m", "--max-model-len", "4096", "--gpu-memory-utilization", "0.8",
        "--enforce-eager", "--api-key", "sk-live-abc123",
    ]
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin"),
        "HF_TOKEN": "hf_supersecretvalue",
        "VLLM_USE_V1": "1",
        "PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True",
        "CUDA_VISIBLE_DEVICES": "0",
        "UNRELATED": "x",
    }
    proc = subprocess.Popen(argv, env=env, start_new_session=True)
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:  # until exec'd and the worker child exists
            cmdline = Path(f"/proc/{proc.pid}/cmdline").read_bytes()
            children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
            if b"vllm" in cmdline and children:
                break
            time.sleep(0.05)
        yield proc
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # its own session: the child and grandchild only
        proc.wait()


def test_pid_settings_become_knob_facts(fake_server: subprocess.Popen[bytes]) -> None:
    snap = collect(fake_server.pid)
    server = snap.server
    assert server is not None and server.pid == fake_server.pid
    assert server.framework == "vllm"
    assert len(server.tree_pids) == 2 and server.tree_pids[0] == fake_server.pid  # the worker child too
    assert server.gpu_in_use is False  # no /dev/nvidia* open in either
    assert not isinstance(server.env, Skipped)
    assert server.env == {
        "HF_TOKEN": "***",
        "VLLM_USE_V1": "1",
        "PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True",
        "CUDA_VISIBLE_DEVICES": "0",
    }
    assert server.argv[-2:] == ("--api-key", "***")

    fs = FactSet(snapshot_facts(snap))
    assert fs.value("framework") == "vllm"
    assert fs.value("knob.max_model_len") == 4096
    assert fs.value("knob.gpu_memory_utilization") == 0.8
    assert fs.value("knob.enforce_eager") is True
    assert fs.value("knob.expandable_segments") is True
    knob = fs.get("knob.max_model_len")
    assert knob is not None and knob.origin is Origin.SETTINGS
    assert knob.evidence is not None and knob.evidence.source == f"probe:pid {fake_server.pid}"
    assert "--max-model-len 4096" in knob.evidence.text

    text = dumps(snap)
    assert "hf_supersecretvalue" not in text and "sk-live-abc123" not in text
    assert all("supersecret" not in (f.evidence.text if f.evidence else "") for f in fs)
    assert json.loads(text)["server"]["pid"] == fake_server.pid


def test_cgroup_is_the_servers(fake_server: subprocess.Popen[bytes]) -> None:
    theirs = collect(fake_server.pid).host.cgroup
    if isinstance(theirs, Skipped):
        pytest.skip(theirs.reason)
    line = next(
        (x for x in Path(f"/proc/{fake_server.pid}/cgroup").read_text().splitlines() if ":memory:" in x or x.startswith("0::")),
    )
    assert theirs.path.endswith(line.split(":", 2)[2].rstrip("/")) or os.path.ismount(theirs.path)


def test_missing_pid_is_an_input_error() -> None:
    with pytest.raises(InputError, match=r"^no process with pid 4194999 here"):
        read_server(4194999)
    with pytest.raises(InputError, match="positive"):
        read_server(0)


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["vllm", "serve", "m", "--api-key", "abc"], ["vllm", "serve", "m", "--api-key", "***"]),
        (["--hf-token=hf_x", "--max-num-batched-tokens", "8192"], ["--hf-token=***", "--max-num-batched-tokens", "8192"]),
        (["env", "HF_TOKEN=hf_x", "OMP_NUM_THREADS=4"], ["env", "HF_TOKEN=***", "OMP_NUM_THREADS=4"]),
        (["--kv-cache-dtype", "fp8", "--ssl-keyfile", "/k.pem"], ["--kv-cache-dtype", "fp8", "--ssl-keyfile", "/k.pem"]),
        (["--api-key", "--port", "8000"], ["--api-key", "--port", "8000"]),
    ],
)
def test_redact_argv(argv: list[str], expected: list[str]) -> None:
    assert list(redact_argv(argv)) == expected
