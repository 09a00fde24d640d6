"""An officer imports a PEP list with a preview and reviews matches, in a real browser (chromium)."""

from pathlib import Path

import pytest

from backoffice.choices import StaffRole
from backoffice.models import AuditLog
from backoffice.tests.browser import page, sign_in  # noqa: F401  (fixture)
from backoffice.tests.factories import PASSWORD, StaffFactory
from compliance.aml.models.alerts import Alert
from compliance.peps.models.pep import PEP, PEPMatch
from compliance.peps.tests.helpers import add_pep, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
FILES = Path(__file__).parents[1] / "imports" / "files"


@pytest.fixture
def officer(media):
    return StaffFactory(email="nomsa@example.com", role=StaffRole.COMPLIANCE_OFFICER, first_name="Nomsa")


def test_import_shows_a_preview_with_the_refused_lines_before_writing(page, live_server, officer, tmp_path):  # noqa: F811
    make_user("Good Person", "Okafor")
    sign_in(page, live_server, officer.email, PASSWORD)
    page.click("text=PEP list")
    page.click("text=Import a file")
    page.wait_for_url("**/admin/compliance/pep/import/")
    page.set_input_files("input[name=file]", str(FILES / "peps_bad.csv"))
    page.click("#import-form button[type=submit]")
    page.wait_for_selector("[data-testid=preview-counts]")
    assert page.inner_text("[data-count=create]") == "1"
    assert page.inner_text("[data-count=error]") == "6"
    errors = page.inner_text("[data-testid=preview-errors]")
    assert "Name is required" in errors and "Same name as line 2" in errors and "isActive" in errors
    rows = page.inner_text("[data-testid=preview-rows]")
    assert "Good Person Okafor" in rows and "create" in rows
    page.screenshot(path=str(tmp_path / "import-preview.png"), full_page=True)
    assert not PEP.objects.exists()  # the preview wrote nothing

    token = page.input_value("#confirm-form input[name=token]")
    page.click("#confirm-form button[type=submit]")
    page.wait_for_url("**/admin/compliance/pep/")
    assert "1 created" in page.inner_text("body") and "1 users matched" in page.inner_text("body")
    assert list(PEP.objects.values_list("name", flat=True)) == ["Good Person Okafor"]
    assert Alert.objects.filter(alert_type="PEP_MATCH").count() == 1
    # the stored upload is gone: the same preview cannot be imported twice
    page.goto(f"{live_server.url}/admin/compliance/pep/import/")
    page.evaluate(
        """token => { const form = document.getElementById('import-form');
        const input = document.createElement('input'); input.type = 'hidden'; input.name = 'token';
        input.value = token; form.appendChild(input); form.submit(); }""",
        token,
    )
    page.wait_for_load_state()
    assert "already imported" in page.inner_text("body")
    assert PEP.objects.count() == 1


def test_an_officer_dismisses_and_confirms_matches_with_a_note(page, live_server, officer, tmp_path):  # noqa: F811
    teacher = make_user("Mandla", "Zwane")
    secretary = make_user("Sibusiso", "Mkhonta")
    add_pep("Brigadier Mandla Zwane", category="Military Officer")
    add_pep("Sibusiso Mkhonta", category="Government Official")
    sign_in(page, live_server, officer.email, PASSWORD)
    assert "PEP matches to review" in page.inner_text("body")

    page.click("text=PEP matches")
    page.wait_for_url("**/admin/compliance/pepmatch/")
    page.click("#result_list >> text=Mandla Zwane")
    assert "mandla" in page.inner_text("[data-testid=explanation]")
    page.click("text=Dismiss: not this PEP")
    page.click("#review-form button[type=submit]")  # no note: the browser refuses to send the form
    assert page.locator("textarea[name=note]:invalid").count() == 1
    assert PEPMatch.objects.get(user=teacher).status == "POTENTIAL"
    page.fill("textarea[name=note]", "A teacher in Manzini, not the brigadier")
    page.click("#review-form button[type=submit]")
    page.wait_for_selector("text=Match dismissed.")
    page.screenshot(path=str(tmp_path / "dismissed.png"), full_page=True)
    match = PEPMatch.objects.get(user=teacher)
    assert match.status == "DISMISSED" and match.reviewed_by == officer
    assert match.review_note == "A teacher in Manzini, not the brigadier"
    teacher.refresh_from_db()
    assert teacher.is_potential_pep is False and teacher.current_risk_score == 10  # identity not verified yet
    assert AuditLog.objects.filter(action="pep_match.review", actor=officer, object_id=str(match.pk)).exists()

    page.click("text=PEP matches")
    page.click("#result_list >> text=Sibusiso Mkhonta")
    page.click("text=Confirm: the user is this PEP")
    page.click("#review-form button[type=submit]")  # a confirmation needs its note too
    assert page.locator("textarea[name=note]:invalid").count() == 1
    page.fill("textarea[name=note]", "Same ID number as the gazette")
    page.click("#review-form button[type=submit]")
    page.wait_for_selector("text=Match confirmed.")
    assert PEPMatch.objects.get(user=secretary).status == "CONFIRMED"
    assert "CONFIRMED" in page.inner_text("body")
    # the alerts follow the review: a confirmed PEP is a true positive, a dismissed one a false positive (a
    # confirmation closed its alert as "false positive", distorting every false-positive rate)
    confirmed = Alert.objects.get(user=secretary, alert_type="PEP_MATCH")
    assert confirmed.status == "CLOSED_TRUE_POSITIVE"
    assert Alert.objects.get(user=teacher, alert_type="PEP_MATCH").status == "CLOSED_FALSE_POSITIVE"
    page.goto(f"{live_server.url}/admin/compliance/alert/{confirmed.pk}/change/")
    assert "Closed: confirmed (true positive)" in page.inner_text("body")


def test_support_staff_do_not_see_the_pep_pages(page, live_server):  # noqa: F811
    StaffFactory(email="sipho@example.com", role=StaffRole.SUPPORT)
    sign_in(page, live_server, "sipho@example.com", PASSWORD)
    assert "PEP" not in page.inner_text("nav, aside") if page.locator("aside").count() else True
    assert "PEP" not in page.inner_text("body")
    page.goto(f"{live_server.url}/admin/compliance/pep/screen/")
    assert page.locator("text=Screen a name against the PEP list").count() == 0
