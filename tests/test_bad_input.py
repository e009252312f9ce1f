"""Logs as they arrive in real life: missing, empty, binary, mis-encoded, compressed and cut,
prefixed by log collectors, one enormous line. Each gets the documented exit code (README:
0 no failure, 1 failure diagnosed, 2 input error) with one line on stderr, never a traceback,
and never a verdict that the clean version of the same log would not give."""

from __future__ import annotations

import gzip
import json
import os
import random
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from oomdoctor.diagnose import DiagnoseOptions, diagnose
from oomdoctor.parsers.scan import read_text_stream

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "vllm-kv-cache.log"
EXAMPLE_BYTES = EXAMPLE.read_bytes()

TORCH_OOM = (
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 4.00 GiB "
    "of which 2.35 GiB is free. Of the allocated memory 825.15 MiB is allocated by PyTorch, and 24.85 MiB is reserved "
    "by PyTorch but unallocated."
)


def run_cli(*args: str, stdin: bytes | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "100"}
    done = subprocess.run([sys.executable, "-m", "oomdoctor", *args], input=stdin, capture_output=True, timeout=timeout,
                          cwd=ROOT, env=env)
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode("utf-8", "replace"),
                                       done.stderr.decode("utf-8", "replace"))


def diagnose_file(path: Path, timeout: float = 120) -> tuple[subprocess.CompletedProcess[str], dict | None]:
    done = run_cli("diagnose", "--log", str(path), "--format", "json", timeout=timeout)
    assert "Traceback" not in done.stderr, done.stderr
    return done, (json.loads(done.stdout) if done.stdout.strip() else None)


def verdict(report: dict) -> tuple:
    """What a user acts on: the culprit, its confidence, the rules that fired and the first fix."""
    return (report["culprit"], report["confidence"], [f["rule_id"] for f in report["findings"]],
            report["suggestions"][0]["flag"] if report["suggestions"] else None, report["memory_failure"])


def assert_input_error(done: subprocess.CompletedProcess[str], *words: str) -> str:
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("oomdoctor: error: ")
    for w in words:
        assert w in lines[0], lines[0]
    return lines[0]


@pytest.fixture(scope="module")
def clean_example() -> dict:
    done, report = diagnose_file(EXAMPLE)
    assert done.returncode == 1
    assert report is not None and report["culprit"] == "kv_cache"
    return report


# ---------------------------------------------------------------------------- unreadable inputs: exit 2

def test_missing_file(tmp_path):
    assert_input_error(run_cli("diagnose", "--log", str(tmp_path / "server.log")), "not found", "server.log")


def test_directory(tmp_path):
    assert_input_error(run_cli("diagnose", "--log", str(tmp_path)), "directory")


def test_empty_file(tmp_path):
    p = tmp_path / "server.log"
    p.write_bytes(b"")
    assert_input_error(run_cli("diagnose", "--log", str(p)), "empty")


def test_dev_null():
    assert_input_error(run_cli("diagnose", "--log", os.devnull), "empty")


def test_empty_stdin():
    assert_input_error(run_cli("diagnose", "--log", "-", stdin=b""), "empty")


@pytest.mark.parametrize("content", [
    random.Random(7).randbytes(64 << 10),
    b"\x7fELF\x02\x01\x01\x00" + bytes(8) + b"\x02\x00\x3e\x00\x01\x00\x00\x00" + random.Random(8).randbytes(4000),
], ids=["random-bytes", "elf-header"])
def test_binary_file(tmp_path, content):
    p = tmp_path / "server.log"
    p.write_bytes(content)
    assert_input_error(run_cli("diagnose", "--log", str(p)), "binary")


