"""Facts from outside the log: live probes, saved snapshots, a running server, a model config.

Each source is optional; a missing capability becomes a `skipped` line, never an error,
except input the user named that cannot be read (InputError).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from oomdoctor.facts import Fact


def gather(probe: bool = False, snapshot: Path | None = None, pid: int | None = None,
           model: str | None = None) -> tuple[list[Fact], dict[str, Any] | None, list[str]]:
    facts: list[Fact] = []
    skipped: list[str] = []
    snap_data: dict[str, Any] | None = None
    if probe or snapshot is not None or pid is not None:
        from oomdoctor import probes

        snap = probes.load_snapshot(snapshot) if snapshot is not None else probes.collect(pid=pid) if (probe or pid) else None
        if snap is not None:
            pids = {pid} if pid else None
            facts.extend(probes.snapshot_facts(snap, server_pids=pids))
            snap_data = probes.snapshot_dict(snap) if hasattr(probes, "snapshot_dict") else None
            skipped.extend(probes.skipped_reasons(snap) if hasattr(probes, "skipped_reasons") else [])
    if model is not None:
        from oomdoctor.facts import FactSet
        from oomdoctor import memory

        facts.extend(memory.estimate_facts(FactSet(facts), model))
    return facts, snap_data, skipped
