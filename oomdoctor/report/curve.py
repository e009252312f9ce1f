"""Shared, pure helpers for showing the curve before the failure: sparklines, the pressure
table rows, values in their unit. Used by the text and Markdown renderers and the SVG plot."""

from __future__ import annotations

from oomdoctor.model import CurveView, Pressure, Report
from oomdoctor.report.fmt import fmt_bytes

BLOCKS = " ▁▂▃▄▅▆▇█"
ASCII = " .:-=+*#%@"
SIGNAL_LABEL = {
    "kv_usage": "KV-cache usage", "waiting": "requests waiting", "running": "requests running",
    "gpu_bytes": "GPU memory (server)", "torch_reserved_bytes": "PyTorch reserved", "gpu_used_bytes": "GPU memory (device)",
    "rss_bytes": "host RSS", "cgroup_bytes": "container memory", "prompt_tokens_p99": "P99 prompt length",
}


def resample(values: tuple[float, ...] | list[float], width: int) -> list[float]:
    """At most `width` points, each the peak of the values it stands for."""
    if len(values) <= width:
        return list(values)
    out = []
    for i in range(width):
        a, b = i * len(values) // width, (i + 1) * len(values) // width
        out.append(max(values[a:max(b, a + 1)]))
    return out


def sparkline(values: tuple[float, ...] | list[float], width: int = 48, top: float | None = None, ascii_only: bool = False) -> str:
    points = resample(values, width)
    if not points:
        return ""
    chars = ASCII if ascii_only else BLOCKS
    hi = top if top is not None else max(points)
    lo = 0.0 if top is not None else min(0.0, min(points))
    span = (hi - lo) or 1.0
    return "".join(chars[max(0, min(len(chars) - 1, round((v - lo) / span * (len(chars) - 1))))] for v in points)


def fmt_signal(signal: str, value: float | None, unit: str | None = None) -> str:
    if value is None:
        return "?"
    if signal == "kv_usage" or unit == "ratio":
        return f"{value * 100:.0f}%"
    if signal.endswith("_bytes") or unit == "bytes":
        return fmt_bytes(int(value))
    if signal.endswith("tokens_p99") or unit == "tokens":
        return f"{int(value):,} tokens"
    return f"{value:g}"


def pressure_line(p: Pressure) -> str:
    window = f"{p.since} → {p.until}" if p.since or p.until else "the whole curve"
    return (f"{p.account}: {SIGNAL_LABEL.get(p.signal, p.signal)} peaked at {fmt_signal(p.signal, p.peak)}, "
            f"{window} ({p.samples} samples)")


def curve_line(c: CurveView, width: int = 48, ascii_only: bool = False) -> tuple[str, str, str]:
    """(label, sparkline, peak) for one curve."""
    top = c.ceiling if c.ceiling is not None else None
    peak = max(c.values) if c.values else None
    return SIGNAL_LABEL.get(c.name, c.name), sparkline(c.values, width, top, ascii_only), fmt_signal(c.name, peak, c.unit)


def shown_curves(report: Report, limit: int = 4) -> list[CurveView]:
    return list(report.curves[:limit])
