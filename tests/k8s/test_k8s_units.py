"""The pure parts of `oomdoctor k8s`, table-driven: which containers failed, facts from a spec,
a node and a termination, the owner of a pod, and the JSON patch for each kind of fix (each
patch applied to the controller, as the API server would)."""

from __future__ import annotations

import copy
import json
from datetime import datetime, timezone
from typing import Any

import pytest
from conftest import CLUSTER
from json_patch import apply, controller_of

from oomdoctor.errors import UsageError
from oomdoctor.facts import FactSet
from oomdoctor.k8s import facts as kf
from oomdoctor.k8s.model import FailedContainer, Termination
from oomdoctor.k8s.patch import build_patch, owner
from oomdoctor.k8s.select import failed_containers, parse_duration
from oomdoctor.model import Account, Action, Culprit, Report, Suggestion
from oomdoctor.parsers.base import parse_quantity

NOW = datetime(2025, 6, 12, 10, 0, 0, tzinfo=timezone.utc)


def _load(kind: str, name: str, ns: str = "serving") -> dict[str, Any]:
    path = CLUSTER / kind / (f"{ns}/{name}.json" if kind == "pods" else f"{name}.json")
    return json.loads(path.read_text())


def _all_pods() -> list[dict[str, Any]]:
    return [json.loads(p.read_text()) for p in sorted((CLUSTER / "pods").glob("*/*.json"))]


# ------------------------------------------------------------------ select


def test_failed_containers_over_the_recorded_pods() -> None:
    found = {(t.pod, t.why, t.previous) for p in _all_pods() for t in failed_containers(p, None, NOW)}
    assert found == {
        ("vllm-llama-8b-5d8f7c9b6-k2x7p", "Error (exit 1), CrashLoopBackOff", True),
        ("vllm-mistral-7b-6c4b8d7f9-j3h8s", "OOMKilled", True),
        ("ollama-7c9d5f8b4-qm4zt", "OOMKilled, CrashLoopBackOff", True),
        ("llama-405b-0", "Error (exit 1), CrashLoopBackOff", True),
        ("tgi-mistral-6b7f9c8d5-p8r2n", "Error (exit 1), CrashLoopBackOff", True),
        ("vllm-embed-7f6d8c9b5-r5t6y", "OOMKilled", True),
        ("sglang-qwen-0", "OOMKilled", True),
        ("tgi-llama-7b8c9d6f5-w8x2c", "Error (exit 137)", True),
        ("qwen2-debug", "Error (exit 1)", False),  # restartPolicy Never: its current log
    }


def test_crashloop_without_a_recorded_termination_still_counts() -> None:
    pod = _load("pods", "vllm-llama-8b-5d8f7c9b6-k2x7p")
    pod["status"]["containerStatuses"][0]["lastState"] = {}
    (t,) = failed_containers(pod, None, NOW)
    assert t.termination is None and t.waiting_reason == "CrashLoopBackOff" and t.previous is False


@pytest.mark.parametrize("text, seconds", [("90s", 90), ("30m", 1800), ("1h", 3600), ("1h30m", 5400), ("2d", 172800)])
def test_parse_duration(text: str, seconds: float) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["", "1", "h", "1x", "-1h", "1h 30m", "0s"])
def test_parse_duration_rejects(text: str) -> None:
    with pytest.raises(UsageError):
        parse_duration(text)


# ------------------------------------------------------------------ facts


@pytest.mark.parametrize("text, n", [("16Gi", 16 << 30), ("512Mi", 512 << 20), ("1.5Gi", 3 << 29), ("64G", 64 * 10**9),
                                     ("17179869184", 17179869184), ("1e3", 1000), ("x", None), (None, None)])
def test_parse_quantity(text: str | None, n: int | None) -> None:
    assert parse_quantity(text) == n


@pytest.mark.parametrize("n, text", [(16 << 30, "16Gi"), ((16 << 30) + 1, "17Gi"), (300 << 20, "300Mi"), (1, "1Mi")])
def test_format_quantity(n: int, text: str) -> None:
    assert kf.format_quantity(n) == text


@pytest.mark.parametrize("image, fw", [
    ("vllm/vllm-openai:v0.8.5", "vllm"), ("docker.io/vllm/vllm-openai@sha256:abc", "vllm"),
    ("lmsysorg/sglang:v0.4.6.post1-cu124", "sglang"), ("ghcr.io/huggingface/text-generation-inference:2.0.4", "tgi"),
    ("ollama/ollama:0.6.0", "ollama"), ("ghcr.io/ggml-org/llama.cpp:server-cuda", "llamacpp"),
    ("openmmlab/lmdeploy:v0.7.0", "lmdeploy"), ("nvcr.io/nvidia/tritonserver:24.05-trtllm-python-py3", "tensorrt-llm"),
    ("python:3.11-slim", None), ("myorg/vllm-router:1", None),
])
def test_image_framework(image: str, fw: str | None) -> None:
    assert kf.image_framework(image) == fw


