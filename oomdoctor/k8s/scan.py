"""From a namespace (or the cluster) to one diagnosis per failed container.

1. List the pods, page by page (`limit` + `continue`), keeping only those with a failed
   container (`select.failed_containers`); `--pod` reads one pod instead.
2. Read, for each failed container, with at most `concurrency` requests in flight: its
   previous log (streamed to a temporary file, a bounded tail), the pod's events, and once per
   node the Node (GPU labels) and, for an OOMKilled container, the node's OOM events.
3. Diagnose each in turn (`diagnose()`, one log + the facts of `k8s.facts`), then write the
   patch for its controller (`k8s.patch`).

A failed read (403 on events or logs, a pod deleted meanwhile, no previous log) is noted on
that pod's result and the others go on; only the first list call fails the run.
"""

from __future__ import annotations

import dataclasses
import shlex
import tempfile
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from oomdoctor.errors import UsageError
from oomdoctor.facts import Evidence, Fact, FactSet
from oomdoctor.k8s import facts as kfacts
from oomdoctor.k8s.api import KubeApi, KubeApiError, KubeConnectionError
from oomdoctor.k8s.model import ClusterScan, FailedContainer, PodResult, ScanOptions
from oomdoctor.k8s.patch import build_patch, owner
from oomdoctor.k8s.select import failed_containers
from oomdoctor.model import Report

# Pods that finished cleanly are left out by the server (a field selector), not read here.
FIELD_SELECTOR = "status.phase!=Succeeded"
MIN_TAIL = 50  # a log whose tail overflows the byte cap is read again with a quarter of the lines, down to this


