"""`oomdoctor run -- <launch command>`: start the server, tee its log, record its timeline, and when
it exits non-zero (or is killed) leave the incident folder:

    DIR/server.log        everything the server printed (stdout and stderr)
    DIR/timeline.jsonl    the recording (GPU, host, /metrics), rotated by size
    DIR/incident.md       the diagnosis with the launch command, the curve and the last log lines
    DIR/incident.json     the same diagnosis as JSON (`oomdoctor schema`)
    DIR/incident.*.svg    the ledger bar and the curve

The command runs as given (argv, never through a shell) in its own process group; Ctrl-C and
SIGTERM are passed on to it. Library code: raises, never prints or exits.
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import threading
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Sequence

from oomdoctor.errors import RerunError
from oomdoctor.timeline.recorder import WatchOptions, append_event, record

TAIL_LINES = 200


@dataclass(frozen=True)
class RunOptions:
    command: Sequence[str]
    out_dir: Path
    url: str | None = None
    interval_s: float = 5.0
    tail_lines: int = TAIL_LINES
    max_bytes: int = 64 << 20
    keep: int = 3
    headers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class RunOutcome:
    returncode: int  # as subprocess gives it: negative for a signal
    out_dir: Path
    samples: int
    written: tuple[Path, ...] = ()  # the incident files (none when the command succeeded)
    report: Any = None

    @property
    def exit_status(self) -> int:
        """The shell's convention: 128 + signal for a killed process."""
        return 128 - self.returncode if self.returncode < 0 else self.returncode


def run(opts: RunOptions, echo: BinaryIO | None = None) -> RunOutcome:
    if not opts.command:
        raise RerunError("nothing to run: give the launch command after `--`, e.g. oomdoctor run -- vllm serve MODEL")
    out = Path(opts.out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RerunError(f"cannot create {out}: {exc.strerror or exc}") from None
    log_path, timeline_path = out / "server.log", out / "timeline.jsonl"
    try:
        proc = subprocess.Popen(list(opts.command), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                start_new_session=True)
    except (FileNotFoundError, PermissionError, OSError) as exc:
        raise RerunError(f"cannot start {opts.command[0]!r}: {exc.strerror or exc}") from None
    stop = threading.Event()
    counted: list[int] = []
    recorder = threading.Thread(target=lambda: counted.append(record(
        WatchOptions(str(timeline_path), pid=proc.pid, url=opts.url, interval_s=opts.interval_s, max_bytes=opts.max_bytes,
                     keep=opts.keep, command=tuple(opts.command), headers=opts.headers), stop)), daemon=True)
    recorder.start()
    restore = _forward_signals(proc)
    try:
        _tee(proc, log_path, echo)
        code = proc.wait()
    finally:
        _restore(restore)
        stop.set()
        recorder.join(timeout=30)
    append_event(timeline_path, {"event": "exit", "returncode": code})
    samples = counted[0] if counted else 0
    if code == 0:
        return RunOutcome(code, out, samples)
    report, written = write_incident(out, opts.command, code, opts.tail_lines)
    return RunOutcome(code, out, samples, written, report)


def _tee(proc: subprocess.Popen, log_path: Path, echo: BinaryIO | None) -> None:
    assert proc.stdout is not None
    with open(log_path, "wb") as log:
        while True:
            chunk = proc.stdout.read1(1 << 16) if hasattr(proc.stdout, "read1") else proc.stdout.read(1 << 16)
            if not chunk:
                break
            log.write(chunk)
            log.flush()
            if echo is not None:
                try:
                    echo.write(chunk)
                    echo.flush()
                except (OSError, ValueError):
                    echo = None


def _forward_signals(proc: subprocess.Popen) -> dict[int, Any]:
    if threading.current_thread() is not threading.main_thread():
        return {}

    def forward(signum: int, _frame: Any) -> None:
        try:
            os.killpg(proc.pid, signum)
        except (ProcessLookupError, PermissionError):
            pass

    old = {}
    for sig in (signal.SIGINT, signal.SIGTERM):
        old[sig] = signal.signal(sig, forward)
    return old


def _restore(old: dict[int, Any]) -> None:
    for sig, handler in old.items():
        signal.signal(sig, handler)


def tail(path: Path, lines: int) -> list[str]:
    """The last `lines` lines of a file, reading at most its last 1 MiB."""
    try:
        with open(path, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            size = fh.tell()
            fh.seek(max(0, size - (1 << 20)))
            data = fh.read()
    except OSError:
        return []
    text = data.decode("utf-8", "replace").splitlines()
    return list(deque(text, maxlen=lines))


def write_incident(out: Path, command: Sequence[str], code: int, tail_lines: int = TAIL_LINES) -> tuple[Any, tuple[Path, ...]]:
    """Diagnose the folder's log and recording; write incident.md (+ SVGs) and incident.json."""
    from oomdoctor.diagnose import DiagnoseOptions, diagnose
    from oomdoctor.redact import Redactor, redact_report
    from oomdoctor.report.files import write_outputs
    from oomdoctor.report.json import JsonRenderer
    from oomdoctor.report.markdown import MarkdownRenderer, fence
    from oomdoctor.timeline.recording import read_timeline

    log_path, timeline_path = out / "server.log", out / "timeline.jsonl"
    logs = [str(log_path)] if log_path.exists() and log_path.stat().st_size > 0 else []
    report = diagnose(DiagnoseOptions(logs=logs, timelines=[read_timeline(str(timeline_path))], commands=(shlex.join(command),)))
    redactor = Redactor()
    report = redact_report(report, redactor)
    how = f"killed by signal {-code} ({_signal_name(-code)})" if code < 0 else f"exit status {code}"
    last = [redactor.text(line) for line in tail(log_path, tail_lines)]
    md = MarkdownRenderer().render(report).rstrip("\n")
    md += "\n\n## Launch command\n\n" + fence([redactor.text(shlex.join(command))], "bash") + f"\n\nThe server ended with {how}."
    md += f"\n\n## Last {len(last)} log lines\n\n" + (fence(last) if last else "_The server printed nothing._") + "\n"
    written = write_outputs(report, md, out / "incident.md")
    json_path = out / "incident.json"
    json_path.write_text(JsonRenderer().render(report) + "\n", encoding="utf-8")
    return report, (*written, json_path)


def _signal_name(n: int) -> str:
    try:
        return signal.Signals(n).name
    except ValueError:
        return f"signal {n}"
