"""Fixtures for the timeline tests; the helpers live in timeline_support.py (importable by name)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Iterator

import pytest

from timeline_support import Exporter, PrometheusServer, _grouped, openmetrics_saturated


@pytest.fixture
def exporter() -> Iterator[Exporter]:
    e = Exporter()
    try:
        yield e
    finally:
        e.close()


@pytest.fixture(scope="module")
def backfilled_prometheus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[PrometheusServer, float, float]]:
    """A Prometheus holding 15 minutes of a saturated vLLM pod (vllm-0) and an OOMKilled one
    (vllm-1), backfilled the way operators do, ending 20 minutes ago."""
    tmp = tmp_path_factory.mktemp("prom-backfill")
    start = float(int(time.time()) - 35 * 60)
    om = openmetrics_saturated(start) + ""
    om = om.replace("# EOF\n", "") + openmetrics_saturated(start, pod="vllm-1", oomkilled="vllm-1").replace(
        "# TYPE vllm:kv_cache_usage_perc gauge\n", "").replace("# TYPE vllm:num_requests_running gauge\n", "").replace(
        "# TYPE vllm:num_requests_waiting gauge\n", "").replace("# TYPE vllm:num_preemptions counter\n", "").replace(
        "# TYPE vllm:request_prompt_tokens histogram\n", "")
    server = PrometheusServer(tmp, _grouped(om), scrape=None)
    try:
        yield server, start, start + 60 * 15
    finally:
        server.close()


@pytest.fixture
def scraping_prometheus(tmp_path: Path, exporter: Exporter) -> Iterator[tuple[PrometheusServer, Exporter]]:
    server = PrometheusServer(tmp_path, None, scrape=f"127.0.0.1:{exporter.port}")
    try:
        yield server, exporter
    finally:
        server.close()