def test_node_facts_from_gpu_feature_discovery() -> None:
    facts = {(f.key, f.value) for f in kf.node_facts(_load("nodes", "gpu-h100-c"))}
    assert facts == {("gpu.name", "NVIDIA-H100-80GB-HBM3"), ("gpu.total_bytes", 81559 << 20), ("gpu.count", 8),
                     ("host.ram_total_bytes", 2113424840 << 10)}
    # the container's own GPU limit counts, not the node's
    assert ("gpu.count", 8) not in {(f.key, f.value) for f in kf.node_facts(_load("nodes", "gpu-h100-c"), container_gpus=2)}
    assert kf.node_gpu_text(_load("nodes", "gpu-h100-c"), 2) == "2x NVIDIA-H100-80GB-HBM3"
    assert kf.node_facts(_load("nodes", "cpu-pool-1"))[0].key == "host.ram_total_bytes"


@pytest.mark.parametrize("labels, total, mig", [
    ({"nvidia.com/gpu.product": "NVIDIA-A100-SXM4-80GB"}, (79 << 30, 80 << 30), False),  # no memory label: from the name
    ({"nvidia.com/gpu.product": "NVIDIA-A100-SXM4-40GB-MIG-3g.20gb"}, (19 << 30, 20 << 30), True),
    ({"amd.com/gpu.product-name": "AMD_Instinct_MI300X_OAM", "amd.com/gpu.vram": "192G"}, (192 << 30, (192 << 30) + 1), False),
])
def test_node_capacity_without_gfd_memory(labels: dict[str, str], total: tuple[int, int], mig: bool) -> None:
    facts = {f.key: f.value for f in kf.node_facts({"metadata": {"name": "n", "labels": labels}})}
    assert total[0] <= int(facts["gpu.total_bytes"]) < total[1]
    assert facts.get("gpu.mig", False) is mig


def _target(pod: dict[str, Any]) -> FailedContainer:
    (t,) = failed_containers(pod, None, NOW)
    return t


def test_spec_facts_mig_limit_shm_default_and_secret_env() -> None:
    pod = _load("pods", "llama-405b-0")
    c = pod["spec"]["containers"][0]
    c["resources"]["limits"] = {"nvidia.com/mig-3g.40gb": "1", "memory": "64Gi"}
    c["env"].append({"name": "HF_TOKEN", "value": "hf_abcdefghijklmnopqrstuvwxyz0123"})
    got = kf.spec_facts(pod, _target(pod))
    facts = {(f.key, f.value) for f in got.facts}
    assert {("gpu.mig", True), ("gpu.count", 1), ("gpu.total_bytes", 40000 << 20), ("host.cgroup_limit_bytes", 64 << 30),
            ("host.shm_total_bytes", 64 << 20), ("knob.tensor_parallel_size", 8), ("knob.max_model_len", 16384)} <= facts
    assert got.framework == "vllm" and got.argv[:3] == ("python3", "-m", "vllm.entrypoints.openai.api_server")
    assert not any("hf_abc" in a for a in got.argv)  # secret env never enters the launch command shown


def test_termination_facts_and_probe_kills() -> None:
    pod = _load("pods", "tgi-llama-7b8c9d6f5-w8x2c")
    t = _target(pod)
    events = json.loads((CLUSTER / "events" / "serving.json").read_text())["items"]
    facts, notes = kf.termination_facts(t, events)
    assert facts == [] and "failed probe, not an OOM" in notes[0]
    facts, notes = kf.termination_facts(t, [])
    assert {(f.key, f.value) for f in facts} == {("oom.kind", "exit_137"), ("oom.exit_signal", "137"), ("oom.hint", "container")}
    ok = FailedContainer("ns", "p", "c", 1, Termination("Error", 1, None), None, True, "x", None)
    assert kf.termination_facts(ok) == ([], [])


# ------------------------------------------------------------------ owner and patch


@pytest.mark.parametrize("refs, labels, expected", [
    ([{"kind": "ReplicaSet", "name": "vllm-5d8f7c9b6", "controller": True}], {"pod-template-hash": "5d8f7c9b6"}, ("Deployment", "vllm")),
    ([{"kind": "ReplicaSet", "name": "vllm-rs", "controller": True}], {}, "not named after a Deployment"),
    ([{"kind": "StatefulSet", "name": "llama", "controller": True}], {}, ("StatefulSet", "llama")),
    ([{"kind": "DaemonSet", "name": "agent", "controller": True}], {}, ("DaemonSet", "agent")),
    ([{"kind": "Job", "name": "bench", "controller": True}], {}, "cannot be patched"),
    ([{"kind": "LeaderWorkerSet", "name": "lws", "controller": True}], {}, "owned by LeaderWorkerSet lws"),
    ([], {}, "bare pod"),
])
def test_owner(refs: list[dict[str, Any]], labels: dict[str, str], expected: Any) -> None:
    got = owner({"metadata": {"ownerReferences": refs, "labels": labels}})
    assert got == expected if isinstance(expected, tuple) else expected in got


