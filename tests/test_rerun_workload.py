"""oomdoctor.workload: real child processes — ready markers, exit codes, timeouts, and that
nothing is left running (process group, a worker that left the group, a leader that
ignores SIGTERM, oomdoctor itself interrupted)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from oomdoctor import workload
from oomdoctor.errors import RerunError
from oomdoctor.workload import Outcome, RunSpec

ROOT = Path(__file__).resolve().parent.parent
FAKE = str(ROOT / "fixtures" / "rerun" / "fake_server.py")
MARKERS = workload.READY_MARKERS["vllm"]
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="process groups and /proc")


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ", 1)[1][0] != "Z"
    except FileNotFoundError:
        return False


def wait_dead(pids: list[int], seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(alive(p) for p in pids):
            return True
        time.sleep(0.05)
    return False


def pids_of(path: Path) -> list[int]:
    for _ in range(100):
        if path.exists() and path.read_text().endswith("\n"):
            return [int(x) for x in path.read_text().split()]
        time.sleep(0.05)
    raise AssertionError(f"{path} was not written")


def spec(tmp_path: Path, *args: str, **kw: object) -> RunSpec:
    return RunSpec(argv=(sys.executable, *args), env=dict(os.environ), log_path=tmp_path / "run.log", **kw)  # type: ignore[arg-type]


def test_batch_exit_zero_and_tee(tmp_path: Path) -> None:
    lines: list[str] = []
    res = workload.run(spec(tmp_path, "-c", "import time; print('hello'); print('world'); time.sleep(0.3)"),
                       on_line=lines.append)
    assert res.outcome is Outcome.EXITED and res.exit_code == 0
    assert (tmp_path / "run.log").read_text() == "hello\nworld\n"
    assert lines == ["hello", "world"]
    assert res.peak_rss_bytes and res.peak_rss_bytes > 1 << 20  # a Python interpreter's resident size


def test_nonzero_exit(tmp_path: Path) -> None:
    res = workload.run(spec(tmp_path, "-c", "import sys; print('boom', file=sys.stderr); sys.exit(3)"))
    assert res.outcome is Outcome.EXITED and res.exit_code == 3
    assert "boom" in (tmp_path / "run.log").read_text()


def test_ready_marker_stops_server_and_its_worker(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    res = workload.run(spec(tmp_path, FAKE, "--worker", "--pids", str(pidfile), ready_markers=MARKERS, grace_s=2))
    assert res.outcome is Outcome.READY and res.exit_code is None
    assert res.ready_line == "INFO:     Application startup complete."
    pids = pids_of(pidfile)
    assert len(pids) == 2 and wait_dead(pids)  # the worker ignores SIGTERM: SIGKILL of the group ends it


def test_worker_that_left_the_group_is_killed(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    res = workload.run(spec(tmp_path, FAKE, "--worker-setsid", "--pids", str(pidfile), ready_markers=MARKERS, grace_s=1))
    assert res.outcome is Outcome.READY
    assert wait_dead(pids_of(pidfile))


def test_leader_ignoring_sigterm_gets_sigkill_after_grace(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    t0 = time.monotonic()
    res = workload.run(spec(tmp_path, FAKE, "--ignore-term", "--pids", str(pidfile), ready_markers=MARKERS, grace_s=0.5))
    assert res.outcome is Outcome.READY
    assert wait_dead(pids_of(pidfile))
    assert time.monotonic() - t0 < 10


def test_timeout_kills_the_tree(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    res = workload.run(spec(tmp_path, FAKE, "--hang", "--worker", "--pids", str(pidfile), ready_markers=MARKERS,
                            timeout_s=1.5, grace_s=0.5))
    assert res.outcome is Outcome.TIMEOUT and 1.4 < res.duration_s < 5
    assert wait_dead(pids_of(pidfile))


def test_failure_after_ready_within_settle(tmp_path: Path) -> None:
    res = workload.run(spec(tmp_path, FAKE, "--die-after-ready", ready_markers=MARKERS, settle_s=5))
    assert res.outcome is Outcome.EXITED and res.exit_code == 3 and res.failed_after_ready


def test_health_url(tmp_path: Path) -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = textwrap.dedent(f"""
        import http.server, time
        time.sleep(0.5)
        class H(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200 if self.path == '/health' else 404); self.end_headers()
            def log_message(self, *a):
                pass
        http.server.HTTPServer(('127.0.0.1', {port}), H).serve_forever()
    """)
    res = workload.run(spec(tmp_path, "-c", server, health_url=f"http://127.0.0.1:{port}/health", timeout_s=20, grace_s=1))
    assert res.outcome is Outcome.READY
    assert res.ready_line == f"GET http://127.0.0.1:{port}/health -> 200"


def test_memory_limit(tmp_path: Path) -> None:
    code = "b = bytearray(1 << 31); print('allocated')"
    res = workload.run(spec(tmp_path, "-c", code, memory_limit_bytes=1 << 30))
    assert res.exit_code == 1
    assert "MemoryError" in (tmp_path / "run.log").read_text()


def test_missing_program(tmp_path: Path) -> None:
    with pytest.raises(RerunError, match="cannot start"):
        workload.run(RunSpec(("/nonexistent/oomdoctor-test-binary",), {}, tmp_path / "x.log"))


def test_server_detection() -> None:
    assert workload.is_server("vllm", ["vllm", "serve"], None)
    assert workload.is_server("llamacpp", ["/opt/llama-server", "-m", "x"], None)
    assert not workload.is_server("llamacpp", ["llama-cli", "-m", "x"], None)
    assert not workload.is_server(None, ["python", "x.py"], None)
    assert workload.is_server(None, ["python", "x.py"], "http://127.0.0.1:1/health")
    assert workload.ready_markers("sglang", ["python", "-m", "sglang.launch_server"]) == ("The server is fired up and ready to roll!",)
    assert workload.ready_markers(None, ["x"], ["up"]) == ("up",)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_oomdoctor_interrupted_leaves_nothing_behind(tmp_path: Path, sig: int) -> None:
    """oomdoctor itself gets SIGTERM/SIGINT while a workload runs: the workload's tree is stopped."""
    pidfile = tmp_path / "pids"
    # (a shell that starts a job in the background without job control sets SIGINT to ignored, and the driver would
    # inherit that: it takes Python's own handler back, as an interactive oomdoctor has it)
    driver = textwrap.dedent(f"""
        import os, signal, sys
        from pathlib import Path
        from oomdoctor import workload
        signal.signal(signal.SIGINT, signal.default_int_handler)
        spec = workload.RunSpec(({sys.executable!r}, {FAKE!r}, '--hang', '--worker', '--pids', {str(pidfile)!r}),
                                dict(os.environ), Path({str(tmp_path / 'run.log')!r}), timeout_s=60, grace_s=1)
        try:
            with workload.signals_as_exceptions():
                workload.run(spec)
        except (KeyboardInterrupt, workload.Interrupted):
            sys.exit(130)
    """)
    proc = subprocess.Popen([sys.executable, "-c", driver])
    try:
        pids = pids_of(pidfile)
        assert all(alive(p) for p in pids)
        proc.send_signal(sig)
        assert proc.wait(timeout=15) == 130
        assert wait_dead(pids)
    finally:
        if proc.poll() is None:
            proc.kill()
