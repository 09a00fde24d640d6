"""Comments on a case, as rows (the services add them with their checks and audit entries)."""

import factory

from backoffice.choices import StaffRole
from backoffice.tests.factories import StaffFactory
from compliance.casework.models import CaseComment


class CaseCommentFactory(factory.django.DjangoModelFactory):
    """A comment in an alert's thread: pass ``alert=`` (or ``sar=`` with ``alert=None``)."""

    class Meta:
        model = CaseComment

    author = factory.SubFactory(StaffFactory, role=StaffRole.COMPLIANCE_OFFICER)
    text = factory.Sequence(lambda n: f"Looked at the ledger, note {n}")
    for_report = False
