"""Admin pages of KYC users: list, detail, credit form, archive and restore, all through the services."""

from decimal import Decimal

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from backoffice.models import AuditLog
from backoffice.tests.factories import StaffFactory
from kyc.models import Transaction
from kyc.services import transaction_record
from kyc.tests.factories import KycDocumentFactory, PlatformUserFactory

pytestmark = pytest.mark.django_db

CHANGELIST = "admin:kyc_platformuser_changelist"


def browser(role):
    staff = StaffFactory(role=role)
    client = Client()
    client.force_login(staff)
    return client, staff


def change_url(user):
    return reverse("admin:kyc_platformuser_change", args=[user.pk])


FORM_KEY = "0123456789abcdef0123456789abcdef"


def credit_url(user, key=FORM_KEY):
    return change_url(user).replace("/change/", "/credit/") + (f"?key={key}" if key else "")


def test_the_user_list_shows_badges_and_searches_like_the_api():
    client, _ = browser("support")
    PlatformUserFactory(first_name="Gcina", last_name="Nxumalo", verification_status="REJECTED", risk_rating="HIGH")
    PlatformUserFactory(first_name="Other", last_name="Person")
    response = client.get(reverse(CHANGELIST), {"q": "nxum"})
    assert response.status_code == 200
    html = response.content.decode()
    assert "Gcina Nxumalo" in html and "Other Person" not in html
    assert "REJECTED" in html and "HIGH" in html


def test_the_user_list_shows_active_users_unless_archived_are_asked_for():
    client, _ = browser("support")
    PlatformUserFactory(first_name="Activeperson")
    PlatformUserFactory(first_name="Archivedperson", is_archived=True)
    active = client.get(reverse(CHANGELIST)).content.decode()
    assert "Activeperson" in active and "Archivedperson" not in active
    archived = client.get(reverse(CHANGELIST), {"state": "archived"}).content.decode()
    assert "Archivedperson" in archived and "Activeperson" not in archived


def test_the_detail_page_shows_documents_as_signed_images_the_ledger_and_the_timeline(media):
    client, _ = browser("compliance_officer")
    user = PlatformUserFactory()
    KycDocumentFactory(user=user, type="ID_FRONT")
    transaction_record(user=user, type="TOP_UP", amount=Decimal("75.00"), reason="")
    html = client.get(change_url(user)).content.decode()
    assert '<img src="/api/v1/files/' in html
    assert "/media/" not in html
    assert "Top-up" in html and "75.00" in html
    assert "Account registered" in html


def test_money_fields_are_read_only_on_the_detail_page():
    client, _ = browser("admin")
    user = PlatformUserFactory()
    html = client.get(change_url(user)).content.decode()
    assert 'name="balance"' not in html
    assert 'name="first_name"' in html


