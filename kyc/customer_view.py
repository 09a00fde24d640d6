"""kyc's own sections of the customer view: verifications, top counterparties, money flows (kyc.panels).

Registered by ``KycConfig.ready()``; like every customer-view panel they are
for compliance roles only (``users.investigate``): whom a customer pays is
investigation material, not something support or finance need.
"""

from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from backoffice.money import money
from kyc import panels
from kyc.flows_svg import money_flow_svg
from kyc.selectors.flows import user_counterparties, user_money_flows
from kyc.selectors.users import user_verifications

INVESTIGATE = panels.for_capability("users.investigate")
VERIFICATIONS_SHOWN = 10


def render_verifications(request, user) -> str:
    records = list(user_verifications(user=user)[:VERIFICATIONS_SHOWN])
    return render_to_string("kyc/admin/panels/verifications.html", {"records": records, "user": user})


def render_counterparties(request, user) -> str:
    parties = user_counterparties(user=user)
    rows = [(p, money(p.sent), money(p.received)) for p in parties]
    return render_to_string("kyc/admin/panels/counterparties.html", {"rows": rows})


def render_money_flows(request, user) -> str:
    flows = user_money_flows(user=user)
    context = {
        "flows": flows,
        "svg": mark_safe(money_flow_svg(flows)),  # every name inside is escaped by money_flow_svg
        "second": [(p, flows.second_hop.get(p.key, [])) for p in flows.first_hop],
    }
    return render_to_string("kyc/admin/panels/money_flows.html", context)


def register_panels() -> None:
    panels.register(panels.Panel("verifications", "Identity verifications", 50, render_verifications, INVESTIGATE))
    panels.register(panels.Panel("counterparties", "Top counterparties", 60, render_counterparties, INVESTIGATE))
    panels.register(panels.Panel("money_flows", "Money flows (one and two hops)", 70, render_money_flows, INVESTIGATE))
