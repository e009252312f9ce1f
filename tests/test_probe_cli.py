"""`oomdoctor probe`: exit codes, JSON that matches this machine, text, --save."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from oomdoctor.cli import probe as probe_cli
from oomdoctor.errors import InputError
from oomdoctor.probes import load_snapshot
from oomdoctor.status import ExitStatus

ROOT = Path(__file__).resolve().parent.parent
linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def make_app() -> typer.Typer:
    app = typer.Typer()

    @app.callback()
    def _root() -> None:  # keeps `probe` a subcommand, as in the real app
        pass

    probe_cli.register(app)
    return app


def run(*args: str) -> tuple[int, str, str, BaseException | None]:
    result = CliRunner().invoke(make_app(), ["probe", *args])
    return result.exit_code, result.stdout, result.stderr, result.exception


def mem_total() -> int:
    line = next(x for x in Path("/proc/meminfo").read_text().splitlines() if x.startswith("MemTotal:"))
    return int(line.split()[1]) * 1024


@linux
def test_json_reports_this_machine() -> None:
    code, out, _, exc = run("--format", "json")
    assert code == 0, exc
    data = json.loads(out)
    assert data["version"] == 1 and data["server"] is None
    assert data["host"]["ram"]["total_bytes"] == mem_total()
    st = os.statvfs("/dev/shm")
    assert data["host"]["shm"]["total_bytes"] == st.f_blocks * st.f_frsize
    cg = data["host"]["cgroup"]
    assert "skipped" in cg or ("limit_bytes" in cg and cg["limit_raw"] is not None)
    gpu = data["gpu"]
    if "skipped" in gpu:
        assert len(gpu["skipped"]) > 20  # a sentence, not a code
    else:
        assert gpu["devices"]


@linux
def test_text_output(tmp_path: Path) -> None:
    code, out, err, exc = run("--save", str(tmp_path / "s.json"))
    assert code == 0, exc
    assert "Host / container" in out and "RAM" in out and "/dev/shm" in out
    assert "GPU" in out and "Server    no --pid given" in out
    assert f"snapshot saved to {tmp_path / 's.json'}" in err
    snap = load_snapshot(tmp_path / "s.json")
    assert getattr(snap.host.ram, "total_bytes", None) == mem_total()


@linux
def test_pid_text_shows_knobs() -> None:
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)", "vllm", "serve", "m",
                              "--max-model-len", "4096"])
    try:
        for _ in range(200):
            if b"vllm" in Path(f"/proc/{child.pid}/cmdline").read_bytes():
                break
            time.sleep(0.05)
        code, out, _, exc = run("--pid", str(child.pid))
    finally:
        child.kill()
        child.wait()
    assert code == 0, exc
    assert f"pid {child.pid} (vllm" in out
    assert "max_model_len=4096" in out


def test_bad_pid_raises_input_error() -> None:
    code, _, _, exc = run("--pid", "4194999")
    assert isinstance(exc, InputError) and exc.status is ExitStatus.USAGE
    assert "no process with pid 4194999" in str(exc)


def test_bad_format_is_a_usage_error() -> None:
    code, _, _, _ = run("--format", "yaml")
    assert code == 2


@pytest.mark.skipif(
    any(importlib.util.find_spec(f"oomdoctor.cli.{m}") is None for m in ("diagnose", "rules")),
    reason="the full `oomdoctor` app still lacks sibling command modules",
)
@linux
def test_real_entry_point_exit_codes() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    ok = subprocess.run([sys.executable, "-m", "oomdoctor", "probe", "--format", "json"],
                        capture_output=True, text=True, env=env, timeout=60)
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["host"]["ram"]["total_bytes"] == mem_total()
    bad = subprocess.run([sys.executable, "-m", "oomdoctor", "probe", "--pid", "4194999"],
                         capture_output=True, text=True, env=env, timeout=60)
    assert bad.returncode == 2
    assert bad.stderr.count("\n") == 1 and bad.stderr.startswith("oomdoctor: error: no process with pid 4194999")
