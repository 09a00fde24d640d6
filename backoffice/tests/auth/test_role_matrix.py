"""One role matrix for the whole API, read from what each view declares.

Every routed view under /api/v1 that names ``capabilities`` is called by every staff role, once per method it
serves: a role without the capability gets 403 FORBIDDEN before anything else is looked at (tipping-off: not
even a 404 tells support that a SAR id exists); a role with it never gets FORBIDDEN (a 400 or a 404 for the
made-up ids is fine). The table itself is ``backoffice.roles.CAPABILITIES``; a new endpoint is covered the
moment it is routed.
"""

import re
import uuid

import pytest
from django.urls import get_resolver
from rest_framework.test import APIClient

from backoffice.auth import tokens
from backoffice.choices import StaffRole
from backoffice.roles import has_capability
from backoffice.tests.auth.helpers import walk_routes
from backoffice.tests.factories import StaffFactory
from backoffice.visibility import Facet, hidden, sees

PARAM = re.compile(r"<(?:(\w+):)?\w+>|\(\?P<\w+>([^)]*)\)")


def _concrete(route: str) -> str:
    # a made-up value the route accepts: digits where it wants digits, a UUID elsewhere
    path = PARAM.sub(
        lambda m: "1" if (m[1] == "int" or "0-9" in (m[2] or "") or "\\d" in (m[2] or "")) else str(uuid.uuid4()), route
    )
    path = path.replace("^", "").replace("$", "").replace("\\", "").replace("/?", "")
    return "/" + path.lstrip("/")


def _declared():
    """(method, path, capability) for every API view that declares its capabilities."""
    seen = set()
    for route, callback in walk_routes(get_resolver().url_patterns):
        cls = getattr(callback, "cls", None)
        table = getattr(cls, "capabilities", None)
        if not route.startswith("api/v1/") or not table or "format" in route:
            continue
        actions = getattr(callback, "actions", None) or {m: m for m in ("get", "post", "put", "patch", "delete")}
        for method, action in actions.items():
            if method in ("head", "options") or (not getattr(callback, "actions", None) and not hasattr(cls, method)):
                continue
            capability = next((table[k] for k in (action, method, "*") if k in table), None)
            path = _concrete(route)
            key = (method, PARAM.sub("x", route))
            if capability and key not in seen:
                seen.add(key)
                yield pytest.param(method, path, capability, id=f"{method.upper()} {route}")


DECLARED = list(_declared())


def test_the_matrix_covers_the_api():
    # a sanity floor: if routing changed so that nothing is found, the matrix below would pass vacuously
    assert len(DECLARED) > 40


@pytest.mark.django_db
@pytest.mark.parametrize(("method", "path", "capability"), DECLARED)
def test_each_role_is_let_in_exactly_where_its_capabilities_say(settings, method, path, capability):
    settings.RATE_LIMIT_STANDARD = "10000/m"
    for role in StaffRole.values:
        staff = StaffFactory(role=role)
        client = APIClient()
        client.credentials(
            HTTP_AUTHORIZATION=f"Bearer {tokens.issue_pair(kind=tokens.STAFF, principal_id=staff.pk).access}"
        )
        response = getattr(client, method)(path, {}, format="json")
        code = (
            response.json().get("error", {}).get("code")
            if response.get("Content-Type", "").startswith("application/json")
            else None
        )
        if has_capability(role, capability):
            assert code != "FORBIDDEN", (role, response.status_code, response.content[:300])
        else:
            assert (response.status_code, code) == (403, "FORBIDDEN"), (
                role,
                response.status_code,
                response.content[:300],
            )


# The contract's "Staff roles" table, capability by capability (docs: ../shared/spec/contract.md). The test above
# proves every endpoint enforces what it declares; this one proves the declarations are the contract's.
S, C, M, F, A = "support", "compliance_officer", "mlro", "finance", "admin"
CONTRACT = {
    "users.read": {S, C, M, F, A},
    "users.update": {S, C, M, A},
    "users.archive": {C, M, A},
    "users.credit": {F, A},
    "users.purge": {A},
    "vendors.kyc.read": {S, C, M, A},
    "vendors.kyc.write": {C, M, A},
    "sars.read": {C, M, A},
    "sars.file": {C, M, A},
    "sars.review": {C, M, A},
    "sars.approve": {M, A},
    "alerts.read": {C, M, A},
    "alerts.manage": {C, M, A},
    "peps.manage": {C, M, A},
    "rules.read": {C, M, A},
    "rules.write": {M, A},
    "verification.run": {C, M, A},
    "verification.read": {C, M, A},
    "staff.manage": {A},
}


@pytest.mark.parametrize(("capability", "roles"), sorted(CONTRACT.items()))
def test_the_role_table_is_the_contracts(capability, roles):
    assert {role for role in StaffRole.values if has_capability(role, capability)} == roles


# The role matrix of fields: what each role may *see* of the AML reasoning (backoffice.visibility). Support and
# finance see that a payment is held or blocked and a risk score (without a SAR's points), never why; the
# contract: "Support and finance never see a SAR or an alert (no SAR data in any response they can read)".
# What each surface shows per role is held to this table by compliance/tests/visibility.
FIELDS = {
    Facet.STATUS: {S, C, M, F, A},
    Facet.RULE_HITS: {C, M, A},
    Facet.REVIEW: {C, M, A},
    Facet.ALERTS: {C, M, A},
    Facet.SARS: {C, M, A},
    Facet.SANCTIONS_MATCHES: {C, M, A},
    Facet.PEP_MATCHES: {C, M, A},
    Facet.RISK_REASONS: {C, M, A},
    Facet.SAR_RISK: {C, M, A},
}


@pytest.mark.parametrize(("facet", "roles"), sorted(FIELDS.items()))
def test_each_role_sees_exactly_the_facets_the_field_matrix_says(facet, roles):
    assert {role for role in StaffRole.values if sees(role, facet)} == roles


def test_the_field_matrix_names_every_facet():
    assert set(FIELDS) == set(Facet)


# A role that may act on something may see it, and one that may not read it may not see it either: the two
# tables never disagree (a facet seen without the capability to read it would be a page showing what its API
# refuses).
READ_BY = {
    Facet.RULE_HITS: "transactions.review",
    Facet.REVIEW: "transactions.review",
    Facet.ALERTS: "alerts.read",
    Facet.SARS: "sars.read",
    Facet.SANCTIONS_MATCHES: "sanctions.read",
    Facet.PEP_MATCHES: "peps.manage",
    Facet.RISK_REASONS: "users.investigate",
    Facet.SAR_RISK: "sars.read",
}


@pytest.mark.parametrize(("facet", "capability"), sorted(READ_BY.items()))
def test_a_facet_is_seen_by_exactly_the_roles_that_may_read_it(facet, capability):
    assert {r for r in StaffRole.values if sees(r, facet)} == {
        r for r in StaffRole.values if has_capability(r, capability)
    }


def test_an_inactive_or_anonymous_viewer_sees_no_facet():
    inactive = StaffFactory.build(role=A, is_active=False)
    assert not any(sees(viewer, facet) for viewer in (inactive, None, "") for facet in Facet)
    assert hidden(StaffFactory.build(role=S), {Facet.REVIEW: ("review_note",), Facet.STATUS: ("status",)}) == {
        "review_note"
    }
