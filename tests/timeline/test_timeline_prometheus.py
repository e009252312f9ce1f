"""`diagnose --prometheus` against a real Prometheus server (Debian's `prometheus` package): series
backfilled the way operators do it (`promtool tsdb create-blocks-from openmetrics`), a live
exporter it scrapes, a token-checking proxy in front of it, and none at all."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import urlencode
from urllib.request import Request, urlopen

import pytest

ROOT = Path(__file__).resolve().parents[2]


def oomdoctor(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("OOMDOCTOR_PROMETHEUS")}
    return subprocess.run([sys.executable, "-m", "oomdoctor", *args], capture_output=True, text=True, cwd=ROOT, timeout=180,
                          env={**clean, **(env or {})})


def iso(t: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def diagnose_range(server, selector: str, start: float, end: float) -> subprocess.CompletedProcess[str]:  # type: ignore[no-untyped-def]
    """`oomdoctor diagnose` over one selector's series in [start, end], as JSON."""
    return oomdoctor("diagnose", "--prometheus", server.url, "--selector", selector, "--start", iso(start), "--end", iso(end),
                     "--format", "json")


def test_backfilled_saturation_is_kv_pressure(backfilled_prometheus) -> None:  # type: ignore[no-untyped-def]
    server, start, end = backfilled_prometheus
    done = diagnose_range(server, '{pod="vllm-0"}', start, end)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["framework"] == "vllm"
    assert report["memory_failure"] is False and report["culprit"] == "unknown"
    [pressure] = report["pressure"]
    assert pressure["account"] == "kv_cache" and pressure["signal"] == "kv_usage" and pressure["peak"] == 1.0
    assert pressure["since"] < pressure["until"] and pressure["samples"] >= 300  # 1 s steps over the saturated part
    facts = {f["key"]: f["value"] for f in report["facts"]}
    assert facts["series.waiting_at_saturation"] == 12 and facts["series.preemptions"] >= 30
    assert facts["series.prompt_tokens_p99"] == pytest.approx(1900, abs=2)  # histogram_quantile: 90% <= 1000, all <= 2000
    assert facts["series.prompt_tokens_mean"] == 700
    assert report["sources"][0]["path"] == f"prometheus {server.url}"
    assert report["suggestions"][0]["knob"] == "max_num_seqs"


def test_backfilled_oomkilled_pod_is_host_memory(backfilled_prometheus) -> None:  # type: ignore[no-untyped-def]
    server, start, end = backfilled_prometheus
    done = diagnose_range(server, '{pod="vllm-1"}', start, end)
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert report["culprit"] == "host_memory"
    assert report["pressure"] == [] or report["pressure"][0]["account"] != "kv_cache"
    evidence = report["findings"][0]["evidence"]
    assert any("OOMKilled" in e["text"] and "llm/vllm-1/vllm" in e["text"] for e in evidence)


def test_a_selector_that_matches_nothing_has_no_curve(backfilled_prometheus) -> None:  # type: ignore[no-untyped-def]
    server, start, end = backfilled_prometheus
    done = diagnose_range(server, '{pod="nope"}', start, end)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["pressure"] == [] and not any(f["key"].startswith("series.") for f in report["facts"])


def test_bad_promql_is_one_line(backfilled_prometheus) -> None:  # type: ignore[no-untyped-def]
    server, start, end = backfilled_prometheus
    done = oomdoctor("diagnose", "--prometheus", server.url, "--selector", '{pod=~"("}', "--since", "10m")
    assert done.returncode == 2 and "Prometheus at" in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr


@pytest.fixture
def token_proxy(backfilled_prometheus) -> Iterator[str]:  # type: ignore[no-untyped-def]
    """A reverse proxy that wants `Authorization: Bearer t0ken` in front of the real Prometheus."""
    server = backfilled_prometheus[0]

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            if self.headers.get("Authorization") != "Bearer t0ken" or self.headers.get("X-Scope-OrgID") != "team-a":
                self.send_response(401)
                self.end_headers()
                self.wfile.write(b"Unauthorized")
                return
            with urlopen(Request(server.url + self.path), timeout=30) as r:
                body = r.read()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    from timeline_support import free_port

    port = free_port()
    httpd = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_token_and_headers_from_the_environment(token_proxy: str, backfilled_prometheus, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    _, start, end = backfilled_prometheus
    args = ["diagnose", "--prometheus", token_proxy, "--selector", '{pod="vllm-0"}', "--start", iso(start), "--end", iso(end),
            "--format", "json"]
    refused = oomdoctor(*args)
    assert refused.returncode == 2 and "refused the query (HTTP 401)" in refused.stderr, refused.stderr
    token = tmp_path / "token"
    token.write_text("t0ken\n")
    ok = oomdoctor(*args, env={"OOMDOCTOR_PROMETHEUS_TOKEN_FILE": str(token), "OOMDOCTOR_PROMETHEUS_HEADERS": "X-Scope-OrgID: team-a"})
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["pressure"][0]["account"] == "kv_cache"
    assert "t0ken" not in ok.stdout + ok.stderr


def test_live_exporter_scraped_by_prometheus(scraping_prometheus) -> None:  # type: ignore[no-untyped-def]
    server, exporter = scraping_prometheus
    exporter.set(kv=1.0, running=12.0, waiting=12.0, capacity=12.0, preemptions=3.0)
    deadline = time.time() + 90
    seen = 0
    while time.time() < deadline:
        q = 'count_over_time(vllm:kv_cache_usage_perc{pod="vllm-live"}[2m])'
        with urlopen(f"{server.url}/api/v1/query?{urlencode({'query': q})}", timeout=5) as r:
            result = json.loads(r.read())["data"]["result"]
        seen = int(float(result[0]["value"][1])) if result else 0
        if seen >= 6:
            break
        time.sleep(0.5)
    assert seen >= 6, "Prometheus did not scrape the exporter"
    done = oomdoctor("diagnose", "--prometheus", server.url, "--selector", '{pod="vllm-live"}', "--since", "2m", "--format", "json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["framework"] == "vllm"
    assert [p["account"] for p in report["pressure"]] == ["kv_cache"]
    facts = {f["key"]: f["value"] for f in report["facts"]}
    assert facts["mem.kv_tokens"] == 15360 and facts["series.waiting_at_saturation"] == 12
