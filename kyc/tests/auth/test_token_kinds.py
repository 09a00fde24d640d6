"""A token of one principal kind never opens another kind's endpoints; Bearer is the only scheme."""

import base64
import json
import time
import uuid

import pytest
from rest_framework.test import APIClient

from backoffice.auth import tokens
from backoffice.tests.factories import StaffFactory
from kyc.tests.factories import PlatformUserFactory
from vendors.tests.factories import VendorFactory

pytestmark = pytest.mark.django_db
ME = "/api/v1/admin/me"


def with_header(value):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=value)
    return client


def code(response):
    return response.status_code, response.json()["error"]["code"]


def test_missing_token_is_401(api):
    assert code(api.get(ME)) == (401, "UNAUTHORIZED")


def test_a_user_token_does_not_open_admin_endpoints():
    user = PlatformUserFactory()
    pair = tokens.issue_pair(kind="user", principal_id=user.pk)
    assert code(with_header(f"Bearer {pair.access}").get(ME)) == (401, "UNAUTHORIZED")


def test_a_vendor_token_does_not_open_admin_endpoints():
    vendor = VendorFactory()
    pair = tokens.issue_pair(kind="vendor", principal_id=vendor.pk)
    assert code(with_header(f"Bearer {pair.access}").get(ME)) == (401, "UNAUTHORIZED")


def test_a_staff_token_naming_a_user_id_opens_nothing():
    user = PlatformUserFactory()
    pair = tokens.issue_pair(kind=tokens.STAFF, principal_id=user.pk)
    assert code(with_header(f"Bearer {pair.access}").get(ME)) == (401, "UNAUTHORIZED")


def test_an_api_key_opens_nothing(api):
    r = api.get(ME, HTTP_X_API_KEY="partner-key")
    assert code(r) == (401, "UNAUTHORIZED")


@pytest.mark.parametrize(
    "header", ["Bearer not-a-jwt", "Bearer abc.def.ghi", "Bearer", "bearer", "Token x", "Basic eDp5"]
)
def test_garbled_or_foreign_schemes_are_401(header):
    assert code(with_header(header).get(ME)) == (401, "UNAUTHORIZED")


def _b64(obj):
    return base64.urlsafe_b64encode(json.dumps(obj).encode()).rstrip(b"=").decode()


def test_unsigned_and_expired_tokens_are_401():
    staff = StaffFactory()
    now = int(time.time())
    claims = {
        "token_type": "access",
        "exp": now + 600,
        "iat": now,
        "jti": uuid.uuid4().hex,
        "kind": "staff",
        "sub": str(staff.pk),
    }
    unsigned = f"{_b64({'alg': 'none', 'typ': 'JWT'})}.{_b64(claims)}."
    assert code(with_header(f"Bearer {unsigned}").get(ME)) == (401, "UNAUTHORIZED")
    forged = f"{_b64({'alg': 'HS256', 'typ': 'JWT'})}.{_b64(claims)}.{_b64('x' * 32)}"
    assert code(with_header(f"Bearer {forged}").get(ME)) == (401, "UNAUTHORIZED")


def test_a_refresh_token_is_not_an_access_token():
    staff = StaffFactory()
    pair = tokens.issue_pair(kind=tokens.STAFF, principal_id=staff.pk)
    assert code(with_header(f"Bearer {pair.refresh}").get(ME)) == (401, "UNAUTHORIZED")
    assert with_header(f"Bearer {pair.access}").get(ME).status_code == 200


def test_an_expired_access_token_is_401():
    from datetime import timedelta

    from rest_framework_simplejwt.tokens import RefreshToken

    staff = StaffFactory()
    refresh = RefreshToken()
    refresh["kind"], refresh["sub"] = tokens.STAFF, str(staff.pk)
    access = refresh.access_token
    access.set_exp(lifetime=timedelta(seconds=-5))
    assert code(with_header(f"Bearer {access}").get(ME)) == (401, "UNAUTHORIZED")
