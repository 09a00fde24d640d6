"""The role table of the contract, as the code holds it."""

import pytest

from backoffice import roles
from backoffice.choices import StaffRole
from backoffice.tests.factories import StaffFactory

S, C, M, F, A = (StaffRole.SUPPORT, StaffRole.COMPLIANCE_OFFICER, StaffRole.MLRO, StaffRole.FINANCE, StaffRole.ADMIN)

TABLE = {
    "users.read": {S, C, M, F, A},
    "users.update": {S, C, M, A},
    "users.archive": {C, M, A},
    "users.investigate": {C, M, A},
    "users.credit": {F, A},
    "users.purge": {A},
    "sars.read": {C, M, A},
    "sars.file": {C, M, A},
    "sars.approve": {M, A},
    "alerts.read": {C, M, A},
    "rules.read": {C, M, A},
    "rules.write": {M, A},
    "peps.manage": {C, M, A},
    "verification.run": {C, M, A},
    "vendors.kyc.read": {S, C, M, A},
    "vendors.kyc.write": {C, M, A},
    "staff.manage": {A},
}


@pytest.mark.parametrize("capability", sorted(TABLE))
def test_each_capability_belongs_to_exactly_the_contract_roles(capability):
    holders = {role for role in StaffRole.values if roles.has_capability(role, capability)}
    assert holders == TABLE[capability]


def test_support_and_finance_are_not_compliance_roles():
    assert roles.COMPLIANCE_ROLES == {C, M, A}


@pytest.mark.django_db
def test_a_deactivated_admin_has_no_capability():
    staff = StaffFactory(role=A, is_active=False)
    assert not staff.has_capability("users.read")
    assert not staff.has_perm("backoffice.view_staff")


@pytest.mark.django_db
def test_only_admins_manage_staff_in_the_admin_site():
    assert StaffFactory(role=A).has_perm("backoffice.change_staff")
    for role in (S, C, M, F):
        assert not StaffFactory(role=role).has_perm("backoffice.change_staff")
