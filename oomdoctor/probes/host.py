"""Host and container probe: RAM and swap, /dev/shm, the cgroup memory limit, use and
OOM-kill counter, and recent kernel OOM-killer lines.

Every reader takes the paths it reads as arguments (defaulting to the live system), so
tests can point it at a real directory tree instead of mocking. Readers never raise for
an expected gap: they return `Skipped(reason)`.
"""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass
from typing import Sequence

from oomdoctor.probes.base import Skipped

# cgroup v1 writes "no limit" as PAGE_COUNTER_MAX pages (0x7FFFFFFFFFFFF000 with 4 KiB pages);
# anything this large is no limit at all.
_UNLIMITED = 1 << 60


@dataclass(frozen=True)
class RamInfo:
    total_bytes: int  # MemTotal
    available_bytes: int  # MemAvailable
    swap_total_bytes: int
    swap_free_bytes: int
    source: str  # "/proc/meminfo" or "psutil"


@dataclass(frozen=True)
class ShmInfo:
    path: str
    total_bytes: int
    free_bytes: int  # available to unprivileged writers (f_bavail)
    used_bytes: int


@dataclass(frozen=True)
class CgroupMemory:
    version: int  # 1 or 2
    path: str  # the cgroup directory read
    limit_bytes: int | None  # None: no limit on this cgroup or its ancestors
    limit_file: str | None  # file the limit (or "max"/unlimited value) was read from
    limit_raw: str | None  # that file's value, verbatim
    usage_bytes: int | None
    oom_kills: int | None  # memory.events oom_kill (v2) / memory.oom_control oom_kill (v1)


@dataclass(frozen=True)
class KernelOomLog:
    source: str  # "dmesg" or "journalctl -k"
    lines: tuple[str, ...]  # matching lines, oldest first, at most the last 20


@dataclass(frozen=True)
class HostSnapshot:
    ram: RamInfo | Skipped
    shm: ShmInfo | Skipped
    cgroup: CgroupMemory | Skipped
    kernel_oom: KernelOomLog | Skipped


# --- RAM -------------------------------------------------------------------------------


def parse_meminfo(text: str) -> dict[str, int]:
    """/proc/meminfo as bytes: {"MemTotal": 25276514304, ...}."""
    out = {}
    for line in text.splitlines():
        m = re.match(r"([\w()]+):\s+(\d+)\s*(kB)?\s*$", line)
        if m:
            out[m.group(1)] = int(m.group(2)) * (1024 if m.group(3) else 1)
    return out


def read_ram(meminfo: str = "/proc/meminfo") -> RamInfo | Skipped:
    try:
        with open(meminfo, encoding="ascii", errors="replace") as fh:
            info = parse_meminfo(fh.read())
        return RamInfo(
            total_bytes=info["MemTotal"],
            available_bytes=info.get("MemAvailable", info.get("MemFree", 0)),
            swap_total_bytes=info.get("SwapTotal", 0),
            swap_free_bytes=info.get("SwapFree", 0),
            source=meminfo,
        )
    except (OSError, KeyError):
        pass
    try:  # not Linux: psutil knows the platform's own counters
        import psutil
    except ImportError:
        return Skipped(f"cannot read {meminfo} and psutil is not installed")
    vm, sw = psutil.virtual_memory(), psutil.swap_memory()
    return RamInfo(int(vm.total), int(vm.available), int(sw.total), int(sw.free), "psutil")


# --- /dev/shm -------------------------------------------------------------------------------


def read_shm(path: str = "/dev/shm") -> ShmInfo | Skipped:
    try:
        st = os.statvfs(path)
    except OSError as exc:
        return Skipped(f"{path} is not available: {exc.strerror}")
    return ShmInfo(
        path=path,
        total_bytes=st.f_blocks * st.f_frsize,
        free_bytes=st.f_bavail * st.f_frsize,
        used_bytes=(st.f_blocks - st.f_bfree) * st.f_frsize,
    )


# --- cgroups ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Mount:
    root: str  # the part of the hierarchy mounted here
    point: str
    fstype: str
    options: frozenset[str]


def parse_mountinfo(text: str) -> list[_Mount]:
    mounts = []
    for line in text.splitlines():
        left, sep, right = line.partition(" - ")
        fields, tail = left.split(), right.split()
        if not sep or len(fields) < 5 or len(tail) < 3:
            continue
        options = frozenset(tail[2].split(","))
        mounts.append(_Mount(_unescape(fields[3]), _unescape(fields[4]), tail[0], options))
    return mounts


def _unescape(path: str) -> str:
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), path)


def _cgroup_dir(mount: _Mount, cgroup_path: str) -> str:
    """The directory of `cgroup_path` under `mount`; the mount itself when the path is not
    below its root or does not exist (cgroup namespaces show "/" for the container)."""
    rel = os.path.relpath(cgroup_path, mount.root) if mount.root != "/" else cgroup_path.lstrip("/")
    if rel.startswith(".."):
        return mount.point
    path = os.path.normpath(os.path.join(mount.point, rel))
    return path if os.path.isdir(path) else mount.point


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="ascii", errors="replace") as fh:
            return fh.read().strip()
    except OSError:
        return None


def _keyed(text: str | None, key: str) -> int | None:
    """`value` of a `key value` line in memory.events / memory.oom_control / memory.stat."""
    for line in (text or "").splitlines():
        k, _, v = line.partition(" ")
        if k == key and v.strip().isdigit():
            return int(v)
    return None


def _int(text: str | None) -> int | None:
    return int(text) if text is not None and text.isdigit() else None


