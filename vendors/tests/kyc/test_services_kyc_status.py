"""The vendor's KYC state machine: the declared moves, how the status follows the documents, expiry, history."""

import datetime as dt
import io

import pytest
from django.core.management import call_command
from django_fsm import TransitionNotAllowed

from backoffice.choices import StaffRole
from backoffice.errors import Forbidden, InvalidTransition
from backoffice.models import AuditLog
from backoffice.tests.factories import StaffFactory
from vendors.choices import REQUIRED_DOCUMENT_KEYS
from vendors.choices import VendorKycStatus as S
from vendors.models import KYC_TRANSITIONS, Vendor, VendorDocument, VendorKycChange, today
from vendors.services import kyc_status_expire, vendor_document_review, vendor_kyc_decide
from vendors.services.kyc_status import completeness, status_for

pytestmark = pytest.mark.django_db


def test_the_declared_moves_are_the_table():
    follow = {S.PENDING, S.DOCUMENTS_SUBMITTED, S.UNDER_REVIEW}
    expected = {(a, b) for a in follow | {S.VERIFIED, S.REJECTED} for b in follow if a != b}
    expected -= {(S.PENDING, S.PENDING)}
    expected |= {(S.UNDER_REVIEW, S.VERIFIED), (S.UNDER_REVIEW, S.REJECTED)}
    assert set(KYC_TRANSITIONS) == expected
    assert (S.DOCUMENTS_SUBMITTED, S.VERIFIED) not in KYC_TRANSITIONS  # decisions only from UNDER_REVIEW


def test_the_status_field_is_protected_and_moves_only_by_transition(vendor):
    with pytest.raises(AttributeError):
        vendor.kyc_status = S.VERIFIED
    with pytest.raises(TransitionNotAllowed):
        vendor.verify()


def test_status_for_reads_the_documents(vendor, store_documents):
    on = today()
    assert status_for(completeness([], on)) == S.PENDING
    documents = store_documents(vendor)
    assert status_for(completeness(documents, on)) == S.UNDER_REVIEW
    documents[0].expiry_date = on - dt.timedelta(days=1)
    assert status_for(completeness(documents, on)) == S.DOCUMENTS_SUBMITTED
    documents[0].expiry_date = on  # valid through its expiry day
    assert status_for(completeness(documents, on)) == S.UNDER_REVIEW


def test_every_move_has_a_history_row_and_an_audit_entry(vendor, store_documents):
    store_documents(vendor)
    moves = VendorKycChange.objects.filter(vendor=vendor).count()
    assert moves == 2
    assert AuditLog.objects.filter(action="vendor.kyc.status", object_id=str(vendor.pk)).count() == moves
    assert AuditLog.objects.filter(action="vendor.kyc.document.upload", object_id=str(vendor.pk)).count() == 6


def test_expiry_sends_a_verified_vendor_back_but_leaves_a_rejection(vendor, store_documents):
    officer = StaffFactory(role=StaffRole.COMPLIANCE_OFFICER)  # not the one who uploaded (four eyes)
    store_documents(vendor, approve=True)
    vendor_kyc_decide(vendor=vendor, actor=officer, status=S.VERIFIED)
    rejected = Vendor.objects.create(
        business_name="R", email="r@example.com", phone_number="+26878000009", password="!"
    )
    store_documents(rejected)
    vendor_kyc_decide(vendor=rejected, actor=officer, status=S.REJECTED, reason="no")
    VendorDocument.objects.filter(document_key="taxClearance").update(expiry_date=today() - dt.timedelta(days=2))

    out = io.StringIO()
    call_command("vendor_kyc_expire", stdout=out)
    assert "sent back for an expired document: 1" in out.getvalue()
    assert Vendor.objects.get(pk=vendor.pk).kyc_status == S.DOCUMENTS_SUBMITTED
    assert Vendor.objects.get(pk=rejected.pk).kyc_status == S.REJECTED
    change = VendorKycChange.objects.filter(vendor=vendor).last()
    assert change.actor is None and change.note.startswith("Expired: taxClearance")
    call_command("vendor_kyc_expire", stdout=out)  # idempotent
    assert VendorKycChange.objects.filter(vendor=vendor).count() == 4


def test_nobody_decides_on_an_expired_paper(vendor, store_documents, officer):
    store_documents(vendor)
    VendorDocument.objects.filter(vendor=vendor, document_key="directorId").update(
        expiry_date=today() - dt.timedelta(days=1)
    )
    with pytest.raises(InvalidTransition) as excinfo:
        vendor_kyc_decide(vendor=vendor, actor=officer, status=S.VERIFIED)
    assert excinfo.value.message == "Cannot move vendor KYC from DOCUMENTS_SUBMITTED to VERIFIED"
    assert kyc_status_expire(vendor=vendor).kyc_status == S.DOCUMENTS_SUBMITTED


@pytest.mark.parametrize("role", ["support", "finance"])
def test_the_services_check_the_role_too(vendor, store_documents, role):
    documents = store_documents(vendor)
    staff = StaffFactory(role=role)
    with pytest.raises(Forbidden):
        vendor_kyc_decide(vendor=vendor, actor=staff, status=S.VERIFIED)
    with pytest.raises(Forbidden):
        vendor_document_review(document=documents[0], actor=staff, decision="APPROVED")


def test_all_six_required_keys_are_the_interfaces():
    assert REQUIRED_DOCUMENT_KEYS == (
        "companyRegistration",
        "taxClearance",
        "businessLicense",
        "bankStatement",
        "directorId",
        "proofOfAddress",
    )
