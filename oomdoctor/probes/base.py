"""Shared values of the live probes: `Skipped` (an expected gap, never an exception) and
byte formatting for evidence text."""

from __future__ import annotations

from dataclasses import dataclass

GIB = 1 << 30
MIB = 1 << 20


@dataclass(frozen=True)
class Skipped:
    """A probe that could not look, and exactly why (no driver, no permission, no file)."""

    reason: str


def format_bytes(n: int | None) -> str:
    """Bytes for people: `61.0 GiB`, `512 MiB`, `0 B`; `?` when unknown."""
    if n is None:
        return "?"
    if abs(n) >= GIB:
        return f"{n / GIB:.1f} GiB"
    if abs(n) >= MIB:
        return f"{n / MIB:.0f} MiB"
    if abs(n) >= 1024:
        return f"{n / 1024:.0f} KiB"
    return f"{n} B"
