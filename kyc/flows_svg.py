"""A picture of money flows one and two hops around a wallet: server-rendered SVG, no script, works offline.

The centre is the customer; around it the counterparties they exchanged the
most with (first hop), and further out the counterparties of those users
(second hop). A line's width follows the money that moved along it; its
colour and arrow say which way most of it went (green into the inner node,
red out of it); its label gives the money and the number of transactions.
A flagged party (sanctions, PEP, open alerts) wears a red ring and its flags
in words; every node is a link to the customer's or vendor's admin page. The
same facts are listed as a table beside the picture for screen readers and
for copying into a report.
"""

import math
from decimal import Decimal

from django.urls import reverse
from django.utils.html import escape

from backoffice.money import money
from kyc.selectors.flows import Counterparty, MoneyFlows

WIDTH, HEIGHT = 960, 660
CX, CY = WIDTH / 2, HEIGHT / 2
R1, R2 = 175, 295
IN_COLOUR, OUT_COLOUR, TEXT, FLAG = "#047857", "#b91c1c", "#1f2937", "#b91c1c"
HALO = ' paint-order="stroke" stroke="#fff" stroke-width="3" stroke-linejoin="round"'


def _short(name: str, size: int = 18) -> str:
    return name if len(name) <= size else name[: size - 1] + "…"


def _edge(x1, y1, x2, y2, party: Counterparty, widest: Decimal, *, at: float = 0.5) -> str:
    width = 1.5 + 6 * float(party.total / widest) if widest else 1.5
    outward = party.sent >= party.received  # most money left the inner node for the outer one
    colour = OUT_COLOUR if outward else IN_COLOUR
    if not outward:
        x1, y1, x2, y2 = x2, y2, x1, y1
    # stop short of the node so the arrow head stays visible
    length = math.hypot(x2 - x1, y2 - y1) or 1
    x2, y2 = x2 - (x2 - x1) / length * 11, y2 - (y2 - y1) / length * 11
    marker = "vk-arrow-out" if outward else "vk-arrow-in"
    # the label sits ``at`` of the way out from the inner node (further out on the second hop, where the lines
    # of one node's onward parties start together)
    ix, iy, ox, oy = (x1, y1, x2, y2) if outward else (x2, y2, x1, y1)
    mx, my = ix + (ox - ix) * at, iy + (oy - iy) * at
    # beside a slanted line, on its outer side, so the labels of lines leaving one node apart do not overlap
    side = "end" if ox < ix - 5 else "start" if ox > ix + 5 else "middle"
    mx += {"end": -5, "start": 5, "middle": 0}[side]
    label = f"{money(party.total)} · {party.count} tx"
    return (
        f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{colour}" '
        f'stroke-width="{width:.1f}" stroke-opacity="0.75" marker-end="url(#{marker})"/>'
        f'<text class="vk-edge" x="{mx:.1f}" y="{my:.1f}" text-anchor="{side}" font-size="9.5" '
        f'fill="{TEXT}"{HALO}>{escape(label)}</text>'
    )


def party_url(party: Counterparty) -> str:
    """The admin page of a counterparty: the customer's, or the vendor's."""
    name = "admin:kyc_platformuser_change" if party.kind == "user" else "admin:vendors_vendor_change"
    return reverse(name, args=[party.pk])


def _node(x, y, party: Counterparty, *, small: bool = False) -> str:
    # a name beside its node, away from the centre; a node straight above or below the centre has its name on the
    # right, clear of the vertical lines through it
    anchor = "end" if x < CX - 5 else "start"
    dx = 11 if anchor == "start" else -11
    radius = 5 if small else 7
    shape = (
        f'<rect x="{x - 6:.1f}" y="{y - 6:.1f}" width="12" height="12" fill="#374151"/>'
        if party.kind == "vendor"
        else f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius}" fill="#374151"/>'
    )
    ring = (
        f'<circle class="vk-flagged" cx="{x:.1f}" cy="{y:.1f}" r="{radius + 4}" fill="none" '
        f'stroke="{FLAG}" stroke-width="2.5"/>'
        if party.flags
        else ""
    )
    size = 10 if small else 11
    kind = "customer" if party.kind == "user" else "vendor"
    flagged = f" — {', '.join(party.flags)}" if party.flags else ""
    flag_text = (
        f'<text x="{x + dx:.1f}" y="{y + 2 * size + 1:.1f}" text-anchor="{anchor}" font-size="{size - 1}" '
        f'font-weight="600" fill="{FLAG}"{HALO}>⚠ {escape(_short(", ".join(party.flags), 30))}</text>'
        if party.flags
        else ""
    )
    return (
        f'<a href="{escape(party_url(party))}" data-party="{escape(party.key)}" '
        f'aria-label="{escape(party.name)} ({kind}){escape(flagged)}">'
        f"<title>{escape(party.name)} ({kind}){escape(flagged)}</title>{ring}{shape}"
        f'<text x="{x + dx:.1f}" y="{y - 2:.1f}" text-anchor="{anchor}" font-size="{size}" fill="{TEXT}" '
        f'text-decoration="underline"{HALO}>{escape(_short(party.name))}</text>'
        f'<text x="{x + dx:.1f}" y="{y + size:.1f}" text-anchor="{anchor}" font-size="{size - 1}" fill="{TEXT}"{HALO}>'
        f"{escape(money(party.total))}</text>{flag_text}</a>"
    )


def money_flow_svg(flows: MoneyFlows, centre_flags: tuple[str, ...] = ()) -> str:
    """The SVG (a string of markup, every name escaped); ``centre_flags`` mark the customer at the centre."""
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
            spread = (offset - (len(onward) - 1) / 2) * 0.42
            ox, oy = CX + R2 * math.cos(angle + spread), CY + R2 * math.sin(angle + spread)
            parts.append(_edge(x, y, ox, oy, other, widest, at=0.62))
            nodes.append(_node(ox, oy, other, small=True))
        nodes.append(_node(x, y, party))
    centre = (
        f'<circle cx="{CX}" cy="{CY}" r="11" fill="#065f46"/>'
        + (f'<circle cx="{CX}" cy="{CY}" r="16" fill="none" stroke="{FLAG}" stroke-width="2.5"/>' * bool(centre_flags))
        + f'<text x="{CX}" y="{CY + 30}" text-anchor="middle" font-size="12" font-weight="600" fill="{TEXT}"{HALO}>'
        f"{escape(_short(flows.centre.full_name, 24))}</text>"
        + (
            f'<text x="{CX}" y="{CY + 44}" text-anchor="middle" font-size="10" font-weight="600" fill="{FLAG}"{HALO}>'
            f"⚠ {escape(_short(', '.join(centre_flags), 34))}</text>"
            if centre_flags
            else ""
        )
    )
    markers = "".join(
        f'<marker id="{name}" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="9" markerHeight="9" '
        f'markerUnits="userSpaceOnUse" orient="auto-start-reverse">'
        f'<path d="M 0 0 L 10 5 L 0 10 z" fill="{colour}"/></marker>'
        for name, colour in (("vk-arrow-out", OUT_COLOUR), ("vk-arrow-in", IN_COLOUR))
    )
    title = f"Money flows around {escape(flows.centre.full_name)}, one and two hops out"
    return (
        f'<svg class="vk-flows" viewBox="0 0 {WIDTH} {HEIGHT}" width="100%" role="group" '
        f'aria-labelledby="vk-flows-title" xmlns="http://www.w3.org/2000/svg">'
        f'<title id="vk-flows-title">{title}</title><defs>{markers}</defs>'
        f"{''.join(parts)}{''.join(nodes)}{centre}</svg>"
    )
