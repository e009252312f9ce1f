"""Which containers failed, from a pod's status alone (pure: a Pod as the API's JSON in).

A container counts when its last termination (`lastState.terminated`, or `state.terminated`
for a pod that stays down) was `OOMKilled` or a non-zero exit, or when it waits in
`CrashLoopBackOff`; with `since`, only when that termination finished within the window.
Clean exits (`Completed`, exit 0) of a container that was then restarted do not count.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from typing import Any

from oomdoctor.errors import UsageError
from oomdoctor.k8s.model import FailedContainer, Termination

_DURATION = re.compile(r"(\d+(?:\.\d+)?)(ms|s|m|h|d|w)")
_UNIT_S = {"ms": 0.001, "s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}


def parse_duration(text: str) -> float:
    """`90s`, `30m`, `1h`, `1h30m`, `2d` -> seconds (kubectl's `--since` spelling, plus d and w)."""
    s = text.strip().lower()
    pos = 0
    total = 0.0
    for m in _DURATION.finditer(s):
        if m.start() != pos:
            break
        total += float(m.group(1)) * _UNIT_S[m.group(2)]
        pos = m.end()
    if not s or pos != len(s) or total <= 0:
        raise UsageError(f"--since {text!r} is not a duration (examples: 30m, 1h, 1h30m, 2d)")
    return total


def parse_time(text: str | None) -> datetime | None:
    """RFC 3339 as the API writes it (`2025-06-12T09:52:31Z`); None when absent or unreadable."""
    if not text:
        return None
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None


def termination(state: dict[str, Any] | None) -> Termination | None:
    term = (state or {}).get("terminated")
    if not term:
        return None
    return Termination(
        reason=term.get("reason"),
        exit_code=term.get("exitCode"),
        finished_at=term.get("finishedAt"),
        signal=term.get("signal"),
        message=term.get("message"),
    )


def failed(term: Termination | None) -> bool:
    return term is not None and (term.oom_killed or (term.exit_code is not None and term.exit_code != 0))


def failed_containers(pod: dict[str, Any], since_s: float | None = None, now: datetime | None = None) -> list[FailedContainer]:
    """The containers of `pod` that failed (init containers are not read)."""
    meta = pod.get("metadata") or {}
    status = pod.get("status") or {}
    node = (pod.get("spec") or {}).get("nodeName")
    now = now or datetime.now(timezone.utc)
    cutoff = now - timedelta(seconds=since_s) if since_s else None
    out: list[FailedContainer] = []
    for cs in status.get("containerStatuses") or ():
        state = cs.get("state") or {}
        current = termination(state)
        last = termination(cs.get("lastState"))
        waiting = (state.get("waiting") or {}).get("reason")
        restarts = int(cs.get("restartCount") or 0)
        if failed(current):
            term, previous = current, False
        elif failed(last):
            term, previous = last, True
        elif waiting == "CrashLoopBackOff":
            term, previous = last, last is not None
        else:
            continue
        if cutoff is not None and term is not None:
            finished = parse_time(term.finished_at)
            if finished is not None and finished < cutoff:
                continue
        out.append(FailedContainer(
            namespace=meta.get("namespace") or "",
            pod=meta.get("name") or "",
            container=cs.get("name") or "",
            restarts=restarts,
            termination=term,
            waiting_reason=waiting,
            previous=previous,
            why=_why(term, waiting),
            node=node,
        ))
    return out


def _why(term: Termination | None, waiting: str | None) -> str:
    parts = []
    if term is not None:
        if term.oom_killed:
            parts.append("OOMKilled")
        elif term.exit_code is not None:
            parts.append(f"{term.reason or 'exit'} (exit {term.exit_code})")
    if waiting:
        parts.append(waiting)
    return ", ".join(parts) or "failed"
