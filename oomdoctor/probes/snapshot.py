"""A snapshot: everything the live probes saw at one moment, JSON-serialisable.

Schema (version 1, stable)::

    {"version": 1, "taken_at": "2025-01-31T12:00:00Z", "hostname": "gpu-node-3",
     "gpu": {"driver_version", "cuda_driver_version", "devices": [...]} | {"skipped": reason},
     "host": {"ram", "shm", "cgroup", "kernel_oom"},   # each an object or {"skipped": reason}
     "server": {"pid", "argv", "env", "framework", "user", "tree_pids"} | null}

Field names and meanings are the dataclasses in nvml.py, host.py and settings.py.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import socket
from dataclasses import dataclass
from typing import Any, cast

from oomdoctor.errors import InputError, Location
from oomdoctor.probes.base import Skipped
from oomdoctor.probes.codec import SchemaError, decode, encode
from oomdoctor.probes.host import HostSnapshot, probe_host
from oomdoctor.probes.nvml import GpuSnapshot, probe_gpu
from oomdoctor.probes.settings import ServerSettings, read_server

SNAPSHOT_VERSION = 1


@dataclass(frozen=True)
class Snapshot:
    version: int
    taken_at: str  # ISO 8601, UTC
    hostname: str
    gpu: GpuSnapshot | Skipped
    host: HostSnapshot
    server: ServerSettings | None = None

    def to_dict(self) -> dict[str, Any]:
        return cast("dict[str, Any]", encode(self))

    @classmethod
    def from_dict(cls, data: Any) -> "Snapshot":
        """Raises codec.SchemaError (a ValueError) naming the bad JSON path."""
        if not isinstance(data, dict):
            raise SchemaError("$", "a snapshot is a JSON object")
        if data.get("version") != SNAPSHOT_VERSION:
            raise SchemaError("$.version", f"unsupported version {data.get('version')!r} (this oomdoctor reads {SNAPSHOT_VERSION})")
        return decode(cls, data)


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def collect(pid: int | None = None) -> Snapshot:
    """Look at this machine now: GPUs, host and container, and the server `pid` if given.

    Raises InputError only for a `pid` that cannot be read; every other gap is a Skipped."""
    server = read_server(pid) if pid is not None else None
    return Snapshot(
        version=SNAPSHOT_VERSION,
        taken_at=_now(),
        hostname=socket.gethostname(),
        gpu=probe_gpu(),
        host=probe_host(pid),
        server=server,
    )


def dumps(snapshot: Snapshot) -> str:
    return json.dumps(snapshot.to_dict(), indent=2) + "\n"


def save_snapshot(snapshot: Snapshot, path: str | os.PathLike[str]) -> None:
    try:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(dumps(snapshot))
    except OSError as exc:
        raise InputError(f"cannot write the snapshot: {exc.strerror}", Location(str(path))) from None


def load_snapshot(path: str | os.PathLike[str]) -> Snapshot:
    """A snapshot saved by `save_snapshot` (or `oomdoctor probe --save`); InputError if unusable."""
    where = Location(str(path))
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except FileNotFoundError:
        raise InputError("snapshot file not found", where) from None
    except IsADirectoryError:
        raise InputError("snapshot path is a directory, not a file", where) from None
    except UnicodeDecodeError:
        raise InputError("snapshot is not UTF-8 text (binary file?)", where) from None
    except OSError as exc:
        raise InputError(f"cannot read the snapshot: {exc.strerror}", where) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"snapshot is not valid JSON ({exc.msg}, line {exc.lineno} column {exc.colno})", where) from None
    try:
        return Snapshot.from_dict(data)
    except SchemaError as exc:
        raise InputError(f"not an oomdoctor snapshot: {exc}", where) from None
