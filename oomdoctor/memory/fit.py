"""The fit solver and the memory map.

A load (`concurrency` sequences of the full context) fits when
- engines with a preallocated pool (vLLM, SGLang, TensorRT-LLM, TGI): the pool holds its tokens;
  the memory fraction keeps the headroom (DOMAIN.md: 10-20%) when it is at most 1 - headroom;
- llama.cpp, Ollama, transformers: weights + KV + compute + context <= card x (1 - headroom).

The solver answers one knob at a time (the sources' working method): the largest context, the
most full-length sequences, the smallest memory fraction within the headroom, the first smaller
KV dtype, the smallest tensor-parallel size, the most llama.cpp GPU layers.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

from oomdoctor.memory.estimator import Estimate, Given, estimate
from oomdoctor.memory.policies import Framework

DEFAULT_HEADROOM = 0.10
TP_CHOICES = (1, 2, 4, 8, 16)
CONTEXT_COLUMNS = (1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072, 262144)
CONCURRENCY_ROWS = (1, 2, 4, 8, 16, 32, 64, 128, 256)
KV_DTYPE_LADDER = {
    Framework.LLAMACPP: ("f16", "q8_0", "q4_0"),
    Framework.OLLAMA: ("f16", "q8_0", "q4_0"),
}
KV_DTYPE_LADDER_DEFAULT = ("auto", "fp8")


@dataclass(frozen=True)
class FitCheck:
    fits: bool | None  # the load fits (None: the card's size is unknown)
    within_headroom: bool | None  # the memory fraction (or total use) keeps the headroom
    needed_tokens: int
    held_tokens: int | None
    used_bytes: int  # what the configuration touches at that load
    usable_bytes: int | None  # what it may touch

@dataclass(frozen=True)
class FitResult:
    current: FitCheck
    headroom: float
    max_model_len: int | None
    max_num_seqs: int | None
    gpu_memory_utilization: float | None
    kv_cache_dtype: str | None
    tensor_parallel_size: int | None
    gpu_layers: int | None


def _concurrency(e: Estimate, concurrency: int | None) -> int:
    if concurrency is not None:
        return concurrency
    if e.framework == Framework.OLLAMA:
        return 1  # Ollama's cache already multiplies num_ctx by the parallel slots
    return 1 if e.framework.preallocates_pool or e.framework == Framework.LLAMACPP else (e.settings.max_num_seqs or 1)


def check(e: Estimate, *, concurrency: int | None = None, headroom: float = DEFAULT_HEADROOM) -> FitCheck:
    """Does `e` hold `concurrency` sequences of its full context?"""
    c = _concurrency(e, concurrency)
    needed = e.budget.context * c
    if e.framework == Framework.OLLAMA:
        needed = e.budget.kv_tokens or needed
    used = e.weights_bytes + e.budget.non_torch_bytes + e.budget.activation_bytes + needed * e.kv_bytes_per_token
    cap = e.settings.gpu_memory_bytes
    if cap is None:
        return FitCheck(None, None, needed, e.kv_tokens, used, None)
    if e.framework.preallocates_pool:
        util = e.budget.utilization or 0.9
        within = util <= 1 - headroom + 1e-9 if e.framework != Framework.TRTLLM else used <= cap * (1 - headroom / 2)
        held = e.kv_tokens or 0
        usable = int(cap * util) if e.framework != Framework.TRTLLM else cap
        return FitCheck(held >= needed, within, needed, held, used, usable)
    usable = int(cap * (1 - headroom))
    return FitCheck(used <= usable, used <= usable, needed, e.kv_tokens, used, usable)


def _rerun(e: Estimate, given: Given, **changes: object) -> Estimate:
    same_split = all(k not in changes for k in ("tensor_parallel_size", "pipeline_parallel_size", "dtype",
                                                "quantization", "framework"))
    return estimate(e.model, replace(e.settings, **changes), given, e.weights if same_split else None)


def _largest(lo: int, hi: int, ok: Callable[[int], bool]) -> int | None:
    """Largest n in [lo, hi] with ok(n), for a monotone (true-then-false) predicate."""
    if hi < lo or not ok(lo):
        return None
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if ok(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


def solve_max_model_len(e: Estimate, given: Given = Given(), *, concurrency: int | None = None,
                        headroom: float = DEFAULT_HEADROOM) -> int | None:
    if e.settings.gpu_memory_bytes is None:
        return None
    step = 256 if e.framework.whole_model else max(16, e.budget.block_size)
    top = max(e.model.arch.max_position_embeddings or 0, e.budget.context)
    hi = max(1, top // step)

    def ok(n: int) -> bool:
        return bool(check(_rerun(e, given, max_model_len=n * step), concurrency=concurrency, headroom=headroom).fits)

    # The profiled peak depends on the context too (no chunked prefill: the profile batches
    # max_model_len tokens; engines switch chunking on above a length), so "fits" need not fall
    # monotonically with the context: never propose more than a context already found not to fit.
    if not check(e, concurrency=concurrency, headroom=headroom).fits:
        hi = min(hi, max(1, (e.budget.context - 1) // step))
    n = _largest(1, hi, ok)
    return n * step if n else None


def solve_max_num_seqs(e: Estimate, given: Given = Given(), *, headroom: float = DEFAULT_HEADROOM) -> int | None:
    """Full-length sequences the configuration holds at once."""
    if e.settings.gpu_memory_bytes is None:
        return None
    if e.framework.preallocates_pool:
        return (e.kv_tokens or 0) // max(1, e.budget.context)
    if e.framework == Framework.LLAMACPP:
        return None  # -c is the total over slots; more slots split it, they do not grow it

    def ok(n: int) -> bool:
        return bool(check(_rerun(e, given, max_num_seqs=n), concurrency=n if e.framework != Framework.OLLAMA
                          else None, headroom=headroom).fits)

    return _largest(1, 1024, ok) or 0


def solve_utilization(e: Estimate, given: Given = Given(), *, concurrency: int | None = None,
                      headroom: float = DEFAULT_HEADROOM) -> float | None:
    """Smallest memory fraction (in hundredths) whose pool holds the load, if it keeps headroom."""
    if not e.framework.preallocates_pool or e.settings.gpu_memory_bytes is None:
        return None
    limit = int(round((1 - headroom) * 100)) if e.framework != Framework.TRTLLM else 99
    c = _concurrency(e, concurrency)

    def holds(p: int) -> bool:
        r = _rerun(e, given, gpu_memory_utilization=p / 100)
        return (r.kv_tokens or 0) >= r.budget.context * c

    lo = next((p for p in (10, 20, 30, 40, 50, 60, 70, 80, 90, limit) if p <= limit and holds(p)), None)
    if lo is None:
        return None
    start = max(1, lo - 10)
    for p in range(start, lo + 1):
        if holds(p):
            return p / 100
    return lo / 100


def solve_kv_dtype(e: Estimate, given: Given = Given(), *, concurrency: int | None = None,
                   headroom: float = DEFAULT_HEADROOM) -> str | None:
    if e.settings.gpu_memory_bytes is None or given.kv_bytes_per_token is not None:
        return None
    ladder = KV_DTYPE_LADDER.get(e.framework, KV_DTYPE_LADDER_DEFAULT)
    for name in ladder:
        if check(_rerun(e, given, kv_cache_dtype=name), concurrency=concurrency, headroom=headroom).fits:
            return name
    return None


def solve_tensor_parallel(e: Estimate, given: Given = Given(), *, concurrency: int | None = None,
                          headroom: float = DEFAULT_HEADROOM) -> int | None:
    if e.framework.whole_model or e.settings.gpu_memory_bytes is None:
        return None
    heads = e.model.arch.attention.num_heads
    for tp in TP_CHOICES:
        if heads % tp:
            continue
        # figures a log gave for one TP size do not carry over to another
        r = e if tp == e.settings.tensor_parallel_size else _rerun(e, Given(), tensor_parallel_size=tp)
        if check(r, concurrency=concurrency, headroom=headroom).fits:
            return tp
    return None


def solve_gpu_layers(e: Estimate, *, headroom: float = DEFAULT_HEADROOM) -> int | None:
    """llama.cpp/Ollama: layers (of weights and KV) that fit on the card, the rest on the CPU."""
    cap = e.settings.gpu_memory_bytes
    if not e.framework.whole_model or cap is None:
        return None
    n = e.model.arch.num_layers
    kv_total = (e.budget.kv_tokens or 0) * e.kv_bytes_per_token
    per_layer = (e.weights_bytes * 0.95 + kv_total) / n  # ~5% of a file is embeddings/output
    room = cap * (1 - headroom) - e.budget.non_torch_bytes - e.budget.activation_bytes - e.weights_bytes * 0.05
    return max(0, min(n, int(room // per_layer))) if per_layer > 0 else n


def solve(e: Estimate, given: Given = Given(), *, concurrency: int | None = None,
          headroom: float = DEFAULT_HEADROOM) -> FitResult:
    current = check(e, concurrency=concurrency, headroom=headroom)
    return FitResult(
        current=current,
        headroom=headroom,
        max_model_len=solve_max_model_len(e, given, concurrency=concurrency, headroom=headroom),
        max_num_seqs=solve_max_num_seqs(e, given, headroom=headroom),
        gpu_memory_utilization=solve_utilization(e, given, concurrency=concurrency, headroom=headroom),
        kv_cache_dtype=solve_kv_dtype(e, given, concurrency=concurrency, headroom=headroom),
        tensor_parallel_size=solve_tensor_parallel(e, given, concurrency=concurrency, headroom=headroom),
        gpu_layers=solve_gpu_layers(e, headroom=headroom),
    )


@dataclass(frozen=True)
class MapCell:
    concurrency: int
    context: int
    used_bytes: int
    fits: bool | None


@dataclass(frozen=True)
class MemoryMap:
    """Memory against concurrency x context (the sources' baseline-then-raise table)."""

    contexts: tuple[int, ...]
    concurrencies: tuple[int, ...]
    cells: tuple[tuple[MapCell, ...], ...]  # [row = concurrency][column = context]
    usable_bytes: int | None


def memory_map(e: Estimate, given: Given = Given(), *, headroom: float = DEFAULT_HEADROOM,
               contexts: tuple[int, ...] | None = None, concurrencies: tuple[int, ...] | None = None) -> MemoryMap:
    top = max(e.model.arch.max_position_embeddings or 0, e.budget.context)
    cols = contexts or tuple(c for c in CONTEXT_COLUMNS if c <= max(top, CONTEXT_COLUMNS[0]))
    rows = concurrencies or CONCURRENCY_ROWS
    table = []
    usable = None
    for c in rows:
        row = []
        for ctx in cols:
            changes: dict[str, object] = {"max_model_len": ctx}
            if not e.framework.preallocates_pool:
                changes["max_num_seqs"] = c
            r = _rerun(e, given, **changes)
            fc = check(r, concurrency=c if e.framework != Framework.OLLAMA else None, headroom=headroom)
            usable = fc.usable_bytes
            row.append(MapCell(c, ctx, fc.used_bytes, fc.fits))
        table.append(tuple(row))
    return MemoryMap(tuple(cols), tuple(rows), tuple(table), usable)
