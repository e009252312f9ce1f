"""Periodic stats lines of each framework -> samples in the log's series (table-driven)."""

from __future__ import annotations

from pathlib import Path

import pytest

from oomdoctor.diagnose import DiagnoseOptions, diagnose
from oomdoctor.parsers.scan import read_text_stream

CASES = [
    ("vllm-v1-gpu",
     "INFO 07-08 13:06:01 [loggers.py:116] Engine 000: Avg prompt throughput: 2204.4 tokens/s, Avg generation throughput: 1100.0 "
     "tokens/s, Running: 4 reqs, Waiting: 11 reqs, GPU KV cache usage: 7.6%, Prefix cache hit rate: 70.3%",
     {"running": 4, "waiting": 11, "kv_usage": 0.076}),
    ("vllm-v1-cpu",
     "(APIServer pid=2211) INFO 12-01 10:01:30 [loggers.py:127] Engine 000: Avg prompt throughput: 0.0 tokens/s, Avg generation "
     "throughput: 9.9 tokens/s, Running: 12 reqs, Waiting: 12 reqs, CPU KV cache usage: 100.0%, Prefix cache hit rate: 0.0%",
     {"running": 12, "waiting": 12, "kv_usage": 1.0}),
    ("vllm-v0",
     "INFO 03-10 09:30:15 metrics.py:351] Avg prompt throughput: 2060.0 tokens/s, Avg generation throughput: 2530.0 tokens/s, "
     "Running: 198 reqs, Swapped: 3 reqs, Pending: 4 reqs, GPU KV cache usage: 95.6%, CPU KV cache usage: 1.5%.",
     {"running": 198, "swapped": 3, "waiting": 4, "kv_usage": 0.956, "swap_usage": 0.015}),
    ("vllm-v0-preempted",
     "WARNING 03-10 09:30:17 scheduler.py:1481] Sequence group cmpl-5a3f83-0 is preempted by PreemptionMode.RECOMPUTE mode because "
     "there is not enough KV cache space. This can affect the end-to-end performance. Increase gpu_memory_utilization or "
     "tensor_parallel_size to provide more KV cache memory. total_num_cumulative_preemption=9",
     {"preemptions_total": 9}),
    ("sglang-decode",
     "[2025-11-20 14:20:30 TP0] Decode batch. #running-req: 101, #token: 117874, token usage: 0.97, cuda graph: True, "
     "gen throughput (token/s): 3270.00, #queue-req: 37,",
     {"running": 101, "kv_tokens_used": 117874, "kv_usage": 0.97, "gen_throughput": 3270.0, "waiting": 37}),
    ("sglang-prefill",
     "[2025-11-20 14:20:31 TP0] Prefill batch. #new-seq: 1, #new-token: 1024, #cached-token: 0, token usage: 0.01, #running-req: 0, "
     "#queue-req: 0",
     {"kv_usage": 0.01, "running": 0, "waiting": 0}),
    ("tgi-batch", "2024-07-08T13:05:31.123456Z  INFO batch{batch_size=4}:decode:decode{size=4}: text_generation_client: router/client/src/lib.rs:33",
     {"running": 4}),
    ("tgi-request",
     '2024-07-08T13:05:31.5Z  INFO generate{parameters=GenerateParameters { max_new_tokens: Some(20) } total_time="1.52s" '
     'validation_time="212µs" queue_time="80.1ms" inference_time="1.44s" time_per_token="72ms" seed="None"}: '
     "text_generation_router::server: router/src/server.rs:305: Success",
     {"request_seconds": 1.52}),
    ("torch-summary-reserved", "| Reserved memory       |   16400 MiB |   17500 MiB |   17500 MiB |    1100 MiB |",
     {"torch_reserved_bytes": 16400 << 20}),
    ("ollama-gin", '[GIN] 2024/07/08 - 13:05:31 | 200 |  1.234567s |       127.0.0.1 | POST     "/api/chat"', {"request_seconds": 1.234567}),
]


@pytest.mark.parametrize("name,line,expected", CASES, ids=[c[0] for c in CASES])
def test_stats_line_gives_sample(name: str, line: str, expected: dict[str, float]) -> None:
    result = read_text_stream((line + "\n").encode())
    series = result.series
    assert series is not None and series.samples == 1, name
    got = {k: c.last for k, c in series.curves.items()}
    for key, value in expected.items():
        assert got.get(key) == pytest.approx(value), (name, key, got)


