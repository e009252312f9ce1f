"""Shapes of the curve → facts the rules read, pressure windows and views for the renderers.

Pure functions over a `SeriesSet` (and the facts already known). The shapes, from the source
articles (§4.2, §4.4 of the first):

- KV usage climbing to its ceiling and held there, with requests waiting or preempted: the
  pool holds less context × concurrency than the load asks for (kv_cache pressure);
- a failure while KV usage sat well below its ceiling: not KV growth, but fragmentation or a
  short-lived spike (framework or activations, by the failing request's size);
- process memory growing steadily while the load is steady: a leak;
- batches sized by the P99 request length, not the mean: the P99 against the context per
  sequence and against the pool divided by the concurrency.
"""

from __future__ import annotations

import math
from datetime import datetime, timezone
from typing import Any, Iterable

from oomdoctor.facts import Evidence, Fact, FactSet, Origin, Value
from oomdoctor.model import CurveView, Pressure
from oomdoctor.parsers.base import seconds, timestamp
from oomdoctor.timeline.series import CEILING, METRICS, Curve, SeriesSet, Stamp, iter_curves, resolve

HEADROOM = 0.9
MIN_REQUESTS = 5  # fewer lengths than this say nothing about a P99
GPU_CURVES = ("gpu_bytes", "torch_reserved_bytes", "gpu_used_bytes")
HOST_CURVES = ("rss_bytes", "cgroup_bytes")
SHOWN = ("kv_usage", "waiting", "running", "gpu_bytes", "torch_reserved_bytes", "gpu_used_bytes", "rss_bytes", "cgroup_bytes")


# ---------------------------------------------------------------------------- stamps

def stamp_seconds(at: Stamp | None) -> float | None:
    at = resolve(at)
    if at is None:
        return None
    return at[3] if at[3] is not None else seconds(at[2])


