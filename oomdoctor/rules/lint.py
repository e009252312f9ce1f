"""Rule lint, kept apart from parsing: issues with a severity, per rule and across rules.

Parsing (`Rule.from_dict`) already rejects unknown keys, fact keys, knob ids and bad
operators. Lint adds what needs more than one file: fixtures per rule (test/stable rules
need one where the rule fires and one where it must not), fixtures naming unknown rules,
and suggestion knobs that have no spelling in a framework the rule targets.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from oomdoctor import knobs
from oomdoctor.rules.model import Rule


class Severity(str, Enum):
    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"


@dataclass(frozen=True)
class LintIssue:
    rule_id: str
    severity: Severity
    message: str
    path: str = ""


@dataclass(frozen=True)
class FixtureCase:
    path: str
    fires: tuple[str, ...]
    not_fires: tuple[str, ...]


def load_fixture_cases(root: Path) -> list[FixtureCase]:
    import yaml

    cases = []
    for case in sorted(root.rglob("case.yaml")):
        data = yaml.safe_load(case.read_text(encoding="utf-8")) or {}
        cases.append(FixtureCase(str(case.parent), tuple(data.get("fires") or ()), tuple(data.get("not_fires") or ())))
    return cases


def lint(rules: tuple[Rule, ...], fixtures: list[FixtureCase] | None = None) -> list[LintIssue]:
    issues: list[LintIssue] = []
    ids = {r.id for r in rules}
    for rule in rules:
        issues.extend(_lint_rule(rule))
    if fixtures is not None:
        for case in fixtures:
            for rid in (*case.fires, *case.not_fires):
                if rid not in ids:
                    issues.append(LintIssue(rid, Severity.HIGH, f"fixture {case.path} names unknown rule {rid!r}", case.path))
        for rule in rules:
            if rule.status == "experimental":
                continue
            fires = sum(rule.id in c.fires for c in fixtures)
            ok = sum(rule.id in c.not_fires for c in fixtures)
            if not fires:
                issues.append(LintIssue(rule.id, Severity.HIGH, f"{rule.status} rule has no fixture where it fires", rule.path))
            if not ok:
                issues.append(LintIssue(rule.id, Severity.HIGH, f"{rule.status} rule has no fixture where it must not fire", rule.path))
    return issues


def _lint_rule(rule: Rule) -> list[LintIssue]:
    issues = []
    if not rule.suggest and rule.account.value != "not_oom":
        issues.append(LintIssue(rule.id, Severity.MEDIUM, "rule suggests no knob", rule.path))
    if len(rule.description) < 20:
        issues.append(LintIssue(rule.id, Severity.LOW, "description is missing or very short", rule.path))
    targets = [f for f in rule.frameworks if f != "any"]
    for spec in rule.suggest:
        for fw in targets:
            if knobs.spelling(fw, knobs.knob_for(fw, spec.knob)) is None:
                issues.append(LintIssue(rule.id, Severity.MEDIUM, f"knob {spec.knob!r} has no spelling for {fw}", rule.path))
    return issues
