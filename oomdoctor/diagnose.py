"""The one library entry point: logs (and optional probe/settings facts) in, a Report out."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

from oomdoctor import __version__, knobs
from oomdoctor.errors import UsageError
from oomdoctor.facts import Evidence, Fact, FactSet, Origin
from oomdoctor.ledger import assess
from oomdoctor.model import Account, Culprit, LogSource, Report, StepStatus, TriageStep
from oomdoctor.parsers import detect
from oomdoctor.parsers.base import timestamp
from oomdoctor.parsers.scan import NOT_OOM_KINDS, ScanResult, params_from_name, scan
from oomdoctor.rules.engine import evaluate
from oomdoctor.rules.loader import RuleSet, load_rules

SCHEMA_VERSION = "1.1"  # 1.1: the ledger's "in_use" account (the card's use where the log names no part)


@dataclass(frozen=True)
class DiagnoseOptions:
    logs: Sequence[str]
    framework: str | None = None
    rule_dirs: Sequence[Path] = ()
    extra_facts: Sequence[Fact] = ()  # from probes, --pid settings, the memory model
    probe: dict | None = None  # snapshot to attach to the report
    skipped: Sequence[str] = ()
    labels: Sequence[str] = field(default_factory=tuple)
    model: str | None = None  # a model config path/dir/GGUF, an HF-cache id, or a model name (catalog)
    commands: Sequence[str] = ()  # launch commands as the user has them (--cmd)
    gpu: str | None = None  # the card as a person writes it (--gpu)
    specs: Sequence[tuple[str, Any]] = ()  # (source, parsed YAML) of compose files / Kubernetes objects (--spec)
    timelines: Sequence[ScanResult] = ()  # recordings and Prometheus ranges, read by oomdoctor.timeline


def diagnose(opts: DiagnoseOptions, rules: RuleSet | None = None) -> Report:
    if not opts.logs and not opts.timelines:
        raise UsageError("no log given: pass --log PATH (or --log - for stdin), --timeline FILE or --prometheus URL")
    framework_override = None
    if opts.framework:
        framework_override = knobs.canonical_framework(opts.framework)
        if framework_override is None:
            raise UsageError(f"unknown framework {opts.framework!r} (known: {', '.join(knobs.FRAMEWORKS)})")
    rules = rules or load_rules(opts.rule_dirs)
    labels = list(opts.labels) or _labels(opts.logs)
    results = [scan(path, label) for path, label in zip(opts.logs, labels)] + list(opts.timelines)
    return build_report(results, rules, framework_override, opts)


# a framework the launch command names counts like a launch line in the log
CONTEXT_FRAMEWORK_WEIGHT = 8


def build_report(results: list[ScanResult], rules: RuleSet, framework_override: str | None, opts: DiagnoseOptions) -> Report:
    from oomdoctor import context

    ctx = context.gather(opts.commands, opts.gpu, opts.model, opts.specs)
    first = _first_failure(results)
    scores: dict[str, int] = {}
    for r in results:
        for fw, s in r.framework_scores.items():
            scores[fw] = scores.get(fw, 0) + s
    if ctx.framework:
        scores[ctx.framework] = scores.get(ctx.framework, 0) + CONTEXT_FRAMEWORK_WEIGHT
        if ctx.framework == "ollama":  # an Ollama command or model tag: llama.cpp's lines are its runner's
            scores[detect.OLLAMA_RUNNER] = CONTEXT_FRAMEWORK_WEIGHT
    framework = framework_override or detect.decide(scores)
    assumed = (f"framework: no engine named in the log, only PyTorch or a Python traceback; read as {framework} "
               "(--framework overrides)",) if not framework_override and detect.assumed(scores, framework) else ()
    phase = (first or results[0]).phase

    facts = FactSet(_without_fault_echoes(_dedupe(f for r in results for f in r.facts)))
    base: list[Fact] = [Fact("framework", framework, Origin.LOG, None)]
    if phase:
        base.append(Fact("phase", phase, Origin.LOG, None))
    if {str(f.value) for f in facts.all("oom.kind")} - NOT_OOM_KINDS:
        base.append(Fact("oom.memory", True, Origin.LOG, None))
    if first is not None and first.first_failure_text:
        base.append(Fact("oom.message", *_failure_statement(first, facts)))
    facts = facts.with_(base).with_(opts.extra_facts).with_(ctx.facts)
    if ctx.model is None and not opts.model:
        # the catalog's facts about the model the log names (its size, layers, default context);
        # the full estimate runs only for a model the user names
        named = facts.value("knob.model")
        if isinstance(named, str) and named.strip():
            known = context.from_model(named, quiet=True)
            if known.model is not None:  # the catalog's count beats the size in the name ("17B-16E" names the active ones)
                guess = params_from_name(named)
                facts = FactSet(f for f in facts if not (f.key == "model.params" and f.value == guess))
            facts = facts.with_(f for f in known.facts if f.key != "knob.model" and not facts.has(f.key))
    if ctx.model:
        from oomdoctor import memory

        facts = facts.with_(memory.estimate_facts(facts, ctx.model))
    series, curve = _curve(results, facts)
    arithmetic = assess(facts.with_(curve))  # one pass: derived facts, the ledger, the per-step numbers
    facts = arithmetic.facts

    version = facts.value("framework.version")
    verdict = evaluate(facts, rules.rules, framework, str(version) if version else None)
    verdict, pressure = _pressure(verdict, facts, rules, series)
    labelled = _label_findings(verdict.findings, results)
    kinds = {str(v) for v in facts.values("oom.kind")}
    memory_failure = bool(kinds - NOT_OOM_KINDS) or verdict.culprit not in (Culprit.UNKNOWN, Culprit.NOT_OOM)
    triage = _annotate(verdict.triage, arithmetic.steps)
    sources = tuple(
        LogSource(r.path, r.label, r.lines, r.first_failure_line, timestamp(r.first_failure_text)) for r in results
    )
    warnings = (tuple(w for r in results for w in r.warnings) + tuple(f"rule file skipped: {e}" for e in rules.errors)
                + ctx.notes + assumed)
    missing = _missing_evidence(facts, verdict.culprit, memory_failure) if memory_failure or not pressure else ()
    return Report(
        schema_version=SCHEMA_VERSION,
        framework=framework,
        framework_version=str(version) if version else None,
        culprit=verdict.culprit,
        confidence=verdict.confidence,
        phase=phase,
        summary=_pressure_summary(pressure, labelled, verdict.suggestions, memory_failure)
        or _summary(verdict.culprit, labelled, verdict.suggestions, memory_failure),
        findings=labelled,
        suggestions=verdict.suggestions,
        triage=triage,
        ledger=arithmetic.entries,
        facts=facts,
        sources=sources,
        missing_evidence=missing,
        warnings=warnings,
        skipped=tuple(opts.skipped),
        failed_first=first.label if first is not None and len(results) > 1 else None,
        probe=opts.probe,
        memory_failure=memory_failure,
        extra={"oomdoctor_version": __version__, **({"launch_command": list(ctx.commands[0])} if ctx.commands else {})},
        pressure=pressure,
        curves=_views(series),
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


# a failure line that says memory ran out, or an allocation failed
_STATES_MEMORY = re.compile(r"(?i)out[- ]of[- ]memory|insufficient memory|OutOfMemory|not enough memory|"
                            r"fail\w* to alloc|alloc\w*\b[^\n]{0,40}?\bfail|(?:could not|unable to|can ?not|can't) allocate")
# failures whose line reports a status, an assertion or a lost device, and not what ran out
_STATUS_ONLY = frozenset({"metal_command_buffer_error", "ggml_assert", "device_lost"})


def _failure_statement(first: ScanResult, facts: FactSet) -> tuple[str, Origin, Evidence]:
    """The failure as the report quotes it: the first failure line, unless that line only reports a status (Metal's
    "command buffer 0 failed with status 5", GGML_ASSERT(buffer), a lost device) and a line right under it says
    what ran out ("error: Insufficient Memory", "cudaMalloc failed: out of memory")."""
    line, text = first.first_failure_line, first.first_failure_text or ""
    if line is not None and not _STATES_MEMORY.search(text):
        kinds = [(f.evidence, str(f.value)) for f in facts.all("oom.kind")
                 if f.evidence is not None and f.evidence.source == first.path and f.evidence.line is not None]
        if {kind for ev, kind in kinds if ev.line == line} <= _STATUS_ONLY:
            for ev, _ in kinds:
                if 0 < (ev.line or 0) - line <= 3 and _STATES_MEMORY.search(ev.text):
                    return ev.text, Origin.LOG, ev
    return text, Origin.LOG, Evidence(first.path, line, text)


# faults after which a CUDA context fails every call, allocations included
STICKY_FAULTS = frozenset({"illegal_memory_access", "device_assert"})


def _without_fault_echoes(facts: Iterable[Fact]) -> list[Fact]:
    """Drop the memory failures a log states below a sticky fault of the same log (an illegal address, a device-side
    assertion): the context was already lost, so "out of memory" from a later allocation is the fault's echo. PyTorch's
    own out-of-memory error is not: its allocator raises it only for CUDA's out-of-memory status, and a lost context
    answers every allocation with the fault's status, which PyTorch raises as that CUDA error."""
    facts = list(facts)
    fault_at: dict[str, int] = {}
    for f in facts:
        if f.key == "oom.kind" and f.value in STICKY_FAULTS and f.evidence and f.evidence.line:
            fault_at[f.evidence.source] = min(fault_at.get(f.evidence.source, f.evidence.line), f.evidence.line)
    if not fault_at:
        return facts
    return [f for f in facts if not (f.key == "oom.kind" and f.value not in NOT_OOM_KINDS and f.value != "torch_oom"
                                     and f.evidence and f.evidence.line and f.evidence.line > fault_at.get(f.evidence.source, f.evidence.line))]


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


