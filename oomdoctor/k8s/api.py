"""The Kubernetes API calls oomdoctor makes, through the official `kubernetes` client.

The one module that imports `kubernetes` (inside `connect`, so the CLI starts fast). Every
call is a GET; objects come back as the API's own JSON (`_preload_content=False`, then
`json.loads`), not as the client's model classes: a thousand pods deserialise in a
fraction of the time, and the pure code (`select`, `facts`, `patch`) reads the same dicts
the tests record. Logs are streamed to a file in chunks, bounded by `tailLines` and
`limitBytes` on the server and by a byte cap here.

Errors: `KubeApiError` (the API answered 4xx/5xx: code, reason, the Status message) and
`KubeConnectionError` (no answer). `connect` raises `UsageError` for configuration problems.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from oomdoctor.errors import UsageError
from oomdoctor.k8s.model import ClusterInfo

INSTALL_HINT = "the k8s command needs the Kubernetes client: pip install 'oomdoctor[k8s]' (or pip install kubernetes)"
_SA_DIR = Path("/var/run/secrets/kubernetes.io/serviceaccount")


class KubeApiError(Exception):
    """The API server answered with an error status."""

    def __init__(self, code: int, reason: str, message: str) -> None:
        super().__init__(f"{code} {reason}: {message}" if message else f"{code} {reason}")
        self.code = code
        self.reason = reason
        self.message = message

    @property
    def short(self) -> str:
        """`403 Forbidden — pods "x" is forbidden: User ...`: the status, then the API's message."""
        head = f"{self.code} {self.reason}" if self.code else self.reason
        message = self.message.strip().splitlines()[0][:400] if self.message.strip() else ""
        return f"{head} — {message}" if message else head


class KubeConnectionError(Exception):
    """No answer from the API server (refused, DNS, TLS, timeout)."""


@dataclass(frozen=True)
class LogRead:
    path: Path
    bytes: int
    lines: int
    capped: bool  # the byte cap cut it (the server's limitBytes or ours): its end may be missing


def _import_client() -> Any:
    try:
        import kubernetes  # noqa: F401
        from kubernetes import client, config
    except ImportError as exc:
        raise UsageError(INSTALL_HINT) from exc
    return client, config


def connect(kubeconfig: str | None = None, context: str | None = None, timeout_s: float = 30.0,
            pool_size: int = 16) -> KubeApi:
    """A `KubeApi` resolved as kubectl resolves it: --kubeconfig, else $KUBECONFIG (a
    colon-separated list is merged), else ~/.kube/config, else the in-cluster service account."""
    client, config = _import_client()
    cfg = client.Configuration()
    files = kubeconfig or os.environ.get("KUBECONFIG") or ""
    paths = [p for p in files.split(os.pathsep) if p]
    if not paths:
        default = Path("~/.kube/config").expanduser()
        if default.is_file():
            paths = [str(default)]
    if kubeconfig and not Path(kubeconfig).expanduser().is_file():
        raise UsageError(f"kubeconfig not found: {kubeconfig}")
    if paths:
        existing = [p for p in paths if Path(p).expanduser().is_file()]
        if not existing:
            raise UsageError(f"kubeconfig not found: {os.pathsep.join(paths)}")
        joined = os.pathsep.join(existing)
        try:
            contexts, active = config.list_kube_config_contexts(config_file=joined)
            chosen = next((c for c in contexts if c.get("name") == context), None) if context else active
            if context and chosen is None:
                names = ", ".join(c.get("name", "?") for c in contexts) or "none"
                raise UsageError(f"context {context!r} not found in {joined} (contexts: {names})")
            config.load_kube_config(config_file=joined, context=context, client_configuration=cfg, persist_config=False)
        except UsageError:
            raise
        except Exception as exc:  # noqa: BLE001 - ConfigException, YAML errors, missing keys: one line
            raise UsageError(f"cannot load kubeconfig {joined}: {_first_line(exc)}") from None
        ctx = (chosen or {}).get("context") or {}
        info = ClusterInfo(context=(chosen or {}).get("name") or "?", server=str(cfg.host), namespace=ctx.get("namespace"))
    elif os.environ.get("KUBERNETES_SERVICE_HOST"):
        try:
            config.load_incluster_config(client_configuration=cfg)
        except Exception as exc:  # noqa: BLE001
            raise UsageError(f"in-cluster configuration failed: {_first_line(exc)}") from None
        ns_file = _SA_DIR / "namespace"
        ns = ns_file.read_text().strip() if ns_file.is_file() else None
        info = ClusterInfo(context="in-cluster", server=str(cfg.host), namespace=ns)
    else:
        raise UsageError("no cluster configured: no --kubeconfig, $KUBECONFIG or ~/.kube/config, and not running in a pod")
    import logging

    logging.getLogger("urllib3.connectionpool").setLevel(logging.ERROR)  # a retried read is reported on its pod's row
    cfg.connection_pool_maxsize = max(4, pool_size)
    cfg.retries = 1  # the caller reports a failed read on the pod's row; no long retry storms
    api_client = client.ApiClient(cfg)
    api_client.user_agent = "oomdoctor-k8s"
    return KubeApi(client.CoreV1Api(api_client), info, timeout_s)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0][:300]


