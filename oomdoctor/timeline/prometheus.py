"""`diagnose --prometheus URL`: the metrics a fleet already keeps, read by PromQL range queries.

The client is the standard library's (urllib: TLS verification, proxies from the environment,
timeouts); the HTTP API is two GET endpoints, so a third-party client would add a dependency and
import time for nothing. Authentication comes from the environment, never from the command line:

    OOMDOCTOR_PROMETHEUS_TOKEN       bearer token (Authorization: Bearer ...)
    OOMDOCTOR_PROMETHEUS_TOKEN_FILE  a file holding it (a Kubernetes service-account token)
    OOMDOCTOR_PROMETHEUS_HEADERS     extra headers, "Name: value" separated by newlines or ';'
    OOMDOCTOR_PROMETHEUS_USER / _PASSWORD  basic auth

A Prometheus that cannot be reached, refuses the token or rejects a query is one `InputError`
line (exit 2). Metrics that do not exist are simply absent from the curve.
"""

from __future__ import annotations

import base64
import json
import math
import os
import re
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Mapping
from urllib.error import HTTPError, URLError
from urllib.parse import urlencode
from urllib.request import Request, urlopen

from oomdoctor.errors import InputError, UsageError
from oomdoctor.facts import Evidence, Fact, Origin
from oomdoctor.parsers.scan import ScanResult
from oomdoctor.timeline.metrics import COUNTERS, GAUGES, HISTOGRAMS, WAITING_CAPACITY
from oomdoctor.timeline.series import Lengths, SeriesSet

MAX_POINTS = 1000  # steps per range query (Prometheus allows 11,000)


@dataclass(frozen=True)
class PromRange:
    url: str  # http://prometheus:9090 (the API lives under /api/v1)
    selector: str = ""  # {pod="vllm-0"}
    start: float = 0.0
    end: float = 0.0
    step_s: float | None = None
    timeout_s: float = 15.0


def auth_headers(env: Mapping[str, str]) -> dict[str, str]:
    headers: dict[str, str] = {}
    token = env.get("OOMDOCTOR_PROMETHEUS_TOKEN")
    token_file = env.get("OOMDOCTOR_PROMETHEUS_TOKEN_FILE")
    if not token and token_file:
        try:
            token = open(token_file, encoding="utf-8").read().strip()
        except OSError as exc:
            raise InputError(f"cannot read OOMDOCTOR_PROMETHEUS_TOKEN_FILE {token_file}: {exc.strerror or exc}") from None
    if token:
        headers["Authorization"] = f"Bearer {token}"
    user = env.get("OOMDOCTOR_PROMETHEUS_USER")
    if user and "Authorization" not in headers:
        pair = f"{user}:{env.get('OOMDOCTOR_PROMETHEUS_PASSWORD', '')}".encode()
        headers["Authorization"] = "Basic " + base64.b64encode(pair).decode()
    for item in re.split(r"[\n;]", env.get("OOMDOCTOR_PROMETHEUS_HEADERS", "")):
        name, sep, value = item.partition(":")
        if sep and name.strip():
            headers[name.strip()] = value.strip()
    return headers


def parse_time(text: str, now: float | None = None) -> float:
    """RFC 3339 ('2026-12-01T12:00:00Z'), a Unix time, or 'now'."""
    t = text.strip()
    if t == "now":
        return now if now is not None else time.time()
    try:
        return float(t)
    except ValueError:
        pass
    try:
        dt = datetime.fromisoformat(t.replace("Z", "+00:00"))
    except ValueError:
        raise UsageError(f"bad time {text!r} (use RFC 3339 like 2026-12-01T12:00:00Z, or a Unix time)") from None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    return dt.timestamp()


def with_selector(name: str, selector: str, extra: str = "") -> str:
    """`name{selector's matchers,extra}`."""
    inner = selector.strip()
    if inner:
        if not (inner.startswith("{") and inner.endswith("}")):
            raise UsageError(f"--selector must be a PromQL label selector like '{{pod=\"vllm-0\"}}', got {selector!r}")
        inner = inner[1:-1].strip()
    parts = [p for p in (inner, extra) if p]
    return f"{name}{{{','.join(parts)}}}" if parts else name


