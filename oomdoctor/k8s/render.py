"""A cluster scan as text (a table, then the patches), JSON and Markdown (one section per
pod); one pod as a file of its own (`--output DIR`). Pure; redact first (`redact_scan`)."""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any, Sequence

from oomdoctor.k8s.model import ClusterScan, PodPatch, PodResult
from oomdoctor.redact import Redactor, redact_report
from oomdoctor.report import OutputFormat

COLUMNS = ("NAMESPACE", "POD", "CONTAINER", "RESTARTS", "LAST REASON", "CULPRIT", "FIX FIRST", "NOTES")
FIX_WIDTH = 64


def redact_scan(scan: ClusterScan, redactor: Redactor) -> ClusterScan:
    """Every report, patch value and error line with secrets (and hosts, on request) masked."""
    if not redactor.active:
        return scan
    results = []
    for r in scan.results:
        patch = r.patch
        if patch is not None:
            patch = dataclasses.replace(patch, ops=tuple(redactor.value(dict(op)) for op in patch.ops),
                                        change=redactor.text(patch.change), why=redactor.text(patch.why))
        results.append(dataclasses.replace(
            r, report=redact_report(r.report, redactor) if r.report is not None else None, patch=patch,
            patch_note=redactor.maybe(r.patch_note), errors=tuple(redactor.text(e) for e in r.errors),
            notes=tuple(redactor.text(n) for n in r.notes)))
    cluster = dataclasses.replace(scan.cluster, server=redactor.text(scan.cluster.server)) if redactor.hosts else scan.cluster
    return dataclasses.replace(scan, cluster=cluster, results=tuple(results),
                               warnings=tuple(redactor.text(w) for w in scan.warnings))


# ------------------------------------------------------------------ one row


def culprit(r: PodResult) -> str:
    if r.report is None:
        return "?"
    value = r.report.culprit.value
    if value == "unknown":
        return "unknown (memory failure)" if r.memory_failure else "none (no memory failure)"
    return value


def fix_first(r: PodResult) -> str:
    if r.patch is not None:
        return r.patch.change
    if r.report is not None and r.report.suggestions:
        from oomdoctor.report.fmt import split_flag, suggestion_summary

        s = r.report.suggestions[0]
        setting, _ = split_flag(s.flag)
        return setting or suggestion_summary(s)
    return "-"


def summary_line(scan: ClusterScan) -> str:
    where = f"namespace {scan.cluster.namespace}" if scan.cluster.namespace else "all namespaces"
    failed = len(scan.results)
    mem = sum(1 for r in scan.results if r.memory_failure)
    return (f"cluster {scan.cluster}, {where}: {scan.pods_listed} pod{'s' if scan.pods_listed != 1 else ''} listed, "
            f"{failed} failed container{'s' if failed != 1 else ''}, {mem} with a memory failure")


def _clip(s: str, width: int) -> str:
    return s if len(s) <= width else s[: width - 1] + "…"


def _table(rows: Sequence[Sequence[str]]) -> list[str]:
    widths = [max(len(row[k]) for row in rows) for k in range(len(rows[0]))]
    return ["  ".join(cell.ljust(widths[k]) for k, cell in enumerate(row)).rstrip() for row in rows]


def short_notes(r: PodResult) -> str:
    """Read errors and notes, each up to its ` — ` (the API's full message is in JSON and on stderr)."""
    return "; ".join(_clip(n.split(" — ")[0], 90) for n in (*r.errors, *r.notes)) or "-"


def row(r: PodResult) -> list[str]:
    t = r.target
    return [t.namespace, t.pod, t.container, str(t.restarts), t.last_reason, culprit(r), _clip(fix_first(r), FIX_WIDTH),
            short_notes(r)]


# ------------------------------------------------------------------ text


def render_text(scan: ClusterScan) -> str:
    out = [summary_line(scan)]
    if not scan.results:
        return out[0] + "\nNo failed containers.\n"
    out += ["", *_table([list(COLUMNS)] + [row(r) for r in scan.results])]
    patched = [r for r in scan.results if r.patch is not None]
    if patched:
        out += ["", "Patches (each against the controller of the pod it was read from; kubectl refuses it if the template changed):"]
        for r in patched:
            assert r.patch is not None
            out += [f"  {r.target.namespace}/{r.target.pod} [{r.target.container}] -> {r.patch.kind}/{r.patch.name}: {r.patch.change}",
                    f"    {r.patch.kubectl}"]
    notes = [r for r in scan.results if r.patch is None and r.patch_note and r.memory_failure]
    if notes:
        out += ["", "No patch:"]
        out += [f"  {r.target.namespace}/{r.target.pod} [{r.target.container}]: {r.patch_note}" for r in notes]
    out += [f"warning: {w}" for w in scan.warnings]
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------ JSON


