"""verifications, transactions, documents and history of one user."""

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone

from kyc.services import transaction_record
from kyc.tests.factories import KycDocumentFactory, PlatformUserFactory, VerificationRecordFactory
from kyc.tests.helpers import user_url

pytestmark = pytest.mark.django_db


def test_verifications_is_an_array_of_records(admin_client_api):
    user = PlatformUserFactory()
    done = VerificationRecordFactory(user=user, status="VERIFIED", completed_at=timezone.now())
    VerificationRecordFactory(user=PlatformUserFactory())
    data = admin_client_api.get(user_url(user, "verifications")).json()["data"]
    assert data == [
        {
            "id": str(done.pk),
            "status": "VERIFIED",
            "type": "IDENTITY",
            "createdAt": data[0]["createdAt"],
            "completedAt": data[0]["completedAt"],
        }
    ]
    assert data[0]["completedAt"].endswith("Z")


def test_transactions_are_a_general_paginated_list_newest_first(admin_client_api):
    user = PlatformUserFactory()
    base = timezone.now() - dt.timedelta(days=3)
    for i, amount in enumerate(("10.00", "20.00", "30.00")):
        transaction_record(user=user, type="TOP_UP", amount=Decimal(amount), created_at=base + dt.timedelta(hours=i))
    body = admin_client_api.get(user_url(user, "transactions"), {"limit": 2}).json()
    assert body["pagination"] == {"page": 1, "limit": 2, "total": 3, "totalPages": 2}
    assert [t["amount"] for t in body["data"]] == [30.0, 20.0]
    assert set(body["data"][0]) >= {"id", "type", "amount", "status", "createdAt"}


def test_transactions_sort_by_amount_and_reject_unknown_sort(admin_client_api):
    user = PlatformUserFactory()
    for amount in ("5.00", "50.00", "15.00"):
        transaction_record(user=user, type="TOP_UP", amount=Decimal(amount))
    data = admin_client_api.get(user_url(user, "transactions"), {"sortBy": "amount", "sortOrder": "asc"}).json()["data"]
    assert [t["amount"] for t in data] == [5.0, 15.0, 50.0]
    assert admin_client_api.get(user_url(user, "transactions"), {"sortBy": "reason"}).status_code == 400


def test_transactions_filter_by_type(admin_client_api):
    user = PlatformUserFactory()
    transaction_record(user=user, type="TOP_UP", amount=Decimal("50.00"))
    transaction_record(user=user, type="WITHDRAWAL", amount=Decimal("5.00"))
    data = admin_client_api.get(user_url(user, "transactions"), {"type": "WITHDRAWAL"}).json()["data"]
    assert [t["type"] for t in data] == ["WITHDRAWAL"]


def test_documents_list_type_signed_url_and_upload_time(admin_client_api, api, media):
    user = PlatformUserFactory()
    KycDocumentFactory(user=user, type="SELFIE")
    data = admin_client_api.get(user_url(user, "documents")).json()["data"]
    assert [d["type"] for d in data] == ["SELFIE"]
    assert data[0]["uploadedAt"].endswith("Z")
    assert "/api/v1/files/" in data[0]["url"]
    download = api.get(data[0]["url"])  # no bearer header: the signature is the credential
    assert download.status_code == 200
    assert download["Content-Type"] == "image/png"
    assert b"".join(download.streaming_content).startswith(b"\x89PNG")


def test_history_gathers_profile_records_timeline_and_statistics(admin_client_api, media):
    user = PlatformUserFactory()
    VerificationRecordFactory(user=user, status="VERIFIED", completed_at=timezone.now())
    KycDocumentFactory(user=user, type="ID_FRONT")
    transaction_record(user=user, type="TOP_UP", amount=Decimal("100.00"))
    transaction_record(user=user, type="VENDOR_PAYMENT", amount=Decimal("25.50"))
    transaction_record(user=user, type="CARD_PAYMENT", amount=Decimal("1.00"), status="FAILED")
    response = admin_client_api.get(user_url(user, "history"))
    assert response.status_code == 200
    data = response.json()["data"]
    assert set(data) == {"profile", "verifications", "transactions", "documents", "timeline", "statistics"}
    assert data["profile"]["id"] == str(user.pk)
    assert len(data["verifications"]) == 1 and len(data["documents"]) == 1 and len(data["transactions"]) == 3
    # the failed payment is in the ledger but not in the completed-money statistics
    assert data["statistics"] == {
        "totalTransactions": 2,
        "totalVolume": 125.5,
        "avgTransaction": 62.75,
        "daysActive": 1,
    }
    types = [e["type"] for e in data["timeline"]]
    assert "REGISTERED" in types and "DOCUMENT_UPLOADED" in types and "VERIFICATION_COMPLETED" in types
    assert "TRANSACTION_TOP_UP" in types
    stamps = [e["at"] for e in data["timeline"]]
    assert stamps == sorted(stamps, reverse=True)
    assert all(set(e) == {"at", "type", "description"} for e in data["timeline"])


def test_history_of_a_user_without_activity_has_zero_statistics(admin_client_api):
    data = admin_client_api.get(user_url(PlatformUserFactory(), "history")).json()["data"]
    assert data["statistics"] == {"totalTransactions": 0, "totalVolume": 0, "avgTransaction": 0, "daysActive": 1}
    assert [e["type"] for e in data["timeline"]] == ["REGISTERED"]


def test_history_costs_a_fixed_number_of_queries(admin_client_api, media, django_assert_max_num_queries):
    user = PlatformUserFactory()
    for _ in range(5):
        transaction_record(user=user, type="TOP_UP", amount=Decimal("1.00"))
        KycDocumentFactory(user=user)
    with django_assert_max_num_queries(7):
        admin_client_api.get(user_url(user, "history"))
