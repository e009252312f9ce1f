"""Evaluate rules over facts in the fixed triage order and pick the culprit.

The strongest evidence decides first: only the accounts whose best finding has the highest
confidence present compete. Among those, the gates (not_oom, then host_memory) come first,
then the four steps, weights → kv_cache → activations → framework: the first is the
culprit; later firings are kept as secondary. Within a step rules sort by confidence, then
id. Rules cannot set a priority; a `fallback` rule (a last reading from weak evidence) counts
only when no other rule fired.
"""

from __future__ import annotations

from dataclasses import dataclass

from oomdoctor.facts import Evidence, FactSet
from oomdoctor.model import (
    CONFIDENCE_ORDER, GATES, TRIAGE_STEPS, Account, Confidence, Culprit, Finding, StepStatus, Suggestion, TriageStep,
)
from oomdoctor.rules.model import Rule, render_template, template_keys
from oomdoctor.rules.suggest import build as build_suggestion

TRIAGE_ORDER: tuple[Account, ...] = (*GATES, *TRIAGE_STEPS)


@dataclass(frozen=True)
class Verdict:
    culprit: Culprit
    confidence: Confidence | None
    findings: tuple[Finding, ...]  # triage order: culprit first, then secondary
    suggestions: tuple[Suggestion, ...]
    triage: tuple[TriageStep, ...]


def fire(rule: Rule, facts: FactSet, framework: str, version: str | None) -> Finding | None:
    if not rule.applies_to(framework) or not rule.when.holds(facts):
        return None
    evidence: list[Evidence] = []
    seen: set[tuple[str, int | None]] = set()
    # the facts the rule read, and the lines that set the knobs it suggests changing
    named = rule.when.facts_named() | template_keys(rule.message) | {f"knob.{s.knob}" for s in rule.suggest}
    for key in sorted(k for k in named if not k.startswith(("fit.", "ratio.", "framework", "phase"))):
        for f in facts.all(key):
            ev = f.evidence
            if ev is not None and (ev.source, ev.line) not in seen:
                seen.add((ev.source, ev.line))
                evidence.append(ev)
    evidence.sort(key=lambda e: (e.source, e.line or 0))
    suggestions = []
    for spec in rule.suggest:
        if spec.when is not None and not spec.when.holds(facts):
            continue
        s = build_suggestion(spec, rule.id, rule.account, facts, framework, version)
        if s is not None:
            suggestions.append(s)
    return Finding(
        rule_id=rule.id, account=rule.account, title=rule.title, message=render_template(rule.message, facts),
        confidence=rule.confidence, evidence=tuple(evidence[:12]), suggestions=tuple(suggestions),
        reported_confidence=rule.reported_confidence,
    )


def evaluate(facts: FactSet, rules: tuple[Rule, ...], framework: str, version: str | None = None) -> Verdict:
    fired: dict[Account, list[Finding]] = {a: [] for a in TRIAGE_ORDER}
    last: list[Finding] = []
    for rule in rules:
        finding = fire(rule, facts, framework, version)
        if finding is not None:
            (last if rule.fallback else fired[finding.account]).append(finding)
    if not any(fired.values()):
        for finding in last:
            fired[finding.account].append(finding)
    for found in fired.values():
        found.sort(key=lambda f: (CONFIDENCE_ORDER[f.confidence], f.rule_id))

    culprit_account = _culprit(fired)

    ordered: list[Finding] = []
    if culprit_account is not None:
        ordered.extend(fired[culprit_account])
    for a in TRIAGE_ORDER:
        if a is not culprit_account and culprit_account not in GATES:
            ordered.extend(fired[a])
    culprit = Culprit(culprit_account.value) if culprit_account else Culprit.UNKNOWN
    # (ranked by the rules' confidence; stated as measured, where a rule was found right less often than it claims)
    confidence = ordered[0].stated_confidence if ordered else None
    if confidence is Confidence.HIGH and not facts.has("oom.kind"):
        confidence = Confidence.MEDIUM  # the numbers alone: the log holds no failure line to confirm them
    return Verdict(culprit, confidence, tuple(ordered), _merge_suggestions(ordered), _walk(fired, culprit_account))


def _culprit(fired: dict[Account, list[Finding]]) -> Account | None:
    """The strongest evidence decides, then the triage order: among the accounts whose best
    finding has the highest confidence present, the first in TRIAGE_ORDER (gates first). A
    low-confidence reading from partial evidence never outranks a stated failure."""
    best = min((CONFIDENCE_ORDER[f.confidence] for found in fired.values() for f in found), default=None)
    if best is None:
        return None
    return next(a for a in TRIAGE_ORDER if any(CONFIDENCE_ORDER[f.confidence] == best for f in fired[a]))


def _merge_suggestions(findings: list[Finding]) -> tuple[Suggestion, ...]:
    out: list[Suggestion] = []
    seen: set[tuple[str, str]] = set()
    flags: set[str] = set()  # two knobs one setting moves (device_map="auto" shards and offloads) show once
    for f in findings:
        for s in f.suggestions:
            key = (s.knob, s.action.value)
            if key not in seen and (s.flag is None or s.flag not in flags):
                seen.add(key)
                if s.flag is not None:
                    flags.add(s.flag)
                out.append(s)
    return tuple(out)


def _walk(fired: dict[Account, list[Finding]], culprit: Account | None) -> tuple[TriageStep, ...]:
    steps = []
    reached = culprit is None or culprit not in GATES
    passed_culprit = False
    for a in TRIAGE_STEPS:
        found = fired[a]
        if not reached:
            status, note = StepStatus.NOT_REACHED, f"not reached: the failure is {culprit.value if culprit else '?'}"
        elif a is culprit:
            status, note = StepStatus.CULPRIT, found[0].title
            passed_culprit = True
        elif found and passed_culprit:
            status, note = StepStatus.SECONDARY, found[0].title
        elif passed_culprit:
            status, note = StepStatus.NOT_REACHED, "not reached: an earlier account explains the failure"
        else:
            status, note = StepStatus.NO_EVIDENCE, "no rule fired"
        steps.append(TriageStep(a, status, note))
    return tuple(steps)
