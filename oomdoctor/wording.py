"""Sentences the report composes from two sources (a rule's title and message, a reason and the
framework's own advice): whether one already says what the other would add."""

from __future__ import annotations

import re

_WORD = re.compile(r"[a-z]{4,}")


def restates(text: str, other: str) -> bool:
    """`text`'s content words (four letters or more) are mostly in `other` already: three in five or more."""
    words = set(_WORD.findall(text.lower()))
    return bool(words) and len(words & set(_WORD.findall(other.lower()))) >= 0.6 * len(words)
