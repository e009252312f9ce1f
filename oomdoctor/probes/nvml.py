"""GPU probe: what NVML sees on each GPU (memory, MIG, compute mode, processes).

The NVML part is a thin adapter, `read_devices(nvml)`, over any object with pynvml's
function names (the real module, or a replay of recorded values in tests). `probe_gpu()`
imports pynvml, turns every expected absence (no library, no driver, no permission) into
`Skipped(reason)`, and names each process with `describe_pid` (psutil). Recorded snapshots
come back through `gpu_snapshot_from_recording`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from oomdoctor.probes.base import Skipped
from oomdoctor.probes.codec import decode
from oomdoctor.probes.process import ProcessIdentity, describe_pid

_NOT_AVAILABLE_U64 = (1 << 64) - 1  # NVML_VALUE_NOT_AVAILABLE for unsigned long long
_NO_INSTANCE = 0xFFFFFFFF  # gpuInstanceId / computeInstanceId outside MIG mode
_MIG_ENABLE = 1  # NVML_DEVICE_MIG_ENABLE

COMPUTE_MODES = {0: "default", 1: "exclusive_thread", 2: "prohibited", 3: "exclusive_process"}


@dataclass(frozen=True)
class GpuProcess:
    """One entry of nvmlDeviceGet{Compute,Graphics}RunningProcesses, plus who it is."""

    pid: int  # as NVML reports it (host pid namespace on many drivers)
    used_bytes: int | None  # usedGpuMemory; None when NVML cannot say
    kind: str = "compute"  # compute | graphics | compute+graphics
    gpu_instance_id: int | None = None  # MIG only
    compute_instance_id: int | None = None
    visible: bool | None = None  # None: not yet looked up; False: not in this pid namespace
    command: str | None = None  # redacted command line
    user: str | None = None

    @property
    def hidden(self) -> bool:
        return self.visible is False or self.pid <= 0


@dataclass(frozen=True)
class MigInstance:
    """One MIG device (GPU instance + compute instance) of a MIG-enabled GPU."""

    index: int  # nvmlDeviceGetMigDeviceHandleByIndex index
    gpu_instance_id: int
    compute_instance_id: int | None
    name: str  # e.g. "NVIDIA A100-SXM4-80GB MIG 3g.40gb"
    uuid: str | None
    total_bytes: int
    used_bytes: int
    free_bytes: int
    processes: tuple[GpuProcess, ...] = ()


@dataclass(frozen=True)
class GpuDevice:
    index: int
    name: str
    uuid: str | None
    total_bytes: int
    used_bytes: int
    free_bytes: int
    mig_enabled: bool | None  # None: the GPU does not support MIG
    compute_mode: str | None  # default | exclusive_process | prohibited | exclusive_thread
    processes: tuple[GpuProcess, ...] = ()
    mig_instances: tuple[MigInstance, ...] = ()
    notes: tuple[str, ...] = ()  # queries that failed, e.g. "process list: Insufficient Permissions"


@dataclass(frozen=True)
class GpuSnapshot:
    driver_version: str | None
    cuda_driver_version: str | None
    devices: tuple[GpuDevice, ...]


# --- the adapter -----------------------------------------------------------------------


def _text(value: Any) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def _call(nvml: Any, name: str, *args: Any) -> tuple[Any, str | None]:
    """(result, None) or (None, "why not") for an optional NVML query."""
    fn = getattr(nvml, name, None)
    if fn is None:
        return None, f"{name} is not available in this pynvml"
    try:
        return fn(*args), None
    except nvml.NVMLError as exc:
        return None, str(exc)


def _opt_bytes(value: Any) -> int | None:
    return None if value is None or int(value) == _NOT_AVAILABLE_U64 else int(value)


def _opt_id(value: Any) -> int | None:
    return None if value is None or int(value) == _NO_INSTANCE else int(value)


_PROCESS_QUERIES = (
    ("compute", ("nvmlDeviceGetComputeRunningProcesses", "nvmlDeviceGetComputeRunningProcesses_v2")),
    ("graphics", ("nvmlDeviceGetGraphicsRunningProcesses", "nvmlDeviceGetGraphicsRunningProcesses_v2")),
)


def read_processes(nvml: Any, handle: Any) -> tuple[tuple[GpuProcess, ...], tuple[str, ...]]:
    """Compute and graphics processes on a device or MIG handle, one entry per pid."""
    by_pid: dict[int, GpuProcess] = {}
    notes: list[str] = []
    for kind, names in _PROCESS_QUERIES:
        result, first_why = None, None
        for name in names:  # older drivers lack the newest call
            result, why = _call(nvml, name, handle)
            if why is None:
                break
            first_why = first_why or why
        else:
            notes.append(f"{kind} processes: {first_why}")
            continue
        for raw in result or ():
            pid = int(raw.pid)
            if pid in by_pid:
                by_pid[pid] = dataclasses.replace(by_pid[pid], kind="compute+graphics")
                continue
            by_pid[pid] = GpuProcess(
                pid=pid,
                used_bytes=_opt_bytes(getattr(raw, "usedGpuMemory", None)),
                kind=kind,
                gpu_instance_id=_opt_id(getattr(raw, "gpuInstanceId", None)),
                compute_instance_id=_opt_id(getattr(raw, "computeInstanceId", None)),
            )
    return tuple(by_pid.values()), tuple(notes)


def _read_mig_instances(nvml: Any, handle: Any) -> tuple[MigInstance, ...]:
    count, why = _call(nvml, "nvmlDeviceGetMaxMigDeviceCount", handle)
    if why is not None:
        return ()
    out = []
    for i in range(int(count)):
        mig, why = _call(nvml, "nvmlDeviceGetMigDeviceHandleByIndex", handle, i)
        if why is not None:  # NVML_ERROR_NOT_FOUND: no MIG device in this slot
            continue
        mem = nvml.nvmlDeviceGetMemoryInfo(mig)
        gi, _ = _call(nvml, "nvmlDeviceGetGpuInstanceId", mig)
        ci, _ = _call(nvml, "nvmlDeviceGetComputeInstanceId", mig)
        uuid, _ = _call(nvml, "nvmlDeviceGetUUID", mig)
        procs, _ = read_processes(nvml, mig)
        gi_id = int(gi) if gi is not None else i
        procs = tuple(
            p if p.gpu_instance_id is not None else dataclasses.replace(p, gpu_instance_id=gi_id, compute_instance_id=_opt_id(ci))
            for p in procs
        )
        out.append(
            MigInstance(
                index=i,
                gpu_instance_id=gi_id,
                compute_instance_id=_opt_id(ci),
                name=_text(nvml.nvmlDeviceGetName(mig)),
                uuid=_text(uuid) if uuid is not None else None,
                total_bytes=int(mem.total),
                used_bytes=int(mem.used),
                free_bytes=int(mem.free),
                processes=procs,
            )
        )
    return tuple(out)


def read_device(nvml: Any, index: int) -> GpuDevice:
    handle = nvml.nvmlDeviceGetHandleByIndex(index)
    mem = nvml.nvmlDeviceGetMemoryInfo(handle)
    uuid, _ = _call(nvml, "nvmlDeviceGetUUID", handle)
    mode, _ = _call(nvml, "nvmlDeviceGetComputeMode", handle)
    mig_mode, mig_why = _call(nvml, "nvmlDeviceGetMigMode", handle)  # NOT_SUPPORTED off A100/H100-class GPUs
    mig_enabled = None if mig_why is not None else int(mig_mode[0]) == _MIG_ENABLE
    mig_instances = _read_mig_instances(nvml, handle) if mig_enabled else ()
    processes: tuple[GpuProcess, ...] = ()
    notes: tuple[str, ...] = ()
    if not mig_instances:  # in MIG mode the per-instance lists are the ones with memory figures
        processes, notes = read_processes(nvml, handle)
    return GpuDevice(
        index=index,
        name=_text(nvml.nvmlDeviceGetName(handle)),
        uuid=_text(uuid) if uuid is not None else None,
        total_bytes=int(mem.total),
        used_bytes=int(mem.used),
        free_bytes=int(mem.free),
        mig_enabled=mig_enabled,
        compute_mode=COMPUTE_MODES.get(int(mode), str(mode)) if mode is not None else None,
        processes=processes,
        mig_instances=mig_instances,
        notes=notes,
    )


def read_devices(nvml: Any) -> list[GpuDevice]:
    """Every GPU NVML sees. `nvml` is an initialised pynvml (or anything with its API)."""
    return [read_device(nvml, i) for i in range(int(nvml.nvmlDeviceGetCount()))]


def _cuda_version(value: Any) -> str | None:
    return None if value is None else f"{int(value) // 1000}.{int(value) % 1000 // 10}"


def read_gpu(nvml: Any) -> GpuSnapshot:
    driver, _ = _call(nvml, "nvmlSystemGetDriverVersion")
    cuda, _ = _call(nvml, "nvmlSystemGetCudaDriverVersion")
    return GpuSnapshot(
        driver_version=_text(driver) if driver is not None else None,
        cuda_driver_version=_cuda_version(cuda),
        devices=tuple(read_devices(nvml)),
    )


# --- naming the processes ----------------------------------------------------------------


def identify(snapshot: GpuSnapshot, describe: Callable[[int], ProcessIdentity]) -> GpuSnapshot:
    """The snapshot with each process's visibility, command line and user filled in."""
    cache: dict[int, ProcessIdentity] = {}

    def named(p: GpuProcess) -> GpuProcess:
        who = cache.get(p.pid)
        if who is None:
            who = cache[p.pid] = describe(p.pid)
        return dataclasses.replace(p, visible=who.visible, command=who.command, user=who.user)

    devices = tuple(
        dataclasses.replace(
            d,
            processes=tuple(named(p) for p in d.processes),
            mig_instances=tuple(
                dataclasses.replace(m, processes=tuple(named(p) for p in m.processes)) for m in d.mig_instances
            ),
        )
        for d in snapshot.devices
    )
    return dataclasses.replace(snapshot, devices=devices)


