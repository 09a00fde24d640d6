"""One phone number registered by several clients at once, on PostgreSQL: one 201, every other a 409."""

import pytest
from rest_framework.test import APIClient

from backoffice.tests.concurrency import run_in_threads
from kyc.models import PlatformUser

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("postgres_only")]
CLIENTS = 6


def register(index: int, phone: str) -> int:
    body = {
        "phoneNumber": phone,
        "password": "Str0ng-Passw0rd!",
        "firstName": "Racer",
        "lastName": f"Number{index}",
        "email": f"racer{index}@example.com",
    }
    return APIClient(REMOTE_ADDR=f"198.51.100.{index}").post("/api/v1/auth/user/register", body, format="json")


@pytest.mark.parametrize("round_", range(3))
def test_concurrent_registrations_of_one_phone_give_one_201_and_409s(round_):
    phone = f"+2687655{round_:04d}"
    responses = run_in_threads(CLIENTS, lambda i: register(i, phone))
    statuses = sorted(r.status_code for r in responses)
    assert statuses == [201] + [409] * (CLIENTS - 1), [r.json() for r in responses]
    assert PlatformUser.objects.filter(phone_number=phone).count() == 1
