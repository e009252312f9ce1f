"""Every copied estimate case: the estimator within the case's own tolerances.

A case records the framework version the log showed; where it is a plain version number
(`0.5.0.post1`) it is passed on, because some mechanisms are version-specific (vLLM cached
DeepSeek without MLA before 0.7.1)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from oomdoctor.memory import EstimateSettings, Framework, estimate, load_model
from oomdoctor.memory.dtypes import GIB

CASES = Path(__file__).resolve().parent.parent / "fixtures" / "estimates"
DEFAULT_TOL = {"weights_bytes": 0.03, "kv_bytes_per_token": 0.01, "kv_tokens": 0.05}


def _cases() -> list[Path]:
    return sorted(p.parent for p in CASES.glob("*/case.yaml"))


def _settings(spec: dict) -> EstimateSettings:
    args = spec.get("args") or {}
    gib = args.get("--gpu-memory-gib")
    version = str(spec.get("framework_version") or "")
    return EstimateSettings(
        framework=Framework.parse(args.get("--framework")),
        dtype=args.get("--dtype"),
        quantization=args.get("--quantization"),
        kv_cache_dtype=args.get("--kv-cache-dtype"),
        tensor_parallel_size=args.get("--tensor-parallel-size") or 1,
        pipeline_parallel_size=args.get("--pipeline-parallel-size") or 1,
        max_model_len=args.get("--max-model-len"),
        gpu_memory_bytes=int(gib * GIB) if gib else None,
        gpu_memory_utilization=args.get("--gpu-memory-utilization"),
        framework_version=version.split()[0] if version[:1].isdigit() else None,
    )


def test_cases_are_present() -> None:
    assert len(_cases()) >= 18


@pytest.mark.parametrize("case", _cases(), ids=lambda p: p.name)
def test_case_within_tolerance(case: Path) -> None:
    spec = yaml.safe_load((case / "case.yaml").read_text())
    e = estimate(load_model(str(case / "config.json")), _settings(spec))
    got = {"weights_bytes": e.weights_bytes, "kv_bytes_per_token": e.kv_bytes_per_token, "kv_tokens": e.kv_tokens}
    tol = {**DEFAULT_TOL, **(spec.get("tolerance") or {})}
    checked = 0
    for target, want in (spec.get("expect") or {}).items():
        if target == "kv_tokens" and not (spec.get("args") or {}).get("--gpu-memory-gib"):
            continue
        assert got[target] is not None, f"{target} missing"
        rel = abs(got[target] - want) / want
        assert rel <= tol[target], f"{target}: {got[target]} vs {want} ({rel:+.2%} > {tol[target]:.0%})"
        checked += 1
    assert checked >= 1
