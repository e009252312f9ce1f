#!/usr/bin/env python3
"""Benchmark `oomdoctor diagnose` on a large serving log against grep, plus the CLI's cold start.

    .venv/bin/python benchmarks/bench_diagnose.py            # ~320 MB log, 3 timed runs each
    .venv/bin/python benchmarks/bench_diagnose.py --size-mb 50 --runs 1 --profile

It writes a realistic vLLM serving log to benchmarks/out/serving.log (start-up block with the
config lines, then access lines, engine metrics every ~20 requests, an occasional warning, and
a CUDA OOM traceback at the end), then times, on the same file with a warm page cache:

  * grep -c 'out of memory'               (the floor: one literal)
  * grep -c -E '<a few words>'            (what a person greps for)
  * oomdoctor diagnose --format json      (the full pipeline, report to /dev/null)

Each command runs in its own small wrapper process, so its peak RSS is
`resource.getrusage(RUSAGE_CHILDREN).ru_maxrss` of that one child. The cold start is the median
wall time of 10 runs of `oomdoctor diagnose --log small.log --format json` on a 5-line log.
The timed children run as an installed package does, with their bytecode cached (under
benchmarks/out/pycache; a shell's PYTHONDONTWRITEBYTECODE=1 is dropped for them, else every start
recompiles every module, about 0.1 s).
Targets: within 5x of grep, peak RSS under 150 MB, cold start well under 0.5 s.
Results also go to benchmarks/out/results.json.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import textwrap
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = HERE / "out"

TARGET_RATIO = 5.0
TARGET_STATS_RATIO = 3.0  # issue 12: with its ~200,000 periodic stats lines read into the curve
TARGET_RSS_MB = 150.0
TARGET_COLD_S = 0.5

GREP_WORDS = "out of memory|OutOfMemoryError|Killed|CUDA error"

# ---------------------------------------------------------------------------- the log

STARTUP = """\
INFO 07-08 13:04:58 [__init__.py:244] Automatically detected platform cuda.
INFO 07-08 13:05:01 [api_server.py:1395] vLLM API server version 0.9.2
INFO 07-08 13:05:01 [cli_args.py:325] non-default args: {{'model': 'meta-llama/Llama-3.1-8B-Instruct', 'max_model_len': 32768, 'gpu_memory_utilization': 0.92, 'max_num_seqs': 256, 'api_key': '***'}}
INFO 07-08 13:05:09 [config.py:841] This model supports multiple tasks: {{'generate', 'embed', 'classify', 'reward'}}. Defaulting to 'generate'.
INFO 07-08 13:05:09 [config.py:2181] Chunked prefill is enabled with max_num_batched_tokens=2048.
INFO 07-08 13:05:10 [core.py:526] Waiting for init message from front-end.
INFO 07-08 13:05:10 [core.py:69] Initializing a V1 LLM engine (v0.9.2) with config: model='meta-llama/Llama-3.1-8B-Instruct', speculative_config=None, tokenizer='meta-llama/Llama-3.1-8B-Instruct', skip_tokenizer_init=False, tokenizer_mode=auto, revision=None, override_neuron_config={{}}, tokenizer_revision=None, trust_remote_code=False, dtype=torch.bfloat16, max_seq_len=32768, download_dir=None, load_format=auto, tensor_parallel_size=1, pipeline_parallel_size=1, disable_custom_all_reduce=False, quantization=None, enforce_eager=False, kv_cache_dtype=auto, device_config=cuda, seed=0, served_model_name=meta-llama/Llama-3.1-8B-Instruct, enable_prefix_caching=True, chunked_prefill_enabled=True
INFO 07-08 13:05:11 [parallel_state.py:1076] rank 0 in world size 1 is assigned as DP rank 0, PP rank 0, TP rank 0, EP rank 0
INFO 07-08 13:05:11 [gpu_model_runner.py:1770] Starting to load model meta-llama/Llama-3.1-8B-Instruct...
INFO 07-08 13:05:12 [cuda.py:284] Using Flash Attention backend on V1 engine.
INFO 07-08 13:05:12 [weight_utils.py:292] Using model weights format ['*.safetensors']
INFO 07-08 13:05:19 [default_loader.py:272] Loading weights took 6.42 seconds
INFO 07-08 13:05:20 [gpu_model_runner.py:1801] Model loading took 14.9889 GiB and 7.911340 seconds
INFO 07-08 13:05:29 [backends.py:508] Using cache directory: /root/.cache/vllm/torch_compile_cache/3f1c2a/rank_0_0/backbone for vLLM's torch.compile
INFO 07-08 13:05:29 [backends.py:519] Dynamo bytecode transform time: 8.61 s
INFO 07-08 13:05:36 [monitor.py:34] torch.compile takes 14.02 s in total
INFO 07-08 13:05:37 [gpu_worker.py:232] Available KV cache memory: 55.62 GiB
INFO 07-08 13:05:37 [kv_cache_utils.py:716] GPU KV cache size: 455,632 tokens
INFO 07-08 13:05:37 [kv_cache_utils.py:720] Maximum concurrency for 32,768 tokens per request: 13.90x
INFO 07-08 13:05:58 [gpu_model_runner.py:2326] Graph capturing finished in 21 secs, took 0.52 GiB
INFO 07-08 13:05:58 [core.py:172] init engine (profile, create kv cache, warmup model) took 37.91 seconds
INFO 07-08 13:05:59 [api_server.py:1457] Starting vLLM API server 0 on http://0.0.0.0:8000
INFO 07-08 13:05:59 [launcher.py:29] Available routes are:
INFO 07-08 13:05:59 [launcher.py:37] Route: /v1/chat/completions, Methods: POST
INFO 07-08 13:05:59 [launcher.py:37] Route: /v1/completions, Methods: POST
INFO:     Started server process [1]
INFO:     Waiting for application startup.
INFO:     Application startup complete.
"""

WARNINGS = (
    "WARNING {ts} [protocol.py:93] The following fields were present in the request but ignored: {{'top_k_override'}}",
    "WARNING {ts} [serving_chat.py:125] Tool choice 'auto' requested without --enable-auto-tool-choice; ignoring tools.",
    "WARNING {ts} [scheduler.py:1057] Sequence group cmpl-{rid} is preempted by PreemptionMode.RECOMPUTE mode because "
    "there is not enough KV cache space. This can affect the end-to-end performance. Increase gpu_memory_utilization or "
    "tensor_parallel_size to provide more KV cache memory. total_num_cumulative_preemption={n}",
)

OOM_TAIL = """\
ERROR {ts} [core.py:588] EngineCore encountered a fatal error.
ERROR {ts} [core.py:588] Traceback (most recent call last):
ERROR {ts} [core.py:588]   File "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/core.py", line 579, in run_engine_core
ERROR {ts} [core.py:588]     engine_core.run_busy_loop()
ERROR {ts} [core.py:588]   File "/usr/local/lib/python3.12/dist-packages/vllm/v1/worker/gpu_model_runner.py", line 1430, in execute_model
ERROR {ts} [core.py:588]     model_output = self.model(
ERROR {ts} [core.py:588]   File "/usr/local/lib/python3.12/dist-packages/torch/nn/modules/module.py", line 1751, in _call_impl
ERROR {ts} [core.py:588]     return forward_call(*args, **kwargs)
ERROR {ts} [core.py:588]   File "/usr/local/lib/python3.12/dist-packages/vllm/model_executor/layers/activation.py", line 81, in forward_cuda
ERROR {ts} [core.py:588]     out = torch.empty(output_shape, dtype=x.dtype, device=x.device)
ERROR {ts} [core.py:588] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.15 GiB. GPU 0 has a total capacity of 79.19 GiB of which 812.44 MiB is free. Process 3581 has 78.38 GiB memory in use. Of the allocated memory 76.10 GiB is allocated by PyTorch, with 512.00 MiB allocated in private pools (e.g., CUDA Graphs), and 1.21 GiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)
INFO:     Shutting down
INFO:     Waiting for application shutdown.
INFO:     Application shutdown complete.
INFO:     Finished server process [1]
"""

PATHS = ("/v1/chat/completions",) * 8 + ("/v1/completions", "/v1/models", "/health", "/metrics")


def _ts(second: int) -> str:
    day, rest = divmod(second, 86400)
    h, rest = divmod(rest, 3600)
    m, s = divmod(rest, 60)
    return f"07-{8 + day:02d} {h:02d}:{m:02d}:{s:02d}"


def generate(path: Path, size_mb: int, seed: int = 20250708) -> tuple[int, int]:
    """Write the log; return (bytes, line number of the OOM message)."""
    rng = random.Random(seed)
    target = size_mb << 20
    ips = [f"10.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}" for _ in range(400)]
    statuses = ["200 OK"] * 97 + ["400 Bad Request", "404 Not Found", "499 Client Closed Request"]
    path.parent.mkdir(parents=True, exist_ok=True)
    written = 0
    lines = 0
    second = 13 * 3600 + 6 * 60
    with path.open("w", encoding="utf-8", newline="\n") as f:
        f.write(STARTUP)
        written += len(STARTUP)
        lines += STARTUP.count("\n")
        preempted = 0
        while written < target:
            block = []
            for _ in range(2000):
                r = rng.random()
                if r < 0.048:
                    second += rng.randrange(1, 3)
                    block.append(
                        f"INFO {_ts(second)} [loggers.py:116] Engine 000: Avg prompt throughput: {rng.uniform(50, 9000):.1f} "
                        f"tokens/s, Avg generation throughput: {rng.uniform(20, 2500):.1f} tokens/s, Running: "
                        f"{rng.randrange(0, 256)} reqs, Waiting: {rng.randrange(0, 40)} reqs, GPU KV cache usage: "
                        f"{rng.uniform(0, 99.9):.1f}%, Prefix cache hit rate: {rng.uniform(0, 80):.1f}%")
                elif r < 0.0495:
                    preempted += 1
                    tmpl = WARNINGS[rng.randrange(len(WARNINGS))]
                    block.append(tmpl.format(ts=_ts(second), rid=f"{rng.getrandbits(64):016x}", n=preempted))
                else:
                    path_ = PATHS[rng.randrange(len(PATHS))]
                    method = "GET" if path_ in ("/v1/models", "/health", "/metrics") else "POST"
                    block.append(f'INFO:     {ips[rng.randrange(len(ips))]}:{rng.randrange(30000, 65000)} - '
                                 f'"{method} {path_} HTTP/1.1" {statuses[rng.randrange(len(statuses))]}')
            text = "\n".join(block) + "\n"
            f.write(text)
            written += len(text)
            lines += len(block)
        tail = OOM_TAIL.format(ts=_ts(second + 1))
        oom_line = lines + 1 + next(i for i, line in enumerate(tail.splitlines()) if "OutOfMemoryError" in line)
        f.write(tail)
        written += len(tail)
    return written, oom_line


# ---------------------------------------------------------------------------- measuring

_WRAPPER = textwrap.dedent("""\
    import json, resource, subprocess, sys, time
    cmd = json.loads(sys.argv[1])
    t = time.perf_counter()
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wall = time.perf_counter() - t
    rss_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print(json.dumps({"wall": wall, "rc": done.returncode, "rss_kb": rss_kb,
                      "stdout": done.stdout.decode("utf-8", "replace")[-200000:],
                      "stderr": done.stderr.decode("utf-8", "replace")[-2000:]}))
