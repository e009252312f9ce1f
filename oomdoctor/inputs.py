"""Facts from outside the log: live probes, a saved snapshot, a running server's settings.

Each source is optional. A missing capability (no GPU, no NVML) becomes a `skipped` line,
never an error; input the user named that cannot be read raises InputError.
"""

from __future__ import annotations

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
