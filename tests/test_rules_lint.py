"""Rule files and rule fixtures: built-in rules load cleanly, lint finds no HIGH issue,
every fixture names existing rules and is well formed, and broken rule files give errors
that name the file and the line (pySigma style: each check paired with its valid twin)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from oomdoctor.errors import RuleError
from oomdoctor.knobs import FRAMEWORKS, KNOBS
from oomdoctor.model import Account, Action
from oomdoctor.rules.lint import FixtureCase, Severity, lint, load_fixture_cases
from oomdoctor.rules.loader import builtin_rules_dir, load_rule, load_rules, rule_files

REPO = Path(__file__).resolve().parents[1]

# ------------------------------------------------------------------ built-in rules


def test_builtin_rules_load_without_errors(builtin_rules: Any) -> None:
    assert builtin_rules.errors == (), "\n".join(str(e) for e in builtin_rules.errors)
    assert len(builtin_rules.rules) == len(rule_files(builtin_rules_dir()))


def test_lint_with_fixtures_has_no_high_issue(builtin_rules: Any, rule_fixture_root: Path) -> None:
    cases = load_fixture_cases(rule_fixture_root)
    assert cases, f"no fixtures under {rule_fixture_root}"
    high = [i for i in lint(builtin_rules.rules, cases) if i.severity is Severity.HIGH]
    assert not high, "\n".join(f"{i.rule_id}: {i.message}" for i in high)


def test_rules_lint_cli_passes_on_the_fixtures(rule_fixture_root: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "oomdoctor", "rules", "lint", "--fixtures", str(rule_fixture_root)],
        capture_output=True, text=True, cwd=REPO, timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert re.search(r"\(0 high\)", proc.stdout), proc.stdout


def test_every_rule_has_a_fixture_directory(builtin_rules: Any, rule_fixture_root: Path) -> None:
    rule_ids = {r.id for r in builtin_rules.rules}
    dirs = {p.name for p in rule_fixture_root.iterdir() if p.is_dir()}
    assert not rule_ids - dirs, f"rules without fixtures/rules/<rule-id>/: {sorted(rule_ids - dirs)}"
    assert not dirs - rule_ids, f"fixture directories that name no rule: {sorted(dirs - rule_ids)}"


# ------------------------------------------------------------------ fixtures


def test_fixtures_name_existing_rules(all_rule_cases: list[Any], builtin_rules: Any) -> None:
    rule_ids = {r.id for r in builtin_rules.rules}
    bad = []
    for case in all_rule_cases:
        for key in ("fires", "not_fires", "todo_fires", "todo_not_fires"):
            bad += [f"{case.id}: {key} names unknown rule {rid!r}" for rid in case.ids(key) if rid not in rule_ids]
    assert not bad, "\n".join(bad)


def test_fixture_expectations_are_consistent(all_rule_cases: list[Any]) -> None:
    bad = []
    for case in all_rule_cases:
        groups = {k: set(case.ids(k)) for k in ("fires", "not_fires", "todo_fires", "todo_not_fires")}
        keys = list(groups)
        for i, a in enumerate(keys):
            for b in keys[i + 1:]:
                if groups[a] & groups[b]:
                    bad.append(f"{case.id}: {sorted(groups[a] & groups[b])} in both {a} and {b}")
        for key in keys:
            if len(case.ids(key)) != len(groups[key]):
                bad.append(f"{case.id}: {key} repeats a rule id")
        home = case.rule_dir
        if home not in groups["fires"] | groups["todo_fires"] | groups["todo_not_fires"] and not case.label.get("todo_culprit"):
            bad.append(f"{case.id}: the case does not say whether {home} fires (fires, todo_fires or todo_not_fires)")
    assert not bad, "\n".join(bad)


def test_fixture_cases_are_well_formed(all_rule_cases: list[Any], case_keys: tuple[frozenset[str], frozenset[str]]) -> None:
    label_keys, expect_keys = case_keys
    accounts = {a.value for a in Account}
    bad = []
    for case in all_rule_cases:
        lab = case.label
        unknown = set(lab) - label_keys - expect_keys
        if unknown:
            bad.append(f"{case.id}: unknown key(s) {sorted(unknown)}")
        missing = {"id", "source", "framework", "culprit", "fix_knobs", "confidence", "fires", "not_fires"} - set(lab)
        if missing:
            bad.append(f"{case.id}: missing key(s) {sorted(missing)}")
        if lab.get("id") != case.name:
            bad.append(f"{case.id}: id {lab.get('id')!r} differs from the case directory {case.name!r}")
        if lab.get("culprit") not in accounts:
            bad.append(f"{case.id}: culprit {lab.get('culprit')!r} is not an account")
        if lab.get("framework") not in FRAMEWORKS:
            bad.append(f"{case.id}: framework {lab.get('framework')!r} unknown")
        if lab.get("confidence") not in ("high", "medium", "low"):
            bad.append(f"{case.id}: confidence {lab.get('confidence')!r}")
        bad += [f"{case.id}: fix_knobs names unknown knob {k!r}" for k in lab.get("fix_knobs") or () if k not in KNOBS]
        src = str(lab.get("source", ""))
        if not (src.startswith("https://") or re.fullmatch(r"synthetic \(message format from (?:KNOBS\.md §[\d.]+(?:, §[\d.]+)*|https://\S+)\)", src)):
            bad.append(f"{case.id}: source must be a URL or 'synthetic (message format from KNOBS.md §N | URL)', got {src!r}")
        spec = lab.get("suggest_first")
        if spec is not None:
            if not isinstance(spec, dict) or set(spec) - {"knob", "action", "value"} or spec.get("knob") not in KNOBS:
                bad.append(f"{case.id}: suggest_first must be {{knob, action?, value?}} with a known knob, got {spec!r}")
            elif "action" in spec and spec["action"] not in {a.value for a in Action}:
                bad.append(f"{case.id}: suggest_first action {spec['action']!r} unknown")
        for key in ("todo_culprit", "todo_suggest"):
            if key in lab and not (isinstance(lab[key], str) and lab[key].strip()):
                bad.append(f"{case.id}: {key} must be a one-line reason")
        if not case.log.is_file() or case.log.stat().st_size == 0:
            bad.append(f"{case.id}: server.log missing or empty")
    assert not bad, "\n".join(bad)


# ------------------------------------------------------------------ broken rule files

VALID = """\
id: {id}
title: A rule written by the lint tests
status: stable
account: kv_cache
frameworks: [vllm]
confidence: high
description: >
  A rule written by the lint tests to check that errors are located.
