"""Facts from a pod's spec and status, its node's labels and its events (pure: API JSON in).

- the container's command + args -> `knob.*` (`launch.parse_argv`), its literal env -> `knob.*`
  (`launch.parse_env`); the framework from the command, else from the image name
- `resources.limits.memory` -> `host.cgroup_limit_bytes`; GPUs in the limits -> `gpu.count`
- an emptyDir on `/dev/shm` -> `host.shm_total_bytes` (its sizeLimit; no volume: the
  runtime's 64 MiB default)
- the node's GPU feature discovery labels -> `gpu.name`, `gpu.total_bytes`, `gpu.count`;
  its memory capacity -> `host.ram_total_bytes`
- the last termination: `OOMKilled` / exit 137 -> `oom.kind=exit_137`, `oom.exit_signal=137`,
  `oom.hint=container` (not when the kubelet killed it for a failed liveness/startup probe)
- node OOM events (`OOMKilling` from node-problem-detector, the kubelet's `SystemOOM`) near
  the termination -> `host.kernel_oom_kill`
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, Mapping, Sequence

from oomdoctor import launch
from oomdoctor.facts import Evidence, Fact, Origin
from oomdoctor.parsers.base import parse_quantity
from oomdoctor.k8s.model import FailedContainer
from oomdoctor.k8s.select import parse_time

SHM_PATH = "/dev/shm"
RUNTIME_SHM_DEFAULT = 64 << 20  # containerd and CRI-O give a container 64 MiB of /dev/shm
GPU_RESOURCES = ("nvidia.com/gpu", "amd.com/gpu", "gpu.intel.com/i915", "habana.ai/gaudi")
_MIG_RESOURCE = re.compile(r"^nvidia\.com/mig-(\d+)g\.(\d+)gb$")

# Image repository (last path parts) -> framework id; the command line is asked first.
_IMAGES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(?:^|/)vllm(?:-openai|-tpu|-cpu|-rocm)?(?::|@|$)|/vllm-openai|vllm/vllm"), "vllm"),
    (re.compile(r"sglang"), "sglang"),
    (re.compile(r"text-generation-inference|/tgi(?::|@|$)"), "tgi"),
    (re.compile(r"(?:^|/)ollama(?::|@|$)"), "ollama"),
    (re.compile(r"llama\.cpp|llama-cpp|llamacpp|llama-server"), "llamacpp"),
    (re.compile(r"lmdeploy"), "lmdeploy"),
    (re.compile(r"tensorrt-llm|tensorrtllm|trtllm"), "tensorrt-llm"),
)


def format_quantity(n: int) -> str:
    """Bytes as a Kubernetes quantity: whole GiB from 1 GiB up (rounded up), else MiB."""
    if n >= 1 << 30:
        return f"{-(-n // (1 << 30))}Gi"
    return f"{max(1, -(-n // (1 << 20)))}Mi"


def image_framework(image: str | None) -> str | None:
    name = (image or "").lower()
    for pat, fw in _IMAGES:
        if pat.search(name):
            return fw
    return None


def find_container(pod: Mapping[str, Any], name: str) -> tuple[int, dict[str, Any]] | None:
    for i, c in enumerate((pod.get("spec") or {}).get("containers") or ()):
        if c.get("name") == name:
            return i, c
    return None


def shell_script(container: Mapping[str, Any]) -> tuple[str, int, str] | None:
    """`command: [sh, -c, SCRIPT]` (or the script in args): (field, index, script)."""
    command = list(container.get("command") or ())
    args = list(container.get("args") or ())
    whole = command + args
    for i in range(1, len(whole) - 1):
        if whole[i] == "-c" and whole[i - 1].rsplit("/", 1)[-1] in ("sh", "bash", "dash", "ash", "zsh"):
            j = i + 1
            return ("command", j, whole[j]) if j < len(command) else ("args", j - len(command), whole[j])
    return None


def launch_argv(container: Mapping[str, Any]) -> list[str]:
    """The container's command line as an argv: command + args, a `sh -c` script split."""
    script = shell_script(container)
    if script is not None:
        return launch.split(script[2])
    return [str(x) for x in (container.get("command") or ())] + [str(x) for x in (container.get("args") or ())]


