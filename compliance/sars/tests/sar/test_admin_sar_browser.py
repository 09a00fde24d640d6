"""The SAR workflow buttons in a real browser: each person sees only their move, and pressing it moves the SAR."""

import pytest
from django.urls import reverse

from backoffice.tests.browser import signed_in_page
from compliance.sars.choices import SARStatus
from compliance.sars.models.sar import SAR

pytestmark = pytest.mark.browser


def move_buttons(page):
    """The moves on offer: buttons, and the link to the confirmation page that approval goes through."""
    return sorted(b.get_attribute("data-move") for b in page.locator("#sar-workflow [data-move]").all())


@pytest.mark.django_db(transaction=True)
def test_filer_then_reviewer_then_mlro_move_a_sar_with_the_buttons(browser, live_server, crew, make_sar):
    sar = make_sar()
    url = live_server.url + reverse("admin:compliance_sar_change", args=[sar.pk])

    filer = signed_in_page(browser, live_server, crew["filer"])
    filer.goto(url)
    assert move_buttons(filer) == ["PENDING_REVIEW"]
    filer.fill("#sar-workflow input[name=note]", "Ready for a second pair of eyes")
    filer.click("#sar-workflow button[data-move=PENDING_REVIEW]")
    filer.wait_for_selector("[data-testid=sar-no-moves]")
    assert filer.locator("[data-testid=sar-status]").get_attribute("data-status") == "PENDING_REVIEW"
    assert "Ready for a second pair of eyes" in filer.content()
    assert move_buttons(filer) == []  # four eyes: the filer cannot review their own report

    reviewer = signed_in_page(browser, live_server, crew["reviewer"])
    reviewer.goto(url)
    assert move_buttons(reviewer) == ["PENDING_APPROVAL"]
    reviewer.click("#sar-workflow button[data-move=PENDING_APPROVAL]")
    reviewer.wait_for_selector("[data-testid=sar-no-moves]")  # only the MLRO approves
    assert reviewer.locator("[data-testid=sar-status]").get_attribute("data-status") == "PENDING_APPROVAL"

    mlro = signed_in_page(browser, live_server, crew["approver"])
    mlro.goto(url)
    assert move_buttons(mlro) == ["SUBMITTED"]
    mlro.click("#sar-workflow [data-move=SUBMITTED]")
    mlro.check("[data-testid=confirm-checkbox]")
    mlro.click("[data-testid=confirm-submit]")
    mlro.wait_for_selector("#sar-workflow button[data-move=ACKNOWLEDGED]")

    sar = SAR.objects.get(pk=sar.pk)
    assert sar.status == SARStatus.SUBMITTED
    assert (sar.filed_by, sar.reviewed_by, sar.approved_by) == (crew["filer"], crew["reviewer"], crew["approver"])
    assert [t.actor for t in sar.transitions.all()] == [crew["filer"], crew["reviewer"], crew["approver"]]