def _annotate(steps: tuple[TriageStep, ...], numbers: dict[Account, str]) -> tuple[TriageStep, ...]:
    from dataclasses import replace

    # (a step is ruled out by the walk going past it to a culprit; with none, its numbers decided nothing)
    decided = any(s.status is StepStatus.CULPRIT for s in steps)
    out = []
    for s in steps:
        n = numbers.get(s.account)
        if s.status is StepStatus.NO_EVIDENCE and n:
            out.append(replace(s, status=StepStatus.RULED_OUT, note=f"ruled out: {n}") if decided else replace(s, note=f"not decided: {n}"))
        elif n and s.status in (StepStatus.CULPRIT, StepStatus.SECONDARY):
            out.append(replace(s, note=f"{s.note} ({n})"))
        else:
            out.append(s)
    return tuple(out)


_FAILURE_LINE = "the failure itself: the last 50 lines of the log, with the traceback's final error line"


def _missing_evidence(facts: FactSet, culprit: Culprit, memory_failure: bool) -> tuple[str, ...]:
    if culprit is not Culprit.UNKNOWN:
        # a memory verdict from the numbers alone (at most medium confidence): the failure line would confirm it
        return () if culprit is Culprit.NOT_OOM or facts.has("oom.kind") else (_FAILURE_LINE,)
    missing = []
    if not facts.has("oom.kind"):
        missing.append(_FAILURE_LINE)
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


