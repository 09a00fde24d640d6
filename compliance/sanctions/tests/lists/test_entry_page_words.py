"""A sanctions entry's page reads its lists and the publisher's details in words, not as JSON (issue 31)."""

import pytest
from django.test import Client

from backoffice.choices import StaffRole
from backoffice.tests.factories import StaffFactory
from compliance.sanctions.tests.screening.helpers import make_entry


@pytest.mark.django_db
def test_a_sanctions_entrys_page_shows_its_dates_and_details_in_words():
    entry = make_entry("Ahmad Khalil Haddad", dates_of_birth=["1970", "1971-12-04"])
    client = Client()
    client.force_login(StaffFactory(role=StaffRole.COMPLIANCE_OFFICER))
    page = client.get(f"/admin/compliance/sanctionsentry/{entry.pk}/change/").content.decode()
    assert "1970, 1971-12-04" in page and '[\n    "1970"' not in page and "&quot;1970&quot;" not in page
