"""A small inline SVG chart for a rule's page: its alerts per week, stacked by outcome.

No script, nothing loaded from elsewhere (CSP); every text goes through
``format_html``. The sibling of ``compliance.reporting.charts`` (the regulator
statistics' bar charts): it sits in aml because aml is below reporting, and
the rule pages, which draw it, are aml's.
"""

from django.utils.html import format_html, format_html_join


def outcome_weeks_chart(weeks: list[dict]) -> str:
    """Stacked weekly bars (false positive, SAR, confirmed, open) as inline SVG; no script, no external file."""
    width, height, pad = 480, 120, 16
    most = max([w["fp"] + w["sar"] + w.get("tp", 0) + w["open"] for w in weeks] + [1])
    bar = max(4, (width - 2 * pad) // max(len(weeks), 1) - 4)
    parts = []
    colours = (("fp", "#9ca3af"), ("sar", "#dc2626"), ("tp", "#d97706"), ("open", "#2563eb"))
    for i, week in enumerate(weeks):
        x = pad + i * (bar + 4)
        y = height - pad
        for key, colour in colours:
            h = round((height - 2 * pad) * week.get(key, 0) / most)
            if h:
                y -= h
                parts.append(
                    format_html(
                        '<rect x="{}" y="{}" width="{}" height="{}" fill="{}"><title>{} {}: {}</title></rect>',
                        x,
                        y,
                        bar,
                        h,
                        colour,
                        week["start"].strftime("%d %b"),
                        key,
                        week[key],
                    )
                )
    legend = format_html(
        '<text x="{}" y="12" font-size="10">grey: false positive · red: SAR · amber: confirmed · blue: open</text>', pad
    )
    return format_html(
        '<svg role="img" aria-label="Alerts per week by outcome" data-testid="outcome-chart" width="{}" '
        'height="{}" viewBox="0 0 {} {}">{}{}</svg>',
        width,
        height,
        width,
        height,
        legend,
        format_html_join("", "{}", ((p,) for p in parts)),
    )
