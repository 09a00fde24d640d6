"""Small inline SVG bar charts for the admin's statistics page: no script, nothing loaded from elsewhere (CSP).

``bar_chart`` draws one group of bars per label (a month), one bar per series,
with the values written above the bars and a legend; every text is escaped.
The chart has a title and a description for screen readers, and the page
shows the same figures in a table.
"""

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

COLOURS = ["#2563eb", "#16a34a", "#dc2626", "#d97706", "#7c3aed", "#0891b2"]


def bar_chart(
    *, title: str, labels: list[str], series: list[tuple[str, list[float | None]]], unit: str = ""
) -> SafeString:
    width, height, left, bottom, top = 760, 240, 36, 36, 28
    plot_w, plot_h = width - left - 10, height - bottom - top
    values = [v for _, vals in series for v in vals if v is not None]
    peak = max(values, default=0) or 1
    group_w = plot_w / max(len(labels), 1)
    bar_w = max(min((group_w - 6) / max(len(series), 1), 22), 2)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" viewBox="0 0 {width} {height}" '
        f'width="100%" style="max-width:{width}px" aria-labelledby="t-{id(series)}">',
        f'<title id="t-{id(series)}">{escape(title)}</title>',
        f'<line x1="{left}" y1="{top + plot_h}" x2="{width - 10}" y2="{top + plot_h}" stroke="#9ca3af"/>',
    ]
    for i, label in enumerate(labels):
        x0 = left + i * group_w + 3
        for j, (name, vals) in enumerate(series):
            value = vals[i]
            if value is None:
                continue
            h = plot_h * value / peak
            x, y = x0 + j * bar_w, top + plot_h - h
            colour = COLOURS[j % len(COLOURS)]
            parts.append(
                f'<rect x="{x:.1f}" y="{y:.1f}" width="{bar_w - 1:.1f}" height="{h:.1f}" fill="{colour}">'
                f"<title>{escape(name)} {escape(label)}: {escape(f'{value:g}')}{escape(unit)}</title></rect>"
            )
            if value:
                parts.append(
                    f'<text x="{x + bar_w / 2:.1f}" y="{y - 2:.1f}" font-size="9" text-anchor="middle" '
                    f'fill="currentColor">{escape(f"{value:g}")}</text>'
                )
        parts.append(
            f'<text x="{x0 + group_w / 2 - 3:.1f}" y="{height - bottom + 14}" font-size="10" text-anchor="middle" '
            f'fill="currentColor">{escape(label)}</text>'
        )
    for j, (name, _vals) in enumerate(series):
        x = left + j * 170
        parts.append(f'<rect x="{x}" y="6" width="10" height="10" fill="{COLOURS[j % len(COLOURS)]}"/>')
        parts.append(f'<text x="{x + 14}" y="15" font-size="11" fill="currentColor">{escape(name)}</text>')
    parts.append("</svg>")
    return mark_safe("".join(parts))  # noqa: S308 - every text above is escaped; numbers are formatted by us


def statistics_charts(rows) -> list[SafeString]:
    """The regulator statistics page's four charts, one bar group per month of ``rows``
    (``compliance.reporting.selectors.statistics.regulator_statistics``)."""
    labels = [r.month for r in rows]
    return [
        bar_chart(
            title="SARs filed per month, by the FIU's answer",
            labels=labels,
            series=[
                ("Accepted", [r.sars_accepted for r in rows]),
                ("Rejected", [r.sars_rejected for r in rows]),
                ("No answer yet", [r.sars_unanswered for r in rows]),
            ],
        ),
        bar_chart(
            title="Threshold reports filed, accepted and rejected per month",
            labels=labels,
            series=[
                ("Filed", [r.ctr_filed for r in rows]),
                ("Accepted", [r.ctr_accepted for r in rows]),
                ("Rejected", [r.ctr_rejected for r in rows]),
            ],
        ),
        bar_chart(
            title="Median days from detection to filing",
            labels=labels,
            series=[
                ("SARs", [r.sar_median_days for r in rows]),
                ("Threshold reports", [r.ctr_median_days for r in rows]),
            ],
            unit=" days",
        ),
        bar_chart(
            title="Filings made after their legal deadline",
            labels=labels,
            series=[
                ("SARs", [r.sars_overdue for r in rows]),
                ("Threshold reports", [r.ctr_overdue for r in rows]),
            ],
        ),
    ]
