"""`oomdoctor sweep`: the seed method, automated — a memory map of the workload.

Start from a conservative configuration (the first value of every `--knob` list), then raise
one knob at a time: the first knob (concurrency, say) varies fastest, the next (context)
once per row. Each point runs the user's command with those values (through
`oomdoctor.rerun.run_attempt`: same process handling, logs and verdicts) and records
fit / no fit and the peak memory: the engine's own accounting (the ledger `diagnose()`
reads from the log) when it prints one, else the largest resident size of the child tree
(sampled, and `ru_maxrss`). A point at least as large in every knob as a point that did
not fit is not run: it is marked as implied.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from oomdoctor.errors import RerunError
from oomdoctor.facts import Value
from oomdoctor.model import Account, Action, LedgerEntry, Suggestion
from oomdoctor.redact import Redactor
from oomdoctor.rerun import (
    Attempt,
    KnobMapping,
    NotApplicable,
    RerunOptions,
    RerunResult,
    make_context,
    run_attempt,
    write_knob,
)
from oomdoctor.knobs import fmt_value
from oomdoctor.facts import format_bytes

ENGINE_ACCOUNTS = ("weights", "kv_cache", "activations", "framework")


@dataclass(frozen=True)
class SweepAxis:
    knob: str
    values: tuple[Value, ...]  # conservative first

    @classmethod
    def parse(cls, text: str) -> tuple[SweepAxis, KnobMapping | None]:
        """`max_num_seqs=1,2,4,8`, or with the flag of a generic command: `batch_size=--batch-size=1,2,4`."""
        knob, sep, rest = text.partition("=")
        knob = knob.strip()
        if not sep or not knob or not rest.strip():
            raise RerunError(f"--knob {text!r}: expected NAME=V1,V2,... (e.g. max_num_seqs=1,2,4,8)")
        mapping = None
        target, sep2, values_text = rest.rpartition("=")
        if sep2 and target:
            mapping = KnobMapping.parse(f"{knob}={target}")
        else:
            values_text = rest
        values = tuple(_value(v.strip()) for v in values_text.split(",") if v.strip())
        if not values:
            raise RerunError(f"--knob {text!r}: no values")
        if len(set(values)) != len(values):
            raise RerunError(f"--knob {text!r}: a value is listed twice")
        return cls(knob, values), mapping


def _value(text: str) -> Value:
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            continue
    return text


class Fit(str, Enum):
    FIT = "fit"
    NO_FIT = "no_fit"  # a memory failure
    IMPLIED = "no_fit_implied"  # not run: at least as large as a point that did not fit
    FAILED = "failed"  # another failure
    TIMEOUT = "timeout"
    NOT_RUN = "not_run"  # --max-runs reached


@dataclass(frozen=True)
class SweepPoint:
    settings: tuple[tuple[str, Value], ...]
    fit: Fit
    engine_bytes: int | None = None  # the engine's own accounting (sum of the ledger's accounts)
    rss_bytes: int | None = None  # the child tree's largest resident size
    duration_s: float | None = None
    log_path: str | None = None
    argv: tuple[str, ...] = ()
    env_changes: Mapping[str, str | None] = field(default_factory=dict)
    culprit: str | None = None
    note: str = ""
    ledger: tuple[LedgerEntry, ...] = ()

    @property
    def peak_bytes(self) -> int | None:
        return self.engine_bytes if self.engine_bytes is not None else self.rss_bytes

    @property
    def peak_source(self) -> str | None:
        return "engine" if self.engine_bytes is not None else ("rss" if self.rss_bytes is not None else None)

    def value(self, knob: str) -> Value:
        return dict(self.settings)[knob]

    def to_dict(self, r: Redactor) -> dict[str, Any]:
        return {
            "settings": dict(self.settings), "fit": self.fit.value, "peak_bytes": self.peak_bytes,
            "peak_source": self.peak_source, "engine_bytes": self.engine_bytes, "rss_bytes": self.rss_bytes,
            "duration_s": round(self.duration_s, 2) if self.duration_s is not None else None, "log": self.log_path,
            "argv": r.argv(self.argv), "env": r.value(dict(self.env_changes)), "culprit": self.culprit,
            "note": r.text(self.note), "ledger": [dataclasses.asdict(e) for e in self.ledger],
        }


@dataclass(frozen=True)
class SweepOptions:
    axes: tuple[SweepAxis, ...]
    knob_map: tuple[KnobMapping, ...] = ()
    framework: str | None = None
    timeout_s: float = 600.0
    workdir: Path | None = None
    health_url: str | None = None
    settle_s: float = 0.0
    grace_s: float = 10.0
    memory_limit_bytes: int | None = None
    ready_markers: tuple[str, ...] = ()
    rule_dirs: tuple[Path, ...] = ()
    max_runs: int | None = None
    on_line: Callable[[str], None] | None = field(default=None, compare=False)
    on_point: Callable[[SweepPoint], None] | None = field(default=None, compare=False)


@dataclass(frozen=True)
class MemoryMap:
    framework: str | None
    command: tuple[str, ...]
    axes: tuple[SweepAxis, ...]
    points: tuple[SweepPoint, ...]
    workdir: str

    @property
    def baseline(self) -> SweepPoint | None:
        return self.points[0] if self.points else None

    @property
    def baseline_fits(self) -> bool:
        return self.baseline is not None and self.baseline.fit is Fit.FIT

    def largest_fit(self) -> dict[str, Value | None]:
        """Per knob: the largest value that fit with every other knob at its conservative start."""
        out: dict[str, Value | None] = {}
        start = {a.knob: a.values[0] for a in self.axes}
        for a in self.axes:
            best: Value | None = None
            for p in self.points:
                s = dict(p.settings)
                if p.fit is Fit.FIT and all(s[k] == v for k, v in start.items() if k != a.knob):
                    best = s[a.knob]
            out[a.knob] = best
        return out

    def to_dict(self, r: Redactor | None = None) -> dict[str, Any]:
        r = r or Redactor()
        return {
            "kind": "memory_map",
            "framework": self.framework,
            "command": r.argv(self.command),
            "workdir": self.workdir,
            "axes": [{"knob": a.knob, "values": list(a.values)} for a in self.axes],
            "baseline_fits": self.baseline_fits,
            "largest_fit": self.largest_fit(),
            "points": [p.to_dict(r) for p in self.points],
        }


def sweep(argv: Sequence[str], env: Mapping[str, str], options: SweepOptions) -> MemoryMap:
    """Run the memory-map sweep; every process started is stopped before this returns."""
    from oomdoctor import workload

    if not options.axes:
        raise RerunError("nothing to sweep: give at least one --knob NAME=V1,V2,...")
    knobs_seen = [a.knob for a in options.axes]
    if len(set(knobs_seen)) != len(knobs_seen):
        raise RerunError("each knob may be swept once")
    ropts = RerunOptions(
        max_tries=0, timeout_s=options.timeout_s, workdir=options.workdir, health_url=options.health_url,
        knob_map=options.knob_map, framework=options.framework, settle_s=options.settle_s, grace_s=options.grace_s,
        memory_limit_bytes=options.memory_limit_bytes, ready_markers=options.ready_markers, rule_dirs=options.rule_dirs,
        on_line=options.on_line,
    )
    ctx = make_context(argv, env, ropts, None)
    # Every knob must be writable into this command before anything runs.
    for axis in options.axes:
        try:
            _write(ctx.argv, ctx.env, [(axis.knob, axis.values[0])], ctx.framework, options.knob_map)
        except NotApplicable as exc:
            raise RerunError(f"cannot sweep {axis.knob}: {exc.message}") from exc
    points: list[SweepPoint] = []
    runs = 0
    with workload.signals_as_exceptions():
        for combo in _walk(options.axes):
            settings = tuple((a.knob, combo[i]) for i, a in enumerate(options.axes))
            if _implied(combo, options.axes, points):
                p = SweepPoint(settings, Fit.IMPLIED, note="at least as large as a point that did not fit")
            elif options.max_runs is not None and runs >= options.max_runs:
                p = SweepPoint(settings, Fit.NOT_RUN, note="--max-runs reached")
            else:
                runs += 1
                argv2, env_changes = _write(ctx.argv, ctx.env, list(settings), ctx.framework, options.knob_map)
                label = "-".join(f"{k}-{fmt_value(v)}" for k, v in settings)
                a, _ = run_attempt(ctx, runs, "sweep", label, argv2, env_changes)
                p = _point(settings, a)
            points.append(p)
            if options.on_point is not None:
                options.on_point(p)
    return MemoryMap(ctx.framework, ctx.argv, options.axes, tuple(points), str(ctx.workdir))


def _write(argv: Sequence[str], env: Mapping[str, str], settings: list[tuple[str, Value]], framework: str | None,
           knob_map: Sequence[KnobMapping]) -> tuple[list[str], dict[str, str | None]]:
    out = list(argv)
    changes: dict[str, str | None] = {}
    for knob, value in settings:
        s = Suggestion(knob, Action.SET, value, None, "sweep", "sweep", Account.KV_CACHE, True)
        merged = {**env, **{k: v for k, v in changes.items() if v is not None}}
        out, more = write_knob(out, merged, s, framework, knob_map)
        changes.update(more)
    return out, {k: v for k, v in changes.items() if env.get(k) != v}


def _walk(axes: Sequence[SweepAxis]) -> list[tuple[Value, ...]]:
    """All combinations, the first knob varying fastest."""
    combos = itertools.product(*(a.values for a in reversed(axes)))
    return [tuple(reversed(c)) for c in combos]


def _index(axes: Sequence[SweepAxis], combo: Sequence[Value]) -> tuple[int, ...]:
    return tuple(a.values.index(v) for a, v in zip(axes, combo))


def _implied(combo: tuple[Value, ...], axes: Sequence[SweepAxis], points: Sequence[SweepPoint]) -> bool:
    me = _index(axes, combo)
    for p in points:
        if p.fit not in (Fit.NO_FIT, Fit.IMPLIED):
            continue
        other = _index(axes, [v for _, v in p.settings])
        if all(m >= o for m, o in zip(me, other)):
            return True
    return False


def _point(settings: tuple[tuple[str, Value], ...], a: Attempt) -> SweepPoint:
    fit = {
        RerunResult.CONFIRMED: Fit.FIT, RerunResult.STILL_OOM: Fit.NO_FIT, RerunResult.TIMEOUT: Fit.TIMEOUT,
    }.get(a.result, Fit.FAILED)
    if fit is Fit.FAILED and a.culprit is not None:
        fit = Fit.NO_FIT
    engine = [e.bytes for e in a.ledger if e.account in ENGINE_ACCOUNTS and e.bytes is not None and e.source == "log"]
    return SweepPoint(
        settings, fit, engine_bytes=sum(engine) if engine else None, rss_bytes=a.peak_rss_bytes,
        duration_s=a.duration_s, log_path=a.log_path, argv=a.argv, env_changes=a.env_changes, culprit=a.culprit,
        note=a.note, ledger=a.ledger,
    )


# ------------------------------------------------------------------ rendering (pure)

_CELL = {Fit.NO_FIT: "OOM", Fit.IMPLIED: "OOM*", Fit.FAILED: "error", Fit.TIMEOUT: "timeout", Fit.NOT_RUN: "-"}


def cell_text(p: SweepPoint) -> str:
    if p.fit is Fit.FIT:
        peak = p.peak_bytes
        return f"fit {format_bytes(peak)}" if peak is not None else "fit"
    return _CELL[p.fit]


def render_memory_map(mm: MemoryMap, color: bool = False, width: int = 100) -> str:
    """The memory map as rich tables (one per combination of the third and later knobs)."""
    import io

    from rich import box
    from rich.console import Console
    from rich.table import Table

    buf = io.StringIO()
    console = Console(file=buf, width=width, color_system="standard" if color else None, force_terminal=color,
                      highlight=False, emoji=False)
    axes = mm.axes
    col = axes[0]
    row = axes[1] if len(axes) > 1 else None
    rest = axes[2:]
    by_settings = {p.settings: p for p in mm.points}
    order = {a.knob: i for i, a in enumerate(axes)}
    style = {Fit.FIT: "green", Fit.NO_FIT: "red", Fit.IMPLIED: "red dim", Fit.FAILED: "yellow", Fit.TIMEOUT: "yellow"}
    row_values: tuple[Value | None, ...] = row.values if row else (None,)
    for fixed in itertools.product(*(a.values for a in rest)) if rest else [()]:
        title = "Memory map" + ("" if not rest else " at " + ", ".join(f"{a.knob}={fmt_value(v)}" for a, v in zip(rest, fixed)))
        table = Table(title=title, box=box.SIMPLE_HEAVY, title_justify="left")
        table.add_column(f"{row.knob} \\ {col.knob}" if row else col.knob, style="bold")
        for v in col.values:
            table.add_column(fmt_value(v), justify="right")
        for rv in row_values:
            cells = []
            for cv in col.values:
                settings: list[tuple[str, Value]] = [(col.knob, cv)]
                if row is not None and rv is not None:
                    settings.append((row.knob, rv))
                settings += list(zip((a.knob for a in rest), fixed))
                p = by_settings.get(tuple(sorted(settings, key=lambda kv: order[kv[0]])))
                if p is None:
                    cells.append("")
                    continue
                text = cell_text(p)
                cells.append(f"[{style[p.fit]}]{text}[/]" if p.fit in style else text)
            table.add_row(fmt_value(rv) if rv is not None else "peak", *cells)
        console.print(table)
    src = {p.peak_source for p in mm.points if p.fit is Fit.FIT and p.peak_source}
    legend = ("peak: " + " / ".join(sorted({"engine": "the engine's own accounting", "rss": "resident memory of the process tree"}[s]
                                           for s in src)) + "; ") if src else ""
    console.print(f"{legend}OOM: memory failure; OOM*: not run, at least as large as a point that did not fit", style="dim")
    best = mm.largest_fit()
    parts = [f"{k}={fmt_value(v)}" if v is not None else f"{k}: none" for k, v in best.items()]
    console.print("largest that fit from the conservative start, one knob at a time: " + ", ".join(parts))
    if not mm.baseline_fits:
        console.print("[red]even the conservative start did not fit[/]" if color else "even the conservative start did not fit")
    return buf.getvalue().rstrip("\n")


__all__ = ["Fit", "MemoryMap", "SweepAxis", "SweepOptions", "SweepPoint", "render_memory_map", "sweep"]
