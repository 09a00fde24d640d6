"""The SAR page records the unit's rejection and files the correction that names the rejected report."""

import pytest
from django.urls import reverse

from compliance.sars.choices import SARStatus
from compliance.sars.models.sar import SAR

pytestmark = pytest.mark.django_db


def page_of(client, sar):
    return client.get(reverse("admin:compliance_sar_change", args=[sar.pk])).content.decode()


def test_the_mlro_records_the_rejection_and_an_officer_files_the_correction(client, crew, make_sar):
    sar = make_sar(SARStatus.SUBMITTED)
    client.force_login(crew["filer"])
    assert 'data-testid="sar-fiu-rejected"' not in page_of(client, sar)  # the MLRO's or admin's
    client.force_login(crew["approver"])
    assert 'data-testid="sar-fiu-rejected"' in page_of(client, sar)
    url = reverse("admin:compliance_sar_fiu_rejected", args=[sar.pk])
    client.post(url, {"reason": ""})  # refused without the unit's reason
    sar.refresh_from_db()
    assert sar.status == SARStatus.SUBMITTED
    client.post(url, {"reason": "Subject's ID number missing", "fiu_reference": "EFIU-5"})
    sar.refresh_from_db()
    assert (sar.status, sar.fiu_outcome, sar.fiu_reason, sar.fiu_reference) == (
        SARStatus.CLOSED,
        "REJECTED",
        "Subject's ID number missing",
        "EFIU-5",
    )

    client.force_login(crew["filer"])
    page = page_of(client, sar)
    assert "Subject&#x27;s ID number missing" in page and 'data-testid="sar-correct"' in page
    response = client.post(reverse("admin:compliance_sar_correction", args=[sar.pk]))
    correction = SAR.objects.get(corrects=sar)
    assert response["Location"] == reverse("admin:compliance_sar_change", args=[correction.pk])
    assert correction.status == SARStatus.DRAFT and correction.filed_by == crew["filer"]
    assert "Corrects" in page_of(client, correction) and sar.sar_id in page_of(client, correction)
    assert correction.sar_id in page_of(client, sar)
    client.post(reverse("admin:compliance_sar_correction", args=[sar.pk]))  # a second one is refused
    assert SAR.objects.filter(corrects=sar).count() == 1