# ---------------------------------------------------------------------------- the curve (oomdoctor.timeline)

def _curve(results: list[ScanResult], facts: FactSet) -> tuple[Any, list[Fact]]:
    """The periodic stats of every log, recording and Prometheus range, merged; and what they say."""
    from oomdoctor.timeline.series import merged

    series = merged(r.series for r in results if r.series is not None)
    if not series:
        return series, []
    from oomdoctor.timeline.shapes import curve_facts

    return series, curve_facts(series, facts)


def _pressure(verdict: Any, facts: FactSet, rules: RuleSet, series: Any) -> tuple[Any, tuple]:
    """Accounts under pressure on the curve. When the curve rules are all that fired and nothing
    failed, the server is under pressure but has not failed: the culprit stays unknown (exit 0),
    and the findings and suggestions stay in the report."""
    if not series:
        return verdict, ()
    from dataclasses import replace

    from oomdoctor.timeline.shapes import is_curve_rule, pressure

    curve_ids = {r.id for r in rules.rules if is_curve_rule(r.when)}
    accounts = [f.account.value for f in verdict.findings if f.rule_id in curve_ids]
    found = pressure(accounts, series, facts)
    kinds = {str(v) for v in facts.values("oom.kind")}
    if not found or kinds - NOT_OOM_KINDS or any(f.rule_id not in curve_ids for f in verdict.findings):
        return verdict, found
    triage = tuple(replace(t, status=StepStatus.SECONDARY, note=f"under pressure, no failure: {t.note}")
                   if t.status is StepStatus.CULPRIT else t for t in verdict.triage)
    return replace(verdict, culprit=Culprit.UNKNOWN, confidence=None, triage=triage), found


def _pressure_summary(pressure: tuple, findings: tuple, suggestions: tuple, memory_failure: bool) -> str | None:
    if memory_failure or not pressure:
        return None
    head = findings[0].message if findings else ""
    accounts = ", ".join(dict.fromkeys(p.account for p in pressure))
    text = f"No memory failure found, but under pressure: {accounts}. {head}".strip()
    if suggestions and suggestions[0].flag:
        text += f" Fix first: {suggestions[0].flag}"
    return text


def _views(series: Any) -> tuple:
    if not series:
        return ()
    from oomdoctor.timeline.shapes import views

    return views(series)
