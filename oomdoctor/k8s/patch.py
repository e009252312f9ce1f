"""The fix written against the pod's controller: a `kubectl patch --type=json` (RFC 6902).

The owner is read from the pod alone (no RBAC on ReplicaSets/Deployments needed): a pod of a
Deployment is owned by a ReplicaSet named `<deployment>-<pod-template-hash>`, and carries
that hash as a label; a StatefulSet or DaemonSet owns its pods directly.

The first of the report's suggestions (triage order) that the pod spec can express becomes
the patch:

- a flag (`--max-model-len 23648`) -> the container's `args` (or `command`, where the flag
  already is; inside a one-line `sh -c` script), through `launch.apply_setting`;
- an environment assignment (`PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True`) -> `env`;
- `host_ram` -> `resources.limits.memory` raised (and `requests.memory` with it when they
  were equal, so a Guaranteed pod stays Guaranteed);
- `shm_size` -> the `sizeLimit` of the memory-backed emptyDir on /dev/shm (added if absent).

Only the elements that change are written, each behind `test` operations on the container's
name and the old values: the patch carries no other argument (no secrets), and kubectl
refuses it if the controller's template no longer matches the pod it was written from.
Pure: API JSON and a Report in.
"""

from __future__ import annotations

import math
import re
import shlex
from typing import Any, Mapping, Sequence

from oomdoctor import launch
from oomdoctor.k8s.facts import find_container, format_quantity, shell_script, shm_volume
from oomdoctor.k8s.model import FailedContainer, PodPatch
from oomdoctor.model import Report, Suggestion
from oomdoctor.parsers.base import parse_quantity, written_size

TEMPLATE = "/spec/template/spec"
PATCHABLE = ("Deployment", "StatefulSet", "DaemonSet")
LIMIT_GROWTH = 1.5  # a limit the container was killed at, raised by half when the log gives no number
_SHELL_OPS = re.compile(r"[;&|\n`<>]|\$\(")


def owner(pod: Mapping[str, Any]) -> tuple[str, str] | str:
    """(kind, name) of the controller whose template makes this pod, or why there is none."""
    meta = pod.get("metadata") or {}
    refs = meta.get("ownerReferences") or []
    ref = next((r for r in refs if r.get("controller")), refs[0] if refs else None)
    if ref is None:
        return "a bare pod with no controller: change its manifest and re-create it"
    kind, name = str(ref.get("kind")), str(ref.get("name"))
    if kind == "ReplicaSet":
        h = (meta.get("labels") or {}).get("pod-template-hash")
        if h and name.endswith(f"-{h}"):
            return "Deployment", name[: -len(h) - 1]
        return f"owned by ReplicaSet {name}, not named after a Deployment: change the template of whatever owns it"
    if kind in ("StatefulSet", "DaemonSet"):
        return kind, name
    if kind == "Job":
        return f"owned by Job {name}: a Job's pod template cannot be patched; change its CronJob or manifest and re-create it"
    return f"owned by {kind} {name}: change the setting in that resource (its operator re-creates the pod)"


def build_patch(pod: Mapping[str, Any], target: FailedContainer, report: Report | None, framework: str | None = None,
                anon_rss_bytes: int | None = None) -> tuple[PodPatch | None, str | None]:
    """The patch for the first suggestion the spec can express, or (None, why not)."""
    if report is None or not report.suggestions:
        return None, "no suggestion to apply"
    found = find_container(pod, target.container)
    if found is None:
        return None, f"container {target.container} is not in the pod spec"
    index, container = found
    who = owner(pod)
    fw = framework or (report.framework if report.framework not in ("unknown", "generic", None) else None)
    skipped: list[str] = []
    for s in report.suggestions:
        made = _change(pod, index, container, s, fw, report, anon_rss_bytes)
        if isinstance(made, str):
            skipped.append(made)
            continue
        if made is None:
            continue
        ops, change = made
        if isinstance(who, str):
            return None, f"{who} ({change})"
        kind, name = who
        return PodPatch(kind=kind, name=name, namespace=target.namespace, ops=tuple(ops), change=change, why=s.why,
                        knob=s.knob), None
    first = report.suggestions[0]
    note = f"no suggestion maps onto the pod spec (first: {first.flag or first.knob})"
    return None, note + (f"; {skipped[0]}" if skipped else "")


