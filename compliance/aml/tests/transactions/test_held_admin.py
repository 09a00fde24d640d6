"""The held queue in the admin site: oldest first, the decision page, release and reject with a note, roles."""

import datetime as dt
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from backoffice.choices import StaffRole
from backoffice.tests.factories import StaffFactory
from compliance.aml.models.alerts import Alert
from compliance.aml.services.held import held_escalate
from compliance.aml.tests.transactions.helpers import make_rule
from compliance.casework.models import CaseComment
from kyc.models import PlatformUser, Transaction, TransactionEvent
from kyc.services import transaction_record

pytestmark = pytest.mark.django_db

QUEUE = "admin:compliance_heldtransaction_changelist"


def browser(role=StaffRole.COMPLIANCE_OFFICER):
    client = Client()
    staff = StaffFactory(role=role, first_name="Nomsa", last_name="Dube")
    client.force_login(staff)
    return client, staff


@pytest.fixture
def held(user, django_capture_on_commit_callbacks):
    make_rule("threshold", action="hold", thresholdAmount=500)
    with django_capture_on_commit_callbacks(execute=True):
        older = transaction_record(
            user=user, type="WITHDRAWAL", amount=Decimal("600"), created_at=timezone.now() - dt.timedelta(hours=30)
        )
        newer = transaction_record(user=user, type="WITHDRAWAL", amount=Decimal("700"))
    assert older.status == newer.status == "HELD"
    return older, newer


def test_the_queue_lists_held_rows_oldest_first_with_their_rules(held):
    client, _ = browser()
    page = client.get(reverse(QUEUE)).content.decode()
    older, newer = held
    assert page.index(f"/{older.pk}/change/") < page.index(f"/{newer.pk}/change/")
    assert "(escalated)" in page and page.count("(escalated)") == 1
    assert "SZL 600.00" in page and older.hits[0]["rule_id"] in page


def test_release_from_the_page_moves_the_money_and_notes_the_alert(held, user):
    older, _ = held
    client, officer = browser()
    page = client.get(reverse("admin:compliance_heldtransaction_change", args=[older.pk])).content.decode()
    assert "Why it was stopped" in page and older.hits[0]["rule_id"] in page and "Balance SZL 1000.00" in page
    decide = reverse("admin:compliance_heldtransaction_decide", args=[older.pk])
    r = client.post(decide, {"op": "release", "note": ""}, follow=True)
    assert "A note is required" in r.content.decode()
    assert Transaction.objects.get(pk=older.pk).status == "HELD"
    r = client.post(decide, {"op": "release", "note": "Rent, lease seen"}, follow=True)
    assert r.status_code == 200 and "released" in r.content.decode()
    tx = Transaction.objects.get(pk=older.pk)
    assert (tx.status, tx.reviewed_by, tx.review_note) == ("COMPLETED", officer, "Rent, lease seen")
    assert PlatformUser.objects.get(pk=user.pk).balance == Decimal("400.00")
    comment = CaseComment.objects.get(alert__related_transactions=tx)
    assert "released" in comment.text and "Rent, lease seen" in comment.text
    page = client.get(reverse("admin:compliance_heldtransaction_change", args=[older.pk])).content.decode()
    assert "Rent, lease seen" in page and 'name="op"' not in page
    alert = Alert.objects.get(related_transactions=tx)
    alert_page = client.get(reverse("admin:compliance_alert_change", args=[alert.pk])).content.decode()
    assert "Completed (hold for review)" in alert_page and "Rent, lease seen" in alert_page


def test_reject_from_the_page_moves_nothing(held, user):
    _, newer = held
    client, _ = browser(StaffRole.MLRO)
    decide = reverse("admin:compliance_heldtransaction_decide", args=[newer.pk])
    client.post(decide, {"op": "reject", "note": "Mule pattern"})
    assert Transaction.objects.get(pk=newer.pk).status == "REJECTED"
    assert PlatformUser.objects.get(pk=user.pk).balance == Decimal("1000.00")
    customer_page = client.get(reverse("admin:kyc_platformuser_change", args=[user.pk])).content.decode()
    assert "Rejected after review (hold for review)" in customer_page


def test_each_decision_leaves_one_history_row_shown_on_the_held_and_ledger_pages(held):
    older, newer = held
    client, officer = browser(StaffRole.MLRO)
    client.post(reverse("admin:compliance_heldtransaction_decide", args=[older.pk]), {"op": "release", "note": "Rent"})
    client.post(reverse("admin:compliance_heldtransaction_decide", args=[newer.pk]), {"op": "reject", "note": "Mule"})
    # a second decision on a decided row is refused and writes nothing
    client.post(reverse("admin:compliance_heldtransaction_decide", args=[older.pk]), {"op": "reject", "note": "Late"})
    rows = TransactionEvent.objects.order_by("transaction__created_at").values_list(
        "transaction", "from_status", "to_status", "actor", "note"
    )
    assert list(rows) == [
        (older.pk, "HELD", "COMPLETED", officer.pk, "Rent"),
        (newer.pk, "HELD", "REJECTED", officer.pk, "Mule"),
    ]
    page = client.get(reverse("admin:compliance_heldtransaction_change", args=[older.pk])).content.decode()
    assert 'data-testid="held-history"' in page and "Held for review" in page and "Nomsa Dube" in page
    admin_client, _ = browser(StaffRole.ADMIN)
    ledger_page = admin_client.get(reverse("admin:kyc_transaction_change", args=[newer.pk])).content.decode()
    assert "History (the decision on a held row)" in ledger_page and "Rejected after review" in ledger_page
    assert "Mule" in ledger_page


@pytest.mark.parametrize("role", [StaffRole.SUPPORT, StaffRole.FINANCE])
def test_support_and_finance_never_open_the_queue(held, role):
    client, _ = browser(role)
    older, _ = held
    assert client.get(reverse(QUEUE)).status_code == 403
    client.post(reverse("admin:compliance_heldtransaction_decide", args=[older.pk]), {"op": "release", "note": "x"})
    assert Transaction.objects.get(pk=older.pk).status == "HELD"


def test_a_transaction_held_too_long_escalates_its_alert_once_and_the_dashboard_says_so(held):
    older, newer = held
    assert held_escalate() == 1 and held_escalate() == 0
    assert Alert.objects.get(related_transactions=older).status == "ESCALATED"
    assert Alert.objects.get(related_transactions=newer).status == "OPEN"
    client, _ = browser()
    dashboard = client.get(reverse("admin:index")).content.decode()
    assert "Held too long" in dashboard and "Held transactions" in dashboard
