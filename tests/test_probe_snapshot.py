"""Snapshots: recorded fixtures -> facts, save/load round trips, and bad files."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from oomdoctor.errors import InputError
from oomdoctor.facts import FACT_KEYS, Fact, FactSet, Origin
from oomdoctor.probes import (
    GpuSnapshot,
    Skipped,
    Snapshot,
    collect,
    gpu_snapshot_from_recording,
    load_snapshot,
    save_snapshot,
    snapshot_facts,
)
from oomdoctor.status import ExitStatus

SNAPSHOTS = Path(__file__).resolve().parent.parent / "fixtures" / "snapshots"
GiB, MiB = 1 << 30, 1 << 20


def facts_of(name: str, server_pids: set[int] | None = None, drop_server: bool = False) -> FactSet:
    snap = load_snapshot(SNAPSHOTS / f"{name}.json")
    if drop_server:
        snap = dataclasses.replace(snap, server=None)
    return FactSet(snapshot_facts(snap, server_pids))


@pytest.mark.parametrize("path", sorted(SNAPSHOTS.glob("*.json")), ids=lambda p: p.stem)
def test_fixture_facts_are_registered_and_sourced(path: Path) -> None:
    facts = snapshot_facts(load_snapshot(path))
    assert facts
    for f in facts:
        assert f.key in FACT_KEYS, f.key
        assert isinstance(f.value, FACT_KEYS[f.key].type), (f.key, f.value)
        assert f.evidence is not None and f.evidence.line is None and f.evidence.text
        if f.key.startswith(("gpu.", "host.")):
            assert f.origin is Origin.PROBE
            assert f.evidence.source == ("probe:nvml" if f.key.startswith("gpu.") else "probe:host")
        elif f.key.startswith("knob.") and f.key != "knob.shm_size_bytes" or f.key == "framework":
            assert f.origin is Origin.SETTINGS and f.evidence.source.startswith("probe:pid ")


def test_plain_a100_server_only() -> None:
    fs = facts_of("a100-vllm-only")
    assert fs.value("gpu.count") == 1
    assert fs.value("gpu.name") == "NVIDIA A100-SXM4-80GB"
    assert fs.value("gpu.total_bytes") == 81920 * MiB
    assert fs.value("gpu.used_bytes") == 73817 * MiB
    assert fs.value("gpu.free_bytes") == (81920 - 73817) * MiB
    assert fs.value("gpu.mig") is False
    assert fs.value("gpu.other_process_bytes") == 0  # the EngineCore child (2388) is the server's
    assert not fs.has("gpu.other_processes")
    assert fs.value("framework") == "vllm"
    assert fs.value("knob.max_model_len") == 32768
    assert fs.value("knob.gpu_memory_utilization") == 0.9
    assert fs.value("knob.expandable_segments") is True
    assert not fs.has("host.cgroup_limit_bytes")  # memory.max is "max": no limit, no fact
    assert fs.value("host.cgroup_oom_kills") == 0


def test_training_job_next_to_the_server() -> None:
    fs = facts_of("a100-vllm-and-training")
    assert fs.value("gpu.other_process_bytes") == 62464 * MiB
    assert fs.value("gpu.other_processes") == "pid 4242 (python train.py --config llama-ft.yaml, user bob) 61.0 GiB"
    fact = fs.get("gpu.other_processes")
    assert fact is not None and fact.evidence is not None
    assert fact.evidence.source == "probe:nvml" and "server pids 2201, 2388" in fact.evidence.text
    assert fs.value("gpu.free_bytes") == 2920 * MiB
    assert fs.value("host.shm_total_bytes") == 64 * MiB and fs.value("host.shm_free_bytes") == 0
    assert fs.value("host.cgroup_limit_bytes") == 128 * GiB
    kill = fs.value("host.kernel_oom_kill")
    assert isinstance(kill, str) and "Out of memory: Killed process 4107 (python)" in kill


def test_without_a_server_pid_the_largest_process_is_assumed_the_server() -> None:
    fs = facts_of("a100-vllm-and-training", drop_server=True)
    assert fs.value("gpu.other_processes") == "pid 2388 (VLLM::EngineCore, user root) 15.6 GiB"
    assert fs.value("gpu.other_process_bytes") == 16012 * MiB
    text = fs.get("gpu.other_processes").evidence.text  # type: ignore[union-attr]
    assert "no server pid known" in text and "largest process" in text
    assert not any(f.origin is Origin.SETTINGS for f in fs)


def test_without_a_server_pid_a_single_process_says_nothing_about_others() -> None:
    fs = facts_of("a100-vllm-only", drop_server=True)
    assert fs.has("gpu.total_bytes")
    assert not fs.has("gpu.other_process_bytes") and not fs.has("gpu.other_processes")


def test_server_pids_argument_alone_attributes() -> None:
    fs = facts_of("a100-vllm-and-training", server_pids={4242}, drop_server=True)
    assert fs.value("gpu.other_processes") == "pid 2388 (VLLM::EngineCore, user root) 15.6 GiB"
    fs = facts_of("a100-vllm-and-training", server_pids={2388}, drop_server=True)
    assert fs.value("gpu.other_process_bytes") == 62464 * MiB


def test_mig_other_instance_does_not_compete() -> None:
    fs = facts_of("a100-mig")
    assert fs.value("gpu.mig") is True
    assert fs.value("gpu.name") == "NVIDIA A100-SXM4-80GB MIG 3g.40gb"
    assert fs.value("gpu.total_bytes") == 40192 * MiB  # the server's 3g.40gb slice, not the card
    assert fs.value("gpu.free_bytes") == (40192 - 37500) * MiB
    assert fs.value("gpu.other_process_bytes") == 0  # alice's notebook lives on GI 2
    assert not fs.has("gpu.other_processes")


def test_mig_without_server_falls_back_to_cuda_visible_devices() -> None:
    snap = load_snapshot(SNAPSHOTS / "a100-mig.json")
    assert snap.server is not None
    dead = dataclasses.replace(snap, server=dataclasses.replace(snap.server, pid=9999, tree_pids=(9999,), gpu_in_use=False))
    fs = FactSet(snapshot_facts(dead))
    assert fs.value("gpu.total_bytes") == 40192 * MiB
    assert fs.value("gpu.used_bytes") == 37500 * MiB  # GI 1, named by the MIG UUID in CUDA_VISIBLE_DEVICES
    others = fs.value("gpu.other_processes")
    assert isinstance(others, str) and others.startswith("pid 3100 (python3 -m vllm") and "alice" not in others


def test_process_of_another_container() -> None:
    fs = facts_of("a100-other-container")
    assert fs.value("gpu.other_processes") == "<pid hidden: other container> 10.0 GiB"
    assert fs.value("gpu.other_process_bytes") == 10 * GiB
    assert fs.value("host.cgroup_limit_bytes") == 64 * GiB
    assert fs.value("host.cgroup_oom_kills") == 1
    assert not fs.has("host.kernel_oom_kill")  # the kernel log was not readable: skipped, no fact


def test_server_pids_from_another_namespace_fall_back_to_largest() -> None:
    """Older drivers inside a container: NVML lists host pids, none of them the server's."""
    snap = load_snapshot(SNAPSHOTS / "a100-vllm-and-training.json")
    assert isinstance(snap.gpu, GpuSnapshot) and snap.server is not None and snap.server.gpu_in_use
    dev = snap.gpu.devices[0]
    foreign = tuple(
        dataclasses.replace(p, pid=p.pid + 800000, visible=False, command=None, user=None) for p in dev.processes
    )
    gpu = dataclasses.replace(snap.gpu, devices=(dataclasses.replace(dev, processes=foreign),))
    fs = FactSet(snapshot_facts(dataclasses.replace(snap, gpu=gpu)))
    assert fs.value("gpu.other_processes") == "<pid hidden: other container> 15.6 GiB"
    fact = fs.get("gpu.other_process_bytes")
    assert fact is not None and fact.value == 16012 * MiB
    assert fact.evidence is not None and "another pid namespace" in fact.evidence.text
    # a server that holds no GPU (it died): every listed process is someone else's
    dead = dataclasses.replace(snap, gpu=gpu, server=dataclasses.replace(snap.server, gpu_in_use=False))
    assert FactSet(snapshot_facts(dead)).value("gpu.other_process_bytes") == (16012 + 62464) * MiB


