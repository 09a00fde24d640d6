"""Tipping-off: nothing a support or finance member can read about a user reveals a SAR about them."""

import re

import pytest

from backoffice.choices import StaffRole
from backoffice.tests.factories import StaffFactory
from compliance.sars.choices import SARStatus
from compliance.sars.tests.sar.helpers import client_for, sar_in

pytestmark = pytest.mark.django_db


def words(key: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[A-Za-z][a-z]*", key)}


def keys(obj):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield k
            yield from keys(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from keys(v)


@pytest.mark.parametrize("role", [StaffRole.SUPPORT, StaffRole.FINANCE])
def test_user_responses_carry_nothing_about_the_sar(role, subject, subject_transactions, crew):
    sar = sar_in(SARStatus.PENDING_APPROVAL, subject, crew)
    sar.related_transactions.set(subject_transactions)
    client = client_for(StaffFactory(role=role))
    base = f"/api/v1/admin/users/{subject.pk}"
    paths = [
        base,
        f"{base}/history",
        f"{base}/transactions",
        f"{base}/verifications",
        f"{base}/documents",
        "/api/v1/admin/users",
        f"/api/v1/admin/users/search?q={subject.last_name}",
    ]
    for path in paths:
        r = client.get(path)
        assert r.status_code == 200, (path, r.content[:300])
        raw = r.content.decode()
        assert sar.sar_id not in raw and str(sar.pk) not in raw, path
        leaky = [k for k in keys(r.json()) if words(k) & {"sar", "sars", "alert", "alerts", "pep"}]
        assert not leaky, (path, leaky)


@pytest.mark.parametrize("role", [StaffRole.SUPPORT, StaffRole.FINANCE])
def test_sar_and_alert_endpoints_are_closed_to_them(role, subject, crew):
    sar = sar_in(SARStatus.DRAFT, subject, crew)
    client = client_for(StaffFactory(role=role))
    for path in ("/api/v1/admin/aml/sars", f"/api/v1/admin/aml/sars/{sar.pk}/export"):
        assert client.get(path).status_code == 403, path


def test_purging_a_sar_subject_is_refused_for_retention(subject, crew):
    sar_in(SARStatus.DRAFT, subject, crew)
    r = client_for(crew["admin"]).delete(f"/api/v1/admin/users/{subject.pk}/purge")
    assert r.status_code == 409 and r.json()["error"]["code"] == "RETENTION_HOLD"
    subject.refresh_from_db()
