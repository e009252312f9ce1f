"""Rerun to confirm: apply a suggestion to the user's own launch command, relaunch, decide.

A suggestion is a hypothesis until the workload runs with it. `confirm_report` takes a
diagnosed `Report` and the command the user gave explicitly (an argv list and its
environment), applies the suggestions in triage order, one knob at a time, and runs each
changed command through `oomdoctor.workload.run`. Each run's log is diagnosed again:

- confirmed:   the ready marker (or --health-url 200) of a server, or exit 0 of a batch command
- still_oom:   a memory failure in the same account as before
- new_failure: another error, a memory failure elsewhere, or a non-zero exit
- timeout:     neither within the time limit

For a numeric knob that is lowered (context, concurrency, batch), the loop searches: halve
until the command starts, bisect to the largest value that starts, then step back by the
headroom (10%) and confirm that value. The result goes into `Report.rerun` (a plain dict,
redacted: never a secret's value from argv or the environment).

Safety: only the given argv is run, as a list (never through a shell); values written into
it are checked (no newline, NUL or leading dash), and nothing is taken from log text but
the numbers the rules computed.
"""

from __future__ import annotations

import dataclasses
import math
import re
import shlex
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from oomdoctor import knobs, launch, workload
from oomdoctor.knobs import fmt_value
from oomdoctor.errors import RerunError
from oomdoctor.facts import Value
from oomdoctor.model import Account, Action, Culprit, LedgerEntry, Report, Suggestion
from oomdoctor.redact import Redactor

DEFAULT_HEADROOM = 0.10
DEFAULT_MAX_TRIES = 6

# Knobs where "smaller fits" and the largest value that starts is worth finding.
SEARCHABLE = frozenset({
    "max_model_len", "max_num_seqs", "max_num_batched_tokens", "max_total_tokens", "batch_size",
    "ubatch_size", "gpu_layers", "cuda_graph_sizes",
})

# Facts in which an engine states the upper limit of a knob itself (no search above it).
STATED_LIMIT: dict[str, tuple[str, ...]] = {
    "max_model_len": ("oom.max_model_len_estimate", "oom.kv_capacity_tokens"),
}

_ENV_NAME = re.compile(r"^[A-Z_][A-Z0-9_]*$")
_NUMBER = re.compile(r"^-?\d+(?:\.\d+)?$")


class RerunResult(str, Enum):
    CONFIRMED = "confirmed"
    STILL_OOM = "still_oom"
    NEW_FAILURE = "new_failure"
    TIMEOUT = "timeout"
    SKIPPED = "skipped"


class NotApplicable(RerunError):
    """This suggestion cannot be written into this command (a value, not a crash)."""


@dataclass(frozen=True)
class KnobMapping:
    """`--knob batch_size=--batch-size` (an argv flag) or `--knob batch_size=BATCH_SIZE` (an env var)."""

    knob: str
    target: str

    @property
    def is_env(self) -> bool:
        return bool(_ENV_NAME.match(self.target))

    @classmethod
    def parse(cls, text: str) -> KnobMapping:
        knob, sep, target = text.partition("=")
        knob, target = knob.strip(), target.strip()
        if not sep or not knob or not target:
            raise RerunError(f"--knob {text!r}: expected NAME=--flag or NAME=ENV_VAR (e.g. batch_size=--batch-size)")
        if not (target.startswith("-") or _ENV_NAME.match(target)) or any(c.isspace() for c in target):
            raise RerunError(f"--knob {text!r}: the target must be a flag (--batch-size) or an environment variable (BATCH_SIZE)")
        return cls(knob, target)