def _report(*suggestions: tuple[str, Any, str | None], framework: str = "vllm", facts: FactSet | None = None) -> Report:
    made = tuple(Suggestion(knob, Action.SET, value, flag, f"because {knob}", "rule-x", Account.KV_CACHE)
                 for knob, value, flag in suggestions)
    return Report(schema_version="1.0", framework=framework, framework_version=None, culprit=Culprit.KV_CACHE,
                  confidence=None, phase=None, summary="", findings=(), suggestions=made, triage=(), ledger=(),
                  facts=facts or FactSet(), sources=(), memory_failure=True)


def _patched(pod: dict[str, Any], report: Report, **kw: Any) -> tuple[dict[str, Any], Any]:
    patch, note = build_patch(pod, _target(pod), report, **kw)
    assert patch is not None, note
    who = owner(pod)
    assert isinstance(who, tuple)
    kind, name = who
    after = apply(controller_of(pod, kind, name), list(patch.ops))["spec"]["template"]["spec"]
    return after, patch


def _vllm(**container: Any) -> dict[str, Any]:
    pod = copy.deepcopy(_load("pods", "vllm-llama-8b-5d8f7c9b6-k2x7p"))
    c = pod["spec"]["containers"][0]
    for k, v in container.items():
        if v is None:
            c.pop(k, None)
        else:
            c[k] = v
    return pod


KV = ("max_model_len", 23648, "--max-model-len 23648")


@pytest.mark.parametrize("container, field, expected, change", [
    ({}, "args", ["--model", "meta-llama/Llama-3.1-8B-Instruct", "--max-model-len", "23648"], "(was 29000)"),
    ({"args": ["--model", "m"]}, "args", ["--model", "m", "--max-model-len", "23648"], "(added)"),
    ({"args": None, "command": ["vllm", "serve", "m"]}, "args", ["--max-model-len", "23648"], "(added)"),
    ({"args": None, "command": ["vllm", "serve", "m", "--max-model-len=29000"]}, "command",
     ["vllm", "serve", "m", "--max-model-len=23648"], "(was 29000)"),
    ({"args": None, "command": ["/bin/sh", "-c", "exec vllm serve m --max-model-len 29000 --port 8000"]}, "command",
     ["/bin/sh", "-c", "exec vllm serve m --max-model-len 23648 --port 8000"], "(was 29000)"),
    ({"command": ["bash", "-c"], "args": ["vllm serve m --max_model_len 29000"]}, "args",
     ["vllm serve m --max_model_len 23648"], "(was 29000)"),
])
def test_argument_patches(container: dict[str, Any], field: str, expected: list[str], change: str) -> None:
    after, patch = _patched(_vllm(**container), _report(KV))
    got = after["containers"][0][field]
    assert got[: len(expected)] == expected if field == "args" and not container else got == expected
    assert patch.change.endswith(change) and patch.knob == "max_model_len"
    assert patch.ops[0] == {"op": "test", "path": "/spec/template/spec/containers/0/name", "value": "vllm"}
    assert "sk-proj" not in json.dumps(list(patch.ops))  # only what changes is written: no other argument


def test_a_multi_command_script_is_left_to_a_person() -> None:
    pod = _vllm(args=None, command=["sh", "-c", "pip install x && vllm serve m --max-model-len 29000"])
    patch, note = build_patch(pod, _target(pod), _report(KV))
    assert patch is None and "multi-command shell script" in (note or "")


def test_placeholders_and_prose_are_skipped_for_the_next_suggestion() -> None:
    report = _report(("max_num_batched_tokens", None, "--max-num-batched-tokens <lower>"),
                     ("upgrade", None, "upgrade the framework"), ("kv_cache_dtype", "fp8", "--kv-cache-dtype fp8"))
    after, patch = _patched(_vllm(), report)
    assert after["containers"][0]["args"][-2:] == ["--kv-cache-dtype", "fp8"] and patch.knob == "kv_cache_dtype"