class PromClient:
    def __init__(self, url: str, headers: Mapping[str, str] | None = None, timeout_s: float = 15.0) -> None:
        if not re.match(r"https?://", url):
            raise UsageError(f"--prometheus needs an http(s) URL, got {url!r}")
        self.url = url.rstrip("/")
        self.headers = dict(headers or {})
        self.timeout_s = timeout_s

    def _get(self, path: str, params: dict[str, Any]) -> Any:
        req = Request(f"{self.url}{path}?{urlencode(params)}", headers={"Accept": "application/json", **self.headers})
        try:
            with urlopen(req, timeout=self.timeout_s) as resp:  # noqa: S310 - the user's own URL
                body = resp.read()
        except HTTPError as exc:
            detail = _api_error(exc.read() if exc.fp else b"")
            if exc.code in (401, 403):
                raise InputError(f"Prometheus at {self.url} refused the query (HTTP {exc.code}); set OOMDOCTOR_PROMETHEUS_TOKEN "
                                 "or OOMDOCTOR_PROMETHEUS_HEADERS") from None
            raise InputError(f"Prometheus at {self.url} answered HTTP {exc.code}{': ' + detail if detail else ''}") from None
        except (URLError, OSError, TimeoutError) as exc:
            reason = getattr(exc, "reason", exc)
            raise InputError(f"cannot reach Prometheus at {self.url}: {str(reason).strip() or type(reason).__name__}") from None
        try:
            data = json.loads(body)
        except ValueError:
            raise InputError(f"{self.url} did not answer like a Prometheus API (not JSON)") from None
        if not isinstance(data, dict) or data.get("status") != "success":
            raise InputError(f"Prometheus at {self.url} rejected the query: {data.get('error') if isinstance(data, dict) else data}")
        return data.get("data") or {}

    def query_range(self, promql: str, start: float, end: float, step: float) -> list[tuple[dict[str, str], list[tuple[float, float]]]]:
        data = self._get("/api/v1/query_range", {"query": promql, "start": f"{start:.3f}", "end": f"{end:.3f}", "step": f"{step:g}s"})
        out = []
        for item in data.get("result") or ():
            values = [(float(t), float(v)) for t, v in item.get("values") or () if _finite(v)]
            out.append((item.get("metric") or {}, values))
        return out

    def query(self, promql: str, at: float) -> list[tuple[dict[str, str], float]]:
        data = self._get("/api/v1/query", {"query": promql, "time": f"{at:.3f}"})
        out = []
        for item in data.get("result") or ():
            value = item.get("value") or [None, "NaN"]
            if _finite(value[1]):
                out.append((item.get("metric") or {}, float(value[1])))
        return out


def _finite(v: Any) -> bool:
    try:
        return math.isfinite(float(v))
    except (TypeError, ValueError):
        return False


def _api_error(body: bytes) -> str:
    try:
        return str(json.loads(body).get("error", ""))[:200]
    except (ValueError, AttributeError):
        return body.decode("utf-8", "replace").strip()[:200]


def _gauge_queries(selector: str) -> list[tuple[str, str]]:
    by_metric: dict[str, list[str]] = {}
    for name, (metric, agg, scale) in GAUGES.items():
        q = f"{agg}({with_selector(name, selector)})"
        by_metric.setdefault(metric, []).append(q if scale == 1.0 else f"{q} * {int(scale)}")
    out = [(metric, " or ".join(f"({q})" for q in qs)) for metric, qs in by_metric.items()]
    name, labels, metric = WAITING_CAPACITY
    extra = ",".join(f'{k}="{v}"' for k, v in labels.items())
    out.append((metric, f"sum({with_selector(name, selector, extra)})"))
    counters = " or ".join(f"(sum({with_selector(n, selector)}))" for n in COUNTERS)
    out.append(("preemptions_total", counters))
    return out