# ------------------------------------------------------------------ one suggestion


def _change(pod: Mapping[str, Any], i: int, c: Mapping[str, Any], s: Suggestion, fw: str | None, report: Report,
            anon_rss: int | None) -> tuple[list[dict[str, Any]], str] | str | None:
    """(ops, change) for a suggestion, a reason it cannot be applied (str), or None (not spec-shaped)."""
    if s.knob == "host_ram":
        return _memory_limit(i, c, report, anon_rss)
    if s.knob == "shm_size":
        return _shm(pod, i, c, s)
    from oomdoctor.report.fmt import split_flag

    setting, _ = split_flag(s.flag)
    if not setting:
        return None
    parts = launch.split_setting(setting)
    if parts is None:
        return None  # prose, a docker/Modelfile line: not a container argument
    envs, flags = parts
    ops: list[dict[str, Any]] = []
    changes: list[str] = []
    if flags:
        made = _argv_ops(i, c, shlex.join(flags), fw)
        if made is None or isinstance(made, str):
            return made
        ops += made[0]
        changes.append(made[1])
    if envs:
        made_env = _env_ops(i, c, envs)
        if isinstance(made_env, str):
            return made_env
        ops += made_env[0]
        changes.append(made_env[1])
    return [_name_test(i, c), *ops], "; ".join(changes)


def _name_test(i: int, c: Mapping[str, Any]) -> dict[str, Any]:
    return {"op": "test", "path": f"{TEMPLATE}/containers/{i}/name", "value": c.get("name")}


def _appended(old: Sequence[str], new: Sequence[str]) -> bool:
    return len(new) > len(old) and list(new[: len(old)]) == list(old)


def _argv_ops(i: int, c: Mapping[str, Any], setting: str, fw: str | None) -> tuple[list[dict[str, Any]], str] | str | None:
    base = f"{TEMPLATE}/containers/{i}"
    flag = shlex.split(setting)[0]
    names = launch.spellings(fw or "", flag)
    script = shell_script(c)
    if script is not None:
        field, j, text = script
        if _SHELL_OPS.search(text):
            return f"the launch command is a multi-command shell script: set {setting} in it by hand"
        old = launch.split(text)
        new = launch.apply_setting(old, setting)
        if new is None:
            return None
        new_text = shlex.join(new)
        path = f"{base}/{field}/{j}"
        return ([{"op": "test", "path": path, "value": text}, {"op": "replace", "path": path, "value": new_text}],
                _describe(f"{field} (sh -c)", setting, old, names))
    for field in ("args", "command"):
        old = [str(x) for x in (c.get(field) or ())]
        if not old:
            continue
        new = launch.apply_setting(old, setting)
        if new is None:
            return None
        if not _appended(old, new) and new != old:
            return _list_ops(f"{base}/{field}", old, new), _describe(field, setting, old, names)
    old_args = [str(x) for x in (c.get("args") or ())] if "args" in c else None
    new = launch.apply_setting(old_args or [], setting)
    if new is None:
        return None
    return _list_ops(f"{base}/args", old_args, new), _describe("args", setting, old_args or [], names)


def _describe(field: str, setting: str, old: Sequence[str], names: Sequence[str]) -> str:
    was = launch.flag_value(old, names) if old else None
    return f"{field}: {setting}" + (f" (was {was})" if was is not None else " (added)")


