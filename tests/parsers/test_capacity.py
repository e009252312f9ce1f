"""A failure line's figures in its own words: each size bound to the word beside it."""

from __future__ import annotations

import pytest

from oomdoctor.parsers.capacity import figures

GiB = 1 << 30
MiB = 1 << 20


@pytest.mark.parametrize(("line", "expected"), [
    ("Error: failed to allocate 2.5 GiB on device 0 (1.2 GiB free of 24 GiB)",
     {"requested": int(2.5 * GiB), "free": round(1.2 * GiB), "total": 24 * GiB}),
    ("out of memory: requested 4096 MiB, available 1024 MiB, total 16384 MiB",
     {"requested": 4 * GiB, "free": GiB, "total": 16 * GiB}),
    ("CUDA OOM: need 12.3GB but only 8.1GB free (total 24GB)",
     {"required": round(12.3 * GiB), "free": round(8.1 * GiB), "total": 24 * GiB}),
    ("RuntimeError: not enough GPU memory: 3.2 GiB needed, 1.1 GiB available",
     {"required": round(3.2 * GiB), "free": round(1.1 * GiB)}),
    # what is used of the total leaves the rest free
    ("ERROR: insufficient VRAM (used 23.5 GB of 24 GB) while loading model", {"free": GiB // 2, "total": 24 * GiB}),
    # bare byte counts after a label and a colon
    ("Failed to allocate 1073741824 bytes: out of memory (free: 524288000, total: 8589934592)",
     {"requested": GiB, "free": 524288000, "total": 8 * GiB}),
    ("cuMemAlloc_v2 failed: status 2, requested 4683632640 bytes (device reports 4280.2 MB free / 95.0 GB total)",
     {"requested": 4683632640, "free": round(4280.2 * MiB), "total": 95 * GiB}),
])
def test_each_size_takes_the_word_beside_it(line: str, expected: dict[str, int]) -> None:
    got = figures(line)
    assert set(got) == set(expected)
    for key, value in expected.items():
        assert abs(got[key] - value) <= 1, key


def test_sizes_with_no_word_for_them_are_left_alone() -> None:
    # a buffer's size and a bank's: neither is free, total or the request in these words
    assert figures("Not enough space to allocate 2359296000 B DRAM buffer across 12 banks, but bank size is only 1073741792 B") == {
        "requested": 2359296000}
    assert figures("CUDA error: out of memory at line 42 of kernel.cu (device 0)") == {}


def test_figures_that_contradict_each_other_are_dropped() -> None:
    # more free than the total is a misreading: neither is kept
    assert figures("out of memory: 30 GiB free, total 24 GiB") == {}
    # more used than the total names no free memory
    assert figures("out of memory: used 30 GiB of 24 GiB") == {"total": 24 * GiB}