def read_prometheus(rng: PromRange, env: Mapping[str, str] | None = None) -> ScanResult:
    """The curve of [start, end] as a ScanResult (series, framework, facts such as OOMKilled)."""
    env = os.environ if env is None else env
    client = PromClient(rng.url, auth_headers(env), rng.timeout_s)
    if rng.end <= rng.start:
        raise UsageError("the Prometheus range is empty: --start must be before --end")
    step = rng.step_s or max(1.0, math.ceil((rng.end - rng.start) / MAX_POINTS))
    source = f"prometheus {client.url}"
    series = SeriesSet(source)
    rows: dict[float, dict[str, float]] = {}
    scores: dict[str, int] = {}
    for metric, promql in _gauge_queries(rng.selector):
        for _labels, values in client.query_range(promql, rng.start, rng.end, step)[:1]:
            for t, v in values:
                rows.setdefault(t, {})[metric] = v
    for t in sorted(rows):
        row = rows[t]
        text = f"{_iso(t)} {source}: " + " ".join(f"{k}={v:g}" for k, v in sorted(row.items()))
        series.add(list(row.items()), (source, None, text, t))
    window = f"{max(1, int(rng.end - rng.start))}s"
    for name, metric in HISTOGRAMS.items():
        bucket = with_selector(f"{name}_bucket", rng.selector)
        count = client.query(f"sum(increase({with_selector(name + '_count', rng.selector)}[{window}]))", rng.end)
        if not count or count[0][1] <= 0:
            continue
        p99 = client.query(f"histogram_quantile(0.99, sum by (le) (increase({bucket}[{window}])))", rng.end)
        total = client.query(f"sum(increase({with_selector(name + '_sum', rng.selector)}[{window}]))", rng.end)
        lengths = series.lengths.setdefault(metric, Lengths())
        lengths.external["count"] = count[0][1]
        if p99:
            lengths.external["p99"] = p99[0][1]
        if total:
            lengths.external["mean"] = total[0][1] / count[0][1]
        lengths.n = max(lengths.n, int(count[0][1]))
        lengths.max = max(lengths.max, p99[0][1] if p99 else 0.0)
        _score(scores, name)
    for labels, _v in client.query(with_selector("vllm:cache_config_info", rng.selector), rng.end)[:1]:
        blocks, size = labels.get("num_gpu_blocks", ""), labels.get("block_size", "")
        if blocks.isdigit() and size.isdigit():
            series.static.update({"gpu_blocks": int(blocks), "block_size": int(size), "kv_tokens": int(blocks) * int(size)})
        if labels.get("gpu_memory_utilization"):
            series.static["gpu_memory_utilization"] = labels["gpu_memory_utilization"]
        if labels.get("cache_dtype"):
            series.static["kv_cache_dtype"] = labels["cache_dtype"]
        scores["vllm"] = scores.get("vllm", 0) + 20
    for name, fw in (("vllm:num_requests_running", "vllm"), ("sglang:num_running_reqs", "sglang"), ("tgi_queue_size", "tgi")):
        if client.query(f"count({with_selector(name, rng.selector)})", rng.end):
            scores[fw] = scores.get(fw, 0) + 20
    facts = _terminations(client, rng, source)
    return ScanResult(path=source, label=source, facts=facts, framework_scores=scores, lines=0, first_failure_line=None,
                      first_failure_text=None, phase=None, warnings=[], series=series.finish())


def _score(scores: dict[str, int], name: str) -> None:
    for prefix, fw in (("vllm:", "vllm"), ("sglang:", "sglang"), ("tgi_", "tgi")):
        if name.startswith(prefix):
            scores[fw] = scores.get(fw, 0) + 10


def _terminations(client: PromClient, rng: PromRange, source: str) -> list[Fact]:
    """kube-state-metrics: the container's last termination was OOMKilled."""
    q = with_selector("kube_pod_container_status_last_terminated_reason", rng.selector, 'reason="OOMKilled"')
    hits = [(labels, v) for labels, v in client.query(f"max_over_time({q}[{max(1, int(rng.end - rng.start))}s])", rng.end) if v >= 1]
    if not hits:
        return []
    labels = hits[0][0]
    who = "/".join(x for x in (labels.get("namespace"), labels.get("pod"), labels.get("container")) if x)
    ev = Evidence(source, None, f"kube_pod_container_status_last_terminated_reason{{reason=\"OOMKilled\"}} = 1 ({who})")
    return [Fact("oom.kind", "exit_137", Origin.PROBE, ev), Fact("oom.hint", "container", Origin.PROBE, ev),
            Fact("oom.exit_signal", "OOMKilled", Origin.PROBE, ev)]


def _iso(t: float) -> str:
    return datetime.fromtimestamp(t, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
