"""Healthy curves (fixtures/timeline/ok-*): the timeline rules stay quiet, nothing is under pressure,
and the exit status is 0. The other side of each rule's firing fixture."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from oomdoctor.diagnose import DiagnoseOptions, diagnose
from oomdoctor.timeline.recording import read_timeline

ROOT = Path(__file__).resolve().parents[2] / "fixtures" / "timeline"
CASES = sorted(p.parent for p in ROOT.glob("*/expect.yaml"))


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_healthy_curve(case: Path) -> None:
    expect = yaml.safe_load((case / "expect.yaml").read_text())
    timelines = [read_timeline(str(case / "timeline.jsonl"))] if (case / "timeline.jsonl").exists() else []
    report = diagnose(DiagnoseOptions(logs=[str(case / "server.log")], timelines=timelines))
    fired = [f.rule_id for f in report.findings]
    assert expect["not_fires"], "a healthy case names the rules it keeps quiet"
    assert not set(fired) & set(expect["not_fires"]), fired
    assert report.pressure == () and report.memory_failure is False
    assert report.facts.value("series.samples") or report.facts.value("series.requests")  # the curve was read


def test_every_timeline_rule_has_a_healthy_case() -> None:
    quiet = set()
    for case in CASES:
        quiet |= set(yaml.safe_load((case / "expect.yaml").read_text())["not_fires"])
    assert {"kv-saturated-curve", "fw-gpu-memory-growth", "host-memory-growth", "kv-p99-prompt-at-context",
            "kv-p99-batch-overfills-pool"} <= quiet
