"""A small on-disk cache for work that depends only on the code and its data (parsed rules,
compiled prefilter databases): keyed by a hash of that content, written atomically, skipped
when no cache folder is usable (a read-only home) or OOMDOCTOR_NO_CACHE is set."""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path
from typing import Iterable


def key(parts: Iterable[bytes]) -> str:
    from oomdoctor import __version__

    h = hashlib.sha256(__version__.encode())
    for p in parts:
        h.update(len(p).to_bytes(8, "little"))
        h.update(p)
    return h.hexdigest()[:32]


def path(name: str) -> Path | None:
    if os.environ.get("OOMDOCTOR_NO_CACHE"):
        return None
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "oomdoctor"
    return base / name


def read(name: str) -> bytes | None:
    p = path(name)
    try:
        return p.read_bytes() if p is not None and p.is_file() else None
    except OSError:
        return None


def write(name: str, data: bytes) -> None:
    p = path(name)
    if p is None:
        return
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=p.parent, prefix=".tmp-")
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, p)  # atomic: a reader never sees half a file
    except OSError:
        pass
