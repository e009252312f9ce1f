"""Terminal report: rich panels in ticket order, rendered to a string.

Verdict, ledger bar, triage walk, findings with evidence, the suggested change, rerun and
probe (when present), missing evidence. Colour only when the CLI says so (stdout is a TTY and
`NO_COLOR` is unset); without colour the output is plain text with no ANSI escapes and the
bar uses one letter per account. rich is imported inside `render` to keep start-up fast.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

from oomdoctor.model import Finding, Report, StepStatus, Suggestion
from oomdoctor.report import fmt

if TYPE_CHECKING:
    from rich.console import RenderableType
    from rich.text import Text

ACCOUNT_STYLE = {
    "weights": "blue",
    "kv_cache": "magenta",
    "activations": "yellow",
    "framework": "cyan",
    "other_processes": "red",
    "free": "bright_black",
}
STATUS_STYLE = {
    StepStatus.CULPRIT: "bold red",
    StepStatus.RULED_OUT: "green",
    StepStatus.SECONDARY: "yellow",
    StepStatus.NOT_REACHED: "dim",
    StepStatus.NO_EVIDENCE: "dim",
}
VERDICT_STYLE = "bold red"


class TextRenderer:
    """`TextRenderer(color, width, verbose).render(report) -> str`: a short report by default
    (verdict and its reason, the ledger bar, the fix first and two alternatives, the three most
    telling evidence lines); `verbose` adds the triage walk, every finding and all evidence."""

    def __init__(self, color: bool, width: int = 80, verbose: bool = False) -> None:
        self.color = color
        self.width = width
        self.verbose = verbose

    def render(self, report: Report) -> str:
        from rich.console import Console

        buf = io.StringIO()
        console = Console(
            file=buf,
            width=self.width,
            force_terminal=self.color,
            no_color=not self.color,
            color_system="auto" if self.color else None,
            highlight=False,
            emoji=False,
            markup=False,
            legacy_windows=False,
            soft_wrap=False,
            _environ={},  # the CLI decided colour and width; ignore COLUMNS/FORCE_COLOR/TERM
        )
        builder = _Panels(self.color, self.width)
        for panel in builder.build(report) if self.verbose else builder.brief(report):
            console.print(panel)
        return buf.getvalue()


class _Panels:
    """Builds the renderables; split out so each section is a small method."""

    def __init__(self, color: bool, width: int) -> None:
        self.color = color
        self.width = width

    def build(self, report: Report) -> list[RenderableType]:
        sections = [
            self.verdict(report),
            self.curve(report),
            self.ledger(report),
            self.triage(report),
            self.sources(report),
            self.findings(report),
            self.change(report),
            self.rerun(report),
            self.probe(report),
            self.missing(report),
            self.notes(report),
        ]
        out: list[RenderableType] = [s for s in sections if s is not None]
        out.append(self._text(fmt.versions_text(report), "dim"))
        return out

    def brief(self, report: Report) -> list[RenderableType]:
        """What an on-call engineer reads first, in about 20 lines."""
        out: list[RenderableType] = [self._brief_verdict(report)]
        for item in (self._brief_ledger(report), self.curve(report), self._brief_change(report),
                     self._brief_evidence(report), self.rerun(report), self._brief_missing(report)):
            if item is not None:
                out.append(item)
        for w in (*report.warnings[:3], *report.skipped[:2]):
            out.append(self._text(f"note: {w}", "yellow"))
        more = "-v: the triage walk, every finding and all evidence; --format markdown|json: the complete report"
        out.append(self._text(f"{fmt.versions_text(report)} · {more}", "dim"))
        return out

    def _brief_verdict(self, report: Report) -> RenderableType:
        head = self._text(fmt.verdict_head(report), VERDICT_STYLE if report.memory_failure else "bold green")
        meta = [f"phase {fmt.phase_text(report)}", fmt.framework_text(report)]
        if report.failed_first:
            meta.append(f"failed first: {report.failed_first}")
        head.append("  " + " · ".join(meta), style="dim")
        lines: list[RenderableType] = [head]
        top = report.findings[0] if report.findings else None
        if top is not None:
            lines.append(self._text(fmt.finding_reason(top)))
        else:
            lines.append(self._text(fmt.verdict_meaning(report)))
        return self._panel(self._group(*lines), "OOM verdict", "red" if report.memory_failure else "green")

    def _brief_ledger(self, report: Report) -> RenderableType | None:
        view = fmt.ledger_view(report)
        if not view.drawable:
            return None
        return self._group(self._bar(view), self._text(f"{fmt.bar_caption(view)}   {fmt.bar_legend(view)}", "dim"))

    def _brief_change(self, report: Report) -> RenderableType | None:
        sugs = fmt.suggestions(report)
        if not sugs:
            return None
        grid = self._grid(None, 1)
        for i, s in enumerate(sugs[:3]):
            label = "Fix first" if i == 0 else ("Or" if i == 1 else "")
            shown = s.flag or fmt.suggestion_summary(s)
            grid.add_row(self._text(label, "bold"), self._text(shown, "bold green" if i == 0 else "green"))
            if s.why:
                grid.add_row(self._text(), self._text(fmt.brief_why(s), "dim"))
        return grid

    def _brief_evidence(self, report: Report) -> RenderableType | None:
        lines = fmt.telling_evidence(report, 3)
        if not lines:
            return None
        grid = self._grid(None, 1)
        for e in lines:
            text = fmt.strip_prefix(e.text)
            text = text if len(text) <= self.inner - 8 else text[: self.inner - 9] + "…"
            grid.add_row(self._text(str(e.line) if e.line is not None else "", "dim"), self._text(text))
        return self._group(self._text(f"Evidence ({fmt.short_source(lines[0].source)})", "bold"), grid)

    def _brief_missing(self, report: Report) -> RenderableType | None:
        if not report.missing_evidence:
            return None
        items: list[RenderableType] = [self._text("What would decide it:", "bold")]
        items += [self._text(f"• {m}") for m in report.missing_evidence[:3]]
        return self._group(*items)

    # --- helpers -------------------------------------------------------------------------

    def _text(self, s: str = "", style: str = "") -> Text:
        from rich.text import Text

        return Text(s, style=style, overflow="fold")

    def _panel(self, body: RenderableType, title: str, style: str = "") -> RenderableType:
        from rich import box
        from rich.panel import Panel

        return Panel(
            body,
            title=self._text(title, "bold"),
            title_align="left",
            border_style=style or "bright_black",
            box=box.ROUNDED,
            expand=True,
            padding=(0, 1),
        )

    def _grid(self, *ratios: int | None) -> Any:
        from rich.table import Table

        grid = Table.grid(padding=(0, 1), expand=False)
        for r in ratios:
            grid.add_column(overflow="fold", ratio=r, no_wrap=False)
        return grid

    def _group(self, *items: RenderableType | None) -> RenderableType:
        from rich.console import Group

        return Group(*(i for i in items if i is not None))

    @property
    def inner(self) -> int:
        return max(20, self.width - 4)  # panel borders and padding

    # --- sections ------------------------------------------------------------------------

    def verdict(self, report: Report) -> RenderableType:
        head = self._text(fmt.verdict_head(report), VERDICT_STYLE if report.memory_failure else "bold green")
        lines: list[RenderableType] = [head, self._text(fmt.verdict_meaning(report))]
        meta = [f"phase: {fmt.phase_text(report)}", f"framework: {fmt.framework_text(report)}"]
        if report.failed_first:
            meta.append(f"failed first: {report.failed_first}")
        lines.append(self._text(" · ".join(meta), "dim"))
        if report.summary.strip():
            lines += [self._text(), self._text(report.summary.strip())]
        return self._panel(self._group(*lines), "OOM verdict", "red" if report.memory_failure else "green")

    def ledger(self, report: Report) -> RenderableType | None:
        view = fmt.ledger_view(report)
        if not view.rows and view.capacity is None:
            return None
        items: list[RenderableType] = []
        cap = view.capacity_bytes
        if view.drawable:
            items += [self._bar(view), self._text(fmt.bar_caption(view), "bold" if view.over_by else "")]
        grid = self._grid(None, None, None, 1)
        for e in view.rows:
            grid.add_row(
                self._key(e.account),
                self._text(fmt.fmt_bytes(e.bytes)),
                self._text(fmt.fmt_pct(e.bytes, cap)),
                self._text(e.note, "dim"),
            )
        if view.capacity is not None:
            grid.add_row(self._text("  capacity", "bold"), self._text(fmt.fmt_bytes(view.capacity.bytes), "bold"),
                         self._text(), self._text(view.capacity.note, "dim"))
        items.append(grid)
        return self._panel(self._group(*items), "Memory ledger")

    def _key(self, account: str) -> Text:
        label = fmt.ACCOUNT_LABEL.get(account, account)
        t = self._text()
        if self.color:
            t.append("■ ", style=ACCOUNT_STYLE.get(account, ""))
        else:
            t.append(fmt.BAR_CHAR.get(account, "?") + " ")
        t.append(label)
        return t

    def _bar(self, view: fmt.LedgerView) -> Text:
        cells = self.inner - 2
        if not self.color:
            return self._text(fmt.text_bar(view, cells))
        t = self._text("[")
        for account in fmt.bar_cells(view, cells):
            if account == "capacity":
                t.append(fmt.CAPACITY_MARK, style="bold red")
            else:
                t.append("░" if account in ("free", "") else "█", style=ACCOUNT_STYLE.get(account, ""))
        t.append("]")
        return t

    def triage(self, report: Report) -> RenderableType:
        grid = self._grid(None, None, None, 1)
        n = 0
        for step in fmt.triage_walk(report):
            account = fmt.account_name(step.account)
            if account in fmt.ACCOUNTS:
                n += 1
                pos = f"{n}."
            else:
                pos = "gate"
            status = fmt.STATUS_LABEL.get(step.status, str(step.status))
            grid.add_row(
                self._text(pos, "dim"),
                self._text(account, "bold" if step.status == StepStatus.CULPRIT else ""),
                self._text(status, STATUS_STYLE.get(step.status, "")),
                self._text(step.note),
            )
        return self._panel(grid, "Triage walk (weights → kv_cache → activations → framework)")

    def sources(self, report: Report) -> RenderableType | None:
        if not fmt.several_sources(report) or not report.sources:
            return None
        grid = self._grid(None, 1)
        for label, path, where, note in fmt.source_rows(report):
            detail = self._text(f"{path}, {where}")
            if note:
                detail.append(f" — {note}", style="bold red")
            grid.add_row(self._text(label, "bold" if note else ""), detail)
        return self._panel(grid, f"Logs ({len(report.sources)})")

    def findings(self, report: Report) -> RenderableType | None:
        if not report.findings:
            return None
        items: list[RenderableType] = []
        for i, f in enumerate(report.findings, 1):
            if i > 1:
                items.append(self._text())
            items += self._finding(i, f, report)
        return self._panel(self._group(*items), "Findings and evidence")

    def _finding(self, i: int, f: Finding, report: Report) -> list[RenderableType]:
        meta = f"rule {f.rule_id} · confidence {f.stated_confidence.value}"
        if f.source:
            meta += f" · log {f.source}"
        out: list[RenderableType] = [
            self._text(f"{i}. {fmt.finding_label(f, report)}", "bold"),
            self._text(meta, "dim"),
        ]
        if f.message.strip():
            out.append(self._text(f.message.strip()))
        for source, evidence in fmt.evidence_groups(f.evidence):
            out.append(self._text(source, "dim italic"))
            grid = self._grid(None, 1)
            for e in evidence:
                grid.add_row(self._text(str(e.line) if e.line is not None else "", "dim"), self._text(e.text))
            out.append(grid)
        return out

    def change(self, report: Report) -> RenderableType | None:
        sugs = fmt.suggestions(report)
        if not sugs:
            return None
        items: list[RenderableType] = [self._text("Try first:", "bold")]
        items += self._suggestion(sugs[0], primary=True)
        if len(sugs) > 1:
            items.append(self._text("Other options, one at a time:", "bold"))
            for s in sugs[1:]:
                items += self._suggestion(s, primary=False)
        change = fmt.command_change(report)
        if change is not None:
            items.append(self._text(f"Launch command with {fmt.suggestion_summary(change.suggestion)}:", "bold"))
            grid = self._grid(None, 1)
            for line in change.diff():
                style = "red" if line.startswith("-") else "green" if line.startswith("+") else "dim"
                grid.add_row(self._text(line[:1], style), self._text(line[2:], style))
            items.append(grid)
        return self._panel(self._group(*items), "Suggested change", "green")

    def _suggestion(self, s: Suggestion, primary: bool) -> list[RenderableType]:
        setting, note = fmt.split_flag(s.flag)
        shown = setting or fmt.suggestion_summary(s)
        out: list[RenderableType] = [self._indent(self._text(shown, "bold green" if primary else "green"), 2)]
        why = [x for x in (s.why, note) if x]
        if setting:
            why.insert(0, fmt.suggestion_summary(s))
        if why:
            out.append(self._indent(self._text("; ".join(why), "dim"), 4))
        return out

    def _indent(self, item: RenderableType, n: int) -> RenderableType:
        from rich.padding import Padding

        return Padding(item, (0, 0, 0, n))

    def rerun(self, report: Report) -> RenderableType | None:
        if not report.rerun:
            return None
        headline, keep, rows = fmt.rerun_summary(report.rerun)
        style = "bold green" if fmt.rerun_result(report.rerun).upper() == "CONFIRMED" else "bold red"
        items: list[RenderableType] = [self._text(headline, style)]
        if keep:
            items.append(self._text(f"keep: {keep}", "bold"))
        items.append(self._pairs([(f"{run}: {change}", f"{result} {t}") for run, change, result, t in rows]))
        return self._panel(self._group(*items), "Rerun")

    def probe(self, report: Report) -> RenderableType | None:
        if not report.probe:
            return None
        pairs = fmt.probe_summary(report.probe)
        return self._panel(self._pairs(pairs), "Probe snapshot") if pairs else None

    def _pairs(self, pairs: list[tuple[str, str]]) -> RenderableType:
        grid = self._grid(None, 1)
        for k, v in pairs:
            grid.add_row(self._text(k, "dim"), self._text(v))
        return grid

    def curve(self, report: Report) -> RenderableType | None:
        """The accounts under pressure and a sparkline of each curve (the last bucket is the latest)."""
        from oomdoctor.report import curve

        if not report.pressure and not report.curves:
            return None
        items: list[RenderableType] = [self._text("• " + curve.pressure_line(p), "bold") for p in report.pressure]
        views = curve.shown_curves(report)
        if views:
            width = max(12, self.inner - 32)
            grid = self._grid(None, None, None)
            for c in views:
                label, line, peak = curve.curve_line(c, width)
                grid.add_row(self._text(label, "dim"), self._text(line, "magenta" if c.name == "kv_usage" else ""),
                             self._text(f"max {peak}"))
            items.append(grid)
            first = views[0]
            if first.since or first.until:
                items.append(self._text(f"{first.since or '?'} → {first.until or '?'}, {first.samples} samples", "dim"))
        title = "Memory pressure before the failure" if report.memory_failure else "Memory pressure (no failure)"
        return self._panel(self._group(*items), title, "magenta" if report.pressure else "")

    def missing(self, report: Report) -> RenderableType | None:
        if not report.missing_evidence:
            return None
        items: list[RenderableType] = []
        if fmt.culprit_name(report) == "unknown":
            items.append(self._text("The log does not decide the account. Any of these would:"))
        items += [self._text(f"• {m}") for m in report.missing_evidence]
        return self._panel(self._group(*items), "Missing evidence", "yellow")

    def notes(self, report: Report) -> RenderableType | None:
        items = [self._text(f"warning: {w}", "yellow") for w in report.warnings]
        items += [self._text(f"skipped: {s}", "dim") for s in report.skipped]
        return self._panel(self._group(*items), "Notes") if items else None
