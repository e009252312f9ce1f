"""`oomdoctor` as a user runs it (a real subprocess through `python -m oomdoctor`): exit codes,
stdout/stderr split, formats, --framework, --rules, stdin, several logs, .gz."""

from __future__ import annotations

import gzip
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "vllm-kv-cache.log"

# A vLLM V1 server that started and served requests: no failure in it.
HEALTHY = """\
INFO 07-08 13:04:58 [api_server.py:1043] vLLM API server version 0.9.2
INFO 07-08 13:04:58 [cli_args.py:325] non-default args: {'model': 'Qwen/Qwen2.5-7B-Instruct', 'max_model_len': 16384, 'gpu_memory_utilization': 0.9}
INFO 07-08 13:05:10 [core.py:69] Initializing a V1 LLM engine (v0.9.2) with config: model='Qwen/Qwen2.5-7B-Instruct', dtype=torch.bfloat16, max_seq_len=16384, tensor_parallel_size=1, quantization=None, enforce_eager=False, kv_cache_dtype=auto
INFO 07-08 13:05:20 [gpu_model_runner.py:1770] Model loading took 14.2474 GiB and 5.12 seconds
INFO 07-08 13:05:31 [gpu_worker.py:232] Available KV cache memory: 5.31 GiB
INFO 07-08 13:05:31 [kv_cache_utils.py:716] GPU KV cache size: 99,424 tokens
INFO 07-08 13:05:31 [kv_cache_utils.py:720] Maximum concurrency for 16,384 tokens per request: 6.07x
INFO 07-08 13:05:45 [gpu_model_runner.py:2326] Graph capturing finished in 14 secs, took 0.21 GiB
INFO 07-08 13:05:46 [api_server.py:1085] Starting vLLM API server on http://0.0.0.0:8000
INFO:     Started server process [1]
INFO:     Waiting for application startup.
INFO:     Application startup complete.
INFO:     10.0.0.1:40000 - "POST /v1/chat/completions HTTP/1.1" 200 OK
INFO 07-08 13:06:01 [loggers.py:116] Engine 000: Avg prompt throughput: 512.3 tokens/s, Avg generation throughput: 80.1 tokens/s, Running: 4 reqs, Waiting: 0 reqs, GPU KV cache usage: 42.1%, Prefix cache hit rate: 12.0%
INFO:     10.0.0.1:40002 - "POST /v1/chat/completions HTTP/1.1" 200 OK
"""

# Two tensor-parallel ranks of one vLLM server; rank 1 runs out of memory two seconds before rank 0.
RANK0 = """\
(VllmWorker rank=0 pid=1090) INFO 06-05 06:17:40 [gpu_model_runner.py:1770] Model loading took 14.2474 GiB and 5.12 seconds
(VllmWorker rank=0 pid=1090) ERROR 06-05 06:18:15 [multiproc_executor.py:470] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.15 GiB. GPU 0 has a total capacity of 23.64 GiB of which 62.81 MiB is free. Including non-PyTorch memory, this process has 23.57 GiB memory in use. Of the allocated memory 22.80 GiB is allocated by PyTorch, and 312.00 MiB is reserved by PyTorch but unallocated.
"""
RANK1 = """\
(VllmWorker rank=1 pid=1091) INFO 06-05 06:17:41 [gpu_model_runner.py:1770] Model loading took 14.2474 GiB and 5.12 seconds
(VllmWorker rank=1 pid=1091) ERROR 06-05 06:18:13 [multiproc_executor.py:470] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.15 GiB. GPU 1 has a total capacity of 23.64 GiB of which 58.12 MiB is free. Including non-PyTorch memory, this process has 23.58 GiB memory in use. Of the allocated memory 22.81 GiB is allocated by PyTorch, and 310.00 MiB is reserved by PyTorch but unallocated.
"""

