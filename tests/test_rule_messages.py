"""A finding's message states its figures, or leaves the clause out: a placeholder outside an optional `[[...]]`
segment that no fact fills prints "?" in the report ("the card's ?"). Checked on every rule fixture's log through the
real diagnose(), and on the template function itself."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from oomdoctor.facts import Fact, FactSet, Origin
from oomdoctor.rules.loader import load_rules
from oomdoctor.rules.model import Rule, render_template, unfilled_placeholders


@lru_cache(maxsize=1)
def _rules() -> dict[str, Rule]:
    return {r.id: r for r in load_rules(()).rules}


def test_fired_rules_fill_every_bare_placeholder(rule_case: Any, diagnosed: Any) -> None:
    report = diagnosed(rule_case)
    for finding in report.findings:
        missing = unfilled_placeholders(_rules()[finding.rule_id].message, report.facts)
        assert not missing, f"{rule_case.id}: {finding.rule_id} prints '?' for {missing}: {finding.message}"


def test_unfilled_placeholders_are_the_bare_ones_without_a_value() -> None:
    facts = FactSet([Fact("oom.gpu_free_bytes", 1 << 30, Origin.LOG)])
    text = "Card {oom.gpu_total_bytes,gpu.total_bytes|bytes}[[, {oom.gpu_free_bytes|bytes} free]][[, {oom.requested_bytes|bytes} asked]]."
    assert unfilled_placeholders(text, facts) == ["oom.gpu_total_bytes,gpu.total_bytes"]
    assert render_template(text, facts) == "Card ?, 1.00 GiB free."
    facts = FactSet([Fact("gpu.total_bytes", 24 << 30, Origin.LOG)])
    assert unfilled_placeholders(text, facts) == []
    assert render_template(text, facts) == "Card 24.00 GiB."
