"""sar_transition: every move of the table allowed, every other move refused, roles and four eyes enforced."""

import itertools

import pytest
from django.db import IntegrityError, transaction

from backoffice.choices import StaffRole
from backoffice.errors import Forbidden, ValidationFailed
from backoffice.models import AuditLog
from backoffice.tests.factories import StaffFactory
from compliance.sars.choices import SARStatus
from compliance.sars.models.sar import SAR, TRANSITIONS, FourEyesRequired, InvalidTransition, SARTransition
from compliance.sars.tests.sar.helpers import ALLOWED, file_sar, move, sar_in

ALL_PAIRS = list(itertools.product(SARStatus.values, SARStatus.values))
WHO_MOVES_INTO = {
    SARStatus.PENDING_REVIEW: "filer",
    SARStatus.PENDING_APPROVAL: "reviewer",
}


def test_the_declared_transitions_are_exactly_the_interface_table():
    assert set(TRANSITIONS) == ALLOWED


@pytest.mark.parametrize("source,target", sorted(ALLOWED))
def test_every_move_of_the_table_is_allowed_and_recorded(subject, crew, source, target):
    sar = sar_in(source, subject, crew)
    actor = crew[WHO_MOVES_INTO.get(target, "approver")]
    moved = move(sar, actor, target, note="checked")
    assert moved.status == target
    assert SAR.objects.get(pk=sar.pk).status == target
    last = SARTransition.objects.filter(sar=sar).last()
    assert (last.from_status, last.to_status, last.actor, last.note) == (source, target, actor, "checked")
    assert AuditLog.objects.filter(action="sar.transition", object_id=str(sar.pk)).count() == (
        SARTransition.objects.filter(sar=sar).count()
    )


@pytest.mark.parametrize("source,target", sorted(set(ALL_PAIRS) - ALLOWED))
def test_every_move_outside_the_table_is_refused_with_invalid_transition(subject, crew, source, target):
    sar = sar_in(source, subject, crew)
    history = SARTransition.objects.filter(sar=sar).count()
    with pytest.raises(InvalidTransition) as caught:
        move(sar, crew["admin"], target)
    assert caught.value.status == 409
    assert caught.value.message == f"Cannot move SAR from {source} to {target}"
    assert SAR.objects.get(pk=sar.pk).status == source
    assert SARTransition.objects.filter(sar=sar).count() == history


def test_the_reviewer_cannot_be_the_filer(make_sar, crew):
    sar = make_sar(SARStatus.PENDING_REVIEW)
    with pytest.raises(FourEyesRequired) as caught:
        move(sar, crew["filer"], SARStatus.PENDING_APPROVAL)
    assert (caught.value.status, caught.value.code) == (403, "FOUR_EYES_REQUIRED")
    assert SAR.objects.get(pk=sar.pk).status == SARStatus.PENDING_REVIEW


def test_the_approver_cannot_be_the_filer(subject, crew):
    mlro_filer = StaffFactory(role=StaffRole.MLRO)
    sar = file_sar(subject, mlro_filer)
    move(sar, mlro_filer, SARStatus.PENDING_REVIEW)
    move(sar, crew["reviewer"], SARStatus.PENDING_APPROVAL)
    with pytest.raises(FourEyesRequired):
        move(sar, mlro_filer, SARStatus.SUBMITTED)


def test_the_approver_cannot_be_the_reviewer(subject, crew):
    sar = file_sar(subject, crew["filer"])
    move(sar, crew["filer"], SARStatus.PENDING_REVIEW)
    move(sar, crew["approver"], SARStatus.PENDING_APPROVAL)
    with pytest.raises(FourEyesRequired):
        move(sar, crew["approver"], SARStatus.SUBMITTED)
    assert SAR.objects.get(pk=sar.pk).approved_by is None


def test_a_compliance_officer_cannot_approve(make_sar, crew):
    sar = make_sar(SARStatus.PENDING_APPROVAL)
    other_officer = StaffFactory(role=StaffRole.COMPLIANCE_OFFICER)
    with pytest.raises(Forbidden) as caught:
        move(sar, other_officer, SARStatus.SUBMITTED)
    assert caught.value.code == "FORBIDDEN"


@pytest.mark.parametrize(
    "state,target",
    [
        (SARStatus.SUBMITTED, SARStatus.ACKNOWLEDGED),
        (SARStatus.ACKNOWLEDGED, SARStatus.UNDER_INVESTIGATION),
        (SARStatus.ACKNOWLEDGED, SARStatus.CLOSED),
        (SARStatus.UNDER_INVESTIGATION, SARStatus.CLOSED),
    ],
)
def test_moves_after_approval_belong_to_the_mlro(make_sar, crew, state, target):
    sar = make_sar(state)
    with pytest.raises(Forbidden):
        move(sar, crew["reviewer"], target)


@pytest.mark.parametrize("role", [StaffRole.SUPPORT, StaffRole.FINANCE])
def test_support_and_finance_cannot_move_a_sar_at_all(make_sar, role):
    sar = make_sar(SARStatus.DRAFT)
    with pytest.raises(Forbidden):
        move(sar, StaffFactory(role=role), SARStatus.PENDING_REVIEW)


def test_review_and_approval_stamp_the_people_and_times(make_sar, crew):
    sar = make_sar(SARStatus.SUBMITTED)
    assert sar.reviewed_by == crew["reviewer"] and sar.reviewed_at is not None
    assert sar.approved_by == crew["approver"] and sar.approved_at is not None
    assert sar.submitted_at == sar.approved_at


def test_acknowledgement_keeps_the_fiu_reference(make_sar, crew):
    sar = make_sar(SARStatus.SUBMITTED)
    sar = move(sar, crew["approver"], SARStatus.ACKNOWLEDGED, fiu_reference="FIU-2026-0042")
    assert sar.fiu_reference == "FIU-2026-0042" and sar.acknowledged_at is not None


def test_an_unknown_status_is_a_validation_error(make_sar, crew):
    with pytest.raises(ValidationFailed):
        move(make_sar(), crew["admin"], "APPROVED")


def test_the_status_field_cannot_be_assigned_directly(make_sar):
    sar = make_sar()
    with pytest.raises(AttributeError):
        sar.status = SARStatus.SUBMITTED


def test_the_database_refuses_a_reviewer_who_filed_the_report(make_sar, crew):
    sar = make_sar()
    with pytest.raises(IntegrityError), transaction.atomic():
        SAR.objects.filter(pk=sar.pk).update(reviewed_by=crew["filer"])


def test_the_database_refuses_an_approver_who_reviewed_the_report(make_sar, crew):
    sar = make_sar(SARStatus.PENDING_APPROVAL)
    with pytest.raises(IntegrityError), transaction.atomic():
        SAR.objects.filter(pk=sar.pk).update(approved_by=crew["reviewer"])
