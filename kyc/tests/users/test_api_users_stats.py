import datetime as dt

import pytest
from django.utils import timezone

from kyc.models import PlatformUser
from kyc.selectors.users import user_stats
from kyc.tests.factories import PlatformUserFactory
from kyc.tests.helpers import BASE

pytestmark = pytest.mark.django_db


def test_stats_count_users_by_verification_status(admin_client_api):
    PlatformUserFactory(verification_status="VERIFIED", is_verified=True)
    PlatformUserFactory.create_batch(2)
    PlatformUserFactory(verification_status="REJECTED")
    PlatformUserFactory(is_archived=True)
    response = admin_client_api.get(f"{BASE}/stats")
    assert response.status_code == 200
    data = response.json()["data"]
    assert (data["totalUsers"], data["verifiedUsers"], data["pendingVerification"], data["rejectedVerification"]) == (
        4,
        1,
        2,
        1,
    )
    assert data["newUsersToday"] == data["newUsersThisWeek"] == data["newUsersThisMonth"] == 4


def test_new_user_windows_are_today_this_week_and_this_month():
    now = dt.datetime(2026, 11, 18, 12, 0, tzinfo=dt.UTC)  # a Wednesday
    for days_ago in (0, 2, 10, 40):
        user = PlatformUserFactory()
        PlatformUser.objects.filter(pk=user.pk).update(created_at=now - dt.timedelta(days=days_ago))
    stats = user_stats(now=now)
    assert (stats.new_users_today, stats.new_users_this_week, stats.new_users_this_month) == (1, 2, 3)


def test_stats_are_one_query(django_assert_num_queries):
    PlatformUserFactory.create_batch(3)
    with django_assert_num_queries(1):
        user_stats(now=timezone.now())