class KubeApi:
    """GET-only access to pods, pod logs, events and nodes, as plain JSON dicts."""

    def __init__(self, core: Any, cluster: ClusterInfo, timeout_s: float = 30.0) -> None:
        self._core = core
        self.cluster = cluster
        self._timeout = (min(10.0, timeout_s), timeout_s)

    # ---- one call, its errors mapped
    def _call(self, method: str, *args: Any, **kwargs: Any) -> Any:
        from kubernetes.client.exceptions import ApiException

        try:
            return getattr(self._core, method)(*args, _preload_content=False, _request_timeout=self._timeout, **kwargs)
        except ApiException as exc:
            raise _api_error(exc) from None
        except Exception as exc:  # noqa: BLE001 - urllib3 MaxRetryError, ProtocolError, timeouts, SSL
            raise KubeConnectionError(_connection_text(exc)) from None

    def _json(self, method: str, *args: Any, **kwargs: Any) -> dict[str, Any]:
        resp = self._call(method, *args, **kwargs)
        try:
            data = resp.data if hasattr(resp, "data") else resp.read()
            return json.loads(data)
        except ValueError as exc:
            raise KubeConnectionError(f"the API answered with something that is not JSON ({exc})") from None
        finally:
            _release(resp)

    # ---- pods
    def list_pods(self, namespace: str | None, selector: str | None = None, page_size: int = 500,
                  field_selector: str | None = None) -> Iterator[dict[str, Any]]:
        """Every pod, page by page (`limit` + `continue`): only one page is held at a time."""
        token: str | None = None
        while True:
            kwargs: dict[str, Any] = {"limit": page_size}
            if token:
                kwargs["_continue"] = token
            if selector:
                kwargs["label_selector"] = selector
            if field_selector:
                kwargs["field_selector"] = field_selector
            if namespace is None:
                page = self._json("list_pod_for_all_namespaces", **kwargs)
            else:
                page = self._json("list_namespaced_pod", namespace, **kwargs)
            yield from page.get("items") or ()
            token = (page.get("metadata") or {}).get("continue")
            if not token:
                return

    def read_pod(self, namespace: str, name: str) -> dict[str, Any]:
        return self._json("read_namespaced_pod", name, namespace)

    def read_node(self, name: str) -> dict[str, Any]:
        return self._json("read_node", name)

    def list_events(self, namespace: str, field_selector: str, page_size: int = 500) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = []
        token: str | None = None
        while True:
            kwargs: dict[str, Any] = {"field_selector": field_selector, "limit": page_size}
            if token:
                kwargs["_continue"] = token
            page = self._json("list_namespaced_event", namespace, **kwargs)
            items.extend(page.get("items") or ())
            token = (page.get("metadata") or {}).get("continue")
            if not token:
                return items

    def read_log(self, namespace: str, pod: str, container: str, previous: bool, dest: Path,
                 tail_lines: int, limit_bytes: int) -> LogRead:
        """Stream a container's log into `dest`: the last `tail_lines` lines, at most
        `limit_bytes` (the server is asked for both; the cap is enforced here as well)."""
        resp = self._call("read_namespaced_pod_log", pod, namespace, container=container, previous=previous,
                          tail_lines=tail_lines, limit_bytes=limit_bytes)
        written = 0
        lines = 0
        capped = False
        try:
            with open(dest, "wb") as out:
                for chunk in _chunks(resp):
                    room = limit_bytes - written
                    if len(chunk) >= room:
                        chunk = chunk[:room]
                        capped = True
                    out.write(chunk)
                    written += len(chunk)
                    lines += chunk.count(b"\n")
                    if capped:
                        break
        except KubeConnectionError:
            raise
        except Exception as exc:  # noqa: BLE001 - the connection broke mid-stream
            raise KubeConnectionError(f"log stream broke after {written} bytes: {_connection_text(exc)}") from None
        finally:
            _release(resp)
        return LogRead(dest, written, lines, capped or written >= limit_bytes)


def _chunks(resp: Any, size: int = 64 << 10) -> Iterator[bytes]:
    stream = getattr(resp, "stream", None)
    if stream is not None:
        yield from stream(size)
        return
    data = resp.read()
    if data:
        yield data


def _release(resp: Any) -> None:
    for name in ("release_conn", "close"):
        fn = getattr(resp, name, None)
        if fn is not None:
            try:
                fn()
            except Exception:  # noqa: BLE001 - best effort
                pass
            return


def _api_error(exc: Any) -> KubeApiError:
    code = int(getattr(exc, "status", 0) or 0)
    reason = str(getattr(exc, "reason", "") or "")
    message = ""
    body = getattr(exc, "body", None)
    if isinstance(body, bytes):
        body = body.decode("utf-8", "replace")
    if body:
        try:
            status = json.loads(body)
            message = str(status.get("message") or "")
            reason = str(status.get("reason") or reason)
        except (ValueError, AttributeError):
            message = str(body).strip().splitlines()[0][:300] if str(body).strip() else ""
    if code == 0:
        return KubeApiError(0, "Error", reason)
    return KubeApiError(code, reason or "Error", message)


_CONNECTION_CAUSES = ("Connection refused", "Name or service not known", "nodename nor servname provided",
                      "timed out", "certificate verify failed", "No route to host", "Connection reset")


def _connection_text(exc: BaseException) -> str:
    """`Connection refused` rather than urllib3's nested repr (MaxRetryError -> NewConnectionError -> OSError)."""
    chain: list[BaseException] = []
    cur: BaseException | None = exc
    while cur is not None and cur not in chain and len(chain) < 8:
        chain.append(cur)
        reason = getattr(cur, "reason", None)
        cur = reason if isinstance(reason, BaseException) else (cur.__cause__ or cur.__context__)
    text = " ".join(str(e) for e in chain)
    for cause in _CONNECTION_CAUSES:
        if cause.lower() in text.lower():
            return cause
    return _first_line(chain[-1])