def literal_env(container: Mapping[str, Any]) -> dict[str, str]:
    """Env entries with a literal `value` (secretKeyRef/configMapKeyRef values are never read)."""
    return {e["name"]: str(e.get("value", "")) for e in container.get("env") or () if "name" in e and "value" in e}


def framework_of(container: Mapping[str, Any], override: str | None = None) -> str | None:
    return override or launch.detect_framework(" ".join(launch_argv(container))) or image_framework(container.get("image"))


def shm_volume(pod: Mapping[str, Any], container: Mapping[str, Any]) -> tuple[int, dict[str, Any]] | None:
    """The pod volume mounted on /dev/shm in this container (index in spec.volumes, volume)."""
    mount = next((m for m in container.get("volumeMounts") or () if (m.get("mountPath") or "").rstrip("/") == SHM_PATH), None)
    if mount is None:
        return None
    for i, v in enumerate((pod.get("spec") or {}).get("volumes") or ()):
        if v.get("name") == mount.get("name"):
            return i, v
    return None


@dataclass(frozen=True)
class PodFacts:
    facts: tuple[Fact, ...]
    framework: str | None
    argv: tuple[str, ...]  # launch command (memory-relevant env assignments first), for the report's diff
    notes: tuple[str, ...] = field(default_factory=tuple)
    command: tuple[str, ...] = ()  # command + args alone


def spec_facts(pod: Mapping[str, Any], target: FailedContainer, framework: str | None = None) -> PodFacts:
    found = find_container(pod, target.container)
    if found is None:
        return PodFacts((), framework, (), (f"container {target.container} is not in the pod spec",))
    _, c = found
    ns, name = target.namespace, target.pod
    src = f"pod/{ns}/{name}"
    fw = framework_of(c, framework)
    argv = launch_argv(c)
    facts: list[Fact] = []
    if argv:
        ev = Evidence(f"{src} spec.containers[{c.get('name')}].command+args", None, shlex.join(argv))
        facts += launch.parse_argv(argv, framework=fw, evidence=ev, origin=Origin.SETTINGS)
    env = literal_env(c)
    if env:
        shown = launch.relevant_env(env)
        ev = Evidence(f"{src} spec.containers[{c.get('name')}].env", None, " ".join(f"{k}={v}" for k, v in shown.items()))
        facts += launch.parse_env(env, evidence=ev, origin=Origin.SETTINGS)
    resources = c.get("resources") or {}
    limits = resources.get("limits") or {}
    mem = parse_quantity(limits.get("memory"))
    if mem:
        facts.append(Fact("host.cgroup_limit_bytes", mem, Origin.PROBE,
                          Evidence(f"{src} spec.containers[{c.get('name')}].resources", None, f"limits.memory: {limits['memory']}")))
    for res in GPU_RESOURCES:
        n = parse_quantity(limits.get(res))
        if n:
            facts.append(Fact("gpu.count", int(n), Origin.PROBE,
                              Evidence(f"{src} spec.containers[{c.get('name')}].resources", None, f"limits.{res}: {limits[res]}")))
            break
    for res, value in limits.items():
        m = _MIG_RESOURCE.match(res)
        if m:
            ev = Evidence(f"{src} spec.containers[{c.get('name')}].resources", None, f"limits.{res}: {value}")
            facts += [Fact("gpu.mig", True, Origin.PROBE, ev), Fact("gpu.total_bytes", int(m.group(2)) * 1000 << 20, Origin.PROBE, ev),
                      Fact("gpu.count", int(parse_quantity(value) or 1), Origin.PROBE, ev)]
            break
    shm = shm_volume(pod, c)
    if shm is not None:
        _, vol = shm
        empty = vol.get("emptyDir")
        size = parse_quantity((empty or {}).get("sizeLimit"))
        if empty is not None and size:
            facts.append(Fact("host.shm_total_bytes", size, Origin.PROBE,
                              Evidence(f"{src} spec.volumes[{vol.get('name')}]", None,
                                       f"emptyDir: medium={empty.get('medium') or 'disk'} sizeLimit={empty['sizeLimit']} on {SHM_PATH}")))
    else:
        facts.append(Fact("host.shm_total_bytes", RUNTIME_SHM_DEFAULT, Origin.PROBE,
                          Evidence(f"{src} spec", None, f"no volume on {SHM_PATH}: the container runtime's 64 MiB default")))
    shown_env = [f"{k}={v}" for k, v in launch.relevant_env(env).items() if v != "***" and k not in ("CUDA_VISIBLE_DEVICES",)]
    return PodFacts(tuple(facts), fw, tuple(shown_env + argv), command=tuple(argv))


