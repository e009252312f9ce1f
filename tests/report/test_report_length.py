"""The default terminal report stays short on real logs: median at most 30 lines, none over 60."""

from __future__ import annotations

import statistics
from pathlib import Path

from oomdoctor.diagnose import DiagnoseOptions, diagnose
from oomdoctor.rules.loader import load_rules
from oomdoctor.report.text import TextRenderer

ROOT = Path(__file__).resolve().parents[2]


def test_default_report_is_short_on_every_fixture_log() -> None:
    rules = load_rules(())
    counts = {}
    for log in sorted(ROOT.glob("fixtures/rules/*/*/server.log")):
        report = diagnose(DiagnoseOptions(logs=[str(log)]), rules)
        counts[log.parent.name] = len(TextRenderer(color=False, width=80).render(report).rstrip().splitlines())
    assert len(counts) > 200
    assert statistics.median(counts.values()) <= 30, statistics.median(counts.values())
    longest = max(counts, key=counts.get)
    assert counts[longest] <= 60, (longest, counts[longest])