when:
  all:
    - {{fact: oom.kind, equals: kv_capacity}}
    - {{fact: knob.max_model_len, exists: true}}
message: >
  max_model_len={{knob.max_model_len}} does not fit.
suggest:
  - {{knob: max_model_len, action: set, value: "{{fit.max_model_len}}", why: "the largest context that fits"}}
"""

# name -> (old text, new text, expected line of the error, words the message must contain)
BROKEN = {
    "unknown-key": ('why: "the largest context that fits"}', 'why: "the largest context that fits", priority: 1}', 16, "priority"),
    "bad-operator": ("equals: kv_capacity", "equal: kv_capacity", 11, "equal"),
    "non-numeric-comparison": ("{fact: knob.max_model_len, exists: true}", "{fact: knob.max_model_len, gt: big}", 12, "'gt' needs a number"),
    "unknown-fact": ("knob.max_model_len, exists", "knob.max_model_length, exists", 12, "knob.max_model_length"),
    "unknown-knob": ("{knob: max_model_len,", "{knob: max_context,", 16, "max_context"),
    "duplicate-key": ("confidence: high\n", "confidence: high\nconfidence: low\n", 7, "duplicate key 'confidence'"),
}

# Errors in top-level fields: today they are located at the rule's first line (the mapping
# that holds them), not at the field's own line.
TOP_LEVEL = {
    "unknown-top-level-key": ("confidence: high\n", "confidence: high\nseverity: high\n", 7, "severity"),
    "bad-status": ("status: stable", "status: final", 3, "status 'final'"),
    "unknown-fact-in-message": ("{knob.max_model_len} does", "{knob.max_len} does", 14, "knob.max_len"),
    # a stated confidence is the measured one, below the ranking confidence, never level with it or above
    "reported-not-lower": ("confidence: high\n", "confidence: high\nreported_confidence: high\n", 7, "must be lower"),
    "reported-unknown": ("confidence: high\n", "confidence: high\nreported_confidence: certain\n", 7, "reported_confidence 'certain'"),
}


def _write(directory: Path, stem: str, text: str) -> Path:
    path = directory / f"{stem}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_valid_rule_loads(tmp_path: Path) -> None:
    rule = load_rule(_write(tmp_path, "kv-valid", VALID.format(id="kv-valid")))
    assert rule.id == "kv-valid" and rule.path.endswith("kv-valid.yaml")


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_rule_names_file_and_line(tmp_path: Path, name: str) -> None:
    old, new, line, words = BROKEN[name]
    text = VALID.format(id=name)
    assert old in text
    path = _write(tmp_path, name, text.replace(old, new, 1))
    with pytest.raises(RuleError) as info:
        load_rule(path)
    message = str(info.value)
    assert words in message, message
    assert f"{path}:{line}" in message, f"expected {path.name}:{line} in: {message}"


def test_id_must_equal_file_stem(tmp_path: Path) -> None:
    path = _write(tmp_path, "kv-other-name", VALID.format(id="kv-valid"))
    with pytest.raises(RuleError) as info:
        load_rule(path)
    assert "does not match the file name" in str(info.value)
    assert f"{path}:1" in str(info.value)


@pytest.mark.parametrize("name", sorted(TOP_LEVEL))
def test_top_level_error_names_file_and_a_line(tmp_path: Path, name: str) -> None:
    old, new, _line, words = TOP_LEVEL[name]
    path = _write(tmp_path, name, VALID.format(id=name).replace(old, new, 1))
    with pytest.raises(RuleError) as info:
        load_rule(path)
    assert words in str(info.value)
    assert re.search(re.escape(str(path)) + r":\d+", str(info.value)), str(info.value)


@pytest.mark.parametrize("name", sorted(TOP_LEVEL))
def test_top_level_error_names_the_fields_own_line(tmp_path: Path, name: str) -> None:
    old, new, line, _words = TOP_LEVEL[name]
    path = _write(tmp_path, name, VALID.format(id=name).replace(old, new, 1))
    with pytest.raises(RuleError) as info:
        load_rule(path)
    assert f"{path}:{line}" in str(info.value), str(info.value)


def test_collect_errors_keeps_good_rules_and_reports_each_bad_file(tmp_path: Path) -> None:
    _write(tmp_path, "kv-valid", VALID.format(id="kv-valid"))
    for name, (old, new, _line, _words) in {**BROKEN, **TOP_LEVEL}.items():
        _write(tmp_path, name, VALID.format(id=name).replace(old, new, 1))
    _write(tmp_path, "kv-other-name", VALID.format(id="kv-valid"))
    rs = load_rules([tmp_path], builtin=False, collect_errors=True)
    assert [r.id for r in rs.rules] == ["kv-valid"]
    assert len(rs.errors) == len(BROKEN) + len(TOP_LEVEL) + 1
    for err in rs.errors:
        assert err.source is not None and err.source.path.startswith(str(tmp_path)) and err.source.line, str(err)
    with pytest.raises(RuleError):
        load_rules([tmp_path], builtin=False)


# ------------------------------------------------------------------ named conditions ({use: NAME})

NAMED = """\
# what the tests name
capacity-stated:
  all:
    - {fact: oom.kind, equals: kv_capacity}
    - {fact: knob.max_model_len, exists: true}
