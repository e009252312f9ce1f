"""`oomdoctor watch`: record a running server's memory curve to a file that survives its crash.

Thin: parse options, call `oomdoctor.timeline.recorder.record`, say what was written.
"""

from __future__ import annotations

import os
from typing import Optional

import typer

from oomdoctor.errors import UsageError

WATCH_HELP = (
    "Record a server's memory curve: every --interval, its GPU memory per process (NVML), its host "
    "memory (RSS of its process tree, its container's cgroup) and its own Prometheus page (--url), one "
    "JSON line per sample in --out, rotated by size. Stops when the process exits, after --duration, "
    "or on Ctrl-C or SIGTERM. Diagnose the recording with `oomdoctor diagnose --timeline FILE`.\n\n"
    "Example: oomdoctor watch --pid 4242 --url http://localhost:8000/metrics --out timeline.jsonl\n\n"
    "Metrics-endpoint headers (a bearer token) come from OOMDOCTOR_METRICS_TOKEN / OOMDOCTOR_METRICS_HEADERS.\n\n"
    "Exit codes: 0 recorded; 2 usage error (bad option, unwritable file); 130 interrupted."
)


def watch(
    out: str = typer.Option(..., "--out", "-o", help="The recording (JSON lines); rotated files get .1, .2, ..."),
    pid: Optional[int] = typer.Option(None, "--pid", help="The server's pid (its process tree is summed)."),
    url: Optional[str] = typer.Option(None, "--url", help="The server's Prometheus endpoint, e.g. http://localhost:8000/metrics."),
    interval: str = typer.Option("5s", "--interval", help="Time between samples: 5s, 500ms, 1m."),
    duration: Optional[str] = typer.Option(None, "--duration", help="Stop after this long (default: until the process exits or Ctrl-C)."),
    max_size: str = typer.Option("64M", "--max-size", help="Rotate the file past this size."),
    keep: int = typer.Option(3, "--keep", min=0, help="Rotated files to keep."),
) -> None:
    from oomdoctor.cli.rerun import parse_size
    from oomdoctor.timeline.recorder import WatchOptions, parse_interval, record

    if pid is None and url is None:
        raise UsageError("watch needs --pid PID, --url http://host:port/metrics, or both")
    if pid is not None:
        import psutil

        if not psutil.pid_exists(pid):
            raise UsageError(f"no process with pid {pid}")
    if url is not None and not url.startswith(("http://", "https://")):
        raise UsageError(f"--url needs an http(s) URL, got {url!r}")
    opts = WatchOptions(out=out, pid=pid, url=url, interval_s=parse_interval(interval),
                        duration_s=parse_interval(duration) if duration else None, max_bytes=parse_size(max_size), keep=keep,
                        headers=metrics_headers())
    typer.echo(f"oomdoctor: recording to {out} every {opts.interval_s:g}s (Ctrl-C to stop)", err=True)
    from oomdoctor.workload import Interrupted, signals_as_exceptions

    try:
        # SIGTERM and SIGHUP end it like Ctrl-C: how a supervisor or a pod's shutdown stops a sidecar
        with signals_as_exceptions():
            n = record(opts)
    except (KeyboardInterrupt, Interrupted):
        typer.echo(f"oomdoctor: stopped; the recording is in {out}", err=True)
        return
    typer.echo(f"oomdoctor: {n} samples in {out}; diagnose with: oomdoctor diagnose --timeline {out}", err=True)


def metrics_headers() -> dict[str, str]:
    """Headers for a server's own /metrics page, from the environment."""
    from oomdoctor.timeline.prometheus import auth_headers

    env = {k.replace("OOMDOCTOR_METRICS_", "OOMDOCTOR_PROMETHEUS_"): v for k, v in os.environ.items() if k.startswith("OOMDOCTOR_METRICS_")}
    return auth_headers(env)


def register(app: typer.Typer) -> None:
    app.command("watch", help=WATCH_HELP)(watch)
