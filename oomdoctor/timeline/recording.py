"""The recording file: JSON lines, one sample per line, rotated by size.

    {"oomdoctor_timeline": 1, "started": "2026-12-01T12:00:00Z", "pid": 4242, "url": "...", "command": [...]}
    {"ts": "2026-12-01T12:00:05Z", "t": 1796126405.0, "kv_usage": 1.0, "running": 12, "waiting": 12,
     "gpu_bytes": 17179869184, "rss_bytes": 2147483648, "hist": {"prompt_tokens": [[128, 3], ...]}}
    {"ts": "...", "t": ..., "event": "exit", "returncode": -9}

`RotatingWriter` keeps the file under a size and `keep` older files (`timeline.jsonl.1` is the
newest of them); `read_timeline` reads them oldest first into a bounded `SeriesSet`, so a
recording that survived the crash diagnoses like a log (`diagnose --timeline`).
"""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path
from typing import Any, Iterator

from oomdoctor.errors import InputError
from oomdoctor.facts import Evidence, Fact, Origin
from oomdoctor.parsers.scan import ScanResult
from oomdoctor.timeline.metrics import hist_delta, hist_values
from oomdoctor.timeline.series import EVENTS, LENGTHS, METRICS, Lengths, SeriesSet

FORMAT = 1
SKIP = {"ts", "t", "hist", "event", "returncode", "static", "notes"}


class RotatingWriter:
    """Append JSON lines to `path`; past `max_bytes`, rotate (path.1 … path.keep)."""

    def __init__(self, path: str | os.PathLike[str], max_bytes: int = 64 << 20, keep: int = 3) -> None:
        self.path = Path(path)
        self.max_bytes = max(4096, int(max_bytes))
        self.keep = max(0, int(keep))
        self.header: dict[str, Any] | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._fh = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 - closed by close()
        except OSError as exc:
            raise InputError(f"cannot write {self.path}: {exc.strerror or exc}") from None

    def write(self, record: dict[str, Any]) -> None:
        if record.get("oomdoctor_timeline") is not None:
            self.header = record
        line = json.dumps(record, separators=(",", ":"), ensure_ascii=False) + "\n"
        if self._fh.tell() + len(line) > self.max_bytes and self._fh.tell() > 0:
            self._rotate()
        self._fh.write(line)
        self._fh.flush()  # a crash (or SIGKILL of the recorder) keeps every sample written so far

    def _rotate(self) -> None:
        self._fh.close()
        if self.keep == 0:
            self.path.unlink(missing_ok=True)
        else:
            for i in range(self.keep, 0, -1):
                src = self.path if i == 1 else self.path.with_name(f"{self.path.name}.{i - 1}")
                if src.exists():
                    os.replace(src, self.path.with_name(f"{self.path.name}.{i}"))
        self._fh = open(self.path, "a", encoding="utf-8")  # noqa: SIM115
        if self.header is not None:  # each file says what it records
            self._fh.write(json.dumps({**self.header, "continued": True}, separators=(",", ":")) + "\n")

    def close(self) -> None:
        self._fh.close()


def files(path: str | os.PathLike[str]) -> list[Path]:
    """The recording and its rotated parts, oldest first."""
    p = Path(path)
    parts = sorted((q for q in p.parent.glob(p.name + ".*") if q.name[len(p.name) + 1:].isdigit()),
                   key=lambda q: -int(q.name[len(p.name) + 1:]))
    return [*parts, p] if p.exists() else parts


def _records(path: str) -> Iterator[tuple[Path, int, str, dict[str, Any]]]:
    found = files(path)
    if not found:
        raise InputError(f"timeline file not found: {path}")
    for part in found:
        if part.is_dir():
            raise InputError(f"{part} is a directory, not a timeline file")
        try:
            fh = open(part, encoding="utf-8", errors="replace")  # noqa: SIM115
        except OSError as exc:
            raise InputError(f"cannot read {part}: {exc.strerror or exc}") from None
        with fh:
            for n, line in enumerate(fh, 1):
                line = line.strip()
                if not line:
                    continue
                try:
                    record = json.loads(line)
                except json.JSONDecodeError:
                    continue  # a line cut by the crash
                if isinstance(record, dict):
                    yield part, n, line, record


def read_timeline(path: str, label: str | None = None) -> ScanResult:
    """A recording as a ScanResult: its series, the facts its header and exit event state."""
    shown = str(path)
    series = SeriesSet(shown)
    facts: list[Fact] = []
    scores: dict[str, int] = {}
    first_hist: dict[str, list[tuple[float, float]]] = {}
    last_hist: dict[str, list[tuple[float, float]]] = {}
    samples = 0
    warnings: list[str] = []
    header_seen = False
    for part, n, line, rec in _records(shown):
        if "oomdoctor_timeline" in rec:
            header_seen = True
            fw = rec.get("framework")
            if isinstance(fw, str) and fw:
                scores[fw] = scores.get(fw, 0) + 20
            for note in rec.get("notes") or ():
                if isinstance(note, str) and f"{shown}: {note}" not in warnings:
                    warnings.append(f"{shown}: {note}")
            continue
        at = (str(part), n, line[:600], _num(rec.get("t")))
        static = rec.get("static")
        if isinstance(static, dict):
            for k, v in static.items():
                series.static[k] = v
        if rec.get("event") == "exit":
            facts.extend(_exit_facts(rec, Evidence(str(part), n, line[:600])))
            continue
        pairs = [(k, float(v)) for k, v in rec.items()
                 if k not in SKIP and (k in METRICS or k in EVENTS or k in LENGTHS) and _num(v) is not None]
        hist = rec.get("hist")
        if isinstance(hist, dict):
            for name, buckets in hist.items():
                if isinstance(buckets, list):
                    pairs_h = [(float(le), float(c)) for le, c in buckets if _num(c) is not None]
                    first_hist.setdefault(name, pairs_h)
                    last_hist[name] = pairs_h
        if pairs:
            series.add(pairs, at)
            samples += 1
    if not header_seen and samples == 0:
        raise InputError(f"{shown} is not an oomdoctor timeline (no header, no samples)")
    for name, last in last_hist.items():
        # the requests served while recording; all of the server's when it saw none since
        counts = hist_values(hist_delta(first_hist.get(name), last)) or hist_values(last)
        lengths = series.lengths.setdefault(name, Lengths())
        for value, count in counts:
            lengths.add(value, count)
    return ScanResult(path=shown, label=label or shown, facts=facts, framework_scores=scores, lines=0,
                      first_failure_line=None, first_failure_text=None, phase=None, warnings=warnings, series=series.finish())


def _num(v: Any) -> float | None:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    return float(v)


def _exit_facts(rec: dict[str, Any], ev: Evidence) -> list[Fact]:
    """How the recorded process ended: killed by a signal (SIGKILL: the OOM killer) or an exit code."""
    code = rec.get("returncode")
    if not isinstance(code, int) or code == 0:
        return []
    if code < 0:
        name = _signal_name(-code)
        out = [Fact("oom.exit_signal", name, Origin.PROBE, ev)]
        if -code == signal.SIGKILL:
            out.append(Fact("oom.kind", "killed", Origin.PROBE, ev))
        return out
    if code == 137:
        return [Fact("oom.exit_signal", "137", Origin.PROBE, ev), Fact("oom.kind", "exit_137", Origin.PROBE, ev)]
    return []


def _signal_name(n: int) -> str:
    try:
        return signal.Signals(n).name
    except ValueError:
        return f"signal {n}"
