"""Who may touch the PEP list: compliance officers, MLROs and admins; support and finance get 403 everywhere
(tipping-off: nothing about PEP matches in anything they can read)."""

import pytest

from backoffice.choices import StaffRole
from compliance.peps.tests.helpers import BASE, make_user, pep_body

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("role", [StaffRole.COMPLIANCE_OFFICER, StaffRole.MLRO, StaffRole.ADMIN])
def test_compliance_roles_manage_peps(staff_client, role):
    client, _ = staff_client(role)
    response = client.post(BASE, pep_body(f"Managed By {role.replace('_', ' ').title()}"), format="json")
    assert response.status_code == 201
    assert client.get(BASE).status_code == 200


def test_without_a_token_it_is_401(api):
    assert api.get(BASE).status_code == 401


def test_support_reading_a_matched_user_learns_nothing_of_the_match(staff_client, officer_api):
    user = make_user("Bakotimu", "Dafiloza")
    officer_api.post(BASE, pep_body("Bakotimu Dafiloza"), format="json")
    support, _ = staff_client(StaffRole.SUPPORT)
    for suffix in ("", "/history"):
        text = support.get(f"/api/v1/admin/users/{user.pk}{suffix}").content.decode().lower()
        assert "pep" not in text and "alert" not in text and "dafiloza, bakotimu" not in text
