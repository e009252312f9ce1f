"""`oomdoctor confirm` and `oomdoctor sweep` as a user runs them (`python -m oomdoctor`, real
subprocesses): exit codes, the command after `--`, stdout/stderr split, formats."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from oomdoctor.cli.rerun import parse_size
from oomdoctor.errors import UsageError
from oomdoctor.status import ExitStatus

ROOT = Path(__file__).resolve().parent.parent
FAKE = str(ROOT / "fixtures" / "rerun" / "fake_server.py")
ALLOC = str(ROOT / "fixtures" / "rerun" / "alloc_bytes.py")
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="process groups, RLIMIT_AS")


def oomdoctor(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, NO_COLOR="1", COLUMNS="120")
    return subprocess.run([sys.executable, "-m", "oomdoctor", *args], capture_output=True, text=True, env=env, timeout=300)


def test_confirm_json_exit_0(tmp_path: Path) -> None:
    p = oomdoctor("confirm", "--framework", "vllm", "--format", "json", "--grace", "2", "--workdir", str(tmp_path),
                  "--", sys.executable, FAKE, "--max-model-len=9000", "--capacity", "4000")
    assert p.returncode == ExitStatus.OK, p.stderr
    data = json.loads(p.stdout)
    assert data["culprit"] == "kv_cache" and data["rerun"]["result"] == "confirmed"
    assert data["rerun"]["fix"]["argv"][2] == "--max-model-len=3600"  # the user's `--x=y` form, rewritten in place
    assert "oomdoctor: run 1 (max_model_len=4000): confirmed" in p.stderr
    jsonschema = pytest.importorskip("jsonschema")
    from oomdoctor.cli.schema import read_schema

    jsonschema.validate(data, json.loads(read_schema()))


def test_confirm_text_and_exit_4(tmp_path: Path) -> None:
    p = oomdoctor("confirm", "--framework", "vllm", "--max-tries", "1", "--grace", "2", "--workdir", str(tmp_path),
                  "--", sys.executable, FAKE, "--need-eager")
    assert p.returncode == ExitStatus.STILL_FAILING, p.stderr
    assert p.stdout.startswith("rerun: still_oom")
    assert "gpu_memory_utilization=0.79" in p.stdout and len(list(tmp_path.glob("attempt-*.log"))) == 2


def test_confirm_stream_copies_output_to_stderr(tmp_path: Path) -> None:
    p = oomdoctor("confirm", "--stream", "--workdir", str(tmp_path), "--", sys.executable, "-c", "print('hello from the job')")
    assert p.returncode == 0
    assert "hello from the job" in p.stderr and "hello from the job" not in p.stdout
    assert "nothing to change" in p.stdout


def test_confirm_without_command_is_a_usage_error() -> None:
    p = oomdoctor("confirm", "--max-tries", "2")
    assert p.returncode == ExitStatus.USAGE and "no command given" in p.stderr


def test_confirm_bad_knob_mapping() -> None:
    p = oomdoctor("confirm", "--knob", "batch_size", "--", sys.executable, "-c", "pass")
    assert p.returncode == ExitStatus.USAGE and "NAME=--flag" in p.stderr


def test_sweep_text_and_json(tmp_path: Path) -> None:
    args = ["sweep", "--knob", "batch_size=--batch-size=16,64,512", "--mem-limit", "256M", "--workdir", str(tmp_path),
            "--", sys.executable, ALLOC]
    p = oomdoctor(*args)
    assert p.returncode == 0, p.stderr
    assert "Memory map" in p.stdout and "OOM" in p.stdout and "batch_size=64" in p.stdout
    assert "oomdoctor: batch_size=512: OOM" in p.stderr
    p = oomdoctor(*args[:1], "--format", "json", *args[1:])
    data = json.loads(p.stdout)
    assert [pt["fit"] for pt in data["points"]] == ["fit", "fit", "no_fit"]


def test_sweep_start_does_not_fit_exit_4(tmp_path: Path) -> None:
    p = oomdoctor("sweep", "--knob", "batch_size=512,1024", "--flag", "batch_size=--batch-size", "--mem-limit", "256M",
                  "--workdir", str(tmp_path), "--", sys.executable, ALLOC)
    assert p.returncode == ExitStatus.STILL_FAILING


def test_sweep_needs_a_knob() -> None:
    p = oomdoctor("sweep", "--", sys.executable, "-c", "pass")
    assert p.returncode == ExitStatus.USAGE and "nothing to sweep" in p.stderr


@pytest.mark.parametrize("text,n", [("2G", 2 << 30), ("512M", 512 << 20), ("512MiB", 512 << 20), ("1.5g", 3 << 29), ("4096", 4096)])
def test_parse_size(text: str, n: int) -> None:
    assert parse_size(text) == n


def test_parse_size_bad() -> None:
    with pytest.raises(UsageError):
        parse_size("lots")
