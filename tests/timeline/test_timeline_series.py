"""The bounded series: buckets, episodes, lengths, counters; the batch path equals the row path."""

from __future__ import annotations

import random

import pytest

from oomdoctor.timeline.series import MAX_BUCKETS, Counter, Lengths, SeriesSet, resolve


def stamp(i: int) -> tuple[str, int, str, None]:
    return ("log", i + 1, f"line {i + 1}", None)


def rows(n: int, seed: int = 3) -> list[dict[str, float]]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        hot = (i // 50) % 7 == 3  # saturation episodes of 50 samples
        out.append({"running": float(rng.randrange(0, 40)), "waiting": float(rng.randrange(0, 3) if hot else 0),
                    "kv_usage": rng.uniform(0.95, 1.0) if hot else rng.uniform(0.0, 0.9)})
    return out


def test_curve_stays_bounded_and_keeps_the_peak() -> None:
    s = SeriesSet("x")
    for i in range(100_000):
        s.add((("kv_usage", (i % 997) / 1000),), stamp(i))
    s.add((("kv_usage", 1.0),), stamp(100_000))
    curve = s.curves["kv_usage"]
    assert curve.n == 100_001
    assert MAX_BUCKETS // 2 <= len(curve.buckets) <= MAX_BUCKETS
    assert curve.peak == 1.0 and resolve(curve.peak_at)[1] == 100_001
    assert max(curve.peaks()) == 1.0
    assert sum(b[2] for b in curve.buckets) == curve.n


def test_batch_path_equals_row_path() -> None:
    data = rows(5_000)
    by_row = SeriesSet("x")
    for i, r in enumerate(data):
        by_row.add(tuple(r.items()), stamp(i))
    by_batch = SeriesSet("x")
    for a in range(0, len(data), 137):  # batches of uneven size, like the scanner's
        part = data[a:a + 137]
        cols = {k: [r[k] for r in part] for k in ("running", "waiting", "kv_usage")}
        by_batch.add_columns(cols, lambda i, a=a: stamp(a + i))
    for name in ("running", "waiting", "kv_usage"):
        x, y = by_row.curves[name], by_batch.curves[name]
        assert [(b[0], b[2]) for b in x.buckets] == [(b[0], b[2]) for b in y.buckets]
        assert [b[1] for b in x.buckets] == pytest.approx([b[1] for b in y.buckets])
        assert [resolve(b[3]) for b in x.buckets] == [resolve(b[3]) for b in y.buckets]
        assert (x.peak, resolve(x.peak_at)) == (y.peak, resolve(y.peak_at))
    by_row.finish()
    by_batch.finish()
    assert by_row.pressure_count == by_batch.pressure_count > 0
    for ep_a, ep_b in ((by_row.longest, by_batch.longest), (by_row.last_pressure, by_batch.last_pressure)):
        assert (resolve(ep_a.start), resolve(ep_a.end), ep_a.samples, ep_a.waiting) == \
               (resolve(ep_b.start), resolve(ep_b.end), ep_b.samples, ep_b.waiting)
    assert [v for v, _ in by_row.before_failure] == [v for v, _ in by_batch.before_failure]


def test_episode_needs_requests_held_back() -> None:
    s = SeriesSet("x")
    for i in range(6):
        s.add((("kv_usage", 1.0), ("waiting", 0.0), ("running", 8.0)), stamp(i))
    s.finish()
    assert s.longest is not None and s.longest.samples == 6 and not s.longest.under_pressure
    assert s.last_pressure is None
    s2 = SeriesSet("y")
    for i in range(6):
        s2.add((("kv_usage", 1.0), ("waiting", 0.0)), stamp(i))
        s2.add((("preemptions_total", float(i)),), stamp(i))
    s2.finish()
    assert s2.last_pressure is not None and s2.last_pressure.preempted == 5


def test_samples_after_the_failure_do_not_enter_the_ring() -> None:
    s = SeriesSet("x")
    s.add((("kv_usage", 0.4),), stamp(0))
    s.add((("kv_usage", 1.0),), stamp(1), before_failure=False)
    assert [v for v, _ in s.before_failure] == [0.4] and s.failed


def test_lengths_p99_not_mean() -> None:
    lengths = Lengths()
    for i in range(990):
        lengths.add(500)
    for i in range(10):
        lengths.add(8000)
    assert lengths.mean == pytest.approx(575.0)
    assert lengths.quantile(0.99) == pytest.approx(500, rel=0.03)
    assert lengths.quantile(0.995) == pytest.approx(8000, rel=0.03)
    assert lengths.count == 1000 and lengths.max == 8000
    assert len(lengths.counts) == 2


def test_counter_survives_a_reset() -> None:
    c = Counter()
    for v in (3, 5, 9, 1, 4):  # the server restarted after 9
        c.add(v)
    assert c.total == (9 - 3) + 1 + 3


def test_fast_path_reads_every_sample_the_episodes_need() -> None:
    from oomdoctor.parsers import stats
    from oomdoctor.timeline import series

    assert stats.CEILING == series.CEILING