def test_two_gpus_focus_on_the_one_with_the_intruder() -> None:
    snap = load_snapshot(SNAPSHOTS / "a100-vllm-and-training.json")
    assert isinstance(snap.gpu, GpuSnapshot) and snap.server is not None
    gpu0 = snap.gpu.devices[0]
    server_only = dataclasses.replace(
        gpu0, index=0, uuid="GPU-0", used_bytes=16012 * MiB, free_bytes=gpu0.total_bytes - 16012 * MiB,
        processes=tuple(p for p in gpu0.processes if p.pid == 2388),
    )
    shared = dataclasses.replace(gpu0, index=1, uuid="GPU-1")  # tensor parallel: the server uses both
    gpu = dataclasses.replace(snap.gpu, devices=(server_only, shared))
    fs = FactSet(snapshot_facts(dataclasses.replace(snap, gpu=gpu)))
    assert fs.value("gpu.count") == 2
    assert fs.value("gpu.free_bytes") == gpu0.free_bytes  # GPU 1, where the training job sits
    assert fs.value("gpu.other_process_bytes") == 62464 * MiB
    assert fs.value("gpu.other_processes") == "GPU 1: pid 4242 (python train.py --config llama-ft.yaml, user bob) 61.0 GiB"


def test_no_gpu_snapshot_has_no_gpu_facts() -> None:
    snap = load_snapshot(SNAPSHOTS / "no-gpu.json")
    assert isinstance(snap.gpu, Skipped) and "libnvidia-ml.so.1" in snap.gpu.reason
    fs = FactSet(snapshot_facts(snap))
    assert not any(k.startswith("gpu.") for k in fs.keys())
    assert fs.value("host.ram_total_bytes") == 24684096 * 1024


