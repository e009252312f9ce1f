"""A local Kubernetes API server for the tests: serves recorded API objects over HTTP on
127.0.0.1 to the real `kubernetes` client, for the paths `oomdoctor k8s` calls.

    GET /api/v1/namespaces/{ns}/pods            PodList, `limit` + `continue` pagination,
    GET /api/v1/pods                            label and field selectors
    GET /api/v1/namespaces/{ns}/pods/{name}     Pod
    GET /api/v1/namespaces/{ns}/pods/{name}/log text, chunked; previous, tailLines, limitBytes
    GET /api/v1/nodes/{name}                    Node
    GET /api/v1/namespaces/{ns}/events          EventList, fieldSelector on involvedObject.*

A recorded cluster is a directory: `pods/<ns>/<name>.json`, `nodes/<name>.json`,
`events/<ns>.json` (an EventList), `logs/<ns>/<pod>/<container>[.previous].log` and
`faults.json` (path -> Status: the 403s, 404s and 400s a real cluster answers). Requests
need the bearer token of the kubeconfig the server writes; every request is recorded, and
the most log streams open at once is counted.
"""

from __future__ import annotations

import base64
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable
from urllib.parse import parse_qs, urlsplit

TOKEN = "oomdoctor-test-token-3b9c"


def _status(code: int, reason: str, message: str, details: dict[str, Any] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                            "message": message, "reason": reason, "code": code}
    if details:
        body["details"] = details
    return body


def _field(obj: dict[str, Any], dotted: str) -> str:
    cur: Any = obj
    for part in dotted.split("."):
        cur = cur.get(part) if isinstance(cur, dict) else None
    return "" if cur is None else str(cur)


def _go_bool(text: str) -> bool:
    """strconv.ParseBool, as the API server reads a boolean query parameter (older clients send `True`)."""
    return text in ("1", "t", "T", "TRUE", "true", "True")


class BadSelector(ValueError):
    pass


_POD_FIELDS = ("metadata.name", "metadata.namespace", "spec.nodeName", "spec.restartPolicy", "spec.schedulerName",
               "spec.serviceAccountName", "status.phase", "status.podIP", "status.nominatedNodeName")
_EVENT_FIELDS = ("involvedObject.kind", "involvedObject.namespace", "involvedObject.name", "involvedObject.uid",
                 "involvedObject.apiVersion", "involvedObject.resourceVersion", "involvedObject.fieldPath", "reason",
                 "reportingComponent", "source", "type", "metadata.name", "metadata.namespace")


def field_matcher(selector: str | None, allowed: tuple[str, ...]) -> Callable[[dict[str, Any]], bool]:
    terms = []
    for term in filter(None, (selector or "").split(",")):
        for op in ("!=", "==", "="):
            if op in term:
                key, value = term.split(op, 1)
                break
        else:
            raise BadSelector(f'invalid selector: "{term}"')
        if key not in allowed:
            raise BadSelector(f'field label not supported: {key}')
        terms.append((key, op != "!=", value))
    return lambda obj: all((_field(obj, k) == v) == eq for k, eq, v in terms)


def label_matcher(selector: str | None) -> Callable[[dict[str, Any]], bool]:
    """Equality-based label selectors (`a=b`, `a==b`, `a!=b`, `a`, `!a`), as the API server reads them."""
    terms: list[tuple[str, str, str]] = []  # (op, key, value)
    for term in filter(None, (t.strip() for t in (selector or "").split(","))):
        if " in " in term or " notin " in term:
            raise BadSelector(f"set-based selector not served by the fake: {term}")
        if "!=" in term:
            key, value = term.split("!=", 1)
            terms.append(("!=", key, value))
        elif "=" in term:
            key, value = term.replace("==", "=").split("=", 1)
            terms.append(("=", key, value))
        elif term.startswith("!"):
            terms.append(("absent", term[1:], ""))
        else:
            terms.append(("exists", term, ""))

    def holds(op: str, key: str, value: str, labels: dict[str, str]) -> bool:
        return {"=": labels.get(key) == value, "!=": labels.get(key) != value,
                "absent": key not in labels, "exists": key in labels}[op]

    return lambda obj: all(holds(*t, (obj.get("metadata") or {}).get("labels") or {}) for t in terms)