def test_events_and_lengths() -> None:
    lines = [
        "slot update_slots: id  0 | task 0 | new prompt, n_ctx_slot = 4096, n_keep = 0, n_prompt_tokens = 3900",
        "slot update_slots: id  1 | task 3 | new prompt, n_ctx_slot = 4096, n_keep = 0, task.n_tokens = 120",
        "slot update_slots: id  0 | task 0 | slot context shift, n_keep = 1, n_left = 4094, n_discard = 2047",
        "slot      release: id  0 | task 0 | stop processing: n_past = 4095, truncated = 1",
        "srv    send_error: task id = 9, error: request (5000 tokens) exceeds the available context size (4096 tokens), try increasing it",
        'time=2025-01-01T10:00:00.000Z level=WARN source=runner.go:130 msg="truncating input prompt" limit=2048 prompt=4100 keep=4 new=2048',
        '[2025-11-20 14:20:30 TP0] KV cache pool is full. Retract requests. #retracted_reqs: 2, #new_token_ratio: 0.4215 -> 0.7000',
        'time=2025-01-01T10:00:03.000Z level=INFO source=server.go:630 msg="llama runner started in 3.02 seconds"',
    ]
    series = read_text_stream(("\n".join(lines) + "\n").encode()).series
    assert series is not None
    assert series.events == {"context_shift": 1.0, "truncated": 2.0, "over_context": 1.0, "retracted": 2.0, "model_load": 1.0}
    prompts = series.lengths["prompt_tokens"]
    assert prompts.count == 4 and prompts.max == 5000
    assert series.static["slot_ctx"] == 4096


def test_each_preemption_warning_counts_once_beside_the_cumulative_count(tmp_path: Path) -> None:
    # holdout r54: one warning whose cumulative count (printed since the server started) has no earlier value
    # to rise from: the warning itself is a preemption, and the log reads as KV pressure without a failure
    line = ("WARNING 03-10 09:30:17 scheduler.py:1481] Sequence group 221 is preempted by PreemptionMode.RECOMPUTE mode because "
            "there is not enough KV cache space. This can affect the end-to-end performance. Increase gpu_memory_utilization or "
            "tensor_parallel_size to provide more KV cache memory. total_num_cumulative_preemption=101\n")
    series = read_text_stream(line.encode()).series
    assert series is not None and series.preemptions() == 1
    log = tmp_path / "server.log"
    log.write_text(line)
    report = diagnose(DiagnoseOptions(logs=[str(log)]))
    assert report.culprit.value == "unknown"
    assert [p.account for p in report.pressure] == ["kv_cache"]
    assert report.findings[0].rule_id == "kv-preempted-without-failure"


def test_a_stats_line_is_not_a_fact_and_not_a_failure() -> None:
    result = read_text_stream(b"INFO 07-08 13:06:01 [loggers.py:116] Engine 000: Avg prompt throughput: 0.0 tokens/s, Avg generation "
                              b"throughput: 0.0 tokens/s, Running: 0 reqs, Waiting: 0 reqs, GPU KV cache usage: 0.0%, Prefix cache hit rate: 0.0%\n")
    assert result.first_failure_line is None
    assert not [f for f in result.facts if f.key.startswith(("oom.", "series."))]


@pytest.mark.parametrize("text,expected", [
    ("INFO 07-08 13:05:31 [loggers.py:116] Engine", 963061531.0),
    ("[2024-07-08 13:05:31 TP0] Decode batch.", 1720443931.0),
    ("2024-07-08T13:05:31.5Z  INFO batch", 1720443931.5),
    ('[GIN] 2024/07/08 - 13:05:31 | 200 |', 1720443931.0),
    ("Jul  8 13:05:31 host kernel: Out of memory", 963061531.0),
    ("no stamp here", None),
])
def test_seconds_per_framework(text: str, expected: float | None) -> None:
    from oomdoctor.parsers.base import seconds

    assert seconds(text) == expected


@pytest.mark.parametrize("filler", [" ", " |", "9", "a", "|9 ", "\"", "Avg prompt throughput: 1"])
def test_stats_patterns_are_linear_on_long_lines(filler: str) -> None:
    """A 250 KB line of one character class after each anchor: no pattern backtracks quadratically
    (the scanner reads long lines in 8 KiB windows, but their joins and the head can be long)."""
    import time

    from oomdoctor.parsers import stats

    body = filler * (250_000 // len(filler))
    for pattern in stats.PATTERNS:
        for anchor in pattern.anchors:
            text = body + anchor + body
            t = time.perf_counter()
            pattern.regex.search(text)
            assert time.perf_counter() - t < 1.0, (pattern.name, repr(filler))
