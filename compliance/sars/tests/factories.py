"""SARs filed through the SAR service (a DRAFT with its filer, as the API leaves it)."""

import datetime as dt
from decimal import Decimal

import factory

from backoffice.choices import StaffRole
from backoffice.tests.factories import StaffFactory
from compliance.sars.choices import ActivityType
from compliance.sars.models import SAR
from compliance.sars.services.sar import sar_create
from kyc.tests.factories import PlatformUserFactory


class SARFactory(factory.Factory):
    """A DRAFT filed by a new compliance officer about a new user; move it on with ``sar_transition``."""

    class Meta:
        model = SAR

    actor = factory.SubFactory(StaffFactory, role=StaffRole.COMPLIANCE_OFFICER)
    entity_user_id = factory.LazyFunction(lambda: PlatformUserFactory().pk)
    suspicious_activity_type = ActivityType.STRUCTURING
    activity_description = "Nine deposits of SZL 4,900 in two days"
    date_of_suspicious_activity = factory.LazyFunction(lambda: dt.date.today() - dt.timedelta(days=3))
    amount_involved = Decimal("44100.00")

    @classmethod
    def _create(cls, model_class, *args, **fields):
        return sar_create(**fields)