@pytest.mark.parametrize("env, expected", [
    (None, [{"name": "PYTORCH_CUDA_ALLOC_CONF", "value": "expandable_segments:True"}]),
    ([{"name": "PYTORCH_CUDA_ALLOC_CONF", "value": "max_split_size_mb:512"}],
     [{"name": "PYTORCH_CUDA_ALLOC_CONF", "value": "max_split_size_mb:512,expandable_segments:True"}]),
    ([{"name": "A", "value": "1"}], [{"name": "A", "value": "1"}, {"name": "PYTORCH_CUDA_ALLOC_CONF", "value": "expandable_segments:True"}]),
])
def test_env_patches(env: list[dict[str, str]] | None, expected: list[dict[str, str]]) -> None:
    report = _report(("expandable_segments", True, "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True"))
    after, patch = _patched(_vllm(env=env), report)
    assert after["containers"][0]["env"] == expected and patch.change.startswith("env: ")


def test_env_from_a_secret_is_not_overwritten() -> None:
    pod = _vllm(env=[{"name": "PYTORCH_CUDA_ALLOC_CONF", "valueFrom": {"configMapKeyRef": {"name": "c", "key": "k"}}}])
    patch, note = build_patch(pod, _target(pod), _report(("expandable_segments", True, "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True")))
    assert patch is None and "secret/configMap reference" in (note or "")


HOST = ("host_ram", None, "more host RAM for the process/container (raise its memory limit), fewer workers")


@pytest.mark.parametrize("resources, anon, limits, requests", [
    ({"limits": {"memory": "32Gi"}, "requests": {"memory": "32Gi"}}, None, {"memory": "48Gi"}, {"memory": "48Gi"}),
    ({"limits": {"memory": "32Gi"}, "requests": {"memory": "8Gi"}}, None, {"memory": "48Gi"}, {"memory": "8Gi"}),
    ({"limits": {"memory": "8Gi"}}, 12 << 30, {"memory": "15Gi"}, None),  # the node's OOM event: 12 GiB anon-rss x 1.25
    ({"requests": {"memory": "8Gi"}}, 20 << 30, None, {"memory": "25Gi"}),  # no limit: the node ran out; reserve it
    ({}, 20 << 30, None, {"memory": "25Gi"}),
])
def test_memory_patches(resources: dict[str, Any], anon: int | None, limits: Any, requests: Any) -> None:
    after, patch = _patched(_vllm(resources=resources), _report(HOST), anon_rss_bytes=anon)
    got = after["containers"][0]["resources"]
    assert got.get("limits") == limits and got.get("requests") == requests


def test_memory_limit_without_numbers_is_explained() -> None:
    pod = _vllm(resources={"requests": {"memory": "8Gi"}})
    patch, note = build_patch(pod, _target(pod), _report(HOST))
    assert patch is None and "the node itself ran out of memory" in (note or "")


SHM = ("shm_size", "16g", "docker run --shm-size=16g (or --ipc=host; Kubernetes: an emptyDir with medium: Memory on /dev/shm)")


@pytest.mark.parametrize("volume, value, expected", [
    ({"emptyDir": {"medium": "Memory", "sizeLimit": "2Gi"}}, "16g", {"medium": "Memory", "sizeLimit": "16Gi"}),
    ({"emptyDir": {"medium": "Memory", "sizeLimit": "8Gi"}}, "2g", {"medium": "Memory", "sizeLimit": "16Gi"}),  # at least double
    ({"emptyDir": {"medium": "Memory"}}, "2g", {"medium": "Memory", "sizeLimit": "2Gi"}),
    ({"emptyDir": {}}, "2g", {"medium": "Memory", "sizeLimit": "2Gi"}),  # on disk: moved to memory
])
def test_shm_patches(volume: dict[str, Any], value: str, expected: dict[str, Any]) -> None:
    pod = _vllm()
    pod["spec"]["volumes"][0] = {"name": "dshm", **volume}
    after, patch = _patched(pod, _report(("shm_size", value, SHM[2])))
    assert after["volumes"][0] == {"name": "dshm", "emptyDir": expected}
    assert patch.change.startswith("/dev/shm: ")


def test_shm_added_where_there_are_no_volumes_at_all() -> None:
    pod = _vllm(volumeMounts=None)
    del pod["spec"]["volumes"]
    after, patch = _patched(pod, _report(SHM))
    assert after["volumes"] == [{"name": "dshm", "emptyDir": {"medium": "Memory", "sizeLimit": "16Gi"}}]
    assert after["containers"][0]["volumeMounts"] == [{"name": "dshm", "mountPath": "/dev/shm"}]


def test_shm_from_a_host_path_is_explained() -> None:
    pod = _vllm()
    pod["spec"]["volumes"][0] = {"name": "dshm", "hostPath": {"path": "/dev/shm"}}
    patch, note = build_patch(pod, _target(pod), _report(SHM))
    assert patch is None and "not an emptyDir" in (note or "")
