"""Server-settings probe (`--pid N`): a running server's command line and the environment
variables that matter for memory, read from /proc, secrets redacted. Turning them into
knob facts is `launch.parse_argv` / `launch.parse_env`, done in `interpret`."""

from __future__ import annotations

from dataclasses import dataclass

from oomdoctor import launch
from oomdoctor.errors import InputError
from oomdoctor.probes.base import Skipped
from oomdoctor.probes.process import holds_nvidia_device, redact_argv


@dataclass(frozen=True)
class ServerSettings:
    pid: int
    argv: tuple[str, ...]  # /proc/N/cmdline, secrets redacted
    env: dict[str, str] | Skipped  # launch.relevant_env of /proc/N/environ (secrets redacted)
    framework: str | None  # launch.detect_framework of the command line
    user: str | None
    tree_pids: tuple[int, ...]  # the pid and its descendants when probed (engine/worker processes)
    gpu_in_use: bool | None = None  # a tree process has /dev/nvidia* open; None: could not tell

    @property
    def command(self) -> str:
        return " ".join(self.argv)


def _read_bytes(path: str) -> bytes:
    with open(path, "rb") as fh:
        return fh.read()


def read_argv(pid: int, proc: str = "/proc") -> tuple[str, ...]:
    try:
        raw = _read_bytes(f"{proc}/{pid}/cmdline")
    except FileNotFoundError:
        raise InputError(f"no process with pid {pid} here (it exited, or runs in another container/pid namespace)") from None
    except PermissionError:
        raise InputError(f"no permission to read the command line of pid {pid}") from None
    argv = tuple(a.decode("utf-8", "replace") for a in raw.split(b"\0"))
    while argv and argv[-1] == "":
        argv = argv[:-1]
    if not argv:
        raise InputError(f"pid {pid} has no command line (a kernel thread or a zombie)")
    return argv


def read_env(pid: int, proc: str = "/proc") -> dict[str, str] | Skipped:
    path = f"{proc}/{pid}/environ"
    try:
        raw = _read_bytes(path)
    except PermissionError:
        return Skipped(f"cannot read {path}: permission denied (run as the server's user or root)")
    except OSError as exc:
        return Skipped(f"cannot read {path}: {exc.strerror}")
    env = {}
    for item in raw.split(b"\0"):
        name, eq, value = item.decode("utf-8", "replace").partition("=")
        if eq and name:
            env[name] = value
    return launch.relevant_env(env)


def _owner_and_tree(pid: int) -> tuple[str | None, tuple[int, ...]]:
    try:
        import psutil
    except ImportError:
        return None, (pid,)
    try:
        proc = psutil.Process(pid)
        children = tuple(sorted(c.pid for c in proc.children(recursive=True)))
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return None, (pid,)
    try:
        user: str | None = str(proc.username())
    except (psutil.AccessDenied, psutil.NoSuchProcess, KeyError):
        user = None
    return user, (pid, *children)


def read_server(pid: int, proc: str = "/proc") -> ServerSettings:
    """A running server's settings; raises InputError when the pid cannot be read."""
    if pid <= 0:
        raise InputError(f"--pid must be a positive process id, not {pid}")
    argv = redact_argv(read_argv(pid, proc))
    user, tree = _owner_and_tree(pid)
    return ServerSettings(
        pid=pid,
        argv=argv,
        env=read_env(pid, proc),
        framework=launch.detect_framework(" ".join(argv)),
        user=user,
        tree_pids=tree,
        gpu_in_use=_gpu_in_use(tree, proc),
    )


def _gpu_in_use(pids: tuple[int, ...], proc: str) -> bool | None:
    answers = [holds_nvidia_device(p, proc) for p in pids]
    return True if True in answers else None if None in answers else False
