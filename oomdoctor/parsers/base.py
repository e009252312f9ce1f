"""Building blocks of the log parsers: size units and the `Pattern` type.

A `Pattern` is cheap to reject: the scanner runs its regex only on lines that contain one
of its `anchors` (plain substrings). `emit` turns a match into `(key, value)` pairs; keys
starting with `_` are scanner directives (`_phase`, `_ready`, `_framework`), not facts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Callable, Iterable

from oomdoctor.facts import Value

Emitted = Iterable[tuple[str, Value]]

_UNITS = {
    "b": 1, "byte": 1, "bytes": 1,
    "k": 1 << 10, "kb": 1 << 10, "kib": 1 << 10,
    "m": 1 << 20, "mb": 1 << 20, "mib": 1 << 20,
    "g": 1 << 30, "gb": 1 << 30, "gib": 1 << 30,
    "t": 1 << 40, "tb": 1 << 40, "tib": 1 << 40,
    # (PyTorch states a garbage size as "more than 1EB")
    "pb": 1 << 50, "pib": 1 << 50, "eb": 1 << 60, "eib": 1 << 60,
}

# A size as frameworks print it: "1.15 GiB", "224.00 MiB", "0 bytes", "4.3752 GB", "64M".
SIZE = r"(\d[\d,]*(?:\.\d+)?)\s?([KMGTPE]i?B|bytes|B|[KMGT](?![a-z]))"


# an inner error message that names memory (so a wrapper's error around it is a memory failure)
MEMORY_WORDS = re.compile(r"(?i)memory|\boom\b|alloc")

# PyTorch's own advice after its "CUDA error: out of memory" (the exception name may be cut): what tells its bare
# CUDA error from ggml's, which prints the same words
TORCH_CUDA_ADVICE = r"\s*CUDA kernel errors might"

# cuBLAS statuses that are not memory, by number ("cuBLAS error 15 at ggml-cuda.cu:7282", "cuBLAS API failed with status 15")
CUBLAS_STATUS = {"6": "CUBLAS_STATUS_ARCH_MISMATCH", "15": "CUBLAS_STATUS_NOT_SUPPORTED"}

# the CUDA driver's status codes that bindings print by number (2 is CUDA_ERROR_OUT_OF_MEMORY)
CU_RESULT = {"1": "CUDA_ERROR_INVALID_VALUE", "3": "CUDA_ERROR_NOT_INITIALIZED", "4": "CUDA_ERROR_DEINITIALIZED",
             "101": "CUDA_ERROR_INVALID_DEVICE", "201": "CUDA_ERROR_INVALID_CONTEXT", "400": "CUDA_ERROR_INVALID_HANDLE",
             "700": "CUDA_ERROR_ILLEGAL_ADDRESS", "801": "CUDA_ERROR_NOT_SUPPORTED", "999": "CUDA_ERROR_UNKNOWN"}


def setting_over_limit(knob: str, value: int, limit: int, what: str = "kv_capacity_limit") -> Emitted:
    """A setting past the limit the program states for it (what its cache holds, the context it fitted): the kind, the
    value asked for and the limit; nothing where the limit holds the value."""
    if limit >= value:
        return
    yield "oom.kind", what
    yield f"knob.{knob}", value
    yield "oom.limited_knob", knob
    yield "oom.stated_limit", limit


def driver_result(code: str, who: str, name: str | None = None) -> Emitted:
    """A CUDA driver status by its number, as `who` reports it: 2 is out of memory, 700 an illegal address,
    any other its own error (named from CU_RESULT, else by the `name` printed beside it)."""
    if code == "2":
        yield "oom.kind", "cuda_error_oom"
    elif code == "700":
        yield "oom.kind", "illegal_memory_access"
    else:
        yield "error.final", f"{who} returned {CU_RESULT.get(code) or name or 'status ' + code}: not out of memory"


# signals that end a process which crashed by itself (a kill for memory is SIGKILL, 9)
CRASH_SIGNALS = {"4": "SIGILL, an illegal instruction", "8": "SIGFPE, an arithmetic fault", "11": "SIGSEGV, a segmentation fault"}


_DECIMAL_COMMA = re.compile(r"\d+,\d{1,2}")


def number(text: str) -> float:
    """'1,234.5' (a thousands separator) -> 1234.5; '55296,00' (a C printf under a decimal-comma
    locale: one or two digits after the comma) -> 55296.0."""
    if _DECIMAL_COMMA.fullmatch(text):
        return float(text.replace(",", "."))
    return float(text.replace(",", ""))


def to_bytes(number_text: str, unit: str) -> int:
    """Frameworks print GiB as "GB" (vLLM, SGLang, Ollama); treat every K/M/G/T as binary."""
    return int(round(number(number_text) * _UNITS[unit.lower()]))


def gib(number: str) -> int:
    """'14.96' printed as GiB (vLLM, SGLang print GiB as 'GB') -> bytes."""
    return int(round(float(number) * (1 << 30)))


def mib(text: str) -> int:
    return int(round(number(text) * (1 << 20)))


# A size as a person writes it on a command line: `16g`, `512MiB`, `1.5G`, `1000000` (binary units,
# as docker's --shm-size/--memory and ulimit-style options read them).
_WRITTEN_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?\s*$", re.I)


def written_size(text: str) -> int | None:
    m = _WRITTEN_SIZE.match(text)
    if not m:
        return None
    return int(float(m.group(1)) * {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}[m.group(2).lower()])


# A Kubernetes quantity: `16Gi`, `500M`, `1.5Gi`, `17179869184`, `1e9`, `100m`.
_QUANTITY = re.compile(r"^([+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)([KMGTPE]i?|[kmunEP]?)$")
_QUANTITY_SUFFIX = {
    "": 1, "k": 10**3, "K": 10**3, "M": 10**6, "G": 10**9, "T": 10**12, "P": 10**15, "E": 10**18,
    "Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30, "Ti": 1 << 40, "Pi": 1 << 50, "Ei": 1 << 60,
    "m": 10**-3, "u": 10**-6, "n": 10**-9,
}


def parse_quantity(text: object) -> int | None:
    """A Kubernetes quantity in bytes (units); None when the text is not one."""
    if text is None:
        return None
    m = _QUANTITY.match(str(text).strip())
    if not m:
        return None
    return int(float(m.group(1)) * _QUANTITY_SUFFIX[m.group(2)])


def size_of(text: str) -> int | None:
    m = re.search(SIZE, text)
    return to_bytes(m.group(1), m.group(2)) if m else None


_TS = re.compile(r"(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?|\d{2}-\d{2} \d{2}:\d{2}:\d{2}|[A-Z][a-z]{2} +\d+ \d{2}:\d{2}:\d{2})")


def timestamp(text: str | None) -> str | None:
    """The first timestamp a line carries, as printed (ISO, vLLM's `MM-DD hh:mm:ss`, syslog)."""
    m = _TS.search(text or "")
    return m.group(1) if m else None


# Time stamps of periodic stats lines, per framework: ISO (TGI `2024-07-08T13:05:31.12Z`, SGLang
# `[2024-07-08 13:05:31 TP0]`, Python logging `2024-07-08 13:05:31,123`, Ollama `time=2024-...`),
# vLLM `07-08 13:05:31` (no year), Gin `2024/07/08 - 13:05:31` (Ollama requests), syslog `Jul  8 13:05:31`.
_STAMP = re.compile(r"(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:[.,](\d+))?|(\d{4})/(\d{2})/(\d{2}) - (\d{2}):(\d{2}):(\d{2})"
                    r"|(?<![\d-])(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?|([A-Z][a-z]{2}) +(\d+) (\d{2}):(\d{2}):(\d{2})")
_MONTHS = {m: i for i, m in enumerate(("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"), 1)}
NO_YEAR = 2000  # a leap year: vLLM's and syslog's stamps carry none


def seconds(text: str | None) -> float | None:
    """The first time stamp of a line as seconds since the epoch (UTC, naive), for ordering and
    durations; stamps without a year are put in NO_YEAR. None when the line has none."""
    import calendar

    m = _STAMP.search(text or "")
    if m is None:
        return None
    g = m.groups()
    frac = 0.0
    if g[0]:
        y, mo, d, h, mi, s = (int(x) for x in g[0:6])
        frac = float("0." + g[6]) if g[6] else 0.0
    elif g[7]:
        y, mo, d, h, mi, s = (int(x) for x in g[7:13])
    elif g[13]:
        y, (mo, d, h, mi, s) = NO_YEAR, (int(x) for x in g[13:18])
        frac = float("0." + g[18]) if g[18] else 0.0
    else:
        y, mo, d, h, mi, s = NO_YEAR, _MONTHS.get(g[19], 1), int(g[20]), int(g[21]), int(g[22]), int(g[23])
    try:
        return calendar.timegm((y, mo, d, h, mi, s, 0, 0, 0)) + frac
    except (ValueError, OverflowError):
        return None


def to_int(text: str) -> int:
    return int(text.replace(",", "").replace("_", ""))


@dataclass(frozen=True)
class Pattern:
    name: str
    anchors: tuple[str, ...]
    source: str  # the regex, compiled on first use: most patterns never see a candidate line
    emit: Callable[[re.Match[str]], Emitted]
    flags: int = 0
    repeat: bool = False  # finditer instead of search (several matches per line)
    fallback: bool = False  # read a line only when no other pattern named its failure (`oom.kind`)

    @cached_property
    def regex(self) -> re.Pattern[str]:
        return re.compile(self.source, self.flags)

    @property
    def caseless(self) -> bool:
        """The regex reads its words in any case (re.I, or a leading "(?i)"), without compiling it."""
        return bool(self.flags & re.IGNORECASE) or self.source.startswith("(?i)")


def P(  # noqa: N802 - table shorthand
    name: str,
    anchors: str | tuple[str, ...],
    regex: str,
    emit: Callable[[re.Match[str]], Emitted],
    flags: int = 0,
    repeat: bool = False,
    fallback: bool = False,
) -> Pattern:
    if isinstance(anchors, str):
        anchors = (anchors,)
    return Pattern(name, anchors, regex, emit, flags, repeat, fallback)


def const(*pairs: tuple[str, Value]) -> Callable[[re.Match[str]], Emitted]:
    return lambda m: pairs


def kind(name: str, *more: tuple[str, Value]) -> Callable[[re.Match[str]], Emitted]:
    return const(("oom.kind", name), *more)