@dataclass(frozen=True)
class RerunOptions:
    max_tries: int = DEFAULT_MAX_TRIES  # runs after the diagnosis (a baseline run is not counted)
    timeout_s: float = 600.0
    workdir: Path | None = None  # logs go here; default: a new temporary directory
    health_url: str | None = None
    knob_map: tuple[KnobMapping, ...] = ()
    framework: str | None = None  # default: detected from argv, then the report
    headroom: float = DEFAULT_HEADROOM
    search: bool = True  # bisect searchable numeric knobs to the largest value that starts
    settle_s: float = 0.0  # a server must stay up this long after its ready marker
    grace_s: float = 10.0
    memory_limit_bytes: int | None = None  # RLIMIT_AS for the workload (CPU reproductions)
    ready_markers: tuple[str, ...] = ()  # extra ready markers
    rule_dirs: tuple[Path, ...] = ()
    on_line: Callable[[str], None] | None = field(default=None, compare=False)
    on_attempt: Callable[[Attempt], None] | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Attempt:
    index: int
    role: str  # baseline | suggestion | search | headroom
    knob: str | None
    value: Value | None
    rule_id: str | None
    argv: tuple[str, ...]
    env_changes: Mapping[str, str | None]  # None: unset
    result: RerunResult
    duration_s: float
    exit_code: int | None
    log_path: str
    culprit: str | None
    summary: str | None
    ledger: tuple[LedgerEntry, ...]
    peak_rss_bytes: int | None
    note: str = ""

    def to_dict(self, r: Redactor) -> dict[str, Any]:
        return {
            "index": self.index, "role": self.role, "knob": self.knob, "value": self.value, "rule_id": self.rule_id,
            "argv": r.argv(self.argv), "env": r.value(dict(self.env_changes)), "result": self.result.value,
            "duration_s": round(self.duration_s, 2), "exit_code": self.exit_code, "log": self.log_path,
            "culprit": self.culprit, "summary": r.maybe(self.summary),
            "ledger": [dataclasses.asdict(e) for e in self.ledger], "peak_rss_bytes": self.peak_rss_bytes,
            "note": r.text(self.note),
        }


@dataclass(frozen=True)
class Skip:
    knob: str
    rule_id: str
    reason: str


@dataclass(frozen=True)
class RerunOutcome:
    result: RerunResult
    reason: str
    framework: str | None
    command: tuple[str, ...]
    workdir: str
    attempts: tuple[Attempt, ...]
    not_applied: tuple[Skip, ...] = ()
    fix: Attempt | None = None  # the confirmed change to keep
    recommended: Value | None = None  # the fix's value; after the headroom step when that could not be run
    baseline: Attempt | None = None

    def to_dict(self, r: Redactor | None = None) -> dict[str, Any]:
        r = r or Redactor()
        fix = None
        if self.fix is not None:
            fix = {"knob": self.fix.knob, "value": self.fix.value, "recommended": self.recommended,
                   "rule_id": self.fix.rule_id, "attempt": self.fix.index,
                   "argv": r.argv(self.fix.argv), "env": r.value(dict(self.fix.env_changes))}
        return {
            "result": self.result.value,
            "reason": r.text(self.reason),
            "framework": self.framework,
            "command": r.argv(self.command),
            "workdir": self.workdir,
            "fix": fix,
            "baseline": self.baseline.to_dict(r) if self.baseline else None,
            "attempts": [a.to_dict(r) for a in self.attempts],
            "not_applied": [dataclasses.asdict(s) for s in self.not_applied],
        }


# ------------------------------------------------------------------ applying a suggestion


def apply_suggestion(
    argv: Sequence[str],
    env: Mapping[str, str],
    suggestion: Suggestion,
    framework: str | None,
    knob_map: Sequence[KnobMapping] = (),
    version: str | None = None,
) -> tuple[list[str], dict[str, str | None]]:
    """`argv` with the suggestion written in, and the environment changes it needs.

    An existing flag is replaced in place, keeping the user's spelling and `--x=y` or
    `--x y` form (underscores or dashes); otherwise the framework's spelling is appended.
    Boolean switches are added or removed. Raises `NotApplicable` when the knob has no
    spelling for this framework (map it with `--knob`), the value is missing or unsafe, or
    the command already has it."""
    out, env_changes = write_knob(argv, env, suggestion, framework, knob_map, version)
    return _changed(argv, env, out, env_changes, suggestion)


