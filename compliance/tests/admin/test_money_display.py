"""Money reads one way in the whole admin site: ``SZL 1,334.06`` (one helper, ``backoffice.money``, and its
template filter), on every page that shows an amount or a balance."""

from decimal import Decimal

import pytest
from django.template import Context, Template
from django.urls import reverse

from backoffice.choices import StaffRole
from backoffice.money import money
from backoffice.tests.admin_queries import admin_browser
from compliance.aml.tests.alerts.helpers import make_alert, rule  # noqa: F401 - fixtures
from compliance.sars.tests.sar.helpers import file_sar
from kyc.models import CreditRequest
from kyc.tests.factories import PlatformUserFactory, TransactionFactory

SHOWN = "SZL 1,334.06"
RAW = ("1334.06", "1334,06")  # a bare number, a localised one


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Decimal("1334.06"), "SZL 1,334.06"),
        (Decimal("1334.055"), "SZL 1,334.06"),
        (1000000, "SZL 1,000,000.00"),
        ("4999.5", "SZL 4,999.50"),
        (Decimal("-12.5"), "-SZL 12.50"),
        (None, "—"),
    ],
)
def test_the_helper_and_the_filter(value, text):
    assert money(value) == text
    assert Template("{{ v|money }}").render(Context({"v": value})) == text.replace("&", "&amp;")


@pytest.fixture
def pages(db, make_alert):  # noqa: F811
    amount = Decimal("1334.06")
    user = PlatformUserFactory(first_name="Thoko", last_name="Mamba", balance=amount)
    tx = TransactionFactory(user=user, amount=amount, balance_after=amount)
    alert = make_alert(user=user, transactions=0)
    alert.related_transactions.set([tx])
    client = admin_browser(StaffRole.ADMIN)
    sar = file_sar(user, admin_browser_staff(client), amount_involved=amount, related_transaction_ids=[tx.pk])
    credit = CreditRequest.objects.create(
        requested_by=admin_browser_staff(client), user=user, amount=amount, reason="Refund", fingerprint="x"
    )
    return client, {
        "user list": reverse("admin:kyc_platformuser_changelist"),
        "user page": reverse("admin:kyc_platformuser_change", args=[user.pk]),
        "ledger": reverse("admin:kyc_transaction_changelist"),
        "ledger row": reverse("admin:kyc_transaction_change", args=[tx.pk]),
        "alert page": reverse("admin:compliance_alert_change", args=[alert.pk]),
        "SAR list": reverse("admin:compliance_sar_changelist"),
        "SAR page": reverse("admin:compliance_sar_change", args=[sar.pk]),
        "SAR draft": reverse("admin:compliance_sar_edit", args=[sar.pk]),
        "credit list": reverse("admin:kyc_creditrequest_changelist") + "?state=all",
        "credit page": reverse("admin:kyc_creditrequest_change", args=[credit.pk]),
    }


def admin_browser_staff(client):
    from backoffice.models import Staff

    return Staff.objects.get(pk=client.session["_auth_user_id"])


def test_every_page_showing_money_shows_it_one_way(pages):
    client, urls = pages
    for name, url in urls.items():
        response = client.get(url)
        assert response.status_code == 200, (name, response.status_code)
        text = response.content.decode()
        assert SHOWN in text, name
        # the amount's only other form on a page is an input's value (the draft form's amount)
        shown_raw = text.replace('value="1334.06"', "")
        assert not any(raw in shown_raw for raw in RAW), name
