"""The NVML adapter (`read_devices`) on recorded raw NVML answers, and the live GPU probe.

`ReplayNvml` answers pynvml's function names from a recording of what NVML returns
(field names of c_nvmlMemory_t / c_nvmlProcessInfo_v3_t, the integer enums), and raises
pynvml's own NVMLError for recorded error codes. No GPU needed."""

from __future__ import annotations

import ctypes.util
import os
from types import SimpleNamespace
from typing import Any

import pynvml
import pytest

from oomdoctor.probes import GpuSnapshot, Skipped, read_devices
from oomdoctor.probes.nvml import identify, probe_gpu, read_gpu
from oomdoctor.probes.process import HIDDEN, ProcessIdentity, describe_pid, holds_nvidia_device

MiB = 1 << 20
NOT_AVAILABLE = (1 << 64) - 1  # NVML_VALUE_NOT_AVAILABLE_ulonglong
NO_ID = 0xFFFFFFFF
ERR = pynvml.NVML_ERROR_NOT_SUPPORTED


class ReplayNvml:
    NVMLError = pynvml.NVMLError

    def __init__(self, recording: dict[str, Any]) -> None:
        self.rec = recording

    @staticmethod
    def _answer(h: dict[str, Any], key: str) -> Any:
        value = h.get(key, {"error": pynvml.NVML_ERROR_NOT_SUPPORTED})
        if isinstance(value, dict) and "error" in value:
            raise pynvml.NVMLError(value["error"])
        return value

    def nvmlSystemGetDriverVersion(self) -> Any:
        return self.rec["driver"]

    def nvmlSystemGetCudaDriverVersion(self) -> Any:
        return self.rec["cuda"]

    def nvmlDeviceGetCount(self) -> Any:
        return len(self.rec["devices"])

    def nvmlDeviceGetHandleByIndex(self, i: int) -> Any:
        return self.rec["devices"][i]

    def nvmlDeviceGetName(self, h: dict[str, Any]) -> Any:
        return self._answer(h, "name")

    def nvmlDeviceGetUUID(self, h: dict[str, Any]) -> Any:
        return self._answer(h, "uuid")

    def nvmlDeviceGetMemoryInfo(self, h: dict[str, Any]) -> Any:
        return SimpleNamespace(**self._answer(h, "memory"))

    def nvmlDeviceGetComputeMode(self, h: dict[str, Any]) -> Any:
        return self._answer(h, "compute_mode")

    def nvmlDeviceGetMigMode(self, h: dict[str, Any]) -> Any:
        return self._answer(h, "mig_mode")

    def nvmlDeviceGetMaxMigDeviceCount(self, h: dict[str, Any]) -> Any:
        return self._answer(h, "max_mig_devices")

    def nvmlDeviceGetMigDeviceHandleByIndex(self, h: dict[str, Any], i: int) -> Any:
        return self._answer(h["mig_slots"], str(i))

    def nvmlDeviceGetGpuInstanceId(self, h: dict[str, Any]) -> Any:
        return self._answer(h, "gpu_instance_id")

    def nvmlDeviceGetComputeInstanceId(self, h: dict[str, Any]) -> Any:
        return self._answer(h, "compute_instance_id")

    def nvmlDeviceGetComputeRunningProcesses(self, h: dict[str, Any]) -> Any:
        return [SimpleNamespace(**p) for p in self._answer(h, "compute_processes")]

    def nvmlDeviceGetGraphicsRunningProcesses(self, h: dict[str, Any]) -> Any:
        return [SimpleNamespace(**p) for p in self._answer(h, "graphics_processes")]


def proc(pid: int, mib: int | None, gi: int = NO_ID, ci: int = NO_ID) -> dict[str, Any]:
    used = NOT_AVAILABLE if mib is None else mib * MiB
    return {"pid": pid, "usedGpuMemory": used, "gpuInstanceId": gi, "computeInstanceId": ci}


A100_MEM = {"total": 81920 * MiB, "free": 2920 * MiB, "used": 79000 * MiB}

SHARED_A100: dict[str, Any] = {
    "driver": "550.54.15",
    "cuda": 12040,
    "devices": [
        {
            "name": b"NVIDIA A100-SXM4-80GB",  # older pynvml returns bytes
            "uuid": "GPU-2b7f3e61-9a4c-4f0e-8d1a-6c5b9e3f7a20",
            "memory": A100_MEM,
            "compute_mode": 3,
            "mig_mode": [0, 0],
            "compute_processes": [proc(2388, 16012), proc(4242, 62464)],
            "graphics_processes": [proc(4242, 62464), proc(7001, None)],
        }
    ],
}

MIG_A100: dict[str, Any] = {
    "driver": "535.161.08",
    "cuda": 12020,
    "devices": [
        {
            "name": "NVIDIA A100-SXM4-80GB",
            "uuid": "GPU-2b7f3e61-9a4c-4f0e-8d1a-6c5b9e3f7a20",
            "memory": {"total": 81920 * MiB, "free": 13620 * MiB, "used": 68300 * MiB},
            "compute_mode": 0,
            "mig_mode": [1, 1],
            "max_mig_devices": 7,
            "compute_processes": {"error": pynvml.NVML_ERROR_NO_PERMISSION},
            "mig_slots": {
                "0": {
                    "name": "NVIDIA A100-SXM4-80GB MIG 3g.40gb", "uuid": "MIG-4f8a1c2e-7b3d-5e6f-9a0b-1c2d3e4f5a6b",
                    "memory": {"total": 40192 * MiB, "free": 2692 * MiB, "used": 37500 * MiB},
                    "gpu_instance_id": 1, "compute_instance_id": 0,
                    "compute_processes": [proc(3100, 37376, gi=1, ci=0)], "graphics_processes": [],
                },
                "1": {
                    "name": "NVIDIA A100-SXM4-80GB MIG 3g.40gb", "uuid": "MIG-9d0e1f2a-3b4c-5d6e-7f80-91a2b3c4d5e6",
                    "memory": {"total": 40192 * MiB, "free": 9392 * MiB, "used": 30800 * MiB},
                    "gpu_instance_id": 2, "compute_instance_id": 0,
                    # some drivers leave the ids unset on per-instance queries
                    "compute_processes": [proc(3350, 30720)], "graphics_processes": [],
                },
                **{str(i): {"error": pynvml.NVML_ERROR_NOT_FOUND} for i in range(2, 7)},
            },
        }
    ],
}


