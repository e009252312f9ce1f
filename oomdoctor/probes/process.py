"""Who a pid is: command line (secrets redacted), user, and whether it lives in our pid
namespace. Used to name the processes NVML lists and to read a server's settings."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any, Sequence

# Flag-name words that mark the next value as a secret (`--api-key X`, `--hf-token=X`).
# Whole words only: `--max-num-batched-tokens` and `--ssl-keyfile` are not secrets.
_SECRET_WORDS = frozenset({"token", "key", "apikey", "secret", "password", "passwd", "auth", "credential", "credentials"})
_SECRET_ENV = re.compile(r"TOKEN|KEY|SECRET|PASSWORD|PASSWD|AUTH|CREDENTIAL", re.I)
REDACTED = "***"


def _is_secret_flag(flag: str) -> bool:
    words = re.split(r"[-_.]+", flag.lstrip("-").lower())
    return any(w in _SECRET_WORDS for w in words)


def redact_argv(argv: Sequence[str]) -> tuple[str, ...]:
    """The argv with secret flag values and `NAME=secret` assignments replaced by ***."""
    out: list[str] = []
    hide_next = False
    for tok in argv:
        if hide_next and not tok.startswith("-"):
            out.append(REDACTED)
            hide_next = False
            continue
        hide_next = False
        name, eq, _ = tok.partition("=")
        if tok.startswith("-") and _is_secret_flag(name):
            if eq:
                out.append(f"{name}={REDACTED}")
            else:
                out.append(tok)
                hide_next = True
            continue
        if eq and not tok.startswith("-") and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) and _SECRET_ENV.search(name):
            out.append(f"{name}={REDACTED}")
            continue
        out.append(tok)
    return tuple(out)


@dataclass(frozen=True)
class ProcessIdentity:
    visible: bool  # the pid is a GPU-using process in this pid namespace
    command: str | None  # redacted command line
    user: str | None


HIDDEN = ProcessIdentity(False, None, None)


def holds_nvidia_device(pid: int, proc: str = "/proc") -> bool | None:
    """Whether the pid has a /dev/nvidia* file open; None when its fds cannot be read.

    NVML may report pids of another pid namespace; if such a number happens to exist
    here it is an unrelated process, which this check tells apart (CUDA keeps
    /dev/nvidiactl and /dev/nvidiaN open for the whole life of a process)."""
    fd_dir = f"{proc}/{pid}/fd"
    try:
        names = os.listdir(fd_dir)
    except OSError:
        return None
    for name in names:
        try:
            if os.readlink(f"{fd_dir}/{name}").startswith("/dev/nvidia"):
                return True
        except OSError:
            continue
    return False


def describe_pid(pid: int) -> ProcessIdentity:
    """Identity of a pid NVML reported; HIDDEN when it is not in this pid namespace."""
    if pid <= 0:
        return HIDDEN
    try:
        import psutil
    except ImportError:  # psutil is a dependency; degrade to /proc existence only
        return ProcessIdentity(os.path.isdir(f"/proc/{pid}"), None, None)
    try:
        proc = psutil.Process(pid)
    except (psutil.NoSuchProcess, ValueError):
        return HIDDEN
    if holds_nvidia_device(pid) is False:
        return HIDDEN
    return ProcessIdentity(True, _command(proc, psutil), _user(proc, psutil))


def _command(proc: Any, psutil: Any) -> str | None:
    try:
        argv = proc.cmdline()
        return " ".join(redact_argv(argv)) if argv else str(proc.name())
    except (psutil.AccessDenied, psutil.ZombieProcess, psutil.NoSuchProcess):
        return None


def _user(proc: Any, psutil: Any) -> str | None:
    try:
        return str(proc.username())
    except (psutil.AccessDenied, psutil.NoSuchProcess, KeyError):
        return None


def short_command(command: str | None, width: int = 60) -> str:
    """`/usr/bin/python3 train.py --lr 1e-4` -> `python3 train.py --lr 1e-4`, cut to width."""
    if not command:
        return "?"
    first, _, rest = command.partition(" ")
    text = (os.path.basename(first) + (" " + rest if rest else "")).strip()
    return text if len(text) <= width else text[: width - 1] + "…"
