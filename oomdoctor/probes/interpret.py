"""From a snapshot (live or recorded) to facts. Pure: no I/O.

GPU memory is judged per *memory domain*: a whole GPU, or one MIG GPU instance (a process
on another MIG instance does not take memory from the server). The capacity facts
(`gpu.total_bytes` …) describe one domain, the *focus*: among the domains the server's
processes use (else those its CUDA_VISIBLE_DEVICES names, else all), the one where other
processes hold the most memory, then the one with the least free memory.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from oomdoctor import launch
from oomdoctor.facts import Evidence, Fact, Origin, Value
from oomdoctor.probes.base import Skipped, format_bytes
from oomdoctor.probes.host import HostSnapshot, last_kill
from oomdoctor.probes.nvml import GpuDevice, GpuProcess, GpuSnapshot
from oomdoctor.probes.process import short_command
from oomdoctor.probes.settings import ServerSettings
from oomdoctor.probes.snapshot import Snapshot

NVML = "probe:nvml"
HOST = "probe:host"


@dataclass(frozen=True)
class MemoryDomain:
    """GPU memory that processes compete for: a whole GPU or one MIG instance."""

    label: str  # "GPU 0" or "GPU 0 MIG GI 1"
    device_index: int
    name: str
    uuid: str | None
    parent_uuid: str | None
    total_bytes: int
    used_bytes: int
    free_bytes: int
    mig: bool
    processes: tuple[GpuProcess, ...]


def memory_domains(gpu: GpuSnapshot) -> list[MemoryDomain]:
    out = []
    for d in gpu.devices:
        if d.mig_enabled and d.mig_instances:
            for m in d.mig_instances:
                out.append(
                    MemoryDomain(
                        f"GPU {d.index} MIG GI {m.gpu_instance_id}", d.index, m.name, m.uuid, d.uuid,
                        m.total_bytes, m.used_bytes, m.free_bytes, True, m.processes,
                    )
                )
        else:
            out.append(
                MemoryDomain(
                    f"GPU {d.index}", d.index, d.name, d.uuid, d.uuid,
                    d.total_bytes, d.used_bytes, d.free_bytes, bool(d.mig_enabled), d.processes,
                )
            )
    return out


@dataclass(frozen=True)
class GpuAttribution:
    """Which GPU processes are the server's and which are others'."""

    domains: tuple[MemoryDomain, ...]  # every domain
    considered: tuple[MemoryDomain, ...]  # the domains the server uses (or may use)
    focus: MemoryDomain
    server_pids: frozenset[int]  # empty when unknown or unusable
    server_seen: bool  # a server pid holds memory in a considered domain
    assumed_server: frozenset[int]  # without usable server pids: the largest process of each domain
    others: tuple[tuple[MemoryDomain, GpuProcess], ...]
    basis: str  # how the server's processes were told apart, for evidence text

    def role(self, domain: MemoryDomain, process: GpuProcess) -> str:
        if process.pid in self.server_pids and not process.hidden:
            return "server"
        if any(d is domain and p is process for d, p in self.others):
            return "other"
        if process.pid in self.assumed_server and domain in self.considered:
            return "server?"
        return ""

    def other_bytes(self, domain: MemoryDomain) -> int:
        return sum(p.used_bytes or 0 for d, p in self.others if d is domain)


def _visible_tokens(server: ServerSettings | None) -> list[str]:
    if server is None or isinstance(server.env, Skipped):
        return []
    raw = server.env.get("CUDA_VISIBLE_DEVICES", "")
    return [t.strip() for t in raw.split(",") if t.strip()]


def _named_by(domain: MemoryDomain, tokens: list[str]) -> bool:
    for tok in tokens:
        if tok.isdigit() and int(tok) == domain.device_index:
            return True
        for uuid in (domain.uuid, domain.parent_uuid):
            if uuid and len(tok) >= 5 and uuid.startswith(tok):  # CUDA accepts UUID prefixes
                return True
    return False


def _size(p: GpuProcess) -> int:
    return p.used_bytes or 0


def attribute(gpu: GpuSnapshot, server_pids: Iterable[int] = (), server: ServerSettings | None = None) -> GpuAttribution | None:
    """Attribution of GPU memory; None when NVML saw no GPU."""
    domains = tuple(memory_domains(gpu))
    if not domains:
        return None
    pids = frozenset(server_pids)
    with_server = tuple(d for d in domains if any(p.pid in pids and not p.hidden for p in d.processes))
    basis = f"server pids {_pids(pids)}" if pids else _NO_PID
    if pids and not with_server and server is not None and server.gpu_in_use:
        # The server holds a GPU, yet NVML lists none of its pids: NVML reports another pid
        # namespace (older drivers inside containers). Its pids cannot be matched.
        pids, basis = frozenset(), _FOREIGN_PIDS
    tokens = _visible_tokens(server)
    considered = with_server or tuple(d for d in domains if _named_by(d, tokens)) or domains
    others: list[tuple[MemoryDomain, GpuProcess]] = []
    assumed: set[int] = set()
    for d in considered:
        procs = sorted(d.processes, key=_size, reverse=True)
        if pids:
            others += [(d, p) for p in procs if p.pid not in pids or p.hidden]
        elif len(procs) >= 2:
            assumed.add(procs[0].pid)
            others += [(d, p) for p in procs[1:]]

    def weight(d: MemoryDomain) -> tuple[int, int]:
        return (sum(_size(p) for dd, p in others if dd is d), -d.free_bytes)

    focus = max(considered, key=weight)  # max() keeps the first of equals: lowest index
    return GpuAttribution(domains, considered, focus, pids, bool(with_server), frozenset(assumed), tuple(others), basis)


_NO_PID = "no server pid known: the largest process on each GPU is assumed to be the server"
_FOREIGN_PIDS = (
    "NVML lists none of the server's pids although it holds a GPU (NVML reports another pid namespace): "
    "the largest process on each GPU is assumed to be the server"
)


def describe_process(p: GpuProcess) -> str:
    """`pid 4242 (python train.py, user bob) 61.0 GiB` or `<pid hidden: other container> 10.0 GiB`."""
    size = format_bytes(p.used_bytes) if p.used_bytes is not None else "? (NVML gives no per-process figure)"
    if p.hidden:
        return f"<pid hidden: other container> {size}"
    who = [short_command(p.command)] if p.command else []
    if p.user:
        who.append(f"user {p.user}")
    return f"pid {p.pid}{' (' + ', '.join(who) + ')' if who else ''} {size}"


# --- facts -------------------------------------------------------------------------------------


def _fact(key: str, value: Value, source: str, text: str, origin: Origin = Origin.PROBE) -> Fact:
    return Fact(key, value, origin, Evidence(source=source, line=None, text=text))


def gpu_facts(gpu: GpuSnapshot, server_pids: Iterable[int] = (), server: ServerSettings | None = None) -> list[Fact]:
    att = attribute(gpu, server_pids, server)
    if att is None:
        return [_fact("gpu.count", 0, NVML, "NVML reports no GPU")]
    f = att.focus
    dev: GpuDevice = gpu.devices[[d.index for d in gpu.devices].index(f.device_index)]
    n = len(gpu.devices)
    where = f"{f.label} ({f.name})" + (f", one of {n} GPUs" if n > 1 else "")
    cap = f"{where}: {format_bytes(f.total_bytes)} total, {format_bytes(f.used_bytes)} used, {format_bytes(f.free_bytes)} free"
    facts = [
        _fact("gpu.count", n, NVML, f"NVML sees {n} GPU{'s' if n != 1 else ''}, driver {gpu.driver_version or '?'}"),
        _fact("gpu.name", f.name, NVML, cap),
        _fact("gpu.total_bytes", f.total_bytes, NVML, cap),
        _fact("gpu.used_bytes", f.used_bytes, NVML, cap),
        _fact("gpu.free_bytes", f.free_bytes, NVML, cap),
        _fact("gpu.mig", bool(dev.mig_enabled), NVML,
              f"GPU {dev.index}: MIG {'enabled' if dev.mig_enabled else 'disabled' if dev.mig_enabled is False else 'not supported'}"
              + (f", {len(dev.mig_instances)} MIG devices" if dev.mig_instances else "")),
    ]
    if att.others or att.server_seen:
        facts += _other_facts(att)
    return facts


def _other_facts(att: GpuAttribution) -> list[Fact]:
    several = len(att.considered) > 1
    listed = "; ".join(
        (f"{d.label}: " if several else "") + describe_process(p) for d, p in att.others
    )
    focus_bytes = att.other_bytes(att.focus)
    basis = att.basis
    if not att.others:
        text = f"{att.focus.label}: only the server ({basis}) holds GPU memory"
        return [_fact("gpu.other_process_bytes", 0, NVML, text)]
    text = f"{att.focus.label}: {format_bytes(focus_bytes)} held by other processes ({basis}): {listed}"
    return [
        _fact("gpu.other_process_bytes", focus_bytes, NVML, text),
        _fact("gpu.other_processes", listed, NVML, text),
    ]


def _pids(pids: Iterable[int]) -> str:
    s = sorted(pids)
    return ", ".join(map(str, s[:6])) + (f" and {len(s) - 6} more" if len(s) > 6 else "")


def host_facts(host: HostSnapshot) -> list[Fact]:
    facts: list[Fact] = []
    if not isinstance(host.ram, Skipped):
        r = host.ram
        text = (f"{r.source}: MemTotal {format_bytes(r.total_bytes)}, MemAvailable {format_bytes(r.available_bytes)}, "
                f"SwapTotal {format_bytes(r.swap_total_bytes)}")
        facts += [
            _fact("host.ram_total_bytes", r.total_bytes, HOST, text),
            _fact("host.ram_available_bytes", r.available_bytes, HOST, text),
            _fact("host.swap_total_bytes", r.swap_total_bytes, HOST, text),
        ]
    if not isinstance(host.shm, Skipped):
        s = host.shm
        text = f"{s.path}: {format_bytes(s.total_bytes)} size, {format_bytes(s.used_bytes)} used, {format_bytes(s.free_bytes)} free"
        facts += [
            _fact("host.shm_total_bytes", s.total_bytes, HOST, text),
            _fact("host.shm_free_bytes", s.free_bytes, HOST, text),
            _fact("knob.shm_size_bytes", s.total_bytes, HOST, text),
        ]
    if not isinstance(host.cgroup, Skipped):
        facts += _cgroup_facts(host)
    if not isinstance(host.kernel_oom, Skipped):
        k = host.kernel_oom
        kill = last_kill(k.lines)
        if kill is not None:
            text = f"{k.source}: {len(k.lines)} OOM-killer line{'s' if len(k.lines) != 1 else ''}; the last kill: {kill}"
            facts.append(_fact("host.kernel_oom_kill", kill, HOST, text))
    return facts


def _cgroup_facts(host: HostSnapshot) -> list[Fact]:
    c = host.cgroup
    assert not isinstance(c, Skipped)
    limit = f"limit {format_bytes(c.limit_bytes)}" if c.limit_bytes is not None else "no memory limit"
    text = (f"cgroup v{c.version} {c.path}: {limit}, usage {format_bytes(c.usage_bytes)}, "
            f"oom_kill {c.oom_kills if c.oom_kills is not None else '?'}")
    facts = []
    if c.limit_bytes is not None:
        facts.append(_fact("host.cgroup_limit_bytes", c.limit_bytes, HOST, text))
    if c.usage_bytes is not None:
        facts.append(_fact("host.cgroup_usage_bytes", c.usage_bytes, HOST, text))
    if c.oom_kills is not None:
        facts.append(_fact("host.cgroup_oom_kills", c.oom_kills, HOST, text))
    return facts


def server_facts(server: ServerSettings) -> list[Fact]:
    source = f"probe:pid {server.pid}"
    command = server.command
    argv_ev = Evidence(source, None, command if len(command) <= 300 else command[:299] + "…")
    facts: list[Fact] = []
    if server.framework:
        facts.append(Fact("framework", server.framework, Origin.SETTINGS, argv_ev))
    facts += launch.parse_argv(list(server.argv), server.framework, argv_ev, Origin.SETTINGS)
    if not isinstance(server.env, Skipped) and server.env:
        env_text = " ".join(f"{k}={v}" for k, v in sorted(server.env.items()))
        env_ev = Evidence(source, None, env_text if len(env_text) <= 300 else env_text[:299] + "…")
        facts += launch.parse_env(server.env, env_ev, Origin.SETTINGS)
    return facts


def snapshot_facts(snapshot: Snapshot, server_pids: set[int] | None = None) -> list[Fact]:
    """Facts from a snapshot. The server's processes are `server_pids` plus the pid (and
    its process tree) recorded with `--pid`; without either, see `attribute`."""
    pids = set(server_pids or ())
    if snapshot.server is not None:
        pids |= set(snapshot.server.tree_pids) | {snapshot.server.pid}
    facts: list[Fact] = []
    if not isinstance(snapshot.gpu, Skipped):
        facts += gpu_facts(snapshot.gpu, pids, snapshot.server)
    facts += host_facts(snapshot.host)
    if snapshot.server is not None:
        facts += server_facts(snapshot.server)
    return facts