def write_knob(
    argv: Sequence[str],
    env: Mapping[str, str],
    suggestion: Suggestion,
    framework: str | None,
    knob_map: Sequence[KnobMapping] = (),
    version: str | None = None,
) -> tuple[list[str], dict[str, str | None]]:
    """`apply_suggestion` without the check that something changed (the sweep sets values
    that may already be there)."""
    out = list(argv)
    env_changes: dict[str, str | None] = {}
    value = suggestion.value
    if value is not None:
        _check_value(value)
    mapping = next((m for m in reversed(tuple(knob_map)) if m.knob == suggestion.knob), None)
    if mapping is not None:
        if value is None:
            raise NotApplicable(f"{suggestion.knob}: no value to set")
        if mapping.is_env:
            env_changes[mapping.target] = fmt_value(value)
        else:
            launch.set_flag(out, (mapping.target,), fmt_value(value))
        return out, env_changes
    fw = framework or ""
    if not suggestion.rerunnable:
        raise NotApplicable(f"{suggestion.knob}: not something a relaunch can change ({suggestion.flag or 'no setting'})")
    spelling = knobs.spelling(fw, suggestion.knob, version) if fw else knobs.GENERIC.get(suggestion.knob)
    if spelling is None or not spelling.rerunnable:
        raise NotApplicable(f"{suggestion.knob}: no launch flag or variable for {fw or 'this command'}; "
                            f"map one with --knob {suggestion.knob}=--flag")
    template = spelling.template
    if suggestion.action is Action.DISABLE and suggestion.flag and "{v}" not in template:
        template = suggestion.flag  # a setting spelled on, as the suggestion spelled it off ("-fa off", "...=0")
    env_ops, argv_ops = launch.template_ops(template)
    if not env_ops and not argv_ops:
        raise NotApplicable(f"{suggestion.knob}: {template!r} is not a flag or variable")
    needs_value = "{v}" in template
    if needs_value and value is None:
        raise NotApplicable(f"{suggestion.knob}: the diagnosis has no value to set")
    shown = fmt_value(value) if value is not None else ""
    for name, template in env_ops:
        new = template.replace("{v}", shown)
        env_changes[name] = launch.merge_alloc_conf(env.get(name), new) if name in launch.ALLOC_CONF else new
    disable = suggestion.action is Action.DISABLE
    for flag, arg in argv_ops:
        names = launch.spellings(fw, flag)
        if arg is None:
            launch.set_switch(out, fw, flag, names, on=not disable)
        else:
            launch.set_flag(out, names, arg.replace("{v}", shown))
    return out, env_changes


def _changed(argv: Sequence[str], env: Mapping[str, str], out: list[str], env_changes: dict[str, str | None],
             s: Suggestion) -> tuple[list[str], dict[str, str | None]]:
    real = {k: v for k, v in env_changes.items() if env.get(k) != v}
    if out == list(argv) and not real:
        raise NotApplicable(f"{s.knob}: the command already has {fmt_value(s.value) if s.value is not None else 'it'}")
    return out, real


def _check_value(value: Value) -> None:
    if isinstance(value, str):
        if not value or "\n" in value or "\r" in value or "\x00" in value:
            raise NotApplicable(f"unsafe value {value!r}")
        if value.startswith("-") and not _NUMBER.match(value):
            raise NotApplicable(f"unsafe value {value!r} (looks like a flag)")


def current_value(argv: Sequence[str], env: Mapping[str, str], knob: str, framework: str | None,
                  knob_map: Sequence[KnobMapping] = ()) -> Value | None:
    """The knob's value in the command as given (None when it is not set there)."""
    mapping = next((m for m in reversed(tuple(knob_map)) if m.knob == knob), None)
    if mapping is not None:
        raw = env.get(mapping.target) if mapping.is_env else launch.flag_value(argv, (mapping.target,))
        return _number(raw) if raw is not None else None
    facts = launch.parse_argv(list(argv), framework) + launch.parse_env(env)
    for f in reversed(facts):
        if f.key == f"knob.{knob}":
            return f.value
    return None


def _number(raw: str) -> Value:
    try:
        return int(raw)
    except ValueError:
        try:
            return float(raw)
        except ValueError:
            return raw


# ------------------------------------------------------------------ running and deciding


@dataclass(frozen=True)
class RunContext:
    argv: tuple[str, ...]
    env: Mapping[str, str]
    framework: str | None
    version: str | None
    culprit: Culprit
    options: RerunOptions
    workdir: Path


