"""Facts from outside the log: live probes, a saved snapshot, a running server's settings.

Each source is optional. A missing capability (no GPU, no NVML) becomes a `skipped` line,
never an error; input the user named that cannot be read raises InputError.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from oomdoctor.facts import Fact


@dataclass(frozen=True)
class Gathered:
    facts: list[Fact] = field(default_factory=list)
    snapshot: dict[str, Any] | None = None
    skipped: list[str] = field(default_factory=list)


def gather(probe: bool = False, snapshot: Path | None = None, pid: int | None = None) -> Gathered:
    if not (probe or snapshot is not None or pid is not None):
        return Gathered()
    from oomdoctor import probes

    snap = probes.load_snapshot(snapshot) if snapshot is not None else probes.collect(pid=pid)
    facts = probes.snapshot_facts(snap, server_pids={pid} if pid else None)
    data = snap.to_dict()
    skipped = [f"probe {name}: {part['skipped']}" for name, part in _parts(data) if isinstance(part, dict) and "skipped" in part]
    return Gathered(list(facts), data, skipped)


def _parts(data: dict[str, Any]) -> list[tuple[str, Any]]:
    parts = [("gpu", data.get("gpu"))]
    host = data.get("host")
    if isinstance(host, dict):
        parts.extend((f"host.{k}", v) for k, v in host.items())
    return parts


MAX_CONTEXT_FILE = 4 << 20  # a command or spec file larger than this is not one


def _read_text(path: Path, what: str) -> str:
    from oomdoctor.errors import InputError

    try:
        if path.is_dir():
            raise InputError(f"{what} {path} is a directory")
        if path.stat().st_size > MAX_CONTEXT_FILE:
            raise InputError(f"{what} {path} is over {MAX_CONTEXT_FILE >> 20} MiB: not a command or spec file")
        return path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        raise InputError(f"{what} not found: {path}") from None
    except OSError as exc:
        raise InputError(f"cannot read {what} {path}: {exc.strerror or exc}") from None


_CODE = re.compile(r"[()=;]")  # what a decorator or a call has and a file name does not


def path_exists(path: Path) -> bool:
    """Whether a path names something; a text too long to be a file name (a pasted command) does not."""
    try:
        return path.exists()
    except OSError:
        return False


def read_command_args(values: list[str]) -> list[str]:
    """`--cmd TEXT` as given; `--cmd @FILE` reads the command from a file (a shell script's
    continuation lines are joined; comments and blank lines are dropped). Text after `@` that is
    no file and reads as code (a Python decorator such as `@serve.deployment(...)`) is command text."""
    out: list[str] = []
    for value in values:
        path = Path(os.path.expanduser(value[1:])) if value.startswith("@") and len(value) > 1 else None
        if path is not None and (not _CODE.search(value) or path_exists(path)):
            text = _read_text(path, "--cmd file")
            lines = [ln for ln in text.replace("\\\n", " ").splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
            out.extend(lines or [""])
        else:
            out.append(value)
    return out


def read_specs(paths: list[Path]) -> list[tuple[str, Any]]:
    """Each `--spec` file parsed as YAML (every document of a multi-document file)."""
    import yaml

    from oomdoctor.errors import InputError

    out: list[tuple[str, Any]] = []
    for path in paths:
        text = _read_text(path, "--spec file")
        try:
            docs = [d for d in yaml.safe_load_all(text) if d is not None]
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            where = f" (line {mark.line + 1})" if mark is not None else ""
            raise InputError(f"--spec {path} is not valid YAML{where}") from None
        for doc in docs:
            items = doc.get("items") if isinstance(doc, dict) and doc.get("kind") == "List" else [doc]
            out.extend((str(path), d) for d in items or ())
    return out
