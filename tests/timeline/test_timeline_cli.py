"""`oomdoctor diagnose` on a server under pressure, as a user runs it (a real subprocess): exit 0
with `memory_failure: false` and the `pressure` list when nothing failed; the curve as evidence
when a failure follows it; the sparkline in text, the SVG plot beside the Markdown."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "fixtures" / "rules"
SATURATED = RULES / "kv-saturated-curve" / "synthetic-vllm-v1-cpu-saturated-no-failure" / "server.log"
THEN_OOM = RULES / "kv-saturated-curve" / "synthetic-vllm-v0-preempted-then-oom" / "server.log"
HEADROOM = ROOT / "fixtures" / "timeline" / "ok-vllm-v1-headroom" / "server.log"


def oomdoctor(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "oomdoctor", *args], capture_output=True, text=True, cwd=ROOT, timeout=120)


def validate(report: dict) -> None:
    import jsonschema

    schema = json.loads((ROOT / "oomdoctor" / "data" / "report.schema.json").read_text())
    jsonschema.validate(report, schema)


def test_saturated_server_without_failure_exits_0_with_pressure() -> None:
    done = oomdoctor("diagnose", "--log", str(SATURATED), "--format", "json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    validate(report)
    assert report["memory_failure"] is False
    assert report["culprit"] == "unknown"
    assert report["pressure"] == [{"account": "kv_cache", "signal": "kv_usage", "peak": 1.0, "since": "12-01 10:01:30",
                                   "until": "12-01 10:03:00", "samples": 9}]
    first = report["suggestions"][0]
    assert (first["knob"], first["action"], first["value"]) == ("max_num_seqs", "lower", 10)
    assert first["flag"] == "--max-num-seqs 10"
    facts = {f["key"]: f["value"] for f in report["facts"]}
    assert facts["series.kv_usage_peak"] == 1.0 and facts["series.waiting_at_saturation"] == 12
    assert report["summary"].startswith("No memory failure found, but under pressure: kv_cache.")
    assert report["missing_evidence"] == []


def test_failure_after_pressure_names_the_kv_cache() -> None:
    done = oomdoctor("diagnose", "--log", str(THEN_OOM), "--format", "json")
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    validate(report)
    assert report["memory_failure"] is True and report["culprit"] == "kv_cache"
    assert report["findings"][0]["rule_id"] == "kv-saturated-curve"
    assert [p["account"] for p in report["pressure"]] == ["kv_cache"]
    assert report["pressure"][0]["peak"] == pytest.approx(0.999)
    lines = {e["line"] for e in report["findings"][0]["evidence"]}
    assert lines, "the curve's lines are the evidence"


def test_healthy_curve_no_pressure() -> None:
    done = oomdoctor("diagnose", "--log", str(HEADROOM), "--format", "json")
    assert done.returncode == 0
    report = json.loads(done.stdout)
    assert report["pressure"] == [] and report["findings"] == []


def test_text_shows_the_curve() -> None:
    done = oomdoctor("diagnose", "--log", str(SATURATED))
    assert done.returncode == 0
    assert "Memory pressure (no failure)" in done.stdout
    assert "no memory failure; under pressure: kv_cache" in done.stdout
    spark = next(line for line in done.stdout.splitlines() if "KV-cache usage" in line and "max" in line)
    assert "█" in spark and "▂" in spark  # climbs from a fifth of the pool to the ceiling


def test_markdown_writes_the_curve_svg(tmp_path: Path) -> None:
    out = tmp_path / "incident.md"
    done = oomdoctor("diagnose", "--log", str(SATURATED), "--format", "markdown", "--output", str(out))
    assert done.returncode == 0, done.stderr
    md = out.read_text()
    assert "## Memory pressure (no failure)" in md and "| kv_cache | KV-cache usage | 100% | 12-01 10:01:30 | 12-01 10:03:00 | 9 |" in md
    svg = (tmp_path / "incident.timeline.svg").read_text()
    assert svg.startswith("<svg") and "<polyline" in svg and "Memory curve (no failure)" in svg


@pytest.mark.parametrize("args,message", [
    (["--timeline", "/nonexistent/timeline.jsonl"], "timeline file not found"),
    (["--log", "x.log", "--selector", '{pod="a"}'], "--selector/--since/--start/--end need --prometheus"),
    (["--prometheus", "http://127.0.0.1:9", "--since", "10m"], "cannot reach Prometheus at http://127.0.0.1:9"),
    (["--prometheus", "http://127.0.0.1:9", "--selector", 'pod="a"'], "--selector must be a PromQL label selector"),
    (["--prometheus", "prometheus:9090"], "--prometheus needs an http(s) URL"),
])
def test_bad_timeline_inputs_are_one_line_exit_2(args: list[str], message: str) -> None:
    done = oomdoctor("diagnose", *args)
    assert done.returncode == 2
    assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "Traceback" not in done.stderr