def run_attempt(ctx: RunContext, index: int, role: str, label: str, argv: Sequence[str],
                env_changes: Mapping[str, str | None], knob: str | None = None, value: Value | None = None,
                rule_id: str | None = None) -> tuple[Attempt, Report]:
    """Run one changed command, diagnose its log, classify."""
    from oomdoctor.diagnose import DiagnoseOptions, diagnose

    env = {k: v for k, v in ctx.env.items() if not (k in env_changes and env_changes[k] is None)}
    env.update({k: v for k, v in env_changes.items() if v is not None})
    opts = ctx.options
    log = ctx.workdir / workload.log_name(index, label)
    markers = workload.ready_markers(ctx.framework, argv, opts.ready_markers)
    server = workload.is_server(ctx.framework, argv, opts.health_url)
    res = workload.run(
        workload.RunSpec(tuple(argv), env, log, opts.timeout_s, markers, opts.health_url, opts.settle_s, opts.grace_s,
                         opts.memory_limit_bytes),
        on_line=opts.on_line,
    )
    report = diagnose(DiagnoseOptions(logs=[str(log)], framework=_diagnose_framework(ctx.framework), rule_dirs=opts.rule_dirs))
    result, note = classify(res, report, ctx.culprit, server)
    attempt = Attempt(
        index=index, role=role, knob=knob, value=value, rule_id=rule_id, argv=tuple(argv), env_changes=dict(env_changes),
        result=result, duration_s=res.duration_s, exit_code=res.exit_code, log_path=str(log),
        culprit=report.culprit.value if report.memory_failure else None, summary=report.summary if report.memory_failure else None,
        ledger=report.ledger, peak_rss_bytes=res.peak_rss_bytes, note=note,
    )
    if opts.on_attempt is not None:
        opts.on_attempt(attempt)
    return attempt, report


def _diagnose_framework(framework: str | None) -> str | None:
    return framework if framework and knobs.canonical_framework(framework) else None


def classify(res: workload.RunResult, report: Report, culprit: Culprit, server: bool) -> tuple[RerunResult, str]:
    """The verdict of one run, and a note that says why."""
    if res.outcome is workload.Outcome.READY:
        return RerunResult.CONFIRMED, f"ready: {res.ready_line}" if res.ready_line else "ready"
    if res.outcome is workload.Outcome.EXITED and res.exit_code == 0 and not res.failed_after_ready:
        if not server:
            return RerunResult.CONFIRMED, "exited 0"
        if not report.memory_failure:
            return RerunResult.NEW_FAILURE, "the server exited (status 0) without printing its ready marker"
    if report.memory_failure:
        same = culprit in (Culprit.UNKNOWN,) or report.culprit in (culprit, Culprit.UNKNOWN)
        if same:
            return RerunResult.STILL_OOM, f"memory failure ({report.culprit.value})"
        return RerunResult.NEW_FAILURE, f"a memory failure in another account: {report.culprit.value} (was {culprit.value})"
    if res.outcome is workload.Outcome.TIMEOUT:
        return RerunResult.TIMEOUT, "neither ready nor exited within the time limit"
    if res.exit_code is not None and res.exit_code == -9 and culprit is Culprit.HOST_MEMORY:
        return RerunResult.STILL_OOM, "killed by SIGKILL (the kernel's OOM killer?)"
    after = " after it was ready" if res.failed_after_ready else ""
    return RerunResult.NEW_FAILURE, f"exited with status {res.exit_code}{after}"


# ------------------------------------------------------------------ the loop


def confirm_report(report: Report, argv: Sequence[str], env: Mapping[str, str], options: RerunOptions) -> Report:
    """The entry point for `diagnose --rerun`: `report` with `rerun` filled in.

    Applies `report.suggestions` in triage order (then a halving search on knobs mapped with
    `--knob` that no suggestion covers) to `argv`/`env`, one knob at a time, up to
    `options.max_tries` runs; stops at the first confirmed fix. Stops every process it
    started, also on SIGINT/SIGTERM. `Report.rerun["result"]` tells the outcome; the CLI
    exits 0 when it is `confirmed`, else 4."""
    outcome = confirm(report, argv, env, options)
    return dataclasses.replace(report, rerun=outcome.to_dict(Redactor()))


