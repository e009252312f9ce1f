"""Every rule fixture (`fixtures/rules/<rule-id>/<case>/`) through the real, offline `diagnose()`.

Checks per case: each rule in `fires` fired and none in `not_fires` did; the culprit equals the
label's (labels of confidence high/medium, or `culprit_strict: true`); when `fix_knobs` names a
canonical knob, one of the first three suggested knobs is among them; `suggest_first` matches the
first suggestion (knob, and action/value when given). Known gaps (`todo_*`) run as strict xfail, so fixing one fails the suite until
the expectation is promoted. Parametrisation and the `diagnosed` fixture live in conftest.py.
"""

from __future__ import annotations

import re
from typing import Any



def _fired(report: Any) -> list[str]:
    return [f.rule_id for f in report.findings]


def _knobs(report: Any, n: int = 3) -> list[str]:
    return [s.knob for s in report.suggestions[:n]]


def _explain(case: Any, report: Any, problem: str) -> str:
    lines = [
        f"{case.id}: {problem}",
        f"  log:        {case.log}",
        f"  expected:   fires={list(case.ids('fires'))} not_fires={list(case.ids('not_fires'))} "
        f"culprit={case.label.get('culprit')} fix_knobs={case.label.get('fix_knobs')}",
        f"  fired:      {_fired(report)}",
        f"  culprit:    {report.culprit.value} (framework={report.framework}, phase={report.phase})",
        f"  suggested:  {[(s.knob, s.action.value, s.value) for s in report.suggestions[:5]]}",
        "  facts seen:",
    ]
    for fact in report.facts:
        where = f"  (line {fact.evidence.line})" if fact.evidence is not None and fact.evidence.line else ""
        value = repr(fact.value)
        lines.append(f"    {fact.key} = {value[:100]}{'...' if len(value) > 100 else ''}{where}")
    return "\n".join(lines)


def test_expected_rules_fire(rule_case: Any, diagnosed: Any) -> None:
    report = diagnosed(rule_case)
    missed = [r for r in rule_case.ids("fires") if r not in _fired(report)]
    assert not missed, _explain(rule_case, report, f"expected to fire but did not: {missed}")


def test_excluded_rules_do_not_fire(rule_case: Any, diagnosed: Any) -> None:
    report = diagnosed(rule_case)
    wrong = [r for r in rule_case.ids("not_fires") if r in _fired(report)]
    assert not wrong, _explain(rule_case, report, f"fired but must not: {wrong}")


def test_culprit(culprit_case: Any, diagnosed: Any) -> None:
    report = diagnosed(culprit_case)
    expected = culprit_case.label["culprit"]
    assert report.culprit.value == expected, _explain(culprit_case, report, f"culprit {report.culprit.value}, label says {expected}")


def test_first_suggestions_include_a_fix_knob(knob_case: Any, diagnosed: Any) -> None:
    report = diagnosed(knob_case)
    first = _knobs(report)
    wanted = sorted(knob_case.canonical_knobs)
    assert set(first) & set(wanted), _explain(knob_case, report, f"first three suggested knobs {first} include none of {wanted}")


def test_first_suggestion(suggest_first_case: Any, diagnosed: Any) -> None:
    report = diagnosed(suggest_first_case)
    spec = suggest_first_case.label["suggest_first"]
    assert report.suggestions, _explain(suggest_first_case, report, f"no suggestion; expected {spec}")
    first = report.suggestions[0]
    assert first.knob == spec["knob"], _explain(suggest_first_case, report, f"first suggestion is {first.knob}, expected {spec['knob']}")
    if "action" in spec:
        assert first.action.value == spec["action"], _explain(
            suggest_first_case, report, f"first suggestion action is {first.action.value}, expected {spec['action']}")
    if "value" in spec:
        assert str(first.value) == str(spec["value"]), _explain(
            suggest_first_case, report, f"first suggestion value is {first.value!r}, expected {spec['value']!r}")


def test_known_gap(todo_expectation: Any, diagnosed: Any) -> None:
    """Strict xfail: passes (and so fails the run) once the gap is fixed; then move the
    expectation out of todo_* into fires/not_fires (or drop todo_culprit/todo_suggest)."""
    t = todo_expectation
    report = diagnosed(t.case)
    if t.kind == "todo_fires":
        assert t.rule_id in _fired(report), _explain(t.case, report, f"{t.rule_id} still does not fire")
    elif t.kind == "todo_not_fires":
        assert t.rule_id not in _fired(report), _explain(t.case, report, f"{t.rule_id} still fires")
    elif t.kind == "todo_culprit":
        assert report.culprit.value == t.case.label["culprit"], _explain(t.case, report, "culprit still differs")
    elif t.kind == "todo_suggest":
        assert set(_knobs(report)) & t.case.canonical_knobs, _explain(t.case, report, "first suggestions still miss fix_knobs")
        spec = t.case.label.get("suggest_first")
        if spec:
            assert report.suggestions and report.suggestions[0].knob == spec["knob"]
    else:  # pragma: no cover - conftest only makes the four kinds
        raise AssertionError(f"unknown todo kind {t.kind}")


def test_messages_show_no_missing_value(rule_case: Any, diagnosed: Any) -> None:
    """A placeholder without a value renders as "?": a rule's message puts what it may lack in
    an optional [[...]] segment."""
    report = diagnosed(rule_case)
    shown = [f"{f.rule_id}: {f.message}" for f in report.findings if re.search(r"(?:^|\s)\?(?:$|[\s.,;:)])", f.message)]
    assert not shown, _explain(rule_case, report, f"message with a missing value: {shown}")
