"""The admin site under its Content-Security-Policy, in chromium: every page loads with no violation, and
unfold's scripts (Alpine.js) still run."""

import io

import pytest
from django.contrib import admin
from django.core.management import call_command
from django.urls import NoReverseMatch, reverse

from backoffice.choices import StaffRole
from backoffice.tests.browser import sign_in
from backoffice.tests.factories import StaffFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Collects what the browser blocks; installed before any page script runs.
LISTEN = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));
"""


def admin_pages() -> list[str]:
    """The dashboard, every registered changelist, and the change page of its first row."""
    pages = [reverse("admin:index")]
    for model in admin.site._registry:
        name = f"admin:{model._meta.app_label}_{model._meta.model_name}"
        try:
            pages.append(reverse(f"{name}_changelist"))
        except NoReverseMatch:
            continue
        first = model._default_manager.order_by().values_list("pk", flat=True).first()
        if first is not None:
            pages.append(reverse(f"{name}_change", args=[first]))
    return pages


def test_every_admin_page_loads_under_the_policy_with_no_violation(page, live_server, media):
    call_command("seed_demo", stdout=io.StringIO())
    staff = StaffFactory(role=StaffRole.ADMIN)
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text))
    page.add_init_script(LISTEN)
    sign_in(page, live_server, staff.email)
    visited = 0
    for path in admin_pages():
        response = page.goto(live_server.url + path)
        assert response.status == 200, path
        assert "default-src 'self'" in response.headers["content-security-policy"]
        # a page's images and scripts settle before its violations are read; generous on a loaded machine
        page.wait_for_load_state("networkidle", timeout=60_000)
        assert page.evaluate("window.__csp") == [], path
        # unfold's Alpine.js components ran (the policy allows what they need)
        assert page.evaluate("!!window.Alpine && !!document.querySelector('[x-data]')?._x_dataStack"), path
        visited += 1
    assert visited >= 15
    assert not [text for text in console if "Content Security Policy" in text]
