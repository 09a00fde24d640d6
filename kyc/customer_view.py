"""kyc's own sections of the customer view: verifications, top counterparties, money flows (kyc.panels).

Registered by ``KycConfig.ready()``; like every customer-view panel they are
for compliance roles only (``users.investigate``): whom a customer pays is
investigation material, not something support or finance need.
"""

from dataclasses import replace

from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from backoffice.money import money
from kyc import hooks, panels
from kyc.flows_svg import money_flow_svg, party_url
from kyc.selectors.flows import MoneyFlows, parties_of, user_counterparties, user_money_flows
from kyc.selectors.users import user_verifications

INVESTIGATE = panels.for_capability("users.investigate")
VERIFICATIONS_SHOWN = 10


def render_verifications(request, user) -> str:
    records = list(user_verifications(user=user)[:VERIFICATIONS_SHOWN])
    return render_to_string("kyc/admin/panels/verifications.html", {"records": records, "user": user})


def render_counterparties(request, user) -> str:
    parties = user_counterparties(user=user)
    rows = [(p, money(p.sent), money(p.received), party_url(p)) for p in parties]
    return render_to_string("kyc/admin/panels/counterparties.html", {"rows": rows})


def _flagged(flows: MoneyFlows) -> tuple[MoneyFlows, tuple[str, ...]]:
    """The flows with each user's flags (compliance answers kyc's ``party_flags`` hook), and the centre's."""
    user_ids = [flows.centre.pk, *{p.pk for p in parties_of(flows) if p.kind == "user"}]
    flags = hooks.party_flags.first(user_ids=user_ids) or {}

    def mark(party):
        return replace(party, flags=tuple(flags.get(party.pk, ()))) if party.kind == "user" else party

    marked = MoneyFlows(
        centre=flows.centre,
        first_hop=[mark(p) for p in flows.first_hop],
        second_hop={key: [mark(p) for p in parties] for key, parties in flows.second_hop.items()},
    )
    return marked, tuple(flags.get(flows.centre.pk, ()))


def render_money_flows(request, user) -> str:
    flows, centre_flags = _flagged(user_money_flows(user=user))
    edges = []
    for party in flows.first_hop:
        edges.append({"hop": 1, "inner": flows.centre.full_name, "party": party, "url": party_url(party)})
        for other in flows.second_hop.get(party.key, []):
            edges.append({"hop": 2, "inner": party.name, "party": other, "url": party_url(other)})
    context = {
        "flows": flows,
        "centre_flags": centre_flags,
        "svg": mark_safe(money_flow_svg(flows, centre_flags)),  # every name inside is escaped by money_flow_svg
        "edges": edges,
    }
    return render_to_string("kyc/admin/panels/money_flows.html", context)


def register_panels() -> None:
    panels.register(panels.Panel("verifications", "Identity verifications", 50, render_verifications, INVESTIGATE))
    panels.register(panels.Panel("counterparties", "Top counterparties", 60, render_counterparties, INVESTIGATE))
    panels.register(panels.Panel("money_flows", "Money flows (one and two hops)", 70, render_money_flows, INVESTIGATE))
