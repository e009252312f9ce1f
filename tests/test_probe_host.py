"""Host and container probes: on this machine for real, and on cgroup trees built in tmp_path."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from oomdoctor.probes import Skipped
from oomdoctor.probes.host import (
    CgroupMemory,
    KernelOomLog,
    last_kill,
    oom_kill_lines,
    parse_meminfo,
    read_cgroup,
    read_kernel_oom,
    read_ram,
    read_shm,
)

linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc and cgroups")


def _meminfo_bytes(key: str) -> int:
    for line in Path("/proc/meminfo").read_text().splitlines():
        name, _, rest = line.partition(":")
        if name == key:
            return int(rest.split()[0]) * 1024
    raise KeyError(key)


@linux
def test_ram_matches_proc_meminfo() -> None:
    ram = read_ram()
    assert not isinstance(ram, Skipped)
    assert ram.total_bytes == _meminfo_bytes("MemTotal")
    assert ram.swap_total_bytes == _meminfo_bytes("SwapTotal")
    assert 0 < ram.available_bytes <= ram.total_bytes


def test_parse_meminfo_units() -> None:
    text = "MemTotal:       24684096 kB\nHugePages_Total:       0\nActive(anon):      12 kB\n"
    assert parse_meminfo(text) == {"MemTotal": 24684096 * 1024, "HugePages_Total": 0, "Active(anon)": 12 * 1024}


@linux
def test_shm_matches_statvfs() -> None:
    shm = read_shm()
    assert not isinstance(shm, Skipped)
    st = os.statvfs("/dev/shm")
    assert shm.total_bytes == st.f_blocks * st.f_frsize
    assert shm.free_bytes <= shm.total_bytes


def test_shm_missing_is_skipped(tmp_path: Path) -> None:
    result = read_shm(str(tmp_path / "no-shm"))
    assert isinstance(result, Skipped) and "no-shm" in result.reason


def _memory_cgroup_line() -> tuple[str, str]:
    """(version, path) of this process's memory cgroup, read independently of the probe."""
    lines = Path("/proc/self/cgroup").read_text().splitlines()
    for line in lines:
        _, controllers, path = line.split(":", 2)
        if "memory" in controllers.split(","):
            return "1", path
    return "2", next(line.split(":", 2)[2] for line in lines if line.startswith("0::"))


@linux
def test_live_cgroup_matches_the_file_it_read() -> None:
    cg = read_cgroup()
    if isinstance(cg, Skipped):
        pytest.skip(f"no memory cgroup here: {cg.reason}")
    version, path = _memory_cgroup_line()
    assert cg.version == int(version)
    assert cg.path.endswith(path.rstrip("/")) or os.path.ismount(cg.path)  # ours, or a namespaced root
    assert cg.limit_file is not None
    file_part, _, key = cg.limit_file.partition(":")
    text = Path(file_part).read_text()
    raw = next(line.split()[1] for line in text.splitlines() if line.startswith(key + " ")) if key else text.strip()
    assert raw == cg.limit_raw
    if raw == "max" or int(raw) >= 1 << 60:
        assert cg.limit_bytes is None
    else:
        assert cg.limit_bytes == int(raw)
    usage_file = "memory.usage_in_bytes" if cg.version == 1 else "memory.current"
    usage_now = int(Path(cg.path, usage_file).read_text())
    assert cg.usage_bytes is not None and abs(usage_now - cg.usage_bytes) < 1 << 30


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_cgroup_v2_limit_comes_from_the_tightest_ancestor(tmp_path: Path) -> None:
    root = tmp_path / "cg2"
    pod = root / "kubepods.slice" / "pod42"
    ctr = pod / "cri-containerd-abc.scope"
    _write(root / "kubepods.slice" / "memory.max", "max\n")
    _write(pod / "memory.max", "34359738368\n")  # 32 GiB on the pod
    _write(ctr / "memory.max", "max\n")
    _write(ctr / "memory.current", "30064771072\n")
    _write(ctr / "memory.events", "low 0\nhigh 0\nmax 17\noom 3\noom_kill 2\noom_group_kill 0\n")
    _write(tmp_path / "cgroup", "0::/kubepods.slice/pod42/cri-containerd-abc.scope\n")
    _write(tmp_path / "mountinfo", f"41 31 0:38 / {root} rw,nosuid,nodev,noexec,relatime - cgroup2 cgroup2 rw,nsdelegate\n")
    cg = read_cgroup(str(tmp_path / "cgroup"), str(tmp_path / "mountinfo"))
    assert cg == CgroupMemory(
        version=2, path=str(ctr), limit_bytes=34359738368, limit_file=str(pod / "memory.max"),
        limit_raw="34359738368", usage_bytes=30064771072, oom_kills=2,
    )


