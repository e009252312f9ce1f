"""Capacity statements in a runtime's own words, on a line that states a memory failure.

A failure line often carries its numbers in a wording no family of patterns knows yet: "need 12.3GB but only 8.1GB
free (total 24GB)", "requested 4096 MiB, available 1024 MiB", "used 23.5 GB of 24 GB", "(free: 524288000, total:
8589934592)". Each size is bound to the word beside it (free, total, requested, needed, used; "X of Y" makes Y the total),
and the figures are kept only where they agree with one another (what is free fits in the total).
"""

from __future__ import annotations

import re
from typing import TypedDict

from oomdoctor.parsers.base import to_bytes

# a size with its unit; a bare integer only where a label with ":" or "=" stands right before it (bytes)
_SIZE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*(bytes|byte|[KMGT]i?B|B)(?![\w])|(?<=[:=])\s*(\d{6,})(?![\w.])", re.I)
_ROLE_AFTER = re.compile(r"\s*(free|available|avail|left|remaining|total|needed|required|requested|used|in use|allocated)\b", re.I)
_ROLE_BEFORE = re.compile(
    r"\b(free|available|avail|left|remaining|total|capacity|requested|request|needs?|needed|required|requires|require|"
    r"allocate|allocating|used|in use|occupied)\b(?:\s*(?:memory|is|are|was|only|about|approximately|approx\.?|~|:|=|,))*\s*$",
    re.I)
_OF = re.compile(r"(?:\bof|/|\bout of)\s*$", re.I)
_ROLES = {"free": "free", "available": "free", "avail": "free", "left": "free", "remaining": "free",
          "total": "total", "capacity": "total",
          "requested": "requested", "request": "requested", "allocate": "requested", "allocating": "requested",
          # (what the run needs in all, not one allocation: "need 12.3GB but only 8.1GB free")
          "need": "required", "needs": "required", "needed": "required", "required": "required", "requires": "required",
          "require": "required",
          "used": "used", "in use": "used", "allocated": "used", "occupied": "used"}


class Figures(TypedDict, total=False):
    requested: int  # one allocation
    required: int  # what the run needs in all
    free: int
    total: int


def figures(text: str) -> Figures:
    """The requested (one allocation), required (the whole need), free and total bytes a failure line states, where its
    words say which is which."""
    sizes = []
    for m in _SIZE.finditer(text):
        value = to_bytes(m.group(1), m.group(2)) if m.group(1) else int(m.group(3))
        sizes.append((m.start(), m.end(), value))
    found: dict[str, int] = {}
    previous_end = 0
    for i, (start, end, value) in enumerate(sizes):
        before = text[max(previous_end, start - 32):start]
        role = None
        after = _ROLE_AFTER.match(text, end)
        if after:
            role = _ROLES[after.group(1).lower()]
        elif i > 0 and _OF.search(before) and not _ROLE_BEFORE.search(before):
            role = "total"  # "23.5 GB of 24 GB", "4280.2 MB free / 95.0 GB"
        else:
            label = _ROLE_BEFORE.search(before)
            if label:
                role = _ROLES[label.group(1).lower()]
        if role is not None:
            found.setdefault(role, value)
        previous_end = end
    out: Figures = {}
    total = found.get("total")
    free = found.get("free")
    used = found.get("used")
    if free is None and used is not None and total is not None and used <= total:
        free = total - used
    if total is not None and (free is None or free <= total):
        out["total"] = total
    if free is not None and (total is None or free <= total):
        out["free"] = free
    if "requested" in found:
        out["requested"] = found["requested"]
    if "required" in found:
        out["required"] = found["required"]
    return out
