"""The match queue and a match's page cost the same number of queries however many matches, events and
transactions there are."""

from decimal import Decimal

import pytest
from django.urls import reverse

from backoffice.tests.admin_queries import admin_browser, assert_flat
from compliance.sanctions.models import SanctionsMatch
from compliance.sanctions.services.screening import screen_user
from compliance.sanctions.tests.screening.helpers import make_entry
from kyc.services import transaction_record
from kyc.tests.factories import PlatformUserFactory

pytestmark = pytest.mark.django_db


def _matches(n):
    for _ in range(n):
        screen_user(user_id=PlatformUserFactory(first_name="Amina", last_name="Dlamini").pk)


def test_the_queue_and_a_match_page_are_flat():
    make_entry("Amina Dlamini Yusuf", aliases=["Umm Yusuf"])
    client = admin_browser()
    _matches(1)
    assert_flat(client, reverse("admin:compliance_sanctionsmatch_changelist"), _matches)
    match = SanctionsMatch.objects.first()

    def more_history(n):
        for _ in range(n):
            transaction_record(user=match.user, type="TOP_UP", amount=Decimal("10"))

    assert_flat(client, reverse("admin:compliance_sanctionsmatch_change", args=[match.pk]), more_history)
