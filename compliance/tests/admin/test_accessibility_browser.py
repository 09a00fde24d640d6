"""axe-core finds no serious or critical WCAG 2.1 AA violation on the pages staff live in."""

import hashlib
from decimal import Decimal

import pytest
from django.urls import reverse

from backoffice.choices import StaffRole
from backoffice.tests.axe import serious_violations
from backoffice.tests.browser import page, sign_in  # noqa: F401  (fixture)
from backoffice.tests.factories import PASSWORD, StaffFactory
from compliance.aml.models.alerts import Alert
from compliance.aml.models.rules import AMLRule
from compliance.sars.services.sar import sar_create
from kyc.tests.factories import PlatformUserFactory, TransactionFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_dashboard_alert_sar_and_user_pages_have_no_serious_violation(page, live_server):  # noqa: F811
    officer = StaffFactory(email="a11y@example.com", role=StaffRole.COMPLIANCE_OFFICER, first_name="Ayanda")
    subject = PlatformUserFactory(first_name="Thabo", last_name="Dlamini")
    peer = PlatformUserFactory(first_name="Sipho", last_name="Zwane")
    txs = [TransactionFactory(user=subject, type="TRANSFER_IN", amount=Decimal("6500"), counterparty_user=peer)]
    TransactionFactory(user=peer, type="TRANSFER_OUT", amount=Decimal("300"), counterparty_user=PlatformUserFactory())
    rule = AMLRule.objects.create(
        rule_id="AML-THR-001",
        name="Large single transaction",
        rule_type="threshold",
        conditions={"ruleType": "threshold", "thresholdAmount": 5000},
        is_active=True,
    )
    alert = Alert.objects.create(
        rule=rule,
        rule_version=1,
        user=subject,
        severity="HIGH",
        dedup_key=hashlib.sha256(b"a11y").hexdigest(),
        details={"ruleType": "threshold", "amount": 6500.0, "transactionType": "TRANSFER_IN"},
        assigned_to=StaffFactory(role=StaffRole.MLRO),
    )
    alert.related_transactions.set(txs)
    sar = sar_create(
        actor=officer,
        entity_user_id=subject.pk,
        suspicious_activity_type="structuring",
        activity_description="Transfers just below the threshold",
        date_of_suspicious_activity=txs[0].created_at.date(),
        amount_involved=Decimal("6500"),
        related_transaction_ids=[t.pk for t in txs],
    )
    sign_in(page, live_server, officer.email, PASSWORD)
    pages = {
        "dashboard": reverse("admin:index"),
        "alert queue": reverse("admin:compliance_alert_changelist"),
        "alert": reverse("admin:compliance_alert_change", args=[alert.pk]),
        "SAR list": reverse("admin:compliance_sar_changelist"),
        "SAR": reverse("admin:compliance_sar_change", args=[sar.pk]),
        "user list": reverse("admin:kyc_platformuser_changelist"),
        "user": reverse("admin:kyc_platformuser_change", args=[subject.pk]),
    }
    problems = {}
    for name, url in pages.items():
        page.goto(live_server.url + url)
        page.wait_for_load_state("networkidle")
        if found := serious_violations(page):
            problems[name] = found
    assert not problems, "\n".join(f"{name}: {line}" for name, lines in problems.items() for line in lines)

    # the skip link is the first thing the keyboard reaches, and it leads to the content
    page.goto(live_server.url + pages["alert"])
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent.trim()") == "Skip to main content"
    # icons are decoration: a link's accessible name is its words only
    name = page.get_by_role("link", name="Alerts", exact=True).first.inner_text()
    assert (
        name.strip() in ("Alerts", "notification_important\nAlerts")
        and page.locator("nav [aria-hidden=true].material-symbols-outlined").count() > 0
    )


def admin_pages() -> dict[str, str]:
    """Every changelist of the admin site, a change page per model (its first row), and the pages of our own."""
    from django.contrib import admin

    pages = {"dashboard": reverse("admin:index")}
    for model in sorted(admin.site._registry, key=lambda m: m._meta.label):
        info = (model._meta.app_label, model._meta.model_name)
        pages[f"{model._meta.label} list"] = reverse("admin:{}_{}_changelist".format(*info))
        first = model._default_manager.order_by("pk").first()
        if first is not None:
            pages[f"{model._meta.label} page"] = reverse("admin:{}_{}_change".format(*info), args=[first.pk])
    pages.update(
        {
            "screen a name": reverse("admin:compliance_pep_screen"),
            "PEP import": reverse("admin:compliance_pep_import"),
            "new SAR": reverse("admin:compliance_sar_new"),
            "password": reverse("admin:password_change"),
        }
    )
    from compliance.peps.models.pep import PEPMatch
    from compliance.sars.models.sar import SAR

    if match := PEPMatch.objects.order_by("pk").first():
        pages["PEP match review"] = reverse("admin:compliance_pepmatch_dismiss_match", args=[match.pk])
    if draft := SAR.objects.filter(status="DRAFT").order_by("pk").first():
        pages["SAR draft"] = reverse("admin:compliance_sar_edit", args=[draft.pk])
    return pages


# Collects what the browser blocks under the Content-Security-Policy; installed before any page script runs.
LISTEN_FOR_CSP = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));
"""


def test_every_admin_page_is_accessible_and_loads_under_the_policy_with_no_violation(page, live_server, media):  # noqa: F811
    """One walk of every admin page on the demo data (each page costs a load, its settling and the demo a seed):
    each answers 200 under the site's Content-Security-Policy with no violation, unfold's scripts (Alpine.js)
    still run under it, it has one <main> landmark and axe finds no serious or critical WCAG violation."""
    import io

    from django.core.management import call_command

    call_command("seed_demo", stdout=io.StringIO())
    admin_staff = StaffFactory(email="a11y-admin@example.com", role=StaffRole.ADMIN, first_name="Zanele")
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text))
    page.add_init_script(LISTEN_FOR_CSP)
    sign_in(page, live_server, admin_staff.email, PASSWORD)
    problems: dict[str, list[str]] = {}
    pages = admin_pages()
    assert len(pages) > 30  # every app's models, listed and opened
    for name, url in pages.items():
        response = page.goto(live_server.url + url)
        assert response.status == 200, (name, url, response.status)
        assert "default-src 'self'" in response.headers["content-security-policy"], name
        # a page's images and scripts settle before its violations are read; generous on a loaded machine
        page.wait_for_load_state("networkidle", timeout=60_000)
        found = [f"CSP blocked {blocked}" for blocked in page.evaluate("window.__csp")]
        # unfold's Alpine.js components ran (the policy allows what they need)
        if not page.evaluate("!!window.Alpine && !!document.querySelector('[x-data]')?._x_dataStack"):
            found.append("Alpine.js did not run")
        found += serious_violations(page)
        if page.locator("main").count() != 1:
            found.append(f"{page.locator('main').count()} <main> landmarks (one expected)")
        if found:
            problems[name] = found
    assert not problems, "\n".join(f"{name}: {line}" for name, lines in problems.items() for line in lines)
    assert not [text for text in console if "Content Security Policy" in text]

    # the customer's timeline scrolls: the keyboard reaches it
    user = reverse("admin:kyc_platformuser_change", args=[_demo_user_with_history()])
    page.goto(live_server.url + user)
    page.focus("[data-testid=timeline]")
    assert page.evaluate("document.activeElement.dataset.testid") == "timeline"


def _demo_user_with_history():
    from kyc.models import Transaction

    return Transaction.objects.order_by("pk").values_list("user_id", flat=True).first()
