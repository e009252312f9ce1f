"""Every wording a pattern's regex spells out in full must carry one of its anchors.

A line reaches a pattern only when the prefilter finds one of the pattern's anchors in it. A
regex branch that is a plain literal ("capture_model", "Warming up model") and contains none of
them can never match, however often the wording appears in logs: the bug is silent, so this test
reads every branch of every pattern and framework signal."""

from __future__ import annotations

import re
import sys

import pytest

from oomdoctor.parsers import detect
from oomdoctor.parsers.base import Pattern
from oomdoctor.parsers.scan import ALL_PATTERNS, matcher

if sys.version_info >= (3, 11):
    from re import _constants as sre_constants
    from re import _parser as sre_parse
else:  # pragma: no cover
    import sre_constants
    import sre_parse

_SKIP = (sre_constants.AT, sre_constants.ASSERT, sre_constants.ASSERT_NOT)


def top_level_branches(source: str) -> list[str]:
    """The regex source split at its top-level `|` (the parser would factor out common prefixes)."""
    parts, depth, start, i, in_class = [], 0, 0, 0, False
    while i < len(source):
        c = source[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
            if source[i + 1: i + 2] == "]":
                i += 1
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "|" and depth == 0:
            parts.append(source[start:i])
            start = i + 1
        i += 1
    parts.append(source[start:])
    return parts


def literal_branches(pattern: re.Pattern[str]) -> list[str]:
    """The top-level branches of a regex that are plain text (lookarounds and anchors aside)."""
    out = []
    for branch in top_level_branches(pattern.pattern):
        text = ""
        for op, arg in sre_parse.parse(branch, pattern.flags):
            if op in _SKIP:
                continue
            if op != sre_constants.LITERAL:
                break
            text += chr(arg)
        else:
            out.append(text)
    return out


def uncovered(p: Pattern) -> list[str]:
    fold = bool(p.regex.flags & re.IGNORECASE)
    found = []
    for text in literal_branches(p.regex):
        hay = text.lower() if fold else text
        if not any((a.lower() if fold else a) in hay for a in p.anchors):
            found.append(text)
    return found


def test_a_plain_branch_without_an_anchor_is_found() -> None:
    from oomdoctor.parsers.base import P

    p = P("t", ("graph",), r"capture_end|cuda\.graph\(|capture_model", lambda m: [])
    assert uncovered(p) == ["capture_end", "capture_model"]


@pytest.mark.parametrize("p", [p for p in (*ALL_PATTERNS, *detect.SIGNALS) if p.anchors], ids=lambda p: p.name)
def test_every_literal_branch_carries_an_anchor(p: Pattern) -> None:
    assert uncovered(p) == []


# lines a serving engine prints per request or every few seconds: a pattern anchored on them is tried
# hundreds of thousands of times on a day's log (and a stats line it selects leaves the bulk stats reader)
_PER_REQUEST_LINES = {
    "INFO 07-08 13:05:31 [loggers.py:116] Engine 000: Avg prompt throughput: 1234.5 tokens/s, Avg generation throughput: "
    "345.6 tokens/s, Running: 12 reqs, Waiting: 3 reqs, GPU KV cache usage: 45.6%, Prefix cache hit rate: 12.3%":
        {"fw-vllm-logformat", "stats-vllm"},
    'INFO:     10.0.0.1:40000 - "POST /v1/chat/completions HTTP/1.1" 200 OK': set(),
}


@pytest.mark.parametrize("line", list(_PER_REQUEST_LINES))
def test_no_pattern_anchors_on_a_line_printed_per_request(line: str) -> None:
    caseless = matcher().caseless  # (a case-insensitive reading's literals select a line in any case)
    hit = {p.name for p in (*ALL_PATTERNS, *detect.SIGNALS)
           if any((a.lower() in line.lower()) if a in caseless else (a in line) for a in p.anchors)}
    assert hit == _PER_REQUEST_LINES[line], f"patterns anchored on a per-request line: {sorted(hit - _PER_REQUEST_LINES[line])}"


@pytest.mark.parametrize("engine", ["hyperscan", "re2", "re"])
def test_a_caseless_literal_selects_its_line_in_any_case(engine: str) -> None:
    import oomdoctor.parsers.prefilter as pf

    anchors, caseless = ["not enough memory", "Killed"], frozenset({"not enough memory"})
    if engine == "hyperscan":
        pytest.importorskip("hyperscan")
        prefilter = pf._Hyperscan(anchors, caseless)
    else:
        prefilter = pf._Regex(anchors, caseless, pytest.importorskip(engine), engine)
    buf = b"NOT ENOUGH MEMORY to load\nkilled\nNot Enough Memory\nKilled\n"
    lines = {buf.rfind(b"\n", 0, hit) + 1 for hit in prefilter.positions(buf, 0, len(buf))}
    # the caseless literal in two casings, the exact one only as written ("killed" is not "Killed")
    assert sorted(lines) == [0, buf.index(b"Not Enough"), buf.index(b"Killed")]


def test_the_caseless_literals_are_those_of_case_insensitive_readings() -> None:
    m = matcher()
    assert "not enough memory" in m.caseless  # stated-oom reads its words in any case
    signals = {a for p in detect.SIGNALS for a in p.anchors} - {a for p in ALL_PATTERNS if p.name not in {s.name for s in detect.SIGNALS}
                                                                 for a in p.anchors}
    assert not signals & m.caseless  # a framework signal's literals stay as written