USER_RULE = """\
id: user-low-concurrency
title: The KV pool cannot hold one full-length request
status: experimental
account: kv_cache
frameworks: [vllm]
confidence: low
description: Site rule; vLLM states a concurrency below 1x.
when:
  all:
    - {fact: mem.max_concurrency, lt: 1.0}
message: >
  vLLM reports a maximum concurrency of {mem.max_concurrency}x for {knob.max_model_len|tokens} tokens.
suggest:
  - {knob: max_model_len, action: lower, why: "site policy"}
"""


def run_cli(*args: str, stdin: bytes | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "100"}
    done = subprocess.run([sys.executable, "-m", "oomdoctor", *args], input=stdin, capture_output=True, timeout=120,
                          cwd=cwd, env=env)
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode("utf-8", "replace"),
                                       done.stderr.decode("utf-8", "replace"))


def diagnose_json(*args: str, stdin: bytes | None = None) -> tuple[int, dict, str]:
    done = run_cli("diagnose", *args, "--format", "json", stdin=stdin)
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, json.loads(done.stdout), done.stderr


def one_line_error(done: subprocess.CompletedProcess[str]) -> str:
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("oomdoctor: error: ")
    assert done.stdout == ""
    return lines[0]


@pytest.fixture
def healthy_log(tmp_path: Path) -> Path:
    p = tmp_path / "server.log"
    p.write_text(HEALTHY)
    return p


@pytest.fixture
def rank_logs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    # a directory of its own: pytest's tmp_path is named after the test, and a test name with
    # "rank" in it would put a rank label into the directory part (see test_label_*)
    d = tmp_path_factory.mktemp("tp")
    r0, r1 = d / "rank0.log", d / "rank1.log"
    r0.write_text(RANK0)
    r1.write_text(RANK1)
    return r0, r1


# ---------------------------------------------------------------------------- exit codes

def test_healthy_log_exits_0(healthy_log):
    code, report, _ = diagnose_json("--log", str(healthy_log))
    assert code == 0
    assert report["memory_failure"] is False
    assert report["culprit"] == "unknown"
    assert report["findings"] == []
    assert report["framework"] == "vllm"


def test_diagnosed_failure_exits_1():
    code, report, _ = diagnose_json("--log", str(EXAMPLE))
    assert code == 1
    assert report["memory_failure"] is True
    assert report["culprit"] == "kv_cache"
    assert report["findings"][0]["rule_id"] == "kv-context-exceeds-pool"
    assert report["suggestions"][0]["flag"] == "--max-model-len 23648"


@pytest.mark.parametrize("args", [
    ["diagnose"],  # --log is required
    ["diagnose", "--log", "examples/vllm-kv-cache.log", "--format", "yaml"],
    ["diagnose", "--log", "examples/vllm-kv-cache.log", "--bogus"],
    ["frobnicate"],
], ids=["no-log", "bad-format", "unknown-option", "unknown-command"])
def test_usage_errors_exit_2(args):
    done = run_cli(*args)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stdout == ""
    assert "error" in done.stderr.lower()


def test_missing_log_exits_2_with_one_line(tmp_path):
    done = run_cli("diagnose", "--log", str(tmp_path / "nope.log"))
    assert done.returncode == 2
    assert "nope.log" in one_line_error(done)


# ---------------------------------------------------------------------------- formats and streams

def test_json_parses_and_is_the_only_thing_on_stdout():
    done = run_cli("diagnose", "--log", str(EXAMPLE), "--format", "json")
    report = json.loads(done.stdout)  # raises if anything else is on stdout
    assert report["schema_version"].startswith("1.")
    assert report["sources"][0]["lines"] == 5


def test_json_report_validates_against_the_schema(rank_logs):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((ROOT / "oomdoctor" / "data" / "report.schema.json").read_text())
    _, report, _ = diagnose_json("--log", str(rank_logs[0]), "--log", str(rank_logs[1]))
    jsonschema.Draft202012Validator(schema).validate(report)


def test_markdown_and_text_formats():
    md = run_cli("diagnose", "--log", str(EXAMPLE), "--format", "markdown")
    assert md.returncode == 1
    assert md.stdout.startswith("# ")
    assert "--max-model-len 23648" in md.stdout
    text = run_cli("diagnose", "--log", str(EXAMPLE))
    assert text.returncode == 1
    assert "kv_cache" in text.stdout and "--max-model-len 23648" in text.stdout
    assert "\x1b[" not in text.stdout  # not a terminal: no colour codes


