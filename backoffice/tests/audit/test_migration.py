"""The migration that introduced the chain chains the entries written before it, in the order they were written."""

from importlib import import_module

import pytest
from django.apps import apps

from backoffice.models import AuditChainHead, AuditLog
from backoffice.services.audit_verify import audit_verify
from backoffice.tests.audit.helpers import write_entries

pytestmark = pytest.mark.django_db

migration = import_module("backoffice.migrations.0006_chain_existing_audit_entries")


def test_existing_entries_are_chained_in_their_order_and_verify():
    write_entries(5)
    # as before the chain: entries with no place in it (values the old rows could not have had)
    AuditLog.objects.update(digest="", hash="")
    AuditChainHead.objects.all().delete()
    migration.chain(apps, None)
    assert audit_verify().intact
    ids = list(AuditLog.objects.order_by("sequence").values_list("id", flat=True))
    assert ids == sorted(ids)
    assert AuditChainHead.objects.get().sequence == 5
