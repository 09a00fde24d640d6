"""Cash held by a rule counts towards the day's threshold report once an officer releases it, not before."""

import pytest

from compliance.aml.tests.transactions.helpers import make_rule
from compliance.reporting.models import ThresholdReport
from compliance.reporting.tests.threshold.helpers import cash
from kyc.choices import TransactionStatus
from kyc.services.ledger import held_transaction_release

pytestmark = pytest.mark.django_db


def test_a_held_cash_deposit_opens_the_report_when_it_is_released(rule, customer, staff):
    make_rule("threshold", action="hold", thresholdAmount=20000)
    held = cash(customer, 30000)
    assert held.status == TransactionStatus.HELD
    assert not ThresholdReport.objects.exists()  # no money moved: nothing to report yet

    released = held_transaction_release(
        transaction_id=held.pk, actor=staff["officer"], note="Salary bonus, payslip seen"
    )
    assert released.status == TransactionStatus.COMPLETED
    report = ThresholdReport.objects.get(user=customer)
    assert report.total == 30000 and list(report.transactions.values_list("pk", flat=True)) == [held.pk]
