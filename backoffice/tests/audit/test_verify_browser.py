"""The audit log page in chromium as an MLRO: sequence and hash in the list, "Verify the chain now" answers in
words, and a broken chain turns the dashboard's card red."""

import pytest

from backoffice.choices import StaffRole
from backoffice.models import AuditLog
from backoffice.tests.audit.helpers import write_entries
from backoffice.tests.browser import sign_in
from backoffice.tests.factories import StaffFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_mlro_verifies_the_chain_from_the_audit_page(page, live_server, tmp_path):
    mlro = StaffFactory(role=StaffRole.MLRO)
    write_entries(4, actor=mlro)
    sign_in(page, live_server, mlro.email)
    page.goto(live_server.url + "/admin/backoffice/auditlog/")
    assert page.get_by_text(AuditLog.objects.get(sequence=4).hash[:12]).count() == 1
    page.get_by_role("link", name="Verify the chain now").click()
    page.wait_for_selector("text=The audit chain is intact")
    page.screenshot(path=str(tmp_path / "audit-intact.png"), full_page=True)

    page.wait_for_load_state("networkidle")  # no request of the page still reading while this thread writes
    AuditLog.objects.filter(sequence=3).update(actor_email="someone@example.com")
    page.get_by_role("link", name="Verify the chain now").click()
    page.wait_for_selector("text=The audit chain is broken at entry 3")
    page.goto(live_server.url + "/admin/")
    page.wait_for_selector("text=Audit chain BROKEN")
