"""`oomdoctor diagnose`: from a crashed server's log to a verdict and the exact fix."""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path
from typing import List, Optional

import typer

from oomdoctor.report import OutputFormat
from oomdoctor.status import EXIT_CODES_HELP, ExitStatus


def register(app: typer.Typer) -> None:
    app.command(
        help="Diagnose an out-of-memory failure from a server log. With --rerun, apply the best fix to the launch "
        "command given after `--`, relaunch it and confirm.\n\n" + EXIT_CODES_HELP,
        context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
    )(diagnose)


def diagnose(
    ctx: typer.Context,
    log: List[str] = typer.Option([], "--log", "-l", help="Log file (repeatable: one per rank/pod); '-' reads stdin; .gz is fine. "
                                  "Log paths may also be given without --log."),
    fmt: OutputFormat = typer.Option(OutputFormat.TEXT, "--format", "-f", help="Output format."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Text: add the triage walk, every finding and all evidence."),
    framework: Optional[str] = typer.Option(None, "--framework", help="Override framework detection (vllm, sglang, tgi, llamacpp, ollama, ...)."),
    rules: List[Path] = typer.Option([], "--rules", help="Extra rule directory (repeatable)."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write the report to FILE (Markdown also writes an SVG bar beside it)."),
    probe: bool = typer.Option(False, "--probe", help="Also probe this machine (GPU, host RAM, container) and merge the facts."),
    snapshot: Optional[Path] = typer.Option(None, "--snapshot", help="Merge a probe snapshot saved with `oomdoctor probe --save`."),
    pid: Optional[int] = typer.Option(None, "--pid", help="Read the running server's command line and environment."),
    model: Optional[str] = typer.Option(None, "--model", help="The model: config.json, model dir, GGUF, or a name "
                                        "(HF id, Ollama tag, GGUF file name) resolved offline: HF cache, then the shipped catalog."),
    cmd: List[str] = typer.Option([], "--cmd", help="The launch command as you have it (repeatable; @FILE reads it from a file): "
                                  "vllm serve ..., docker run ..., llama-server ..., LLM(...)."),
    gpu: Optional[str] = typer.Option(None, "--gpu", help="The card as you would write it: 'A100 80GB', '2x RTX 4090', 'M2 Max 32GB'."),
    spec: List[Path] = typer.Option([], "--spec", help="A docker compose file or Kubernetes Pod/Deployment YAML of the server (repeatable)."),
    no_redact: bool = typer.Option(False, "--no-redact", help="Do not mask tokens, keys and passwords in the output."),
    redact_hosts: bool = typer.Option(False, "--redact-hosts", help="Also mask IPs, hostnames and home-directory user names."),
    rerun: bool = typer.Option(False, "--rerun", help="Apply the suggestions to the command after `--`, relaunch and confirm."),
    max_tries: int = typer.Option(6, "--max-tries", min=1, help="With --rerun: relaunches at most."),
    timeout: float = typer.Option(600.0, "--timeout", min=1, help="With --rerun: seconds per relaunch."),
    knob: List[str] = typer.Option([], "--knob", help="With --rerun: NAME=--flag or NAME=ENV_VAR for a generic command (repeatable)."),
    workdir: Optional[Path] = typer.Option(None, "--workdir", help="With --rerun: where the relaunch logs go."),
    health_url: Optional[str] = typer.Option(None, "--health-url", help="With --rerun: a URL that answers 200 once the server is up."),
    timeline: List[str] = typer.Option([], "--timeline", help="A recording from `oomdoctor watch`/`run` (repeatable): the curve before the failure."),
    prometheus: Optional[str] = typer.Option(None, "--prometheus", help="A Prometheus server (http://host:9090): read the metrics before the failure."),
    selector: str = typer.Option("", "--selector", help="With --prometheus: the server's label selector, e.g. '{pod=\"vllm-0\"}'."),
    since: Optional[str] = typer.Option(None, "--since", help="With --prometheus: how far back from --end (default 1h): 30m, 2h, 1d."),
    start: Optional[str] = typer.Option(None, "--start", help="With --prometheus: range start (RFC 3339 or Unix time)."),
    end: Optional[str] = typer.Option(None, "--end", help="With --prometheus: range end (default now)."),
) -> None:
    from oomdoctor.diagnose import DiagnoseOptions
    from oomdoctor.diagnose import diagnose as run_diagnose
    from oomdoctor.inputs import gather

    from oomdoctor.cli.args import split_extra
    from oomdoctor.inputs import read_command_args, read_specs

    logs, command = split_extra(ctx, list(log))
    if command and not rerun:
        from oomdoctor.errors import UsageError

        raise UsageError(f"unexpected arguments {' '.join(command)!r} (a launch command after `--` needs --rerun)")
    got = gather(probe=probe, snapshot=snapshot, pid=pid)
    commands = read_command_args(cmd) + ([shlex.join(command)] if command else [])
    report = run_diagnose(DiagnoseOptions(logs=logs, framework=framework, rule_dirs=rules, extra_facts=got.facts,
                                          probe=got.snapshot, skipped=got.skipped, model=model, commands=commands,
                                          gpu=gpu, specs=read_specs(spec),
                                          timelines=_timelines(timeline, prometheus, selector, since, start, end)))
    if rerun:
        report = _rerun(report, command, max_tries, timeout, knob, workdir, health_url, framework)
    if not no_redact:
        report = _redacted(report, redact_hosts)
    color = fmt is OutputFormat.TEXT and output is None and sys.stdout.isatty() and "NO_COLOR" not in os.environ
    # a file is attached to a ticket: the complete report; the terminal gets the short one
    text = fmt.to_renderer(color=color, verbose=verbose or output is not None).render(report)
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
    if report.rerun is not None:
        raise typer.Exit(int(ExitStatus.OK if report.rerun.get("result") == "confirmed" else ExitStatus.STILL_FAILING))
    raise typer.Exit(int(ExitStatus.FINDINGS if report.memory_failure else ExitStatus.OK))


def _rerun(report, argv: List[str], max_tries: int, timeout: float, knob: List[str], workdir: Optional[Path],  # type: ignore[no-untyped-def]
           health_url: Optional[str], framework: Optional[str]):
    from oomdoctor.errors import UsageError
    from oomdoctor.rerun import KnobMapping, RerunOptions, confirm_report

    command = argv[1:] if argv[:1] == ["--"] else list(argv)
    if not command:
        raise UsageError("--rerun needs the launch command after `--`, e.g. --rerun -- vllm serve MODEL --max-model-len 32768")
    options = RerunOptions(max_tries=max_tries, timeout_s=timeout, knob_map=tuple(KnobMapping.parse(k) for k in knob),
                           workdir=workdir, health_url=health_url, framework=framework)
    from dataclasses import replace

    report = replace(report, extra={**report.extra, "launch_command": command})  # the report shows the change as a diff
    return confirm_report(report, command, dict(os.environ), options)


def _redacted(report, hosts: bool):  # type: ignore[no-untyped-def]
    from oomdoctor.redact import Redactor, redact_report

    return redact_report(report, Redactor(hosts=hosts))


def _timelines(timeline: List[str], prometheus: Optional[str], selector: str, since: Optional[str], start: Optional[str],
               end: Optional[str]) -> list:  # type: ignore[type-arg]
    """Recordings and a Prometheus range, read into the same series a log's stats lines give."""
    from oomdoctor.errors import UsageError

    out = []
    if timeline:
        from oomdoctor.timeline.recording import read_timeline

        out += [read_timeline(path) for path in timeline]
    if prometheus is None:
        if selector or since or start or end:
            raise UsageError("--selector/--since/--start/--end need --prometheus URL")
        return out
    import time

    from oomdoctor.timeline.prometheus import PromRange, parse_time, read_prometheus
    from oomdoctor.timeline.recorder import parse_interval

    if since and start:
        raise UsageError("give --since or --start, not both")
    now = time.time()
    t_end = parse_time(end, now) if end else now
    t_start = parse_time(start, now) if start else t_end - parse_interval(since or "1h")
    out.append(read_prometheus(PromRange(prometheus, selector, t_start, t_end)))
    return out
