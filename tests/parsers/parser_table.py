"""Table-driven parser tests (k8sgpt style): a log excerpt in, the exact facts out.

Each test module imports this helper (`from parser_table import ...`) and holds a table of `Case`s. An excerpt is real phrasing (lines from the labeled
corpus, or the exact messages KNOBS.md quotes), scanned with
`oomdoctor.parsers.scan.read_text_stream`; the facts it yields must be exactly the expected
`(key, value, line)` triples: none missing, none extra. Sizes are written the way the log
prints them (`GiB(15.99)`), so a byte count may differ by one from the expected value where
the parser truncates instead of rounding; that is below the printed precision.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

import pytest

from oomdoctor.parsers import detect
from oomdoctor.parsers.scan import ScanResult, read_text_stream

Triple = tuple[str, object, "int | None"]
ANY = -1  # as an expected line: the fact may come from any line (used for messages wrapped over several lines)


def GiB(x: float) -> int:  # noqa: N802 - reads like the log
    return int(round(x * (1 << 30)))


def MiB(x: float) -> int:  # noqa: N802
    return int(round(x * (1 << 20)))


def KiB(x: float) -> int:  # noqa: N802
    return int(round(x * (1 << 10)))


@dataclass(frozen=True)
class Case:
    id: str
    log: str | bytes
    facts: frozenset = field(default_factory=frozenset)
    framework: str | None = None  # detect.decide() on the excerpt, when it says something
    phase: str | None = None  # ScanResult.phase, checked when given
    failure_line: int | None = None  # ScanResult.first_failure_line, checked when given
    xfail: str | None = None  # a known parser gap: strict xfail with this reason

    def param(self):  # type: ignore[no-untyped-def]
        marks = [pytest.mark.xfail(strict=True, reason=self.xfail)] if self.xfail else []
        return pytest.param(self, id=self.id, marks=marks)


def case(id: str, log: str | bytes, facts: Iterable[Triple] = (), **kw) -> Case:  # noqa: A002 - table field
    return Case(id, log, frozenset(facts), **kw)


def lines(*text: str) -> str:
    return "\n".join(text) + "\n"


def scan_text(log: str | bytes) -> ScanResult:
    data = log.encode("utf-8") if isinstance(log, str) else log
    return read_text_stream(data)


def _same(a: Triple, b: Triple) -> bool:
    (ka, va, la), (kb, vb, lb) = a, b
    if ka != kb or (la != lb and ANY not in (la, lb)):
        return False
    if isinstance(va, bool) != isinstance(vb, bool) or isinstance(va, str) != isinstance(vb, str):
        return False
    if ka.endswith("_bytes") and isinstance(va, int) and isinstance(vb, int) and not isinstance(va, bool):
        return abs(va - vb) <= 1
    return va == vb


def check(c: Case) -> None:
    result = scan_text(c.log)
    # phase.reached is the scanner's summary of a log without a failure line, checked like `phase`
    actual = {(f.key, f.value, f.evidence.line if f.evidence else None) for f in result.facts if not f.key.startswith("phase.reached")}
    missing = sorted((e for e in c.facts if not any(_same(e, a) for a in actual)), key=repr)
    unexpected = sorted((a for a in actual if not any(_same(e, a) for e in c.facts)), key=repr)
    report = []
    if missing:
        report.append("missed (expected, not read):\n  " + "\n  ".join(map(repr, missing)))
    if unexpected:
        report.append("incorrect (read, not expected):\n  " + "\n  ".join(map(repr, unexpected)))
    assert not report, f"{c.id}\n" + "\n".join(report)
    if c.framework is not None:
        assert detect.decide(result.framework_scores) == c.framework, result.framework_scores
    if c.phase is not None:
        assert result.phase == c.phase, f"phase {result.phase!r}, expected {c.phase!r}"
    if c.failure_line is not None:
        assert result.first_failure_line == c.failure_line, f"first failure on line {result.first_failure_line}"


def params(cases: Iterable[Case]) -> list:
    cases = list(cases)
    ids = [c.id for c in cases]
    assert len(ids) == len(set(ids)), "case ids must be unique"
    return [c.param() for c in cases]
