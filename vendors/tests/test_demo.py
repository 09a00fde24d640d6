"""The demo vendors: every KYC stage, real files through the real services, and a second run changes nothing."""

import io

import pytest
from django.core.management import call_command

from vendors.choices import VendorKycStatus
from vendors.models import Vendor, VendorDocument, VendorKycChange
from vendors.selectors.documents import document_duplicates

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def snapshot():
    return (
        sorted(Vendor.objects.values_list("email", "kyc_status")),
        sorted(VendorDocument.objects.values_list("key", "sha256", "review_decision", "expiry_date")),
        VendorKycChange.objects.count(),
    )


def test_the_demo_has_vendors_at_every_stage_and_running_it_twice_changes_nothing(demo_data):
    media = demo_data  # the seeded files' directory
    assert set(Vendor.objects.values_list("kyc_status", flat=True)) == set(VendorKycStatus.values)
    documents = list(VendorDocument.objects.all())
    assert {d.content_type for d in documents} == {"application/pdf", "image/jpeg", "image/png"}
    for document in documents:
        assert (media / document.key).stat().st_size == document.size
    assert {d.review_decision for d in documents} >= {"", "APPROVED", "REREQUESTED"}
    assert any(document_duplicates(documents).values())  # a reused file, flagged
    # the verified vendor's renewed trading licence: the one its decision relied on is kept, superseded
    (kept,) = VendorDocument.objects.superseded()
    assert kept.vendor.business_name == "Mbabane Fresh Market" and kept.document_key == "tradingLicense"
    assert kept.vendor.kyc_status == "VERIFIED" and kept.superseded_by.superseded_at is None
    first = snapshot()
    call_command("seed_demo", stdout=io.StringIO())
    assert snapshot() == first
