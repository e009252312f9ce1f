"""oomdoctor.sweep: the memory map on a real pure-Python job under an address-space cap."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from oomdoctor.errors import RerunError
from oomdoctor.rerun import KnobMapping
from oomdoctor.sweep import Fit, SweepAxis, SweepOptions, render_memory_map, sweep

ROOT = Path(__file__).resolve().parent.parent
ALLOC = str(ROOT / "fixtures" / "rerun" / "alloc_bytes.py")
FAKE = str(ROOT / "fixtures" / "rerun" / "fake_server.py")
linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="process groups, RLIMIT_AS")


def test_axis_parse() -> None:
    assert SweepAxis.parse("max_num_seqs=1,2,4,8") == (SweepAxis("max_num_seqs", (1, 2, 4, 8)), None)
    axis, mapping = SweepAxis.parse("batch_size=--batch-size=8,16")
    assert axis == SweepAxis("batch_size", (8, 16)) and mapping == KnobMapping("batch_size", "--batch-size")
    assert SweepAxis.parse("gpu_memory_utilization=0.8,0.9")[0].values == (0.8, 0.9)
    assert SweepAxis.parse("kv_cache_dtype=auto,fp8")[0].values == ("auto", "fp8")
    for bad in ("max_num_seqs", "max_num_seqs=", "x=1,1"):
        with pytest.raises(RerunError):
            SweepAxis.parse(bad)


@linux
def test_two_knob_memory_map(tmp_path: Path) -> None:
    seqs, _ = SweepAxis.parse("seqs=1,2,4,8")
    ctx, _ = SweepAxis.parse("ctx=16384,32768,65536")
    options = SweepOptions(
        axes=(seqs, ctx), knob_map=(KnobMapping("seqs", "--seqs"), KnobMapping("ctx", "--ctx")),
        workdir=tmp_path, timeout_s=30, memory_limit_bytes=256 << 20,
    )
    mm = sweep([sys.executable, ALLOC, "--row", "1024"], dict(os.environ), options)
    grid = {(p.value("seqs"), p.value("ctx")): p.fit for p in mm.points}
    # seqs x ctx x 1 KiB must stay under the 256 MiB cap
    assert grid[(8, 16384)] is Fit.FIT and grid[(4, 32768)] is Fit.FIT and grid[(2, 65536)] is Fit.FIT
    assert grid[(8, 32768)] is Fit.NO_FIT and grid[(4, 65536)] is Fit.NO_FIT
    assert grid[(8, 65536)] is Fit.IMPLIED  # larger in both knobs than a point that did not fit: not run
    assert mm.points[0].settings == (("seqs", 1), ("ctx", 16384))  # the conservative start first
    assert mm.baseline_fits and mm.largest_fit() == {"seqs": 8, "ctx": 65536}
    fits = [p for p in mm.points if p.fit is Fit.FIT]
    assert all(p.peak_source == "rss" and p.rss_bytes for p in fits)
    small, big = grid_point(mm, 1, 16384), grid_point(mm, 2, 65536)
    assert big.rss_bytes - small.rss_bytes > 100 << 20  # the map shows the memory growing
    text = render_memory_map(mm)
    assert "ctx \\ seqs" in text and "OOM*" in text and "fit " in text
    data = json.loads(json.dumps(mm.to_dict()))
    assert data["kind"] == "memory_map" and len(data["points"]) == 12
    assert data["points"][0]["argv"][-4:] == ["--seqs", "1", "--ctx", "16384"]


def grid_point(mm, seqs: int, ctx: int):  # type: ignore[no-untyped-def]
    return next(p for p in mm.points if p.value("seqs") == seqs and p.value("ctx") == ctx)


@linux
def test_sweep_server_and_max_runs(tmp_path: Path) -> None:
    axis, _ = SweepAxis.parse("max_num_seqs=8,32,64,128")
    options = SweepOptions(axes=(axis,), framework="vllm", workdir=tmp_path, timeout_s=30, grace_s=2, max_runs=3)
    mm = sweep([sys.executable, FAKE, "--seq-capacity", "40"], dict(os.environ), options)
    assert [p.fit for p in mm.points] == [Fit.FIT, Fit.FIT, Fit.NO_FIT, Fit.IMPLIED]
    assert mm.points[2].culprit is not None
    options = SweepOptions(axes=(axis,), framework="vllm", workdir=tmp_path / "b", timeout_s=30, grace_s=2, max_runs=1)
    mm = sweep([sys.executable, FAKE, "--seq-capacity", "40"], dict(os.environ), options)
    assert [p.fit for p in mm.points] == [Fit.FIT, Fit.NOT_RUN, Fit.NOT_RUN, Fit.NOT_RUN]


@linux
def test_start_that_does_not_fit(tmp_path: Path) -> None:
    axis, _ = SweepAxis.parse("max_num_seqs=64,128")
    mm = sweep([sys.executable, FAKE, "--seq-capacity", "40"], dict(os.environ),
               SweepOptions(axes=(axis,), framework="vllm", workdir=tmp_path, timeout_s=30))
    assert not mm.baseline_fits and [p.fit for p in mm.points] == [Fit.NO_FIT, Fit.IMPLIED]
    assert "even the conservative start did not fit" in render_memory_map(mm)


def test_unmapped_knob_is_refused_before_running(tmp_path: Path) -> None:
    axis, _ = SweepAxis.parse("batch_size=1,2")
    with pytest.raises(RerunError, match="cannot sweep batch_size"):
        sweep([sys.executable, "-c", "raise SystemExit(9)"], dict(os.environ), SweepOptions(axes=(axis,), workdir=tmp_path))
    assert not list(tmp_path.glob("*.log"))