def confirm_command(argv: Sequence[str], env: Mapping[str, str], options: RerunOptions) -> Report:
    """`oomdoctor confirm`: run the command as given, diagnose its log, then `confirm_report`."""
    from oomdoctor.diagnose import DiagnoseOptions, diagnose

    ctx = make_context(argv, env, options, None)
    with workload.signals_as_exceptions():
        base, _ = run_attempt(ctx, 0, "baseline", "baseline", argv, {})
    report = diagnose(DiagnoseOptions(logs=[base.log_path], framework=_diagnose_framework(ctx.framework),
                                      rule_dirs=options.rule_dirs))
    if base.result is RerunResult.CONFIRMED:
        outcome = RerunOutcome(RerunResult.CONFIRMED, "the command as given ran cleanly: nothing to change", ctx.framework,
                               tuple(argv), str(ctx.workdir), (), baseline=base)
    elif not report.memory_failure:
        reason = ("the first run timed out before anything failed" if base.result is RerunResult.TIMEOUT
                  else f"the first run failed without a memory failure ({base.note}); see {base.log_path}")
        outcome = RerunOutcome(RerunResult.SKIPPED, reason, ctx.framework, tuple(argv), str(ctx.workdir), (), baseline=base)
    else:
        outcome = dataclasses.replace(confirm(report, argv, env, dataclasses.replace(options, workdir=ctx.workdir)),
                                      baseline=base)
    return dataclasses.replace(report, rerun=outcome.to_dict(Redactor()))


def make_context(argv: Sequence[str], env: Mapping[str, str], options: RerunOptions, report: Report | None) -> RunContext:
    if not argv:
        raise RerunError("no command given: put it after `--` (oomdoctor ... -- vllm serve MODEL ...)")
    fw = options.framework
    if fw is not None:
        fw = knobs.canonical_framework(fw) or fw
    fw = fw or launch.detect_framework(" ".join(argv)) or (report.framework if report else None)
    if fw in ("other", "unknown"):
        fw = None
    workdir = options.workdir or Path(tempfile.mkdtemp(prefix="oomdoctor-rerun-"))
    workdir.mkdir(parents=True, exist_ok=True)
    return RunContext(tuple(argv), dict(env), fw, report.framework_version if report else None,
                report.culprit if report else Culprit.UNKNOWN, options, workdir)


def candidates(report: Report, argv: Sequence[str], env: Mapping[str, str], framework: str | None,
               knob_map: Sequence[KnobMapping] = ()) -> list[Suggestion]:
    """Suggestions in triage order (the report's merged list, then the findings'), then a
    search (lower, no value) for each `--knob`-mapped knob that none of them sets."""
    seen: set[tuple[str, str, str]] = set()
    out: list[Suggestion] = []
    for s in (*report.suggestions, *(s for f in report.findings for s in f.suggestions)):
        key = (s.knob, s.action.value, fmt_value(s.value) if s.value is not None else "")
        if key not in seen:
            seen.add(key)
            out.append(s)
    account = _culprit_account(report.culprit)
    for m in knob_map:
        if any(s.knob == m.knob for s in out):
            continue
        cur = current_value(argv, env, m.knob, framework, knob_map)
        if isinstance(cur, (int, float)) and not isinstance(cur, bool) and cur > 1:
            out.append(Suggestion(m.knob, Action.LOWER, None, f"{m.target} <lower>",
                                  f"rerun search: {m.knob} is mapped to {m.target}; halve it until the command starts",
                                  "rerun-search", account, True))
    return out


def _culprit_account(c: Culprit) -> Account:
    try:
        return Account(c.value)
    except ValueError:
        return Account.FRAMEWORK


def confirm(report: Report, argv: Sequence[str], env: Mapping[str, str], options: RerunOptions) -> RerunOutcome:
    """The rerun loop behind `confirm_report` (the typed outcome, not yet a dict)."""
    ctx = make_context(argv, env, options, report)
    with workload.signals_as_exceptions():
        return _Loop(ctx, report).run()


