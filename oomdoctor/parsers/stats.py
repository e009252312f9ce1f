"""Periodic statistics: the lines a serving engine prints while it runs, as time-series samples.

Each pattern emits one `("_sample", ((metric, value), ...))` directive; the scanner feeds it to
the log's bounded `SeriesSet` (oomdoctor.timeline.series), never to the fact list. Metric names
are those of `series.METRICS`/`EVENTS`/`LENGTHS`: KV usage is a ratio (0..1), counts are counts.

Formats (from each framework's source):
- vLLM V1 `LoggingStatLogger`: "Engine 000: Avg prompt throughput: 0.0 tokens/s, Avg generation
  throughput: 9.9 tokens/s, Running: 12 reqs, Waiting: 12 reqs, GPU KV cache usage: 100.0%, Prefix
  cache hit rate: 0.0%" (the CPU build says "CPU KV cache usage"); V0: "... Running: 4 reqs,
  Swapped: 0 reqs, Pending: 3 reqs, GPU KV cache usage: 97.1%, CPU KV cache usage: 0.0%."; V0's
  preemption warning "... is preempted by PreemptionMode.RECOMPUTE mode because there is not enough
  KV cache space ... total_num_cumulative_preemption=9" (V1 logs no preemption line).
- SGLang: "Decode batch. #running-req: 48, #token: 370959, token usage: 0.82, gen throughput
  (token/s): 4594.01, #queue-req: 317"; "Prefill batch. #new-seq: 1, #new-token: 1024,
  #cached-token: 0, token usage: 0.01, #running-req: 0, #queue-req: 0"; "KV cache pool is full.
  Retract requests. #retracted_reqs: 2".
- TGI: request spans "generate{... total_time="1.5s" ... queue_time="12ms" ...}: ... Success" and
  batch spans "batch{batch_size=4}".
- llama.cpp server slots: "new prompt, n_ctx_slot = 4096, n_keep = 0, n_prompt_tokens = 11" (later
  "task.n_tokens = 11"), "slot context shift, n_keep = 0, n_left = 4095, n_discard = 2047",
  "input (5000 tokens) is larger than the max context size (4096 tokens)", "stop processing:
  n_past = 4096, truncated = 1".
- Ollama: "[GIN] 2024/07/08 - 13:05:31 | 200 |  1.2345s | 127.0.0.1 | POST "/api/chat"",
  msg="truncating input prompt" limit=2048 prompt=4100, msg="llama runner started in 3.02 seconds".
- PyTorch `torch.cuda.memory_summary()` printed now and then: "| Allocated memory | 1024 MiB | ..."
  and "| Reserved memory | ...".
"""

from __future__ import annotations

import re

from oomdoctor.parsers.base import Emitted, P, Pattern, to_bytes


def _vllm(m: re.Match[str]) -> Emitted:
    pairs = [("running", float(m.group(3))), ("waiting", float(m.group(5))), ("kv_usage", float(m.group(6)) / 100)]
    if m.group(4) is not None:
        pairs.append(("swapped", float(m.group(4))))
    if m.group(7) is not None:
        pairs.append(("swap_usage", float(m.group(7)) / 100))
    yield "_sample", tuple(pairs)
    # (the line's shape is vLLM's own: a vote for it, counted on the first lines only, which the general matcher reads)
    yield "_framework", "vllm:4"


def _preempted(m: re.Match[str]) -> Emitted:
    # each warning is one preempted sequence group; the cumulative count, where printed, also covers those not logged
    yield "_sample", (("preemptions_total", float(m.group(1))), ("preempted", 1.0)) if m.group(1) else (("preempted", 1.0),)


_SGLANG_KEYS = {"#running-req": "running", "#queue-req": "waiting", "token usage": "kv_usage", "full token usage": "kv_usage",
                "#token": "kv_tokens_used", "#full token": "kv_tokens_used", "gen throughput (token/s)": "gen_throughput"}