def node_facts(node: Mapping[str, Any], container_gpus: int | None = None) -> list[Fact]:
    """GPU feature discovery labels (NVIDIA GFD, AMD node labeller) and memory capacity."""
    meta = node.get("metadata") or {}
    labels = meta.get("labels") or {}
    src = f"node/{meta.get('name', '?')}"
    facts: list[Fact] = []

    def ev(key: str) -> Evidence:
        return Evidence(src, None, f"{key}={labels.get(key)}")

    product_key = next((k for k in ("nvidia.com/gpu.product", "amd.com/gpu.product-name", "beta.amd.com/gpu.product-name")
                        if labels.get(k)), None)
    if product_key:
        product = str(labels[product_key])
        facts.append(Fact("gpu.name", product, Origin.PROBE, ev(product_key)))
        if _MIG_PRODUCT.search(product):
            facts.append(Fact("gpu.mig", True, Origin.PROBE, ev(product_key)))
    total = None
    if labels.get("nvidia.com/gpu.memory"):
        mib = parse_quantity(labels["nvidia.com/gpu.memory"])  # MiB, as GFD writes it
        if mib:
            total = (mib << 20, ev("nvidia.com/gpu.memory"))
    else:
        vram_key = next((k for k in ("amd.com/gpu.vram", "beta.amd.com/gpu.vram") if labels.get(k)), None)
        if vram_key:
            raw = str(labels[vram_key])
            size = parse_quantity(raw if raw[-1:] in ("i",) else raw.rstrip("B") + "i") if raw else None
            if size:
                total = (size, ev(vram_key))
    if total is None and product_key:
        guess = capacity_from_product(str(labels[product_key]))
        if guess:
            total = (guess, Evidence(src, None, f"{product_key}={labels[product_key]} (capacity from the card's name)"))
    if total is not None:
        facts.append(Fact("gpu.total_bytes", int(total[0]), Origin.PROBE, total[1]))
    if container_gpus is None:
        count_key = next((k for k in ("nvidia.com/gpu.count", "amd.com/gpu.count") if labels.get(k)), None)
        if count_key and str(labels[count_key]).isdigit():
            facts.append(Fact("gpu.count", int(labels[count_key]), Origin.PROBE, ev(count_key)))
    capacity = parse_quantity(((node.get("status") or {}).get("capacity") or {}).get("memory"))
    if capacity:
        facts.append(Fact("host.ram_total_bytes", capacity, Origin.PROBE,
                          Evidence(src, None, f"status.capacity.memory: {node['status']['capacity']['memory']}")))
    return facts


_MIG_PRODUCT = re.compile(r"MIG-(\d+)g\.(\d+)gb", re.I)