def test_cgroup_v2_namespaced_root_without_limit(tmp_path: Path) -> None:
    root = tmp_path / "cg2"  # a cgroup namespace: the container sees its own cgroup as "/"
    _write(root / "memory.max", "max\n")
    _write(root / "memory.current", "1048576\n")
    _write(root / "memory.events", "oom_kill 0\n")
    _write(tmp_path / "cgroup", "0::/\n")
    _write(tmp_path / "mountinfo", f"30 25 0:26 / {root} rw - cgroup2 cgroup2 rw\n")
    cg = read_cgroup(str(tmp_path / "cgroup"), str(tmp_path / "mountinfo"))
    assert isinstance(cg, CgroupMemory)
    assert (cg.limit_bytes, cg.limit_raw, cg.usage_bytes, cg.oom_kills) == (None, "max", 1048576, 0)


def test_cgroup_v1_hybrid_prefers_the_memory_controller(tmp_path: Path) -> None:
    mem = tmp_path / "memory"
    ctr = mem / "docker" / "6f1c"
    _write(ctr / "memory.limit_in_bytes", "9223372036854771712\n")
    _write(ctr / "memory.stat", "cache 4096\nhierarchical_memory_limit 17179869184\n")
    _write(ctr / "memory.usage_in_bytes", "8589934592\n")
    _write(ctr / "memory.oom_control", "oom_kill_disable 0\nunder_oom 0\noom_kill 5\n")
    _write(tmp_path / "cgroup", "4:memory:/docker/6f1c\n1:cpu:/docker/6f1c\n0::/docker/6f1c\n")
    _write(
        tmp_path / "mountinfo",
        f"35 31 0:32 / {mem} rw,relatime - cgroup cgroup rw,memory\n"
        f"41 31 0:38 / {tmp_path / 'unified'} rw,relatime - cgroup2 cgroup2 rw\n",
    )
    cg = read_cgroup(str(tmp_path / "cgroup"), str(tmp_path / "mountinfo"))
    assert isinstance(cg, CgroupMemory)
    assert cg.version == 1 and cg.path == str(ctr)
    assert cg.limit_bytes == 17179869184  # the parent's limit, via hierarchical_memory_limit
    assert cg.limit_file == f"{ctr / 'memory.stat'}:hierarchical_memory_limit"
    assert (cg.usage_bytes, cg.oom_kills) == (8589934592, 5)


def test_cgroup_unreadable_is_skipped(tmp_path: Path) -> None:
    result = read_cgroup(str(tmp_path / "nope"), str(tmp_path / "nope2"))
    assert isinstance(result, Skipped)


KERNEL_LOG = """\
[    1.365170] random: crng reseeded due to virtual machine fork
[8123.101010] python3 invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0, oom_score_adj=0
[8123.101900] oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=abc,mems_allowed=0,oom_memcg=/kubepods/pod42,task_memcg=/kubepods/pod42/abc,task=python3,pid=3120,uid=0
[8123.101950] Memory cgroup out of memory: Killed process 3120 (python3) total-vm:98765432kB, anon-rss:65432100kB, file-rss:123456kB, shmem-rss:0kB, UID:0 pgtables:130000kB oom_score_adj:0
[8123.140000] oom_reaper: reaped process 3120 (python3), now anon-rss:0kB, file-rss:0kB, shmem-rss:0kB
[8200.000000] EXT4-fs (vda): mounted filesystem
"""


def test_oom_kill_lines_and_last_kill() -> None:
    lines = oom_kill_lines(KERNEL_LOG)
    assert len(lines) == 4
    assert lines[0].endswith("oom_score_adj=0") and "invoked oom-killer" in lines[0]
    assert last_kill(lines) == lines[2]
    assert "Killed process 3120 (python3)" in (last_kill(lines) or "")
    assert last_kill(oom_kill_lines("[1.0] nothing here\n")) is None


def test_kernel_log_is_time_bounded() -> None:
    start = time.monotonic()
    result = read_kernel_oom(timeout_s=0.5, commands=[("slow", ("sleep", "10"))])
    assert time.monotonic() - start < 5
    assert isinstance(result, Skipped) and "slow: no answer within 0.5 s" in result.reason


def test_kernel_log_falls_back_and_explains() -> None:
    failing = ("sh", "-c", "echo 'dmesg: read kernel buffer failed: Operation not permitted' >&2; exit 1")
    result = read_kernel_oom(commands=[("dmesg", failing), ("journalctl -k", ("no-such-binary-oomdoctor",))])
    assert isinstance(result, Skipped)
    assert result.reason == (
        "kernel log not readable: dmesg: read kernel buffer failed: Operation not permitted; "
        "journalctl -k: not installed"
    )
    ok = read_kernel_oom(commands=[("dmesg", failing), ("journalctl -k", ("printf", KERNEL_LOG.replace("%", "%%")))])
    assert isinstance(ok, KernelOomLog) and ok.source == "journalctl -k" and len(ok.lines) == 4


@linux
def test_live_kernel_log_answers() -> None:
    result = read_kernel_oom()
    assert isinstance(result, (KernelOomLog, Skipped))
    if isinstance(result, KernelOomLog):
        assert all("oom" in line.lower() or "out of memory" in line.lower() or "Kill" in line for line in result.lines)
