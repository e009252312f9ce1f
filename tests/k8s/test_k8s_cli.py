"""`oomdoctor k8s` against a recorded cluster served to the real `kubernetes` client: which
pods it finds, the culprit each gets from its previous log plus its spec, the patch, the
per-pod errors it keeps going past, formats, files, exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import CLUSTER, find
from json_patch import PatchFailed, apply, controller_of

ROOT = Path(__file__).resolve().parents[2]
VLLM = "vllm-llama-8b-5d8f7c9b6-k2x7p"  # start-up refused: KV pool < max_model_len (exit 1, CrashLoopBackOff)
MISTRAL = "vllm-mistral-7b-6c4b8d7f9-j3h8s"  # OOMKilled at its 24Gi limit; pods/log answers 403
OLLAMA = "ollama-7c9d5f8b4-qm4zt"  # OOMKilled while loading (limit = request = 16Gi)
LLAMA405 = "llama-405b-0"  # StatefulSet, NCCL cannot create its /dev/shm segment; no /dev/shm volume
TGI_EMPTY = "tgi-mistral-6b7f9c8d5-p8r2n"  # exit 1, previous log empty
EMBED = "vllm-embed-7f6d8c9b5-r5t6y"  # OOMKilled; deleted mid-run (log 404), events 403
SGLANG = "sglang-qwen-0"  # OOMKilled two days ago, no previous log kept, node gone
TGI_PROBE = "tgi-llama-7b8c9d6f5-w8x2c"  # exit 137 from a failed liveness probe: not an OOM
FAILED = {VLLM, MISTRAL, OLLAMA, LLAMA405, TGI_EMPTY, EMBED, SGLANG, TGI_PROBE}
HEALTHY = {"vllm-qwen-7b-59b8d7c6f4-h2k9d", "router-5f7d9c8b6-q7w2e", "model-download-28hx7"}


def _pod(name: str) -> dict:
    return json.loads((CLUSTER / "pods" / "serving" / f"{name}.json").read_text())


def test_done_when_json_over_a_real_process(server, kubeconfig):  # type: ignore[no-untyped-def]
    """The issue's acceptance line, run as a user runs it."""
    env = {**os.environ, "KUBECONFIG": str(kubeconfig)}
    proc = subprocess.run([sys.executable, "-m", "oomdoctor", "k8s", "--namespace", "serving", "--format", "json"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1, proc.stderr
    doc = json.loads(proc.stdout)
    assert {p["pod"] for p in doc["pods"]} == FAILED
    vllm = find(doc, VLLM)
    assert vllm["report"]["culprit"] == "kv_cache"
    assert vllm["last_termination"] == {"reason": "Error", "exit_code": 1, "finished_at": "2025-06-12T09:52:31Z"}
    assert vllm["restarts"] == 5 and vllm["container"] == "vllm" and vllm["namespace"] == "serving"
    assert vllm["patch"]["kind"] == "Deployment" and vllm["patch"]["name"] == "vllm-llama-8b"
    assert {"op": "replace", "path": "/spec/template/spec/containers/0/args/3", "value": "23648"} in vllm["patch"]["ops"]
    # past the 403 on its log, the next pod still gets its diagnosis from the status
    mistral = find(doc, MISTRAL)
    assert any("403 Forbidden" in e for e in mistral["errors"])
    assert mistral["report"]["culprit"] == "host_memory" and mistral["memory_failure"] is True
    assert "previous log: 403 Forbidden" in proc.stderr


def test_exactly_the_failed_pods_and_their_culprits(serving_json):  # type: ignore[no-untyped-def]
    doc = serving_json
    pods = {p["pod"]: p for p in doc["pods"]}
    assert set(pods) == FAILED and not set(pods) & HEALTHY
    assert doc["pods_listed"] == 10  # the Succeeded job pod is left out by the server's field selector
    culprits = {name: p["report"]["culprit"] for name, p in pods.items()}
    assert culprits == {VLLM: "kv_cache", MISTRAL: "host_memory", OLLAMA: "host_memory", LLAMA405: "host_memory",
                        EMBED: "host_memory", SGLANG: "host_memory", TGI_EMPTY: "unknown", TGI_PROBE: "unknown"}
    memory = {name for name, p in pods.items() if p["memory_failure"]}
    assert memory == FAILED - {TGI_EMPTY, TGI_PROBE}
    assert doc["memory_failures"] == len(memory)
    # the rule that decided, and the spec and node facts that went in
    vllm = pods[VLLM]["report"]
    assert vllm["findings"][0]["rule_id"] == "kv-context-exceeds-pool"
    facts = {(f["key"], f["value"]) for f in vllm["facts"] if f["origin"] != "estimate"}
    assert ("knob.max_model_len", 29000) in facts and ("host.cgroup_limit_bytes", 32 << 30) in facts
    assert ("gpu.name", "NVIDIA-GeForce-RTX-3090") in facts and ("gpu.total_bytes", 24576 << 20) in facts
    assert ("host.shm_total_bytes", 2 << 30) in facts
    assert pods[LLAMA405]["report"]["findings"][0]["rule_id"] == "host-shm-exhausted"
    assert pods[OLLAMA]["report"]["framework"] == "ollama"
    # (its placement lines put 17.3 GiB of weights against the pod's 16 GiB limit: the limit, not only a kill)
    assert pods[OLLAMA]["report"]["findings"][0]["rule_id"] == "host-limit-below-model"


def test_patches_apply_to_the_controller_and_change_what_they_say(serving_json):  # type: ignore[no-untyped-def]
    doc = serving_json
    pods = {p["pod"]: p for p in doc["pods"]}
    expected = {
        VLLM: ("Deployment", "vllm-llama-8b"), MISTRAL: ("Deployment", "vllm-mistral-7b"), OLLAMA: ("Deployment", "ollama"),
        LLAMA405: ("StatefulSet", "llama-405b"), EMBED: ("Deployment", "vllm-embed"), SGLANG: ("StatefulSet", "sglang-qwen"),
    }
    assert {n: (p["patch"]["kind"], p["patch"]["name"]) for n, p in pods.items() if p["patch"]} == expected
    patched = {}
    for name, (kind, ctrl) in expected.items():
        patch = pods[name]["patch"]
        assert patch["kubectl"].startswith(f"kubectl patch {kind.lower()} {ctrl} -n serving --type=json -p '")
        patched[name] = apply(controller_of(_pod(name), kind, ctrl), patch["ops"])["spec"]["template"]["spec"]
    args = patched[VLLM]["containers"][0]["args"]
    assert args[args.index("--max-model-len") + 1] == "23648"
    assert patched[OLLAMA]["containers"][0]["resources"]["limits"]["memory"] == "24Gi"
    assert patched[OLLAMA]["containers"][0]["resources"]["requests"]["memory"] == "24Gi"  # stays Guaranteed
    # 24Gi x 1.5 = 36Gi beats the node's OOM event (anon-rss 23.8 GiB x 1.25); the request is left alone
    assert patched[MISTRAL]["containers"][0]["resources"] == {
        "limits": {"memory": "36Gi", "nvidia.com/gpu": "1"}, "requests": {"cpu": "4", "memory": "16Gi", "nvidia.com/gpu": "1"}}
    shm = patched[LLAMA405]
    assert {"name": "dshm", "emptyDir": {"medium": "Memory", "sizeLimit": "2Gi"}} in shm["volumes"]
    assert {"name": "dshm", "mountPath": "/dev/shm"} in shm["containers"][0]["volumeMounts"]
    # a patch written against an older template is refused by its test operations
    drifted = controller_of(_pod(VLLM), "Deployment", "vllm-llama-8b")
    drifted["spec"]["template"]["spec"]["containers"][0]["args"][3] = "16384"
    with pytest.raises(PatchFailed):
        apply(drifted, pods[VLLM]["patch"]["ops"])


def test_secrets_in_args_and_env_are_redacted(oomdoctor_k8s):  # type: ignore[no-untyped-def]
    pod = _pod(VLLM)
    key = pod["spec"]["containers"][0]["args"][7]
    token = pod["spec"]["containers"][0]["env"][0]["value"]
    for fmt in ("json", "text", "markdown"):
        run = oomdoctor_k8s("-n", "serving", "--pod", VLLM, "--format", fmt)
        assert run.code == 1
        assert key not in run.out and token not in run.out, fmt
        assert key[8:20] not in run.out and token[3:20] not in run.out
    raw = oomdoctor_k8s("-n", "serving", "--pod", VLLM, "--format", "json", "--no-redact")
    assert key in raw.out


def test_per_pod_errors_are_on_their_rows(oomdoctor_k8s):  # type: ignore[no-untyped-def]
    run = oomdoctor_k8s("--namespace", "serving")
    assert run.code == 1
    rows = {line.split()[1]: line for line in run.out.splitlines() if line.startswith("serving ")}
    assert set(rows) == FAILED
    assert "previous log: 403 Forbidden" in rows[MISTRAL]
    assert "events: 403 Forbidden" in rows[EMBED] and "pod gone (404 NotFound)" in rows[EMBED]
    assert "previous log: empty" in rows[TGI_EMPTY] and "none (no memory failure)" in rows[TGI_EMPTY]
    assert "none kept (400 BadRequest)" in rows[SGLANG] and "node gpu-a100-d: 404 NotFound" in rows[SGLANG]
    assert "failed probe, not an OOM" in rows[TGI_PROBE]
    assert rows[VLLM].split()[4:7] == ["Error", "kv_cache", "args:"]
    assert "--max-model-len 23648 (was 29000)" in rows[VLLM]
    assert "kubectl patch deployment vllm-llama-8b -n serving --type=json" in run.out
    # the API's own message goes to stderr, one line per error
    assert 'cannot get resource "pods/log"' in run.err


def test_markdown_has_one_section_per_pod(oomdoctor_k8s):  # type: ignore[no-untyped-def]
    run = oomdoctor_k8s("--namespace", "serving", "--format", "markdown")
    assert run.code == 1
    sections = [line for line in run.out.splitlines() if line.startswith("## ")]
    assert len(sections) == len(FAILED)
    assert f"## serving/{VLLM} [vllm]: kv_cache" in sections
    assert "### OOM verdict: kv_cache" in run.out  # the report's own headings sit under the pod's
    assert "+ --max-model-len 23648" in run.out  # the command diff from the container's args


def test_output_dir_writes_one_report_per_pod(oomdoctor_k8s, tmp_path):  # type: ignore[no-untyped-def]
    assert oomdoctor_k8s("--namespace", "serving", "--output", str(tmp_path / "missing")).code == 2  # no folder made silently
    (tmp_path / "out").mkdir()
    run = oomdoctor_k8s("--namespace", "serving", "--format", "json", "--output", str(tmp_path / "out"))
    assert run.code == 1
    written = sorted(p.relative_to(tmp_path / "out").as_posix() for p in (tmp_path / "out").rglob("*.json"))
    assert written == sorted(f"serving/{name}.{c}.json" for name, c in [
        (VLLM, "vllm"), (MISTRAL, "vllm"), (OLLAMA, "ollama"), (LLAMA405, "vllm"), (TGI_EMPTY, "tgi"), (EMBED, "vllm"),
        (SGLANG, "sglang"), (TGI_PROBE, "tgi")])
    one = json.loads((tmp_path / "out" / "serving" / f"{VLLM}.vllm.json").read_text())
    assert one["report"]["culprit"] == "kv_cache" and one["patch"]["name"] == "vllm-llama-8b"
    (tmp_path / "md").mkdir()
    md = oomdoctor_k8s("--namespace", "serving", "--pod", OLLAMA, "-f", "markdown", "-o", str(tmp_path / "md"))
    assert (tmp_path / "md" / "serving" / f"{OLLAMA}.ollama.md").read_text().startswith(f"# serving/{OLLAMA} [ollama]")
    assert md.code == 1


def test_all_namespaces_selector_and_since(oomdoctor_k8s):  # type: ignore[no-untyped-def]
    doc = oomdoctor_k8s("--all-namespaces", "-f", "json").json()
    assert {(p["namespace"], p["pod"]) for p in doc["pods"]} == {("serving", n) for n in FAILED} | {("default", "qwen2-debug")}
    bare = find(doc, "qwen2-debug")
    assert bare["report"]["culprit"] == "weights" and bare["patch"] is None
    # (a 2080 Ti node: no bfloat16, so float16)
    assert bare["patch_note"] == "a bare pod with no controller: change its manifest and re-create it (args: --dtype float16 (was float))"
    assert bare["last_termination"]["reason"] == "Error"  # a pod that stays down: its current log is read
    sel = oomdoctor_k8s("-n", "serving", "-l", "app=vllm", "-f", "json").json()
    assert {p["pod"] for p in sel["pods"]} == {VLLM, MISTRAL}
    # every recorded failure ended before now - 1h: nothing left, exit 0
    recent = oomdoctor_k8s("-n", "serving", "--since", "1h")
    assert recent.code == 0 and "0 failed containers" in recent.out


def test_context_namespace_is_the_default(oomdoctor_k8s):  # type: ignore[no-untyped-def]
    doc = oomdoctor_k8s("--format", "json").json()  # the kubeconfig's context says namespace: serving
    assert doc["cluster"]["namespace"] == "serving" and doc["cluster"]["context"] == "gpu-prod"
    assert {p["pod"] for p in doc["pods"]} == FAILED


def test_healthy_pod_exits_zero(oomdoctor_k8s):  # type: ignore[no-untyped-def]
    run = oomdoctor_k8s("-n", "serving", "--pod", "vllm-qwen-7b-59b8d7c6f4-h2k9d")
    assert run.code == 0 and "No failed containers." in run.out


@pytest.mark.parametrize("args, message", [
    (["-n", "serving", "--pod", "no-such-pod"], "namespace serving: pod no-such-pod not found"),
    (["--context", "gpu-prod-stranger", "-n", "serving"], "cannot list pods: 401 Unauthorized"),
    (["--context", "nope"], "context 'nope' not found"),
    (["--since", "soon"], "--since 'soon' is not a duration"),
    (["-A", "--pod", "x"], "--all-namespaces cannot be combined"),
])
def test_usage_and_cluster_errors_exit_2_in_one_line(oomdoctor_k8s, args, message):  # type: ignore[no-untyped-def]
    run = oomdoctor_k8s(*args)
    assert run.code == 2, run.err
    assert message in run.err and run.err.count("\n") == 1 and run.out == ""
    if "401" in message:
        assert "cluster gpu-prod-stranger (http://127.0.0.1:" in run.err


def test_a_forbidden_list_names_the_cluster(oomdoctor_k8s, server):  # type: ignore[no-untyped-def]
    server.extra_faults["/api/v1/namespaces/serving/pods"] = {
        "code": 403, "reason": "Forbidden",
        "message": 'pods is forbidden: User "system:serviceaccount:serving:oomdoctor" cannot list resource "pods" in API group "" in the namespace "serving"'}
    run = oomdoctor_k8s("-n", "serving")
    assert run.code == 2
    assert run.err.startswith("oomdoctor: error: cluster gpu-prod (http://127.0.0.1:")
    assert 'namespace serving: cannot list pods: 403 Forbidden — pods is forbidden' in run.err


def test_no_api_server_is_a_one_line_error(oomdoctor_k8s, server, tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    import socket

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cfg = json.loads(Path(os.environ["KUBECONFIG"]).read_text())
    cfg["clusters"][0]["cluster"]["server"] = f"http://127.0.0.1:{port}"
    dead = tmp_path / "dead"
    dead.write_text(json.dumps(cfg))
    run = oomdoctor_k8s("--kubeconfig", str(dead), "-n", "serving", "--request-timeout", "2")
    assert run.code == 2
    assert f"cluster gpu-prod (http://127.0.0.1:{port}), namespace serving: cannot reach the API server: Connection refused" in run.err


def test_missing_kubeconfig_and_missing_client(oomdoctor_k8s, tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    run = oomdoctor_k8s("--kubeconfig", str(tmp_path / "absent"))
    assert run.code == 2 and "kubeconfig not found" in run.err
    monkeypatch.setitem(sys.modules, "kubernetes", None)  # as if it were not installed
    run = oomdoctor_k8s("-n", "serving")
    assert run.code == 2 and "pip install 'oomdoctor[k8s]'" in run.err


def test_cli_start_does_not_import_kubernetes() -> None:
    code = "import sys, oomdoctor.cli as c; c._register(['oomdoctor']); print('kubernetes' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
