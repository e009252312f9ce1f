"""The rerun loop on real processes: a stand-in server that prints vLLM's own failure lines
(fixtures/rerun/fake_server.py) and a pure-Python batch job under an address-space cap
(fixtures/rerun/alloc_bytes.py, Python's real MemoryError)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from oomdoctor.diagnose import DiagnoseOptions, diagnose
from oomdoctor.redact import Redactor
from oomdoctor.report.json import JsonRenderer
from oomdoctor.rerun import (
    Attempt,
    KnobMapping,
    RerunOptions,
    RerunResult,
    confirm_command,
    confirm_report,
    render_rerun,
)

ROOT = Path(__file__).resolve().parent.parent
FAKE = str(ROOT / "fixtures" / "rerun" / "fake_server.py")
ALLOC = str(ROOT / "fixtures" / "rerun" / "alloc_bytes.py")
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="process groups, RLIMIT_AS")


def opts(tmp_path: Path, **kw: object) -> RerunOptions:
    base: dict[str, object] = {"workdir": tmp_path, "timeout_s": 30, "grace_s": 2, "framework": "vllm"}
    base.update(kw)
    return RerunOptions(**base)  # type: ignore[arg-type]


def fake(*args: str) -> list[str]:
    return [sys.executable, FAKE, *args]


def results(rerun: dict) -> list[tuple[object, str]]:
    return [(a["value"], a["result"]) for a in rerun["attempts"]]


def test_kv_capacity_fix_confirmed_then_headroom(tmp_path: Path) -> None:
    report = confirm_command(fake("--max-model-len", "9000", "--capacity", "4000"), dict(os.environ), opts(tmp_path))
    rr = report.rerun
    assert rr is not None
    assert report.culprit.value == "kv_cache"
    assert rr["baseline"]["result"] == "still_oom"
    # the engine stated its capacity (4000): no search above it; then 10% headroom, rounded to KV blocks
    assert results(rr) == [(4000, "confirmed"), (3600, "confirmed")]
    assert rr["result"] == "confirmed"
    assert rr["fix"]["knob"] == "max_model_len" and rr["fix"]["value"] == 3600
    assert rr["fix"]["argv"] == fake("--max-model-len", "3600", "--capacity", "4000")
    assert rr["fix"]["rule_id"] == "kv-context-exceeds-pool"
    first = rr["attempts"][0]
    assert first["role"] == "suggestion" and Path(first["log"]).is_file()
    assert "Application startup complete" in Path(first["log"]).read_text()


def test_numeric_search_halves_bisects_and_steps_back(tmp_path: Path) -> None:
    report = confirm_command(fake("--max-num-seqs", "256", "--seq-capacity", "40"), dict(os.environ), opts(tmp_path, max_tries=10))
    rr = report.rerun
    assert rr is not None and rr["result"] == "confirmed"
    seen = results(rr)
    assert seen[0] == (128, "still_oom")  # the rule's own value first
    for value, result in seen:
        assert result == ("confirmed" if value <= 40 else "still_oom")
    fix = rr["fix"]["value"]
    largest = max(v for v, r in seen if r == "confirmed")
    assert largest >= 38  # bisected close to the real limit (40) ...
    assert fix == int(largest * 0.9) and rr["attempts"][-1]["role"] == "headroom"  # ... then stepped back


def test_next_suggestion_in_triage_order(tmp_path: Path) -> None:
    report = confirm_command(fake("--need-eager"), dict(os.environ), opts(tmp_path))
    rr = report.rerun
    assert rr is not None and rr["result"] == "confirmed"
    knobs = [(a["knob"], a["result"]) for a in rr["attempts"]]
    assert knobs[0] == ("gpu_memory_utilization", "still_oom")
    assert knobs[-1] == ("enforce_eager", "confirmed")
    assert rr["fix"]["argv"][-1] == "--enforce-eager"


def test_max_tries_stops_the_loop(tmp_path: Path) -> None:
    report = confirm_command(fake("--need-eager"), dict(os.environ), opts(tmp_path, max_tries=1))
    rr = report.rerun
    assert rr is not None
    assert rr["result"] == "still_oom" and len(rr["attempts"]) == 1
    assert "--max-tries 1" in rr["reason"] and rr["fix"] is None


def test_new_failure_is_not_confirmed(tmp_path: Path) -> None:
    report = confirm_command(fake("--max-model-len", "9000", "--capacity", "4000", "--die-after-ready"),
                             dict(os.environ), opts(tmp_path, settle_s=3, max_tries=2))
    rr = report.rerun
    assert rr is not None and rr["result"] != "confirmed"
    assert rr["attempts"][0]["result"] == "new_failure"
    assert "after it was ready" in rr["attempts"][0]["note"]


def test_timeout(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    log.write_text("ValueError: To serve at least one request with the model's max seq len (9000), (0.1 GiB KV cache is "
                   "needed, which is larger than the available KV cache memory (0.0 GiB). Based on the available memory, "
                   "the estimated maximum model length is 4000.\n")
    report = diagnose(DiagnoseOptions(logs=[str(log)], framework="vllm"))
    out = confirm_report(report, fake("--hang", "--max-model-len", "9000"), dict(os.environ),
                         opts(tmp_path / "runs", timeout_s=1, max_tries=1, search=False))
    assert out.rerun is not None
    assert results(out.rerun) == [(4000, "timeout")] and out.rerun["result"] == "timeout"
    # confirm_report keeps the diagnosis and only adds `rerun`
    assert out.findings == report.findings and out.summary == report.summary


def test_command_that_runs_cleanly_needs_no_change(tmp_path: Path) -> None:
    report = confirm_command([sys.executable, "-c", "print('fine')"], dict(os.environ), opts(tmp_path, framework=None))
    rr = report.rerun
    assert rr is not None and rr["result"] == "confirmed" and rr["attempts"] == [] and rr["fix"] is None
    assert "nothing to change" in rr["reason"] and rr["baseline"]["result"] == "confirmed"


def test_first_run_without_memory_failure_is_skipped(tmp_path: Path) -> None:
    report = confirm_command([sys.executable, "-c", "raise SystemExit('config error: no such model')"], dict(os.environ),
                             opts(tmp_path, framework=None))
    rr = report.rerun
    assert rr is not None and rr["result"] == "skipped" and "without a memory failure" in rr["reason"]


def test_nothing_applicable_is_skipped(tmp_path: Path) -> None:
    argv = [sys.executable, ALLOC, "--batch-size", "1000"]
    report = confirm_command(argv, dict(os.environ), opts(tmp_path, framework=None, memory_limit_bytes=256 << 20))
    rr = report.rerun
    assert rr is not None and report.culprit.value == "host_memory"
    assert rr["result"] == "skipped" and rr["attempts"] == []
    assert {s["knob"] for s in rr["not_applied"]} >= {"host_ram"}
    assert "no suggestion could be applied" in rr["reason"]


def test_generic_batch_job_searched_through_knob_mapping(tmp_path: Path) -> None:
    argv = [sys.executable, ALLOC, "--batch-size", "1000"]
    options = opts(tmp_path, framework=None, memory_limit_bytes=256 << 20, max_tries=10,
                   knob_map=(KnobMapping.parse("batch_size=--batch-size"),))
    report = confirm_command(argv, dict(os.environ), options)
    rr = report.rerun
    assert rr is not None and rr["result"] == "confirmed", render_rerun(rr)
    seen = results(rr)
    assert seen[0] == (500, "still_oom")  # halving from the command's own 1000
    assert all(r == "confirmed" for v, r in seen if v <= 125) and all(r == "still_oom" for v, r in seen if v >= 300)
    assert rr["fix"]["knob"] == "batch_size" and rr["fix"]["value"] < 256
    assert rr["fix"]["argv"] == [sys.executable, ALLOC, "--batch-size", str(rr["fix"]["value"])]
    assert rr["attempts"][0]["rule_id"] == "host-alloc-failed"  # the diagnosis itself suggests batch_size
    text = render_rerun(rr)
    assert text.startswith("rerun: confirmed") and "keep: batch_size=" in text


def test_rerun_json_and_redaction(tmp_path: Path) -> None:
    env = dict(os.environ, HF_TOKEN="hf_abcdefghijklmnopqrstuvwxyz0123")
    argv = fake("--max-model-len", "9000", "--capacity", "4000", "--api-key", "sk-abcdefghijklmnopqrstuvwxyz012345")
    report = confirm_command(argv, env, opts(tmp_path, max_tries=1))
    data = json.loads(JsonRenderer().render(report))
    text = json.dumps(data["rerun"])
    assert "abcdefghijklmnopqrstuvwxyz" not in text
    assert data["rerun"]["result"] == "confirmed"
    a = data["rerun"]["attempts"][0]
    assert set(a) >= {"argv", "env", "duration_s", "result", "log", "ledger", "exit_code", "peak_rss_bytes"}
    assert "--api-key" in a["argv"] and "***" in a["argv"]


def test_attempt_env_is_redacted() -> None:
    a = Attempt(1, "suggestion", "x", 1, "r", ("cmd",), {"HF_TOKEN": "hf_abcdefghijklmnopqrstuvwxyz0123", "OLLAMA_NUM_PARALLEL": "1"},
                RerunResult.CONFIRMED, 1.0, 0, "/tmp/x.log", None, None, (), None)
    d = a.to_dict(Redactor())
    assert d["env"] == {"HF_TOKEN": "***", "OLLAMA_NUM_PARALLEL": "1"}
