"""A password is refused for being like the person's own details only when it really is (backoffice.auth.passwords)."""

import pytest
from django.contrib.auth.password_validation import UserAttributeSimilarityValidator
from django.core.exceptions import ValidationError

from backoffice.auth.passwords import AttributeSimilarityValidator
from kyc.models import PlatformUser

# Found by a seeded search: these two random hex runs share enough characters (in any order) for Django's
# quick_ratio bound (0.71) but have almost no run in common (ratio 0.26).
UNRELATED_PASSWORD = "Acc!0071542635b5Zz9"
UNRELATED_EMAIL = "user.c560c53a1252@example.com"


def test_a_password_made_of_the_email_is_refused():
    person = PlatformUser(email="lindiwe.dlamini@example.com", first_name="Lindiwe", last_name="Dlamini")
    for password in ("Dlamini2026", "Lindiwe99", "lindiwe.dlamini@exam"):
        with pytest.raises(ValidationError) as refused:
            AttributeSimilarityValidator().validate(password, person)
        assert refused.value.error_list[0].code == "password_too_similar"


def test_a_password_sharing_only_scattered_characters_with_the_email_is_accepted():
    person = PlatformUser(email=UNRELATED_EMAIL)
    with pytest.raises(ValidationError):  # what Django's own validator did
        UserAttributeSimilarityValidator().validate(UNRELATED_PASSWORD, person)
    AttributeSimilarityValidator().validate(UNRELATED_PASSWORD, person)


@pytest.mark.django_db
def test_registration_takes_such_a_password(api, django_capture_on_commit_callbacks):
    body = {
        "phoneNumber": "+268 7612 3499",
        "password": UNRELATED_PASSWORD,
        "firstName": "Sipho",
        "lastName": "Nkambule",
        "email": UNRELATED_EMAIL,
    }
    with django_capture_on_commit_callbacks(execute=True):
        answer = api.post("/api/v1/auth/user/register", body, format="json")
    assert answer.status_code == 201, answer.json()
    similar = {**body, "phoneNumber": "+268 7612 3498", "email": "sipho.n@example.com", "password": "Nkambule2026"}
    refused = api.post("/api/v1/auth/user/register", similar, format="json")
    assert refused.status_code == 400 and "password" in refused.json()["error"]["details"]
