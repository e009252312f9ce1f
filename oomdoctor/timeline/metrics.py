"""Serving engines' Prometheus metrics → the series' metric names.

One table (`GAUGES`, `COUNTERS`, `HISTOGRAMS`) serves both the recorder, which scrapes an
engine's `/metrics` (text exposition format, parsed here), and the Prometheus client, which asks
a Prometheus server for the same names by PromQL. Names, from each project's source/docs:
vLLM V0/V1 (`vllm:gpu_cache_usage_perc` renamed `vllm:kv_cache_usage_perc` in 0.9,
`vllm:num_requests_running|waiting|swapped`, `vllm:num_requests_waiting_by_reason{reason=
"capacity"}`, `vllm:num_preemptions_total`, `vllm:request_prompt_tokens` and
`vllm:request_generation_tokens` histograms, `vllm:cache_config_info`), SGLang
(`sglang:token_usage`, `sglang:num_running_reqs`, `sglang:num_queue_reqs`), TGI
(`tgi_queue_size`, `tgi_batch_current_size`, `tgi_request_input_length` histogram), the DCGM
exporter (`DCGM_FI_DEV_FB_USED`/`FREE`, MiB), cAdvisor and the process collector.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

# metric name -> (series metric, how several series combine: max | sum, scale)
GAUGES: dict[str, tuple[str, str, float]] = {
    "vllm:kv_cache_usage_perc": ("kv_usage", "max", 1.0),
    "vllm:gpu_cache_usage_perc": ("kv_usage", "max", 1.0),
    "vllm:num_requests_running": ("running", "sum", 1.0),
    "vllm:num_requests_waiting": ("waiting", "sum", 1.0),
    "vllm:num_requests_swapped": ("swapped", "sum", 1.0),
    "vllm:cpu_cache_usage_perc": ("swap_usage", "max", 1.0),
    "sglang:token_usage": ("kv_usage", "max", 1.0),
    "sglang:num_running_reqs": ("running", "sum", 1.0),
    "sglang:num_queue_reqs": ("waiting", "sum", 1.0),
    "sglang:num_used_tokens": ("kv_tokens_used", "sum", 1.0),
    "sglang:gen_throughput": ("gen_throughput", "sum", 1.0),
    "tgi_queue_size": ("waiting", "sum", 1.0),
    "tgi_batch_current_size": ("running", "sum", 1.0),
    "DCGM_FI_DEV_FB_USED": ("gpu_used_bytes", "max", float(1 << 20)),
    "container_memory_working_set_bytes": ("cgroup_bytes", "max", 1.0),
    "process_resident_memory_bytes": ("rss_bytes", "sum", 1.0),
}
# waiting because the KV cache is full (vLLM V1 >= 0.11): a label selects it
WAITING_CAPACITY = ("vllm:num_requests_waiting_by_reason", {"reason": "capacity"}, "waiting_capacity")
COUNTERS: dict[str, str] = {
    "vllm:num_preemptions_total": "preemptions_total",
    "vllm:num_preemptions": "preemptions_total",
}
HISTOGRAMS: dict[str, str] = {
    "vllm:request_prompt_tokens": "prompt_tokens",
    "vllm:request_generation_tokens": "generation_tokens",
    "tgi_request_input_length": "prompt_tokens",
    "tgi_request_generated_tokens": "generation_tokens",
    "sglang:prompt_tokens_histogram": "prompt_tokens",
}
FRAMEWORK_PREFIX = (("vllm:", "vllm"), ("sglang:", "sglang"), ("tgi_", "tgi"))

_LINE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[^"}]|"(?:[^"\\]|\\.)*")*\})?\s+(\S+)')
_LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)\s*=\s*"((?:[^"\\]|\\.)*)"')


def parse_labels(text: str) -> dict[str, str]:
    return {k: v.replace('\\"', '"').replace("\\n", "\n").replace("\\\\", "\\") for k, v in _LABEL.findall(text or "")}


def parse_text(text: str) -> list[tuple[str, dict[str, str], float]]:
    """The samples of a Prometheus text exposition (or OpenMetrics) page: (name, labels, value)."""
    out = []
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        m = _LINE.match(line)
        if not m:
            continue
        try:
            value = float(m.group(3))
        except ValueError:
            continue
        out.append((m.group(1), parse_labels(m.group(2) or ""), value))
    return out


@dataclass
class Scrape:
    """One engine's /metrics page, in the series' terms."""

    values: dict[str, float] = field(default_factory=dict)
    hist: dict[str, list[tuple[float, float]]] = field(default_factory=dict)  # cumulative (le, count), sorted
    static: dict[str, float | str] = field(default_factory=dict)
    framework: str | None = None


def from_samples(samples: list[tuple[str, dict[str, str], float]]) -> Scrape:
    out = Scrape()
    parts: dict[str, list[float]] = {}
    how: dict[str, tuple[str, float]] = {}
    hist: dict[str, dict[float, float]] = {}
    for name, labels, value in samples:
        if math.isnan(value):
            continue
        for prefix, fw in FRAMEWORK_PREFIX:
            if name.startswith(prefix) and out.framework is None:
                out.framework = fw
        if name in GAUGES:
            metric, agg, scale = GAUGES[name]
            parts.setdefault(metric, []).append(value * scale)
            how[metric] = (agg, 1.0)
        elif name == WAITING_CAPACITY[0] and all(labels.get(k) == v for k, v in WAITING_CAPACITY[1].items()):
            parts.setdefault(WAITING_CAPACITY[2], []).append(value)
            how[WAITING_CAPACITY[2]] = ("sum", 1.0)
        elif name in COUNTERS:
            parts.setdefault(COUNTERS[name], []).append(value)
            how[COUNTERS[name]] = ("sum", 1.0)
        elif name.endswith("_bucket") and name[:-7] in HISTOGRAMS and "le" in labels:
            le = float("inf") if labels["le"] in ("+Inf", "Inf") else float(labels["le"])
            h = hist.setdefault(HISTOGRAMS[name[:-7]], {})
            h[le] = h.get(le, 0.0) + value
        elif name == "vllm:cache_config_info":
            blocks, size = labels.get("num_gpu_blocks"), labels.get("block_size")
            if blocks and blocks.isdigit():
                out.static["gpu_blocks"] = int(blocks)
                if size and size.isdigit():
                    out.static["block_size"] = int(size)
                    out.static["kv_tokens"] = int(blocks) * int(size)
            util = labels.get("gpu_memory_utilization")
            if util:
                try:
                    out.static["gpu_memory_utilization"] = float(util)
                except ValueError:
                    pass
            dtype = labels.get("cache_dtype")
            if dtype:
                out.static["kv_cache_dtype"] = dtype
        elif name == "DCGM_FI_DEV_FB_FREE":
            parts.setdefault("_fb_free", []).append(value * (1 << 20))
            how["_fb_free"] = ("max", 1.0)
    for metric, values in parts.items():
        agg = how[metric][0]
        out.values[metric] = max(values) if agg == "max" else sum(values)
    free = out.values.pop("_fb_free", None)
    if free is not None and "gpu_used_bytes" in out.values:
        out.static["gpu_total_bytes"] = int(out.values["gpu_used_bytes"] + free)
    for metric, buckets in hist.items():
        out.hist[metric] = sorted(buckets.items())
    return out


def hist_delta(first: list[tuple[float, float]] | None, last: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Observations between two cumulative histograms (a counter reset: the last alone)."""
    before = dict(first or [])
    delta = [(le, count - before.get(le, 0.0)) for le, count in last]
    if any(c < 0 for _, c in delta):
        return list(last)
    return delta


def hist_values(cumulative: list[tuple[float, float]]) -> list[tuple[float, int]]:
    """(value, count) per bucket from cumulative (le, count) pairs: each bucket's observations at
    its upper bound (the +Inf bucket at the previous bound), the same reading histogram_quantile
    gives at the bucket edges."""
    out = []
    prev_le, prev = 0.0, 0.0
    for le, count in cumulative:
        n = count - prev
        if n > 0:
            out.append((prev_le if math.isinf(le) else le, int(round(n))))
        prev_le, prev = (le if not math.isinf(le) else prev_le), count
    return out
