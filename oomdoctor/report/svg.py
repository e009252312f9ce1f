"""A small standalone SVG of the memory ledger: the four accounts and free space against
the card's capacity, the culprit outlined. Pure: `render_svg(report) -> str | None`."""

from __future__ import annotations

from xml.sax.saxutils import escape

from oomdoctor.model import Report
from oomdoctor.report import fmt

WIDTH = 720
HEIGHT = 118
PAD = 12
BAR_Y = 34
BAR_H = 30
LEGEND_Y = 92

FILL = {
    "weights": "#4c78a8",
    "kv_cache": "#b279a2",
    "activations": "#f2b701",
    "framework": "#54a2a6",
    "free": "#e6e6e6",
}
OTHER_FILL = "#9d755d"
SHORT_LABEL = {"framework": "framework", "kv_cache": "KV cache"}


def render_svg(report: Report) -> str | None:
    """The ledger bar as SVG text, or None when the ledger has no capacity or nothing to draw in it."""
    view = fmt.ledger_view(report)
    if not view.drawable:
        return None
    cap = view.capacity_bytes or 0
    parts = [p for p in view.rows if p.bytes and p.bytes > 0 and not (view.over_by and p.account == "free")]
    scale_to = max(cap, sum(p.bytes or 0 for p in parts))
    span = WIDTH - 2 * PAD
    culprit = fmt.culprit_name(report)
    title = f"GPU memory ledger: {fmt.bar_caption(view)}"
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" font-family="sans-serif" font-size="12">',
        f"<title>{escape(title)}</title>",
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>',
        f'<text x="{PAD}" y="22" font-weight="bold">{escape(title)}</text>',
        f'<rect x="{PAD}" y="{BAR_Y}" width="{span}" height="{BAR_H}" fill="none" stroke="#999999"/>',
    ]
    x = float(PAD)
    for p in parts:
        w = span * (p.bytes or 0) / scale_to
        out.append(_segment(x, w, p.account, p.account == culprit, fmt.fmt_bytes(p.bytes)))
        x += w
    if view.over_by:
        cx = PAD + span * cap / scale_to
        out.append(
            f'<line x1="{cx:.1f}" y1="{BAR_Y - 6}" x2="{cx:.1f}" y2="{BAR_Y + BAR_H + 6}" '
            'stroke="#d62728" stroke-width="2" stroke-dasharray="4 2"/>'
        )
    out += _legend([p.account for p in parts], {p.account: p.bytes for p in parts}, culprit)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _segment(x: float, w: float, account: str, is_culprit: bool, size: str) -> str:
    fill = FILL.get(account, OTHER_FILL)
    stroke = ' stroke="#111111" stroke-width="2"' if is_culprit else ""
    label = f"{fmt.ACCOUNT_LABEL.get(account, account)}: {size}"
    return (
        f'<rect x="{x:.1f}" y="{BAR_Y}" width="{max(w, 0.5):.1f}" height="{BAR_H}" fill="{fill}"{stroke}>'
        f"<title>{escape(label)}</title></rect>"
    )


def _legend(accounts: list[str], sizes: dict[str, int | None], culprit: str) -> list[str]:
    out = []
    step = (WIDTH - 2 * PAD) / max(1, len(accounts))
    for i, account in enumerate(accounts):
        x = PAD + i * step
        name = SHORT_LABEL.get(account, account)
        size = fmt.fmt_bytes(sizes.get(account))
        size_attrs = 'fill="#555555"'
        if account == culprit:
            size += " · culprit"
            size_attrs = 'fill="#111111" font-weight="bold"'
        fill = FILL.get(account, OTHER_FILL)
        out.append(f'<rect x="{x:.1f}" y="{LEGEND_Y - 10}" width="10" height="10" fill="{fill}"/>')
        out.append(f'<text x="{x + 14:.1f}" y="{LEGEND_Y}">{escape(name)}</text>')
        out.append(f'<text x="{x + 14:.1f}" y="{LEGEND_Y + 15}" {size_attrs}>{escape(size)}</text>')
    return out


CURVE_FILL = {"kv_usage": "#b279a2", "waiting": "#e45756", "running": "#4c78a8"}
PANEL_H = 84


def render_curve_svg(report: Report) -> str | None:
    """The curves before the failure as small multiples (KV usage against its ceiling first),
    the pressure windows listed under the title; None when the report has no curve."""
    from oomdoctor.report import curve

    views = curve.shown_curves(report)
    if not views:
        return None
    height = 40 + PANEL_H * len(views) + 16 * len(report.pressure)
    title = "Memory curve before the failure" if report.memory_failure else "Memory curve (no failure)"
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" '
        'role="img" font-family="sans-serif" font-size="12">',
        f"<title>{escape(title)}</title>",
        f'<rect width="{WIDTH}" height="{height}" fill="#ffffff"/>',
        f'<text x="{PAD}" y="22" font-weight="bold">{escape(title)}</text>',
    ]
    y = 34
    for p in report.pressure:
        out.append(f'<text x="{PAD}" y="{y + 10}" fill="#b22222">{escape("under pressure: " + curve.pressure_line(p))}</text>')
        y += 16
    span = WIDTH - 2 * PAD
    for c in views:
        label, _, peak = curve.curve_line(c)
        top = c.ceiling if c.ceiling is not None else (max(c.values) or 1.0)
        plot_y, plot_h = y + 18, PANEL_H - 30
        out.append(f'<text x="{PAD}" y="{y + 12}">{escape(f"{label} (max {peak})")}</text>')
        out.append(f'<rect x="{PAD}" y="{plot_y}" width="{span}" height="{plot_h}" fill="none" stroke="#dddddd"/>')
        points = curve.resample(c.values, span // 2)
        n = max(1, len(points) - 1)
        coords = " ".join(f"{PAD + span * i / n:.1f},{plot_y + plot_h - plot_h * min(v, top) / top:.1f}" for i, v in enumerate(points))
        out.append(f'<polyline points="{coords}" fill="none" stroke="{CURVE_FILL.get(c.name, OTHER_FILL)}" stroke-width="1.5"/>')
        if c.ceiling is not None:
            cy = plot_y + plot_h - plot_h * 0.95
            out.append(f'<line x1="{PAD}" y1="{cy:.1f}" x2="{PAD + span}" y2="{cy:.1f}" stroke="#d62728" stroke-dasharray="4 2"/>')
        if c.since or c.until:
            out.append(f'<text x="{PAD}" y="{plot_y + plot_h + 11}" fill="#555555" font-size="10">{escape(c.since or "")}</text>')
            out.append(f'<text x="{PAD + span}" y="{plot_y + plot_h + 11}" fill="#555555" font-size="10" '
                       f'text-anchor="end">{escape(c.until or "")}</text>')
        y += PANEL_H
    out.append("</svg>")
    return "\n".join(out) + "\n"


__all__ = ["render_curve_svg", "render_svg"]
