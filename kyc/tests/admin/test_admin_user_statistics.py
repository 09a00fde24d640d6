"""The user page's statistics line reads the selector's snake_case totals (issue 16)."""

import re
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from backoffice.tests.factories import StaffFactory
from kyc.tests.factories import PlatformUserFactory, TransactionFactory

pytestmark = pytest.mark.django_db


def test_the_statistics_line_shows_every_total():
    user = PlatformUserFactory()
    TransactionFactory(user=user, amount=Decimal("100.00"), status="COMPLETED")
    TransactionFactory(user=user, amount=Decimal("300.00"), status="COMPLETED")
    client = Client()
    client.force_login(StaffFactory(role="compliance_officer"))
    page = client.get(reverse("admin:kyc_platformuser_change", args=[user.pk])).content.decode()
    line = re.sub(r"\s+", " ", page).replace("&middot;", "·")
    assert "> 2 completed transactions · " in line
    assert "volume SZL 400.00" in line and "average SZL 200.00" in line
    assert re.search(r"· \d+ days since registration", line)