def _sglang(m: re.Match[str]) -> Emitted:
    pairs = []
    for key, value in re.findall(r"(#running-req|#queue-req|(?:full )?token usage|#(?:full )?token|gen throughput \(token/s\)): ([\d.]+)", m.string):
        pairs.append((_SGLANG_KEYS[key], float(value)))
    if pairs:
        yield "_sample", tuple(pairs)


_DURATION = re.compile(r"(?:(\d+)h)?(?:(\d+)m(?!s))?(?:([\d.]+)(s|ms|µs|us|ns))?$")


def duration_seconds(text: str) -> float | None:
    """Go/Rust durations as printed: '1.2345s', '12.3ms', '1m2.5s', '850µs'."""
    m = _DURATION.match(text.strip())
    if not m or not any(m.groups()):
        return None
    h, mins, num, unit = m.groups()
    secs = float(h or 0) * 3600 + float(mins or 0) * 60
    if num:
        secs += float(num) * {"s": 1, "ms": 1e-3, "µs": 1e-6, "us": 1e-6, "ns": 1e-9}[unit]
    return secs


def _tgi_request(m: re.Match[str]) -> Emitted:
    pairs = []
    total = duration_seconds(m.group(1))
    if total is not None:
        pairs.append(("request_seconds", total))
    mq = re.search(r'input_length="?(\d+)', m.string)
    if mq:
        pairs.append(("prompt_tokens", float(mq.group(1))))
    if pairs:
        yield "_sample", tuple(pairs)


def _gin(m: re.Match[str]) -> Emitted:
    secs = duration_seconds(m.group(2))
    if secs is not None:
        yield "_sample", (("request_seconds", secs),)


def _torch_summary(m: re.Match[str]) -> Emitted:
    key = "torch_allocated_bytes" if m.group(1) == "Allocated" else "torch_reserved_bytes"
    yield "_sample", ((key, float(to_bytes(m.group(2), m.group(3)))),)


PATTERNS: tuple[Pattern, ...] = (
    # vLLM V1 and V0 periodic stats (also where a paste wrapped the line inside its throughput figures: from "Running:")
    P("stats-vllm", ("KV cache usage: ",),
      r"(?:Avg prompt throughput: ([\d.]+) tokens/s, Avg generation throughput: ([\d.]+) tokens/s, )?Running: (\d+) reqs, "
      r"(?:Swapped: (\d+) reqs, )?(?:Pending|Waiting): (\d+) reqs, (?:\w+: \d+ reqs, )*(?:\w+ )?KV cache usage: ([\d.]+)%"
      r"(?:, CPU KV cache usage: ([\d.]+)%)?", _vllm),
    P("stats-vllm-preempted", ("is preempted by",), r"is preempted by \S{1,60} mode because there is not enough KV cache space"
      r"(?:.{0,400}?total_num_cumulative_preemption=(\d+))?", _preempted),
    # SGLang scheduler
    P("stats-sglang", ("Decode batch.", "Prefill batch."), r"(?:Decode|Prefill) batch\.", _sglang),
    P("stats-sglang-retract", ("#retracted_reqs",), r"#retracted_reqs: (\d+)", lambda m: [("_sample", (("retracted", float(m.group(1))),))]),
    # TGI router
    P("stats-tgi-request", ("total_time=",), r'total_time="([^"]{1,40})"', _tgi_request),
    P("stats-tgi-batch", ("batch{batch_size=",), r"batch\{batch_size=(\d+)\}", lambda m: [("_sample", (("running", float(m.group(1))),))]),
    # llama.cpp server slots
    P("stats-llamacpp-prompt", ("new prompt, n_ctx_slot",),
      r"new prompt, n_ctx_slot = (\d+), n_keep = \d+, (?:n_prompt_tokens|task\.n_tokens) = (\d+)",
      lambda m: [("_sample", (("prompt_tokens", float(m.group(2))),)), ("_slot_ctx", int(m.group(1)))]),
    P("stats-llamacpp-shift", ("slot context shift",), r"slot context shift", lambda m: [("_sample", (("context_shift", 1.0),))]),
    P("stats-llamacpp-over", ("is larger than the max context size", "exceeds the available context size"),
      r"(?:input|request) \((\d+) tokens\) (?:is larger than the max context size|exceeds the available context size)",
      lambda m: [("_sample", (("over_context", 1.0), ("prompt_tokens", float(m.group(1)))))]),
    P("stats-llamacpp-truncated", ("truncated = 1",), r"stop processing: n_past = \d+, truncated = 1", lambda m: [("_sample", (("truncated", 1.0),))]),
    # Ollama
    P("stats-ollama-gin", ("[GIN]",), r"\[GIN\] [\d/]{10} - [\d:]{8} \| (\d{3}) \|\s{0,20}(\S{1,40})\s{0,20}\|", _gin),
    P("stats-ollama-truncate", ("truncating input prompt",), r"truncating input prompt.{0,300}?\bprompt=(\d+)",
      lambda m: [("_sample", (("truncated", 1.0), ("prompt_tokens", float(m.group(1)))))]),
    P("stats-ollama-load", ("llama runner started in",), r"llama runner started in ([\d.]+) seconds", lambda m: [("_sample", (("model_load", 1.0),))]),
    # PyTorch memory summaries
    P("stats-torch-summary", ("Allocated memory", "Reserved memory"),
      r"\|\s{0,8}(Allocated|Reserved) memory\s{0,40}\|\s{0,20}(\d[\d.]{0,20})\s?([KMGT]i?B|B)\s{0,20}\|", _torch_summary),
)