def test_read_devices_shared_gpu() -> None:
    (dev,) = read_devices(ReplayNvml(SHARED_A100))
    assert dev.name == "NVIDIA A100-SXM4-80GB"
    assert (dev.total_bytes, dev.used_bytes, dev.free_bytes) == (81920 * MiB, 79000 * MiB, 2920 * MiB)
    assert dev.mig_enabled is False
    assert dev.compute_mode == "exclusive_process"
    by_pid = {p.pid: p for p in dev.processes}
    assert sorted(by_pid) == [2388, 4242, 7001]
    assert by_pid[4242].kind == "compute+graphics"  # listed by both queries: counted once
    assert by_pid[4242].used_bytes == 62464 * MiB
    assert by_pid[7001].used_bytes is None  # NVML_VALUE_NOT_AVAILABLE
    assert by_pid[2388].gpu_instance_id is None and by_pid[2388].compute_instance_id is None
    assert all(p.visible is None for p in dev.processes)  # not looked up yet


def test_read_gpu_versions() -> None:
    snap = read_gpu(ReplayNvml(SHARED_A100))
    assert snap.driver_version == "550.54.15"
    assert snap.cuda_driver_version == "12.4"


def test_mig_not_supported_is_none() -> None:
    rec = {"driver": "550", "cuda": 12040, "devices": [dict(SHARED_A100["devices"][0], mig_mode={"error": ERR})]}
    (dev,) = read_devices(ReplayNvml(rec))
    assert dev.mig_enabled is None
    assert dev.mig_instances == ()


def test_read_devices_mig() -> None:
    (dev,) = read_devices(ReplayNvml(MIG_A100))
    assert dev.mig_enabled is True
    assert [m.gpu_instance_id for m in dev.mig_instances] == [1, 2]  # empty slots skipped
    first, second = dev.mig_instances
    assert first.name == "NVIDIA A100-SXM4-80GB MIG 3g.40gb"
    assert first.total_bytes == 40192 * MiB
    assert [(p.pid, p.gpu_instance_id, p.compute_instance_id) for p in first.processes] == [(3100, 1, 0)]
    assert [(p.pid, p.gpu_instance_id) for p in second.processes] == [(3350, 2)]  # filled from the handle
    assert dev.processes == ()  # per-instance lists only


def test_process_query_failure_is_a_note() -> None:
    dev = dict(SHARED_A100["devices"][0], compute_processes={"error": pynvml.NVML_ERROR_NO_PERMISSION})
    (out,) = read_devices(ReplayNvml({"driver": "x", "cuda": 12000, "devices": [dev]}))
    assert [p.pid for p in out.processes] == [4242, 7001]  # graphics list still read
    assert out.notes == ("compute processes: Insufficient Permissions",)


def test_identify_names_processes() -> None:
    snap = read_gpu(ReplayNvml(SHARED_A100))
    people = {4242: ProcessIdentity(True, "/usr/bin/python train.py", "bob")}
    named = identify(snap, lambda pid: people.get(pid, HIDDEN))
    by_pid = {p.pid: p for p in named.devices[0].processes}
    assert by_pid[4242].command == "/usr/bin/python train.py" and by_pid[4242].user == "bob"
    assert by_pid[4242].hidden is False
    assert by_pid[2388].hidden is True


def test_live_probe_never_raises() -> None:
    result = probe_gpu()
    if isinstance(result, Skipped):
        assert result.reason.strip()
    else:
        assert isinstance(result, GpuSnapshot) and result.devices


@pytest.mark.skipif(ctypes.util.find_library("nvidia-ml") is not None or os.path.exists("/dev/nvidiactl"),
                    reason="this machine has an NVIDIA driver")
def test_no_driver_gives_exact_reason() -> None:
    result = probe_gpu()
    assert isinstance(result, Skipped)
    assert "libnvidia-ml.so.1" in result.reason or "driver" in result.reason.lower()


def test_holds_nvidia_device(tmp_path: Any) -> None:
    (tmp_path / "10" / "fd").mkdir(parents=True)
    os.symlink("/dev/nvidiactl", tmp_path / "10" / "fd" / "3")
    os.symlink("/dev/null", tmp_path / "10" / "fd" / "0")
    (tmp_path / "11" / "fd").mkdir(parents=True)
    os.symlink("/dev/pts/0", tmp_path / "11" / "fd" / "0")
    assert holds_nvidia_device(10, str(tmp_path)) is True
    assert holds_nvidia_device(11, str(tmp_path)) is False  # a pid that only collides with NVML's
    assert holds_nvidia_device(12, str(tmp_path)) is None  # unreadable: trust NVML


def test_describe_pid_outside_namespace() -> None:
    assert describe_pid(0) == HIDDEN
    assert describe_pid(2**22 + 12345) == HIDDEN  # above the default pid_max: no such process here
    # this test process holds no /dev/nvidia*: NVML could not have meant it
    assert describe_pid(os.getpid()).visible is False
