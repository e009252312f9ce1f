"""`oomdoctor run -- <launch command>`: run a server under the recorder; on a failure, leave the
incident folder (log, timeline, diagnosis). Thin: parse options, call `oomdoctor.timeline.incident.run`.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

RUN_HELP = (
    "Start the server command given after `--`, tee its log, record its memory curve, and when it exits "
    "non-zero (or is killed, e.g. by the OOM killer) write the incident into --out: server.log, "
    "timeline.jsonl, incident.md (+ SVGs) and incident.json with the diagnosis, the launch command, "
    "the curve and the last log lines.\n\n"
    "Example: oomdoctor run --out incident/ --url http://localhost:8000/metrics -- vllm serve MODEL\n\n"
    "Exit codes: the command's own (128 + N when killed by signal N); 2 usage error (nothing to run, "
    "command not found); 130 interrupted."
)


def run(
    ctx: typer.Context,
    out: Path = typer.Option(Path("oomdoctor-run"), "--out", "-o", help="The incident folder."),
    url: Optional[str] = typer.Option(None, "--url", help="The server's Prometheus endpoint, e.g. http://localhost:8000/metrics."),
    interval: str = typer.Option("5s", "--interval", help="Time between samples: 5s, 500ms, 1m."),
    tail_lines: int = typer.Option(200, "--tail", min=0, help="Last log lines kept in incident.md."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Do not echo the server's output."),
) -> None:
    from oomdoctor.cli.watch import metrics_headers
    from oomdoctor.timeline.incident import RunOptions
    from oomdoctor.timeline.incident import run as run_command
    from oomdoctor.timeline.recorder import parse_interval

    argv = list(ctx.args)
    command = argv[1:] if argv[:1] == ["--"] else argv
    outcome = run_command(RunOptions(command=command, out_dir=out, url=url, interval_s=parse_interval(interval),
                                     tail_lines=tail_lines, headers=metrics_headers()),
                          echo=None if quiet else sys.stdout.buffer)
    if outcome.returncode == 0:
        typer.echo(f"oomdoctor: the command exited 0; log and timeline ({outcome.samples} samples) in {out}", err=True)
    else:
        report = outcome.report
        verdict = report.summary if report is not None else ""
        typer.echo(f"oomdoctor: the command failed (exit {outcome.exit_status}); incident in {out}: "
                   + ", ".join(p.name for p in outcome.written), err=True)
        if verdict:
            typer.echo(f"oomdoctor: {verdict}", err=True)
    raise typer.Exit(outcome.exit_status)


def register(app: typer.Typer) -> None:
    app.command("run", help=RUN_HELP, context_settings={"allow_extra_args": True, "ignore_unknown_options": True})(run)
