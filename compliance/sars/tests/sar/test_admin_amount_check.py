"""A SAR whose amount involved differs from the total of the transactions it cites is flagged: on its admin page
and on the draft form (a warning: the amount may rightly differ, the officer must see it)."""

from decimal import Decimal

import pytest
from django.urls import reverse

from compliance.sars.tests.sar.helpers import draft_form, file_sar, signed_in
from kyc.tests.factories import TransactionFactory

WARNING = "differs from the total of the cited transactions"


@pytest.fixture
def cited(subject):
    return [TransactionFactory(user=subject, amount=Decimal("4900.00")) for _ in range(3)]  # SZL 14,700.00


def test_the_sar_page_warns_when_the_amount_differs_from_the_cited_total(client, crew, subject, cited):
    sar = file_sar(
        subject, crew["filer"], amount_involved=Decimal("44100.00"), related_transaction_ids=[t.pk for t in cited]
    )
    page = signed_in(client, crew["reviewer"]).get(reverse("admin:compliance_sar_change", args=[sar.pk]))
    text = page.content.decode()
    assert WARNING in text
    assert "SZL 44,100.00" in text and "SZL 14,700.00" in text and "SZL 29,400.00" in text


def test_no_warning_when_the_amount_is_the_cited_total_or_nothing_is_cited(client, crew, subject, cited):
    same = file_sar(
        subject, crew["filer"], amount_involved=Decimal("14700.00"), related_transaction_ids=[t.pk for t in cited]
    )
    alone = file_sar(subject, crew["filer"], amount_involved=Decimal("500.00"))
    signed_in(client, crew["reviewer"])
    for sar in (same, alone):
        assert WARNING not in client.get(reverse("admin:compliance_sar_change", args=[sar.pk])).content.decode()


def test_the_draft_form_warns_on_the_page_and_after_saving(client, crew, subject, cited):
    sar = file_sar(
        subject, crew["filer"], amount_involved=Decimal("14700.00"), related_transaction_ids=[t.pk for t in cited]
    )
    signed_in(client, crew["filer"])
    url = reverse("admin:compliance_sar_edit", args=[sar.pk])
    assert WARNING not in client.get(url).content.decode()
    chosen = {"related_transactions": [str(t.pk) for t in cited[:2]]}  # SZL 9,800.00 cited, 14,700.00 claimed
    saved = client.post(url, {**draft_form(amount_involved="14700.00"), **chosen}, follow=True)
    assert WARNING in saved.content.decode()
    assert WARNING in client.get(url).content.decode()
    # a refused form (a date in the future) shows the warning for what was entered
    refused = client.post(
        url, {**draft_form(date_of_suspicious_activity="2999-01-01", amount_involved="1.00"), **chosen}
    )
    assert refused.status_code == 200 and WARNING in refused.content.decode()
