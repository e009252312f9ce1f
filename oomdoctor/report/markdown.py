"""Markdown report: ticket-ready, verdict first, plain GFM (tables, fenced code, no HTML).

Reads the same on GitHub and in Jira's Markdown paste. Pure: `render(Report) -> str`;
redact the report first (`oomdoctor.redact.redact_report`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from oomdoctor.model import Finding, Report, Suggestion
from oomdoctor.report import fmt

BAR_CELLS = 50


class MarkdownRenderer:
    """`MarkdownRenderer().render(report) -> str`."""

    def render(self, report: Report) -> str:
        blocks: list[str] = [
            _verdict(report),
            _pressure(report),
            _ledger(report),
            _triage(report),
            _sources(report),
            _findings(report),
            _suggested_change(report),
            _rerun(report),
            _probe(report),
            _missing(report),
            _notes(report),
            f"---\n_{_escape(fmt.versions_text(report))}_",
        ]
        return "\n\n".join(b for b in blocks if b).rstrip() + "\n"


# --- markdown primitives ------------------------------------------------------------------

_BACKTICKS = re.compile(r"`+")


def fence(lines: Iterable[str] | str, lang: str = "text") -> str:
    """A fenced code block whose fence is longer than any backtick run inside."""
    body = lines if isinstance(lines, str) else "\n".join(lines)
    longest = max((len(m.group(0)) for m in _BACKTICKS.finditer(body)), default=0)
    bar = "`" * max(3, longest + 1)
    return f"{bar}{lang}\n{body}\n{bar}"


def code(s: str) -> str:
    """Inline code that survives backticks in `s`."""
    longest = max((len(m.group(0)) for m in _BACKTICKS.finditer(s)), default=0)
    bar = "`" * (longest + 1)
    pad = " " if s.startswith("`") or s.endswith("`") else ""
    return f"{bar}{pad}{s}{pad}{bar}"


def _escape(s: str) -> str:
    """Free text: no raw HTML (`<tag>` would vanish on GitHub), one line per paragraph line."""
    return s.replace("<", "\\<").replace(">", "\\>")


def _cell(s: str) -> str:
    return _escape(" ".join(s.split())).replace("|", "\\|") or " "


def table(header: Sequence[str], rows: Iterable[Sequence[str]], align: str = "") -> str:
    """A GFM table; `align` is one of `l`/`r` per column (default left)."""
    align = align.ljust(len(header), "l")
    seps = ["---:" if a == "r" else "---" for a in align]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(seps) + " |"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _quote(text: str) -> str:
    return "\n".join("> " + _escape(line) if line.strip() else ">" for line in text.strip().splitlines())


# --- sections -----------------------------------------------------------------------------


def _verdict(report: Report) -> str:
    lines = [f"# OOM verdict: {_escape(fmt.verdict_head(report))}", ""]
    lines += [f"**{_escape(fmt.verdict_meaning(report))}**", ""]
    lines.append(f"- **Phase:** {_escape(fmt.phase_text(report))}")
    lines.append(f"- **Framework:** {_escape(fmt.framework_text(report))}")
    if report.failed_first:
        lines.append(f"- **Failed first:** {_escape(_failed_first(report))}")
    if report.summary.strip():
        lines += ["", _quote(report.summary)]
    return "\n".join(lines)


def _failed_first(report: Report) -> str:
    for label, path, where, _ in fmt.source_rows(report):
        if label == report.failed_first:
            return f"{label} ({path}, {where})"
    return report.failed_first or ""


def _ledger(report: Report) -> str:
    view = fmt.ledger_view(report)
    if not view.rows and view.capacity is None:
        return ""
    cap = view.capacity_bytes
    rows = [
        [
            _cell(fmt.ACCOUNT_LABEL.get(e.account, e.account)),
            fmt.fmt_bytes(e.bytes),
            fmt.fmt_pct(e.bytes, cap) or " ",
            _cell(e.source),
            _cell(e.note),
        ]
        for e in view.rows
    ]
    if view.capacity is not None:
        c = view.capacity
        share = "100%" if cap else " "
        rows.append(["**capacity**", f"**{fmt.fmt_bytes(c.bytes)}**", share, _cell(c.source), _cell(c.note)])
    parts = ["## Memory ledger", table(["Account", "Size", "Share of card", "Source", "Note"], rows, "lrrll")]
    if view.drawable:
        bar = [fmt.text_bar(view, BAR_CELLS) + "  " + fmt.bar_caption(view), fmt.bar_legend(view)]
        parts.append(fence(bar))
    return "\n\n".join(parts)


def _triage(report: Report) -> str:
    rows = []
    n = 0
    for step in fmt.triage_walk(report):
        account = fmt.account_name(step.account)
        if account in fmt.ACCOUNTS:
            n += 1
            pos = str(n)
        else:
            pos = "gate"
        status = fmt.STATUS_LABEL.get(step.status, str(step.status))
        if step.status.value == "culprit":
            status = f"**{status}**"
        rows.append([pos, code(account), status, _cell(step.note)])
    return "## Triage walk\n\n" + table(["Step", "Account", "Status", "Why"], rows, "r")


def _sources(report: Report) -> str:
    if not fmt.several_sources(report) or not report.sources:
        return ""
    rows = [
        [_cell(label), code(path), _cell(where), f"**{note}**" if note else " "]
        for label, path, where, note in fmt.source_rows(report)
    ]
    head = f"## Logs ({len(report.sources)})"
    return head + "\n\n" + table(["Rank/pod", "Log", "First failure", " "], rows)


def _findings(report: Report) -> str:
    if not report.findings:
        return ""
    parts = ["## Findings"]
    for i, f in enumerate(report.findings, 1):
        parts.append(_finding(i, f, report))
    return "\n\n".join(parts)


def _finding(i: int, f: Finding, report: Report) -> str:
    meta = f"Rule {code(f.rule_id)} · confidence {f.stated_confidence.value}"
    if f.source:
        meta += f" · log {_escape(f.source)}"
    parts = [f"### {i}. {_escape(fmt.finding_label(f, report))}", meta]
    if f.message.strip():
        parts.append(_escape(f.message.strip()))
    for source, items in fmt.evidence_groups(f.evidence):
        parts.append(f"Evidence from {code(source)}:")
        parts.append(fence(fmt.numbered_lines(items)))
    return "\n\n".join(parts)


def _suggested_change(report: Report) -> str:
    sugs = fmt.suggestions(report)
    if not sugs:
        return ""
    first, rest = sugs[0], sugs[1:]
    parts = ["## Suggested change", _suggestion_block(first, lead="Try first")]
    if rest:
        lines = ["Other options, one at a time if the first does not hold:", ""]
        lines += [f"{n}. {_suggestion_line(s)}" for n, s in enumerate(rest, 2)]
        parts.append("\n".join(lines))
    change = fmt.command_change(report)
    if change is not None:
        s = change.suggestion
        parts.append(f"Launch command with {code(fmt.suggestion_summary(s))} applied:")
        parts.append(fence(change.diff(), "diff"))
        parts.append(fence(fmt.shell_command(change.new), "sh"))
    return "\n\n".join(parts)


def _suggestion_block(s: Suggestion, lead: str) -> str:
    setting, note = fmt.split_flag(s.flag)
    head = f"**{lead}:** {code(fmt.suggestion_summary(s))}"
    if s.why:
        head += f" — {_escape(s.why)}"
    parts = [head]
    if setting:
        parts.append(fence([setting], "sh"))
    else:
        parts.append("_No exact flag for this framework/version; change the setting above by hand._")
    if note:
        parts.append(f"Note: {_escape(note)}")
    return "\n\n".join(parts)


def _suggestion_line(s: Suggestion) -> str:
    setting, note = fmt.split_flag(s.flag)
    text = code(setting) if setting else code(fmt.suggestion_summary(s))
    extra = [x for x in (s.why, note) if x]
    if setting:
        extra.insert(0, fmt.suggestion_summary(s))
    return text + (" — " + _escape("; ".join(extra)) if extra else "")


def _kv_table(pairs: Sequence[tuple[str, str]]) -> str:
    return table(["Key", "Value"], [[code(k), _cell(v)] for k, v in pairs])


def _rerun(report: Report) -> str:
    if not report.rerun:
        return ""
    headline, keep, rows = fmt.rerun_summary(report.rerun)
    parts = ["## Rerun", f"**Result:** {headline}"]
    if keep:
        parts.append(f"**Keep:** {code(keep)}")
    if rows:
        table = ["| Run | Change | Result | Time |", "| --- | --- | --- | ---: |"]
        table += [f"| {r} | {code(c)} | {res} | {t} |" for r, c, res, t in rows]
        parts.append("\n".join(table))
    return "\n\n".join(parts)


def _probe(report: Report) -> str:
    if not report.probe:
        return ""
    pairs = fmt.probe_summary(report.probe)
    if not pairs:
        return ""
    return "## Probe snapshot\n\n" + _kv_table(pairs)


def _missing(report: Report) -> str:
    if not report.missing_evidence:
        return ""
    head = "## Missing evidence"
    if fmt.culprit_name(report) == "unknown":
        head += "\n\nThe log does not decide the account. Any of these would:"
    return head + "\n\n" + "\n".join(f"- {_escape(m)}" for m in report.missing_evidence)


def _notes(report: Report) -> str:
    items = [f"- warning: {_escape(w)}" for w in report.warnings]
    items += [f"- skipped: {_escape(s)}" for s in report.skipped]
    return "## Notes\n\n" + "\n".join(items) if items else ""


def _pressure(report: Report) -> str:
    """The accounts under pressure and the curves (the SVG plot is written beside the report)."""
    from oomdoctor.report import curve

    if not report.pressure and not report.curves:
        return ""
    parts = ["## Memory pressure" + (" before the failure" if report.memory_failure else " (no failure)")]
    if report.pressure:
        rows = [[_cell(p.account), _cell(curve.SIGNAL_LABEL.get(p.signal, p.signal)), curve.fmt_signal(p.signal, p.peak),
                 _cell(p.since or " "), _cell(p.until or " "), str(p.samples)] for p in report.pressure]
        parts.append(table(["Account", "Signal", "Peak", "Since", "Until", "Samples"], rows, "lllllr"))
    views = curve.shown_curves(report)
    if views:
        lines = []
        for c in views:
            label, line, peak = curve.curve_line(c, 60)
            lines.append(f"{label:<22} {line}  max {peak}")
        first = views[0]
        lines.append(f"{'':<22} {first.since or '?'} → {first.until or '?'} ({first.samples} samples)")
        parts.append(fence(lines))
    return "\n\n".join(parts)
