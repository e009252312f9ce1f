"""Fuzzing real logs: never a traceback, never a misleading exit.

Mutations of the fixture logs (numbers turned into inf, NaN, 1e308 or negative values, units
swapped, bytes flipped, lines cut or made very long, two logs mixed) must each end with exit
status 0, 1 or 2, and with --format json a JSON object on stdout (exit 0/1) or one line on
stderr (exit 2). Seeded, so a failure reproduces.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import re
import sys
from pathlib import Path

import pytest

from oomdoctor.cli import main

ROOT = Path(__file__).resolve().parents[1]
LOGS = sorted(ROOT.glob("fixtures/rules/*/*/server.log"))
NUMBER = re.compile(rb"\d+(?:\.\d+)?")
UNITS = [b"GiB", b"MiB", b"KiB", b"GB", b"MB", b"bytes", b"TiB", b"B"]
ODD = [b"inf", b"nan", b"NaN", b"1e308", b"-5", b"-0.0", b"99999999999999999999999999", b"0", b"1.7976931348623157e+308"]


def mutate(data: bytes, other: bytes, rng: random.Random) -> bytes:
    kind = rng.randrange(7)
    if kind == 0:  # numbers into odd values
        return NUMBER.sub(lambda m: rng.choice(ODD) if rng.random() < 0.5 else m.group(0), data)
    if kind == 1:  # units swapped
        return re.sub(rb"GiB|MiB|KiB|GB|MB|bytes|TiB", lambda m: rng.choice(UNITS), data)
    if kind == 2:  # byte flips
        b = bytearray(data)
        for _ in range(max(1, len(b) // 50)):
            b[rng.randrange(len(b))] = rng.randrange(256)
        return bytes(b)
    if kind == 3:  # cut anywhere
        return data[: rng.randrange(1, len(data) + 1)]
    if kind == 4:  # one very long line
        i = rng.randrange(len(data) + 1)
        return data[:i] + (b"x" + b"9" * 700_000 + b" GiB out of memory ") * 1 + data[i:]
    if kind == 5:  # two logs mixed line by line
        a, b = data.splitlines(), other.splitlines()
        mixed = [x for pair in zip(a, b) for x in pair] + a[len(b):] + b[len(a):]
        return b"\n".join(mixed)
    return data.replace(b"\n", b"\r\n") + b"\x00" * rng.randrange(2)  # CRLF, a NUL at the end


def run_cli(path: Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    argv = sys.argv
    sys.argv = ["oomdoctor", "diagnose", str(path), "--format", "json"]
    code = 0
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            main()
    except SystemExit as exc:
        code = int(exc.code or 0)
    finally:
        sys.argv = argv
    return code, out.getvalue(), err.getvalue()


SEEDS = range(240)


@pytest.mark.parametrize("seed", SEEDS)
def test_mutated_logs_end_cleanly(seed: int, tmp_path: Path) -> None:
    rng = random.Random(seed)
    src, other = rng.choice(LOGS), rng.choice(LOGS)
    data = mutate(src.read_bytes(), other.read_bytes(), rng)
    path = tmp_path / "mutated.log"
    path.write_bytes(data)
    code, out, err = run_cli(path)
    where = f"seed {seed}: {src.relative_to(ROOT)}"
    assert code in (0, 1, 2), f"{where}: exit {code}: {err[-400:]}"
    assert "Traceback" not in err, where
    if code == 2:
        lines = [ln for ln in err.splitlines() if ln.startswith("oomdoctor: error")]
        assert len(lines) == 1, f"{where}: {err}"
    else:
        report = json.loads(out)
        assert isinstance(report, dict) and "culprit" in report, where
