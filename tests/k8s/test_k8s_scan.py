"""How the scan talks to the API: pages, what it reads and how (bounded, streamed, previous),
what it never asks for, and what happens when a pod goes away mid-run."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from conftest import CLUSTER
from fake_api import FakeApiServer

from oomdoctor.k8s.api import connect
from oomdoctor.k8s.model import ScanOptions
from oomdoctor.k8s.scan import FIELD_SELECTOR, scan_cluster

NOW = datetime(2025, 6, 12, 10, 0, 0, tzinfo=timezone.utc)  # a few minutes after the recorded failures


def _scan(server: FakeApiServer, tmp_path: Path, **kw):  # type: ignore[no-untyped-def]
    api = connect(str(server.write_kubeconfig(tmp_path / "kubeconfig")), pool_size=kw.get("concurrency", 8) + 2)
    return scan_cluster(api, ScanOptions(namespace="serving", now=NOW, **kw))


def _names(scan) -> set[str]:  # type: ignore[no-untyped-def]
    return {r.target.pod for r in scan.results}


def test_pods_are_listed_page_by_page(server, tmp_path):  # type: ignore[no-untyped-def]
    scan = _scan(server, tmp_path, page_size=500)
    lists = [q for p, q in server.requests if p == "/api/v1/namespaces/serving/pods"]
    # the server gives at most 4 a page (as an API server may return fewer than `limit`): 10 pods, 3 pages
    assert len(lists) == 3 and scan.pods_listed == 10
    assert [("continue" in q) for q in lists] == [False, True, True]
    assert all(q["limit"] == ["500"] and q["fieldSelector"] == [FIELD_SELECTOR] for q in lists)


def test_reads_previous_logs_bounded_and_never_asks_for_controllers(server, tmp_path):  # type: ignore[no-untyped-def]
    _scan(server, tmp_path, tail_lines=200, limit_bytes=65536)
    logs = {p.split("/")[6]: q for p, q in server.requests if p.endswith("/log")}
    assert set(logs) == {"vllm-llama-8b-5d8f7c9b6-k2x7p", "vllm-mistral-7b-6c4b8d7f9-j3h8s", "ollama-7c9d5f8b4-qm4zt",
                         "llama-405b-0", "tgi-mistral-6b7f9c8d5-p8r2n", "vllm-embed-7f6d8c9b5-r5t6y", "sglang-qwen-0",
                         "tgi-llama-7b8c9d6f5-w8x2c"}
    for q in logs.values():
        assert q["previous"][0].lower() == "true" and q["tailLines"] == ["200"] and q["limitBytes"] == ["65536"]
        assert q["container"]
    paths = server.paths()
    assert not [p for p in paths if "replicasets" in p or "deployments" in p or "statefulsets" in p]
    assert all(p.startswith("/api/v1/") for p in paths)
    # one read per node, not per pod
    nodes = [p for p in paths if p.startswith("/api/v1/nodes/")]
    assert sorted(nodes) == sorted(set(nodes)) == ["/api/v1/nodes/gpu-3090-a", "/api/v1/nodes/gpu-a100-d",
                                                   "/api/v1/nodes/gpu-h100-c", "/api/v1/nodes/gpu-l4-b"]
    # the pod's own events, by field selector
    events = [q["fieldSelector"][0] for p, q in server.requests if p == "/api/v1/namespaces/serving/events"]
    assert "involvedObject.kind=Pod,involvedObject.name=vllm-llama-8b-5d8f7c9b6-k2x7p" in events


def test_log_reads_are_bounded_in_concurrency(tmp_path: Path) -> None:
    with FakeApiServer(CLUSTER, log_delay_s=0.3) as slow:  # long enough that a loaded machine still overlaps the reads
        _scan(slow, tmp_path, concurrency=2)
        assert slow.max_open_logs == 2
        slow.reset()
        _scan(slow, tmp_path, concurrency=8)
        assert slow.max_open_logs > 2


def test_a_tail_is_labelled_and_still_diagnosed(server, tmp_path):  # type: ignore[no-untyped-def]
    scan = _scan(server, tmp_path, pod="vllm-llama-8b-5d8f7c9b6-k2x7p", tail_lines=2)
    (r,) = scan.results
    assert r.report is not None and r.report.sources[0].path == "serving/vllm-llama-8b-5d8f7c9b6-k2x7p/vllm previous log (last 2 lines)"
    assert r.report.sources[0].lines == 2  # the failure is at the end
    assert r.report.culprit.value == "kv_cache"


def test_a_tail_over_the_byte_cap_is_read_again_shorter(tmp_path: Path) -> None:
    import shutil

    # a server that ran a while: 3,000 metrics lines, then the failure
    root = tmp_path / "cluster"
    shutil.copytree(CLUSTER, root)
    log = root / "logs" / "serving" / "vllm-llama-8b-5d8f7c9b6-k2x7p" / "vllm.previous.log"
    metrics = "".join(
        f"INFO 06-12 09:{i // 60 % 60:02d}:{i % 60:02d} metrics.py:351] Avg prompt throughput: 512.3 tokens/s, Avg generation "
        "throughput: 80.1 tokens/s, Running: 4 reqs, Swapped: 0 reqs, Pending: 0 reqs, GPU KV cache usage: 42.1%, CPU KV "
        "cache usage: 0.0%.\n" for i in range(3000))
    log.write_text(metrics + log.read_text())
    with FakeApiServer(root) as srv:
        scan = _scan(srv, tmp_path, pod="vllm-llama-8b-5d8f7c9b6-k2x7p", tail_lines=5000, limit_bytes=64 << 10)
        tails = [q["tailLines"][0] for p, q in srv.requests if p.endswith("/log")]
    # 3,005 lines of ~230 bytes overflow 64 KiB from the start of the tail: a quarter of the lines each time
    assert tails == ["5000", "1250", "312", "78"]
    (r,) = scan.results
    assert r.report is not None and r.report.sources[0].path.endswith("previous log (last 78 lines)")
    assert r.report.culprit.value == "kv_cache"


FAILED = {"vllm-llama-8b-5d8f7c9b6-k2x7p", "vllm-mistral-7b-6c4b8d7f9-j3h8s", "ollama-7c9d5f8b4-qm4zt", "llama-405b-0",
          "tgi-mistral-6b7f9c8d5-p8r2n", "vllm-embed-7f6d8c9b5-r5t6y", "sglang-qwen-0", "tgi-llama-7b8c9d6f5-w8x2c"}


def test_since_keeps_recent_failures_only(server, tmp_path):  # type: ignore[no-untyped-def]
    # 30 minutes before 10:00: not the OOMKill two days before, nor the one that ended at 09:18:40
    scan = _scan(server, tmp_path, since_s=1800)
    assert _names(scan) == FAILED - {"sglang-qwen-0", "vllm-mistral-7b-6c4b8d7f9-j3h8s"}
    assert scan.warnings == ("2 container failures ended before the --since window: not diagnosed",)
    assert _scan(server, tmp_path, since_s=3600, selector="app=vllm").warnings == ()


def test_a_pod_deleted_after_the_list_keeps_its_row(server, tmp_path):  # type: ignore[no-untyped-def]
    server.deleted.add(("serving", "ollama-7c9d5f8b4-qm4zt"))
    scan = _scan(server, tmp_path)
    r = next(r for r in scan.results if r.target.pod == "ollama-7c9d5f8b4-qm4zt")
    assert any("pod gone (404 NotFound)" in e for e in r.errors)
    # diagnosed from the status it was listed with: OOMKilled at its limit, and the patch still written
    assert r.report is not None and r.report.culprit.value == "host_memory"
    assert r.report.sources[0].path == "serving/ollama-7c9d5f8b4-qm4zt/ollama status and events"
    assert r.patch is not None and r.patch.change == "limits.memory: 24Gi (was 16Gi), requests too"
    others = [x for x in scan.results if x.target.pod != "ollama-7c9d5f8b4-qm4zt"]
    assert len(others) == 7 and all(x.report is not None for x in others)


def test_events_forbidden_everywhere_is_noted_on_each_row(server, tmp_path):  # type: ignore[no-untyped-def]
    forbidden = {"code": 403, "reason": "Forbidden", "message": 'events is forbidden: User "alice" cannot list resource "events"'}
    server.extra_faults["/api/v1/namespaces/serving/events"] = forbidden
    server.extra_faults["/api/v1/namespaces/default/events"] = forbidden
    scan = _scan(server, tmp_path)
    assert len(scan.results) == 8
    assert all(any(e.startswith("events: 403 Forbidden") for e in r.errors) for r in scan.results)
    probe = next(r for r in scan.results if r.target.pod == "tgi-llama-7b8c9d6f5-w8x2c")
    # without its events the probe kill cannot be told from an OOM kill: exit 137 counts
    assert probe.report is not None and probe.report.culprit.value == "host_memory"
    # the node's OOM events were not read either: the limit grows by half, not from the event's RSS
    mistral = next(r for r in scan.results if r.target.pod == "vllm-mistral-7b-6c4b8d7f9-j3h8s")
    assert any("node gpu-l4-b events: 403 Forbidden" in e for e in mistral.errors)
    assert mistral.patch is not None and "36Gi" in mistral.patch.change


def test_node_oom_event_is_matched_by_time(server, tmp_path):  # type: ignore[no-untyped-def]
    scan = _scan(server, tmp_path)
    by_pod = {r.target.pod: r for r in scan.results}
    kills = {name: [f.value for f in by_pod[name].report.facts.all("host.kernel_oom_kill")]  # type: ignore[union-attr]
             for name in ("vllm-mistral-7b-6c4b8d7f9-j3h8s", "ollama-7c9d5f8b4-qm4zt", "llama-405b-0")}
    assert len(kills["vllm-mistral-7b-6c4b8d7f9-j3h8s"]) == 1 and "(python3)" in kills["vllm-mistral-7b-6c4b8d7f9-j3h8s"][0]
    assert len(kills["ollama-7c9d5f8b4-qm4zt"]) == 1 and "(ollama)" in kills["ollama-7c9d5f8b4-qm4zt"][0]
    assert kills["llama-405b-0"] == []  # exit 1, not killed: node events are not asked for
    assert not [q for p, q in server.requests if p == "/api/v1/namespaces/default/events"
                and "gpu-h100-c" in q["fieldSelector"][0]]


def test_connection_lost_mid_run_is_per_pod(server, tmp_path):  # type: ignore[no-untyped-def]
    import json
    import socket

    live = connect(str(server.write_kubeconfig(tmp_path / "kubeconfig")))
    pods = list(live.list_pods("serving", page_size=500))
    with socket.socket() as s:  # then the API server is gone: a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cfg = json.loads((tmp_path / "kubeconfig").read_text())
    cfg["clusters"][0]["cluster"]["server"] = f"http://127.0.0.1:{port}"
    (tmp_path / "dead").write_text(json.dumps(cfg))
    dead = connect(str(tmp_path / "dead"), timeout_s=2)
    scan = scan_cluster(_Replay(dead, pods), ScanOptions(namespace="serving", now=NOW))
    assert len(scan.results) == 8
    for r in scan.results:
        assert any(e.startswith("previous log: no answer (Connection refused)") for e in r.errors), r.errors
        assert any(e.startswith("events: no answer") for e in r.errors)
    killed = {r.report.culprit.value for r in scan.results if r.target.termination and r.target.termination.oom_killed}  # type: ignore[union-attr]
    assert killed == {"host_memory"}


class _Replay:
    """The real API object, but its pod list is the one read before the server went away."""

    def __init__(self, api, pods):  # type: ignore[no-untyped-def]
        self._api, self._pods = api, pods
        self.cluster = api.cluster

    def list_pods(self, *a, **kw):  # type: ignore[no-untyped-def]
        return iter(self._pods)

    def __getattr__(self, name):  # type: ignore[no-untyped-def]
        return getattr(self._api, name)


def test_command_and_card_go_to_diagnose_options_that_take_them(server, tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    """DiagnoseOptions may grow `commands` (launch commands as text) and `gpu` (a card as written):
    the scan passes the container's command and the node's card through them when they exist."""
    import dataclasses
    from typing import Optional, Sequence

    import oomdoctor.diagnose as diag

    @dataclasses.dataclass(frozen=True)
    class Wider(diag.DiagnoseOptions):
        commands: Sequence[str] = ()
        gpu: Optional[str] = None

    seen = []
    real = diag.diagnose

    def spy(opts, rules=None):  # type: ignore[no-untyped-def]
        seen.append(opts)
        return real(diag.DiagnoseOptions(**{f.name: getattr(opts, f.name) for f in dataclasses.fields(diag.DiagnoseOptions)}), rules)

    monkeypatch.setattr(diag, "DiagnoseOptions", Wider)
    monkeypatch.setattr(diag, "diagnose", spy)
    scan = _scan(server, tmp_path, pod="llama-405b-0")
    (opts,) = seen
    assert opts.commands == ("python3 -m vllm.entrypoints.openai.api_server --model meta-llama/Meta-Llama-3.1-405B-Instruct-FP8 "
                             "--tensor-parallel-size 8 --max-model-len 16384 --port 8000",)
    assert opts.gpu == "8x NVIDIA-H100-80GB-HBM3"
    assert scan.results[0].report is not None and scan.results[0].report.culprit.value == "host_memory"


def test_a_probe_kill_without_its_log_is_still_not_an_oom(server, tmp_path):  # type: ignore[no-untyped-def]
    server.extra_faults["/api/v1/namespaces/serving/pods/tgi-llama-7b8c9d6f5-w8x2c/log"] = {
        "code": 403, "reason": "Forbidden", "message": "pods/log is forbidden"}
    (r,) = _scan(server, tmp_path, pod="tgi-llama-7b8c9d6f5-w8x2c").results
    assert r.report is not None and r.report.sources[0].path.endswith("status and events")
    assert r.report.memory_failure is False and not r.memory_failure
    assert any("failed probe, not an OOM" in n for n in r.notes)
    # the same pod OOMKilled: the status alone says so
    pod_oom = "vllm-embed-7f6d8c9b5-r5t6y"
    (e,) = _scan(server, tmp_path, pod=pod_oom).results
    assert e.report is not None and e.report.memory_failure and e.report.culprit.value == "host_memory"
