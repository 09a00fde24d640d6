"""Fixtures of the SAR tests: a subject with transactions, staff of each role, SARs in any state."""

import datetime as dt
from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from backoffice.auth import tokens
from backoffice.choices import StaffRole
from backoffice.tests.factories import StaffFactory
from compliance.sars.choices import SARStatus
from compliance.sars.services.sar import sar_create, sar_transition
from kyc.tests.factories import PlatformUserFactory, TransactionFactory

# The interface's transition table (ACKNOWLEDGED -> CLOSED included), written from the contract, not the model:
# the tests use it as the oracle the model's transitions are checked against.
ALLOWED = {
    (SARStatus.DRAFT, SARStatus.PENDING_REVIEW),
    (SARStatus.PENDING_REVIEW, SARStatus.PENDING_APPROVAL),
    (SARStatus.PENDING_APPROVAL, SARStatus.SUBMITTED),
    (SARStatus.SUBMITTED, SARStatus.ACKNOWLEDGED),
    (SARStatus.ACKNOWLEDGED, SARStatus.UNDER_INVESTIGATION),
    (SARStatus.UNDER_INVESTIGATION, SARStatus.CLOSED),
    (SARStatus.ACKNOWLEDGED, SARStatus.CLOSED),
}

# The path through the workflow to each state, as (target, who moves it there).
PATH = [
    (SARStatus.PENDING_REVIEW, "filer"),
    (SARStatus.PENDING_APPROVAL, "reviewer"),
    (SARStatus.SUBMITTED, "approver"),
    (SARStatus.ACKNOWLEDGED, "approver"),
    (SARStatus.UNDER_INVESTIGATION, "approver"),
    (SARStatus.CLOSED, "approver"),
]


@pytest.fixture
def subject(db):
    return PlatformUserFactory(first_name="Thabo", last_name="Maseko", id_number="9001015800087")


@pytest.fixture
def crew(db):
    """Four distinct people: a filer and a reviewer (compliance officers), an approver (MLRO), an admin."""
    return {
        "filer": StaffFactory(role=StaffRole.COMPLIANCE_OFFICER),
        "reviewer": StaffFactory(role=StaffRole.COMPLIANCE_OFFICER),
        "approver": StaffFactory(role=StaffRole.MLRO),
        "admin": StaffFactory(role=StaffRole.ADMIN),
    }


def file_sar(user, filer, **overrides):
    fields = {
        "actor": filer,
        "entity_user_id": user.pk,
        "suspicious_activity_type": "structuring",
        "activity_description": "Nine deposits of SZL 4,900 in two days",
        "date_of_suspicious_activity": dt.date.today() - dt.timedelta(days=3),
        "amount_involved": Decimal("44100.00"),
    }
    fields.update(overrides)
    return sar_create(**fields)


def move(sar, actor, status, **extra):
    return sar_transition(sar=sar, actor=actor, status=status, **extra)


def sar_in(state, user, crew):
    """A SAR walked along the table's main path (ACKNOWLEDGED -> UNDER_INVESTIGATION -> CLOSED) to ``state``."""
    sar = file_sar(user, crew["filer"])
    for target, who in PATH:
        if sar.status == state:
            break
        sar = move(sar, crew[who], target)
    assert sar.status == state
    return sar


@pytest.fixture
def make_sar(subject, crew):
    def make(state=SARStatus.DRAFT):
        return sar_in(state, subject, crew)

    return make


@pytest.fixture
def subject_transactions(subject):
    return [TransactionFactory(user=subject, amount=Decimal("4900.00")) for _ in range(3)]


def client_for(staff) -> APIClient:
    client = APIClient()
    client.credentials(
        HTTP_AUTHORIZATION=f"Bearer {tokens.issue_pair(kind=tokens.STAFF, principal_id=staff.pk).access}"
    )
    return client


@pytest.fixture
def clients(crew):
    """An API client per member of the crew."""
    return {name: client_for(staff) for name, staff in crew.items()}


@pytest.fixture
def subject_alert(subject):
    from compliance.aml.models.alerts import Alert

    return Alert.objects.create(
        user=subject, severity="HIGH", dedup_key=f"test:{subject.pk}", details={"reason": "structuring pattern"}
    )


def signed_in(client, staff):
    client.force_login(staff)
    return client


def draft_form(**overrides):
    fields = {
        "suspicious_activity_type": "structuring",
        "date_of_suspicious_activity": (dt.date.today() - dt.timedelta(days=2)).isoformat(),
        "amount_involved": "14700.00",
        "activity_description": "WHO: the subject.\n\nWHAT: three deposits of SZL 4,900.",
    }
    fields.update(overrides)
    return fields
