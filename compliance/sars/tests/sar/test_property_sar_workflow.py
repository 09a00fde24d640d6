"""Property: whatever sequence of moves staff attempt, a SAR never breaks the workflow's rules.

Hypothesis draws sequences of (who, target state, what they put in reviewedBy /
approvedBy) and sends each as ``PUT /admin/aml/sars/:id/status``, the whole path
from the API's own rules (reviewedBy/approvedBy) to the service and the model;
an independent oracle written from the contract predicts each answer, and after
every attempt the stored SAR and its history must agree with the rules: only
moves of the table, by the right role, with four eyes, one history row per
move, and nothing changed by a refused move.
"""

import datetime as dt
from decimal import Decimal

import pytest
from django.test import override_settings
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase
from rest_framework.test import APIClient

from backoffice.auth import tokens
from backoffice.choices import StaffRole
from backoffice.models import Staff
from compliance.sars.choices import SARStatus
from compliance.sars.models.sar import SAR, SARTransition
from compliance.sars.services.sar import sar_create
from compliance.sars.tests.sar.helpers import ALLOWED
from kyc.models import PlatformUser

pytestmark = pytest.mark.slow

# Written from the contract's role table, independently of TARGET_CAPABILITY.
MAY_FILE_AND_REVIEW = {StaffRole.COMPLIANCE_OFFICER, StaffRole.MLRO, StaffRole.ADMIN}
MAY_APPROVE = {StaffRole.MLRO, StaffRole.ADMIN}
POOL = [
    StaffRole.COMPLIANCE_OFFICER,
    StaffRole.COMPLIANCE_OFFICER,
    StaffRole.MLRO,
    StaffRole.MLRO,
    StaffRole.ADMIN,
    StaffRole.SUPPORT,
    StaffRole.FINANCE,
]

attempts = st.lists(
    st.tuples(
        st.integers(min_value=0, max_value=len(POOL) - 1),  # who
        # into which state; "NEXT" is a state the table allows from wherever the SAR is, so
        # sequences reach the far end of the workflow instead of bouncing off at DRAFT
        st.sampled_from(["NEXT"] * 4 + SARStatus.values),
        st.sampled_from(["self", "self", "self", "other", "none"]),  # what reviewedBy/approvedBy say
    ),
    min_size=1,
    max_size=16,
)


def expected_outcome(sar: SAR, actor: Staff, target: str, person: str) -> tuple[int, str] | None:
    """The (status, error code) the contract demands for this attempt, or None when it must succeed."""
    role = actor.role
    if role not in MAY_FILE_AND_REVIEW:
        return 403, "FORBIDDEN"  # support and finance never reach a SAR endpoint (tipping-off)
    if (sar.status, target) not in ALLOWED:
        return 409, "INVALID_TRANSITION"
    if target in (SARStatus.SUBMITTED, SARStatus.ACKNOWLEDGED, SARStatus.UNDER_INVESTIGATION, SARStatus.CLOSED):
        if role not in MAY_APPROVE:
            return 403, "FORBIDDEN"
    if target in (SARStatus.PENDING_APPROVAL, SARStatus.SUBMITTED):
        if person == "none":
            return 400, "VALIDATION_ERROR"
        if person == "other":
            return 403, "FORBIDDEN"
    if target == SARStatus.PENDING_APPROVAL and actor.pk == sar.filed_by_id:
        return 403, "FOUR_EYES_REQUIRED"
    if target == SARStatus.SUBMITTED and actor.pk in (sar.filed_by_id, sar.reviewed_by_id):
        return 403, "FOUR_EYES_REQUIRED"
    return None


# hundreds of requests per staff member: the per-minute limit is not what this property is about
@override_settings(RATELIMIT_ENABLE=False)
class SARWorkflowProperties(TestCase):
    @classmethod
    def setUpTestData(cls):
        cls.staff = [
            Staff.objects.create(email=f"pool{i}@example.com", role=role, password="!") for i, role in enumerate(POOL)
        ]
        cls.outsider = Staff.objects.create(email="outsider@example.com", role=StaffRole.ADMIN, password="!")
        cls.clients = []
        for staff in cls.staff:
            client = APIClient()
            client.credentials(
                HTTP_AUTHORIZATION=f"Bearer {tokens.issue_pair(kind=tokens.STAFF, principal_id=staff.pk).access}"
            )
            cls.clients.append(client)
        cls.user = PlatformUser.objects.create(
            phone_number="+26876999001", first_name="Prop", last_name="Erty", referral_code="PROP0001", password="!"
        )

    @settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(filer_index=st.sampled_from([0, 1, 2, 4]), moves=attempts)
    def test_random_sequences_of_moves_never_break_the_rules(self, filer_index, moves):
        sar = sar_create(
            actor=self.staff[filer_index],
            entity_user_id=self.user.pk,
            suspicious_activity_type="fraud",
            activity_description="property",
            date_of_suspicious_activity=dt.date(2026, 1, 1),
            amount_involved=Decimal("1.00"),
        )
        path = [SARStatus.DRAFT]
        for who, target, person in moves:
            actor = self.staff[who]
            before = SAR.objects.get(pk=sar.pk)
            if target == "NEXT":
                following = sorted(t for s, t in ALLOWED if s == before.status)
                target = following[who % len(following)] if following else SARStatus.DRAFT
            expected = expected_outcome(before, actor, target, person)
            named = {"self": str(actor.pk), "other": str(self.outsider.pk), "none": None}[person]
            body = {"status": target, "reviewedBy": named, "approvedBy": named}
            answer = self.clients[who].put(f"/api/v1/admin/aml/sars/{sar.pk}/status", body, format="json")
            if answer.status_code != 200:
                got = (answer.status_code, answer.json()["error"]["code"])
                assert expected == got, (before.status, target, actor.role, person, got)
                after = SAR.objects.get(pk=sar.pk)
                assert (after.status, after.reviewed_by_id, after.approved_by_id) == (
                    before.status,
                    before.reviewed_by_id,
                    before.approved_by_id,
                )
            else:
                assert expected is None, (before.status, target, actor.role, person)
                path.append(target)
            self.assert_invariants(SAR.objects.get(pk=sar.pk), path)
        event(f"furthest state: {path[-1]}")

    def assert_invariants(self, sar: SAR, path: list[str]):
        assert sar.status == path[-1]
        history = list(SARTransition.objects.filter(sar=sar).order_by("created_at", "id"))
        assert [(h.from_status, h.to_status) for h in history] == list(zip(path, path[1:], strict=False))
        assert all(pair in ALLOWED for pair in zip(path, path[1:], strict=False))
        if sar.reviewed_by_id:
            assert sar.reviewed_by_id != sar.filed_by_id
        if sar.approved_by_id:
            assert sar.approved_by_id not in (sar.filed_by_id, sar.reviewed_by_id)
            assert sar.approved_by.role in MAY_APPROVE
        if sar.status not in (SARStatus.DRAFT, SARStatus.PENDING_REVIEW):
            assert sar.reviewed_by_id and sar.reviewed_at
        sar.full_clean(exclude=["status"])
