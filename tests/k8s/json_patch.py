"""RFC 6902 as the API server applies it (test, add, remove, replace), to check that a patch
oomdoctor writes applies to the controller it names and does what it says."""

from __future__ import annotations

import copy
from typing import Any


class PatchFailed(Exception):
    pass


def _tokens(path: str) -> list[str]:
    if not path.startswith("/"):
        raise PatchFailed(f"bad path {path!r}")
    return [t.replace("~1", "/").replace("~0", "~") for t in path[1:].split("/")]


def _parent(doc: Any, tokens: list[str]) -> tuple[Any, str]:
    cur = doc
    for t in tokens[:-1]:
        if isinstance(cur, list):
            cur = cur[int(t)]
        elif isinstance(cur, dict) and t in cur:
            cur = cur[t]
        else:
            raise PatchFailed(f"missing {t!r}")
    return cur, tokens[-1]


def apply(doc: Any, ops: list[dict[str, Any]]) -> Any:
    doc = copy.deepcopy(doc)
    for op in ops:
        parent, key = _parent(doc, _tokens(op["path"]))
        kind = op["op"]
        if isinstance(parent, list):
            if key == "-" and kind == "add":
                parent.append(copy.deepcopy(op["value"]))
                continue
            i = int(key)
            if kind == "add":
                if i > len(parent):
                    raise PatchFailed(f"index {i} out of range")
                parent.insert(i, copy.deepcopy(op["value"]))
            elif i >= len(parent):
                raise PatchFailed(f"index {i} out of range")
            elif kind == "test" and parent[i] != op["value"]:
                raise PatchFailed(f"test failed at {op['path']}: {parent[i]!r} != {op['value']!r}")
            elif kind == "replace":
                parent[i] = copy.deepcopy(op["value"])
            elif kind == "remove":
                del parent[i]
        else:
            if kind == "add":
                parent[key] = copy.deepcopy(op["value"])
            elif key not in parent:
                raise PatchFailed(f"missing {key!r} at {op['path']}")
            elif kind == "test" and parent[key] != op["value"]:
                raise PatchFailed(f"test failed at {op['path']}: {parent[key]!r} != {op['value']!r}")
            elif kind == "replace":
                parent[key] = copy.deepcopy(op["value"])
            elif kind == "remove":
                del parent[key]
    return doc


def controller_of(pod: dict[str, Any], kind: str, name: str) -> dict[str, Any]:
    """The Deployment/StatefulSet whose template made `pod` (its spec as the template)."""
    spec = {k: v for k, v in pod["spec"].items() if k != "nodeName"}
    return {"apiVersion": "apps/v1", "kind": kind, "metadata": {"name": name, "namespace": pod["metadata"]["namespace"]},
            "spec": {"template": {"metadata": {"labels": pod["metadata"].get("labels", {})}, "spec": spec}}}
