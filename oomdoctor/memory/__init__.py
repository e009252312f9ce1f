"""The memory model: four accounts per GPU (weights, KV cache, activations, framework), an
estimator that fills them from a model description and launch settings, and a fit solver.

Typical use::

    from oomdoctor.memory import EstimateSettings, Framework, estimate, load_model, solve

    model = load_model("config.json")            # or a model dir, a .gguf, an ORG/NAME in the HF cache
    e = estimate(model, EstimateSettings(framework=Framework.VLLM, gpu_memory_bytes=80 << 30))
    e.weights_bytes, e.kv_bytes_per_token, e.kv_tokens, e.ledger
    solve(e).max_model_len

Everything here is pure except `config.py` (reads the files).
"""

from __future__ import annotations

from oomdoctor.memory.arch import ModelArch, arch_from_gguf_metadata, arch_from_hf_config
from oomdoctor.memory.config import load_model
from oomdoctor.memory.estimator import Estimate, Given, estimate
from oomdoctor.memory.facts_hook import estimate_facts, given_from_facts, settings_from_facts
from oomdoctor.memory.fit import FitCheck, FitResult, MemoryMap, check, memory_map, solve
from oomdoctor.memory.ledger import Account, Ledger, Source
from oomdoctor.memory.model import GgufInfo, ModelSource
from oomdoctor.memory.policies import EstimateSettings, Framework

__all__ = [
    "Account", "Estimate", "EstimateSettings", "FitCheck", "FitResult", "Framework", "GgufInfo", "Given",
    "Ledger", "MemoryMap", "ModelArch", "ModelSource", "Source", "arch_from_gguf_metadata", "arch_from_hf_config",
    "check", "estimate", "estimate_facts", "given_from_facts", "load_model", "memory_map", "settings_from_facts",
    "solve",
]
