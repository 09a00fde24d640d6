"""Fixtures every app's tests share: API clients signed in as each staff role, a browser."""

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from backoffice.auth import tokens
from backoffice.choices import StaffRole
from backoffice.tests.clients import bearer_client
from backoffice.tests.factories import StaffFactory

pytest_plugins = [
    "backoffice.tests.binaries",
    "backoffice.tests.brokers",
    "backoffice.tests.browser",
    "backoffice.tests.concurrency",
    "backoffice.tests.s3",
]


@pytest.fixture(autouse=True)
def _fresh_cache():
    # rate-limit counters live in the cache; one test's requests must not spend another's budget
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    # every factory hashes a password; PBKDF2's deliberate slowness would dominate the suite
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _otp_in_memory(settings):
    from backoffice.auth import otp

    settings.OTP_BACKEND = "locmem"
    otp.outbox.clear()
    yield
    otp.outbox.clear()


@pytest.fixture
def media(settings, tmp_path):
    """Stored files go to a temporary directory for the test."""
    settings.MEDIA_ROOT = str(tmp_path)
    return tmp_path


@pytest.fixture
def api():
    return APIClient()


@pytest.fixture
def staff_client(db):
    """staff_client(role) -> (client, staff): an API client with a fresh staff member's token."""

    def make(role: str = StaffRole.ADMIN, **fields):
        staff = StaffFactory(role=role, **fields)
        return bearer_client(tokens.STAFF, staff.pk), staff

    return make


@pytest.fixture
def admin_client_api(staff_client):
    return staff_client(StaffRole.ADMIN)[0]
