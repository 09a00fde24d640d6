"""The whole review loop in a real browser: draft, edit, review, return, re-review, approve with the confirmation.

Three people, as the four-eyes rule wants them: a compliance officer writes the report, a second one reviews
it (and first sends it back), an MLRO approves it. ``SAR_SCREENSHOTS=dir`` keeps a picture of each page.
"""

import datetime as dt
import os
from pathlib import Path

import pytest
from django.urls import reverse

from backoffice.tests.browser import signed_in_page
from compliance.aml.choices import AlertStatus
from compliance.sars.choices import SARStatus
from compliance.sars.models.sar import SAR
from kyc.tests.factories import TransactionFactory

pytestmark = pytest.mark.browser
SHOTS = os.environ.get("SAR_SCREENSHOTS")


def shot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def status_on(page) -> str:
    return page.locator("[data-testid=sar-status]").get_attribute("data-status")


@pytest.mark.django_db(transaction=True)
def test_draft_edit_review_return_rereview_approve(browser, live_server, crew, subject, subject_alert, settings):
    settings.GOAML_SCHEMA_PATH = Path(__file__).parents[1] / "goaml" / "goaml_5_0_2_subset.xsd"
    tx = TransactionFactory(user=subject, reference="TX-BROWSER-1")
    base = live_server.url

    # the filer starts a report from the list, finds the subject, writes it from the template
    filer = signed_in_page(browser, live_server, crew["filer"])
    filer.goto(base + reverse("admin:compliance_sar_changelist"))
    filer.goto(base + reverse("admin:compliance_sar_add"))
    filer.fill("input[name=q]", "Thabo Maseko")
    filer.click("[data-testid=subject-search]")
    filer.click("[data-testid=choose-subject]")
    filer.select_option("select[name=suspicious_activity_type]", "structuring")
    filer.fill("input[name=date_of_suspicious_activity]", (dt.date.today() - dt.timedelta(days=1)).isoformat())
    filer.fill("input[name=amount_involved]", "4900.00")
    filer.click("[data-testid=insert-template]")
    narrative = filer.locator("textarea[name=activity_description]")
    assert narrative.input_value().startswith("WHO: [")
    assert "prompt(s) still to answer" in filer.locator("#prompt-count").inner_text()
    narrative.fill("WHO: Thabo Maseko.\n\nWHAT: one deposit of SZL 4,900 just under the threshold.")
    filer.check(f"input[name=related_transactions][value='{tx.pk}']")
    filer.check(f"input[name=related_alerts][value='{subject_alert.pk}']")
    shot(filer, "1-officer-new-sar")
    filer.click("[data-testid=save-draft]")
    filer.wait_for_selector("[data-testid=sar-status]")
    assert status_on(filer) == "DRAFT"
    assert "Waiting for the draft to be completed" in filer.locator("[data-testid=sar-next-step]").inner_text()
    sar = SAR.objects.get()
    subject_alert.refresh_from_db()
    assert subject_alert.status == AlertStatus.ESCALATED

    # ... edits it (a second narrative version), and hands it in
    filer.click("[data-testid=edit-draft]")
    filer.locator("textarea[name=activity_description]").fill("WHO: Thabo Maseko.\n\nWHAT: one deposit of SZL 4,900.")
    filer.click("[data-testid=save-draft]")
    filer.wait_for_selector("[data-testid=narrative-versions]")
    assert "Version 2" in filer.locator("[data-testid=narrative-versions]").inner_text()
    filer.click("#sar-workflow button[data-move=PENDING_REVIEW]")
    filer.wait_for_selector("[data-testid=sar-no-moves]")
    assert status_on(filer) == "PENDING_REVIEW"
    assert filer.locator("[data-testid=sar-return]").count() == 0  # never the filer

    # the reviewer sends it back with a reason
    reviewer = signed_in_page(browser, live_server, crew["reviewer"])
    url = base + reverse("admin:compliance_sar_change", args=[sar.pk])
    reviewer.goto(url)
    next_step = reviewer.locator("[data-testid=sar-next-step]").inner_text()
    assert "Waiting for review by a compliance officer other than the filer" in next_step
    assert "You can take this step" in next_step
    reviewer.click("[data-testid=sar-return] summary")
    reviewer.fill("#sar-return-reason", "Say when the deposit was made and through which agent.")
    shot(reviewer, "2-officer-reviewer-returns")
    reviewer.click("[data-testid=sar-return-submit]")
    reviewer.wait_for_selector("[data-testid=sar-returned]")
    assert status_on(reviewer) == "DRAFT"

    # the filer reads the reason, completes the draft and hands it in again
    filer.goto(url)
    assert "Say when the deposit was made" in filer.locator("[data-testid=sar-returned]").inner_text()
    filer.click("[data-testid=edit-draft]")
    filer.locator("textarea[name=activity_description]").fill(
        "WHO: Thabo Maseko.\n\nWHAT: one deposit of SZL 4,900.\n\nWHEN: yesterday, 09:10, at the Manzini agent."
    )
    filer.click("[data-testid=save-draft]")
    filer.wait_for_selector("#sar-workflow button[data-move=PENDING_REVIEW]")
    filer.click("#sar-workflow button[data-move=PENDING_REVIEW]")
    filer.wait_for_selector("[data-testid=sar-no-moves]")

    # the reviewer reviews it this time
    reviewer.goto(url)
    reviewer.click("#sar-workflow button[data-move=PENDING_APPROVAL]")
    reviewer.wait_for_selector("[data-testid=sar-no-moves]")
    assert status_on(reviewer) == "PENDING_APPROVAL"

    # the MLRO approves, through the confirmation
    mlro = signed_in_page(browser, live_server, crew["approver"])
    mlro.goto(url)
    assert "Waiting for approval by an MLRO" in mlro.locator("[data-testid=sar-next-step]").inner_text()
    assert "validates against goaml_5_0_2_subset.xsd" in mlro.locator("[data-testid=goaml-check]").inner_text()
    shot(mlro, "3-mlro-sar-page")
    mlro.click("#sar-workflow [data-move=SUBMITTED]")
    mlro.wait_for_selector("[data-testid=confirm-submit]")
    shot(mlro, "4-mlro-confirmation")
    mlro.click("[data-testid=confirm-submit]")  # the box is not ticked: the browser holds the form back
    assert SAR.objects.get(pk=sar.pk).status == SARStatus.PENDING_APPROVAL
    mlro.check("[data-testid=confirm-checkbox]")
    mlro.click("[data-testid=confirm-submit]")
    mlro.wait_for_selector("#sar-workflow button[data-move=ACKNOWLEDGED]")
    assert status_on(mlro) == "SUBMITTED"
    shot(mlro, "5-mlro-submitted")

    sar = SAR.objects.get(pk=sar.pk)
    assert (sar.filed_by, sar.reviewed_by, sar.approved_by) == (crew["filer"], crew["reviewer"], crew["approver"])
    assert [t.to_status for t in sar.transitions.order_by("created_at", "id")] == [
        "PENDING_REVIEW",
        "DRAFT",
        "PENDING_REVIEW",
        "PENDING_APPROVAL",
        "SUBMITTED",
    ]
    assert sar.narrative_versions.count() == 3  # filed, edited, rewritten after the return

    # what went to the FIU holds the report, never the unit's own workflow: no return reason (issue 31)
    goaml = mlro.request.get(live_server.url + reverse("admin:compliance_sar_export", args=[sar.pk, "goaml"]))
    assert goaml.ok and "Thabo Maseko" in goaml.text()
    assert "Say when the deposit was made" not in goaml.text() and "PENDING_REVIEW" not in goaml.text()
    # once filed, the thread offers no "for the report" note (it would never reach the FIU) and says why
    assert mlro.locator("input[name=for_report]").count() == 0
    assert "filed" in mlro.get_by_test_id("report-notes-closed").inner_text()
    subject_alert.refresh_from_db()
    assert subject_alert.status == AlertStatus.CLOSED_SAR_FILED
