"""FactSet: what decides a key, and what never becomes a fact."""

from __future__ import annotations

from oomdoctor.facts import Evidence, Fact, FactSet, Origin


def _f(key: str, value: object, origin: Origin = Origin.LOG, line: int = 1) -> Fact:
    return Fact(key, value, origin, Evidence("server.log", line, "text"))  # type: ignore[arg-type]


def test_log_beats_settings_and_the_later_log_line_wins() -> None:
    facts = FactSet([_f("knob.max_model_len", 8192, Origin.LOG, 3), _f("knob.max_model_len", 4096, Origin.SETTINGS),
                     _f("knob.max_model_len", 16384, Origin.LOG, 9)])
    assert facts.value("knob.max_model_len") == 16384


def test_garbled_numbers_are_not_facts() -> None:
    # a log mangled in transit ("V size: inf GB", "context_length=NaN") states nothing
    facts = FactSet([_f("knob.max_model_len", float("nan")), _f("mem.kv_cache_bytes", float("inf")),
                     _f("knob.gpu_memory_utilization", 0.9)])
    assert not facts.has("knob.max_model_len")
    assert not facts.has("mem.kv_cache_bytes")
    assert facts.value("knob.gpu_memory_utilization") == 0.9


def test_numbers_past_any_real_quantity_are_not_facts() -> None:
    # a mangled launch line ("--max_seq_len 1e308 --max_batch_size 4"): its product would overflow the arithmetic
    facts = FactSet([_f("knob.max_model_len", 1e308), _f("knob.max_num_seqs", 4), _f("oom.requested_bytes", 10 ** 40)])
    assert not facts.has("knob.max_model_len") and not facts.has("oom.requested_bytes")
    assert facts.value("knob.max_num_seqs") == 4
    # (a 64-bit figure that wrapped below zero is kept: it is the sign of the underflow)
    assert FactSet([_f("mem.gpu_available_bytes", float(1 << 64))]).has("mem.gpu_available_bytes")


def test_rule_templates_format_times_and_drop_optional_parts() -> None:
    from oomdoctor.rules.model import render_template

    facts = FactSet([Fact("ratio.request_of_activations", 61.24, Origin.ESTIMATE), Fact("oom.requested_bytes", 20572012544, Origin.LOG)])
    text = "asked {oom.requested_bytes|bytes}[[, {ratio.request_of_activations|times} the plan]][[ ({mem.prefill_tokens|tokens} tokens)]]."
    assert render_template(text, facts) == "asked 19.16 GiB, 61x the plan."
    assert render_template("{ratio.request_of_activations|times}", FactSet([Fact("ratio.request_of_activations", 4.25, Origin.ESTIMATE)])) == "4.2x"


def test_rule_templates_if_is_a_segment_condition_that_prints_nothing() -> None:
    from oomdoctor.rules.model import render_template

    text = "Split.[[{model.exceeds_any_gpu|if} More than any card holds.]]"
    assert render_template(text, FactSet([Fact("model.exceeds_any_gpu", True, Origin.ESTIMATE)])) == "Split. More than any card holds."
    assert render_template(text, FactSet([])) == "Split."
