"""The diagnosis result types: Suggestion, Finding, TriageStep, LedgerEntry, Report.

Made by the engine and `diagnose()`; read by the renderers. All frozen.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from oomdoctor.facts import Evidence, FactSet, Value


class Account(str, Enum):
    WEIGHTS = "weights"
    KV_CACHE = "kv_cache"
    ACTIVATIONS = "activations"
    FRAMEWORK = "framework"
    HOST_MEMORY = "host_memory"
    NOT_OOM = "not_oom"


class Culprit(str, Enum):
    WEIGHTS = "weights"
    KV_CACHE = "kv_cache"
    ACTIVATIONS = "activations"
    FRAMEWORK = "framework"
    HOST_MEMORY = "host_memory"
    NOT_OOM = "not_oom"
    UNKNOWN = "unknown"


# The four triage steps, in the fixed order; the gates (not_oom, host_memory) come first.
TRIAGE_STEPS: tuple[Account, ...] = (
    Account.WEIGHTS,
    Account.KV_CACHE,
    Account.ACTIVATIONS,
    Account.FRAMEWORK,
)
GATES: tuple[Account, ...] = (Account.NOT_OOM, Account.HOST_MEMORY)


class Confidence(str, Enum):
    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"


CONFIDENCE_ORDER = {Confidence.HIGH: 0, Confidence.MEDIUM: 1, Confidence.LOW: 2}


class Action(str, Enum):
    SET = "set"
    RAISE = "raise"
    LOWER = "lower"
    ENABLE = "enable"
    DISABLE = "disable"
    CHECK = "check"


@dataclass(frozen=True)
class Suggestion:
    knob: str  # canonical knob id (oomdoctor.knobs.KNOBS)
    action: Action
    value: Value | None  # computed value, or None when the log's numbers do not allow one
    flag: str | None  # the exact flag/env/option with the value, ready to paste
    why: str
    rule_id: str
    account: Account
    rerunnable: bool = True  # can `--rerun` apply it to a launch command


@dataclass(frozen=True)
class Finding:
    rule_id: str
    account: Account
    title: str
    message: str
    confidence: Confidence  # what ranks the finding against the others (the rule's `confidence`)
    evidence: tuple[Evidence, ...]
    suggestions: tuple[Suggestion, ...]
    source: str | None = None  # which log (rank/pod) it came from, when several
    reported_confidence: Confidence | None = None  # lower, where the rule was measured right less often

    @property
    def stated_confidence(self) -> Confidence:
        """The confidence a report states for this finding (its rule's measured one, where lower)."""
        return self.reported_confidence or self.confidence


class StepStatus(str, Enum):
    CULPRIT = "culprit"
    RULED_OUT = "ruled_out"
    SECONDARY = "secondary"  # a rule fired, but an earlier step is the culprit
    NOT_REACHED = "not_reached"
    NO_EVIDENCE = "no_evidence"


@dataclass(frozen=True)
class TriageStep:
    account: Account
    status: StepStatus
    note: str  # one line: the number that rules it out, or why it is the culprit


@dataclass(frozen=True)
class LedgerEntry:
    account: str  # weights | kv_cache | activations | framework | free | capacity
    bytes: int | None
    source: str  # log | estimate | probe
    note: str = ""


@dataclass(frozen=True)
class LogSource:
    path: str
    label: str  # rank/pod label shown in reports
    lines: int
    first_failure_line: int | None = None
    first_failure_at: str | None = None  # timestamp text of the first failure line, if any


@dataclass(frozen=True)
class Pressure:
    """An account under pressure, read from the curve (oomdoctor.timeline.shapes): KV usage held
    at its ceiling, memory growing under steady load, requests longer than the pool or context."""

    account: str  # weights | kv_cache | activations | framework | host_memory
    signal: str  # the series that shows it: kv_usage, gpu_bytes, rss_bytes, prompt_tokens_p99, ...
    peak: float  # its highest value (a ratio for kv_usage, bytes for memory, tokens for lengths)
    since: str | None  # when the window began, as the source stamps it (log time stamp, ISO time)
    until: str | None
    samples: int  # samples in the window


@dataclass(frozen=True)
class CurveView:
    """One metric over time, downsampled for the renderers (sparkline, SVG)."""

    name: str
    unit: str  # ratio | count | bytes | tokens/s | seconds
    values: tuple[float, ...]  # the peak of each bucket, oldest first
    since: str | None
    until: str | None
    samples: int
    ceiling: float | None = None  # a line to draw (1.0 for KV usage)


@dataclass(frozen=True)
class Report:
    schema_version: str
    framework: str
    framework_version: str | None
    culprit: Culprit
    confidence: Confidence | None
    phase: str | None
    summary: str
    findings: tuple[Finding, ...]
    suggestions: tuple[Suggestion, ...]
    triage: tuple[TriageStep, ...]
    ledger: tuple[LedgerEntry, ...]
    facts: FactSet
    sources: tuple[LogSource, ...]
    missing_evidence: tuple[str, ...] = ()  # what would decide when culprit is unknown
    warnings: tuple[str, ...] = ()
    skipped: tuple[str, ...] = ()  # probes or inputs skipped, with the reason
    failed_first: str | None = None  # label of the rank/pod that failed first
    probe: dict[str, Any] | None = None  # probe snapshot, when merged
    rerun: dict[str, Any] | None = None  # rerun outcome, when run
    memory_failure: bool = False  # a memory failure was seen (exit status 1), even if unexplained
    extra: dict[str, Any] = field(default_factory=dict)
    pressure: tuple[Pressure, ...] = ()  # accounts under pressure on the curve, failure or not
    curves: tuple[CurveView, ...] = ()  # the curves before the failure (logs, recordings, Prometheus)
