"""Run a user's workload command once: its own process group, a timeout, output teed to a log.

This is the only module that starts processes. It runs exactly the argv it is given (a list,
never a shell string), in a new session (`start_new_session=True`) so that the whole tree can
be signalled at once, with stdin closed. It watches the output for a ready marker (servers),
polls an optional health URL, samples the tree's resident memory, and stops everything it
started before returning: SIGTERM to the group, SIGKILL after a grace period, then any
descendant that left the group. The same clean-up runs when oomdoctor itself is interrupted
(SIGINT, or SIGTERM/SIGHUP turned into `Interrupted` while a run is in flight).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from types import FrameType
from typing import BinaryIO

from oomdoctor.errors import RerunError

# What a framework prints once it serves requests (checked against each output line).
READY_MARKERS: dict[str, tuple[str, ...]] = {
    "vllm": ("Application startup complete", "Uvicorn running on"),
    "sglang": ("The server is fired up and ready to roll!",),
    "tgi": ("Connected",),
    "llamacpp": ("server is listening",),
    "ollama": ("Listening on",),
    "lmdeploy": ("Uvicorn running on",),
    "tensorrt-llm": ("Uvicorn running on", "Application startup complete"),
}

# Frameworks that run as servers: with no ready marker seen, such a run is not confirmed by
# exiting. llama.cpp's llama-cli is a batch tool; `llama-server` is told apart by its argv.
SERVER_FRAMEWORKS = frozenset({"vllm", "sglang", "tgi", "ollama", "lmdeploy"})


class Interrupted(KeyboardInterrupt):
    """oomdoctor received SIGTERM/SIGHUP while a workload ran. A KeyboardInterrupt, like SIGINT's,
    so the CLI maps both to exit status 130."""

    def __init__(self, signum: int) -> None:
        super().__init__(f"interrupted by signal {signum}")
        self.signum = signum


class Outcome(str, Enum):
    READY = "ready"  # a ready marker was printed or the health URL answered 200
    EXITED = "exited"  # the command ended by itself (see exit_code)
    TIMEOUT = "timeout"  # neither within the time limit


@dataclass(frozen=True)
class RunSpec:
    argv: tuple[str, ...]
    env: Mapping[str, str]
    log_path: Path
    timeout_s: float = 600.0
    ready_markers: tuple[str, ...] = ()
    health_url: str | None = None
    settle_s: float = 0.0  # after ready, keep watching this long for a failure before stopping
    grace_s: float = 10.0  # SIGTERM -> SIGKILL
    memory_limit_bytes: int | None = None  # RLIMIT_AS of the child (CPU reproductions)
    cwd: str | None = None


@dataclass(frozen=True)
class RunResult:
    outcome: Outcome
    exit_code: int | None  # None while it was still running when stopped
    duration_s: float
    log_path: Path
    peak_rss_bytes: int | None  # the largest resident size of the child tree (sampled every 50 ms, and ru_maxrss)
    ready_line: str | None = None
    failed_after_ready: bool = False  # it printed ready, then exited non-zero within settle_s


def is_server(framework: str | None, argv: Sequence[str], health_url: str | None) -> bool:
    if health_url:
        return True
    if framework == "llamacpp":
        return any(Path(a).name.startswith("llama-server") for a in argv[:2])
    return framework in SERVER_FRAMEWORKS


def ready_markers(framework: str | None, argv: Sequence[str], extra: Sequence[str] = ()) -> tuple[str, ...]:
    if framework is None or not is_server(framework, argv, None):
        return tuple(extra)
    return READY_MARKERS.get(framework, ()) + tuple(extra)


@contextmanager
def signals_as_exceptions() -> Iterator[None]:
    """While inside, SIGTERM and SIGHUP raise `Interrupted` (SIGINT already raises
    KeyboardInterrupt), so `finally` blocks stop the workload. Main thread only; elsewhere a no-op."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, _frame: FrameType | None) -> None:
        raise Interrupted(signum)

    old = {s: signal.signal(s, handler) for s in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h)


def run(spec: RunSpec, on_line: Callable[[str], None] | None = None) -> RunResult:
    """Run `spec.argv` once and stop it; never leaves a process behind."""
    if not spec.argv:
        raise RerunError("no command to run")
    spec.log_path.parent.mkdir(parents=True, exist_ok=True)
    markers = tuple(m for m in spec.ready_markers if m)
    limit = spec.memory_limit_bytes
    start = time.monotonic()
    with open(spec.log_path, "wb") as log:
        try:
            proc = subprocess.Popen(
                list(spec.argv),
                env=dict(spec.env),
                cwd=spec.cwd,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                close_fds=True,
                preexec_fn=(lambda: _limit_as(limit)) if limit else None,  # noqa: PLW1509 - only setrlimit
            )
        except OSError as exc:
            raise RerunError(f"cannot start {spec.argv[0]!r}: {exc.strerror or exc}") from exc
        child = _Child(proc)
        watcher = _Watcher(proc, log, markers, on_line)
        try:
            return _supervise(child, spec, watcher, start)
        finally:
            _stop_tree(child, spec.grace_s)
            watcher.join()


