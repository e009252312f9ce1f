"""Bounded time series: what a server's periodic stats said, in constant memory.

A log of any length (or a long recording, or a Prometheus range) goes through `SeriesSet.add`
one sample at a time. Each metric keeps at most `MAX_BUCKETS` buckets (peak, sum, count and
where the bucket starts); when they are full, neighbours merge and the width doubles, so the
curve keeps its shape and its peaks. Request lengths go into a log-spaced histogram (P99 within
2%). KV-cache saturation episodes are tracked as they happen. Nothing here grows with the input.

Where a sample was read is a `Stamp`: (source, line, text, t). A log sample carries the line and its
text, and its time is parsed only for the few stamps that are kept (bucket starts, episode
ends); a recording or Prometheus sample carries `t` (epoch seconds) and no text.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Optional, Tuple

Stamp = Tuple[str, Optional[int], Optional[str], Optional[float]]  # (source, line, text, epoch seconds)

MAX_BUCKETS = 240
CEILING = 0.90  # KV usage at or above this is near the ceiling: a saturation episode (vLLM hovers at 94-100% under preemption)
RING = 8  # samples kept from just before the failure

# metric -> (unit, what it is). The names are the same whatever the source.
METRICS: dict[str, tuple[str, str]] = {
    "kv_usage": ("ratio", "KV-cache usage (0..1) as the engine reports it"),
    "swap_usage": ("ratio", "CPU swap-space KV usage (vLLM V0)"),
    "running": ("count", "requests running (in the batch)"),
    "waiting": ("count", "requests waiting/queued"),
    "waiting_capacity": ("count", "requests waiting because the KV cache is full (vLLM reason=capacity)"),
    "swapped": ("count", "requests swapped to CPU (vLLM V0)"),
    "kv_tokens_used": ("tokens", "KV tokens in use (SGLang #token)"),
    "prompt_throughput": ("tokens/s", "prompt (prefill) throughput"),
    "gen_throughput": ("tokens/s", "generation throughput"),
    "preemptions_total": ("count", "cumulative preemptions (counter)"),
    "gpu_bytes": ("bytes", "GPU memory of the server's processes (NVML)"),
    "gpu_used_bytes": ("bytes", "GPU memory in use on the device (NVML, DCGM)"),
    "gpu_total_bytes": ("bytes", "GPU capacity"),
    "torch_reserved_bytes": ("bytes", "PyTorch reserved memory (memory summary)"),
    "torch_allocated_bytes": ("bytes", "PyTorch allocated memory (memory summary)"),
    "rss_bytes": ("bytes", "host RSS of the server's processes"),
    "cgroup_bytes": ("bytes", "container (cgroup) memory in use"),
    "request_seconds": ("seconds", "request latency"),
}
# event metrics: each sample is one event of that kind (value = how many)
EVENTS = ("preempted", "context_shift", "over_context", "truncated", "retracted", "model_load")
# per-request lengths: into a histogram, not a curve
LENGTHS = ("prompt_tokens", "generation_tokens")


class Curve:
    """One metric, bucketed: each bucket is [peak, sum, count, first stamp]."""

    __slots__ = ("name", "width", "buckets", "n", "peak", "peak_at", "first", "first_at", "last", "last_at")

    def __init__(self, name: str) -> None:
        self.name = name
        self.width = 1
        self.buckets: list[list] = []
        self.n = 0
        self.peak = -math.inf
        self.peak_at: Stamp | None = None
        self.first: float | None = None
        self.first_at: Stamp | None = None
        self.last: float | None = None
        self.last_at: Stamp | None = None

    def add(self, value: float, at: Stamp) -> None:
        if self.n == 0:
            self.first, self.first_at = value, at
        self.n += 1
        self.last, self.last_at = value, at
        if value > self.peak:
            self.peak, self.peak_at = value, at
        buckets = self.buckets
        if buckets and buckets[-1][2] < self.width:
            b = buckets[-1]
            if value > b[0]:
                b[0] = value
            b[1] += value
            b[2] += 1
            return
        if len(buckets) >= MAX_BUCKETS:
            self._halve()
        self.buckets.append([value, value, 1, at])

    def extend(self, values: list[float], stamp_of: Callable[[int], Stamp]) -> None:
        """Many samples at once (a batch of log lines): the same buckets as `add`, with the
        work per bucket done by max()/sum() over slices."""
        n = len(values)
        if not n:
            return
        if self.n == 0:
            self.first, self.first_at = values[0], stamp_of(0)
        self.n += n
        self.last, self.last_at = values[-1], stamp_of(n - 1)
        top = max(values)
        if top > self.peak:
            self.peak, self.peak_at = top, stamp_of(values.index(top))
        buckets = self.buckets
        i = 0
        while i < n:
            last = buckets[-1] if buckets else None
            if last is not None and last[2] < self.width:
                part = values[i:i + self.width - last[2]]
                top = max(part)
                if top > last[0]:
                    last[0] = top
                last[1] += sum(part)
                last[2] += len(part)
                i += len(part)
            elif len(buckets) >= MAX_BUCKETS:
                self._halve()
                buckets = self.buckets
            else:
                part = values[i:i + self.width]
                buckets.append([max(part), sum(part), len(part), stamp_of(i)])
                i += len(part)

    def _halve(self) -> None:
        merged = []
        b = self.buckets
        for i in range(0, len(b) - 1, 2):
            x, y = b[i], b[i + 1]
            merged.append([max(x[0], y[0]), x[1] + y[1], x[2] + y[2], x[3]])
        if len(b) % 2:
            merged.append(b[-1])
        self.buckets = merged
        self.width *= 2

    def peaks(self) -> list[float]:
        return [b[0] for b in self.buckets]

    def means(self) -> list[float]:
        return [b[1] / b[2] for b in self.buckets]

    def stamps(self) -> list[Stamp]:
        return [b[3] for b in self.buckets]


class Lengths:
    """Request lengths in log-spaced buckets (ratio 1.02): count, mean, max exact; quantiles
    within 2%. An external quantile (Prometheus' histogram_quantile) can be set instead."""

    STEP = math.log(1.02)

    __slots__ = ("counts", "n", "total", "max", "external")

    def __init__(self) -> None:
        self.counts: dict[int, int] = {}
        self.n = 0
        self.total = 0.0
        self.max = 0.0
        self.external: dict[str, float] = {}

    def add(self, value: float, count: int = 1) -> None:
        if value < 0 or count <= 0:
            return
        i = int(math.log(value + 1) / self.STEP)
        self.counts[i] = self.counts.get(i, 0) + count
        self.n += count
        self.total += value * count
        if value > self.max:
            self.max = value

    def quantile(self, q: float) -> float | None:
        if "p99" in self.external and q == 0.99:
            return self.external["p99"]
        if not self.n:
            return None
        rank = q * self.n
        seen = 0
        for i in sorted(self.counts):
            seen += self.counts[i]
            if seen >= rank:
                return min(self.max, math.exp((i + 1) * self.STEP) - 1)
        return self.max

    @property
    def mean(self) -> float | None:
        if "mean" in self.external:
            return self.external["mean"]
        return self.total / self.n if self.n else None

    @property
    def count(self) -> int:
        return int(self.external.get("count", self.n))


@dataclass
class Episode:
    """A run of consecutive KV-usage samples at or above CEILING."""

    start: Stamp
    end: Stamp
    samples: int = 0
    peak: float = 0.0
    waiting: float = 0.0  # most requests waiting during it
    running: float = 0.0  # most requests running during it
    preempted: float = 0.0  # preemptions counted during it

    @property
    def under_pressure(self) -> bool:
        """Saturated for a while with requests held back: more demand than the pool."""
        return self.samples >= 3 and (self.waiting > 0 or self.preempted > 0)


class Counter:
    """A cumulative counter read now and then: total increase, surviving resets."""

    __slots__ = ("last", "total")

    def __init__(self) -> None:
        self.last: float | None = None
        self.total = 0.0

    def add(self, value: float) -> None:
        if self.last is not None:
            self.total += value - self.last if value >= self.last else value  # a reset starts from 0
        self.last = value


class SeriesSet:
    """Everything one source (a log, a recording, a Prometheus range) said over time."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.curves: dict[str, Curve] = {}
        self.lengths: dict[str, Lengths] = {}
        self.events: dict[str, float] = {}
        self.counters: dict[str, Counter] = {}
        self.samples = 0
        self.first_at: Stamp | None = None
        self.last_at: Stamp | None = None
        self.open: Episode | None = None
        self.longest: Episode | None = None
        self.last_pressure: Episode | None = None  # the latest episode under pressure
        self.pressure_count = 0
        self.before_failure: deque[tuple[float, Stamp]] = deque(maxlen=RING)  # kv usage just before the failure
        self.failed = False
        self.static: dict[str, float | str] = {}  # settings a source states once (pool size, block size)

    def __bool__(self) -> bool:
        return self.samples > 0 or bool(self.lengths) or bool(self.events)

    def add(self, pairs: Iterable[tuple[str, float]], at: Stamp, before_failure: bool = True) -> None:
        """One sample: (metric, value) pairs read at the same moment."""
        self.samples += 1
        if self.first_at is None:
            self.first_at = at
        self.last_at = at
        kv = None
        waiting = running = 0.0
        curves = self.curves
        for name, value in pairs:
            if name in LENGTHS:
                self.lengths.setdefault(name, Lengths()).add(value)
                continue
            if name in EVENTS:
                self.events[name] = self.events.get(name, 0.0) + value
                continue
            if name == "preemptions_total":
                self.counters.setdefault(name, Counter()).add(value)
            curve = curves.get(name)
            if curve is None:
                curve = curves[name] = Curve(name)
            curve.add(value, at)
            if name == "kv_usage":
                kv = value
            elif name == "waiting" or name == "waiting_capacity":
                waiting = max(waiting, value)
            elif name == "running":
                running = value
        if kv is not None:
            self._kv(kv, waiting, running, at)
            if before_failure:
                self.before_failure.append((kv, at))
        if not before_failure:
            self.failed = True

    def add_columns(self, columns: dict[str, list[float]], stamp_of: Callable[[int], Stamp], before_failure: bool = True,
                    sparse: dict[str, tuple[list[int], list[float]]] | None = None) -> None:
        """A batch of samples as columns of equal length (the scanner's fast path for vLLM's stats
        lines): the same result as calling `add` once per row, at a fraction of the cost. `sparse`
        metrics were read for some rows only, (row indices, values); the episodes' running/waiting
        come from them, so every row at the ceiling must be among them. A stamp may be a callable
        that gives the stamp later (read stamps with `resolve`)."""
        kv = columns.get("kv_usage")
        n = len(kv) if kv is not None else len(next(iter(columns.values()), []))
        if not n:
            return
        cache: dict[int, Stamp] = {}

        def stamp(i: int) -> Stamp:
            at = cache.get(i)
            if at is None:
                at = cache[i] = stamp_of(i)
            return at

        if self.first_at is None:
            self.first_at = stamp(0)
        self.samples += n
        self.last_at = stamp(n - 1)
        for name, values in columns.items():
            curve = self.curves.get(name)
            if curve is None:
                curve = self.curves[name] = Curve(name)
            curve.extend(values, stamp)
        dense = dict(columns)
        for name, (rows, values) in (sparse or {}).items():
            if not rows:
                continue
            curve = self.curves.get(name)
            if curve is None:
                curve = self.curves[name] = Curve(name)
            curve.extend(values, lambda j, rows=rows: stamp(rows[j]))
            full = [0.0] * n
            for i, v in zip(rows, values):
                full[i] = v
            dense[name] = full
        if kv is None:
            return
        waiting = dense.get("waiting") or [0.0] * n
        running = dense.get("running") or [0.0] * n
        hot = [i for i, v in enumerate(kv) if v >= CEILING]
        if self.open is not None and (not hot or hot[0] != 0):
            self._close()
        run: list[int] = []
        for i in hot:
            if run and i != run[-1] + 1:
                self._episode(run, kv, waiting, running, stamp)
                self._close()
                run = []
            run.append(i)
        if run:
            self._episode(run, kv, waiting, running, stamp)
            if run[-1] != n - 1:
                self._close()
        if before_failure:
            for i in range(max(0, n - RING), n):
                self.before_failure.append((kv[i], stamp(i)))
        else:
            self.failed = True

    def _episode(self, run: list[int], kv: list[float], waiting: list[float], running: list[float],
                 stamp: Callable[[int], Stamp]) -> None:
        a, b = run[0], run[-1] + 1
        ep = self.open
        if ep is None:
            ep = self.open = Episode(stamp(a), stamp(a), preempted=-self.preemptions())
        ep.end = stamp(b - 1)
        ep.samples += b - a
        ep.peak = max(ep.peak, max(kv[a:b]))
        ep.waiting = max(ep.waiting, max(waiting[a:b]))
        ep.running = max(ep.running, max(running[a:b]))

    def preemptions(self) -> float:
        counter = self.counters.get("preemptions_total")
        counted = counter.total if counter is not None else 0.0
        return max(counted, self.events.get("preempted", 0.0) + self.events.get("retracted", 0.0))

    def _kv(self, kv: float, waiting: float, running: float, at: Stamp) -> None:
        ep = self.open
        if kv >= CEILING:
            if ep is None:
                ep = self.open = Episode(at, at, preempted=-self.preemptions())
            ep.end = at
            ep.samples += 1
            ep.peak = max(ep.peak, kv)
            ep.waiting = max(ep.waiting, waiting)
            ep.running = max(ep.running, running)
        elif ep is not None:
            self._close()

    def _close(self) -> None:
        ep = self.open
        if ep is None:
            return
        self.open = None
        ep.preempted += self.preemptions()
        if self.longest is None or ep.samples >= self.longest.samples:
            self.longest = ep
        if ep.under_pressure:
            self.last_pressure = ep
            self.pressure_count += 1

    def finish(self) -> "SeriesSet":
        """Close an episode still open at the end of the input."""
        self._close()
        return self

    def merge_into(self, other: "SeriesSet") -> None:
        """Fold this set's episodes and counts into `other` (several logs, a log and a recording)."""
        for name, curve in self.curves.items():
            mine = other.curves.get(name)
            if mine is None or curve.n > mine.n:
                other.curves[name] = curve
        for name, lengths in self.lengths.items():
            mine = other.lengths.get(name)
            if mine is None or lengths.count > mine.count:
                other.lengths[name] = lengths
        for name, value in self.events.items():
            other.events[name] = other.events.get(name, 0.0) + value
        for name, counter in self.counters.items():
            other.counters.setdefault(name, Counter()).total += counter.total
        other.samples += self.samples
        other.first_at = other.first_at or self.first_at
        other.last_at = self.last_at or other.last_at
        for ep in (self.longest,):
            if ep is not None and (other.longest is None or ep.samples > other.longest.samples):
                other.longest = ep
        if self.last_pressure is not None:
            other.last_pressure = self.last_pressure
        other.pressure_count += self.pressure_count
        if self.before_failure and (self.failed or not other.before_failure):
            other.before_failure = self.before_failure
        other.failed = other.failed or self.failed
        for k, v in self.static.items():
            other.static.setdefault(k, v)


def resolve(at: "Stamp | Callable[[], Stamp] | None") -> Stamp | None:
    return at() if callable(at) else at


def merged(sets: Iterable[SeriesSet], source: str = "all") -> SeriesSet:
    out = SeriesSet(source)
    for s in sets:
        if s:
            s.finish().merge_into(out)
    return out


def iter_curves(series: SeriesSet) -> Iterator[Curve]:
    order = list(METRICS)
    yield from sorted(series.curves.values(), key=lambda c: order.index(c.name) if c.name in order else len(order))
