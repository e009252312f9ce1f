"""The four-account ledger of one GPU: weights, kv_cache, activations, framework, plus what
is left (free) out of the card (capacity). Each figure says whether it was given (read from a
log, a file or a flag) or estimated."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Source(str, Enum):
    GIVEN = "given"
    ESTIMATE = "estimate"


@dataclass(frozen=True)
class Account:
    name: str
    bytes: int | None
    source: Source

    def as_dict(self) -> dict[str, object]:
        return {"bytes": self.bytes, "source": self.source.value}


ACCOUNT_NAMES = ("weights", "kv_cache", "activations", "framework", "free", "capacity")


@dataclass(frozen=True)
class Ledger:
    weights: Account
    kv_cache: Account
    activations: Account
    framework: Account
    free: Account
    capacity: Account

    @classmethod
    def build(cls, *, weights: tuple[int, Source], kv_cache: tuple[int, Source], activations: tuple[int, Source],
              framework: tuple[int, Source], capacity: int | None) -> Ledger:
        used = weights[0] + kv_cache[0] + activations[0] + framework[0]
        free = None if capacity is None else capacity - used
        return cls(
            weights=Account("weights", weights[0], weights[1]),
            kv_cache=Account("kv_cache", kv_cache[0], kv_cache[1]),
            activations=Account("activations", activations[0], activations[1]),
            framework=Account("framework", framework[0], framework[1]),
            free=Account("free", free, Source.ESTIMATE),
            capacity=Account("capacity", capacity, Source.GIVEN if capacity is not None else Source.ESTIMATE),
        )

    @property
    def accounts(self) -> tuple[Account, ...]:
        return tuple(getattr(self, n) for n in ACCOUNT_NAMES)

    @property
    def used_bytes(self) -> int:
        return sum(a.bytes or 0 for a in (self.weights, self.kv_cache, self.activations, self.framework))

    @property
    def fits(self) -> bool | None:
        return None if self.free.bytes is None else self.free.bytes >= 0

    def as_dict(self) -> dict[str, dict[str, object]]:
        return {a.name: a.as_dict() for a in self.accounts}
