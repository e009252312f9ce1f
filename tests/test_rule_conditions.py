"""Rule conditions over facts: `stated: true` weighs only what the log, a probe or the user stated."""

from __future__ import annotations

import pytest

from oomdoctor.errors import Location, RuleError
from oomdoctor.facts import Fact, FactSet, Origin
from oomdoctor.rules.model import Condition

HERE = Location("test.yaml", 1)


def _cond(d: dict) -> Condition:
    return Condition.from_dict(d, HERE)


def test_stated_ignores_what_the_memory_model_filled_in() -> None:
    estimated = FactSet([Fact("mem.kv_cache_bytes", 41 << 30, Origin.ESTIMATE, None)])
    logged = FactSet([Fact("mem.kv_cache_bytes", 2 << 30, Origin.LOG, None)])
    stated = _cond({"fact": "mem.kv_cache_bytes", "gt": 0, "stated": True})
    plain = _cond({"fact": "mem.kv_cache_bytes", "gt": 0})
    assert plain.holds(estimated) and not stated.holds(estimated)
    assert stated.holds(logged)
    assert not _cond({"not": {"fact": "mem.kv_cache_bytes", "gt": 0, "stated": True}}).holds(logged)


def test_stated_compares_against_stated_values_only() -> None:
    facts = FactSet([Fact("mem.weights_bytes", 30 << 30, Origin.LOG, None),
                     Fact("mem.gpu_total_bytes", 24 << 30, Origin.CARD, None)])
    assert _cond({"fact": "mem.weights_bytes", "gt_fact": "mem.gpu_total_bytes"}).holds(facts)
    # the card table's total is not stated: nothing to compare with
    assert not _cond({"fact": "mem.weights_bytes", "gt_fact": "mem.gpu_total_bytes", "stated": True}).holds(facts)
    # a command the user gave counts as stated
    given = FactSet([Fact("knob.max_model_len", 32768, Origin.COMMAND, None)])
    assert _cond({"fact": "knob.max_model_len", "exists": True, "stated": True}).holds(given)


def test_stated_must_be_a_boolean() -> None:
    with pytest.raises(RuleError, match="'stated' needs true or false"):
        _cond({"fact": "mem.kv_cache_bytes", "gt": 0, "stated": "yes"})