@dataclass
class _Gathered:
    """What was read about one failed container (filled by a worker thread)."""

    log: Path | None = None
    log_label: str = ""
    events: list[dict[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


@dataclass
class _NodeInfo:
    node: dict[str, Any] | None = None
    events: list[dict[str, Any]] | None = None
    errors: list[str] = field(default_factory=list)


def scan_cluster(api: KubeApi, opts: ScanOptions) -> ClusterScan:
    """Raises `UsageError` when the pods cannot be listed (the run cannot start)."""
    from oomdoctor.rules.loader import load_rules

    now = opts.now or datetime.now(timezone.utc)
    namespace = None if opts.all_namespaces else opts.namespace
    rules = load_rules([Path(p) for p in opts.rule_dirs])
    listed = 0
    older = 0
    pods: list[tuple[dict[str, Any], FailedContainer]] = []
    for pod in _pods(api, namespace, opts):
        listed += 1
        recent = failed_containers(pod, opts.since_s, now)
        pods += [(pod, target) for target in recent]
        if opts.since_s:
            older += len(failed_containers(pod, None, now)) - len(recent)
    warnings: list[str] = []
    if older:
        warnings.append(f"{older} container failure{'s' if older != 1 else ''} ended before the --since window: not diagnosed")
    results: list[PodResult] = []
    workers = max(1, opts.concurrency)
    with tempfile.TemporaryDirectory(prefix="oomdoctor-k8s-") as tmp:
        nodes = _read_nodes(api, pods, opts)
        with ThreadPoolExecutor(max_workers=workers) as pool:
            # a sliding window: reads run ahead of the diagnoses by at most 2 x concurrency, so at most
            # that many logs sit on disk at once, each deleted once diagnosed
            todo = iter(pods)
            window: deque[tuple[dict[str, Any], FailedContainer, Future[_Gathered]]] = deque()

            def submit() -> None:
                nxt = next(todo, None)
                if nxt is not None:
                    window.append((nxt[0], nxt[1], pool.submit(_gather, api, nxt[0], nxt[1], Path(tmp), opts)))

            try:
                for _ in range(2 * workers):
                    submit()
                while window:
                    pod, target, future = window.popleft()
                    got = future.result()
                    submit()
                    results.append(_diagnose(pod, target, got, nodes.get(target.node or ""), opts, rules, Path(tmp)))
                    if got.log is not None:
                        got.log.unlink(missing_ok=True)
            except BaseException:  # Ctrl-C: do not wait for the reads still queued
                pool.shutdown(wait=False, cancel_futures=True)
                raise
    results.sort(key=lambda r: (r.target.namespace, r.target.pod, r.target.container))
    return ClusterScan(cluster=api.cluster, pods_listed=listed, results=tuple(results), warnings=tuple(warnings))


def _where(api: KubeApi, namespace: str | None) -> str:
    return f"cluster {api.cluster}" + (f", namespace {namespace}" if namespace else ", all namespaces")


def _pods(api: KubeApi, namespace: str | None, opts: ScanOptions) -> Iterable[dict[str, Any]]:
    try:
        if opts.pod:
            if namespace is None:
                raise UsageError("--pod needs a namespace (--namespace NS), not --all-namespaces")
            yield api.read_pod(namespace, opts.pod)
            return
        yield from api.list_pods(namespace, opts.selector, opts.page_size, FIELD_SELECTOR)
    except KubeApiError as exc:
        what = f"cannot read pod {opts.pod}" if opts.pod else "cannot list pods"
        if exc.code == 404 and opts.pod:
            raise UsageError(f"{_where(api, namespace)}: pod {opts.pod} not found") from None
        raise UsageError(f"{_where(api, namespace)}: {what}: {exc.short}") from None
    except KubeConnectionError as exc:
        raise UsageError(f"{_where(api, namespace)}: cannot reach the API server: {exc}") from None


def _read_nodes(api: KubeApi, pods: list[tuple[dict[str, Any], FailedContainer]], opts: ScanOptions) -> dict[str, _NodeInfo]:
    """Each node once: its labels, and its OOM events when one of its containers was OOMKilled."""
    wanted: dict[str, bool] = {}
    for _, t in pods:
        if t.node:
            wanted[t.node] = wanted.get(t.node, False) or bool(t.termination and t.termination.killed)
    out: dict[str, _NodeInfo] = {}

    def read(name: str) -> tuple[str, _NodeInfo]:
        info = _NodeInfo()
        try:
            info.node = api.read_node(name)
        except (KubeApiError, KubeConnectionError) as exc:
            info.errors.append(f"node {name}: {_short(exc)}; GPU labels not read")
        if wanted[name]:
            try:
                # node-problem-detector and the kubelet record node OOMs as events on the Node, in "default"
                info.events = api.list_events("default", f"involvedObject.kind=Node,involvedObject.name={name}", opts.page_size)
            except (KubeApiError, KubeConnectionError) as exc:
                info.events = None
                info.errors.append(f"node {name} events: {_short(exc)}")
        return name, info

    if wanted:
        with ThreadPoolExecutor(max_workers=max(1, min(opts.concurrency, len(wanted)))) as pool:
            out = dict(pool.map(read, list(wanted)))
    return out


def _short(exc: Exception) -> str:
    if isinstance(exc, KubeApiError):
        return exc.short
    return f"no answer ({exc})"


def _gather(api: KubeApi, pod: dict[str, Any], t: FailedContainer, tmp: Path, opts: ScanOptions) -> _Gathered:
    got = _Gathered()
    try:
        got.events = api.list_events(t.namespace, f"involvedObject.kind=Pod,involvedObject.name={t.pod}", opts.page_size)
    except (KubeApiError, KubeConnectionError) as exc:
        got.errors.append(f"events: {_short(exc)}")
    kind = "previous log" if t.previous else "log"
    dest = tmp / f"{t.namespace}.{t.pod}.{t.container}.log"
    try:
        tail = opts.tail_lines
        read = api.read_log(t.namespace, t.pod, t.container, t.previous, dest, tail, opts.limit_bytes)
        while read.capped and tail > MIN_TAIL:
            # the byte cap counts from the start of the tail: fewer lines, so the end (the failure) is in
            tail = max(MIN_TAIL, tail // 4)
            read = api.read_log(t.namespace, t.pod, t.container, t.previous, dest, tail, opts.limit_bytes)
        if read.bytes == 0:
            got.errors.append(f"{kind}: empty")
        else:
            got.log = dest
            cut = read.capped or read.lines >= tail
            got.log_label = f"{t.namespace}/{t.pod}/{t.container} {kind}" + (f" (last {read.lines} lines)" if cut else "")
    except KubeApiError as exc:
        if exc.code == 404:
            got.errors.append(f"{kind}: pod gone (404 NotFound) — deleted while oomdoctor ran; diagnosed from the status listed")
        elif exc.code == 400 and "previous terminated container" in exc.message:
            got.errors.append(f"{kind}: none kept (400 BadRequest) — {exc.message}")
        else:
            got.errors.append(f"{kind}: {exc.short}")
    except KubeConnectionError as exc:
        got.errors.append(f"{kind}: no answer ({exc})")
    except OSError as exc:
        got.errors.append(f"{kind}: cannot write a temporary file ({exc.strerror or exc})")
    return got


def status_text(pod: Mapping[str, Any], t: FailedContainer, events: Sequence[Mapping[str, Any]]) -> str:
    """`kubectl describe`-like lines for a container whose log could not be read: the
    termination and the pod's events are then the log that is diagnosed (the host parsers read
    `OOMKilled` and `Exit Code: 137` there)."""
    lines = [f"Pod: {t.namespace}/{t.pod}", f"Container: {t.container}", f"  Restart Count: {t.restarts}"]
    if t.waiting_reason:
        lines += ["  State:          Waiting", f"    Reason:       {t.waiting_reason}"]
    term = t.termination
    if term is not None:
        lines += [f"  {'Last State' if t.previous else 'State'}:     Terminated", f"    Reason:       {term.reason}"]
        if term.killed and not term.oom_killed and kfacts.probe_kill(events, t.container):
            lines.append("    Stopped by:   the kubelet, after a failed probe")  # its exit code is not an OOM's
        else:
            lines.append(f"    Exit Code:    {term.exit_code}")
        lines.append(f"    Finished:     {term.finished_at}")
        if term.message:
            lines.append(f"    Message:      {term.message.strip().splitlines()[0][:500]}")
    for e in events:
        lines.append(f"Event: {e.get('type', '')} {e.get('reason', '')} {e.get('lastTimestamp') or e.get('eventTime') or ''}: "
                     f"{str(e.get('message') or '').strip()}")
    return "\n".join(lines) + "\n"


def _diagnose(pod: dict[str, Any], t: FailedContainer, got: _Gathered, node: _NodeInfo | None, opts: ScanOptions,
              rules: Any, tmp: Path) -> PodResult:
    from oomdoctor.diagnose import DiagnoseOptions, diagnose
    from oomdoctor.errors import OomDoctorError

    errors = list(got.errors)
    spec = kfacts.spec_facts(pod, t, opts.framework)
    facts: list[Fact] = list(spec.facts)
    term_facts, notes = kfacts.termination_facts(t, got.events)
    facts += term_facts
    anon_rss = None
    gpus = next((int(f.value) for f in spec.facts if f.key == "gpu.count"), None)
    gpu_text = None
    if node is not None:
        errors += node.errors
        if node.node is not None:
            facts += kfacts.node_facts(node.node, gpus)
            gpu_text = kfacts.node_gpu_text(node.node, gpus)
        if node.events and t.termination is not None and t.termination.killed:
            ooms = kfacts.node_ooms(node.events, t.termination.finished_at)
            facts += kfacts.node_oom_facts(ooms, t.node or "?")
            anon_rss = max((o.anon_rss_bytes for o in ooms if o.anon_rss_bytes), default=None)
    log = got.log
    label = got.log_label
    if log is None:
        # nothing to read but the status: it becomes the log (the parsers know `kubectl describe`)
        log = tmp / f"{t.namespace}.{t.pod}.{t.container}.status"
        log.write_text(status_text(pod, t, got.events), encoding="utf-8")
        got.log = log  # deleted with the others once diagnosed
        label = f"{t.namespace}/{t.pod}/{t.container} status and events"
    report: Report | None = None
    try:
        # the container's command and the node's card go in as launch context, like --cmd and --gpu
        report = diagnose(DiagnoseOptions(logs=[str(log)], framework=spec.framework, extra_facts=facts, labels=[label],
                                          commands=(shlex.join(spec.command),) if spec.command else (),
                                          gpu=gpu_text or None), rules)
    except OomDoctorError as exc:
        errors.append(f"diagnosis: {exc}")
    if report is not None:
        report = _relabel(report, str(log), label)
        extra = {**report.extra, "k8s": {"namespace": t.namespace, "pod": t.pod, "container": t.container, "node": t.node}}
        if spec.argv:
            extra["launch_command"] = list(spec.argv)
        report = dataclasses.replace(report, extra=extra,
                                     warnings=report.warnings + tuple(spec.notes) + tuple(notes))
    notes = list(spec.notes) + list(notes)
    who = owner(pod)
    patch, note = build_patch(pod, t, report, spec.framework, anon_rss)
    return PodResult(target=t, report=report, patch=patch, patch_note=note, errors=tuple(errors), notes=tuple(notes),
                     owner=f"{who[0]}/{who[1]}" if isinstance(who, tuple) else None)


def _relabel(report: Report, path: str, label: str) -> Report:
    """The temporary file's path replaced by what the log is (`ns/pod/container previous log`)."""

    def ev(e: Evidence | None) -> Evidence | None:
        return dataclasses.replace(e, source=label) if e is not None and e.source == path else e

    return dataclasses.replace(
        report,
        findings=tuple(dataclasses.replace(f, evidence=tuple(ev(e) for e in f.evidence)) for f in report.findings),  # type: ignore[misc]
        facts=FactSet(dataclasses.replace(f, evidence=ev(f.evidence)) for f in report.facts),
        sources=tuple(dataclasses.replace(s, path=label) if s.path == path else s for s in report.sources),
        warnings=tuple(w.replace(path, label) for w in report.warnings),
    )


__all__ = ["FIELD_SELECTOR", "scan_cluster", "status_text"]
