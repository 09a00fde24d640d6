"""Helpers and fixtures of the tests in kyc/tests: import helpers from here, never from conftest."""

import pytest

from backoffice.choices import StaffRole

BASE = "/api/v1/admin/users"


def user_url(user, suffix: str = "") -> str:
    return f"{BASE}/{user.pk}{'/' + suffix if suffix else ''}"


@pytest.fixture
def admin_api(staff_client):
    return staff_client(StaffRole.ADMIN)


@pytest.fixture
def as_role(staff_client):
    """as_role("finance") -> an API client of a fresh staff member with that role."""

    def make(role: str):
        return staff_client(role)[0]

    return make