def stamp_label(at: Stamp | None) -> str | None:
    """When a sample was read, as its source stamps it: the log's own time stamp, an ISO time
    for a recording or Prometheus, else the line number."""
    at = resolve(at)
    if at is None:
        return None
    _, line, text, t = at
    if t is not None:
        return datetime.fromtimestamp(t, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    printed = timestamp(text) if text else None
    if printed:
        return printed
    return f"line {line}" if line is not None else None


def evidence(at: Stamp | None) -> Evidence | None:
    at = resolve(at)
    if at is None:
        return None
    source, line, text, _ = at
    return Evidence(source, line, text or stamp_label(at) or "")


def _origin(at: Stamp | None) -> Origin:
    at = resolve(at)
    return Origin.LOG if at is not None and at[1] is not None and at[3] is None else Origin.PROBE


def _fact(key: str, value: Value, at: Stamp | None) -> Fact:
    return Fact(key, value, _origin(at), evidence(at))


# ---------------------------------------------------------------------------- facts

def curve_facts(series: SeriesSet, facts: FactSet) -> list[Fact]:
    """What the curve says, as facts (only the keys the curve decides; nothing already known)."""
    if not series:
        return []
    out: list[Fact] = [_fact("series.samples", series.samples, series.last_at)]
    out += _kv_facts(series)
    out += _length_facts(series, facts)
    out += _growth_facts(series)
    out += _static_facts(series, facts)
    out += _fits(series, facts, out)
    return [f for f in out if not facts.has(f.key)]


def _kv_facts(series: SeriesSet) -> Iterable[Fact]:
    kv = series.curves.get("kv_usage")
    if kv is not None and kv.n:
        yield _fact("series.kv_usage_peak", round(kv.peak, 4), kv.peak_at)
    if series.before_failure:
        value, at = series.before_failure[-1]
        yield _fact("series.kv_usage_last", round(value, 4), resolve(at))
        top, top_at = max(series.before_failure, key=lambda p: p[0])
        yield _fact("series.kv_usage_recent_peak", round(top, 4), resolve(top_at))
    ep = series.last_pressure or series.longest
    if ep is not None:
        yield _fact("series.kv_saturated_samples", ep.samples, ep.end)
        yield _fact("series.waiting_at_saturation", int(ep.waiting), ep.end)
        yield _fact("series.running_at_saturation", int(ep.running), ep.end)
    waiting = [c for c in (series.curves.get("waiting"), series.curves.get("waiting_capacity")) if c is not None and c.n]
    if waiting:
        top_curve = max(waiting, key=lambda c: c.peak)
        yield _fact("series.waiting_peak", int(top_curve.peak), top_curve.peak_at)
    running = series.curves.get("running")
    if running is not None and running.n:
        yield _fact("series.running_peak", int(running.peak), running.peak_at)
    pre = series.preemptions()
    if pre > 0:
        counter = series.curves.get("preemptions_total")
        yield _fact("series.preemptions", int(pre), counter.last_at if counter is not None else series.last_at)


def _context(series: SeriesSet, facts: FactSet) -> float | None:
    slot = series.static.get("slot_ctx")
    if isinstance(slot, (int, float)) and slot > 0:
        return float(slot)
    ctx = facts.value("knob.max_model_len")
    return float(ctx) if isinstance(ctx, (int, float)) and not isinstance(ctx, bool) and ctx > 0 else None


def _length_facts(series: SeriesSet, facts: FactSet) -> Iterable[Fact]:
    at = series.last_at
    shifts = series.events.get("context_shift", 0)
    if shifts:
        yield _fact("series.context_shifts", int(shifts), at)
    over = series.events.get("over_context", 0) + series.events.get("truncated", 0)
    if over:
        yield _fact("series.over_context", int(over), at)
    prompts = series.lengths.get("prompt_tokens")
    if prompts is None or prompts.count < MIN_REQUESTS:
        return
    p99 = prompts.quantile(0.99)
    if p99 is None:
        return
    yield _fact("series.prompt_tokens_p99", int(round(p99)), at)
    if prompts.mean is not None:
        yield _fact("series.prompt_tokens_mean", int(round(prompts.mean)), at)
    if prompts.max:
        yield _fact("series.prompt_tokens_max", int(prompts.max), at)
    yield _fact("series.requests", prompts.count, at)
    context = _context(series, facts)
    if context:
        yield _fact("series.context_tokens", int(context), at)
        yield _fact("ratio.prompt_p99_of_context", round(p99 / context, 4), at)
        want = int(math.ceil(p99 * 1.25 / 256) * 256)
        if want > context:
            yield _fact("fit.context_for_p99", want, at)
    need = _need_per_sequence(series)
    pool, seqs = _pool_tokens(series, facts), facts.value("knob.max_num_seqs")
    if need and pool and isinstance(seqs, int) and seqs > 0:
        yield _fact("ratio.p99_batch_of_pool", round(need * seqs / pool, 4), at)


def _need_per_sequence(series: SeriesSet) -> float | None:
    """KV tokens one sequence holds at the P99: its prompt plus what it generates."""
    prompts = series.lengths.get("prompt_tokens")
    if prompts is None or prompts.count < MIN_REQUESTS:
        return None
    p99 = prompts.quantile(0.99) or 0.0
    gen = series.lengths.get("generation_tokens")
    extra = (gen.quantile(0.99) or 0.0) if gen is not None and gen.count >= MIN_REQUESTS else 0.0
    return p99 + extra if p99 else None


def _pool_tokens(series: SeriesSet, facts: FactSet) -> float | None:
    for value in (facts.value("mem.kv_tokens"), series.static.get("kv_tokens")):
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
            return float(value)
    return None


def _static_facts(series: SeriesSet, facts: FactSet) -> Iterable[Fact]:
    """Settings a recording or Prometheus states once (vLLM's cache_config_info)."""
    at = series.last_at
    keys = {"kv_tokens": "mem.kv_tokens", "gpu_blocks": "mem.gpu_blocks", "block_size": "mem.block_size",
            "gpu_memory_utilization": "knob.gpu_memory_utilization", "kv_cache_dtype": "knob.kv_cache_dtype",
            "max_model_len": "knob.max_model_len", "max_num_seqs": "knob.max_num_seqs", "gpu_total_bytes": "mem.gpu_total_bytes"}
    for name, key in keys.items():
        value = series.static.get(name)
        if value is None:
            continue
        if key == "knob.gpu_memory_utilization":
            value = float(value)
        elif key != "knob.kv_cache_dtype":
            value = int(float(value))
        yield Fact(key, value, Origin.PROBE, evidence(at))


def _trend(curve: Curve) -> tuple[float, float] | None:
    """(growth, start) of a steady upward trend over the buckets, else None."""
    means = curve.means()
    n = len(means)
    if n < 8:
        return None
    xbar, ybar = (n - 1) / 2, sum(means) / n
    sxx = sum((i - xbar) ** 2 for i in range(n))
    sxy = sum((i - xbar) * (y - ybar) for i, y in enumerate(means))
    syy = sum((y - ybar) ** 2 for y in means)
    if sxx <= 0 or syy <= 0:
        return None
    slope = sxy / sxx
    r2 = sxy * sxy / (sxx * syy)
    ups = sum(1 for a, b in zip(means, means[1:]) if b >= a) / (n - 1)
    if slope <= 0 or r2 < 0.8 or ups < 0.6:
        return None
    start = ybar - slope * xbar
    # the fitted line can rise more than the curve did (a flat start, then a climb): never report more
    # growth than the samples show
    return min(slope * (n - 1), max(means) - min(means)), start


def _steady_load(series: SeriesSet) -> bool | None:
    running = series.curves.get("running")
    if running is None or len(running.buckets) < 4:
        return None
    means = running.means()
    half = len(means) // 2
    a, b = sum(means[:half]) / half, sum(means[half:]) / (len(means) - half)
    if a < 0.5 and b < 0.5:
        return True
    return min(a, b) > 0 and max(a, b) / min(a, b) <= 1.5


def _growth_facts(series: SeriesSet) -> Iterable[Fact]:
    emitted = False
    for names, key, ratio in ((GPU_CURVES, "series.gpu_growth_bytes", "ratio.gpu_growth"),
                              (HOST_CURVES, "series.host_growth_bytes", "ratio.host_growth")):
        curve = next((series.curves[n] for n in names if n in series.curves and series.curves[n].n >= 8), None)
        if curve is None:
            continue
        trend = _trend(curve)
        if trend is None:
            continue
        growth, start = trend
        yield _fact(key, int(growth), curve.last_at)
        yield _fact(ratio, round(growth / start, 4) if start > 0 else 1.0, curve.last_at)
        t0, t1 = stamp_seconds(curve.first_at), stamp_seconds(curve.last_at)
        if t0 is not None and t1 is not None and t1 > t0 and not emitted:
            yield _fact("series.growth_seconds", int(t1 - t0), curve.last_at)
        emitted = True
    if emitted:
        steady = _steady_load(series)
        if steady is not None:
            yield _fact("series.load_steady", steady, series.last_at)


def _fits(series: SeriesSet, facts: FactSet, found: list[Fact]) -> Iterable[Fact]:
    """fit.max_num_seqs from what the curve showed: fewer sequences than the count that filled
    the pool, and no more than the pool holds at the P99 length (90% headroom)."""
    have = {f.key: f for f in found}
    candidates = []
    sat = have.get("series.running_at_saturation")
    if sat is not None and isinstance(sat.value, int) and sat.value >= 2 and "series.kv_saturated_samples" in have:
        candidates.append((int(sat.value * HEADROOM), sat.evidence))
    need, pool = _need_per_sequence(series), _pool_tokens(series, facts)
    if need and pool:
        candidates.append((int(pool * HEADROOM // need), evidence(series.last_at)))
    if not candidates:
        return
    value, ev = min(candidates, key=lambda c: c[0])
    current = facts.value("knob.max_num_seqs")
    if isinstance(current, int) and value >= current:
        return
    yield Fact("fit.max_num_seqs", max(1, value), Origin.ESTIMATE, ev)


# ---------------------------------------------------------------------------- pressure and views

def pressure(accounts: Iterable[str], series: SeriesSet, facts: FactSet) -> tuple[Pressure, ...]:
    """One window per account under pressure (the accounts whose curve rules fired)."""
    out = []
    wanted = list(dict.fromkeys(accounts))
    for account in wanted:
        p = _window(account, series, facts)
        if p is not None:
            out.append(p)
    return tuple(out)


def _window(account: str, series: SeriesSet, facts: FactSet) -> Pressure | None:
    if account == "kv_cache":
        ep = series.last_pressure or series.longest
        if ep is not None and ep.samples:
            return Pressure("kv_cache", "kv_usage", round(ep.peak, 4), stamp_label(ep.start), stamp_label(ep.end), ep.samples)
    if account in ("framework", "host_memory"):
        names = GPU_CURVES if account == "framework" else HOST_CURVES
        curve = next((series.curves[n] for n in names if n in series.curves and _trend(series.curves[n])), None)
        if curve is not None:
            return Pressure(account, curve.name, curve.peak, stamp_label(curve.first_at), stamp_label(curve.last_at), curve.n)
    prompts = series.lengths.get("prompt_tokens")
    if prompts is not None and prompts.count >= MIN_REQUESTS:
        p99 = prompts.quantile(0.99)
        if p99 is not None:
            return Pressure(account, "prompt_tokens_p99", float(int(round(p99))), stamp_label(series.first_at),
                            stamp_label(series.last_at), prompts.count)
    if series.samples:
        return Pressure(account, "samples", float(series.samples), stamp_label(series.first_at), stamp_label(series.last_at), series.samples)
    return None


def views(series: SeriesSet) -> tuple[CurveView, ...]:
    out = []
    for curve in iter_curves(series):
        if curve.name not in SHOWN or curve.n < 2:
            continue
        unit = METRICS.get(curve.name, ("", ""))[0]
        out.append(CurveView(curve.name, unit, tuple(round(v, 4) for v in curve.peaks()), stamp_label(curve.first_at),
                             stamp_label(curve.last_at), curve.n, 1.0 if curve.name == "kv_usage" else None))
    return tuple(out)


def is_curve_rule(when: Any) -> bool:
    """A rule that reads the curve and needs no failure (it may rule one out under `not`): it finds
    pressure, not a culprit."""
    named = when.facts_named()
    return any(k.startswith("series.") for k in named) and not any(k.startswith("oom.") for k in _required(when))


def _required(cond: Any, negated: bool = False) -> set[str]:
    """Fact keys a condition needs present (not those it only rules out)."""
    if cond.not_ is not None:
        return _required(cond.not_, not negated)
    if cond.all or cond.any:
        return set().union(*(_required(c, negated) for c in (*cond.all, *cond.any)))
    return set() if negated or cond.fact is None else {cond.fact}


__all__ = ["CEILING", "curve_facts", "evidence", "is_curve_rule", "pressure", "stamp_label", "views"]
