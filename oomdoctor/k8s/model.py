"""The types of a cluster scan: which container failed, what was read about it, its
diagnosis and the patch for its controller. All frozen; made by `oomdoctor.k8s.scan`,
read by `oomdoctor.k8s.render`."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from oomdoctor.model import Report


@dataclass(frozen=True)
class Termination:
    """A container's last (or current) termination, as the kubelet recorded it."""

    reason: str | None  # OOMKilled | Error | Completed | ContainerCannotRun | ...
    exit_code: int | None
    finished_at: str | None  # RFC 3339, as the API gives it
    signal: int | None = None
    message: str | None = None

    @property
    def oom_killed(self) -> bool:
        return self.reason == "OOMKilled"

    @property
    def killed(self) -> bool:
        """Ended by SIGKILL: OOMKilled, or exit 137 (128 + 9)."""
        return self.oom_killed or self.exit_code == 137 or self.signal == 9

    def as_dict(self) -> dict[str, Any]:
        return {"reason": self.reason, "exit_code": self.exit_code, "finished_at": self.finished_at}


@dataclass(frozen=True)
class FailedContainer:
    """One container that failed, found in a pod's status."""

    namespace: str
    pod: str
    container: str
    restarts: int
    termination: Termination | None  # lastState.terminated, or state.terminated for a pod that stays down
    waiting_reason: str | None  # CrashLoopBackOff, ...
    previous: bool  # its log is the previous instance's (`kubectl logs --previous`)
    why: str  # why it counts as failed, one phrase
    node: str | None

    @property
    def key(self) -> str:
        return f"{self.namespace}/{self.pod}/{self.container}"

    @property
    def last_reason(self) -> str:
        if self.termination is not None and self.termination.reason:
            return self.termination.reason
        return self.waiting_reason or "-"


@dataclass(frozen=True)
class PodPatch:
    """A `kubectl patch --type=json` for the controller that owns the pod."""

    kind: str  # Deployment | StatefulSet | DaemonSet
    name: str
    namespace: str
    ops: tuple[dict[str, Any], ...]  # RFC 6902 operations (test ops guard the paths they change)
    change: str  # one line: what changes, e.g. "args: --max-model-len 29000 -> 23648"
    why: str
    knob: str  # the suggestion it applies

    @property
    def kubectl(self) -> str:
        import json
        import shlex

        body = json.dumps(list(self.ops), separators=(",", ":"))
        return f"kubectl patch {self.kind.lower()} {self.name} -n {self.namespace} --type=json -p {shlex.quote(body)}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind, "name": self.name, "namespace": self.namespace, "type": "json",
            "ops": [dict(op) for op in self.ops], "change": self.change, "why": self.why, "knob": self.knob,
            "kubectl": self.kubectl,
        }


@dataclass(frozen=True)
class PodResult:
    """A failed container with what was read about it, its diagnosis and its patch."""

    target: FailedContainer
    report: Report | None
    patch: PodPatch | None
    patch_note: str | None  # why there is no patch (bare pod, Job, nothing in the spec to change)
    errors: tuple[str, ...] = ()  # per-pod read errors: a 403 on events, a pod gone, no previous log
    notes: tuple[str, ...] = ()  # what the status says beside the log (a probe kill is not an OOM)
    owner: str | None = None  # Deployment/name, StatefulSet/name, ...

    @property
    def memory_failure(self) -> bool:
        if self.report is not None and self.report.memory_failure:
            return True
        return self.target.termination is not None and self.target.termination.oom_killed


@dataclass(frozen=True)
class ClusterInfo:
    """Which cluster was asked: kubeconfig context (or in-cluster) and API server."""

    context: str
    server: str
    namespace: str | None  # the namespace asked for; None for all namespaces

    def __str__(self) -> str:
        return f"{self.context} ({self.server})"


@dataclass(frozen=True)
class ScanOptions:
    namespace: str | None = None  # None with all_namespaces
    all_namespaces: bool = False
    selector: str | None = None
    pod: str | None = None
    since_s: float | None = None  # only terminations that finished within this many seconds
    tail_lines: int = 5000
    limit_bytes: int = 8 << 20
    concurrency: int = 8
    page_size: int = 500
    framework: str | None = None
    rule_dirs: tuple[str, ...] = ()
    now: datetime | None = None  # for tests; the clock otherwise


@dataclass(frozen=True)
class ClusterScan:
    cluster: ClusterInfo
    pods_listed: int
    results: tuple[PodResult, ...]
    warnings: tuple[str, ...] = field(default_factory=tuple)

    @property
    def memory_failure(self) -> bool:
        return any(r.memory_failure for r in self.results)
