"""Support and finance read no AML reasoning anywhere (tipping-off; backoffice.visibility).

On the demo data, with a held payment rejected with a note and a SAR on file, each of them walks every admin
page they can reach (from the dashboard, following every link, and the page of every user and of every payment
that is not plainly allowed) and every API answer their role opens (every GET route they hold the capability
of, for every user, vendor and credit request). Each page and answer is searched for a rule id, an officer's
note, a SAR word and a watch-list match's reasoning; the test fails naming each page and what it found.
"""

import html
import re
from collections import Counter, deque

import pytest
from django.test import Client
from django.urls import get_resolver, reverse

from backoffice.auth import tokens
from backoffice.choices import StaffRole
from backoffice.roles import has_capability
from backoffice.tests.auth.helpers import walk_routes
from backoffice.tests.factories import StaffFactory
from compliance.sars.models.sar import SAR
from compliance.tests.visibility.helpers import forbidden_patterns, leaks
from kyc.choices import Decision, TransactionStatus
from kyc.models import CreditRequest, PlatformUser, Transaction
from kyc.services.ledger import held_transaction_reject
from vendors.models import Vendor

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

NOTE = "Structured deposits from three agents, rejecting and escalating to the MLRO"
HREF = re.compile(r"""href=["'](/admin/[^"'#]*)["']""")
# leaving the site or signing out ends the walk; the rest is GET and changes nothing
SKIP = re.compile(r"/admin/(logout|password_change|jsi18n)|/actions?/|/delete/")
ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d+")
PER_SHAPE = 4
MAX_PAGES = 800


def _text(body: bytes) -> str:
    return html.unescape(body.decode("utf-8", "replace"))


def _shape(url: str) -> str:
    return ID.sub("*", url.split("?")[0])


def walk_admin(client: Client, seeds: list[str]) -> tuple[dict[str, list[str]], int]:
    """Every admin page reachable from ``seeds`` by links, each searched: ({page: leaks}, pages read)."""
    patterns = forbidden_patterns()
    queue = deque(seeds)
    seen = set(seeds)
    shapes: Counter = Counter()
    found: dict[str, list[str]] = {}
    read = 0
    while queue and read < MAX_PAGES:
        url = queue.popleft()
        response = client.get(url)
        if response.status_code >= 500:
            found[url] = [f"answered {response.status_code}"]
            continue
        if response.status_code != 200 or not response.get("Content-Type", "").startswith("text/html"):
            continue
        read += 1
        text = _text(response.content)
        if problems := leaks(text, patterns):
            found[url] = problems
        for link in HREF.findall(text):
            link = html.unescape(link)
            if link in seen or SKIP.search(link):
                continue
            seen.add(link)
            shapes[_shape(link)] += 1
            if shapes[_shape(link)] <= PER_SHAPE:
                queue.append(link)
    return found, read


def _api_routes(role: str) -> list[tuple[str, str]]:
    """(route, capability) of every GET under /api/v1 the role's capabilities open."""
    routes = []
    for route, callback in walk_routes(get_resolver().url_patterns):
        cls = getattr(callback, "cls", None)
        table = getattr(cls, "capabilities", None)
        if not route.startswith("api/v1/") or not table or "format" in route:
            continue
        actions = getattr(callback, "actions", None) or ({"get": "get"} if hasattr(cls, "get") else {})
        if "get" not in actions:
            continue
        capability = next((table[k] for k in (actions["get"], "get", "*") if k in table), None)
        if capability and has_capability(role, capability):
            routes.append((route, capability))
    return routes


PK = re.compile(r"\(\?P<pk>[^)]*\)")


