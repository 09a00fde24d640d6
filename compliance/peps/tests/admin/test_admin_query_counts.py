"""The PEP pages cost the same number of queries however many PEPs, matches, events or runs they show."""

import itertools

import pytest
from django.urls import reverse

from backoffice.choices import StaffRole
from backoffice.tests.admin_queries import admin_browser, assert_flat
from backoffice.tests.factories import StaffFactory
from compliance.peps.models.pep import NameScreening, PEPMatch, ScreeningRun
from compliance.peps.selectors.pep_index import pep_index
from compliance.peps.services.pep_matches import pep_match_review
from compliance.peps.tests.helpers import add_pep, make_user

pytestmark = pytest.mark.django_db


SYLLABLES = ["ba", "ko", "ti", "mu", "da", "fi", "lo", "ze", "ru", "va", "ne", "si"]
_made = itertools.count()


def unique_name() -> str:
    """A two-part name no other call gives (so each grown PEP is new, and matches only its own user)."""
    n = next(_made)
    first = "".join(SYLLABLES[(n // 12**k) % 12] for k in range(3)).capitalize()
    last = "".join(SYLLABLES[(n * 7 // 12**k + k) % 12] for k in range(4)).capitalize()
    return f"{first} {last}"


def grow_matched_peps(n):
    for _ in range(n):
        name = unique_name()
        make_user(*name.split())
        add_pep(name)


def test_pep_list_add_and_import_pages():
    client = admin_browser(StaffRole.COMPLIANCE_OFFICER)
    grow_matched_peps(1)
    assert_flat(client, reverse("admin:compliance_pep_changelist"), grow_matched_peps)
    assert_flat(client, reverse("admin:compliance_pep_add"), lambda n: None, by=0)
    assert_flat(client, reverse("admin:compliance_pep_import"), lambda n: None, by=0)


def test_pep_page_with_its_matched_users():
    client = admin_browser(StaffRole.COMPLIANCE_OFFICER)
    make_user("Bakotimu", "Dafiloza")
    pep = add_pep("Bakotimu Dafiloza").pep

    def more_matches(n):
        for _ in range(n):
            make_user("Bakotimu", "Dafiloza")
        add_pep("Dafiloza Bakotimu Z")  # screening is what makes matches; rescreen the same person
        PEPMatch.objects.filter(pep__name="Dafiloza Bakotimu Z").update(pep=pep, pep_name_key=pep.name_key + "-x")

    assert_flat(client, reverse("admin:compliance_pep_change", args=[pep.pk]), more_matches, by=3)


def test_match_list_and_match_page():
    client = admin_browser(StaffRole.COMPLIANCE_OFFICER)
    make_user("Bakotimu", "Dafiloza")
    add_pep("Bakotimu Dafiloza")
    match = PEPMatch.objects.get()
    url = f"{reverse('admin:compliance_pepmatch_changelist')}?review=all"
    assert_flat(client, url, grow_matched_peps)
    officers = [StaffFactory(role=StaffRole.COMPLIANCE_OFFICER) for _ in range(4)]

    def more_history(n):
        for i, officer in enumerate(officers[:n]):
            status = "DISMISSED" if i % 2 == 0 else "CONFIRMED"
            pep_match_review(match=PEPMatch.objects.get(pk=match.pk), actor=officer, status=status, note="looked")

    assert_flat(client, reverse("admin:compliance_pepmatch_change", args=[match.pk]), more_history)
    assert_flat(client, reverse("admin:compliance_pepmatch_dismiss_match", args=[match.pk]), lambda n: None, by=0)


def test_screening_runs_and_the_screening_page():
    client = admin_browser(StaffRole.COMPLIANCE_OFFICER)
    grow_matched_peps(1)
    assert_flat(client, reverse("admin:compliance_screeningrun_changelist"), grow_matched_peps)
    run = ScreeningRun.objects.first()
    assert_flat(client, reverse("admin:compliance_screeningrun_change", args=[run.pk]), lambda n: None, by=0)

    def more_namesakes(n):
        for i in range(n):
            add_pep(f"Sibusiso {'Ma' * (i + 2)}vimbela", aliases=["Sibusiso Mavimbela"])
        pep_index()  # the process's index follows the new PEPs (one load per change, not a query per PEP)

    add_pep("Sibusiso Mavimbela")
    url = reverse("admin:compliance_pep_screen")
    assert_flat(client, url, more_namesakes, by=3, data={"name": "Sibusiso Mavimbela"})
    # every screening above is recorded: the list of names screened and one of them
    assert_flat(client, reverse("admin:compliance_namescreening_changelist"), more_namesakes_screened)
    screening = NameScreening.objects.first()
    assert_flat(client, reverse("admin:compliance_namescreening_change", args=[screening.pk]), lambda n: None, by=0)


def more_namesakes_screened(n):
    from compliance.peps.choices import ScreeningChannel
    from compliance.peps.services.name_screening import pep_name_screen

    for i in range(n):
        pep_name_screen(actor=None, channel=ScreeningChannel.API, name=f"Sibusiso {'Ma' * (i + 2)}vimbela")


def test_dashboard_cards():
    client = admin_browser(StaffRole.COMPLIANCE_OFFICER)
    assert_flat(client, reverse("admin:index"), grow_matched_peps)
