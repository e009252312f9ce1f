"""The README's exit-code table, `--help` and the behaviour agree: each documented code is
produced by the case the table describes."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from oomdoctor.status import EXIT_CODES_HELP, ExitStatus

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "vllm-kv-cache.log"


def readme_codes() -> dict[int, str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    table = text.split("## Exit codes", 1)[1].split("\n\n", 2)[1]
    return {int(m.group(1)): m.group(2) for m in re.finditer(r"^\| (\d+) \| (.+) \|$", table, re.M)}


def run(*args: str, code: str | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-c", code, *args] if code else [sys.executable, "-m", "oomdoctor", *args]
    return subprocess.run(argv, capture_output=True, text=True, cwd=cwd, timeout=120)


def test_readme_help_and_enum_list_the_same_codes() -> None:
    documented = readme_codes()
    assert set(documented) == {int(s) for s in ExitStatus}
    for number in documented:
        assert re.search(rf"\b{number} ", EXIT_CODES_HELP), number
    help_text = run("diagnose", "--help").stdout
    assert "70 internal error" in " ".join(help_text.split())


HEALTHY = "INFO 07-08 13:05:46 [api_server.py:1085] Starting vLLM API server on http://0.0.0.0:8000\nINFO:     Application startup complete.\n"
RAISE_IN = ("import sys, oomdoctor.diagnose as d\n"
            "def boom(*a, **k):\n    raise {exc}\n"
            "d.build_report = boom\n"
            "from oomdoctor.cli import main\nsys.argv = ['oomdoctor', 'diagnose', sys.argv[1]]\nmain()\n")


@pytest.mark.parametrize("code", [int(s) for s in ExitStatus])
def test_each_code_is_what_the_readme_says(code: int, tmp_path: Path) -> None:
    healthy = tmp_path / "ok.log"
    healthy.write_text(HEALTHY)
    broken_rules = tmp_path / "rules"
    broken_rules.mkdir()
    (broken_rules / "bad.yaml").write_text("id: bad\ntitle: [unclosed\n")
    cases = {
        0: lambda: run("diagnose", str(healthy)),
        1: lambda: run("diagnose", str(EXAMPLE)),
        2: lambda: run("diagnose", str(tmp_path / "missing.log")),
        3: lambda: run("rules", "lint", "--rules", str(broken_rules)),
        4: lambda: run("confirm", "--max-tries", "1", "--", sys.executable, "-c",
                       "import sys; print('torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB'); sys.exit(1)"),
        70: lambda: run(str(EXAMPLE), code=RAISE_IN.format(exc="ZeroDivisionError('x')")),
        130: lambda: run(str(EXAMPLE), code=RAISE_IN.format(exc="KeyboardInterrupt")),
    }
    p = cases[code]()
    assert p.returncode == code, (code, p.stdout[-500:], p.stderr[-500:])
    if code in (2, 70):
        assert "Traceback" not in p.stderr and p.stderr.strip().count("\n") == 0, p.stderr