# ---------------------------------------------------------------------------- the fast path
# vLLM prints its stats line every 5-10 s per engine: a long-running server's log is mostly these
# lines. The scanner offers every anchor hit here first; a hit that ends "KV cache usage: " is read
# with one bytes regex at that offset and kept (the match object only) until the next general line
# or the end of the chunk, then added to the series in one batch. Line numbers and texts are
# worked out only for the few samples the series keeps (bucket starts, episode ends, the last
# ones). The first WARM lines go through the general matcher: they carry the framework's signals.
# Same samples as `_vllm`.

KV_ANCHOR = b"KV cache usage: "
_V_BYTES = re.compile(rb"Running: (\d+) reqs, (?:Swapped: (\d+) reqs, )?(?:Pending|Waiting): (\d+) reqs, "
                      rb"(?:\w+: \d+ reqs, )*(?:\w+ )?KV cache usage: ([\d.]+)%(?:, CPU KV cache usage: ([\d.]+)%)?")
_ANSI_RE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
CEILING = 0.90  # = series.CEILING: every sample near the ceiling is read whole
EVERY = 4  # below it, one sample in EVERY gives the running/waiting curves (their shape, not every point)


class FastStats:
    """vLLM stats lines of the current chunk, waiting to be added to a SeriesSet.

    Per line only the KV usage is read (every sample counts for its peaks and saturation
    episodes); running/waiting/swapped are read for every sample at the ceiling (the episodes'
    numbers are exact) and for one in EVERY below it (the curves). Lines come one by one (`take`,
    at a prefilter hit in the head of a log) or all the stats lines of a span at once
    (`take_span`, past the head, where the prefilter no longer selects them)."""

    WARM = 64

    __slots__ = ("series", "buf", "base", "found", "kv", "declined", "seen")

    def __init__(self, series) -> None:  # type: ignore[no-untyped-def]
        self.series = series
        self.buf = b""
        self.base = (0, 1)  # (offset, line number) of a known line start before the batch
        self.found: list[re.Match[bytes]] = []  # each line's match, from "Running: " on
        self.kv: list[float] = []
        self.declined = 0
        self.seen = 0

    @property
    def warm(self) -> bool:
        """The first WARM stats lines went through the general matcher (they carry the framework's signals)."""
        return self.declined >= self.WARM

    def take(self, buf: bytes, hit: int, counted: int, line_no: int) -> int:
        """If the line of the hit ending at `hit` is a vLLM stats line, keep it and return where its values end
        (the scanner skips the rest of the line's hits); else -1. `counted`/`line_no`: a line start
        before `hit` and its number (nothing between them and `hit` has been counted)."""
        if not buf.startswith(KV_ANCHOR, hit - 16, hit):
            # the line's first selected word may be another's (a framework signal's, earlier in the line, in a log's head):
            # its KV field decides whether it is a stats line
            stop = buf.find(b"\n", hit)
            at = buf.find(KV_ANCHOR, hit, stop if stop >= 0 else len(buf))
            if at < 0:
                return -1
            hit = at + len(KV_ANCHOR)
        lo = hit - 200
        r = buf.rfind(b"Running: ", lo if lo > counted else counted, hit)
        m = _V_BYTES.match(buf, r) if r >= 0 else None
        if m is None or m.start(4) != hit:
            return -1
        try:
            kv = float(m[4]) / 100
        except ValueError:
            return -1
        if self.declined < self.WARM:
            self.declined += 1
            return -1
        self._keep(buf, counted, line_no)
        self.found.append(m)
        self.kv.append(kv)
        return m.end()

    def take_span(self, buf: bytes, lo: int, hi: int, counted: int, line_no: int) -> None:
        """Keep every stats line in buf[lo:hi] (`counted`/`line_no` as for `take`, at or before `lo`)."""
        found = list(_V_BYTES.finditer(buf, lo, hi))
        if not found:
            return
        try:
            kv = [float(m[4]) / 100 for m in found]
        except ValueError:  # a garbled number: keep the lines that read
            found = [m for m in found if _is_number(m[4])]
            kv = [float(m[4]) / 100 for m in found]
        self._keep(buf, counted, line_no)
        self.found += found
        self.kv += kv

    def _keep(self, buf: bytes, counted: int, line_no: int) -> None:
        if not self.found:
            self.buf, self.base = buf, (counted, line_no)

    def flush(self, before_failure: bool) -> tuple[int, int]:
        """Add the batch to the series; return (offset, line number) of the last line start it
        counted to, so the scanner's own line count goes on from there (each newline is counted once)."""
        found, kv = self.found, self.kv
        buf, (pos, line) = self.buf, self.base
        if not found:
            return pos, line
        n = len(kv)
        source = self.series.source
        wanted: dict[int, _Later] = {}

        def later(i: int) -> _Later:
            x = wanted.get(i)
            if x is None:
                x = wanted[i] = _Later()
            return x

        seen = self.seen
        pairs = [(i, found[i]) for i in range(n) if kv[i] >= CEILING or (seen + i) % EVERY == 0]
        sparse = {"running": ([i for i, _ in pairs], [float(m[1]) for _, m in pairs]),
                  "waiting": ([i for i, _ in pairs], [float(m[3]) for _, m in pairs])}
        swapped = [(i, m) for i, m in pairs if m[2] is not None]
        if swapped:
            sparse["swapped"] = ([i for i, _ in swapped], [float(m[2]) for _, m in swapped])
            sparse["swap_usage"] = ([i for i, _ in swapped], [float(m[5] or 0) / 100 for _, m in swapped])
        self.series.add_columns({"kv_usage": kv}, later, before_failure, sparse)  # type: ignore[arg-type]
        self.seen = seen + n
        for i in sorted(wanted):  # the stamps the series kept, made in one forward pass
            r = found[i].start()
            a = buf.rfind(b"\n", 0, r) + 1
            b = buf.find(b"\n", r)
            line += buf.count(b"\n", pos, a)
            pos = a
            text = buf[a:b if b >= 0 else len(buf)].decode("utf-8", "replace")
            if "\x1b" in text:
                text = _ANSI_RE.sub("", text)
            wanted[i].value = (source, line, text.strip()[:600], None)
        self.found, self.kv = [], []
        self.buf = b""
        return pos, line


def _is_number(text: bytes) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


class _Later:
    """A stamp filled in once the batch knows its line numbers (read with series.resolve)."""

    __slots__ = ("value",)

    def __init__(self) -> None:
        self.value: tuple[str, int, str, None] | None = None

    def __call__(self) -> tuple[str, int, str, None] | None:
        return self.value
