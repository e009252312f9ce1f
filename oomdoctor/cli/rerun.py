"""`oomdoctor confirm` and `oomdoctor sweep`: run the user's own command to prove a fix.

Thin: parse options, call `oomdoctor.rerun.confirm_command` or `oomdoctor.sweep.sweep`,
render, map the result to an exit status (0 confirmed / the conservative start fits,
4 otherwise). Everything after `--` is the command, run as given (no shell).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Callable, List, Optional

import typer

from oomdoctor.errors import UsageError
from oomdoctor.parsers.base import written_size
from oomdoctor.report import OutputFormat
from oomdoctor.status import ExitStatus

_EXTRA = {"allow_extra_args": True, "ignore_unknown_options": True}

CONFIRM_HELP = (
    "Run COMMAND, diagnose its log, then rerun it with the suggested fixes until one holds.\n\n"
    "Put the command after `--`. Each try changes one knob: the command's own flag is rewritten in "
    "place (or appended), or its environment variable set. A numeric knob that must go down is "
    "searched: halved until the command starts, bisected to the largest value that starts, then "
    "stepped back by the headroom. Confirmed means the server printed its ready marker (or "
    "--health-url answered 200), or a batch command exited 0.\n\n"
    "Example: oomdoctor confirm -- vllm serve meta-llama/Llama-3.1-8B --max-model-len 131072\n\n"
    "Exit codes: 0 confirmed (or the command already ran cleanly); 2 usage error; 4 no fix confirmed; 130 interrupted."
)
SWEEP_HELP = (
    "Map memory against your knobs: run COMMAND from a conservative start, raising one knob at a time.\n\n"
    "--knob NAME=V1,V2,... (repeatable, conservative value first); the first knob varies fastest "
    "(give concurrency first, then context). For a generic command name the flag too: "
    "--knob batch_size=--batch-size=1,2,4 (or --flag batch_size=--batch-size). Each point records "
    "fit / no fit and the peak memory (the engine's own accounting when its log prints one, else "
    "the resident memory of the process tree). Points at least as large as one that did not fit are not run.\n\n"
    "Example: oomdoctor sweep --knob max_num_seqs=1,4,16 --knob max_model_len=2048,8192 -- vllm serve MODEL\n\n"
    "Exit codes: 0 the conservative start fits; 2 usage error; 4 even the start did not fit; 130 interrupted."
)



def parse_size(text: str) -> int:
    """'2G', '512MiB', '1.5g', '1000000' -> bytes."""
    size = written_size(text)
    if size is None:
        raise UsageError(f"--mem-limit {text!r}: expected a size such as 2G or 512M")
    return size


# Options shared by `confirm` and `sweep`.
OPT_HEALTH_URL = typer.Option(None, "--health-url", help="A URL that answers 200 once the server is up.")
OPT_FRAMEWORK = typer.Option(None, "--framework", help="Override framework detection from the command.")
OPT_SETTLE = typer.Option(0.0, "--settle", min=0, help="Seconds a server must stay up after its ready marker.")
OPT_MEM_LIMIT = typer.Option(None, "--mem-limit", help="Address-space cap (RLIMIT_AS) for the command, e.g. 2G.")
OPT_READY_MARKER = typer.Option([], "--ready-marker", help="Extra text that means the server is up (repeatable).")
OPT_STREAM = typer.Option(False, "--stream", help="Copy the command's output to stderr as it runs.")


def _command(ctx: typer.Context) -> list[str]:
    argv = list(ctx.args)
    if argv and argv[0] == "--":
        argv = argv[1:]
    if not argv:
        raise UsageError("no command given: put it after `--`, e.g. oomdoctor confirm -- vllm serve MODEL ...")
    return argv


def _echo_line(enabled: bool) -> Callable[[str], None] | None:
    if not enabled:
        return None
    from oomdoctor.redact import Redactor

    r = Redactor()
    return lambda line: typer.echo(r.text(line), err=True)


def confirm(
    ctx: typer.Context,
    max_tries: int = typer.Option(6, "--max-tries", min=1, help="Runs after the first (diagnosed) one."),
    timeout: float = typer.Option(600.0, "--timeout", min=1, help="Seconds per run before it counts as a timeout."),
    workdir: Optional[Path] = typer.Option(None, "--workdir", help="Where the run logs go (default: a new temporary directory)."),
    health_url: Optional[str] = OPT_HEALTH_URL,
    knob: List[str] = typer.Option([], "--knob", help="NAME=--flag or NAME=ENV_VAR: how a generic command takes a knob (repeatable)."),
    framework: Optional[str] = OPT_FRAMEWORK,
    fmt: OutputFormat = typer.Option(OutputFormat.TEXT, "--format", "-f", help="Output format."),
    headroom: float = typer.Option(0.10, "--headroom", min=0.0, max=0.9, help="Step back from the largest value that starts."),
    no_search: bool = typer.Option(False, "--no-search", help="Try each suggested value once; no halving or bisection."),
    settle: float = OPT_SETTLE,
    grace: float = typer.Option(10.0, "--grace", min=0, help="Seconds between SIGTERM and SIGKILL when stopping the command."),
    mem_limit: Optional[str] = OPT_MEM_LIMIT,
    ready_marker: List[str] = OPT_READY_MARKER,
    stream: bool = OPT_STREAM,
) -> None:
    from oomdoctor.rerun import KnobMapping, RerunOptions, confirm_command, render_rerun

    argv = _command(ctx)
    options = RerunOptions(
        max_tries=max_tries, timeout_s=timeout, workdir=workdir, health_url=health_url,
        knob_map=tuple(KnobMapping.parse(k) for k in knob), framework=framework, headroom=headroom,
        search=not no_search, settle_s=settle, grace_s=grace,
        memory_limit_bytes=parse_size(mem_limit) if mem_limit else None, ready_markers=tuple(ready_marker),
        on_line=_echo_line(stream), on_attempt=_progress,
    )
    report = confirm_command(argv, dict(os.environ), options)
    from oomdoctor.redact import Redactor, redact_report

    report = redact_report(report, Redactor())
    rerun = report.rerun or {}
    if fmt is OutputFormat.TEXT:
        color = sys.stdout.isatty() and "NO_COLOR" not in os.environ
        typer.echo(render_rerun(rerun, color=color, width=_width()))
    else:
        typer.echo(fmt.to_renderer().render(report))
    raise typer.Exit(int(ExitStatus.OK if rerun.get("result") == "confirmed" else ExitStatus.STILL_FAILING))


def _width() -> int:
    import shutil

    return max(100, min(160, shutil.get_terminal_size((120, 24)).columns))


def _progress(attempt: object) -> None:
    from oomdoctor.redact import Redactor
    from oomdoctor.knobs import fmt_value
    from oomdoctor.rerun import Attempt

    assert isinstance(attempt, Attempt)
    what = "as given" if attempt.role == "baseline" else (
        f"{attempt.knob}={fmt_value(attempt.value)}" if attempt.value is not None else str(attempt.knob))
    note = Redactor().text(attempt.note)
    typer.echo(f"oomdoctor: run {attempt.index} ({what}): {attempt.result.value} in {attempt.duration_s:.1f}s"
               + (f" - {note}" if note else ""), err=True)


def sweep(
    ctx: typer.Context,
    knob: List[str] = typer.Option([], "--knob", help="NAME=V1,V2,... or NAME=--flag=V1,V2,... (repeatable; conservative first)."),
    flag: List[str] = typer.Option([], "--flag", help="NAME=--flag or NAME=ENV_VAR for a generic command (repeatable)."),
    timeout: float = typer.Option(600.0, "--timeout", min=1, help="Seconds per run."),
    workdir: Optional[Path] = typer.Option(None, "--workdir", help="Where the run logs go (default: a new temporary directory)."),
    health_url: Optional[str] = OPT_HEALTH_URL,
    framework: Optional[str] = OPT_FRAMEWORK,
    fmt: OutputFormat = typer.Option(OutputFormat.TEXT, "--format", "-f", help="Output format (text or json)."),
    max_runs: Optional[int] = typer.Option(None, "--max-runs", min=1, help="Stop after this many runs."),
    settle: float = OPT_SETTLE,
    grace: float = typer.Option(10.0, "--grace", min=0, help="Seconds between SIGTERM and SIGKILL."),
    mem_limit: Optional[str] = OPT_MEM_LIMIT,
    ready_marker: List[str] = OPT_READY_MARKER,
    stream: bool = OPT_STREAM,
) -> None:
    import json

    from oomdoctor.rerun import KnobMapping
    from oomdoctor.sweep import SweepAxis, SweepOptions, render_memory_map
    from oomdoctor.sweep import sweep as run_sweep

    argv = _command(ctx)
    if not knob:
        raise UsageError("nothing to sweep: give --knob NAME=V1,V2,... (e.g. --knob max_num_seqs=1,2,4,8)")
    if fmt is OutputFormat.MARKDOWN:
        raise UsageError("sweep renders text or json")
    parsed = [SweepAxis.parse(k) for k in knob]
    mappings = tuple(m for _, m in parsed if m is not None) + tuple(KnobMapping.parse(f) for f in flag)
    options = SweepOptions(
        axes=tuple(a for a, _ in parsed), knob_map=mappings, framework=framework, timeout_s=timeout, workdir=workdir,
        health_url=health_url, settle_s=settle, grace_s=grace, memory_limit_bytes=parse_size(mem_limit) if mem_limit else None,
        ready_markers=tuple(ready_marker), max_runs=max_runs, on_line=_echo_line(stream), on_point=_point_progress,
    )
    mm = run_sweep(argv, dict(os.environ), options)
    if fmt is OutputFormat.JSON:
        typer.echo(json.dumps(mm.to_dict(), indent=2, ensure_ascii=False, default=str))
    else:
        color = sys.stdout.isatty() and "NO_COLOR" not in os.environ
        typer.echo(render_memory_map(mm, color=color, width=_width()))
    raise typer.Exit(int(ExitStatus.OK if mm.baseline_fits else ExitStatus.STILL_FAILING))


def _point_progress(point: object) -> None:
    from oomdoctor.knobs import fmt_value
    from oomdoctor.sweep import SweepPoint, cell_text

    assert isinstance(point, SweepPoint)
    if point.duration_s is None:
        return
    where = ", ".join(f"{k}={fmt_value(v)}" for k, v in point.settings)
    typer.echo(f"oomdoctor: {where}: {cell_text(point)} in {point.duration_s:.1f}s", err=True)


def register(app: typer.Typer) -> None:
    meta = "[OPTIONS] -- COMMAND [ARGS]..."
    app.command("confirm", help=CONFIRM_HELP, context_settings=_EXTRA, options_metavar=meta)(confirm)
    app.command("sweep", help=SWEEP_HELP, context_settings=_EXTRA, options_metavar=meta)(sweep)