def test_warnings_go_to_stderr_report_to_stdout(tmp_path):
    log = tmp_path / "latin1.log"
    log.write_bytes(EXAMPLE.read_bytes() + "INFO r\xe9sum\xe9 of the run: caf\xe9\n".encode("latin-1"))
    done = run_cli("diagnose", "--log", str(log), "--format", "json")
    assert done.returncode == 1
    report = json.loads(done.stdout)
    assert report["culprit"] == "kv_cache"
    assert any("UTF-8" in w for w in report["warnings"])
    assert re.search(r"^oomdoctor: warning: .*UTF-8", done.stderr, re.M)
    assert "oomdoctor:" not in done.stdout


def test_output_file(tmp_path):
    out = tmp_path / "report.json"
    done = run_cli("diagnose", "--log", str(EXAMPLE), "--format", "json", "--output", str(out))
    assert done.returncode == 1
    assert done.stdout == ""
    assert json.loads(out.read_text())["culprit"] == "kv_cache"
    assert str(out) in done.stderr


# ---------------------------------------------------------------------------- --framework

@pytest.mark.parametrize(("given", "expected"), [("sglang", "sglang"), ("llama.cpp", "llamacpp"), ("VLLM", "vllm")])
def test_framework_override(given, expected):
    code, report, _ = diagnose_json("--log", str(EXAMPLE), "--framework", given)
    assert code == 1
    assert report["framework"] == expected


def test_framework_override_changes_the_flag_spelling():
    _, report, _ = diagnose_json("--log", str(EXAMPLE), "--framework", "sglang")
    flags = [s["flag"] for s in report["suggestions"] if s["knob"] == "max_model_len"]
    assert flags and flags[0].startswith("--context-length")


def test_unknown_framework_is_a_one_line_error_exit_2():
    done = run_cli("diagnose", "--log", str(EXAMPLE), "--framework", "vlm")
    assert done.returncode == 2
    line = one_line_error(done)
    assert "'vlm'" in line and "vllm" in line


# ---------------------------------------------------------------------------- --rules

def test_user_rule_fires(tmp_path):
    rules = tmp_path / "site-rules"
    rules.mkdir()
    (rules / "user-low-concurrency.yaml").write_text(USER_RULE)
    code, report, _ = diagnose_json("--log", str(EXAMPLE), "--rules", str(rules))
    assert code == 1
    fired = {f["rule_id"]: f for f in report["findings"]}
    assert "user-low-concurrency" in fired
    assert fired["user-low-concurrency"]["message"] == "vLLM reports a maximum concurrency of 0.82x for 29,000 tokens."
    assert fired["user-low-concurrency"]["account"] == "kv_cache"
    # the built-in rules still run
    assert "kv-context-exceeds-pool" in fired
    _, plain, _ = diagnose_json("--log", str(EXAMPLE))
    assert "user-low-concurrency" not in {f["rule_id"] for f in plain["findings"]}


BAD_YAML = "id: user-bad-yaml\ntitle: broken\nstatus: experimental\naccount: kv_cache\nframeworks: [any\nconfidence: low\n"
UNKNOWN_KEY = """\
id: user-typo
title: A rule with a typo
status: experimental
account: kv_cache
frameworks: [any]
confidence: low
when:
  {fact: oom.kind, equals: kv_capacity}
mesage: misspelt key
message: fires
"""


@pytest.mark.parametrize(("name", "text", "words"), [
    ("user-bad-yaml.yaml", BAD_YAML, "YAML"),
    ("user-typo.yaml", UNKNOWN_KEY, "mesage"),
], ids=["bad-yaml", "unknown-key"])
def test_broken_user_rule_exits_3_naming_file_and_line(tmp_path, name, text, words):
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / name).write_text(text)
    done = run_cli("diagnose", "--log", str(EXAMPLE), "--rules", str(rules))
    assert done.returncode == 3
    line = one_line_error(done)
    assert words in line
    assert re.search(re.escape(name) + r":\d+\b", line), line


