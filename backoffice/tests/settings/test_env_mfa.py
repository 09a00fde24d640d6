"""STAFF_MFA_REQUIRED_ROLES is parsed strictly: an unknown role stops start-up naming the variable."""

from backoffice.tests.envcheck import manage_check

KEY = "a-long-enough-secret-key-for-the-start-up-check-0123456789"


def test_an_unknown_role_stops_start_up():
    refused = manage_check(SECRET_KEY=KEY, STAFF_MFA_REQUIRED_ROLES="mlro,auditor")
    assert refused.returncode != 0
    assert "STAFF_MFA_REQUIRED_ROLES: unknown value(s) ['auditor']" in refused.stderr


def test_named_roles_start():
    assert manage_check(SECRET_KEY=KEY, STAFF_MFA_REQUIRED_ROLES="mlro, admin").returncode == 0
