"""Plain-data views of an estimate (for JSON output and for renderers). Pure."""

from __future__ import annotations

from typing import Any

from oomdoctor.memory.estimator import Estimate
from oomdoctor.memory.fit import FitResult, MemoryMap


def model_summary(e: Estimate) -> dict[str, Any]:
    a = e.model.arch
    att = a.attention
    if att.is_mla:
        attention = f"mla latent {att.kv_lora_rank}+{att.qk_rope_head_dim}, {att.num_heads} heads"
    else:
        kind = "mha" if att.num_kv_heads == att.num_heads else ("mqa" if att.num_kv_heads == 1 else "gqa")
        attention = f"{kind} {att.num_heads}/{att.num_kv_heads} heads x {att.head_dim}"
    out: dict[str, Any] = {
        "origin": e.model.origin,
        "model_type": a.model_type,
        "params": e.weights.params,
        "layers": a.num_layers,
        "hidden_size": a.hidden_size,
        "attention": attention,
        "vocab_size": a.vocab_size,
        "tied_embeddings": a.tie_word_embeddings,
        "max_position_embeddings": a.max_position_embeddings,
    }
    if a.moe:
        out["moe"] = f"{a.moe.num_experts} experts, top-{a.moe.experts_per_token}, width {a.moe.expert_intermediate}"
    if a.sliding_layers:
        out["sliding_window_layers"] = a.sliding_layers
    if a.vision:
        out["vision_params"] = a.vision.params
    if e.model.gguf:
        out["gguf_file_type"] = e.model.gguf.file_type
        out["gguf_bits_per_weight"] = round(e.model.gguf.bits_per_weight, 3)
    return out


def _fit_notes(e: Estimate, fit: FitResult) -> list[str]:
    """What a bare number would hide: why no sequence fits, what the fraction means."""
    notes: list[str] = []
    if fit.max_num_seqs == 0:
        held = fit.current.held_tokens
        notes.append(
            f"max_num_seqs 0: not one sequence of {e.budget.context:,} tokens fits"
            + (f" (the KV pool holds {held:,} tokens)" if held is not None else "")
            + "; lower max_model_len" + (f" to {fit.max_model_len:,}" if fit.max_model_len else "")
            + " or free memory for the pool first")
    if fit.gpu_memory_utilization is not None:
        notes.append(f"gpu_memory_utilization {fit.gpu_memory_utilization} is the smallest fraction whose pool holds the "
                     f"load (a minimum; keep it at most {1 - fit.headroom:.2f} for headroom)")
    return notes


def estimate_dict(e: Estimate, fit: FitResult | None = None, table: MemoryMap | None = None) -> dict[str, Any]:
    s, b = e.settings, e.budget
    known_tokens = s.gpu_memory_bytes is not None or e.framework.whole_model
    out: dict[str, Any] = {
        "model": model_summary(e),
        "framework": e.framework.value,
        "settings": {
            "dtype": e.dtype,
            "quantization": e.scheme.label or e.scheme.method,
            "kv_cache_dtype": e.kv_dtype.name,
            "tensor_parallel_size": s.tensor_parallel_size,
            "pipeline_parallel_size": s.pipeline_parallel_size,
            "max_model_len": b.context,
            "max_num_seqs": b.sequences,
            "batched_tokens": b.batched_tokens,
            "gpu_memory_utilization": b.utilization,
            "gpu_memory_utilization_source": "given" if b.utilization_given else "default",
            "gpu_memory_bytes": s.gpu_memory_bytes,
        },
        "weights_bytes": e.weights_bytes,
        "weights_source": e.weights_source.value,
        "weights_total_bytes": e.weights.total_bytes if not e.model.gguf else e.weights_bytes,
        "bits_per_weight": round(e.weights.bits_per_weight, 3),
        "kv_bytes_per_token": e.kv_bytes_per_token,
        "kv_tokens": e.kv_tokens if known_tokens else None,
        "kv_cache_bytes": e.kv_cache_bytes if known_tokens else None,
        "non_torch_bytes": b.non_torch_bytes,
        "activation_peak_bytes": b.activation_bytes,
        "budget_bytes": b.budget_bytes,
        "ledger": e.ledger.as_dict(),
        "notes": list(e.notes),
    }
    if fit is not None:
        out["fit"] = {
            "fits": fit.current.fits,
            "within_headroom": fit.current.within_headroom,
            "headroom": fit.headroom,
            "needed_tokens": fit.current.needed_tokens,
            "used_bytes": fit.current.used_bytes,
            "max_model_len": fit.max_model_len,
            "max_num_seqs": fit.max_num_seqs,
            "gpu_memory_utilization": fit.gpu_memory_utilization,
            "kv_cache_dtype": fit.kv_cache_dtype,
            "tensor_parallel_size": fit.tensor_parallel_size,
            "gpu_layers": fit.gpu_layers,
            # gpu_memory_utilization is the smallest fraction whose pool holds the load: a minimum
            "gpu_memory_utilization_bound": "minimum" if fit.gpu_memory_utilization is not None else None,
            "notes": _fit_notes(e, fit),
        }
    if table is not None:
        out["table"] = {
            "contexts": list(table.contexts),
            "concurrencies": list(table.concurrencies),
            "usable_bytes": table.usable_bytes,
            "rows": [[{"bytes": c.used_bytes, "fits": c.fits} for c in row] for row in table.cells],
        }
    return out