def capacity_from_product(product: str) -> int | None:
    """A GFD product label (`NVIDIA-A100-SXM4-80GB`, `...-MIG-3g.40gb`) -> bytes per device."""
    m = _MIG_PRODUCT.search(product)
    if m:
        return int(m.group(2)) * 1000 << 20
    from oomdoctor.gpus import capacity_from_name  # the shipped card table

    return capacity_from_name(product) or capacity_from_name(product.replace("-", " ").replace("_", " "))


def node_gpu_text(node: Mapping[str, Any], container_gpus: int | None = None) -> str | None:
    """The node's card as a person writes it (`2x NVIDIA-A100-SXM4-80GB`), for DiagnoseOptions.gpu."""
    labels = (node.get("metadata") or {}).get("labels") or {}
    product = labels.get("nvidia.com/gpu.product") or labels.get("amd.com/gpu.product-name") or labels.get("beta.amd.com/gpu.product-name")
    if not product:
        return None
    count = container_gpus or labels.get("nvidia.com/gpu.count") or labels.get("amd.com/gpu.count")
    return f"{count}x {product}" if count and str(count) != "1" else str(product)


def probe_kill(events: Sequence[Mapping[str, Any]], container: str) -> str | None:
    """The kubelet's `Killing` event when it killed the container for a failed probe."""
    for e in events:
        msg = str(e.get("message") or "")
        if e.get("reason") == "Killing" and re.search(r"failed (?:liveness|startup) probe", msg) and \
                (container in msg or container in str((e.get("involvedObject") or {}).get("fieldPath") or "")):
            return msg
    return None


def termination_facts(target: FailedContainer, events: Sequence[Mapping[str, Any]] = ()) -> tuple[list[Fact], list[str]]:
    """`oom.*` facts from the last termination; notes for what the status alone cannot say."""
    term = target.termination
    if term is None:
        return [], []
    src = f"pod/{target.namespace}/{target.pod}"
    field = "status.containerStatuses[{}].{}".format(target.container, "lastState" if target.previous else "state")
    ev = Evidence(f"{src} {field}", None,
                  f"terminated: reason={term.reason} exitCode={term.exit_code} finishedAt={term.finished_at}")
    if term.oom_killed:
        return [Fact("oom.kind", "exit_137", Origin.PROBE, ev), Fact("oom.exit_signal", "137", Origin.PROBE, ev),
                Fact("oom.hint", "container", Origin.PROBE, ev)], []
    if term.killed:
        probe = probe_kill(events, target.container)
        if probe:
            return [], [f"exit 137 was the kubelet's kill after a failed probe, not an OOM: {probe}"]
        return [Fact("oom.kind", "exit_137", Origin.PROBE, ev), Fact("oom.exit_signal", "137", Origin.PROBE, ev),
                Fact("oom.hint", "container", Origin.PROBE, ev)], []
    return [], []


_ANON_RSS = re.compile(r"anon-rss:(\d+)kB")


@dataclass(frozen=True)
class NodeOom:
    text: str
    anon_rss_bytes: int | None


def node_ooms(events: Sequence[Mapping[str, Any]], finished_at: str | None, window_s: float = 120.0) -> list[NodeOom]:
    """Node OOM events (`OOMKilling`, `SystemOOM`) within `window_s` of the termination."""
    end = parse_time(finished_at)
    out = []
    for e in events:
        if e.get("reason") not in ("OOMKilling", "SystemOOM"):
            continue
        when = parse_time(e.get("lastTimestamp") or e.get("eventTime") or e.get("firstTimestamp"))
        if end is not None and when is not None and abs(when - end) > timedelta(seconds=window_s):
            continue
        text = str(e.get("message") or "")
        m = _ANON_RSS.search(text)
        out.append(NodeOom(text, int(m.group(1)) << 10 if m else None))
    return out


def node_oom_facts(ooms: Sequence[NodeOom], node: str) -> list[Fact]:
    return [Fact("host.kernel_oom_kill", o.text[:200], Origin.PROBE, Evidence(f"node/{node} event", None, o.text)) for o in ooms]
