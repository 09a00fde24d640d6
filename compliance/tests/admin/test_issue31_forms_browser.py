"""Issue 31, what the forms and cards asked of a user, walked in a real browser as the role concerned:

- an officer gives a PEP's country from the one list of countries (it was free text: "SZ" and "Eswatini" both went
  in, and screening compared them as two countries);
- the MLRO's dashboard card gives the threshold reports' deadline in days, not a setting's name
  ("(CTR_FILING_DAYS)");
- an administrator's revocation of a service key asks first (it acted in one click, and a revoked key stops the
  platform's calls at once).
"""

import pytest
from django.urls import reverse

from backoffice.choices import StaffRole
from backoffice.models import ServiceKey
from backoffice.services.service_keys import service_key_create
from backoffice.tests.browser import signed_in_page
from backoffice.tests.factories import StaffFactory
from compliance.peps.models import PEP

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_officer_picks_a_peps_country_from_the_one_list(browser, live_server):
    page = signed_in_page(browser, live_server, StaffFactory(role=StaffRole.COMPLIANCE_OFFICER))
    page.goto(live_server.url + reverse("admin:compliance_pep_add"))
    country = page.locator("[name=country]")
    assert country.evaluate("e => e.tagName") == "SELECT"  # nothing to type a country's code or name into
    page.fill("[name=name]", "Zodwa Nxumalo")
    page.select_option("[name=category]", label="Government Official")
    page.fill("[name=position]", "Minister")
    page.select_option("[name=country]", label="Eswatini (SZ)")
    page.locator("[name=_save]").click()
    page.wait_for_load_state()
    assert PEP.objects.get(name="Zodwa Nxumalo").country == "SZ"


def test_the_mlros_threshold_card_gives_the_deadline_in_days(browser, live_server, settings):
    settings.CTR_FILING_DAYS = 14
    page = signed_in_page(browser, live_server, StaffFactory(role=StaffRole.MLRO))
    page.goto(live_server.url + reverse("admin:index"))
    words = page.inner_text("body")
    assert "14 days after the day of the cash" in words and "CTR_FILING_DAYS" not in words


def test_revoking_a_service_key_asks_first(browser, live_server):
    admin = StaffFactory(role=StaffRole.ADMIN)
    made = service_key_create(name="card-terminals", scopes=["transactions.screen"], actor=admin).service_key
    page = signed_in_page(browser, live_server, admin)
    page.goto(live_server.url + reverse("admin:backoffice_servicekey_changelist"))
    page.locator("#result_list tbody tr").first.locator("input.action-select").check()
    page.select_option("select[name=action]", "revoke_keys")
    page.click(".actions button, button[name=index]")
    page.wait_for_load_state()
    assert "card-terminals" in page.inner_text("main") and "Revoke 1 service key?" in page.title()
    assert ServiceKey.objects.get(pk=made.pk).revoked_at is None  # asked, not yet done
    page.get_by_test_id("confirm-revoke").click()
    page.wait_for_load_state()
    assert "1 key(s) revoked" in page.inner_text("body")
    assert ServiceKey.objects.get(pk=made.pk).revoked_at is not None