def _list_ops(path: str, old: Sequence[str] | None, new: Sequence[str]) -> list[dict[str, Any]]:
    """Minimal RFC 6902 operations turning `old` into `new`, guarded by tests of what they replace."""
    if old is None:
        return [{"op": "add", "path": path, "value": list(new)}]
    p = 0
    while p < min(len(old), len(new)) and old[p] == new[p]:
        p += 1
    q = 0
    while q < min(len(old), len(new)) - p and old[len(old) - 1 - q] == new[len(new) - 1 - q]:
        q += 1
    old_mid, new_mid = list(old[p:len(old) - q]), list(new[p:len(new) - q])
    ops: list[dict[str, Any]] = []
    if p > 0:  # the flag before the change, so the index is the one we read
        ops.append({"op": "test", "path": f"{path}/{p - 1}", "value": old[p - 1]})
    ops += [{"op": "test", "path": f"{path}/{p + k}", "value": v} for k, v in enumerate(old_mid)]
    if len(old_mid) == len(new_mid):
        ops += [{"op": "replace", "path": f"{path}/{p + k}", "value": v} for k, v in enumerate(new_mid)]
        return ops
    ops += [{"op": "remove", "path": f"{path}/{p + k}"} for k in reversed(range(len(old_mid)))]
    length = len(old) - len(old_mid)
    for k, v in enumerate(new_mid):
        at = p + k
        ops.append({"op": "add", "path": f"{path}/{'-' if at == length else at}", "value": v})
        length += 1
    return ops


def _env_ops(i: int, c: Mapping[str, Any], assigns: Sequence[str]) -> tuple[list[dict[str, Any]], str] | str:
    base = f"{TEMPLATE}/containers/{i}/env"
    env = list(c.get("env") or ())
    ops: list[dict[str, Any]] = []
    added: list[dict[str, str]] = []
    for assign in assigns:
        name, _, value = assign.partition("=")
        idx = next((k for k, e in enumerate(env) if e.get("name") == name), None)
        if idx is None:
            added.append({"name": name, "value": value})
            continue
        entry = env[idx]
        if "valueFrom" in entry:
            return f"{name} comes from a secret/configMap reference: set {assign} there"
        if name in launch.ALLOC_CONF:
            value = launch.merge_alloc_conf(entry.get("value"), value)
        ops.append({"op": "test", "path": f"{base}/{idx}/name", "value": name})
        if "value" in entry:
            ops.append({"op": "test", "path": f"{base}/{idx}/value", "value": entry["value"]})
            ops.append({"op": "replace", "path": f"{base}/{idx}/value", "value": value})
        else:
            ops.append({"op": "add", "path": f"{base}/{idx}/value", "value": value})
    if added:
        if "env" in c and c.get("env") is not None:
            ops += [{"op": "add", "path": f"{base}/-", "value": e} for e in added]
        else:
            ops.append({"op": "add", "path": base, "value": added})
    return ops, "env: " + " ".join(assigns)


def _memory_limit(i: int, c: Mapping[str, Any], report: Report, anon_rss: int | None) -> tuple[list[dict[str, Any]], str] | str:
    base = f"{TEMPLATE}/containers/{i}/resources"
    resources = c.get("resources") or {}
    limits = resources.get("limits") or {}
    requests = resources.get("requests") or {}
    old_text = limits.get("memory")
    old = parse_quantity(old_text)
    stated = report.facts.value("mem.host_required_bytes") or report.facts.value("oom.host_required_bytes")
    wants = [int(anon_rss * 1.25)] if anon_rss else []
    if isinstance(stated, (int, float)) and stated > 0:
        wants.append(int(stated * 1.2))
    if not old:
        if not wants:
            return ("no memory limit: the node itself ran out of memory; set resources.requests.memory to what the "
                    "server uses so the scheduler reserves it")
        new_req = format_quantity(max(wants))
        if "resources" not in c or c.get("resources") is None:
            op = {"op": "add", "path": base, "value": {"requests": {"memory": new_req}}}
        elif "requests" not in resources or resources.get("requests") is None:
            op = {"op": "add", "path": f"{base}/requests", "value": {"memory": new_req}}
        else:
            op = {"op": "add", "path": f"{base}/requests/memory", "value": new_req}
        return [_name_test(i, c), op], f"requests.memory: {new_req} (no limit: the node ran out)"
    new_bytes = max([int(math.ceil(old * LIMIT_GROWTH))] + wants)
    new_text = format_quantity(new_bytes)
    ops = [_name_test(i, c),
           {"op": "test", "path": f"{base}/limits/memory", "value": old_text},
           {"op": "replace", "path": f"{base}/limits/memory", "value": new_text}]
    change = f"limits.memory: {new_text} (was {old_text})"
    if requests.get("memory") is not None and parse_quantity(requests.get("memory")) == old:
        ops += [{"op": "test", "path": f"{base}/requests/memory", "value": requests["memory"]},
                {"op": "replace", "path": f"{base}/requests/memory", "value": new_text}]
        change += ", requests too"
    return ops, change