"""


def _uses(text: str, name: str = "capacity-stated") -> str:
    return text.replace("""  all:
    - {fact: oom.kind, equals: kv_capacity}
    - {fact: knob.max_model_len, exists: true}
""", f"""  all:
    - {{use: {name}}}
""")


def _facts(**values: Any) -> Any:
    from oomdoctor.facts import Fact, FactSet, Origin

    return FactSet([Fact(k.replace("__", "."), v, Origin.LOG, None) for k, v in values.items()])


def test_a_named_condition_stands_where_a_rule_uses_it(tmp_path: Path) -> None:
    (tmp_path / "conditions.yaml").write_text(NAMED, encoding="utf-8")
    _write(tmp_path, "kv-valid", _uses(VALID.format(id="kv-valid")))
    rs = load_rules([tmp_path], builtin=False)
    assert [r.id for r in rs.rules] == ["kv-valid"]  # (conditions.yaml is no rule)
    when = rs.rules[0].when
    assert when.holds(_facts(oom__kind="kv_capacity", knob__max_model_len=32768))
    assert not when.holds(_facts(oom__kind="kv_capacity"))
    assert when.facts_named() == {"oom.kind", "knob.max_model_len"}


def test_an_unknown_named_condition_names_the_rule_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "conditions.yaml").write_text(NAMED, encoding="utf-8")
    path = _write(tmp_path, "kv-valid", _uses(VALID.format(id="kv-valid"), "capacity-said"))
    with pytest.raises(RuleError) as info:
        load_rules([tmp_path], builtin=False)
    assert "unknown named condition 'capacity-said' (known: capacity-stated)" in str(info.value)
    assert f"{path}:11" in str(info.value), str(info.value)


def test_a_broken_named_condition_names_its_own_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "conditions.yaml"
    path.write_text(NAMED.replace("equals: kv_capacity", "equal: kv_capacity"), encoding="utf-8")
    _write(tmp_path, "kv-valid", VALID.format(id="kv-valid"))  # (no rule uses it: still checked)
    with pytest.raises(RuleError) as info:
        load_rules([tmp_path], builtin=False)
    assert "equal" in str(info.value) and f"{path}:4" in str(info.value), str(info.value)


def test_a_named_condition_that_uses_itself_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "conditions.yaml").write_text("a-loop:\n  not: {use: b-loop}\nb-loop:\n  any: [{use: a-loop}]\n", encoding="utf-8")
    with pytest.raises(RuleError) as info:
        load_rules([tmp_path], builtin=False)
    assert "uses itself (a-loop -> b-loop -> a-loop)" in str(info.value), str(info.value)


def test_user_conditions_may_use_the_builtin_ones_but_not_repeat_their_names(tmp_path: Path) -> None:
    (tmp_path / "conditions.yaml").write_text("cut-and-capped:\n  all: [{use: cut-inside-traceback}, {fact: knob.max_model_len, exists: true}]\n",
                                              encoding="utf-8")
    _write(tmp_path, "kv-valid", _uses(VALID.format(id="kv-valid"), "cut-and-capped"))
    rule = next(r for r in load_rules([tmp_path]).rules if r.id == "kv-valid")
    assert {"oom.hint", "error.final", "knob.max_model_len"} <= rule.when.facts_named()
    (tmp_path / "conditions.yaml").write_text(NAMED.replace("capacity-stated", "cut-inside-traceback"), encoding="utf-8")
    with pytest.raises(RuleError) as info:
        load_rules([tmp_path])
    assert "'cut-inside-traceback' is already a built-in one" in str(info.value), str(info.value)
    rs = load_rules([tmp_path], collect_errors=True)  # (the built-in rules still load)
    assert len(rs.errors) == 1 and len(rs.rules) == len(rule_files(builtin_rules_dir()))


def test_every_builtin_named_condition_is_used() -> None:
    from oomdoctor.rules.loader import load_named

    used = {m for p in rule_files(builtin_rules_dir()) for m in re.findall(r"\{use: ([\w-]+)\}", p.read_text(encoding="utf-8"))}
    assert set(load_named(builtin_rules_dir())) == used


# ------------------------------------------------------------------ lint of fixture coverage


def test_lint_flags_a_stable_rule_without_fixtures(tmp_path: Path) -> None:
    rule = load_rule(_write(tmp_path, "kv-valid", VALID.format(id="kv-valid")))
    issues = [i for i in lint((rule,), []) if i.severity is Severity.HIGH]
    assert {i.message for i in issues} == {
        "stable rule has no fixture where it fires", "stable rule has no fixture where it must not fire"}


def test_lint_accepts_a_stable_rule_with_both_fixtures(tmp_path: Path) -> None:
    rule = load_rule(_write(tmp_path, "kv-valid", VALID.format(id="kv-valid")))
    cases = [FixtureCase("a", ("kv-valid",), ()), FixtureCase("b", (), ("kv-valid",))]
    assert not [i for i in lint((rule,), cases) if i.severity is Severity.HIGH]


def test_lint_exempts_experimental_rules(tmp_path: Path) -> None:
    text = VALID.format(id="kv-valid").replace("status: stable", "status: experimental")
    rule = load_rule(_write(tmp_path, "kv-valid", text))
    assert not [i for i in lint((rule,), []) if i.severity is Severity.HIGH]


def test_lint_flags_a_fixture_naming_an_unknown_rule(tmp_path: Path) -> None:
    rule = load_rule(_write(tmp_path, "kv-valid", VALID.format(id="kv-valid")))
    cases = [FixtureCase("a", ("kv-valid",), ("kv-typo",)), FixtureCase("b", (), ("kv-valid",))]
    high = [i for i in lint((rule,), cases) if i.severity is Severity.HIGH]
    assert len(high) == 1 and "kv-typo" in high[0].message and high[0].path == "a"


def test_a_verdict_ranks_by_confidence_and_states_the_measured_one(tmp_path: Path) -> None:
    """A rule measured right less often than its confidence still outranks a medium finding of an earlier account,
    and the verdict it decides states its reported (lower) confidence; the other rule's finding keeps its own."""
    from oomdoctor.facts import Fact, FactSet, Origin
    from oomdoctor.model import Confidence, Culprit
    from oomdoctor.rules.engine import evaluate

    ranked = load_rule(_write(tmp_path, "kv-measured", VALID.format(id="kv-measured").replace(
        "confidence: high\n", "confidence: high\nreported_confidence: medium\n", 1)))
    rival = load_rule(_write(tmp_path, "weights-rival", VALID.format(id="weights-rival").replace(
        "account: kv_cache", "account: weights").replace("confidence: high", "confidence: medium")))
    facts = FactSet([Fact("oom.kind", "kv_capacity", Origin.LOG, None), Fact("knob.max_model_len", 32768, Origin.LOG, None)])
    verdict = evaluate(facts, (rival, ranked), "vllm")
    assert verdict.culprit is Culprit.KV_CACHE and verdict.confidence is Confidence.MEDIUM
    assert [(f.rule_id, f.confidence, f.stated_confidence) for f in verdict.findings] == [
        ("kv-measured", Confidence.HIGH, Confidence.MEDIUM), ("weights-rival", Confidence.MEDIUM, Confidence.MEDIUM)]