""")


def _installed_env() -> dict[str, str]:
    """The environment of an installed package: its modules' bytecode cached, as `pip install`
    leaves it (a shell with PYTHONDONTWRITEBYTECODE=1 recompiles every module on every start).
    The cache goes under benchmarks/out, not beside the sources."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(OUT / "pycache")
    return env


def measure(cmd: list[str]) -> dict:
    """Run `cmd` as the only child of a small wrapper; its wall time and peak RSS."""
    out = subprocess.run([sys.executable, "-c", _WRAPPER, json.dumps(cmd)], capture_output=True, text=True, check=True,
                         env=_installed_env())
    return json.loads(out.stdout)


def best_of(cmd: list[str], runs: int) -> dict:
    results = [measure(cmd) for _ in range(runs)]
    walls = [r["wall"] for r in results]
    return {**results[-1], "wall": statistics.median(walls), "walls": walls, "rss_kb": max(r["rss_kb"] for r in results)}


def warm_page_cache(path: Path) -> None:
    with path.open("rb") as f:
        while f.read(16 << 20):
            pass


def oomdoctor_cmd() -> list[str]:
    script = Path(sys.executable).with_name("oomdoctor")
    return [str(script)] if script.exists() else [sys.executable, "-m", "oomdoctor"]


# ---------------------------------------------------------------------------- profiling

