"""The JSON report's schema (`oomdoctor/data/report.schema.json`): it is valid draft 2020-12,
`oomdoctor schema` prints it, its enums are the code's, it is strict (unknown keys and bad
values are rejected), and the report of every fixture log and bundled example validates
when produced by the real CLI."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

jsonschema = pytest.importorskip("jsonschema")

from oomdoctor import knobs  # noqa: E402
from oomdoctor.facts import Origin  # noqa: E402
from oomdoctor.model import Account, Action, Confidence, Culprit, StepStatus  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_PATH = ROOT / "oomdoctor" / "data" / "report.schema.json"
LOGS = sorted(ROOT.glob("fixtures/**/server.log")) + sorted(ROOT.glob("examples/*.log"))


def run_cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "100"}
    return subprocess.run([sys.executable, "-m", "oomdoctor", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT, env=env)


@pytest.fixture(scope="module")
def schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def validator(schema: dict):
    return jsonschema.Draft202012Validator(schema)


@pytest.fixture(scope="module")
def reports() -> dict[Path, subprocess.CompletedProcess[str]]:
    """One CLI run per log, run side by side (each is a separate process)."""
    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        logs = [p for p in LOGS if p.is_file()]
        runs = pool.map(lambda p: run_cli("diagnose", "--log", str(p), "--format", "json"), logs)
        return dict(zip(logs, runs))


def example_report() -> dict:
    done = run_cli("diagnose", "--log", "examples/vllm-kv-cache.log", "--format", "json")
    assert done.returncode == 1, done.stderr
    return json.loads(done.stdout)


# ---------------------------------------------------------------------------- the schema itself

def test_schema_is_valid_draft_2020_12(schema):
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)


def test_schema_command_prints_the_shipped_schema(schema):
    done = run_cli("schema")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == schema
    assert "Traceback" not in done.stderr


def test_schema_is_strict_where_the_report_is_fixed(schema):
    defs = schema["$defs"]
    for node in (schema, defs["finding"], defs["suggestion"], defs["evidence"], defs["fact"], defs["triage_step"],
                 defs["ledger_entry"], defs["source"]):
        assert node["additionalProperties"] is False
        assert sorted(node["required"]) == sorted(node["properties"]), "every key json.py writes is always present"


@pytest.mark.parametrize(("path", "values"), [
    (("properties", "culprit", "enum"), [c.value for c in Culprit]),
    (("$defs", "account", "enum"), [a.value for a in Account]),
    (("$defs", "confidence", "enum"), [c.value for c in Confidence]),
    (("$defs", "suggestion", "properties", "action", "enum"), [a.value for a in Action]),
    (("$defs", "triage_step", "properties", "status", "enum"), [s.value for s in StepStatus]),
    (("$defs", "fact", "properties", "origin", "enum"), [o.value for o in Origin]),
    (("$defs", "framework", "enum"), list(knobs.FRAMEWORKS)),
    (("$defs", "suggestion", "properties", "knob", "enum"), list(knobs.KNOBS)),
], ids=lambda v: ".".join(v) if isinstance(v, tuple) else None)
def test_schema_enums_match_the_code(schema, path, values):
    node = schema
    for key in path:
        node = node[key]
    assert sorted(node) == sorted(values)


def test_culprit_enum_is_the_documented_one(schema):
    assert schema["properties"]["culprit"]["enum"] == [
        "weights", "kv_cache", "activations", "framework", "host_memory", "not_oom", "unknown"]


def test_top_level_keys_are_what_json_renderer_writes(schema):
    report = example_report()
    assert list(report) == list(schema["properties"])


# ---------------------------------------------------------------------------- strictness

def _broken(report: dict, how: str) -> dict:
    r = copy.deepcopy(report)
    if how == "extra top-level key":
        r["verdict"] = "kv_cache"
    elif how == "missing schema_version":
        del r["schema_version"]
    elif how == "culprit not in enum":
        r["culprit"] = "kv"
    elif how == "extra finding key":
        r["findings"][0]["severity"] = "high"
    elif how == "finding without evidence":
        del r["findings"][0]["evidence"]
    elif how == "evidence line as text":
        r["findings"][0]["evidence"][0]["line"] = "5"
    elif how == "extra suggestion key":
        r["suggestions"][0]["priority"] = 1
    elif how == "suggestion without flag":
        del r["suggestions"][0]["flag"]
    elif how == "unknown knob":
        r["suggestions"][0]["knob"] = "max_seq_len"
    elif how == "unknown action":
        r["findings"][0]["suggestions"][0]["action"] = "increase"
    elif how == "memory_failure as string":
        r["memory_failure"] = "true"
    elif how == "ledger bytes as float":
        r["ledger"][0]["bytes"] = 1.5
    elif how == "fact value as object":
        r["facts"][0]["value"] = {"GiB": 2}
    elif how == "unknown phase":
        r["phase"] = "loading"
    else:  # pragma: no cover
        raise AssertionError(how)
    return r


@pytest.mark.parametrize("how", [
    "extra top-level key", "missing schema_version", "culprit not in enum", "extra finding key", "finding without evidence",
    "evidence line as text", "extra suggestion key", "suggestion without flag", "unknown knob", "unknown action",
    "memory_failure as string", "ledger bytes as float", "fact value as object", "unknown phase",
])
def test_schema_rejects(validator, how):
    report = example_report()
    assert not list(validator.iter_errors(report))
    assert list(validator.iter_errors(_broken(report, how))), f"{how} was accepted"


# ---------------------------------------------------------------------------- every log

def test_there_are_logs_to_validate():
    assert (ROOT / "examples" / "vllm-kv-cache.log") in LOGS


@pytest.mark.parametrize("log", LOGS, ids=lambda p: str(p.relative_to(ROOT)))
def test_report_of_log_validates(reports, validator, log):
    if log not in reports:
        pytest.skip(f"{log} was removed while the tests were collected")
    done = reports[log]
    assert done.returncode in (0, 1), f"exit {done.returncode}: {done.stderr.strip()}"
    assert "Traceback" not in done.stderr
    report = json.loads(done.stdout)
    errors = [f"{e.json_path}: {e.message}" for e in validator.iter_errors(report)]
    assert not errors, "\n".join(errors[:20])
    assert report["sources"][0]["path"] == str(log)
    assert done.returncode == (1 if report["memory_failure"] else 0)
