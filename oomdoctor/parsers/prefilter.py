"""Multi-literal prefilters: where in a buffer does any anchor occur?

Hyperscan (SIMD, several GB/s) where its wheel is available; RE2's DFA otherwise; the
standard library's `re` as a last resort. All return sorted end offsets of anchor hits. An
anchor in `caseless` matches in any case (the literals of a case-insensitive reading).
"""

from __future__ import annotations

import re
import threading
from typing import AbstractSet, Protocol, Sequence


class Prefilter(Protocol):
    name: str

    # whether the search lets go of the interpreter while it runs, so that another thread gains by running it
    concurrent: bool

    def positions(self, buf: bytes, begin: int, end: int) -> list[int]: ...


class _Hyperscan:
    name = "hyperscan"
    concurrent = True  # (Hyperscan scans without the GIL, taking it back only for each match's callback)

    def __init__(self, anchors: Sequence[str], caseless: AbstractSet[str]) -> None:
        import hyperscan

        from oomdoctor import cache

        # (a scan needs scratch space no other scan uses at the same time: a copy for each thread that searches)
        self._scratch = threading.local()
        expressions = [re.escape(a).encode() for a in anchors]
        flags = [hyperscan.HS_FLAG_CASELESS if a in caseless else 0 for a in anchors]
        # compiling ~600 literals takes tens of milliseconds, loading the compiled database microseconds
        version = hyperscan.__version__.encode() if hasattr(hyperscan, "__version__") else b""
        name = f"hs-{cache.key([version, bytes(1 if f else 0 for f in flags), *expressions])}.db"
        data = cache.read(name)
        if data is not None:
            try:
                self._db = hyperscan.loadb(data, hyperscan.HS_MODE_BLOCK)
                self._db.scratch = hyperscan.Scratch(self._db)  # a loaded database has none
                return
            except Exception:  # noqa: BLE001 - a database from another hyperscan build: compile again
                pass
        self._db = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
        self._db.compile(expressions=expressions, ids=list(range(len(expressions))), elements=len(expressions), flags=flags)
        cache.write(name, hyperscan.dumpb(self._db))

    def positions(self, buf: bytes, begin: int, end: int) -> list[int]:
        hits: list[int] = []

        def on_match(_id: int, _from: int, to: int, _flags: int, _ctx: object) -> None:
            hits.append(begin + to)

        data = buf if (begin, end) == (0, len(buf)) else memoryview(buf)[begin:end]
        scratch = getattr(self._scratch, "space", None)
        if scratch is None:
            scratch = self._scratch.space = self._db.scratch.clone()
        self._db.scan(data, match_event_handler=on_match, scratch=scratch)
        hits.sort()
        return hits


def literal(anchor: str, caseless: AbstractSet[str]) -> str:
    """The regex of one anchor: its text, in any case where it is caseless."""
    return f"(?i:{re.escape(anchor)})" if anchor in caseless else re.escape(anchor)


class _Regex:
    concurrent = False  # (RE2's and re's searches hold the GIL: another thread would only wait for it)

    def __init__(self, anchors: Sequence[str], caseless: AbstractSet[str], engine: object, name: str) -> None:
        alternation = "|".join(literal(a, caseless) for a in sorted(anchors, key=len, reverse=True))
        self._pattern = engine.compile(alternation.encode())  # type: ignore[attr-defined]
        self.name = name

    def positions(self, buf: bytes, begin: int, end: int) -> list[int]:
        hits = []
        pos = begin
        search = self._pattern.search
        while pos < end:
            m = search(buf, pos, end)
            if m is None:
                break
            hits.append(m.end())
            nl = buf.find(b"\n", m.end(), end)  # one hit per line is enough
            pos = end if nl == -1 else nl + 1
        return hits


def build_prefilter(anchors: Sequence[str], caseless: AbstractSet[str] = frozenset()) -> Prefilter:
    try:
        return _Hyperscan(anchors, caseless)
    except Exception:  # noqa: BLE001 - hyperscan missing or unsupported CPU: fall back
        pass
    try:
        import re2

        return _Regex(anchors, caseless, re2, "re2")
    except ImportError:  # pragma: no cover
        return _Regex(anchors, caseless, re, "re")