def _read_v1(directory: str) -> CgroupMemory:
    limit_file = os.path.join(directory, "memory.limit_in_bytes")
    limit_raw = _read(limit_file)
    limit = _int(limit_raw)
    stat_file = os.path.join(directory, "memory.stat")
    inherited = _keyed(_read(stat_file), "hierarchical_memory_limit")  # the tightest ancestor's limit
    if inherited is not None and (limit is None or inherited < limit):
        limit, limit_file, limit_raw = inherited, f"{stat_file}:hierarchical_memory_limit", str(inherited)
    return CgroupMemory(
        version=1,
        path=directory,
        limit_bytes=limit if limit is not None and limit < _UNLIMITED else None,
        limit_file=limit_file,
        limit_raw=limit_raw,
        usage_bytes=_int(_read(os.path.join(directory, "memory.usage_in_bytes"))),
        oom_kills=_keyed(_read(os.path.join(directory, "memory.oom_control")), "oom_kill"),
    )


def _read_v2(directory: str, mount_point: str) -> CgroupMemory | Skipped:
    usage = _int(_read(os.path.join(directory, "memory.current")))
    if usage is None:
        return Skipped(f"cgroup v2 {directory} has no memory.current (root cgroup, or memory controller not enabled)")
    limit, limit_file, limit_raw = None, None, None
    here = directory
    while True:  # the effective limit is the smallest memory.max up to the mount point
        raw = _read(os.path.join(here, "memory.max"))
        if raw is not None:
            value = _int(raw)
            if limit_file is None or (value is not None and (limit is None or value < limit)):
                limit, limit_file, limit_raw = value, os.path.join(here, "memory.max"), raw
        if os.path.normpath(here) == os.path.normpath(mount_point) or here in ("/", ""):
            break
        here = os.path.dirname(here)
    return CgroupMemory(
        version=2,
        path=directory,
        limit_bytes=limit,
        limit_file=limit_file,
        limit_raw=limit_raw,
        usage_bytes=usage,
        oom_kills=_keyed(_read(os.path.join(directory, "memory.events")), "oom_kill"),
    )


def read_cgroup(cgroup_file: str = "/proc/self/cgroup", mountinfo_file: str = "/proc/self/mountinfo") -> CgroupMemory | Skipped:
    """The memory cgroup of a process (v1 memory controller first, else the v2 unified one)."""
    cgroups, mountinfo = _read(cgroup_file), _read(mountinfo_file)
    if cgroups is None or mountinfo is None:
        return Skipped(f"cannot read {cgroup_file} or {mountinfo_file} (not Linux?)")
    mounts = parse_mountinfo(mountinfo)
    v2_path = None
    for line in cgroups.splitlines():
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        hid, controllers, path = parts
        if "memory" in controllers.split(","):
            mount = next((m for m in mounts if m.fstype == "cgroup" and "memory" in m.options), None)
            if mount is None:
                return Skipped("the cgroup v1 memory hierarchy is not mounted in this mount namespace")
            return _read_v1(_cgroup_dir(mount, path))
        if hid == "0" and controllers == "":
            v2_path = path
    v2 = next((m for m in mounts if m.fstype == "cgroup2"), None)
    if v2_path is None or v2 is None:
        return Skipped(f"no memory cgroup listed in {cgroup_file}")
    return _read_v2(_cgroup_dir(v2, v2_path), v2.point)


# --- kernel OOM killer -------------------------------------------------------------------------

_OOM_LINE = re.compile(
    r"Out of memory: Kill|Memory cgroup out of memory|Killed process \d+|invoked oom-killer|oom-kill:|oom_reaper: reaped"
)
_KILL = re.compile(r"Kill(?:ed)? process \d+")
MAX_OOM_LINES = 20


def oom_kill_lines(text: str) -> tuple[str, ...]:
    """The kernel OOM-killer lines of a kernel log, oldest first, the last MAX_OOM_LINES."""
    return tuple(line.strip() for line in text.splitlines() if _OOM_LINE.search(line))[-MAX_OOM_LINES:]


def last_kill(lines: Sequence[str]) -> str | None:
    """The most recent line that names a killed process."""
    return next((line for line in reversed(lines) if _KILL.search(line)), None)


_KERNEL_LOG_COMMANDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("dmesg", ("dmesg",)),
    ("journalctl -k", ("journalctl", "-k", "-q", "--no-pager", "-n", "20000")),
)


def read_kernel_oom(timeout_s: float = 3.0, commands: Sequence[tuple[str, Sequence[str]]] = _KERNEL_LOG_COMMANDS) -> KernelOomLog | Skipped:
    """OOM-killer lines from dmesg, else `journalctl -k`; each command is time-bounded."""
    failures = []
    for label, argv in commands:
        try:
            done = subprocess.run(
                list(argv), capture_output=True, text=True, errors="replace",
                timeout=timeout_s, stdin=subprocess.DEVNULL, check=False,
            )
        except FileNotFoundError:
            failures.append(f"{label}: not installed")
            continue
        except subprocess.TimeoutExpired:
            failures.append(f"{label}: no answer within {timeout_s:g} s")
            continue
        except OSError as exc:
            failures.append(f"{label}: {exc.strerror}")
            continue
        if done.returncode != 0:
            why = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
            failures.append(f"{label}: {why.removeprefix(label.split()[0] + ': ')}")
            continue
        return KernelOomLog(label, oom_kill_lines(done.stdout))
    return Skipped("kernel log not readable: " + "; ".join(failures))


# --- all of it ----------------------------------------------------------------------------------


def probe_host(pid: int | None = None) -> HostSnapshot:
    """Host and container state; the cgroup is the server's when its pid is given."""
    cgroup_file = f"/proc/{pid}/cgroup" if pid is not None else "/proc/self/cgroup"
    return HostSnapshot(ram=read_ram(), shm=read_shm(), cgroup=read_cgroup(cgroup_file), kernel_oom=read_kernel_oom())