def test_unknown_key_error_names_the_keys_line(tmp_path):
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "user-typo.yaml").write_text(UNKNOWN_KEY)
    done = run_cli("diagnose", "--log", str(EXAMPLE), "--rules", str(rules))
    assert "user-typo.yaml:9" in one_line_error(done)


def test_missing_rules_directory_exits_2(tmp_path):
    done = run_cli("diagnose", "--log", str(EXAMPLE), "--rules", str(tmp_path / "no-such-dir"))
    assert "no-such-dir" in one_line_error(done)
    assert done.returncode == 2


# ---------------------------------------------------------------------------- entry points

def test_python_dash_m_runs_the_cli():
    done = run_cli("--help")
    assert done.returncode == 0
    assert "diagnose" in done.stdout and "schema" in done.stdout


def test_version():
    from oomdoctor import __version__

    done = run_cli("--version")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"oomdoctor {__version__}"


# ---------------------------------------------------------------------------- inputs

def test_dash_reads_stdin():
    code, report, _ = diagnose_json("--log", "-", stdin=EXAMPLE.read_bytes())
    assert code == 1
    assert report["culprit"] == "kv_cache"
    assert report["sources"][0]["path"] == "<stdin>"
    assert report["sources"][0]["lines"] == 5
    assert report["findings"][0]["evidence"][-1]["line"] == 5


def test_gz_log(tmp_path):
    gz = tmp_path / "server.log.gz"
    gz.write_bytes(gzip.compress(EXAMPLE.read_bytes()))
    code, report, _ = diagnose_json("--log", str(gz))
    _, plain, _ = diagnose_json("--log", str(EXAMPLE))
    assert code == 1
    assert report["culprit"] == plain["culprit"] == "kv_cache"
    assert report["suggestions"][0]["flag"] == plain["suggestions"][0]["flag"]
    assert report["sources"][0]["lines"] == 5


def test_gz_from_stdin():
    code, report, _ = diagnose_json("--log", "-", stdin=gzip.compress(EXAMPLE.read_bytes()))
    assert code == 1
    assert report["culprit"] == "kv_cache"


def test_several_logs_one_per_rank(rank_logs):
    r0, r1 = rank_logs
    code, report, _ = diagnose_json("--log", str(r0), "--log", str(r1))
    assert code == 1
    assert [s["label"] for s in report["sources"]] == ["rank0", "rank1"]
    assert report["failed_first"] == "rank1"  # 06:18:13 is before rank 0's 06:18:15
    assert report["sources"][1]["first_failure_at"] == "06-05 06:18:13"
    assert report["findings"]
    for f in report["findings"]:
        assert f["source"] == "rank0, rank1"


def test_only_the_failing_rank_is_named(tmp_path_factory, rank_logs):
    ok = tmp_path_factory.mktemp("ok") / "rank0.log"
    ok.write_text(HEALTHY)
    code, report, _ = diagnose_json("--log", str(ok), "--log", str(rank_logs[1]))
    assert code == 1
    assert report["failed_first"] == "rank1"
    assert report["findings"] and all(f["source"] == "rank1" for f in report["findings"])


def test_single_log_has_no_failed_first():
    _, report, _ = diagnose_json("--log", str(EXAMPLE))
    assert report["failed_first"] is None
    assert all(f["source"] is None for f in report["findings"])


def test_label_comes_from_the_file_name_not_the_directory(tmp_path):
    d = tmp_path / "tp_rank0_debug"
    d.mkdir()
    (d / "rank0.log").write_text(RANK0)
    (d / "rank1.log").write_text(RANK1)
    _, report, _ = diagnose_json("--log", str(d / "rank0.log"), "--log", str(d / "rank1.log"))
    assert [s["label"] for s in report["sources"]] == ["rank0", "rank1"]
    assert report["failed_first"] == "rank1"