def _shm_bytes(value: Any) -> int | None:
    """`2g`, `16g`, `1Gi`, `512m` (docker --shm-size spelling or a quantity) -> bytes."""
    if value is None:
        return None
    text = str(value).strip()
    size = written_size(text)
    return size if size is not None else parse_quantity(text)


def _shm(pod: Mapping[str, Any], i: int, c: Mapping[str, Any], s: Suggestion) -> tuple[list[dict[str, Any]], str] | str:
    wanted = _shm_bytes(s.value) or 16 << 30
    found = shm_volume(pod, c)
    volumes = (pod.get("spec") or {}).get("volumes")
    if found is None:
        names = {v.get("name") for v in volumes or ()}
        vname = "dshm" if "dshm" not in names else "oomdoctor-dshm"
        size = format_quantity(wanted)
        new_volume: dict[str, Any] = {"name": vname, "emptyDir": {"medium": "Memory", "sizeLimit": size}}
        mount = {"name": vname, "mountPath": "/dev/shm"}
        ops = [_name_test(i, c)]
        ops.append({"op": "add", "path": f"{TEMPLATE}/volumes/-", "value": new_volume} if volumes is not None
                   else {"op": "add", "path": f"{TEMPLATE}/volumes", "value": [new_volume]})
        mounts_path = f"{TEMPLATE}/containers/{i}/volumeMounts"
        ops.append({"op": "add", "path": f"{mounts_path}/-", "value": mount} if c.get("volumeMounts") is not None
                   else {"op": "add", "path": mounts_path, "value": [mount]})
        return ops, f"/dev/shm: {size} emptyDir in memory (was the runtime's 64Mi)"
    vi, vol = found
    empty = vol.get("emptyDir")
    if empty is None:
        return f"/dev/shm is mounted from volume {vol.get('name')!r}, not an emptyDir: size it there"
    path = f"{TEMPLATE}/volumes/{vi}/emptyDir"
    test = {"op": "test", "path": f"{TEMPLATE}/volumes/{vi}/name", "value": vol.get("name")}
    current = parse_quantity(empty.get("sizeLimit"))
    size = format_quantity(max(wanted, 2 * current) if current else wanted)
    if empty.get("medium") != "Memory":
        return [test, {"op": "replace", "path": path, "value": {"medium": "Memory", "sizeLimit": size}}], \
            f"/dev/shm: {size} emptyDir in memory (was on disk)"
    if current:
        return [test, {"op": "test", "path": f"{path}/sizeLimit", "value": empty["sizeLimit"]},
                {"op": "replace", "path": f"{path}/sizeLimit", "value": size}], \
            f"/dev/shm: sizeLimit {size} (was {empty['sizeLimit']})"
    return [test, {"op": "add", "path": f"{path}/sizeLimit", "value": size}], f"/dev/shm: sizeLimit {size}"