class Cluster:
    """The recorded objects, loaded once."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.pods: dict[tuple[str, str], dict[str, Any]] = {}
        for p in sorted((root / "pods").glob("*/*.json")):
            obj = json.loads(p.read_text())
            self.pods[(obj["metadata"]["namespace"], obj["metadata"]["name"])] = obj
        self.nodes = {p.stem: json.loads(p.read_text()) for p in sorted((root / "nodes").glob("*.json"))}
        self.events = {p.stem: json.loads(p.read_text())["items"] for p in sorted((root / "events").glob("*.json"))}
        faults = root / "faults.json"
        self.faults: dict[str, dict[str, Any]] = json.loads(faults.read_text()) if faults.is_file() else {}


class FakeApiServer:
    """`with FakeApiServer(root) as api: api.write_kubeconfig(path)`; `api.url`, `api.requests`."""

    def __init__(self, root: Path, max_page: int = 4, log_delay_s: float = 0.0, token: str = TOKEN) -> None:
        self.cluster = Cluster(root)
        self.max_page = max_page
        self.log_delay_s = log_delay_s
        self.token = token
        self.requests: list[tuple[str, dict[str, list[str]]]] = []
        self.extra_faults: dict[str, dict[str, Any]] = {}
        self.deleted: set[tuple[str, str]] = set()
        self._lock = threading.Lock()
        self.open_logs = 0
        self.max_open_logs = 0
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> FakeApiServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def reset(self) -> None:
        with self._lock:
            self.requests.clear()
            self.max_open_logs = 0
        self.extra_faults.clear()
        self.deleted.clear()

    def paths(self) -> list[str]:
        return [p for p, _ in self.requests]

    def write_kubeconfig(self, path: Path, namespace: str | None = "serving") -> Path:
        ctx: dict[str, Any] = {"cluster": "gpu-prod", "user": "oomdoctor"}
        if namespace:
            ctx["namespace"] = namespace
        config = {
            "apiVersion": "v1", "kind": "Config", "preferences": {},
            "clusters": [{"name": "gpu-prod", "cluster": {"server": self.url}}],
            "users": [{"name": "oomdoctor", "user": {"token": self.token}},
                      {"name": "stranger", "user": {"token": "not-the-token"}}],
            "contexts": [{"name": "gpu-prod", "context": ctx},
                         {"name": "gpu-prod-stranger", "context": {"cluster": "gpu-prod", "user": "stranger", "namespace": "serving"}}],
            "current-context": "gpu-prod",
        }
        path.write_text(json.dumps(config, indent=2))  # JSON is YAML
        return path

    # ------------------------------------------------------------------ HTTP
    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True
            wbufsize = 1 << 16  # one send per response (no delayed-ACK stall between headers and body)

            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def do_GET(self) -> None:  # noqa: N802
                parts = urlsplit(self.path)
                query = parse_qs(parts.query, keep_blank_values=True)
                with server._lock:
                    server.requests.append((parts.path, query))
                if self.headers.get("Authorization") != f"Bearer {server.token}":
                    return self._json(401, _status(401, "Unauthorized", "Unauthorized"))
                fault = server._fault(parts.path, query)
                if fault is not None:
                    return self._json(fault["code"], _status(fault["code"], fault["reason"], fault["message"], fault.get("details")))
                try:
                    server._route(self, parts.path, query)
                except BadSelector as exc:
                    self._json(400, _status(400, "BadRequest", str(exc)))

            def _json(self, code: int, body: dict[str, Any]) -> None:
                data = json.dumps(body).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.send_header("Audit-Id", "6a0d7e4c-fake")
                self.end_headers()
                self.wfile.write(data)

            def _chunked(self, data: bytes, chunk: int = 4096) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/plain")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                for i in range(0, len(data), chunk):
                    piece = data[i:i + chunk]
                    self.wfile.write(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
                self.wfile.write(b"0\r\n\r\n")

        return Handler

    def _fault(self, path: str, query: dict[str, list[str]]) -> dict[str, Any] | None:
        faults = {**self.cluster.faults, **self.extra_faults}
        if path in faults:
            return faults[path]
        selector = (query.get("fieldSelector") or [""])[0]
        for key, fault in faults.items():
            base, _, cond = key.partition("?")
            if cond and base == path and cond in selector.split(","):
                return fault
        return None

    def _route(self, h: Any, path: str, query: dict[str, list[str]]) -> None:
        parts = path.strip("/").split("/")
        if parts[:2] != ["api", "v1"]:
            return h._json(404, _status(404, "NotFound", "the server could not find the requested resource"))
        rest = parts[2:]
        if rest == ["pods"]:
            return h._json(200, self._list_pods(None, query))
        if rest[:1] == ["nodes"] and len(rest) == 2:
            node = self.cluster.nodes.get(rest[1])
            if node is None:
                return h._json(404, _status(404, "NotFound", f'nodes "{rest[1]}" not found', {"name": rest[1], "kind": "nodes"}))
            return h._json(200, node)
        if rest[:1] == ["namespaces"] and len(rest) >= 3:
            ns, kind = rest[1], rest[2]
            if kind == "pods" and len(rest) == 3:
                return h._json(200, self._list_pods(ns, query))
            if kind == "pods" and len(rest) in (4, 5):
                pod = self.cluster.pods.get((ns, rest[3]))
                if pod is None or (ns, rest[3]) in self.deleted:
                    return h._json(404, _status(404, "NotFound", f'pods "{rest[3]}" not found', {"name": rest[3], "kind": "pods"}))
                if len(rest) == 4:
                    return h._json(200, pod)
                if rest[4] == "log":
                    return self._log(h, ns, pod, query)
            if kind == "events" and len(rest) == 3:
                return h._json(200, self._list(self.cluster.events.get(ns, []), query, _EVENT_FIELDS, "EventList"))
        return h._json(404, _status(404, "NotFound", "the server could not find the requested resource"))

    def _list_pods(self, ns: str | None, query: dict[str, list[str]]) -> dict[str, Any]:
        items = [p for (n, _), p in sorted(self.cluster.pods.items()) if ns is None or n == ns]
        return self._list(items, query, _POD_FIELDS, "PodList")

    def _list(self, items: list[dict[str, Any]], query: dict[str, list[str]], fields: tuple[str, ...], kind: str) -> dict[str, Any]:
        by_field = field_matcher((query.get("fieldSelector") or [""])[0], fields)
        by_label = label_matcher((query.get("labelSelector") or [""])[0])
        chosen = [o for o in items if by_field(o) and by_label(o)]
        start = 0
        token = (query.get("continue") or [""])[0]
        if token:
            start = json.loads(base64.b64decode(token))["start"]
        limit = int((query.get("limit") or ["0"])[0] or 0)
        size = min(limit or len(chosen) or 1, self.max_page)
        page = chosen[start:start + size]
        meta: dict[str, Any] = {"resourceVersion": "48214000"}
        if start + size < len(chosen):
            meta["continue"] = base64.b64encode(json.dumps({"v": "meta.k8s.io/v1", "rv": 48214000, "start": start + size}).encode()).decode()
            meta["remainingItemCount"] = len(chosen) - start - size
        # items of a list carry no kind/apiVersion of their own
        return {"kind": kind, "apiVersion": "v1", "metadata": meta,
                "items": [{k: v for k, v in o.items() if k not in ("kind", "apiVersion")} for o in page]}

    def _log(self, h: Any, ns: str, pod: dict[str, Any], query: dict[str, list[str]]) -> None:
        name = pod["metadata"]["name"]
        containers = [c["name"] for c in pod["spec"]["containers"]]
        container = (query.get("container") or [containers[0] if len(containers) == 1 else ""])[0]
        if container not in containers:
            return h._json(400, _status(400, "BadRequest", f"container {container} is not valid for pod {name}"))
        previous = _go_bool((query.get("previous") or ["false"])[0])
        path = self.cluster.root / "logs" / ns / name / (f"{container}.previous.log" if previous else f"{container}.log")
        if previous and not path.is_file():
            return h._json(400, _status(400, "BadRequest", f'previous terminated container "{container}" in pod "{name}" not found'))
        data = path.read_bytes() if path.is_file() else b""
        tail = (query.get("tailLines") or [""])[0]
        if tail:
            lines = data.splitlines(keepends=True)
            data = b"".join(lines[-int(tail):])
        limit = (query.get("limitBytes") or [""])[0]
        if limit:
            data = data[: int(limit)]
        with self._lock:
            self.open_logs += 1
            self.max_open_logs = max(self.max_open_logs, self.open_logs)
        try:
            if self.log_delay_s:
                time.sleep(self.log_delay_s)
            h._chunked(data)
        finally:
            with self._lock:
                self.open_logs -= 1
