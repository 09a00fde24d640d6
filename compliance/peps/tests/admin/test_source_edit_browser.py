"""Issue 31: editing a PEP's Source in the admin said "changed successfully" and kept the old source. The edit is
now saved (a new version, audited), while the API still does not update a source (not an interface field)."""

import pytest

from backoffice.choices import StaffRole
from backoffice.models import AuditLog
from backoffice.tests.browser import page, shoot, sign_in  # noqa: F401  (fixture)
from backoffice.tests.factories import PASSWORD, StaffFactory
from compliance.peps.models.pep import PEP
from compliance.peps.tests.helpers import add_pep

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_officer_edits_the_source_and_it_is_kept(page, live_server):  # noqa: F811
    pep = add_pep("Mandla Shongwe", category="Government Official", source="Gazette 2019").pep
    officer = StaffFactory(email="nomsa@example.com", role=StaffRole.COMPLIANCE_OFFICER)
    sign_in(page, live_server, officer.email, PASSWORD)
    page.goto(f"{live_server.url}/admin/compliance/pep/{pep.pk}/change/")
    page.fill("input[name=source]", "Government Gazette 2024, notice 112")
    page.click("input[name=_save], button[name=_save]")
    page.wait_for_url("**/admin/compliance/pep/")
    assert "changed successfully" in page.inner_text("body")
    stored = PEP.objects.get(pk=pep.pk)
    assert stored.source == "Government Gazette 2024, notice 112" and stored.version == pep.version + 1
    assert AuditLog.objects.filter(object_id=str(pep.pk), action__contains="update").exists()
    page.goto(f"{live_server.url}/admin/compliance/pep/{pep.pk}/change/")
    assert page.input_value("input[name=source]") == "Government Gazette 2024, notice 112"
    shoot(page, "pep-source-kept")
