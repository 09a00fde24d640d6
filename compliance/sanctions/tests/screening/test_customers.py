"""Customers screened at registration, on a change of name and after an import's delta; one alert per pair."""

import pytest

from compliance.aml.choices import AlertType
from compliance.aml.models.alerts import Alert
from compliance.sanctions.models import SanctionsMatch
from compliance.sanctions.services.screening import on_entries_changed, screen_user
from compliance.sanctions.tests.screening.helpers import change_entry, make_entry
from kyc.tests.factories import PlatformUserFactory

pytestmark = pytest.mark.django_db


def test_a_customer_named_as_an_entry_opens_one_potential_match_and_one_critical_alert():
    entry = make_entry("Ahmad Khalil Haddad", dates_of_birth=["1970"])
    user = PlatformUserFactory(first_name="Ahmad", last_name="Haddad")
    counts = screen_user(user_id=user.pk)
    assert counts.matches_created == 1
    match = SanctionsMatch.objects.get()
    assert (match.party, match.user_id, match.entry_id, match.status) == ("USER", user.pk, entry.pk, "POTENTIAL")
    assert match.explanation and 0.8 <= match.score <= 1
    alert = Alert.objects.get()
    assert alert.alert_type == AlertType.SANCTIONS_MATCH and alert.severity == "CRITICAL" and alert.user_id == user.pk
    assert screen_user(user_id=user.pk).matches_created == 0
    assert Alert.objects.count() == 1 and SanctionsMatch.objects.count() == 1


def test_a_local_name_is_not_flagged():
    make_entry("Ahmad Khalil Haddad")
    user = PlatformUserFactory(first_name="Sibusiso", last_name="Nkambule")
    assert screen_user(user_id=user.pk).matches_created == 0
    assert not SanctionsMatch.objects.exists()


def test_registration_and_a_change_of_name_screen_after_the_commit(django_capture_on_commit_callbacks):
    make_entry("Viktor Petrov Bout")
    with django_capture_on_commit_callbacks(execute=True):
        user = PlatformUserFactory(first_name="Sipho", last_name="Dube")
        from kyc import hooks

        hooks.user_registered(user=user)
    assert not SanctionsMatch.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        user.first_name, user.last_name = "Viktor", "Bout"
        user.save()
        hooks.user_name_changed(user=user, previous_first_name="Sipho", previous_last_name="Dube")
    assert SanctionsMatch.objects.get().user_id == user.pk


def test_an_import_delta_screens_only_added_or_changed_entries_and_removal_closes():
    user = PlatformUserFactory(first_name="Omar", last_name="Farouk")
    other = make_entry("Omar Farouk Nasser")
    # an entry already screened (unchanged) is not screened again: the delta names only the new one
    fresh = make_entry("Jean Claude Mbeki")
    PlatformUserFactory(first_name="Jean Claude", last_name="Mbeki")
    answer = on_entries_changed(added_ids=[fresh.pk], changed_ids=[], removed_ids=[])
    assert answer["matchesCreated"] == 1 and answer["usersScanned"] == 2
    assert not SanctionsMatch.objects.filter(user=user).exists()
    answer = on_entries_changed(added_ids=[], changed_ids=[other.pk], removed_ids=[])
    assert answer["matchesCreated"] == 1
    match = SanctionsMatch.objects.get(user=user)
    other.removed_at = other.updated_at
    other.save()
    answer = on_entries_changed(added_ids=[], changed_ids=[], removed_ids=[other.pk])
    assert answer["matchesClosed"] == 1
    match.refresh_from_db()
    assert match.status == "CLOSED"
    assert Alert.objects.get(pk=match.alert_id).status == "CLOSED_FALSE_POSITIVE"


def test_a_dismissed_pair_stays_dismissed_until_its_entry_changes_then_reopens_with_one_alert(officer):
    from compliance.sanctions.services.review import sanctions_match_review

    entry = make_entry("Ahmad Khalil Haddad")
    user = PlatformUserFactory(first_name="Ahmad", last_name="Haddad")
    screen_user(user_id=user.pk)
    match = SanctionsMatch.objects.get()
    sanctions_match_review(match=match, actor=officer, status="DISMISSED", note="Different person: born 1995")
    on_entries_changed(added_ids=[entry.pk], changed_ids=[], removed_ids=[])
    match.refresh_from_db()
    assert match.status == "DISMISSED" and Alert.objects.count() == 1
    change_entry(entry, dates_of_birth=["1971"])
    answer = on_entries_changed(added_ids=[], changed_ids=[entry.pk], removed_ids=[])
    assert answer["matchesReopened"] == 1
    answer = on_entries_changed(added_ids=[], changed_ids=[entry.pk], removed_ids=[])
    assert answer["matchesReopened"] == 0
    match.refresh_from_db()
    assert match.status == "POTENTIAL" and Alert.objects.count() == 2
