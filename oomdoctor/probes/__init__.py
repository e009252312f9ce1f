"""Live probes: look at the machine where the server died (GPU via NVML, host and container
via /proc and cgroups, the server's own command line and environment) and turn what they
see into the same `Fact`s the log parsers produce.

    snap = collect(pid=1234)          # live; or load_snapshot("snapshot.json")
    facts = snapshot_facts(snap)      # gpu.*, host.*, framework, knob.* facts

pynvml and psutil are imported only when a probe runs, so importing this is cheap.
"""

from __future__ import annotations

from oomdoctor.probes.base import Skipped
from oomdoctor.probes.host import HostSnapshot
from oomdoctor.probes.interpret import attribute, snapshot_facts
from oomdoctor.probes.nvml import GpuDevice, GpuProcess, GpuSnapshot, MigInstance, gpu_snapshot_from_recording, read_devices
from oomdoctor.probes.settings import ServerSettings
from oomdoctor.probes.snapshot import SNAPSHOT_VERSION, Snapshot, collect, load_snapshot, save_snapshot

__all__ = [
    "SNAPSHOT_VERSION",
    "GpuDevice",
    "GpuProcess",
    "GpuSnapshot",
    "HostSnapshot",
    "MigInstance",
    "ServerSettings",
    "Skipped",
    "Snapshot",
    "attribute",
    "collect",
    "gpu_snapshot_from_recording",
    "load_snapshot",
    "read_devices",
    "save_snapshot",
    "snapshot_facts",
]
