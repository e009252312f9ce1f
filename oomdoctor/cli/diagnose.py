"""`oomdoctor diagnose`: from a crashed server's log to a verdict and the exact fix."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import List, Optional

import typer

from oomdoctor.report import OutputFormat
from oomdoctor.status import EXIT_CODES_HELP, ExitStatus


def register(app: typer.Typer) -> None:
    app.command(help="Diagnose an out-of-memory failure from a server log.\n\n" + EXIT_CODES_HELP)(diagnose)


def diagnose(
    log: List[str] = typer.Option(..., "--log", "-l", help="Log file (repeatable: one per rank/pod); '-' reads stdin; .gz is fine."),
    fmt: OutputFormat = typer.Option(OutputFormat.TEXT, "--format", "-f", help="Output format."),
    framework: Optional[str] = typer.Option(None, "--framework", help="Override framework detection (vllm, sglang, tgi, llamacpp, ollama, ...)."),
    rules: List[Path] = typer.Option([], "--rules", help="Extra rule directory (repeatable)."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write the report to FILE (Markdown also writes an SVG bar beside it)."),
    probe: bool = typer.Option(False, "--probe", help="Also probe this machine (GPU, host RAM, container) and merge the facts."),
    snapshot: Optional[Path] = typer.Option(None, "--snapshot", help="Merge a probe snapshot saved with `oomdoctor probe --save`."),
    pid: Optional[int] = typer.Option(None, "--pid", help="Read the running server's command line and environment."),
    model: Optional[str] = typer.Option(None, "--model", help="Model config (config.json, model dir, HF cache id or GGUF) for the memory model."),
    no_redact: bool = typer.Option(False, "--no-redact", help="Do not mask tokens, keys and passwords in the output."),
    redact_hosts: bool = typer.Option(False, "--redact-hosts", help="Also mask IPs, hostnames and home-directory user names."),
) -> None:
    from oomdoctor.diagnose import DiagnoseOptions
    from oomdoctor.diagnose import diagnose as run_diagnose
    from oomdoctor.inputs import gather

    got = gather(probe=probe, snapshot=snapshot, pid=pid)
    report = run_diagnose(DiagnoseOptions(logs=log, framework=framework, rule_dirs=rules, extra_facts=got.facts,
                                          probe=got.snapshot, skipped=got.skipped, model=model))
    if not no_redact:
        report = _redacted(report, redact_hosts)
    color = fmt is OutputFormat.TEXT and output is None and sys.stdout.isatty() and "NO_COLOR" not in os.environ
    text = fmt.to_renderer(color=color).render(report)
    for w in report.warnings:
        typer.echo(f"oomdoctor: warning: {w}", err=True)
    for s in report.skipped:
        typer.echo(f"oomdoctor: skipped: {s}", err=True)
    if output is not None:
        from oomdoctor.report.files import write_outputs

        written = write_outputs(report, text, output)
        typer.echo("oomdoctor: wrote " + ", ".join(str(p) for p in written), err=True)
    else:
        typer.echo(text, nl=not text.endswith("\n"))
    raise typer.Exit(int(ExitStatus.FINDINGS if report.memory_failure else ExitStatus.OK))


def _redacted(report, hosts: bool):  # type: ignore[no-untyped-def]
    from oomdoctor.redact import Redactor, redact_report

    return redact_report(report, Redactor(hosts=hosts))