# --- the live probe ------------------------------------------------------------------------

_INIT_REASONS: Mapping[str, str] = {
    "NVML_ERROR_LIBRARY_NOT_FOUND": "libnvidia-ml.so.1 is not installed here: no NVIDIA driver on this "
    "machine, or the container was started without GPU access (--gpus / NVIDIA runtime)",
    "NVML_ERROR_DRIVER_NOT_LOADED": "NVIDIA kernel driver is not loaded: no GPU here, or the driver is not running",
    "NVML_ERROR_NO_PERMISSION": "no permission to open the NVIDIA devices (/dev/nvidia*)",
    "NVML_ERROR_LIB_RM_VERSION_MISMATCH": "NVML library and kernel driver versions differ "
    "(driver updated without a reboot or module reload?)",
    "NVML_ERROR_GPU_IS_LOST": "a GPU has fallen off the bus (GPU is lost); check dmesg for Xid errors",
}


def _init_failure(pynvml: Any, exc: Exception) -> str:
    code = getattr(exc, "value", None)
    for const, reason in _INIT_REASONS.items():
        if code is not None and code == getattr(pynvml, const, object()):
            return f"{exc}: {reason}"
    return f"NVML initialisation failed: {exc}"


def probe_gpu(describe: Callable[[int], ProcessIdentity] = describe_pid) -> GpuSnapshot | Skipped:
    """Live GPU state, or Skipped with the exact reason NVML cannot be used."""
    try:
        import pynvml
    except ImportError as exc:
        return Skipped(f"pynvml is not importable (install nvidia-ml-py): {exc}")
    try:
        pynvml.nvmlInit()
    except pynvml.NVMLError as exc:
        return Skipped(_init_failure(pynvml, exc))
    except OSError as exc:  # a broken libnvidia-ml.so that fails to load
        return Skipped(f"NVML library could not be loaded: {exc}")
    try:
        snapshot = read_gpu(pynvml)
    except pynvml.NVMLError as exc:
        return Skipped(f"NVML query failed: {exc}")
    finally:
        try:
            pynvml.nvmlShutdown()
        except pynvml.NVMLError:
            pass
    if not snapshot.devices:
        return Skipped("NVML is loaded but reports no GPU (device count 0)")
    return identify(snapshot, describe)


def gpu_snapshot_from_recording(data: Any) -> GpuSnapshot | Skipped:
    """The GPU part of a recorded snapshot (`snapshot["gpu"]`); raises codec.SchemaError."""
    if isinstance(data, dict) and set(data) == {"skipped"} and isinstance(data["skipped"], str):
        return Skipped(data["skipped"])
    return decode(GpuSnapshot, data, "gpu")