def profile(log: Path, small: Path) -> str:
    """Where the time goes: the slowest imports of a cold start and the top functions of a big run."""
    parts = []
    imp = subprocess.run([sys.executable, "-X", "importtime", "-m", "oomdoctor", "diagnose", "--log", str(small),
                          "--format", "json"], capture_output=True, text=True)
    rows = []
    for line in imp.stderr.splitlines():
        if line.startswith("import time:") and line.count("|") == 2:
            self_us, cum_us, name = line[len("import time:"):].split("|")
            if self_us.strip().isdigit():
                rows.append((int(cum_us), int(self_us), name.rstrip()[1:]))
    top = sorted(rows, reverse=True)[:16]
    parts.append("import time, cold start (cumulative ms / self ms / module):")
    parts += [f"  {c / 1000:7.1f} {s / 1000:7.1f}  {n}" for c, s, n in top]
    stats_path = OUT / "diagnose.prof"
    subprocess.run([sys.executable, "-m", "cProfile", "-o", str(stats_path), "-m", "oomdoctor", "diagnose", "--log",
                    str(log), "--format", "json"], capture_output=True)
    import io
    import pstats

    buf = io.StringIO()
    pstats.Stats(str(stats_path), stream=buf).sort_stats("tottime").print_stats(12)
    parts.append(f"cProfile of diagnose on {log.name} (top by own time):")
    keep = False
    for line in buf.getvalue().splitlines():
        if line.strip().startswith("ncalls"):
            keep = True
        if keep and line.strip():
            parts.append("  " + line.strip()[:150])
    return "\n".join(parts)