class _Loop:
    def __init__(self, ctx: RunContext, report: Report) -> None:
        self.ctx = ctx
        self.report = report
        self.attempts: list[Attempt] = []
        self.skips: list[Skip] = []

    @property
    def tries_left(self) -> int:
        return self.ctx.options.max_tries - len(self.attempts)

    def outcome(self, result: RerunResult, reason: str, fix: Attempt | None = None,
                recommended: Value | None = None) -> RerunOutcome:
        c = self.ctx
        return RerunOutcome(result, reason, c.framework, c.argv, str(c.workdir), tuple(self.attempts), tuple(self.skips),
                            fix, recommended if recommended is not None else (fix.value if fix else None))

    def run(self) -> RerunOutcome:
        c = self.ctx
        if not self.report.memory_failure:
            return self.outcome(RerunResult.SKIPPED, "the diagnosis found no memory failure to fix")
        for s in candidates(self.report, c.argv, c.env, c.framework, c.options.knob_map):
            if self.tries_left <= 0:
                break
            done = self.try_suggestion(s)
            if done is not None:
                return done
        if not self.attempts:
            why = "; ".join(f"{s.knob}: {s.reason}" for s in self.skips) or "the diagnosis has no suggestion"
            hint = "" if c.options.knob_map else (
                "; to let rerun search a knob of this command, map it: --knob batch_size=--batch-size")
            return self.outcome(RerunResult.SKIPPED, f"no suggestion could be applied to this command ({why}){hint}")
        last = self.attempts[-1]
        left = "" if self.tries_left > 0 else f" (stopped after --max-tries {c.options.max_tries})"
        return self.outcome(last.result, f"no change held{left}; last: {last.note}")

    def apply(self, s: Suggestion) -> tuple[list[str], dict[str, str | None]]:
        c = self.ctx
        return apply_suggestion(c.argv, c.env, s, c.framework, c.options.knob_map, c.version)

    def attempt(self, role: str, s: Suggestion, value: Value | None) -> Attempt | None:
        s2 = dataclasses.replace(s, value=value) if value is not None else s
        try:
            argv, env_changes = self.apply(s2)
        except NotApplicable as exc:
            self.skips.append(Skip(s.knob, s.rule_id, exc.message.removeprefix(f"{s.knob}: ")))
            return None
        label = f"{s.knob}-{fmt_value(s2.value)}" if s2.value is not None else s.knob
        a, _ = run_attempt(self.ctx, len(self.attempts) + 1, role, label, argv, env_changes, s.knob, s2.value, s.rule_id)
        self.attempts.append(a)
        return a

    def try_suggestion(self, s: Suggestion) -> RerunOutcome | None:
        c = self.ctx
        cur = current_value(c.argv, c.env, s.knob, c.framework, c.options.knob_map)
        searchable = (c.options.search and _is_int(cur) and (s.knob in SEARCHABLE or s.rule_id == "rerun-search")
                      and (s.value is None or (_is_int(s.value) and s.value < cur)))  # type: ignore[operator]
        if not searchable:
            a = self.attempt("suggestion", s, None)
            if a is not None and a.result is RerunResult.CONFIRMED:
                return self.outcome(RerunResult.CONFIRMED, f"{s.knob} -> {fmt_value(s.value) if s.value is not None else s.action.value} holds", a)
            return None
        return self.search(s, int(cur))  # type: ignore[arg-type]

    def search(self, s: Suggestion, cur: int) -> RerunOutcome | None:
        """Halve until it starts, bisect to the largest value that starts, step back by the headroom."""
        c = self.ctx
        hi_fail = cur  # the command as given failed at `cur`
        limit = _stated_limit(self.report, s.knob)
        if limit is not None and limit < hi_fail:
            hi_fail = limit + 1  # the engine said what it holds: no need to search above it
        lo_ok: Attempt | None = None
        value = int(s.value) if _is_int(s.value) else max(1, cur // 2)  # type: ignore[arg-type]
        role = "suggestion" if s.value is not None else "search"
        while self.tries_left > 0:
            a = self.attempt(role, s, value)
            if a is None:
                return None
            role = "search"
            if a.result is RerunResult.CONFIRMED:
                lo_ok = a
                break
            if a.result is not RerunResult.STILL_OOM or value <= 1:
                return None  # another failure (or nothing left to lower): next suggestion
            hi_fail = value
            value = max(1, value // 2)
        if lo_ok is None:
            return None
        lo = int(lo_ok.value)  # type: ignore[arg-type]
        while self.tries_left > 1 and hi_fail - lo > max(1, math.ceil(lo * c.options.headroom / 2)):
            mid = (lo + hi_fail) // 2
            a = self.attempt("search", s, mid)
            if a is None:
                break
            if a.result is RerunResult.CONFIRMED:
                lo, lo_ok = mid, a
            elif a.result in (RerunResult.STILL_OOM, RerunResult.TIMEOUT):
                hi_fail = mid
            else:
                break
        target = _step_back(lo, c.options.headroom, s.knob)
        how = f"largest value that started: {lo}" + (f" (stated limit {limit})" if limit is not None else "")
        if target < lo and self.tries_left > 0:
            a = self.attempt("headroom", s, target)
            if a is not None and a.result is RerunResult.CONFIRMED:
                return self.outcome(RerunResult.CONFIRMED,
                                    f"{s.knob} -> {target} holds ({how}, minus {c.options.headroom:.0%} headroom)", a)
        recommended = target if target < lo else None
        return self.outcome(RerunResult.CONFIRMED, f"{s.knob} -> {lo} holds ({how}; "
                            f"{'with headroom use ' + str(target) if recommended else 'no room to step back'})",
                            lo_ok, recommended)


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _stated_limit(report: Report, knob: str) -> int | None:
    for key in STATED_LIMIT.get(knob, ()):
        v = report.facts.value(key)
        if _is_int(v):
            return int(v)  # type: ignore[arg-type]
    return None


def _step_back(value: int, headroom: float, knob: str) -> int:
    target = max(1, math.floor(value * (1 - headroom)))
    if knob == "max_model_len" and target >= 256:
        target -= target % 16  # whole KV blocks
    return target


# ------------------------------------------------------------------ rendering (pure)


def render_rerun(rerun: Mapping[str, Any], color: bool = False, width: int = 100) -> str:
    """`Report.rerun` as text: the verdict, the change to keep, and one row per run."""
    import io

    from rich import box
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from oomdoctor.facts import format_bytes

    buf = io.StringIO()
    console = Console(file=buf, width=width, force_terminal=color, no_color=not color,
                      color_system="standard" if color else None, highlight=False, emoji=False, markup=False,
                      _environ={})
    result = str(rerun.get("result", "unknown"))
    style = "bold green" if result == RerunResult.CONFIRMED.value else "bold red"
    console.print(Text(f"rerun: {result}", style=style) + Text(f" - {rerun.get('reason', '')}"))
    fix = rerun.get("fix")
    if isinstance(fix, Mapping):
        console.print(Text(f"keep: {fix.get('knob')}={_show(fix.get('value'))}", style="bold"))
        rec = fix.get("recommended")
        if rec is not None and rec != fix.get("value"):
            console.print(f"recommended with headroom (not run): {fix.get('knob')}={_show(rec)}")
        env = fix.get("env") or {}
        env_text = " ".join(f"{k}={v}" for k, v in env.items() if v is not None)
        console.print("command: " + (env_text + " " if env_text else "") + shlex.join(str(a) for a in fix.get("argv") or ()))
    runs = [a for a in ([rerun.get("baseline")] + list(rerun.get("attempts") or [])) if isinstance(a, Mapping)]
    if runs:
        table = Table(box=box.SIMPLE, show_edge=False, pad_edge=False)
        for col in ("run", "change", "result", "time", "peak RSS", "log"):
            table.add_column(col, no_wrap=col in ("run", "result", "time"), overflow="fold")
        for a in runs:
            change = "as given" if a.get("role") == "baseline" else (
                f"{a.get('knob')}={_show(a.get('value'))}" if a.get("value") is not None else str(a.get("knob")))
            peak = a.get("peak_rss_bytes")
            table.add_row(f"{a.get('index')} {a.get('role')}", change, str(a.get("result")), f"{a.get('duration_s', 0):.1f}s",
                          format_bytes(int(peak)) if isinstance(peak, int) else "", str(a.get("log", "")))
        console.print(table)
    for skip in rerun.get("not_applied") or []:
        if isinstance(skip, Mapping):
            console.print(f"not applied: {skip.get('knob')} ({skip.get('rule_id')}): {skip.get('reason')}", style="dim")
    return buf.getvalue().rstrip("\n")


def _show(v: Any) -> str:
    return fmt_value(v) if isinstance(v, (int, float, str, bool)) else str(v)


__all__ = [
    "Attempt", "KnobMapping", "NotApplicable", "RerunOptions", "RerunOutcome", "RerunResult",
    "apply_suggestion", "candidates", "classify", "confirm", "confirm_command", "confirm_report", "current_value",
    "fmt_value", "render_rerun", "run_attempt", "write_knob",
]
