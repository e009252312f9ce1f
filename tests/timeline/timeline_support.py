"""Helpers for the timeline tests (conftest.py makes fixtures of them): a live metrics exporter (a real HTTP server on loopback that
serves a vLLM /metrics page whose values the test sets), and a real Prometheus server (Debian's
`prometheus` package, installed by .ci/run) with backfilled series and a scrape of the exporter.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Iterator

import pytest

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Exporter:
    """A vLLM-like /metrics page. `set(...)` changes what the next scrape sees."""

    def __init__(self) -> None:
        self.values: dict[str, float] = {"kv": 0.1, "running": 2.0, "waiting": 0.0, "preemptions": 0.0, "capacity": 0.0}
        self.prompts: list[tuple[str, float]] = [("100", 0.0), ("200", 0.0), ("500", 0.0), ("1000", 0.0), ("2000", 0.0), ("+Inf", 0.0)]
        self.scrapes = 0
        self.token: str | None = None
        self.lock = threading.Lock()
        exporter = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                if exporter.token and self.headers.get("Authorization") != f"Bearer {exporter.token}":
                    self.send_response(401)
                    self.end_headers()
                    return
                body = exporter.page().encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/plain; version=0.0.4")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                with exporter.lock:
                    exporter.scrapes += 1

            def log_message(self, *args: Any) -> None:
                pass

        self.port = free_port()
        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/metrics"

    def set(self, **values: float) -> None:
        with self.lock:
            self.values.update(values)

    def page(self) -> str:
        with self.lock:
            v = dict(self.values)
            prompts = list(self.prompts)
        labels = 'model_name="tiny",engine="0"'
        lines = [
            "# HELP vllm:kv_cache_usage_perc KV-cache usage. 1 means 100 percent usage.",
            "# TYPE vllm:kv_cache_usage_perc gauge",
            f"vllm:kv_cache_usage_perc{{{labels}}} {v['kv']}",
            "# TYPE vllm:num_requests_running gauge",
            f"vllm:num_requests_running{{{labels}}} {v['running']}",
            "# TYPE vllm:num_requests_waiting gauge",
            f"vllm:num_requests_waiting{{{labels}}} {v['waiting']}",
            "# TYPE vllm:num_requests_waiting_by_reason gauge",
            f'vllm:num_requests_waiting_by_reason{{{labels},reason="capacity"}} {v["capacity"]}',
            f'vllm:num_requests_waiting_by_reason{{{labels},reason="deferred"}} 0.0',
            "# TYPE vllm:num_preemptions counter",
            f"vllm:num_preemptions_total{{{labels}}} {v['preemptions']}",
            "# TYPE vllm:cache_config_info gauge",
            f'vllm:cache_config_info{{block_size="16",cache_dtype="auto",gpu_memory_utilization="0.9",num_gpu_blocks="960",{labels}}} 1.0',
            "# TYPE vllm:request_prompt_tokens histogram",
        ]
        total = 0.0
        for le, count in prompts:
            lines.append(f'vllm:request_prompt_tokens_bucket{{{labels},le="{le}"}} {count}')
            total = count
        lines += [f"vllm:request_prompt_tokens_count{{{labels}}} {total}", f"vllm:request_prompt_tokens_sum{{{labels}}} {total * 700}"]
        lines.append("# TYPE process_resident_memory_bytes gauge")
        lines.append("process_resident_memory_bytes 1.5e+09")
        return "\n".join(lines) + "\n"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()



def prometheus_binaries() -> tuple[str, str]:
    prom, tool = shutil.which("prometheus"), shutil.which("promtool")
    if not prom or not tool:
        if os.environ.get("CI"):
            pytest.fail("prometheus/promtool are not installed; .ci/run installs Debian's `prometheus` package")
        pytest.skip("prometheus/promtool not installed here (apt-get install -y prometheus); CI installs them")
    return prom, tool


class PrometheusServer:
    def __init__(self, tmp: Path, openmetrics: str | None, scrape: str | None) -> None:
        prom, tool = prometheus_binaries()
        self.data = tmp / "data"
        self.data.mkdir()
        if openmetrics is not None:
            src = tmp / "backfill.om"
            src.write_text(openmetrics)
            done = subprocess.run([tool, "tsdb", "create-blocks-from", "openmetrics", str(src), str(self.data)],
                                  capture_output=True, text=True, timeout=120)
            assert done.returncode == 0, done.stderr + done.stdout
        config = tmp / "prometheus.yml"
        scrape_configs = ""
        if scrape:
            scrape_configs = (f"scrape_configs:\n  - job_name: vllm\n    scrape_interval: 1s\n    static_configs:\n"
                              f"      - targets: ['{scrape}']\n        labels: {{pod: 'vllm-live'}}\n")
        config.write_text("global:\n  scrape_interval: 1s\n  evaluation_interval: 15s\n" + scrape_configs)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = open(tmp / "prometheus.log", "w")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [prom, f"--config.file={config}", f"--storage.tsdb.path={self.data}", f"--web.listen-address=127.0.0.1:{self.port}",
             "--storage.tsdb.retention.time=30d", "--log.level=warn"],
            stdout=self.log, stderr=subprocess.STDOUT)
        self._wait_ready()

    def _wait_ready(self) -> None:
        from urllib.request import urlopen

        deadline = time.time() + 60
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"prometheus exited {self.proc.returncode}: {Path(self.log.name).read_text()[-2000:]}")
            try:
                with urlopen(f"{self.url}/-/ready", timeout=1) as r:
                    if r.status == 200:
                        return
            except OSError:
                pass
            time.sleep(0.2)
        raise AssertionError("prometheus did not become ready in 60 s")

    def close(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


def openmetrics_saturated(start: float, pod: str = "vllm-0", steps: int = 60, step_s: int = 15, oomkilled: str | None = None) -> str:
    """A backfill file: `pod` climbs to 100% KV usage and stays there with 12 waiting and the
    preemption counter rising; `oomkilled` names a pod whose container was OOMKilled."""
    lines = []
    labels = f'pod="{pod}",namespace="llm",model_name="tiny",engine="0"'

    def family(name: str, kind: str, sample: str, values: list[float]) -> None:
        lines.append(f"# TYPE {name} {kind}")
        for i, v in enumerate(values):
            lines.append(f"{sample}{{{labels}}} {v} {int(start + i * step_s)}")

    kv = [min(1.0, 0.2 + i * 0.04) for i in range(steps)]
    family("vllm:kv_cache_usage_perc", "gauge", "vllm:kv_cache_usage_perc", kv)
    family("vllm:num_requests_running", "gauge", "vllm:num_requests_running", [12.0] * steps)
    family("vllm:num_requests_waiting", "gauge", "vllm:num_requests_waiting", [0.0 if u < 0.95 else 12.0 for u in kv])
    family("vllm:num_preemptions", "counter", "vllm:num_preemptions_total", [float(max(0, i - 25)) for i in range(steps)])
    lines.append("# TYPE vllm:request_prompt_tokens histogram")
    for i in range(steps):
        n = float(i * 4)
        for le, share in (("500", 0.1), ("1000", 0.9), ("2000", 1.0), ("+Inf", 1.0)):
            lines.append(f'vllm:request_prompt_tokens_bucket{{{labels},le="{le}"}} {n * share} {int(start + i * step_s)}')
        lines.append(f"vllm:request_prompt_tokens_count{{{labels}}} {n} {int(start + i * step_s)}")
        lines.append(f"vllm:request_prompt_tokens_sum{{{labels}}} {n * 700} {int(start + i * step_s)}")
    if oomkilled:
        klabels = f'pod="{oomkilled}",namespace="llm",container="vllm",reason="OOMKilled"'
        lines.append("# TYPE kube_pod_container_status_last_terminated_reason gauge")
        for i in range(steps):
            lines.append(f"kube_pod_container_status_last_terminated_reason{{{klabels}}} {1.0 if i > steps - 10 else 0.0} "
                         f"{int(start + i * step_s)}")
    lines.append("# EOF")
    return "\n".join(lines) + "\n"



def _grouped(om: str) -> str:
    """OpenMetrics wants each family's samples together: regroup the lines by family."""
    families: dict[str, list[str]] = {}
    kinds: dict[str, str] = {}
    order: list[str] = []
    for line in om.splitlines():
        if line.startswith("# TYPE "):
            _, _, name, kind = line.split(" ", 3)
            kinds[name] = kind
            continue
        if not line or line.startswith("#"):
            continue
        metric = line.split("{", 1)[0]
        family = next((f for f in kinds if metric == f or metric.startswith(f + "_")), metric)
        if family not in families:
            families[family] = []
            order.append(family)
        families[family].append(line)
    out = []
    for f in order:
        out.append(f"# TYPE {f} {kinds.get(f, 'gauge')}")
        out += families[f]
    return "\n".join(out) + "\n# EOF\n"


