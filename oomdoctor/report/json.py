"""The JSON report: one object, stable keys, validated by `oomdoctor/data/report.schema.json`."""

from __future__ import annotations

import json
from dataclasses import asdict
from enum import Enum
from typing import Any

from oomdoctor.facts import Evidence
from oomdoctor.model import Finding, Pressure, Report, Suggestion


def _evidence(e: Evidence) -> dict[str, Any]:
    return {"source": e.source, "line": e.line, "text": e.text}


def _suggestion(s: Suggestion) -> dict[str, Any]:
    return {
        "knob": s.knob, "action": s.action.value, "value": s.value, "flag": s.flag, "why": s.why,
        "rule_id": s.rule_id, "account": s.account.value, "rerunnable": s.rerunnable,
    }


def _finding(f: Finding) -> dict[str, Any]:
    return {
        "rule_id": f.rule_id, "account": f.account.value, "title": f.title, "confidence": f.stated_confidence.value,
        "message": f.message, "source": f.source, "evidence": [_evidence(e) for e in f.evidence],
        "suggestions": [_suggestion(s) for s in f.suggestions],
    }


def _pressure(p: Pressure) -> dict[str, Any]:
    return {"account": p.account, "signal": p.signal, "peak": p.peak, "since": p.since, "until": p.until, "samples": p.samples}


def _plain(obj: Any) -> Any:
    if isinstance(obj, Enum):
        return obj.value
    if isinstance(obj, dict):
        return {k: _plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_plain(v) for v in obj]
    return obj


def to_dict(report: Report) -> dict[str, Any]:
    return {
        "schema_version": report.schema_version,
        "oomdoctor_version": report.extra.get("oomdoctor_version"),
        "framework": report.framework,
        "framework_version": report.framework_version,
        "culprit": report.culprit.value,
        "confidence": report.confidence.value if report.confidence else None,
        "phase": report.phase,
        "memory_failure": report.memory_failure,
        "summary": report.summary,
        "pressure": [_pressure(p) for p in report.pressure],
        "findings": [_finding(f) for f in report.findings],
        "suggestions": [_suggestion(s) for s in report.suggestions],
        "triage": [{"account": t.account.value, "status": t.status.value, "note": t.note} for t in report.triage],
        "ledger": [asdict(e) for e in report.ledger],
        "facts": [
            {"key": f.key, "value": f.value, "origin": f.origin.value,
             "source": f.evidence.source if f.evidence else None, "line": f.evidence.line if f.evidence else None}
            for f in report.facts
        ],
        "sources": [asdict(s) for s in report.sources],
        "failed_first": report.failed_first,
        "missing_evidence": list(report.missing_evidence),
        "warnings": list(report.warnings),
        "skipped": list(report.skipped),
        "probe": _plain(report.probe),
        "rerun": _plain(report.rerun),
    }


class JsonRenderer:
    def render(self, report: Report) -> str:
        return json.dumps(to_dict(report), indent=2, ensure_ascii=False, default=str)
