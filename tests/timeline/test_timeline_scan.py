"""The scanner's fast path for vLLM's stats lines gives the same series as the general matcher,
keeps line numbers right, and keeps memory flat however long the log is."""

from __future__ import annotations

import random
import tracemalloc
from pathlib import Path

import pytest

from oomdoctor.parsers import stats
from oomdoctor.parsers.scan import scan
from oomdoctor.timeline.series import resolve

HEAD = ("INFO 07-08 13:05:01 [api_server.py:1395] vLLM API server version 0.9.2\n"
        "INFO 07-08 13:05:37 [kv_cache_utils.py:716] GPU KV cache size: 455,632 tokens\n")


def write_log(path: Path, lines: int, seed: int = 1, oom_at: int | None = None) -> list[int]:
    """A serving log: access lines, a stats line every ~20, a preemption now and then; returns the
    line numbers of the stats lines."""
    rng = random.Random(seed)
    stats_lines = []
    with path.open("w") as f:
        f.write(HEAD)
        n = 2
        for i in range(lines):
            n += 1
            r = rng.random()
            t = f"07-08 {13 + i // 36000 % 10:02d}:{i // 600 % 60:02d}:{i // 10 % 60:02d}"
            if oom_at is not None and i == oom_at:
                f.write(f"ERROR {t} [core.py:588] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a "
                        "total capacity of 79.19 GiB of which 18.44 MiB is free.\n")
            elif r < 0.05:
                stats_lines.append(n)
                kv = rng.choice([rng.uniform(0, 90), 100.0]) if (i // 400) % 5 == 2 else rng.uniform(0, 90)
                f.write(f"INFO {t} [loggers.py:116] Engine 000: Avg prompt throughput: {rng.uniform(0, 9000):.1f} tokens/s, Avg "
                        f"generation throughput: {rng.uniform(0, 2500):.1f} tokens/s, Running: {rng.randrange(256)} reqs, Waiting: "
                        f"{rng.randrange(40)} reqs, GPU KV cache usage: {kv:.1f}%, Prefix cache hit rate: 12.0%\n")
            elif r < 0.052:
                f.write(f"WARNING {t} [scheduler.py:1057] Sequence group cmpl-{i:x} is preempted by PreemptionMode.RECOMPUTE mode "
                        f"because there is not enough KV cache space. total_num_cumulative_preemption={i}\n")
            else:
                f.write(f'INFO:     10.0.0.{i % 250}:{40000 + i % 20000} - "POST /v1/chat/completions HTTP/1.1" 200 OK\n')
    return stats_lines


def summary(result):  # type: ignore[no-untyped-def]
    """What must be the same whichever path read the lines: the KV curve sample by sample, the
    saturation episodes with their running/waiting, the samples before the failure, line numbers."""
    s = result.series
    curves = {k: (c.n, c.peak, resolve(c.peak_at)[1], [resolve(b[3])[1] for b in c.buckets], c.peaks())
              for k, c in s.curves.items() if k in ("kv_usage", "preemptions_total")}
    eps = [(resolve(e.start)[1], resolve(e.end)[1], e.samples, e.waiting, e.preempted) for e in (s.longest, s.last_pressure) if e]
    ring = [(v, resolve(a)[1]) for v, a in s.before_failure]
    return s.samples, curves, eps, s.pressure_count, ring, result.lines, result.first_failure_line


def test_fast_path_equals_general_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "serving.log"
    stats_lines = write_log(log, 60_000, oom_at=59_000)
    fast = scan(str(log))
    monkeypatch.setattr(stats.FastStats, "WARM", 10**9)  # every line through the general matcher
    general = scan(str(log))
    assert summary(fast) == summary(general)
    for name in ("running", "waiting"):  # below the ceiling the fast path reads one sample in four: the shape, bounded by the real peak
        f, g = fast.series.curves[name], general.series.curves[name]
        assert g.n / 4 <= f.n <= g.n and f.peak <= g.peak and f.peak >= 0.8 * g.peak
    assert fast.series.curves["kv_usage"].n == len(stats_lines)
    assert resolve(fast.series.curves["kv_usage"].peak_at)[1] in stats_lines
    assert fast.first_failure_line == 60_000 - 1000 + 3  # the OOM line, counted through the skipped stats lines
    assert fast.series.failed


def test_memory_stays_flat_with_log_length(tmp_path: Path) -> None:
    small, large = tmp_path / "small.log", tmp_path / "large.log"
    write_log(small, 40_000)
    write_log(large, 400_000)
    peaks = []
    for path in (small, large):
        scan(str(path))  # warm: compiled patterns, prefilter
        tracemalloc.start()
        result = scan(str(path))
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        assert all(len(c.buckets) <= 240 for c in result.series.curves.values())
    assert large.stat().st_size > 9 * small.stat().st_size
    assert peaks[1] < peaks[0] * 1.5 + (2 << 20), peaks  # ten times the log, not ten times the memory


def test_stats_lines_past_the_warm_ones_take_the_fast_path_in_the_head(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """In a log's head every framework signal selects its line, and a stats line's first selected word is a signal's
    ("loggers.py", "Engine 000"), not its KV field: past the first WARM stats lines the fast path still takes it."""
    from oomdoctor.parsers import scan as scan_module

    log = tmp_path / "serving.log"
    stats_lines = write_log(log, 20_000)  # all of it within the head
    handled: list[str] = []
    general = scan_module._State.handle

    def counting(self, line_no: int, text: str) -> None:  # type: ignore[no-untyped-def]
        handled.append(text)
        general(self, line_no, text)

    monkeypatch.setattr(scan_module._State, "handle", counting)
    result = scan(str(log))
    assert result.series.curves["kv_usage"].n == len(stats_lines) > 2 * stats.FastStats.WARM
    assert sum("KV cache usage" in t for t in handled) == stats.FastStats.WARM


class _Pipe:
    """A pipe's reads: a little less than asked each time, as a pipe or a socket may return."""

    def __init__(self, data: bytes) -> None:
        self._data, self._pos = data, 0

    def read(self, n: int) -> bytes:
        chunk = self._data[self._pos:self._pos + max(1, n - 4099)]
        self._pos += len(chunk)
        return chunk


def test_reading_ahead_on_a_second_thread_gives_the_same_report(tmp_path: Path) -> None:
    """A log of several blocks read from a file is searched a block ahead on a worker thread; read from a pipe, whose
    first read comes back short of a block, it is searched in line. Both give the same facts, curves and line numbers,
    across block boundaries that fall inside lines, and the failure on its line."""
    from oomdoctor.parsers import scan as scan_module

    log = tmp_path / "serving.log"
    write_log(log, 330_000, oom_at=329_000)
    assert log.stat().st_size > 3 * scan_module.CHUNK  # the worker reads and searches at least two blocks
    ahead = scan(str(log))
    inline = scan_module.scan_stream(_Pipe(log.read_bytes()), str(log), "serving.log")  # type: ignore[arg-type]
    assert summary(ahead) == summary(inline)
    assert sorted(map(repr, ahead.facts)) == sorted(map(repr, inline.facts))
    assert ahead.first_failure_line == 330_000 - 1000 + 3
    assert ahead.series.samples > 10_000  # the stats lines past the head were read in spans, not skipped


def test_a_read_ahead_that_fails_stops_cleanly(tmp_path: Path) -> None:
    """A gzip log cut short past its first blocks fails on the worker thread: the scan says so in its one-line error,
    as it does in line, and leaves no thread behind nor the interpreter's switch interval changed."""
    import gzip
    import sys
    import threading

    from oomdoctor.errors import InputError

    log = tmp_path / "serving.log"
    write_log(log, 330_000, oom_at=329_000)
    packed = gzip.compress(log.read_bytes(), compresslevel=1)
    cut = tmp_path / "serving.log.gz"
    cut.write_bytes(packed[: len(packed) * 3 // 4])
    interval, threads = sys.getswitchinterval(), threading.active_count()
    with pytest.raises(InputError, match="truncated gzip"):
        scan(str(cut))
    assert sys.getswitchinterval() == interval
    assert threading.active_count() == threads


def test_scans_on_two_threads_at_once_agree_and_restore_the_switch_interval(tmp_path: Path) -> None:
    """Two scans of a long log running together (a library caller's threads) each read ahead; they give the report one
    scan gives, and the interpreter's switch interval is back to what it was once both are done."""
    import sys
    import threading

    log = tmp_path / "serving.log"
    write_log(log, 330_000, oom_at=329_000)
    alone = summary(scan(str(log)))
    interval = sys.getswitchinterval()
    results: list[object] = []
    threads = [threading.Thread(target=lambda: results.append(summary(scan(str(log))))) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [alone, alone]
    assert sys.getswitchinterval() == interval