def test_editing_names_goes_through_the_service_and_is_audited():
    client, _ = browser("support")
    user = PlatformUserFactory(first_name="Before", last_name="Same", email="same@example.com")
    response = client.post(
        change_url(user), {"first_name": "After", "last_name": "Same", "email": "same@example.com", "_save": "Save"}
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.first_name == "After"
    assert AuditLog.objects.get(action="user.update").changes == {"first_name": {"from": "Before", "to": "After"}}


def test_finance_credits_a_wallet_through_the_form():
    client, staff = browser("finance")
    user = PlatformUserFactory()
    form = client.get(credit_url(user))
    assert form.status_code == 200
    key = form.context["form"].initial["idempotency_key"]
    body = {"amount": "120.50", "reason": "Promotion", "confirm": "on", "idempotency_key": key}
    response = client.post(credit_url(user), body)
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.balance == Decimal("120.50")
    row = Transaction.objects.get(user=user)
    assert (row.type, row.actor_id, row.reason) == ("ADMIN_CREDIT", staff.pk, "Promotion")
    assert AuditLog.objects.filter(action="user.credit", actor=staff).count() == 1
    # the browser resubmits the same form: no second credit
    client.post(credit_url(user), body)
    user.refresh_from_db()
    assert user.balance == Decimal("120.50")


def test_a_new_credit_form_gets_its_key_in_its_url_so_back_and_resubmit_keep_it():
    client, _ = browser("finance")
    user = PlatformUserFactory()
    first = client.get(credit_url(user, key=None))
    second = client.get(credit_url(user, key=None))
    assert first.status_code == second.status_code == 302
    assert first["Location"].startswith(credit_url(user, key=None) + "?key=")
    assert first["Location"] != second["Location"]  # each new form its own key
    key = first["Location"].rsplit("=", 1)[1]
    # the same URL again (Back, then the browser fetches the page anew) renders the same key
    again = client.get(credit_url(user, key=key))
    assert again.context["form"].initial["idempotency_key"] == key


def test_resubmitting_a_used_credit_form_credits_nothing_and_says_so():
    client, staff = browser("finance")
    user = PlatformUserFactory()
    body = {"amount": "40.00", "reason": "Promotion", "confirm": "on", "idempotency_key": "ignored"}
    client.post(credit_url(user), body)
    replay = client.post(credit_url(user), body, follow=True)
    assert "already applied" in replay.content.decode()
    edited = client.post(credit_url(user), {**body, "amount": "41.00"}, follow=True)
    assert "already used for another credit" in edited.content.decode()
    user.refresh_from_db()
    assert user.balance == Decimal("40.00") and Transaction.objects.filter(user=user).count() == 1


def test_the_credit_form_requires_confirmation_and_a_valid_amount():
    client, _ = browser("finance")
    user = PlatformUserFactory()
    response = client.post(credit_url(user), {"amount": "10.999", "reason": "x", "idempotency_key": "k"})
    assert response.status_code == 200
    assert set(response.context["form"].errors) == {"amount", "confirm"}
    assert not Transaction.objects.exists()


def test_support_may_not_open_the_credit_form():
    client, _ = browser("support")
    assert client.get(credit_url(PlatformUserFactory())).status_code == 403


def test_archive_and_restore_from_the_detail_page():
    client, _ = browser("compliance_officer")
    user = PlatformUserFactory()
    archive = change_url(user).replace("/change/", "/archive/")
    assert client.get(archive).status_code == 200  # confirmation page, nothing changed yet
    user.refresh_from_db()
    assert not user.is_archived
    client.post(archive)
    user.refresh_from_db()
    assert user.is_archived
    client.post(change_url(user).replace("/change/", "/restore/"))
    user.refresh_from_db()
    assert not user.is_archived
    assert [e.action for e in AuditLog.objects.order_by("id")] == ["user.archive", "user.unarchive"]


def test_the_page_offers_archive_or_restore_as_the_users_state_allows():
    client, _ = browser("compliance_officer")
    user = PlatformUserFactory()
    archive, restore = (change_url(user).replace("/change/", f"/{verb}/") for verb in ("archive", "restore"))

    with CaptureQueriesContext(connection) as queries:
        page = client.get(change_url(user)).content.decode()
    assert archive in page and restore not in page
    # both buttons' checks share one look at the user's state
    assert sum('"is_archived" FROM' in q["sql"] for q in queries.captured_queries) == 1
    assert client.post(restore).status_code == 403  # nothing to restore
    client.post(archive)
    page = client.get(change_url(user)).content.decode()
    assert restore in page and archive not in page
    assert client.post(archive).status_code == 403  # archived already
    user.refresh_from_db()
    assert user.is_archived
    assert [e.action for e in AuditLog.objects.order_by("id")] == ["user.archive"]


def test_bulk_archive_from_the_list():
    client, _ = browser("mlro")
    users = PlatformUserFactory.create_batch(2)
    client.post(reverse(CHANGELIST), {"action": "archive_selected", "_selected_action": [u.pk for u in users]})
    assert all(u.is_archived for u in (type(users[0]).objects.filter(pk__in=[u.pk for u in users])))


def test_support_cannot_archive_from_the_detail_page():
    client, _ = browser("support")
    user = PlatformUserFactory()
    assert client.post(change_url(user).replace("/change/", "/archive/")).status_code == 403
    user.refresh_from_db()
    assert not user.is_archived


def test_the_ledger_page_is_read_only_and_the_dashboard_shows_user_cards():
    client, _ = browser("finance")
    user = PlatformUserFactory()
    transaction_record(user=user, type="TOP_UP", amount=Decimal("5.00"))
    assert client.get(reverse("admin:kyc_transaction_changelist")).status_code == 200
    whole_ledger = client.get(reverse("admin:kyc_transaction_changelist"), {"user__id__exact": user.pk})
    assert whole_ledger.status_code == 200 and "5.00" in whole_ledger.content.decode()
    dashboard = client.get(reverse("admin:index")).content.decode()
    assert "Pending verification" in dashboard


def test_a_duplicate_email_is_refused_in_plain_words():
    from kyc.tests.factories import PlatformUserFactory

    client, _ = browser("support")
    PlatformUserFactory(email="taken@example.com")
    user = PlatformUserFactory(first_name="Keep", email="mine@example.com")
    r = client.post(
        change_url(user), {"first_name": "Changed", "last_name": user.last_name, "email": "taken@example.com"}
    )
    assert r.status_code == 200 and "An account with this email already exists." in r.content.decode()
    user.refresh_from_db()
    assert (user.first_name, user.email) == ("Keep", "mine@example.com")


def test_a_service_refusal_comes_back_as_a_message_not_an_error_page(monkeypatch):
    from backoffice.errors import Conflict
    from kyc import services
    from kyc.tests.factories import PlatformUserFactory

    def refuse(**kwargs):
        raise Conflict("Refused by the service", details={"email": ["Not now."]})

    monkeypatch.setattr(services, "user_update", refuse)
    client, _ = browser("support")
    user = PlatformUserFactory(first_name="Keep")
    r = client.post(change_url(user), {"first_name": "Changed", "last_name": user.last_name, "email": ""}, follow=True)
    assert r.status_code == 200
    assert "Refused by the service (email: Not now.)" in r.content.decode()
    user.refresh_from_db()
    assert user.first_name == "Keep"
