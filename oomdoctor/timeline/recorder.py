"""The recorder behind `oomdoctor watch` and `oomdoctor run`: every few seconds, the server's GPU
memory (NVML, per process), its host memory (RSS of its process tree, its cgroup) and its own
`/metrics` page, one JSON line per sample in a rotating file that survives the crash.

Each source is optional: no NVIDIA driver, no pid or no URL leave that part out, said once in
the file's header. I/O lives here and in the CLI; the series and shapes stay pure.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Callable, Mapping

from oomdoctor.timeline.metrics import Scrape, from_samples, parse_text
from oomdoctor.timeline.recording import FORMAT, RotatingWriter


@dataclass(frozen=True)
class WatchOptions:
    out: str
    pid: int | None = None
    url: str | None = None  # the server's Prometheus endpoint, http://host:port/metrics
    interval_s: float = 5.0
    max_bytes: int = 64 << 20
    keep: int = 3
    duration_s: float | None = None
    command: tuple[str, ...] = ()
    headers: Mapping[str, str] = field(default_factory=dict)


def iso(t: float) -> str:
    return datetime.fromtimestamp(t, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-4] + "Z"


def parse_interval(text: str) -> float:
    """'5s', '500ms', '1m', '2' (seconds) -> seconds."""
    from oomdoctor.errors import UsageError

    t = text.strip().lower()
    units = (("ms", 1e-3), ("s", 1.0), ("m", 60.0), ("h", 3600.0), ("d", 86400.0))
    for suffix, scale in units:
        if t.endswith(suffix) and not (suffix == "s" and t.endswith("ms")):
            t, factor = t[: -len(suffix)], scale
            break
    else:
        factor = 1.0
    try:
        value = float(t) * factor
    except ValueError:
        raise UsageError(f"bad duration {text!r} (use e.g. 5s, 500ms, 2m, 1h)") from None
    if value <= 0:
        raise UsageError(f"bad duration {text!r}: must be above zero")
    return value


class Sampler:
    """Reads one sample from each source it has."""

    def __init__(self, pid: int | None = None, url: str | None = None, headers: Mapping[str, str] | None = None,
                 timeout_s: float = 5.0) -> None:
        self.pid = pid
        self.url = url
        self.headers = dict(headers or {})
        self.timeout_s = timeout_s
        self.notes: list[str] = []
        self.framework: str | None = None
        self._nvml: Any = None
        self._handles: list[Any] = []
        self._init_nvml()

    def _init_nvml(self) -> None:
        try:
            import pynvml

            pynvml.nvmlInit()
            self._handles = [pynvml.nvmlDeviceGetHandleByIndex(i) for i in range(pynvml.nvmlDeviceGetCount())]
            self._nvml = pynvml
        except Exception as exc:  # noqa: BLE001 - no library, no driver, no permission: record without GPUs
            self.notes.append(f"GPU memory not recorded: NVML unavailable ({str(exc).strip() or type(exc).__name__})")

    def close(self) -> None:
        if self._nvml is not None:
            try:
                self._nvml.nvmlShutdown()
            except Exception:  # noqa: BLE001
                pass

    def pids(self) -> set[int]:
        if self.pid is None:
            return set()
        try:
            import psutil

            proc = psutil.Process(self.pid)
            return {proc.pid, *(c.pid for c in proc.children(recursive=True))}
        except Exception:  # noqa: BLE001 - gone
            return set()

    def alive(self) -> bool:
        if self.pid is None:
            return True
        try:
            import psutil

            p = psutil.Process(self.pid)
            return p.is_running() and p.status() != psutil.STATUS_ZOMBIE
        except Exception:  # noqa: BLE001
            return False

    def sample(self) -> dict[str, Any]:
        now = time.time()
        rec: dict[str, Any] = {"ts": iso(now), "t": round(now, 3)}
        pids = self.pids()
        rec.update(self._gpu(pids))
        rec.update(self._host(pids))
        if self.url:
            scrape = self._scrape()
            if scrape is not None:
                rec.update({k: round(v, 6) for k, v in scrape.values.items()})
                if scrape.hist:
                    rec["hist"] = {k: [[le if le != float("inf") else "+Inf", c] for le, c in v] for k, v in scrape.hist.items()}
                if scrape.static:
                    rec["static"] = scrape.static
                self.framework = self.framework or scrape.framework
        return rec

    def _gpu(self, pids: set[int]) -> dict[str, Any]:
        if self._nvml is None:
            return {}
        from oomdoctor.probes.nvml import read_processes

        used = total = mine = 0
        for h in self._handles:
            try:
                mem = self._nvml.nvmlDeviceGetMemoryInfo(h)
                used, total = used + int(mem.used), total + int(mem.total)
                procs, _ = read_processes(self._nvml, h)
                mine += sum(p.used_bytes or 0 for p in procs if p.pid in pids)
            except Exception:  # noqa: BLE001 - a device that fails now is left out of this sample
                continue
        out = {"gpu_used_bytes": used, "gpu_total_bytes": total}
        if pids:
            out["gpu_bytes"] = mine
        return out

    def _host(self, pids: set[int]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if pids:
            try:
                import psutil

                rss = 0
                for pid in pids:
                    try:
                        rss += psutil.Process(pid).memory_info().rss
                    except psutil.Error:
                        continue
                out["rss_bytes"] = rss
            except ImportError:  # pragma: no cover - psutil is a dependency
                pass
        from oomdoctor.probes.host import read_cgroup

        cg = read_cgroup(f"/proc/{self.pid}/cgroup", f"/proc/{self.pid}/mountinfo") if self.pid else read_cgroup()
        usage = getattr(cg, "usage_bytes", None)
        if usage is not None:
            out["cgroup_bytes"] = usage
        return out

    def _scrape(self) -> Scrape | None:
        from urllib.request import Request, urlopen

        try:
            req = Request(self.url or "", headers={"Accept": "text/plain", **self.headers})
            with urlopen(req, timeout=self.timeout_s) as resp:  # noqa: S310 - the user's own URL
                text = resp.read(32 << 20).decode("utf-8", "replace")
        except Exception as exc:  # noqa: BLE001 - a server starting or gone: this sample has no metrics
            note = f"metrics not read from {self.url}: {str(exc).strip() or type(exc).__name__}"
            if note not in self.notes:
                self.notes.append(note)
            return None
        return from_samples(parse_text(text))


def record(opts: WatchOptions, stop: threading.Event | None = None, sampler: Sampler | None = None,
           on_sample: Callable[[dict[str, Any]], None] | None = None) -> int:
    """Sample every `interval_s` into `opts.out` until `stop` is set, the duration has passed or
    the watched pid is gone; the number of samples written."""
    stop = stop or threading.Event()
    sampler = sampler or Sampler(opts.pid, opts.url, opts.headers, timeout_s=min(5.0, max(0.5, opts.interval_s)))
    writer = RotatingWriter(opts.out, opts.max_bytes, opts.keep)
    start = time.monotonic()
    header = {"oomdoctor_timeline": FORMAT, "started": iso(time.time()), "pid": opts.pid, "url": opts.url,
              "interval_s": opts.interval_s, "command": list(opts.command), "notes": list(sampler.notes)}
    written = 0
    try:
        writer.write(header)
        while not stop.is_set():
            tick = time.monotonic()
            rec = sampler.sample()
            if (sampler.framework and not header.get("framework")) or len(sampler.notes) != len(header["notes"]):
                header["framework"] = header.get("framework") or sampler.framework
                header["notes"] = list(sampler.notes)
                writer.write(dict(header, continued=True))  # the engine is known once its metrics answer; a new note
            writer.write(rec)
            written += 1
            if on_sample is not None:
                on_sample(rec)
            if opts.duration_s is not None and time.monotonic() - start >= opts.duration_s:
                break
            if not sampler.alive():
                break
            stop.wait(max(0.0, opts.interval_s - (time.monotonic() - tick)))
    finally:
        writer.close()
        sampler.close()
    return written


def append_event(path: str | os.PathLike[str], event: dict[str, Any]) -> None:
    """One more line after the recorder stopped (the exit of the process it watched)."""
    import json

    now = time.time()
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps({"ts": iso(now), "t": round(now, 3), **event}, separators=(",", ":")) + "\n")
