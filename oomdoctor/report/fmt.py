"""Shared, pure helpers for the human renderers (text, markdown, svg).

Numbers (`fmt_bytes`), wording (verdict, triage labels), and small views over a `Report`
(the ledger with its capacity, the triage walk with every step present, evidence grouped by
log, the suggested change applied to the launch command). No I/O and no rich import here.
"""

from __future__ import annotations

import re

import shlex
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from oomdoctor.facts import Evidence
from oomdoctor.model import (
    GATES,
    TRIAGE_STEPS,
    Account,
    Culprit,
    Finding,
    LedgerEntry,
    Report,
    StepStatus,
    Suggestion,
    TriageStep,
)
from oomdoctor.wording import restates

ACCOUNTS: tuple[str, ...] = tuple(a.value for a in TRIAGE_STEPS)

ACCOUNT_LABEL: dict[str, str] = {
    "weights": "weights",
    "kv_cache": "KV cache",
    "activations": "activations",
    "framework": "framework overhead",
    "host_memory": "host memory (CPU RAM)",
    "not_oom": "not an OOM",
    "pytorch": "PyTorch (not split)",
    "in_use": "in use (not split)",
    "other_processes": "other processes",
    "free": "free",
    "capacity": "capacity",
}

# What the verdict means, in one phrase per culprit.
CULPRIT_MEANING: dict[str, str] = {
    "weights": "the model weights do not fit on the GPU",
    "kv_cache": "the KV cache cannot hold the context/concurrency asked for",
    "activations": "prefill/batch activations peak above what is left",
    "framework": "framework overhead (CUDA graphs, preallocated pools, fragmentation, "
    "other processes) leaves too little",
    "host_memory": "host memory (CPU RAM, /dev/shm) ran out, not the GPU",
    "not_oom": "this is not an out-of-memory failure",
}

STATUS_LABEL: dict[StepStatus, str] = {
    StepStatus.CULPRIT: "CULPRIT",
    StepStatus.RULED_OUT: "ruled out",
    StepStatus.SECONDARY: "secondary",
    StepStatus.NOT_REACHED: "not reached",
    StepStatus.NO_EVIDENCE: "no evidence",
}

# One letter per account for text bars that must read without colour.
BAR_CHAR: dict[str, str] = {"weights": "W", "kv_cache": "K", "activations": "A", "framework": "F", "pytorch": "P",
                           "in_use": "U", "other_processes": "O", "free": "."}

_UNITS = ("KiB", "MiB", "GiB", "TiB", "PiB")


# --- numbers ------------------------------------------------------------------------------


def fmt_bytes(n: int | float | None) -> str:
    """Binary units with two decimals, as PyTorch prints them: 518.00 MiB, 21.67 GiB."""
    if n is None:
        return "?"
    sign = "-" if n < 0 else ""
    value = float(abs(n))
    if value < 1024:
        return f"{sign}{int(value)} B"
    for unit in _UNITS:
        value /= 1024
        if value < 1024 or unit == _UNITS[-1]:
            return f"{sign}{value:.2f} {unit}"
    raise AssertionError("unreachable")


def fmt_pct(part: int | None, whole: int | None) -> str:
    if part is None or not whole:
        return ""
    return f"{100 * part / whole:.1f}%"