def test_gpu_snapshot_from_recording() -> None:
    data = json.loads((SNAPSHOTS / "a100-mig.json").read_text())
    gpu = gpu_snapshot_from_recording(data["gpu"])
    assert isinstance(gpu, GpuSnapshot)
    assert gpu.devices[0].mig_instances[1].processes[0].user == "alice"
    assert gpu_snapshot_from_recording({"skipped": "no driver"}) == Skipped("no driver")


@pytest.mark.parametrize("path", sorted(SNAPSHOTS.glob("*.json")), ids=lambda p: p.stem)
def test_fixture_round_trips_byte_for_byte(path: Path, tmp_path: Path) -> None:
    snap = load_snapshot(path)
    save_snapshot(snap, tmp_path / "again.json")
    assert json.loads((tmp_path / "again.json").read_text()) == json.loads(path.read_text())
    assert load_snapshot(tmp_path / "again.json") == snap


def test_live_snapshot_is_json_and_loads_back(tmp_path: Path) -> None:
    snap = collect()
    assert snap.version == 1 and snap.server is None and snap.hostname
    save_snapshot(snap, tmp_path / "live.json")
    data = json.loads((tmp_path / "live.json").read_text())
    assert set(data) == {"version", "taken_at", "hostname", "gpu", "host", "server"}
    assert data["server"] is None
    assert load_snapshot(tmp_path / "live.json") == snap
    assert all(isinstance(f, Fact) for f in snapshot_facts(snap))


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "snapshot file not found"),
        ("{not json", "snapshot is not valid JSON (Expecting property name enclosed in double quotes, line 1 column 2)"),
        ("[]", "not an oomdoctor snapshot: $: a snapshot is a JSON object"),
        ('{"version": 2}', "not an oomdoctor snapshot: $.version: unsupported version 2 (this oomdoctor reads 1)"),
    ],
)
def test_bad_snapshot_files(tmp_path: Path, content: str | None, message: str) -> None:
    path = tmp_path / "snap.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(InputError) as info:
        load_snapshot(path)
    assert info.value.message == message
    assert str(info.value) == f"{message} in {path}"
    assert "\n" not in str(info.value)
    assert info.value.status is ExitStatus.USAGE


def test_schema_errors_name_the_path(tmp_path: Path) -> None:
    data = json.loads((SNAPSHOTS / "a100-vllm-only.json").read_text())
    data["gpu"]["devices"][0]["total_bytes"] = "80 GiB"
    (tmp_path / "a.json").write_text(json.dumps(data))
    with pytest.raises(InputError, match=r"\$\.gpu\.devices\[0\]\.total_bytes: expected an integer"):
        load_snapshot(tmp_path / "a.json")
    data = json.loads((SNAPSHOTS / "a100-vllm-only.json").read_text())
    data["host"]["ram"]["totl_bytes"] = 1
    (tmp_path / "b.json").write_text(json.dumps(data))
    with pytest.raises(InputError, match=r"\$\.host\.ram: unknown key 'totl_bytes'"):
        load_snapshot(tmp_path / "b.json")
    del data["host"]["ram"]["totl_bytes"], data["host"]["shm"]
    (tmp_path / "c.json").write_text(json.dumps(data))
    with pytest.raises(InputError, match=r"\$\.host\.shm: missing"):
        load_snapshot(tmp_path / "c.json")


def test_load_directory_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="is a directory"):
        load_snapshot(tmp_path)
    assert isinstance(Snapshot.from_dict(json.loads((SNAPSHOTS / "no-gpu.json").read_text())), Snapshot)
