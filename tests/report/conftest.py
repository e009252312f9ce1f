"""Reports built by hand from realistic values (until `diagnose()` lands), shared by the
renderer tests."""

from __future__ import annotations

from typing import Any

import pytest

from oomdoctor.facts import Evidence, Fact, FactSet, Origin
from oomdoctor.model import (
    Account,
    Action,
    Confidence,
    Culprit,
    Finding,
    LedgerEntry,
    LogSource,
    Report,
    StepStatus,
    Suggestion,
    TriageStep,
)

GiB = 1024**3
MiB = 1024**2
LOG = "/var/log/vllm/server.log"

KV_ERROR = (
    "ValueError: The model's max seq len (131072) is larger than the maximum number of tokens "
    "that can be stored in KV cache (28672). Try increasing `gpu_memory_utilization` or "
    "decreasing `max_model_len` when initializing the engine."
)
MEMORY_LINE = (
    "INFO 10-14 09:12:41 worker.py:232] Memory profiling results: total_gpu_memory=22.06GiB "
    "initial_memory_usage=15.30GiB peak_torch_memory=16.35GiB memory_usage_post_profile=15.42GiB "
    "non_torch_memory=0.13GiB kv_cache_size=3.50GiB gpu_memory_utilization=0.90"
)
LAUNCH = [
    "vllm", "serve", "meta-llama/Llama-3.1-8B-Instruct",
    "--max-model-len", "131072",
    "--gpu-memory-utilization", "0.9",
    "--api-key", "token-abc123secret",
]


def _ev(line: int, text: str, source: str = LOG) -> Evidence:
    return Evidence(source, line, text)


def _sug(knob: str, action: Action, value: Any, flag: str | None, why: str, account: Account = Account.KV_CACHE,
         rerunnable: bool = True) -> Suggestion:
    return Suggestion(knob, action, value, flag, why, "kv-max-model-len-exceeds-capacity", account, rerunnable)


def kv_suggestions() -> tuple[Suggestion, ...]:
    return (
        _sug("max_model_len", Action.SET, 28672, "--max-model-len 28672", "largest context the KV pool holds"),
        _sug("gpu_memory_utilization", Action.RAISE, 0.95, "--gpu-memory-utilization 0.95",
             "gives the KV pool 1.10 GiB more"),
        _sug("kv_cache_dtype", Action.SET, "fp8", "--kv-cache-dtype fp8", "halves KV bytes per token"),
    )


def kv_report(**changes: Any) -> Report:
    sugs = kv_suggestions()
    finding = Finding(
        rule_id="kv-max-model-len-exceeds-capacity",
        account=Account.KV_CACHE,
        title="Context length needs more KV cache than the GPU has left",
        message="max_model_len=131072 but the KV cache holds only 28672 tokens (3.50 GiB).",
        confidence=Confidence.HIGH,
        evidence=(_ev(88, MEMORY_LINE), _ev(97, KV_ERROR)),
        suggestions=sugs,
    )
    facts = FactSet([
        Fact("framework", "vllm", Origin.LOG),
        Fact("knob.max_model_len", 131072, Origin.LOG, _ev(12, "non-default args: {'max_model_len': 131072}")),
        Fact("oom.kv_capacity_tokens", 28672, Origin.LOG, _ev(97, KV_ERROR)),
        Fact("mem.kv_cache_bytes", int(3.50 * GiB), Origin.LOG, _ev(88, MEMORY_LINE)),
        Fact("oom.message", KV_ERROR, Origin.LOG, _ev(97, KV_ERROR)),
    ])
    base = Report(
        schema_version="1",
        framework="vllm",
        framework_version="0.6.3.post1",
        culprit=Culprit.KV_CACHE,
        confidence=Confidence.HIGH,
        phase="kv_alloc",
        summary="KV cache: max_model_len 131072 needs more KV than the 3.50 GiB pool holds (28672 tokens). "
        "Set --max-model-len 28672.",
        findings=(finding,),
        suggestions=sugs,
        triage=(
            TriageStep(Account.WEIGHTS, StepStatus.RULED_OUT, "weights take 14.99 GiB of 22.06 GiB (68.0%)"),
            TriageStep(Account.KV_CACHE, StepStatus.CULPRIT, "131072-token context needs 16.00 GiB of KV; pool is 3.50 GiB"),
            TriageStep(Account.ACTIVATIONS, StepStatus.NOT_REACHED, ""),
            TriageStep(Account.FRAMEWORK, StepStatus.NOT_REACHED, ""),
        ),
        ledger=(
            LedgerEntry("weights", int(14.99 * GiB), "log", "model weights took 14.99GiB"),
            LedgerEntry("kv_cache", int(3.50 * GiB), "log", "kv_cache_size"),
            LedgerEntry("activations", int(1.23 * GiB), "log", "peak_torch_memory - weights"),
            LedgerEntry("framework", int(0.13 * GiB), "log", "non_torch_memory"),
            LedgerEntry("capacity", int(22.06 * GiB), "log", "total_gpu_memory (NVIDIA L4)"),
        ),
        facts=facts,
        sources=(LogSource(LOG, "server.log", 140, 97, "10-14 09:12:44"),),
        memory_failure=True,
        extra={"launch_command": list(LAUNCH)},
    )
    return _replace(base, **changes)


