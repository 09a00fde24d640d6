"""A user who registers or changes name is screened against the active PEPs, after the commit; screening
never makes a sign-up fail; and coverage says how many users are screened against the current list."""

import pytest
from django.utils import timezone

from compliance.aml.models.alerts import Alert
from compliance.peps.models.pep import PEPMatch, ScreeningRun, UserScreening
from compliance.peps.selectors.pep import screening_coverage
from compliance.peps.services import pep as services
from compliance.peps.services import screening
from compliance.peps.tests.helpers import add_pep, make_user
from kyc.models import PlatformUser, UserNameKey
from kyc.services import user_update

pytestmark = pytest.mark.django_db
STRONG = "Lindiwe-Str0ng-Pass"


@pytest.fixture
def register(api, django_capture_on_commit_callbacks):
    def post(first, last, phone="+268 7612 3456"):
        body = {"phoneNumber": phone, "password": STRONG, "firstName": first, "lastName": last}
        with django_capture_on_commit_callbacks(execute=True):
            response = api.post("/api/v1/auth/user/register", body, format="json")
        assert response.status_code == 201, response.json()
        return PlatformUser.objects.get(pk=response.json()["data"]["id"])

    return post


def test_registration_indexes_the_name_and_screens_the_user(register):
    add_pep("Mswati Lukhele Tsabedze", category="Senior Politician")
    user = register("Mswati", "Tsabedze Lukhele")
    assert UserNameKey.objects.filter(user=user).exists()
    match = PEPMatch.objects.get(user=user)
    assert match.pep_name == "Mswati Lukhele Tsabedze"
    assert Alert.objects.filter(user=user, alert_type="PEP_MATCH").count() == 1
    run = ScreeningRun.objects.filter(trigger="USER_REGISTERED").get()
    assert run.status == "COMPLETED" and run.matches == 1 and run.users_scanned == 1
    user.refresh_from_db()
    assert user.is_potential_pep is True


def test_registration_of_someone_else_with_a_common_surname_is_not_a_match(register):
    add_pep("Sipho Dlamini")
    user = register("Themba", "Dlamini")
    assert not PEPMatch.objects.filter(user=user).exists()
    assert UserScreening.objects.filter(user=user).exists()


def test_a_name_change_screens_the_user_under_the_new_name(db, django_capture_on_commit_callbacks):
    add_pep("Nokwanda Hlatshwayo-Sukati")
    user = make_user("Nokwanda", "Hlatshwayo")
    with django_capture_on_commit_callbacks(execute=True):
        user_update(user=user, actor=None, last_name="Hlatshwayo-Sukati")
    assert PEPMatch.objects.filter(user=user).count() == 1
    assert ScreeningRun.objects.filter(trigger="USER_NAME_CHANGED", status="COMPLETED").count() == 1


def test_a_failing_screening_never_fails_the_sign_up(register, monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise RuntimeError("matcher exploded")

    monkeypatch.setattr(screening, "peps_matching", broken)
    user = register("Lindiwe", "Nxumalo")
    assert PlatformUser.objects.filter(pk=user.pk).exists()
    run = ScreeningRun.objects.get(trigger="USER_REGISTERED")
    assert run.status == "FAILED" and "matcher exploded" in run.error
    assert "PEP screening of user" in caplog.text


def test_coverage_follows_registrations_list_changes_and_full_runs(register):
    add_pep("Kesuvo Lomari")
    first = register("Lindiwe", "Nxumalo", phone="+26879900001")
    coverage = screening_coverage()
    assert coverage.users == 1 and coverage.users_covered == 1 and coverage.peps_pending == 0
    make_user("Bheki", "Zwane")  # loaded without screening: not covered
    assert screening_coverage().users_covered == 1 and screening_coverage().share == 0.5
    pep = add_pep("Torulo Pabeni").pep
    assert screening_coverage().users_covered == 1  # the new PEP was screened against everyone
    PlatformUser.objects.filter(pk=first.pk).update(first_name="Lindi")  # renamed without a screening
    assert screening_coverage().users_covered == 0
    screening.screen_everything()
    coverage = screening_coverage()
    assert coverage.users_covered == 2 and coverage.share == 1.0
    # a PEP change whose screening never ran leaves everyone screened before it uncovered
    services.PEP.objects.filter(pk=pep.pk).update(content_hash="changed", updated_at=timezone.now())
    assert screening_coverage().peps_pending == 1 and screening_coverage().users_covered == 0
    screening.screen_pending()
    assert screening_coverage().peps_pending == 0
