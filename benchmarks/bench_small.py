#!/usr/bin/env python3
"""Benchmark two small hot paths the report leans on, outside the unit tests (a timed test fails on
a busy machine and says nothing about the code):

  * `gpus.parse_card`: 10,000 card names as people write them ("2x RTX 4090", "A100 80GB", a
    log's "using device CUDA0 (NVIDIA GeForce RTX 4090)"). Target: under 1 s in all.
  * `Redactor.text` on a 20 KB report built from the bundled example log and a few lines that carry
    secrets (a token, a key, a password in a URL, a bearer header, an address), with and without host
    names masked. Target: under 50 ms each (best of 3).
  * `catalog.lookup`: 10,000 model names as people write them (the catalog's ids and aliases with
    GGUF, AWQ, GPTQ, FP8 and bnb suffixes, and unknown names), cold cache. Target: under 0.75 s.
  * `oomdoctor diagnose` on a 20 MB log that is one line holding a PyTorch OOM, and on 20 MB with no
    newline and no failure (the CLI as a user runs it, start-up included). Target: under 15 s each.
  * `oomdoctor diagnose` on a training log of 300,000 progress-bar lines (25 MB) ending in a PyTorch OOM:
    the bars are read for the phase in the head only, once the phase is known. Target: under 3 s.
  * `oomdoctor diagnose` on notices repeated by the hundred thousand: TensorRT's tactic search (16 MB; target
    under 6 s, its memory words still searched on every line), tcmalloc's large allocations (10 MB;
    target under 3 s), a scheduler's refusals with its arithmetic, one per attempt to place the model
    (GPUStack's, 18 MB; target under 3 s), and request lines that name a "llama-" model (13 MB; target under 3 s).

    .venv/bin/python benchmarks/bench_small.py

Exits 0 when every target is met, else 1.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from oomdoctor.gpus import parse_card  # noqa: E402
from oomdoctor.memory.catalog import entries, lookup  # noqa: E402
from oomdoctor.redact import Redactor  # noqa: E402

CARDS = ("A100 80GB", "2x RTX 4090", "H100 NVL", "T4", "MI300X", "M2 Max 32GB", "RTX 4070 Super 12GB", "an A10G",
         "8 x H200", "using device CUDA0 (NVIDIA GeForce RTX 4090) - 23028 MiB free")
# lines of the kinds the redactor masks (the values are made up)
SECRETS = """\
+ export HF_TOKEN=hf_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789
INFO 05-02 10:40:58 api_server.py:713] args: Namespace(host=None, port=8000, api_key='k-123456', max_model_len=32768)
INFO 05-02 10:40:59 metrics.py:12] pushing to postgres://metrics:pa55word@db.internal.example.com:5432/vllm
DEBUG client.py:88] headers={'Authorization': 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc'}
OPENAI_API_KEY=sk-proj-0123456789abcdefghijklmnop AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE
INFO:     10.1.2.3:40000 - "POST /v1/chat/completions HTTP/1.1" 200 OK user=ops@example.com
"""
CARD_TARGET_S = 1.0
REDACT_TARGET_S = 0.05
LOOKUP_TARGET_S = 0.75
LONG_LOG_TARGET_S = 15.0
BARS_TARGET_S = 3.0
TACTICS_TARGET_S = 6.0
TORCH_OOM = (b"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 4.00 GiB "
             b"of which 2.35 GiB is free. Of the allocated memory 825.15 MiB is allocated by PyTorch, and 24.85 MiB is reserved "
             b"by PyTorch but unallocated.")
SUFFIXES = ("", "-Q4_K_M.gguf", "-AWQ", "-GPTQ-Int4", "-FP8", "-bnb-4bit", ".Q8_0.gguf", "-GGUF", "-00001-of-00004.gguf")


def _best(fn, arg, runs: int = 3) -> float:  # type: ignore[no-untyped-def]
    best = float("inf")
    for _ in range(runs):
        t = time.perf_counter()
        fn(arg)
        best = min(best, time.perf_counter() - t)
    return best


def _model_names(n: int = 10_000) -> list[str]:
    names = [f"someone/{leaf}{s}" for e in entries() for name in (e.id, *e.aliases)
             for leaf in (name.rsplit("/", 1)[-1],) for s in SUFFIXES]
    names = list(dict.fromkeys(names))
    names += [f"unknown-model-{i}-{i % 97}b-instruct" for i in range(max(0, n - len(names)))]
    return names[:n]


def _diagnose_seconds(content: bytes) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "server.log"
        log.write_bytes(content)
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "oomdoctor", "diagnose", "--log", str(log), "--format", "json"],
                       capture_output=True, cwd=ROOT, check=False)
        return time.perf_counter() - t


def main() -> int:
    parse_card("warm up")
    t = time.perf_counter()
    for i in range(10_000):
        parse_card(CARDS[i % len(CARDS)])
    cards = time.perf_counter() - t
    chunk = (ROOT / "examples" / "vllm-kv-cache.log").read_text() + SECRETS
    text = chunk * (20_000 // len(chunk) + 1)
    redact = {hosts: _best(Redactor(hosts=hosts).text, text) for hosts in (False, True)}
    names = _model_names()
    lookup.cache_clear()
    t = time.perf_counter()
    for name in names:
        lookup(name)
    lookups = time.perf_counter() - t
    filler = b'{"role": "user", "content": "summarise the model card and the /v1 docs"}, '
    half = filler * ((10 << 20) // len(filler))
    one_line = _diagnose_seconds(b"INFO start\n" + half + TORCH_OOM + b" " + half + b"\nINFO end\n")
    no_newline = _diagnose_seconds(b"GET /healthz 200 " * ((20 << 20) // 17))
    bars = _diagnose_seconds(b"".join(f"Training:  {i // 3000:2d}%|##        | {i}/300000 [17:45<1:13:32,  2.04it/s, loss=0.081]\n"
                                      .encode() for i in range(300_000)) + TORCH_OOM + b"\n")
    tactics = _diagnose_seconds(b"".join(f"[11/28/2023-15:47:38] [TRT] [W] UNSUPPORTED_STATESkipping tactic {i % 40} due to "
                                         f"insufficient memory on requested size of 66048 detected for tactic 0x1f.\n".encode()
                                         for i in range(100_000)))
    allocs = _diagnose_seconds(b"".join(f"tcmalloc: large alloc {(1 << 30) + i * 4096} bytes == 0x5656f6cf0000 @  0x7fb8b24aa001\n"
                                        .encode() for i in range(100_000)))
    refusals = _diagnose_seconds(b"".join(f"2024-08-07T11:40:{i % 60:02d}+08:00 - gpustack.scheduler.scheduler - DEBUG - No suitable "
                                          f"workers for model instance qwen3-{i}. The model requires approximately 87.8 GiB of VRAM.\n"
                                          .encode() for i in range(100_000)))
    requests = _diagnose_seconds(b"".join(f"INFO 08-07 11:40:{i % 60:02d} [logger.py:39] Received request cmpl-{i}: prompt: '...', "
                                          f"model: 'llama-3.1-8b-instruct', max_tokens: 256.\n".encode() for i in range(100_000))
                                 + TORCH_OOM + b"\n")
    rows = [("parse_card x 10,000", cards, CARD_TARGET_S)] + [
        (f"redact {len(text) // 1000} KB (hosts={hosts})", s, REDACT_TARGET_S) for hosts, s in redact.items()] + [
        ("catalog lookup x 10,000", lookups, LOOKUP_TARGET_S),
        ("diagnose 20 MB in one line", one_line, LONG_LOG_TARGET_S),
        ("diagnose 20 MB, no newline", no_newline, LONG_LOG_TARGET_S),
        ("diagnose 300,000 progress bars", bars, BARS_TARGET_S),
        ("diagnose 100,000 TensorRT tactics", tactics, TACTICS_TARGET_S),
        ("diagnose 100,000 tcmalloc notices", allocs, BARS_TARGET_S),
        ("diagnose 100,000 scheduler refusals", refusals, BARS_TARGET_S),
        ("diagnose 100,000 llama- request lines", requests, BARS_TARGET_S)]
    ok = True
    for name, took, target in rows:
        met = took < target
        ok &= met
        print(f"{'PASS' if met else 'MISS'}  {name:32} {took * 1000:8.1f} ms  (target {target * 1000:.0f} ms)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