def _limit_as(limit: int) -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _supervise(child: _Child, spec: RunSpec, watcher: _Watcher, start: float) -> RunResult:
    deadline = start + spec.timeout_s
    next_health = start
    ready_at: float | None = None
    while True:
        code = child.reap()
        now = time.monotonic()
        if code is not None:
            watcher.join()  # the rest of its output, up to EOF
            ready = ready_at is not None or watcher.ready.is_set()
            return RunResult(Outcome.EXITED, code, now - start, spec.log_path, child.peak(), watcher.ready_line,
                             failed_after_ready=ready and code != 0)
        if ready_at is None:
            if watcher.ready.is_set():
                ready_at = now
            elif spec.health_url and now >= next_health:
                next_health = now + 1.0
                if _healthy(spec.health_url):
                    ready_at = now
                    watcher.ready_line = f"GET {spec.health_url} -> 200"
        if ready_at is not None and now - ready_at >= spec.settle_s:
            child.sample(force=True)
            return RunResult(Outcome.READY, None, now - start, spec.log_path, child.peak(), watcher.ready_line)
        if now >= deadline:
            return RunResult(Outcome.TIMEOUT, None, now - start, spec.log_path, child.peak(), watcher.ready_line)
        child.sample()
        time.sleep(0.05)


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as resp:  # the user's own --health-url
            return bool(resp.status == 200)
    except (urllib.error.URLError, OSError, ValueError):
        return False


class _Child:
    """The started process: reaped with wait4 (for ru_maxrss), its tree sampled with psutil.

    `seen` maps every pid met in the tree to its start time, so a pid the kernel has since
    reused for an unrelated process is never signalled."""

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self.proc = proc
        self.pid = proc.pid
        self.seen: dict[int, float] = {}
        self.maxrss_bytes = 0
        self._peak = 0
        self._last = 0.0

    def reap(self) -> int | None:
        if self.proc.returncode is not None:
            return self.proc.returncode
        try:
            pid, status, usage = os.wait4(self.pid, os.WNOHANG)
        except ChildProcessError:
            self.proc.returncode = -1
            return -1
        if pid == 0:
            return None
        self.proc.returncode = os.waitstatus_to_exitcode(status)
        # Linux: KiB, the largest of the child and its reaped descendants. The kernel folds in
        # the RSS the child had before exec, which is oomdoctor's own (fork/vfork share it), so
        # the figure says something about the workload only when it is above our own peak.
        import resource

        maxrss = usage.ru_maxrss * 1024
        if maxrss > resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024:
            self.maxrss_bytes = maxrss
        return self.proc.returncode

    def tree(self) -> list[object]:
        """psutil.Process objects of the child and its descendants still alive."""
        import psutil

        try:
            root = psutil.Process(self.pid)
            procs = [root, *root.children(recursive=True)]
        except psutil.Error:
            return []
        for p in procs:
            try:
                self.seen.setdefault(p.pid, p.create_time())
            except psutil.Error:
                continue
        return procs

    def sample(self, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self._last < 0.05:
            return
        self._last = now
        import psutil

        total = 0
        for p in self.tree():
            try:
                total += p.memory_info().rss  # type: ignore[attr-defined]
            except psutil.Error:
                continue
        self._peak = max(self._peak, total)

    def peak(self) -> int | None:
        return max(self._peak, self.maxrss_bytes) or None

    def strays(self) -> list[object]:
        """Processes we saw in the tree that still run (same pid and start time) and are not zombies."""
        import psutil

        out = []
        for pid, created in self.seen.items():
            try:
                p = psutil.Process(pid)
                if p.create_time() == created and p.status() != psutil.STATUS_ZOMBIE:
                    out.append(p)
            except psutil.Error:
                continue
        return out


class _Watcher:
    """Reads the child's output on a thread: writes it to the log, finds the ready marker."""

    def __init__(self, proc: subprocess.Popen[bytes], log: BinaryIO, markers: tuple[str, ...],
                 on_line: Callable[[str], None] | None) -> None:
        self.ready = threading.Event()
        self.ready_line: str | None = None
        self._log = log
        self._markers = markers
        self._on_line = on_line
        self._thread = threading.Thread(target=self._pump, args=(proc,), daemon=True, name="oomdoctor-tee")
        self._thread.start()

    def _pump(self, proc: subprocess.Popen[bytes]) -> None:
        assert proc.stdout is not None
        for raw in iter(proc.stdout.readline, b""):
            self._log.write(raw)
            self._log.flush()
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            if self._on_line is not None:
                try:
                    self._on_line(line)
                except Exception:  # noqa: BLE001 - a display callback must not stop the tee
                    self._on_line = None
            if not self.ready.is_set() and any(m in line for m in self._markers):
                self.ready_line = line.strip()
                self.ready.set()
        proc.stdout.close()

    def join(self, timeout: float = 5.0) -> None:
        self._thread.join(timeout)


def _stop_tree(child: _Child, grace_s: float) -> None:
    """SIGTERM the group, SIGKILL after `grace_s`, then kill any descendant that left it."""
    child.tree()  # remember the current descendants before signalling
    pgid = child.pid  # start_new_session: the child leads its own group
    if child.reap() is None:
        _signal_group(pgid, signal.SIGTERM)
        deadline = time.monotonic() + grace_s
        while child.reap() is None and time.monotonic() < deadline:
            time.sleep(0.1)
    _signal_group(pgid, signal.SIGKILL)  # workers may outlive their leader in the group
    import psutil

    for p in child.strays():
        try:
            p.kill()  # type: ignore[attr-defined]
        except psutil.Error:
            continue
    if child.reap() is None:
        try:
            child.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        child.reap()


def _signal_group(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


_TS_SAFE = re.compile(r"[^A-Za-z0-9._-]+")


def log_name(index: int, label: str) -> str:
    """`attempt-02-max_model_len-1024.log`: a file name that says what ran."""
    return f"attempt-{index:02d}-{_TS_SAFE.sub('_', label)[:60]}.log"