# ---------------------------------------------------------------------------- main

def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size-mb", type=int, default=320, help="size of the generated log (default 320)")
    ap.add_argument("--runs", type=int, default=3, help="timed runs per command (median; default 3)")
    ap.add_argument("--cold-runs", type=int, default=10, help="runs of the cold-start measurement (default 10)")
    ap.add_argument("--regenerate", action="store_true", help="write the log even if one of this size exists")
    ap.add_argument("--profile", action="store_true", help="also print -X importtime and cProfile summaries")
    args = ap.parse_args(argv)

    log = OUT / "serving.log"
    meta = OUT / "serving.meta.json"
    OUT.mkdir(parents=True, exist_ok=True)
    info = json.loads(meta.read_text()) if meta.exists() and log.exists() else {}
    if args.regenerate or info.get("size_mb") != args.size_mb or info.get("bytes") != (log.stat().st_size if log.exists() else -1):
        t = time.perf_counter()
        size, oom_line = generate(log, args.size_mb)
        info = {"size_mb": args.size_mb, "bytes": size, "oom_line": oom_line}
        meta.write_text(json.dumps(info))
        print(f"generated {log.relative_to(ROOT)} ({size / 1e6:.1f} MB) in {time.perf_counter() - t:.1f}s", file=sys.stderr)
    small = OUT / "small.log"
    shutil.copyfile(ROOT / "examples" / "vllm-kv-cache.log", small)

    warm_page_cache(log)
    measure([*oomdoctor_cmd(), "diagnose", "--log", str(small), "--format", "json"])  # writes the bytecode cache
    grep = shutil.which("grep") or "grep"
    rows: list[tuple[str, dict]] = []
    rows.append(("grep -c 'out of memory'", best_of([grep, "-c", "out of memory", str(log)], args.runs)))
    rows.append(("grep -c -E '<4 words>'", best_of([grep, "-c", "-E", GREP_WORDS, str(log)], args.runs)))
    doc = best_of([*oomdoctor_cmd(), "diagnose", "--log", str(log), "--format", "json"], args.runs)
    rows.append(("oomdoctor diagnose --format json", doc))
    cold = [measure([*oomdoctor_cmd(), "diagnose", "--log", str(small), "--format", "json"]) for _ in range(args.cold_runs)]
    cold_wall = statistics.median(r["wall"] for r in cold)

    # the diagnosis must still be right on the big log
    report = json.loads(doc["stdout"]) if doc["stdout"].strip() else {}
    src = (report.get("sources") or [{}])[0]
    correct = doc["rc"] == 1 and src.get("first_failure_line") == info["oom_line"] and report.get("memory_failure") is True
    facts = {f["key"]: f["value"] for f in report.get("facts", [])}
    stats_lines = facts.get("series.samples", 0)

    lines_total = src.get("lines")
    floor = rows[0][1]["wall"]
    words = rows[1][1]["wall"]
    print(f"\nlog: {log.relative_to(ROOT)}  {info['bytes'] / 1e6:.1f} MB, {lines_total:,} lines; "
          f"{os.cpu_count()} CPUs; median of {args.runs} runs, warm page cache")
    print(f"(<4 words> = '{GREP_WORDS}'; a forked child starts with the Python wrapper's ~12 MB, the RSS floor)")
    print(f"{'command':<58} {'wall s':>8} {'MB/s':>7} {'vs grep':>8} {'peak RSS MB':>12}")
    for name, r in rows:
        mbps = info["bytes"] / 1e6 / r["wall"]
        ratio = f"{r['wall'] / floor:.1f}x"
        print(f"{name:<58} {r['wall']:>8.2f} {mbps:>7.0f} {ratio:>8} {r['rss_kb'] / 1024:>12.1f}")
    print(f"{'cold start: diagnose small.log --format json (median of %d)' % args.cold_runs:<58} {cold_wall:>8.3f} "
          f"{'':>7} {'':>8} {max(r['rss_kb'] for r in cold) / 1024:>12.1f}")
    ratio_floor, ratio_words = doc["wall"] / floor, doc["wall"] / words
    checks = [
        (f"within {TARGET_STATS_RATIO:.0f}x of grep -c -E (words), stats lines read into the curve", ratio_words <= TARGET_STATS_RATIO,
         f"{ratio_words:.1f}x, {stats_lines:,} samples, KV peak {facts.get('series.kv_usage_peak')}"),
        (f"within {TARGET_RATIO:.0f}x of grep -c -E (words)", ratio_words <= TARGET_RATIO, f"{ratio_words:.1f}x"),
        (f"within {TARGET_RATIO:.0f}x of grep -c (one literal)", ratio_floor <= TARGET_RATIO, f"{ratio_floor:.1f}x"),
        (f"peak RSS under {TARGET_RSS_MB:.0f} MB", doc["rss_kb"] / 1024 < TARGET_RSS_MB, f"{doc['rss_kb'] / 1024:.1f} MB"),
        (f"cold start under {TARGET_COLD_S} s", cold_wall < TARGET_COLD_S, f"{cold_wall:.3f} s"),
        ("diagnosis found the OOM at the end", correct,
         f"exit {doc['rc']}, line {src.get('first_failure_line')} (expected {info['oom_line']}), culprit {report.get('culprit')}"),
    ]
    print("targets:")
    for name, ok, value in checks:
        print(f"  {'PASS' if ok else 'MISS'}  {name}: {value}")
    results = {
        "log_bytes": info["bytes"], "log_lines": lines_total, "cpus": os.cpu_count(),
        "commands": {name: {"wall_s": r["wall"], "walls_s": r["walls"], "peak_rss_mb": r["rss_kb"] / 1024} for name, r in rows},
        "cold_start_s": cold_wall, "cold_walls_s": [r["wall"] for r in cold],
        "targets": {name: {"ok": ok, "value": value} for name, ok, value in checks},
    }
    if args.profile:
        text = profile(log, small)
        print("\n" + text)
        results["profile"] = text
    (OUT / "results.json").write_text(json.dumps(results, indent=2))
    return 0 if all(ok for _, ok, _ in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
