from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from oomdoctor.errors import UsageError
from oomdoctor.model import Culprit, LedgerEntry
from oomdoctor.report.files import svg_path, write_outputs
from oomdoctor.report.svg import BAR_Y, PAD, WIDTH, render_svg

NS = "{http://www.w3.org/2000/svg}"
GiB = 1024**3


def segments(svg: str) -> list[tuple[str, float, float, bool]]:
    """`(title, x, width, outlined)` of each bar segment."""
    root = ET.fromstring(svg)
    out = []
    for rect in root.iter(f"{NS}rect"):
        title = rect.find(f"{NS}title")
        if title is not None and rect.get("y") == str(BAR_Y):
            out.append((title.text or "", float(rect.get("x")), float(rect.get("width")), rect.get("stroke") is not None))
    return out


def test_svg_shows_four_accounts_and_free_against_capacity(kv):
    svg = render_svg(kv)
    assert svg is not None
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg" and root.get("width") == str(WIDTH)
    assert root.find(f"{NS}title").text == "GPU memory ledger: 19.85 GiB of 22.06 GiB (90.0%)"
    segs = segments(svg)
    assert [s[0] for s in segs] == [
        "weights: 14.99 GiB",
        "KV cache: 3.50 GiB",
        "activations: 1.23 GiB",
        "framework overhead: 133.12 MiB",
        "free: 2.21 GiB",
    ]
    assert [s[3] for s in segs] == [False, True, False, False, False]  # the culprit is outlined
    assert segs[0][1] == PAD
    assert sum(s[2] for s in segs) == pytest.approx(WIDTH - 2 * PAD, abs=0.5)
    assert "3.50 GiB · culprit" in svg


def test_svg_marks_capacity_when_accounts_exceed_it(multi):
    ledger = tuple(e for e in multi.ledger if e.account != "capacity") + (LedgerEntry("capacity", 70 * GiB, "log"),)
    svg = render_svg(dataclasses.replace(multi, ledger=ledger))
    assert svg is not None
    assert "over capacity by 8.09 GiB" in svg
    assert 'stroke-dasharray="4 2"' in svg
    assert all(not s[0].startswith("free") for s in segments(svg))


def test_no_svg_without_capacity(unknown, kv):
    assert render_svg(unknown) is None
    no_cap = dataclasses.replace(kv, ledger=tuple(e for e in kv.ledger if e.account != "capacity"))
    assert render_svg(no_cap) is None


def test_svg_escapes_text(kv):
    ledger = tuple(
        dataclasses.replace(e, account="<odd&>") if e.account == "framework" else e for e in kv.ledger
    )
    svg = render_svg(dataclasses.replace(kv, ledger=ledger, culprit=Culprit.KV_CACHE))
    ET.fromstring(svg)  # well-formed
    assert "&lt;odd&amp;&gt;" in svg


def test_write_outputs_writes_report_and_svg_beside_it(kv, tmp_path: Path):
    out = tmp_path / "incident" / "report.md"
    with pytest.raises(UsageError, match="no folder"):  # a mistyped folder is an error, not made silently
        write_outputs(kv, "# report\n", out)
    out.parent.mkdir()
    written = write_outputs(kv, "# report\n", out)
    assert written == [out, tmp_path / "incident" / "report.ledger.svg"]
    assert out.read_text(encoding="utf-8") == "# report\n"
    assert written[1].read_text(encoding="utf-8") == render_svg(kv)
    assert svg_path(Path("a/b.json")) == Path("a/b.ledger.svg")


def test_write_outputs_without_capacity_removes_a_stale_svg(kv, unknown, tmp_path: Path):
    out = tmp_path / "report.md"
    write_outputs(kv, "old", out)
    assert write_outputs(unknown, "new", out) == [out]
    assert not svg_path(out).exists()
    other = tmp_path / "mine.ledger.svg"
    other.write_text("<svg>user drawing</svg>")
    write_outputs(unknown, "new", tmp_path / "mine.md")
    assert other.exists()  # not ours: left alone


def test_write_outputs_error_is_a_usage_error(kv, tmp_path: Path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(UsageError, match="cannot write"):
        write_outputs(kv, "x", blocker / "report.md")
