"""The one library entry point: logs (and optional probe/settings facts) in, a Report out."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

from oomdoctor import __version__, knobs
from oomdoctor.errors import UsageError
from oomdoctor.facts import Evidence, Fact, FactSet, Origin
from oomdoctor.ledger import derive, ledger, step_numbers
from oomdoctor.model import Culprit, LogSource, Report, StepStatus, TriageStep
from oomdoctor.parsers import detect
from oomdoctor.parsers.base import timestamp
from oomdoctor.parsers.scan import NOT_OOM_KINDS, ScanResult, scan
from oomdoctor.rules.engine import evaluate
from oomdoctor.rules.loader import RuleSet, load_rules

SCHEMA_VERSION = "1.0"


@dataclass(frozen=True)
class DiagnoseOptions:
    logs: Sequence[str]
    framework: str | None = None
    rule_dirs: Sequence[Path] = ()
    extra_facts: Sequence[Fact] = ()  # from probes, --pid settings, the memory model
    probe: dict | None = None  # snapshot to attach to the report
    skipped: Sequence[str] = ()
    labels: Sequence[str] = field(default_factory=tuple)
    model: str | None = None  # model config for the architecture-level memory model


def diagnose(opts: DiagnoseOptions, rules: RuleSet | None = None) -> Report:
    if not opts.logs:
        raise UsageError("no log given: pass --log PATH (or --log - for stdin)")
    framework_override = None
    if opts.framework:
        framework_override = knobs.canonical_framework(opts.framework)
        if framework_override is None:
            raise UsageError(f"unknown framework {opts.framework!r} (known: {', '.join(knobs.FRAMEWORKS)})")
    rules = rules or load_rules(opts.rule_dirs)
    labels = list(opts.labels) or _labels(opts.logs)
    results = [scan(path, label) for path, label in zip(opts.logs, labels)]
    return build_report(results, rules, framework_override, opts)


def build_report(results: list[ScanResult], rules: RuleSet, framework_override: str | None, opts: DiagnoseOptions) -> Report:
    first = _first_failure(results)
    scores: dict[str, int] = {}
    for r in results:
        for fw, s in r.framework_scores.items():
            scores[fw] = scores.get(fw, 0) + s
    framework = framework_override or detect.decide(scores)
    phase = (first or results[0]).phase

    facts = FactSet(_dedupe(f for r in results for f in r.facts))
    base: list[Fact] = [Fact("framework", framework, Origin.LOG, None)]
    if phase:
        base.append(Fact("phase", phase, Origin.LOG, None))
    if first is not None and first.first_failure_text:
        base.append(Fact("oom.message", first.first_failure_text, Origin.LOG,
                         Evidence(first.path, first.first_failure_line, first.first_failure_text)))
    facts = facts.with_(base).with_(opts.extra_facts)
    if opts.model:
        from oomdoctor import memory

        facts = facts.with_(memory.estimate_facts(facts, opts.model))
    facts = facts.with_(derive(facts))

    version = facts.value("framework.version")
    verdict = evaluate(facts, rules.rules, framework, str(version) if version else None)
    labelled = _label_findings(verdict.findings, results)
    kinds = {str(v) for v in facts.values("oom.kind")}
    memory_failure = bool(kinds - NOT_OOM_KINDS) or verdict.culprit not in (Culprit.UNKNOWN, Culprit.NOT_OOM)
    triage = _annotate(verdict.triage, facts)
    sources = tuple(
        LogSource(r.path, r.label, r.lines, r.first_failure_line, timestamp(r.first_failure_text)) for r in results
    )
    warnings = tuple(w for r in results for w in r.warnings) + tuple(f"rule file skipped: {e}" for e in rules.errors)
    missing = _missing_evidence(facts, verdict.culprit, memory_failure)
    return Report(
        schema_version=SCHEMA_VERSION,
        framework=framework,
        framework_version=str(version) if version else None,
        culprit=verdict.culprit,
        confidence=verdict.confidence,
        phase=phase,
        summary=_summary(verdict.culprit, labelled, verdict.suggestions, memory_failure),
        findings=labelled,
        suggestions=verdict.suggestions,
        triage=triage,
        ledger=ledger(facts),
        facts=facts,
        sources=sources,
        missing_evidence=missing,
        warnings=warnings,
        skipped=tuple(opts.skipped),
        failed_first=first.label if first is not None and len(results) > 1 else None,
        probe=opts.probe,
        memory_failure=memory_failure,
        extra={"oomdoctor_version": __version__},
    )


_RANK = re.compile(r"(rank[-_]?\d+|pod[-_]?[\w-]+?|worker[-_]?\d+|node[-_]?\d+)(?=[._-]|$)", re.I)


def _labels(paths: Sequence[str]) -> list[str]:
    """One label per log: the rank/pod/worker named in the file name (else in its folder),
    else the file name; made unique."""
    if len(paths) == 1:
        return [paths[0] if paths[0] != "-" else "<stdin>"]
    out: list[str] = []
    for p in paths:
        if p == "-":
            label = "<stdin>"
        else:
            path = Path(p)
            m = _RANK.search(path.name) or _RANK.search(path.parent.name)
            label = m.group(1) if m else path.name
        out.append(label if label not in out else f"{label}#{len(out) + 1}")
    return out


def _dedupe(facts: Iterable[Fact]) -> list[Fact]:
    seen: set[tuple[str, object, str | None, int | None]] = set()
    out = []
    for f in facts:
        key = (f.key, f.value, f.evidence.source if f.evidence else None, f.evidence.line if f.evidence else None)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


def _first_failure(results: list[ScanResult]) -> ScanResult | None:
    failed = [r for r in results if r.first_failure_line is not None]
    if not failed:
        return None
    stamped = [(timestamp(r.first_failure_text), r) for r in failed]
    if all(ts for ts, _ in stamped):
        return min(stamped, key=lambda p: p[0] or "")[1]
    return failed[0]


def _label_findings(findings: tuple, results: list[ScanResult]) -> tuple:
    if len(results) < 2:
        return findings
    from dataclasses import replace

    by_path = {r.path: r.label for r in results}
    failed = {r.path for r in results if r.first_failure_line is not None}
    out = []
    for f in findings:
        # label a finding by the logs that failed; a healthy rank's config line is context only
        paths = {e.source for e in f.evidence}
        labels = sorted({by_path.get(p, p) for p in (paths & failed or paths)})
        out.append(replace(f, source=", ".join(labels) if labels else None))
    return tuple(out)


def _annotate(steps: tuple[TriageStep, ...], facts: FactSet) -> tuple[TriageStep, ...]:
    from dataclasses import replace

    numbers = step_numbers(facts)
    out = []
    for s in steps:
        n = numbers.get(s.account)
        if s.status is StepStatus.NO_EVIDENCE and n:
            out.append(replace(s, status=StepStatus.RULED_OUT, note=f"ruled out: {n}"))
        elif n and s.status in (StepStatus.CULPRIT, StepStatus.SECONDARY):
            out.append(replace(s, note=f"{s.note} ({n})"))
        else:
            out.append(s)
    return tuple(out)


def _missing_evidence(facts: FactSet, culprit: Culprit, memory_failure: bool) -> tuple[str, ...]:
    if culprit is not Culprit.UNKNOWN:
        return ()
    missing = []
    if not facts.has("oom.kind"):
        missing.append("the failure itself: the last 50 lines of the log, with the traceback's final error line")
    if not any(k.startswith("knob.") for k in facts.keys()):
        missing.append("the log's start with the engine's config line (vLLM 'non-default args' / 'Initializing ... with config', "
                       "SGLang 'server_args=', TGI 'Args {', llama.cpp 'n_ctx =')")
        missing.append("the launch command (flags and environment), or `oomdoctor diagnose --pid PID` while it runs")
    if not (facts.has("mem.gpu_total_bytes") or facts.has("oom.gpu_total_bytes") or facts.has("gpu.total_bytes")):
        missing.append("a probe of the host: run `oomdoctor diagnose --log ... --probe` on the machine (GPU, host RAM, container limits)")
    if not facts.has("phase"):
        missing.append("the phase: the lines just before the failure (weights loading, profiling, CUDA-graph capture, serving)")
    if memory_failure and not missing:
        missing.append("the numbers of the failure: the full CUDA OOM message (requested, free, allocated, reserved)")
    return tuple(missing)


def _summary(culprit: Culprit, findings: tuple, suggestions: tuple, memory_failure: bool) -> str:
    if culprit is Culprit.UNKNOWN:
        return ("A memory failure was found, but the evidence does not decide which account broke."
                if memory_failure else "No memory failure found in the log.")
    head = findings[0].message if findings else culprit.value
    if suggestions and suggestions[0].flag:
        return f"{culprit.value}: {head} Fix first: {suggestions[0].flag}"
    return f"{culprit.value}: {head}"