def _api_paths(role: str) -> list[str]:
    """Every GET the role may call, each route's ``pk`` filled with every user, vendor or credit request."""
    ids = {
        "admin/users/credit-requests": [str(pk) for pk in CreditRequest.objects.values_list("pk", flat=True)],
        "admin/users": [str(pk) for pk in PlatformUser.objects.values_list("pk", flat=True)],
        "admin/vendors": [str(pk) for pk in Vendor.objects.values_list("pk", flat=True)],
    }
    paths = []
    for route, _ in _api_routes(role):
        path = "/" + route.replace("^", "").replace("$", "").replace("/?", "")
        if not PK.search(path):
            paths.append(path)
            continue
        prefix = next((p for p in ids if f"/{p}/" in path), None)
        assert prefix is not None, f"no ids to walk {route}: add its model to the walk"
        paths.extend(PK.sub(pk, path) for pk in ids[prefix])
    return paths


def _lists(role: str) -> list[str]:
    """The user lists filtered and ordered by risk, and searched by each SAR subject's name."""
    base = "/api/v1/admin/users"
    paths = [f"{base}?riskRating={r}&limit=100" for r in ("LOW", "MEDIUM", "HIGH")]
    paths.append(f"{base}?sortBy=currentRiskScore&sortOrder=desc&limit=100")
    for last_name in SAR.objects.values_list("entity_user__last_name", flat=True).distinct():
        paths.append(f"{base}/search?q={last_name}")
    return paths


@pytest.fixture
def demo(demo_data, settings):
    settings.RATE_LIMIT_STANDARD = "100000/m"
    held = Transaction.objects.filter(status=TransactionStatus.HELD).order_by("created_at").first()
    assert held is not None and SAR.objects.exists(), "the demo holds a payment and files SARs"
    held_transaction_reject(transaction_id=held.pk, actor=StaffFactory(role=StaffRole.MLRO), note=NOTE)
    return held


def _admin_seeds() -> list[str]:
    """The dashboard, and the pages most likely to carry reasoning: every user who is a SAR's subject or has
    a decided, held or blocked payment, and each such payment."""
    unusual = Transaction.objects.exclude(decision__in=["", Decision.ALLOW])
    users = set(SAR.objects.values_list("entity_user_id", flat=True)) | set(unusual.values_list("user_id", flat=True))
    return [
        reverse("admin:index"),
        reverse("admin:kyc_platformuser_changelist"),
        reverse("admin:kyc_transaction_changelist"),
        *(reverse("admin:kyc_platformuser_change", args=[pk]) for pk in users),
        *(reverse("admin:kyc_transaction_change", args=[pk]) for pk in unusual.values_list("pk", flat=True)),
    ]


def test_no_page_or_answer_support_or_finance_reach_carries_aml_reasoning(demo):
    # both roles on one seeding of the demo (a seed costs more than a walk); each role's findings are named
    found = {}
    for role in (StaffRole.SUPPORT, StaffRole.FINANCE):
        found.update({f"{role}: {page}": problems for page, problems in _walk_as(role, demo).items()})
    assert not found, "AML reasoning read by:\n" + "\n".join(
        f"  {page}: {', '.join(problems)}" for page, problems in sorted(found.items())
    )


def _walk_as(role: str, demo) -> dict[str, list[str]]:
    """Every page and answer ``role`` reaches, with the AML reasoning each carries (none expected)."""
    staff = StaffFactory(role=role)
    client = Client()
    client.force_login(staff)
    found, read = walk_admin(client, _admin_seeds())
    # the walk reached the pages that matter: the rejected payment (its status shown) and the users
    rejected = reverse("admin:kyc_transaction_change", args=[demo.pk])
    page = _text(client.get(rejected).content)
    assert "Rejected" in page, f"{role} sees that the payment was rejected"
    assert read >= 20, (role, read)

    api = Client(HTTP_AUTHORIZATION=f"Bearer {tokens.issue_pair(kind=tokens.STAFF, principal_id=staff.pk).access}")
    patterns = forbidden_patterns()
    answers = 0
    for path in _api_paths(role) + _lists(role):
        response = api.get(path)
        if response.status_code >= 500:
            found[f"API {path}"] = [f"answered {response.status_code}"]
            continue
        assert response.status_code in (200, 400, 404), (role, path, response.status_code, response.content[:300])
        answers += 1
        if problems := leaks(_text(response.content), patterns):
            found[f"API {path}"] = problems
    assert answers >= 10, (role, answers)
    return found
