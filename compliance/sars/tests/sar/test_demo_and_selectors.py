"""The SAR demo data (every state, idempotent) and the selectors other apps rely on."""

import io

import pytest

from backoffice.errors import NotFound
from compliance import demo
from compliance.sars.choices import SARStatus
from compliance.sars.models.sar import SAR, SARTransition
from compliance.sars.selectors.sar import sar_get, user_under_sar_retention
from kyc.tests.factories import PlatformUserFactory


@pytest.mark.slow
def test_the_demo_has_sars_in_every_state_past_four_eyes_and_running_it_twice_changes_nothing(demo_data):
    assert set(SAR.objects.values_list("status", flat=True)) == set(SARStatus.values)
    counts = (SAR.objects.count(), SARTransition.objects.count())
    demo.seed(io.StringIO())
    assert (SAR.objects.count(), SARTransition.objects.count()) == counts
    closed_paths = {
        tuple(s.transitions.values_list("from_status", flat=True)) for s in SAR.objects.filter(status=SARStatus.CLOSED)
    }
    assert any("UNDER_INVESTIGATION" in p for p in closed_paths)
    assert any("UNDER_INVESTIGATION" not in p for p in closed_paths)

    reviewed = list(SAR.objects.exclude(reviewed_by=None))
    approved = [sar for sar in reviewed if sar.approved_by_id]
    # the demo has reports past review and past approval, or the four-eyes checks would check nothing
    assert reviewed and approved
    for sar in reviewed:
        assert sar.reviewed_by_id != sar.filed_by_id
    for sar in approved:
        assert sar.approved_by_id not in (sar.filed_by_id, sar.reviewed_by_id)


def test_sar_retention_covers_only_the_subject(make_sar, subject):
    bystander = PlatformUserFactory()
    make_sar()
    assert user_under_sar_retention(user=subject) is True
    assert user_under_sar_retention(user=bystander) is False


def test_sar_get_accepts_the_uuid_or_the_sar_id(make_sar):
    sar = make_sar()
    assert sar_get(ref=str(sar.pk)) == sar
    assert sar_get(ref=str(sar.pk).upper()) == sar
    assert sar_get(ref=sar.sar_id) == sar
    for ref in ("", "nope", sar.sar_id.lower(), "a" * 500):
        with pytest.raises(NotFound):
            sar_get(ref=ref)