def test_truncated_gzip(tmp_path):
    data = gzip.compress(EXAMPLE_BYTES * 200)
    p = tmp_path / "server.log.gz"
    p.write_bytes(data[: len(data) // 2])
    assert_input_error(run_cli("diagnose", "--log", str(p)), "truncated gzip")


def test_not_gzip_despite_the_name(tmp_path, clean_example):
    p = tmp_path / "server.log.gz"  # a plain log with a .gz name: read as text
    p.write_bytes(EXAMPLE_BYTES)
    done, report = diagnose_file(p)
    assert done.returncode == 1
    assert verdict(report) == verdict(clean_example)


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads files without permission")
def test_unreadable_file(tmp_path):
    p = tmp_path / "server.log"
    p.write_bytes(EXAMPLE_BYTES)
    p.chmod(0)
    assert_input_error(run_cli("diagnose", "--log", str(p)), "server.log")


# ---------------------------------------------------------------------------- encodings

def test_latin1_log_still_diagnosed_with_a_warning(tmp_path, clean_example):
    p = tmp_path / "server.log"
    p.write_bytes("INFO Lancement du serveur (r\xe9sum\xe9: mod\xe8le charg\xe9)\n".encode("latin-1") + EXAMPLE_BYTES)
    done, report = diagnose_file(p)
    assert done.returncode == 1
    assert verdict(report) == verdict(clean_example)
    warnings = [line for line in done.stderr.splitlines() if line.startswith("oomdoctor: warning:")]
    assert len(warnings) == 1 and "UTF-8" in warnings[0]
    # line numbers still count the extra first line
    assert report["findings"][0]["evidence"][-1]["line"] == 6


def test_gbk_log_gives_the_verdict_of_its_utf8_twin(tmp_path):
    text = "模型加载完成\n发生异常: OutOfMemoryError\n" + TORCH_OOM + "\n"
    gbk, utf8 = tmp_path / "gbk.log", tmp_path / "utf8.log"
    gbk.write_bytes(text.encode("gbk"))
    utf8.write_bytes(text.encode("utf-8"))
    done_gbk, r_gbk = diagnose_file(gbk)
    done_utf8, r_utf8 = diagnose_file(utf8)
    assert done_gbk.returncode == done_utf8.returncode == 1
    assert "UTF-8" in done_gbk.stderr and "UTF-8" not in done_utf8.stderr
    assert verdict(r_gbk) == verdict(r_utf8)
    def numbers(report: dict) -> set:
        return {(f["key"], f["value"], f["line"]) for f in report["facts"] if f["key"].startswith("oom.") and f["key"] != "oom.message"}

    assert numbers(r_gbk) == numbers(r_utf8)
    assert ("oom.gpu_free_bytes", int(2.35 * 2**30 + 0.5), 3) in numbers(r_gbk)


def test_late_latin1_bytes_still_warn(tmp_path, clean_example):
    p = tmp_path / "server.log"
    p.write_bytes(b"INFO filler line for the test\n" * 200_000 + "INFO caf\xe9\n".encode("latin-1") + EXAMPLE_BYTES)
    done, report = diagnose_file(p)
    assert verdict(report) == verdict(clean_example)
    assert any("UTF-8" in w for w in report["warnings"])


def test_utf8_bom(tmp_path, clean_example):
    p = tmp_path / "server.log"
    p.write_bytes(b"\xef\xbb\xbf" + EXAMPLE_BYTES)
    done, report = diagnose_file(p)
    assert done.returncode == 1
    assert verdict(report) == verdict(clean_example)
    assert report["warnings"] == []


def test_utf16_log_with_bom(tmp_path, clean_example):
    p = tmp_path / "server.log"
    p.write_bytes(EXAMPLE_BYTES.decode("utf-8").encode("utf-16"))
    done, report = diagnose_file(p)
    assert done.returncode == 1
    assert verdict(report) == verdict(clean_example)


# ---------------------------------------------------------------------------- how collectors mangle lines

def _lines() -> list[bytes]:
    return EXAMPLE_BYTES.splitlines()


VARIANTS = {
    "crlf": b"\r\n".join(_lines()) + b"\r\n",
    "ansi-colours": b"\n".join(b"\x1b[32mINFO\x1b[0m \x1b[1m" + line + b"\x1b[0m" for line in _lines()) + b"\n",
    "vllm-worker-prefix": b"\n".join(b"(VllmWorker rank=0 pid=1090) " + line for line in _lines()) + b"\n",
    "torchrun-rank-prefix": b"\n".join(b"[rank0]: " + line for line in _lines()) + b"\n",
    "kubectl-timestamps": b"\n".join(b"2025-07-08T13:05:3%dZ " % i + line for i, line in enumerate(_lines())) + b"\n",
    "docker-compose-prefix": b"\n".join(b"vllm-1  | " + line for line in _lines()) + b"\n",
    "no-final-newline": EXAMPLE_BYTES.rstrip(b"\n"),
    "cr-only-at-end": EXAMPLE_BYTES.rstrip(b"\n") + b"\r",
}


@pytest.mark.parametrize("name", list(VARIANTS))
def test_mangled_lines_give_the_clean_verdict(tmp_path, clean_example, name):
    p = tmp_path / "server.log"
    p.write_bytes(VARIANTS[name])
    done, report = diagnose_file(p)
    assert done.returncode == 1
    assert verdict(report) == verdict(clean_example)
    assert report["sources"][0]["lines"] == 5
    evidence = report["findings"][0]["evidence"]
    assert [e["line"] for e in evidence] == [e["line"] for e in clean_example["findings"][0]["evidence"]]
    for e in evidence:
        assert "\r" not in e["text"] and "\x1b" not in e["text"]
    assert done.stderr == ""


def test_truncated_last_line_is_not_a_verdict(tmp_path):
    # the failure line is cut before its numbers: the engine's numbers must not be invented
    cut = EXAMPLE_BYTES[: EXAMPLE_BYTES.index(b"(23648)") + 4]  # "... stored in KV cache (236"
    p = tmp_path / "server.log"
    p.write_bytes(cut)
    done, report = diagnose_file(p)
    assert done.returncode in (0, 1)
    assert report is not None
    assert not any(s["value"] == 236 for s in report["suggestions"])
    # a context value may only come from a line that is whole: the block count ("# GPU blocks: 1478", 16 tokens each)
    assert all(s["value"] == 1478 * 16 for s in report["suggestions"] if s["knob"] == "max_model_len")


def _line2_facts(text: bytes) -> set[tuple[str, object]]:
    return {(f.key, f.value) for f in read_text_stream(text).facts if f.evidence is not None and f.evidence.line == 2}


TRUNCATION_CASES = [
    pytest.param(b"ValueError: The model's max seq len (32768) is larger than the maximum number of tokens that can be "
                 b"stored in KV cache (16816). Try increasing", id="vllm-v0-kv-capacity"),
    pytest.param(TORCH_OOM.encode(), id="torch-2.1-oom"),
    pytest.param(b"torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 224.00 MiB (GPU 0; 10.73 GiB total "
                 b"capacity; 9.85 GiB already allocated; 46.44 MiB free; 9.86 GiB reserved in total by PyTorch)",
                 id="torch-1.13-oom"),
    pytest.param(b"ggml_backend_cuda_buffer_type_alloc_buffer: allocating 1766.75 MiB on device 0: cudaMalloc failed: "
                 b"out of memory", id="ggml-cudamalloc"),
    pytest.param(b"Error: model requires more system memory (44.0 GiB) than is available (7.6 GiB)", id="ollama-host-ram"),
    pytest.param(b"[2025-01-10 10:00:21 TP0] KV Cache is allocated. #tokens: 367404, K size: 8.23 GB, V size: 8.23 GB",
                 id="sglang-kv-allocated"),
    pytest.param(b"ggml_gallocr_reserve_n: failed to allocate CUDA0 buffer of size 1852573696", id="ggml-gallocr"),
    pytest.param(b"ggml_backend_cpu_buffer_type_alloc_buffer: failed to allocate buffer of size 137438953504",
                 id="ggml-cpu-buffer"),
    pytest.param(b"llama_new_context_with_model: n_ctx      = 1048576", id="llamacpp-n-ctx"),
]


@pytest.mark.parametrize("line", TRUNCATION_CASES)
def test_a_line_cut_anywhere_never_gives_a_wrong_number(line):
    """Cut the last line at every byte (the file ends there, no newline): each fact read from
    it is either missing or the value the whole line gives."""
    full = _line2_facts(b"INFO start\n" + line + b"\n")
    assert full
    full_by_key: dict[str, set] = {}
    for k, v in full:
        full_by_key.setdefault(k, set()).add(v)
    wrong = []
    for n in range(1, len(line)):
        for key, value in _line2_facts(b"INFO start\n" + line[:n]):
            if value not in full_by_key.get(key, set()):
                wrong.append((line[:n].decode(errors="replace")[-40:], key, value))
    assert not wrong, wrong[:5]


def test_ggml_truncated_failure_size_is_not_stated(tmp_path):
    """End to end: the cut gallocr line (the real size was 1852573696) must not become an 18 KiB diagnosis."""
    p = tmp_path / "server.log"
    p.write_bytes(b"llm_load_tensors: offloaded 33/33 layers to GPU\n"
                  b"ggml_gallocr_reserve_n: failed to allocate CUDA0 buffer of size 18525")
    done, report = diagnose_file(p)
    assert done.returncode == 1
    assert "18.09 KiB" not in " ".join(f["message"] for f in report["findings"])


# ---------------------------------------------------------------------------- size

def _long_line_log(tmp_path: Path) -> Path:
    filler = b'{"role": "user", "content": "summarise the model card and the /v1 docs"}, '
    half = (10 << 20) // len(filler)
    p = tmp_path / "server.log"
    with p.open("wb") as f:
        f.write(b"INFO start\n")
        f.write(filler * half + TORCH_OOM.encode() + b" " + filler * half)
        f.write(b"\nINFO end\n")
    return p


def test_20mb_single_line_still_diagnoses(tmp_path):
    """(its time, under 15 s, is checked by benchmarks/bench_small.py)"""
    p = _long_line_log(tmp_path)
    assert p.stat().st_size > 20 << 20
    short = tmp_path / "short.log"
    short.write_bytes(b"INFO start\n" + TORCH_OOM.encode() + b"\nINFO end\n")
    done, report = diagnose_file(p, timeout=120)
    assert done.returncode == 1
    _, plain = diagnose_file(short)
    assert verdict(report) == verdict(plain)
    oom = {(f["key"], f["value"]) for f in report["facts"] if f["key"].startswith("oom.") and f["key"] != "oom.message"}
    assert oom == {(f["key"], f["value"]) for f in plain["facts"] if f["key"].startswith("oom.") and f["key"] != "oom.message"}
    warnings = [line for line in done.stderr.splitlines()
                if line.startswith("oomdoctor: warning:") and "no engine named" not in line]  # the framework note
    assert warnings and all("long" in w for w in warnings)


def test_20mb_single_line_keeps_line_numbers(tmp_path):
    p = _long_line_log(tmp_path)
    done, report = diagnose_file(p, timeout=60)
    assert report["sources"][0]["lines"] == 3
    assert {f["line"] for f in report["facts"] if f["key"] == "oom.kind"} == {2}
    assert len([w for w in report["warnings"] if "long" in w]) == 1


def test_20mb_without_a_newline_or_a_failure(tmp_path):
    """(its time, under 15 s, is checked by benchmarks/bench_small.py)"""
    p = tmp_path / "server.log"
    p.write_bytes(b"GET /healthz 200 " * ((20 << 20) // 17))
    done, report = diagnose_file(p, timeout=120)
    assert done.returncode == 0
    assert report["culprit"] == "unknown" and report["memory_failure"] is False


# ---------------------------------------------------------------------------- look-alikes and pipes

def test_advice_that_mentions_oom_is_not_a_failure(tmp_path):
    p = tmp_path / "server.log"
    p.write_text(
        "(VllmWorkerProcess pid=116058) INFO 07-08 13:05:31 model_runner.py:928] CUDA graphs can take additional 1~3 GiB "
        "memory per GPU. If you are running out of memory, consider decreasing `gpu_memory_utilization` or enforcing "
        "eager mode. You can also reduce the `max_num_seqs` as needed to decrease memory usage.\n"
        "(raylet) Refer to the documentation on how to address the out of memory issue: "
        "https://docs.ray.io/en/latest/ray-core/scheduling/ray-oom-prevention.html.\n"
        "INFO:     Application startup complete.\n"
    )
    done, report = diagnose_file(p)
    assert done.returncode == 0
    assert report["memory_failure"] is False and report["findings"] == []


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_named_pipe(tmp_path):
    fifo = tmp_path / "server.log"
    os.mkfifo(fifo)

    def feed() -> None:
        try:
            with open(fifo, "wb") as w:
                w.write(EXAMPLE_BYTES)
        except OSError:
            pass

    threading.Thread(target=feed, daemon=True).start()
    done = run_cli("diagnose", "--log", str(fifo), "--format", "json", timeout=60)
    assert "Traceback" not in done.stderr, done.stderr.strip().splitlines()[-1]
    assert done.returncode == 1
    assert json.loads(done.stdout)["culprit"] == "kv_cache"


def test_library_raises_input_error_not_oserror(tmp_path):
    from oomdoctor.errors import InputError

    with pytest.raises(InputError):
        diagnose(DiagnoseOptions(logs=[str(tmp_path / "missing.log")]))
    with pytest.raises(InputError):
        diagnose(DiagnoseOptions(logs=[str(tmp_path)]))
