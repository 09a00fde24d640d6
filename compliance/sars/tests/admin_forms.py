"""SARs' fixtures for ``backoffice.tests.admin.test_admin_forms_submitted``: a draft (its page is read-only; drafts are
edited on their own page, whose tests submit it)."""

import datetime as dt
from decimal import Decimal

from backoffice.choices import StaffRole
from backoffice.tests.factories import StaffFactory
from compliance.sars.services.sar import sar_create
from kyc.tests.factories import PlatformUserFactory


def _sar():
    return sar_create(
        actor=StaffFactory(role=StaffRole.COMPLIANCE_OFFICER),
        entity_user_id=PlatformUserFactory().pk,
        suspicious_activity_type="structuring",
        activity_description="Nine deposits of SZL 4,900 in two days",
        date_of_suspicious_activity=dt.date.today() - dt.timedelta(days=3),
        amount_involved=Decimal("44100.00"),
    )


INSTANCES = {"compliance.SAR": _sar}
