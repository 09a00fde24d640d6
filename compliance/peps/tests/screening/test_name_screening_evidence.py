"""Screening a name is evidence: the admin page posts it (never in the URL), and every screening, from the page or
the API, is recorded (who, what, when, the answer), listed in the admin site and audited."""

import pytest
from django.test import Client

from backoffice.choices import StaffRole
from backoffice.models import AuditLog
from backoffice.tests.factories import StaffFactory
from compliance.peps.models.pep import NameScreening
from compliance.peps.tests.helpers import BASE, add_pep

pytestmark = pytest.mark.django_db
SCREEN_PAGE = "/admin/compliance/pep/screen/"


@pytest.fixture
def staff_admin():
    staff = StaffFactory(role=StaffRole.COMPLIANCE_OFFICER)
    client = Client()
    client.force_login(staff)
    return client, staff


def test_the_screen_page_posts_the_name_and_records_the_screening(staff_admin):
    client, staff = staff_admin
    add_pep("Bakotimu Dafiloza", category="Judge")
    form = client.get(SCREEN_PAGE).content.decode()
    assert 'method="post"' in form and 'method="get"' not in form
    # a name in the URL is not screened (nor recorded)
    assert "screen-results" not in client.get(SCREEN_PAGE, {"name": "Bakotimu Dafiloza"}).content.decode()
    assert not NameScreening.objects.exists()
    answer = client.post(SCREEN_PAGE, {"name": "Bakotimu Dafiloza", "date_of_birth": "", "country": "Eswatini"})
    assert answer.status_code == 200 and "screen-results" in answer.content.decode()
    record = NameScreening.objects.get()
    assert record.actor == staff and record.name == "Bakotimu Dafiloza" and record.country == "Eswatini"
    assert record.channel == "ADMIN" and record.hit_count == 1
    assert record.hits[0]["name"] == "Bakotimu Dafiloza" and record.hits[0]["score"] >= 0.9
    entry = AuditLog.objects.get(action="pep.screen_name")
    assert entry.actor == staff and entry.object_id == str(record.pk) and entry.changes["hit_count"] == 1


def test_a_screening_with_no_answer_is_recorded_too(staff_admin):
    client, _ = staff_admin
    client.post(SCREEN_PAGE, {"name": "Nobody At All"})
    record = NameScreening.objects.get()
    assert record.hit_count == 0 and record.hits == []


def test_the_api_screening_is_recorded(officer):
    client, staff = officer
    response = client.post(f"{BASE}/screen", {"name": "Bakotimu Dafiloza", "aliases": ["B. Dafiloza"]}, format="json")
    assert response.status_code == 200
    record = NameScreening.objects.get()
    assert record.channel == "API" and record.actor == staff and record.aliases == ["B. Dafiloza"]


def test_the_screenings_are_listed_in_the_admin_site(staff_admin):
    client, _ = staff_admin
    client.post(SCREEN_PAGE, {"name": "Mandla Zwane"})
    record = NameScreening.objects.get()
    listing = client.get("/admin/compliance/namescreening/").content.decode()
    assert "Mandla Zwane" in listing
    assert client.get(f"/admin/compliance/namescreening/{record.pk}/change/").status_code == 200
    assert client.post(f"/admin/compliance/namescreening/{record.pk}/delete/").status_code == 403
