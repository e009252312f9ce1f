"""Writing a rendered report to disk, with the ledger SVG beside it (`--output FILE`).

The one module under `report/` that does file I/O; the renderers stay pure.
"""

from __future__ import annotations

from pathlib import Path

from oomdoctor.errors import UsageError
from oomdoctor.model import Report
from oomdoctor.report.svg import render_curve_svg, render_svg

_SVG_MARK = "GPU memory ledger"
_CURVE_MARK = "Memory curve"


def svg_path(output_path: Path) -> Path:
    """`report.md` -> `report.ledger.svg` (never the report's own name)."""
    return output_path.with_name(f"{output_path.stem}.ledger.svg")


def write_outputs(report: Report, text: str, output_path: Path | str) -> list[Path]:
    """Write `text` to `output_path` and the ledger SVG beside it; return the paths written.

    The SVG is skipped when the ledger has no capacity; a stale ledger SVG from an earlier
    run (recognised by its title) is then removed so it cannot be attached by mistake.
    Pass the already-redacted report. Raises `UsageError` when a file cannot be written.
    """
    path = Path(output_path)
    written = [_write(path, text)]
    svg = render_svg(report)
    target = svg_path(path)
    if svg is not None:
        written.append(_write(target, svg))
    else:
        _remove_stale(target)
    curve = render_curve_svg(report)
    curve_target = output_path_curve(path)
    if curve is not None:
        written.append(_write(curve_target, curve))
    else:
        _remove_stale(curve_target, _CURVE_MARK)
    return written


def output_path_curve(output_path: Path) -> Path:
    """`report.md` -> `report.timeline.svg` (the curve before the failure)."""
    return output_path.with_name(f"{output_path.stem}.timeline.svg")


def _write(path: Path, text: str) -> Path:
    if not path.parent.is_dir():  # a mistyped folder is an error, not a folder made silently
        raise UsageError(f"cannot write {path}: no folder {path.parent} (create it first)")
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from exc
    return path


def _remove_stale(path: Path, mark: str = _SVG_MARK) -> None:
    try:
        if path.is_file() and mark in path.read_text(encoding="utf-8", errors="replace")[:2000]:
            path.unlink()
    except OSError:
        pass