def _replace(report: Report, **changes: Any) -> Report:
    import dataclasses

    return dataclasses.replace(report, **changes) if changes else report


def multi_rank_report() -> Report:
    r0, r1 = "/logs/pod-0/server.log", "/logs/pod-1/server.log"
    oom = ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 1 has a total capacity "
           "of 79.15 GiB of which 1.06 GiB is free. Including non-PyTorch memory, this process has 78.08 GiB "
           "memory in use. Of the allocated memory 74.51 GiB is allocated by PyTorch, and 2.11 GiB is reserved "
           "by PyTorch but unallocated.")
    sug = Suggestion("max_num_batched_tokens", Action.LOWER, 4096, "--max-num-batched-tokens 4096",
                     "halves the prefill activation peak", "act-prefill-peak", Account.ACTIVATIONS)
    frag = Suggestion("expandable_segments", Action.ENABLE, True, "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True",
                      "2.11 GiB reserved but unallocated", "fw-fragmentation", Account.FRAMEWORK)
    findings = (
        Finding("act-prefill-peak", Account.ACTIVATIONS, "Prefill activation peak exceeds free memory",
                "A 2.00 GiB prefill allocation failed with 1.06 GiB free (max_num_batched_tokens=8192).",
                Confidence.MEDIUM, (Evidence(r1, 4211, oom),), (sug,), source="pod-1"),
        Finding("fw-fragmentation", Account.FRAMEWORK, "Allocator fragmentation",
                "2.11 GiB is reserved by PyTorch but unallocated.", Confidence.LOW,
                (Evidence(r0, 4388, oom.replace("GPU 1", "GPU 0")),), (frag,), source="pod-0"),
    )
    return Report(
        schema_version="1", framework="vllm", framework_version="0.8.5", culprit=Culprit.ACTIVATIONS,
        confidence=Confidence.MEDIUM, phase="prefill",
        summary="Activations: a prefill peak of 2.00 GiB failed with 1.06 GiB free on pod-1 (first to fail).",
        findings=findings, suggestions=(sug, frag),
        triage=(
            TriageStep(Account.WEIGHTS, StepStatus.RULED_OUT, "weights take 37.62 GiB of 79.15 GiB per GPU"),
            TriageStep(Account.KV_CACHE, StepStatus.RULED_OUT, "KV pool allocated at start-up (33.80 GiB); failure is a new allocation"),
            TriageStep(Account.ACTIVATIONS, StepStatus.CULPRIT, "2.00 GiB prefill allocation, 1.06 GiB free"),
            TriageStep(Account.FRAMEWORK, StepStatus.SECONDARY, "2.11 GiB reserved but unallocated"),
        ),
        ledger=(
            LedgerEntry("weights", int(37.62 * GiB), "log"),
            LedgerEntry("kv_cache", int(33.80 * GiB), "log"),
            LedgerEntry("activations", int(3.09 * GiB), "log"),
            LedgerEntry("framework", int(3.58 * GiB), "log"),
            LedgerEntry("capacity", int(79.15 * GiB), "log", "NVIDIA H100 80GB HBM3"),
        ),
        facts=FactSet(),
        sources=(
            LogSource(r0, "pod-0", 5120, 4388, "2025-05-02T10:41:07Z"),
            LogSource(r1, "pod-1", 5012, 4211, "2025-05-02T10:41:05Z"),
        ),
        failed_first="pod-1", memory_failure=True,
    )


def unknown_report() -> Report:
    line = "RuntimeError: CUDA error: out of memory"
    return Report(
        schema_version="1", framework="sglang", framework_version=None, culprit=Culprit.UNKNOWN,
        confidence=None, phase=None, summary="A CUDA out-of-memory error, but the log has no memory accounting.",
        findings=(), suggestions=(), triage=(), ledger=(), facts=FactSet([Fact("oom.message", line, Origin.LOG, Evidence("sg.log", 3, line))]),
        sources=(LogSource("sg.log", "sg.log", 3, 3, None),),
        missing_evidence=("the launch command (server_args=ServerArgs(...) line)",
                          "the KV pool line: 'KV Cache is allocated. #tokens: ..., K size: ...'",
                          "nvidia-smi output at the time of the failure"),
        warnings=("no framework version in the log",), skipped=("nvml: pynvml not installed",),
        memory_failure=True,
    )


@pytest.fixture
def kv() -> Report:
    return kv_report()


@pytest.fixture
def multi() -> Report:
    return multi_rank_report()


@pytest.fixture
def unknown() -> Report:
    return unknown_report()


@pytest.fixture
def make_kv():
    """`make_kv(**changes)`: the KV report with fields replaced."""
    return kv_report