def pod_dict(r: PodResult) -> dict[str, Any]:
    from oomdoctor.report.json import to_dict

    t = r.target
    return {
        "namespace": t.namespace,
        "pod": t.pod,
        "container": t.container,
        "node": t.node,
        "owner": r.owner,
        "restarts": t.restarts,
        "last_termination": t.termination.as_dict() if t.termination else None,
        "waiting_reason": t.waiting_reason,
        "why": t.why,
        "memory_failure": r.memory_failure,
        "culprit": culprit(r),
        "fix_first": fix_first(r),
        "errors": list(r.errors),
        "notes": list(r.notes),
        "report": to_dict(r.report) if r.report is not None else None,
        "patch": r.patch.as_dict() if r.patch is not None else None,
        "patch_note": r.patch_note,
    }


def scan_dict(scan: ClusterScan) -> dict[str, Any]:
    return {
        "cluster": {"context": scan.cluster.context, "server": scan.cluster.server, "namespace": scan.cluster.namespace},
        "pods_listed": scan.pods_listed,
        "memory_failures": sum(1 for r in scan.results if r.memory_failure),
        "pods": [pod_dict(r) for r in scan.results],
        "warnings": list(scan.warnings),
    }


def render_json(scan: ClusterScan) -> str:
    return json.dumps(scan_dict(scan), indent=2, ensure_ascii=False, default=str) + "\n"


# ------------------------------------------------------------------ Markdown


def _demote(markdown: str, levels: int) -> str:
    """Headings pushed down `levels` (outside fenced code)."""
    out = []
    fence: str | None = None
    for line in markdown.splitlines():
        m = re.match(r"^(`{3,}|~{3,})", line)
        if m:
            if fence is None:
                fence = m.group(1)
            elif line.startswith(fence):
                fence = None
        if fence is None and re.match(r"^#{1,6} ", line):
            line = "#" * levels + line
        out.append(line)
    return "\n".join(out)


def _patch_md(patch: PodPatch) -> str:
    from oomdoctor.report.markdown import code, fence

    return "\n\n".join([
        f"**Patch** for {code(f'{patch.kind}/{patch.name}')}: {patch.change}. _{patch.why}_",
        fence(patch.kubectl, "bash"),
    ])


def pod_markdown(r: PodResult, level: int = 2) -> str:
    from oomdoctor.report.markdown import MarkdownRenderer, code, table

    t = r.target
    term = t.termination
    head = "#" * level + f" {t.namespace}/{t.pod} [{t.container}]: {culprit(r)}"
    facts = table(["", ""], [
        ["Node", code(t.node or "-")], ["Owner", code(r.owner or "-")], ["Restarts", str(t.restarts)],
        ["Last termination", f"{term.reason} (exit {term.exit_code}) at {term.finished_at}" if term else "-"],
        ["Waiting", t.waiting_reason or "-"], ["Read errors", "; ".join(r.errors) or "none"],
        *([["Notes", "; ".join(r.notes)]] if r.notes else []),
    ])
    blocks = [head, facts]
    if r.patch is not None:
        blocks.append(_patch_md(r.patch))
    elif r.patch_note:
        blocks.append(f"**No patch:** {r.patch_note}")
    if r.report is not None:
        blocks.append(_demote(MarkdownRenderer().render(r.report), level))
    return "\n\n".join(blocks).rstrip() + "\n"


def render_markdown(scan: ClusterScan) -> str:
    from oomdoctor.report.markdown import table

    blocks = [f"# oomdoctor k8s\n\n{summary_line(scan)}"]
    if scan.results:
        blocks.append(table(list(COLUMNS), [row(r) for r in scan.results]))
        blocks += [pod_markdown(r) for r in scan.results]
    else:
        blocks.append("No failed containers.")
    blocks += [f"> warning: {w}" for w in scan.warnings]
    return "\n\n".join(b.rstrip() for b in blocks) + "\n"


def render(scan: ClusterScan, fmt: OutputFormat) -> str:
    if fmt is OutputFormat.JSON:
        return render_json(scan)
    if fmt is OutputFormat.MARKDOWN:
        return render_markdown(scan)
    return render_text(scan)


# ------------------------------------------------------------------ one pod, one file


EXTENSIONS = {OutputFormat.TEXT: "txt", OutputFormat.JSON: "json", OutputFormat.MARKDOWN: "md"}


def pod_filename(r: PodResult, fmt: OutputFormat) -> str:
    """`<namespace>/<pod>.<container>.<ext>` (names are DNS labels: safe as paths)."""
    t = r.target
    return f"{t.namespace}/{t.pod}.{t.container}.{EXTENSIONS[fmt]}"


def render_pod(r: PodResult, fmt: OutputFormat) -> str:
    if fmt is OutputFormat.JSON:
        return json.dumps(pod_dict(r), indent=2, ensure_ascii=False, default=str) + "\n"
    if fmt is OutputFormat.MARKDOWN:
        return pod_markdown(r, level=1)
    lines = _table([list(COLUMNS), row(r)])
    if r.patch is not None:
        lines += ["", f"Patch for {r.patch.kind}/{r.patch.name}: {r.patch.change}", f"  {r.patch.kubectl}"]
    elif r.patch_note:
        lines += ["", f"No patch: {r.patch_note}"]
    if r.report is not None:
        lines += ["", fmt.to_renderer(color=False).render(r.report).rstrip()]
    return "\n".join(lines) + "\n"
