#!/usr/bin/env python3
"""Benchmark two small hot paths the report leans on, outside the unit tests (a timed test fails on
a busy machine and says nothing about the code):

  * `gpus.parse_card`: 10,000 card names as people write them ("2x RTX 4090", "A100 80GB", a
    log's "using device CUDA0 (NVIDIA GeForce RTX 4090)"). Target: under 1 s in all.
  * `Redactor.text` on a 20 KB report built from the bundled example log and a few lines that carry
    secrets (a token, a key, a password in a URL, a bearer header, an address), with and without host
    names masked. Target: under 50 ms each (best of 3).

    .venv/bin/python benchmarks/bench_small.py

Exits 0 when both targets are met, else 1.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from oomdoctor.gpus import parse_card  # noqa: E402
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


def _best(fn, arg, runs: int = 3) -> float:  # type: ignore[no-untyped-def]
    best = float("inf")
    for _ in range(runs):
        t = time.perf_counter()
        fn(arg)
        best = min(best, time.perf_counter() - t)
    return best


def main() -> int:
    parse_card("warm up")
    t = time.perf_counter()
    for i in range(10_000):
        parse_card(CARDS[i % len(CARDS)])
    cards = time.perf_counter() - t
    chunk = (ROOT / "examples" / "vllm-kv-cache.log").read_text() + SECRETS
    text = chunk * (20_000 // len(chunk) + 1)
    redact = {hosts: _best(Redactor(hosts=hosts).text, text) for hosts in (False, True)}
    rows = [("parse_card x 10,000", cards, CARD_TARGET_S)] + [
        (f"redact {len(text) // 1000} KB (hosts={hosts})", s, REDACT_TARGET_S) for hosts, s in redact.items()]
    ok = True
    for name, took, target in rows:
        met = took < target
        ok &= met
        print(f"{'PASS' if met else 'MISS'}  {name:32} {took * 1000:8.1f} ms  (target {target * 1000:.0f} ms)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
