"""Beat's watch verifies the newest entries and raises a CRITICAL alarm the moment the chain breaks: a log line,
a metric, a dashboard card; a whole intact walk clears it."""

import logging

import pytest
from django.core.cache import cache
from prometheus_client import REGISTRY

from backoffice.background import audit_checkpoint
from backoffice.choices import StaffRole
from backoffice.models import AuditLog
from backoffice.services.audit_verify import audit_chain_alarm, audit_verify, audit_watch
from backoffice.tests.audit.helpers import write_entries
from backoffice.tests.factories import StaffFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def clean_cache():
    cache.clear()
    yield
    cache.clear()


def breaks() -> float:
    return REGISTRY.get_sample_value("vikela_audit_chain_breaks_total") or 0.0


def test_the_watch_walks_only_what_is_new_then_flags_a_break(caplog, client):
    write_entries(4)
    assert audit_watch().entries == 4
    write_entries(2)
    assert audit_watch().entries == 3  # from the last verified entry on, itself included
    before = breaks()
    AuditLog.objects.filter(sequence=6).update(action="forged")
    with caplog.at_level(logging.CRITICAL, logger="backoffice.audit"):
        result = audit_watch()
    assert not result.intact
    assert breaks() == before + 1
    assert any(r.levelno == logging.CRITICAL and "entry 6" in r.getMessage() for r in caplog.records)
    assert audit_chain_alarm()["sequence"] == 6
    client.force_login(StaffFactory(role=StaffRole.ADMIN))
    page = client.get("/admin/").content.decode()
    assert "Audit chain BROKEN" in page


def test_a_changed_entry_the_watch_already_passed_sends_it_back_to_the_start():
    write_entries(3)
    audit_watch()
    AuditLog.objects.filter(sequence=3).update(object_id="changed")
    write_entries(1)
    result = audit_watch()
    assert not result.intact and result.first_broken.sequence == 3


def test_an_intact_walk_clears_the_alarm():
    write_entries(2)
    AuditLog.objects.filter(sequence=1).update(object_id="changed")
    audit_watch()
    assert audit_chain_alarm()
    AuditLog.objects.filter(sequence=1).update(object_id="1")
    from backoffice.services.audit_verify import audit_record_outcome

    audit_record_outcome(audit_verify())
    assert audit_chain_alarm() is None


def test_the_daily_checkpoint_is_written_where_configured(settings, tmp_path):
    settings.AUDIT_CHECKPOINT_DIR = None
    assert audit_checkpoint() is None
    settings.AUDIT_SIGNING_KEY = "A" * 43 + "="
    settings.AUDIT_CHECKPOINT_DIR = str(tmp_path / "checkpoints")
    write_entries(1)
    path = audit_checkpoint()
    assert path and (tmp_path / "checkpoints").exists() and '"sequence": 1' in open(path).read()


def test_a_broken_chain_is_never_signed(settings, tmp_path):
    settings.AUDIT_SIGNING_KEY = "A" * 43 + "="
    settings.AUDIT_CHECKPOINT_DIR = str(tmp_path)
    write_entries(2)
    AuditLog.objects.filter(sequence=1).update(object_id="changed")
    assert audit_checkpoint() is None
    assert not list(tmp_path.iterdir())
    assert audit_chain_alarm()["sequence"] == 1
