"""`oomdoctor k8s`: from crashed pods to diagnoses, across a namespace or a cluster.

    api.py      the Kubernetes API calls (the only module importing `kubernetes`)
    select.py   which containers failed, from a pod's status
    facts.py    facts from the pod spec, the node's GPU labels, the termination and events
    patch.py    the fix as a `kubectl patch --type=json` for the owning controller
    scan.py     list -> read (bounded concurrency) -> diagnose -> patch
    render.py   table / JSON / Markdown, one file per pod
    model.py    the frozen result types
"""

from __future__ import annotations

from oomdoctor.k8s.model import ClusterInfo, ClusterScan, FailedContainer, PodPatch, PodResult, ScanOptions, Termination

__all__ = ["ClusterInfo", "ClusterScan", "FailedContainer", "PodPatch", "PodResult", "ScanOptions", "Termination"]
