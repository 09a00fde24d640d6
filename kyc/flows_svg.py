"""A small picture of money flows one and two hops around a wallet: server-rendered SVG, no script.

The centre is the customer; around it the counterparties they exchanged the
most with (first hop), and further out the counterparties of those users
(second hop). A line's width follows the money that moved along it; its
colour and arrow say which way most of it went (green into the customer's
side, red out of it). The same facts are listed as text beside the picture
for screen readers and for copying into a report.
"""

import math
from decimal import Decimal

from django.utils.html import escape

from backoffice.money import money
from kyc.selectors.flows import Counterparty, MoneyFlows

WIDTH, HEIGHT = 760, 500
CX, CY = WIDTH / 2, HEIGHT / 2
R1, R2 = 135, 215
IN_COLOUR, OUT_COLOUR, TEXT = "#047857", "#b91c1c", "#1f2937"
HALO = ' paint-order="stroke" stroke="#fff" stroke-width="3" stroke-linejoin="round"'


def _short(name: str, size: int = 18) -> str:
    return name if len(name) <= size else name[: size - 1] + "…"


def _edge(x1, y1, x2, y2, party: Counterparty, widest: Decimal) -> str:
    width = 1.5 + 6 * float(party.total / widest) if widest else 1.5
    outward = party.sent >= party.received  # most money left the inner node for the outer one
    colour = OUT_COLOUR if outward else IN_COLOUR
    if not outward:
        x1, y1, x2, y2 = x2, y2, x1, y1
    # stop short of the node so the arrow head stays visible
    length = math.hypot(x2 - x1, y2 - y1) or 1
    x2, y2 = x2 - (x2 - x1) / length * 11, y2 - (y2 - y1) / length * 11
    marker = "vk-arrow-out" if outward else "vk-arrow-in"
    return (
        f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{colour}" '
        f'stroke-width="{width:.1f}" stroke-opacity="0.75" marker-end="url(#{marker})"/>'
    )


def _node(x, y, party: Counterparty, *, small: bool = False) -> str:
    anchor = "start" if x > CX + 5 else "end" if x < CX - 5 else "middle"
    dx = 10 if anchor == "start" else -10 if anchor == "end" else 0
    shape = (
        f'<rect x="{x - 6:.1f}" y="{y - 6:.1f}" width="12" height="12" fill="#374151"/>'
        if party.kind == "vendor"
        else f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{5 if small else 7}" fill="#374151"/>'
    )
    size = 10 if small else 11
    return (
        f"{shape}"
        f'<text x="{x + dx:.1f}" y="{y - 2:.1f}" text-anchor="{anchor}" font-size="{size}" fill="{TEXT}"{HALO}>'
        f"{escape(_short(party.name))}</text>"
        f'<text x="{x + dx:.1f}" y="{y + size:.1f}" text-anchor="{anchor}" font-size="{size - 1}" fill="{TEXT}"{HALO}>'
        f"{escape(money(party.total))}</text>"
    )


def money_flow_svg(flows: MoneyFlows) -> str:
    """The SVG (a string of markup, every name escaped)."""
    parts: list[str] = []
    nodes: list[str] = []
    every = flows.first_hop + [p for ps in flows.second_hop.values() for p in ps]
    widest = max((p.total for p in every), default=Decimal("0"))
    count = len(flows.first_hop)
    for index, party in enumerate(flows.first_hop):
        angle = -math.pi / 2 + 2 * math.pi * index / max(count, 1)
        x, y = CX + R1 * math.cos(angle), CY + R1 * math.sin(angle)
        parts.append(_edge(CX, CY, x, y, party, widest))
        onward = flows.second_hop.get(party.key, [])
        for offset, other in enumerate(onward):
            spread = (offset - (len(onward) - 1) / 2) * 0.32
            ox, oy = CX + R2 * math.cos(angle + spread), CY + R2 * math.sin(angle + spread)
            parts.append(_edge(x, y, ox, oy, other, widest))
            nodes.append(_node(ox, oy, other, small=True))
        nodes.append(_node(x, y, party))
    centre = (
        f'<circle cx="{CX}" cy="{CY}" r="11" fill="#065f46"/>'
        f'<text x="{CX}" y="{CY + 28}" text-anchor="middle" font-size="12" font-weight="600" fill="{TEXT}"{HALO}>'
        f"{escape(_short(flows.centre.full_name, 24))}</text>"
    )
    markers = "".join(
        f'<marker id="{name}" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="9" markerHeight="9" '
        f'markerUnits="userSpaceOnUse" orient="auto-start-reverse">'
        f'<path d="M 0 0 L 10 5 L 0 10 z" fill="{colour}"/></marker>'
        for name, colour in (("vk-arrow-out", OUT_COLOUR), ("vk-arrow-in", IN_COLOUR))
    )
    title = f"Money flows around {escape(flows.centre.full_name)}, one and two hops out"
    return (
        f'<svg class="vk-flows" viewBox="0 0 {WIDTH} {HEIGHT}" width="100%" role="img" '
        f'aria-labelledby="vk-flows-title" xmlns="http://www.w3.org/2000/svg">'
        f'<title id="vk-flows-title">{title}</title><defs>{markers}</defs>'
        f"{''.join(parts)}{''.join(nodes)}{centre}</svg>"
    )
