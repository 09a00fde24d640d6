"""A purge racing a SAR about the same user, on PostgreSQL: the loser gets 404 or 409, never a foreign-key error."""

import datetime as dt
from decimal import Decimal

import pytest

from backoffice.choices import StaffRole
from backoffice.errors import NotFound
from backoffice.tests.concurrency import run_in_threads
from backoffice.tests.factories import StaffFactory
from compliance.sars.models.sar import SAR
from compliance.sars.services.sar import sar_create
from kyc.errors import RetentionHold
from kyc.models import PlatformUser
from kyc.services import user_purge
from kyc.tests.factories import PlatformUserFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("postgres_only")]
ROUNDS = 8


def test_purge_and_sar_create_on_one_user_queue_behind_the_user_row(media):
    filer, admin = StaffFactory(role=StaffRole.COMPLIANCE_OFFICER), StaffFactory(role=StaffRole.ADMIN)
    for _ in range(ROUNDS):
        user = PlatformUserFactory()
        outcomes = run_in_threads(
            2,
            lambda i, user=user: (
                user_purge(user=user, actor=admin)
                if i == 0
                else sar_create(
                    actor=filer,
                    entity_user_id=user.pk,
                    suspicious_activity_type="structuring",
                    activity_description="Deposits just under the threshold",
                    date_of_suspicious_activity=dt.date(2026, 10, 1),
                    amount_involved=Decimal("100.00"),
                )
            ),
        )
        purge, sar = outcomes
        if isinstance(sar, SAR):  # the report came first: the purge is held (409)
            assert isinstance(purge, RetentionHold), purge
            assert PlatformUser.objects.filter(pk=user.pk).exists()
        else:  # the purge came first: the report finds no subject (404)
            assert isinstance(sar, NotFound), sar
            assert isinstance(purge, dict) and not PlatformUser.objects.filter(pk=user.pk).exists()