def fmt_value(key: str, value: Any) -> str:
    """A value from a probe/rerun mapping: `*_bytes` keys as sizes, floats short."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, float)) and key.endswith("bytes"):
        return fmt_bytes(value)
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


# --- verdict ------------------------------------------------------------------------------


def culprit_name(report: Report) -> str:
    return report.culprit.value if isinstance(report.culprit, Culprit) else str(report.culprit)


def verdict_head(report: Report) -> str:
    """`kv_cache (high confidence)`, `unknown`, or `no memory failure found`."""
    c = culprit_name(report)
    if c not in CULPRIT_MEANING and report.pressure and not report.memory_failure:
        return "no memory failure; under pressure: " + ", ".join(dict.fromkeys(p.account for p in report.pressure))
    if c not in CULPRIT_MEANING and not (report.memory_failure or report.findings):
        return "no memory failure found"
    if report.confidence is None:
        return c
    return f"{c} ({report.confidence.value} confidence)"


def verdict_meaning(report: Report) -> str:
    """One sentence saying what the verdict means."""
    c = culprit_name(report)
    if c in CULPRIT_MEANING:
        text = CULPRIT_MEANING[c]
    elif report.pressure and not report.memory_failure:
        text = "nothing has failed yet, but the curve shows an account at its limit: fix it before it does"
    elif report.memory_failure or report.findings:
        text = "a memory failure, but the evidence does not name the account"
    else:
        text = "the log shows no out-of-memory failure"
    return text[0].upper() + text[1:] + "."


def phase_text(report: Report) -> str:
    """The failing phase; for a log cut before its failure, the last step it reached."""
    if report.phase:
        return report.phase
    reached = report.facts.get("phase.reached") if report.facts is not None else None
    return f"unknown, log ends in {reached.value}" if reached is not None else "unknown"


def framework_text(report: Report) -> str:
    from oomdoctor.knobs import FRAMEWORKS

    name = FRAMEWORKS.get(report.framework, report.framework or "unknown framework")
    return f"{name} {report.framework_version}" if report.framework_version else name


def versions_text(report: Report) -> str:
    from oomdoctor import __version__

    return f"oomdoctor {__version__}; framework: {framework_text(report)}"


# --- ledger -------------------------------------------------------------------------------


@dataclass(frozen=True)
class LedgerView:
    rows: tuple[LedgerEntry, ...]  # accounts in triage order, then others, then free
    capacity: LedgerEntry | None
    used: int  # sum of the known account sizes

    @property
    def capacity_bytes(self) -> int | None:
        return self.capacity.bytes if self.capacity is not None and self.capacity.bytes else None

    @property
    def drawable(self) -> bool:
        """A bar can be drawn: the card's size, and something in it (an account, or what was free); the card's size
        alone, from a cut message, draws nothing."""
        return bool(self.rows and self.capacity_bytes)

    @property
    def over_by(self) -> int:
        cap = self.capacity_bytes
        return max(0, self.used - cap) if cap is not None else 0


def ledger_view(report: Report) -> LedgerView:
    by_name = {e.account: e for e in report.ledger}
    ordered = [by_name[a] for a in ACCOUNTS if a in by_name]
    others = [e for e in report.ledger if e.account not in ACCOUNTS and e.account not in ("free", "capacity")]
    used = sum(e.bytes or 0 for e in (*ordered, *others))
    capacity = by_name.get("capacity")
    free = by_name.get("free")
    cap = capacity.bytes if capacity is not None else None
    # (the card's size alone, no account and nothing said free, is no measure of what was free: a cut message)
    if free is None and cap and (ordered or others):
        free = LedgerEntry("free", max(0, cap - used), "estimate", "capacity minus the accounts")
    rows = (*ordered, *others, *([free] if free is not None else []))
    return LedgerView(tuple(rows), capacity, used)


def bar_segments(view: LedgerView, cells: int) -> list[tuple[str, int]]:
    """Split `cells` among the accounts and free space, proportional to bytes.

    Scaled to the capacity (or to the accounts' sum when they exceed it); every non-empty
    part gets at least one cell; largest-remainder rounding keeps the total exact.
    """
    parts = [(e.account, e.bytes) for e in view.rows if e.bytes and e.bytes > 0]
    if view.over_by:
        parts = [(a, b) for a, b in parts if a != "free"]
    total = sum(b for _, b in parts)
    scale_to = max(total, view.capacity_bytes or 0)
    if not parts or scale_to <= 0 or cells <= 0:
        return []
    exact = [cells * b / scale_to for _, b in parts]
    counts = [max(1, int(x)) for x in exact]
    want = min(cells, round(cells * total / scale_to))
    order = sorted(range(len(parts)), key=lambda i: exact[i] - int(exact[i]), reverse=True)
    i = 0
    while sum(counts) < want and order:
        counts[order[i % len(order)]] += 1
        i += 1
    while sum(counts) > max(want, len(parts)):
        j = max(range(len(counts)), key=lambda k: counts[k])
        counts[j] -= 1
    return [(a, n) for (a, _), n in zip(parts, counts, strict=True) if n > 0]


CAPACITY_MARK = "|"


def bar_cells(view: LedgerView, cells: int) -> list[str]:
    """The account of each cell of the bar (`""` past the end); when the accounts exceed
    the card, the cell where capacity ends is `"capacity"`."""
    out = [a for a, n in bar_segments(view, cells) for _ in range(n)]
    out += [""] * (cells - len(out))
    cap = view.capacity_bytes
    if view.over_by and cap:
        scale_to = view.used
        out[min(cells - 1, round(cells * cap / scale_to))] = "capacity"
    return out


def text_bar(view: LedgerView, cells: int) -> str:
    """`[WWWWKKKKKKAAF.....]`: one letter per account, `.` for free, `|` where the card
    ends when the accounts exceed it."""
    chars = {**BAR_CHAR, "capacity": CAPACITY_MARK, "": " "}
    return "[" + "".join(chars.get(a, "?") for a in bar_cells(view, cells)) + "]"


def bar_legend(view: LedgerView) -> str:
    rows = [e for e in view.rows if e.bytes and not (view.over_by and e.account == "free")]
    items = [f"{BAR_CHAR.get(e.account, '?')} {e.account} {fmt_bytes(e.bytes)}" for e in rows]
    if view.over_by:
        items.append(f"{CAPACITY_MARK} capacity {fmt_bytes(view.capacity_bytes)}")
    return "  ".join(items)


def bar_caption(view: LedgerView) -> str:
    cap = view.capacity_bytes
    if cap is None:
        return f"accounts total {fmt_bytes(view.used)} (capacity unknown)"
    text = f"{fmt_bytes(view.used)} of {fmt_bytes(cap)} ({fmt_pct(view.used, cap)})"
    if view.over_by:
        text += f" — over capacity by {fmt_bytes(view.over_by)}"
    return text


# --- triage -------------------------------------------------------------------------------


def triage_walk(report: Report) -> list[TriageStep]:
    """Gates the report walked, then all four steps in order (missing ones: not reached)."""
    by_account = {account_name(t.account): t for t in report.triage}
    gates = [by_account[g.value] for g in GATES if g.value in by_account]
    steps = [by_account.get(a) or TriageStep(Account(a), StepStatus.NOT_REACHED, "") for a in ACCOUNTS]
    return [*gates, *steps]


def account_name(a: Account | str) -> str:
    return a.value if isinstance(a, Account) else str(a)


# --- findings and evidence ----------------------------------------------------------------


def evidence_groups(evidence: Iterable[Evidence]) -> list[tuple[str, list[Evidence]]]:
    """Evidence grouped by file, in first-seen order, duplicates dropped."""
    groups: dict[str, list[Evidence]] = {}
    seen: set[tuple[str, int | None, str]] = set()
    for e in evidence:
        key = (e.source, e.line, e.text)
        if key in seen:
            continue
        seen.add(key)
        groups.setdefault(e.source, []).append(e)
    return list(groups.items())


def numbered_lines(items: Sequence[Evidence]) -> list[str]:
    """`  1234 | text` lines, the numbers right-aligned to a common width."""
    width = max((len(str(e.line)) for e in items if e.line is not None), default=0)
    out = []
    for e in items:
        num = str(e.line) if e.line is not None else ""
        out.append(f"{num.rjust(width)} | {e.text}" if width else e.text)
    return out


def several_sources(report: Report) -> bool:
    return len(report.sources) > 1 or len({f.source for f in report.findings if f.source}) > 1


def finding_label(f: Finding, report: Report) -> str:
    """`[kv_cache] Title` plus the log's label when the report spans several logs."""
    label = f"[{account_name(f.account)}] {f.title}"
    if f.source and several_sources(report):
        label += f" — {f.source}"
    return label


# --- suggestions and the launch command ---------------------------------------------------


def suggestions(report: Report) -> list[Suggestion]:
    """The report's ordered suggestions; falls back to the findings' own."""
    if report.suggestions:
        return list(report.suggestions)
    return [s for f in report.findings for s in f.suggestions]


def split_flag(flag: str | None) -> tuple[str | None, str]:
    """`'-ctk q8_0  (a quantized V cache needs flash attention)'` -> setting, note."""
    if flag is None:
        return None, ""
    head, sep, tail = flag.partition("  (")
    if sep and tail.endswith(")"):
        return head.strip(), tail[:-1].strip()
    return flag.strip(), ""


def first_clause(why: str) -> str:
    """The reason of a suggestion without the notes appended to it (`a; b; c` -> `a`); a "; " inside parentheses
    separates the items of an aside, not a note (`a (x: 1; y: 2); b` -> `a (x: 1; y: 2)`)."""
    depth = 0
    for i, ch in enumerate(why):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif ch == ";" and depth == 0 and why.startswith("; ", i):
            return why[:i]
    return why


def brief_why(s: Suggestion) -> str:
    """A suggestion's reason at a glance: the first clause, unless no setting can be pasted for
    it; then the notes after the reason (the framework's own advice) are what to do."""
    if s.flag or s.knob in _NO_SETTING:
        return first_clause(s.why)
    return s.why


def finding_reason(f: Finding, limit: int = 220) -> str:
    """The tool's sentence for a finding: its title, and its message when that is not the raw
    log line (which the evidence shows) and short enough to read at a glance."""
    msg = " ".join(f.message.split())
    if not msg or len(msg) > limit or any(msg.endswith(e.text[-60:]) for e in f.evidence if len(e.text) > 60):
        return f.title
    # (a message that restates the title says it with the numbers: the title is not said first)
    return msg if msg.lower().startswith(f.title.lower()[:20]) or restates(f.title, msg) else f"{f.title}: {msg}"


def telling_evidence(report: Report, n: int = 3) -> list[Evidence]:
    """The lines that say the most: the failure line first, then the culprit finding's other
    lines, each once across findings."""
    seen: set[tuple[str, int | None]] = set()
    out: list[Evidence] = []
    failure = report.facts.get("oom.message") if report.facts is not None else None
    ordered: list[Evidence] = [failure.evidence] if failure is not None and failure.evidence is not None else []
    for f in report.findings:
        ordered += list(f.evidence)
    for e in ordered:
        key = (e.source, e.line)
        if key not in seen:
            seen.add(key)
            out.append(e)
        if len(out) >= n:
            break
    return out


_LOG_PREFIX = re.compile(
    r"^(?:[A-Z][a-z]{2} +\d+ [\d:]{8} \S+ [\w.-]+(?:\[\d+\])?: )?"  # syslog / journald
    r"(?:\(\w[^)]{0,60}\) )?"  # a Ray or vLLM process tag
    r"(?:\[?\d{4}-\d\d-\d\d[T ][\d:.,]+Z?\]? ?)?"  # an ISO timestamp
    r"(?:(?:INFO|WARNING|WARN|ERROR|DEBUG|CRITICAL) (?:\d\d-\d\d [\d:.]+ )?(?:\[[\w./]+:\d+\] )?)?")


def strip_prefix(text: str) -> str:
    """A log line without the logger's prefix (time, host, process, level): the message itself."""
    stripped = _LOG_PREFIX.sub("", text, count=1)
    return stripped if stripped.strip() else text


def short_source(path: str) -> str:
    return path.rsplit("/", 1)[-1] if "/" in path else path


def suggestion_summary(s: Suggestion) -> str:
    """`max_model_len: set 16384` (when no pasteable flag exists, this is what to change)."""
    action = s.action.value if hasattr(s.action, "value") else str(s.action)
    value = "" if s.value is None or isinstance(s.value, bool) else f" {fmt_value(s.knob, s.value)}"
    if s.knob in _NO_SETTING and not value:
        return _NO_SETTING[s.knob]  # no setting to name: the reason beside it says what to do
    return f"{s.knob}: {action}{value}"


_NO_SETTING = {"other": "check the setup", "upgrade": "upgrade the framework"}


def launch_command(report: Report) -> list[str] | None:
    """`report.extra["launch_command"]` as an argv list (a string is split), or None."""
    from oomdoctor.launch import split

    argv = report.extra.get("launch_command") if report.extra else None
    if isinstance(argv, str):
        argv = split(argv) if argv.strip() else None
    if not argv or not all(isinstance(a, str) for a in argv):
        return None
    return list(argv)


def command_lines(argv: Sequence[str]) -> list[str]:
    """One line per env assignment, program part and flag with its values."""
    from oomdoctor.launch import flag_groups, is_env_assign

    lead = 0
    while lead < len(argv) and is_env_assign(argv[lead]):
        lead += 1
    lines = [shlex.quote(t) for t in argv[:lead]]
    lines += [shlex.join(g) for g in flag_groups(argv[lead:])]
    return lines


def shell_command(argv: Sequence[str]) -> str:
    """A pasteable multi-line shell command (`\\` continuations)."""
    lines = command_lines(argv)
    return " \\\n  ".join(lines)


def line_diff(old: Sequence[str], new: Sequence[str]) -> list[str]:
    """`-`/`+`/` ` prefixed lines (a unified diff without headers or hunks)."""
    import difflib

    out: list[str] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        if tag == "equal":
            out += [f"  {x}" for x in old[i1:i2]]
            continue
        out += [f"- {x}" for x in old[i1:i2]]
        out += [f"+ {x}" for x in new[j1:j2]]
    return out


@dataclass(frozen=True)
class CommandChange:
    suggestion: Suggestion
    old: list[str]
    new: list[str]

    def diff(self) -> list[str]:
        return line_diff(command_lines(self.old), command_lines(self.new))


def command_change(report: Report) -> CommandChange | None:
    """The first suggestion that applies to the launch command, applied (one change only:
    the sources' method is to move one knob at a time)."""
    argv = launch_command(report)
    if argv is None:
        return None
    fix = (report.rerun or {}).get("fix")
    if isinstance(fix, dict) and fix.get("argv"):  # a rerun confirmed a change: show that one
        confirmed = next((s for s in suggestions(report) if s.knob == fix.get("knob")), None)
        new = [str(a) for a in fix["argv"]]
        if confirmed is not None and new != argv:
            return CommandChange(confirmed, argv, new)
    for s in suggestions(report):
        setting, _ = split_flag(s.flag)
        if not setting or not s.rerunnable:
            continue
        from oomdoctor.launch import apply_setting

        new = apply_setting(argv, setting)
        if new is not None and new != argv:
            return CommandChange(s, argv, new)
    return None


# --- probe / rerun mappings ---------------------------------------------------------------

RERUN_RESULT_KEYS = ("result", "outcome", "status")


def flatten(data: Any, prefix: str = "", limit: int = 24) -> list[tuple[str, str]]:
    """Scalar leaves of nested dicts/lists as `(dotted.key, text)`, at most `limit`."""
    out: list[tuple[str, str]] = []
    _flatten(data, prefix, out, limit)
    return out


def _flatten(data: Any, prefix: str, out: list[tuple[str, str]], limit: int) -> None:
    if len(out) >= limit:
        return
    if isinstance(data, dict):
        for k, v in data.items():
            _flatten(v, f"{prefix}.{k}" if prefix else str(k), out, limit)
    elif isinstance(data, (list, tuple)):
        if all(not isinstance(x, (dict, list, tuple)) for x in data):
            items = [str(x) for x in data]
            joined = shlex.join(items) if prefix.endswith(("argv", "command")) else ", ".join(items)
            out.append((prefix, joined))
        else:
            for i, v in enumerate(data):
                _flatten(v, f"{prefix}[{i}]", out, limit)
    elif data is not None:
        out.append((prefix, fmt_value(prefix, data)))


def probe_summary(probe: dict[str, Any], max_processes: int = 4) -> list[tuple[str, str]]:
    """The probe snapshot in a few lines: GPUs (and their biggest processes), host RAM,
    /dev/shm, the container limit, kernel OOM kills, the server process. An unknown
    shape falls back to `flatten`."""
    gpu, host = _dict(probe.get("gpu")), _dict(probe.get("host"))
    out: list[tuple[str, str]] = []
    taken = " on ".join(str(x) for x in (probe.get("taken_at"), probe.get("hostname")) if x)
    if taken:
        out.append(("taken", taken))
    if gpu.get("driver_version"):
        cuda = f" (CUDA {gpu['cuda_driver_version']})" if gpu.get("cuda_driver_version") else ""
        out.append(("driver", f"{gpu['driver_version']}{cuda}"))
    for dev in _dicts(gpu.get("devices")):
        out += _gpu_lines(dev, max_processes)
    out += _host_lines(host)
    server = _dict(probe.get("server"))
    if server:
        who = ", ".join(str(x) for x in (server.get("framework"), server.get("user")) if x)
        out.append(("server", f"pid {server.get('pid', '?')}" + (f" ({who})" if who else "")))
    return out if len(out) > int(bool(taken)) else flatten(probe)


def _dict(x: Any) -> dict[str, Any]:
    return x if isinstance(x, dict) else {}


def _dicts(x: Any) -> list[dict[str, Any]]:
    return [d for d in x if isinstance(d, dict)] if isinstance(x, list) else []


def _usage(d: dict[str, Any]) -> str:
    text = f"{fmt_bytes(d.get('used_bytes'))} used of {fmt_bytes(d.get('total_bytes'))}"
    if d.get("free_bytes") is not None:
        text += f", {fmt_bytes(d.get('free_bytes'))} free"
    return text


def _gpu_lines(dev: dict[str, Any], max_processes: int) -> list[tuple[str, str]]:
    key = f"GPU {dev.get('index', '?')}"
    text = f"{dev.get('name', 'GPU')}: {_usage(dev)}" + (", MIG on" if dev.get("mig_enabled") else "")
    out = [(key, text)]
    for mig in _dicts(dev.get("mig_instances")):
        out.append((f"{key} MIG {mig.get('index', '?')}", f"{mig.get('name', 'instance')}: {_usage(mig)}"))
    procs = _dicts(dev.get("processes"))
    procs += [p for m in _dicts(dev.get("mig_instances")) for p in _dicts(m.get("processes"))]
    procs.sort(key=lambda p: p.get("used_bytes") or 0, reverse=True)
    for p in procs[:max_processes]:
        owner = f" ({p['user']})" if p.get("user") else ""
        used = fmt_bytes(p.get("used_bytes"))
        out.append((f"{key} pid {p.get('pid', '?')}", f"{used} {p.get('command', '')}{owner}"))
    if len(procs) > max_processes:
        rest = sum(p.get("used_bytes") or 0 for p in procs[max_processes:])
        out.append((f"{key} others", f"{len(procs) - max_processes} more processes, {fmt_bytes(rest)}"))
    out += [(f"{key} note", str(n)) for n in dev.get("notes") or [] if n]
    return out


def _host_lines(host: dict[str, Any]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    ram = _dict(host.get("ram"))
    if ram:
        text = f"{fmt_bytes(ram.get('available_bytes'))} available of {fmt_bytes(ram.get('total_bytes'))}"
        if ram.get("swap_total_bytes") is not None:
            text += f"; swap {fmt_bytes(ram.get('swap_total_bytes'))}"
        out.append(("host RAM", text))
    shm = _dict(host.get("shm"))
    if shm:
        free, total = fmt_bytes(shm.get("free_bytes")), fmt_bytes(shm.get("total_bytes"))
        out.append((str(shm.get("path") or "shm"), f"{free} free of {total}"))
    cg = _dict(host.get("cgroup"))
    if cg.get("usage_bytes") is not None or cg.get("limit_bytes") is not None:
        limit = f"{fmt_bytes(cg['limit_bytes'])} limit" if cg.get("limit_bytes") is not None else "no limit"
        text = f"{fmt_bytes(cg.get('usage_bytes'))} used of {limit}"
        if cg.get("oom_kills") is not None:
            text += f"; {cg['oom_kills']} OOM kills"
        out.append(("container", text))
    lines = _dict(host.get("kernel_oom")).get("lines")
    if isinstance(lines, list) and lines:
        out.append(("kernel OOM", f"{len(lines)} line(s); first: {lines[0]}"))
    return out


def rerun_result(rerun: dict[str, Any]) -> str:
    for k in RERUN_RESULT_KEYS:
        value = rerun.get(k)
        if isinstance(value, str):
            return value
    return "unknown"


def rerun_details(rerun: dict[str, Any], limit: int = 16) -> list[tuple[str, str]]:
    rest = {k: v for k, v in rerun.items() if k not in RERUN_RESULT_KEYS}
    return flatten(rest, limit=limit)


def source_rows(report: Report) -> list[tuple[str, str, str, str]]:
    """`(label, path, first failure, note)` per log, the rank that failed first marked."""
    rows = []
    for s in report.sources:
        where = f"line {s.first_failure_line}" if s.first_failure_line is not None else "no failure line"
        if s.first_failure_at:
            where += f" at {s.first_failure_at}"
        note = "failed first" if report.failed_first and s.label == report.failed_first else ""
        rows.append((s.label, s.path, where, note))
    return rows


def rerun_summary(rerun: dict[str, Any]) -> tuple[str, str | None, list[tuple[str, str, str, str]]]:
    """The rerun as `(headline, change to keep, [(run, change, result, time)])`."""
    from oomdoctor.knobs import fmt_value as show

    headline = f"{rerun_result(rerun)}: {rerun.get('reason', '')}".rstrip(": ")
    keep = None
    fix = rerun.get("fix")
    if isinstance(fix, dict) and fix.get("knob"):
        argv = shlex.join(str(a) for a in fix.get("argv") or ())
        keep = f"{fix.get('knob')}={show(fix.get('value'))}" + (f"  ->  {argv}" if argv else "")
    rows = []
    attempts = rerun.get("attempts")
    for a in [rerun.get("baseline"), *(attempts if isinstance(attempts, list) else [])]:
        if not isinstance(a, dict):
            continue
        change = "as given" if a.get("role") == "baseline" else (
            f"{a.get('knob')}={show(a.get('value'))}" if a.get("value") is not None else str(a.get("knob")))
        rows.append((f"{a.get('index', '')} {a.get('role', '')}".strip(), change, str(a.get("result", "")),
                     f"{float(a.get('duration_s') or 0):.1f}s"))
    return headline, keep, rows
