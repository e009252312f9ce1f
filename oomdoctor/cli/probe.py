"""`oomdoctor probe`: look at this machine now (GPUs, host and container, a running server)
and print what was seen, or save it as a snapshot for `diagnose` to read later."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer

if TYPE_CHECKING:
    from rich.console import Console

    from oomdoctor.probes import GpuSnapshot, Snapshot


class ProbeFormat(str, Enum):
    text = "text"
    json = "json"


def probe(
    pid: Optional[int] = typer.Option(
        None, "--pid", help="A running server's process id: read its command line and environment "
        "(memory flags, PYTORCH_CUDA_ALLOC_CONF, CUDA_VISIBLE_DEVICES, VLLM_*, OLLAMA_*, HF_*; secrets redacted)."
    ),
    fmt: ProbeFormat = typer.Option(ProbeFormat.text, "--format", "-f", help="Output format."),
    save: Optional[Path] = typer.Option(
        None, "--save", dir_okay=False, help="Also write the snapshot as JSON to this file (for `diagnose` later)."
    ),
) -> None:
    """Probe GPUs (NVML), host RAM, /dev/shm, the container's cgroup and the kernel OOM
    killer, and optionally a running server's settings."""
    from oomdoctor.probes import collect, save_snapshot
    from oomdoctor.probes.snapshot import dumps

    snapshot = collect(pid)
    if save is not None:
        save_snapshot(snapshot, save)
        sys.stderr.write(f"oomdoctor: snapshot saved to {save}\n")
    if fmt is ProbeFormat.json:
        sys.stdout.write(dumps(snapshot))
    else:
        from rich.console import Console

        render_text(snapshot, Console(highlight=False, soft_wrap=True))


def register(app: typer.Typer) -> None:
    app.command("probe", help=probe.__doc__)(probe)


# --- text rendering (the only place probe output is printed) ------------------------------------


def render_text(snapshot: "Snapshot", console: "Console") -> None:
    from oomdoctor.probes import Skipped

    console.print(f"[bold]oomdoctor probe[/] {snapshot.hostname} at {snapshot.taken_at}")
    if isinstance(snapshot.gpu, Skipped):
        console.print(f"[bold]GPU[/]      skipped: {snapshot.gpu.reason}")
    else:
        _render_gpu(snapshot.gpu, snapshot, console)
    _render_host(snapshot, console)
    _render_server(snapshot, console)


def _render_gpu(gpu: "GpuSnapshot", snapshot: "Snapshot", console: "Console") -> None:
    from rich.table import Table

    from oomdoctor.probes.base import format_bytes as b
    from oomdoctor.probes.interpret import attribute
    from oomdoctor.probes.process import short_command

    server = snapshot.server
    pids = set(server.tree_pids) | {server.pid} if server is not None else set()
    att = attribute(gpu, pids, server)
    mem = Table(title=f"GPU (driver {gpu.driver_version or '?'}, CUDA {gpu.cuda_driver_version or '?'})",
                title_justify="left", box=None, pad_edge=False)
    for col in ("GPU", "name", "total", "used", "free", "MIG", "compute mode"):
        mem.add_column(col, justify="right" if col in ("total", "used", "free") else "left")
    procs = Table(title="GPU processes", title_justify="left", box=None, pad_edge=False)
    for col in ("GPU", "pid", "user", "memory", "role", "command"):
        procs.add_column(col, justify="right" if col in ("pid", "memory") else "left")
    devices = {d.index: d for d in gpu.devices}
    for dom in att.domains if att is not None else ():
        dev = devices[dom.device_index]
        mig = "on" if dev.mig_enabled else "off" if dev.mig_enabled is False else "n/a"
        mem.add_row(dom.label, dom.name, b(dom.total_bytes), b(dom.used_bytes), b(dom.free_bytes), mig, dev.compute_mode or "?")
        for p in sorted(dom.processes, key=lambda p: p.used_bytes or 0, reverse=True):
            pid = "hidden" if p.hidden else str(p.pid)
            cmd = "(other container: not in this pid namespace)" if p.hidden else short_command(p.command, 70)
            role = att.role(dom, p) if att is not None else ""
            procs.add_row(dom.label, pid, p.user or "", b(p.used_bytes), role, cmd)
    console.print(mem)
    console.print(procs if procs.row_count else "GPU processes: none listed by NVML")
    for dev in gpu.devices:
        for note in dev.notes:
            console.print(f"  note GPU {dev.index}: {note}", markup=False)


def _render_host(snapshot: "Snapshot", console: "Console") -> None:
    from oomdoctor.probes import Skipped
    from oomdoctor.probes.base import format_bytes as b

    h = snapshot.host
    console.print("[bold]Host / container[/]")
    if isinstance(h.ram, Skipped):
        console.print(f"  RAM       skipped: {h.ram.reason}")
    else:
        console.print(f"  RAM       {b(h.ram.total_bytes)} total, {b(h.ram.available_bytes)} available; "
                      f"swap {b(h.ram.swap_total_bytes)} ({b(h.ram.swap_free_bytes)} free)")
    if isinstance(h.shm, Skipped):
        console.print(f"  shm       skipped: {h.shm.reason}")
    else:
        console.print(f"  {h.shm.path:<9} {b(h.shm.total_bytes)} size, {b(h.shm.used_bytes)} used, {b(h.shm.free_bytes)} free")
    if isinstance(h.cgroup, Skipped):
        console.print(f"  cgroup    skipped: {h.cgroup.reason}")
    else:
        c = h.cgroup
        limit = f"limit {b(c.limit_bytes)}" if c.limit_bytes is not None else "no memory limit"
        kills = c.oom_kills if c.oom_kills is not None else "?"
        console.print(f"  cgroup    v{c.version} {c.path}")
        console.print(f"            {limit}, usage {b(c.usage_bytes)}, oom_kill {kills}")
    if isinstance(h.kernel_oom, Skipped):
        console.print(f"  kernel    skipped: {h.kernel_oom.reason}")
    elif not h.kernel_oom.lines:
        console.print(f"  kernel    no OOM-killer lines in {h.kernel_oom.source}")
    else:
        console.print(f"  kernel    {len(h.kernel_oom.lines)} OOM-killer lines in {h.kernel_oom.source}, latest:")
        for line in h.kernel_oom.lines[-3:]:
            console.print(f"            {line}", markup=False)


def _render_server(snapshot: "Snapshot", console: "Console") -> None:
    from oomdoctor.probes import Skipped
    from oomdoctor.probes.interpret import server_facts

    s = snapshot.server
    if s is None:
        console.print("[bold]Server[/]    no --pid given")
        return
    console.print(f"[bold]Server[/]    pid {s.pid} ({s.framework or 'framework not recognised'}, user {s.user or '?'}, "
                  f"{len(s.tree_pids)} process{'es' if len(s.tree_pids) != 1 else ''})")
    console.print(f"  command   {s.command}", markup=False)
    if isinstance(s.env, Skipped):
        console.print(f"  env       skipped: {s.env.reason}")
    else:
        env = " ".join(f"{k}={v}" for k, v in sorted(s.env.items())) or "(none of the memory-relevant variables set)"
        console.print(f"  env       {env}", markup=False)
    knobs = [f"{f.key.removeprefix('knob.')}={f.value}" for f in server_facts(s) if f.key.startswith("knob.")]
    console.print(f"  knobs     {', '.join(knobs) or '(no memory flags recognised)'}", markup=False)
