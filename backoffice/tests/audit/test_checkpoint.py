"""Signed checkpoints (Ed25519) catch what the chain alone cannot: a log rewritten from the start."""

import base64
import json

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat, PublicFormat

from backoffice.errors import DomainError
from backoffice.models import AuditLog
from backoffice.services.audit_verify import Reason, audit_checkpoint_make, audit_verify, checkpoint_read
from backoffice.tests.audit.helpers import rehash_from, write_entries

pytestmark = pytest.mark.django_db


def new_key() -> tuple[str, str]:
    key = Ed25519PrivateKey.generate()
    private = key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
    public = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    return base64.b64encode(private).decode(), base64.b64encode(public).decode()


@pytest.fixture
def signing(settings):
    settings.AUDIT_SIGNING_KEY, public = new_key()
    return public


def test_a_checkpoint_signs_the_head_and_reads_back(signing):
    write_entries(3)
    checkpoint = audit_checkpoint_make()
    assert (checkpoint.sequence, checkpoint.hash) == (3, AuditLog.objects.get(sequence=3).hash)
    assert checkpoint.public_key == signing
    read = checkpoint_read(json.dumps(checkpoint.as_json()))
    assert read == checkpoint
    assert audit_verify(checkpoint=read).intact


def test_a_chain_rewritten_from_the_start_is_caught_by_the_checkpoint(signing):
    write_entries(4)
    checkpoint = checkpoint_read(json.dumps(audit_checkpoint_make().as_json()))
    AuditLog.objects.filter(sequence=2).update(changes={"n": 2, "x": 0.25})
    rehash_from(1)
    assert audit_verify().intact  # every hash recomputed: the chain alone cannot tell
    result = audit_verify(checkpoint=checkpoint)
    assert (result.first_broken.sequence, result.first_broken.reason) == (4, Reason.CHECKPOINT_MISMATCH)


def test_a_chain_cut_before_the_checkpoint_is_caught(signing):
    write_entries(4)
    checkpoint = checkpoint_read(json.dumps(audit_checkpoint_make().as_json()))
    AuditLog.objects.filter(sequence__gte=3).delete()
    rehash_from(1)
    assert audit_verify(checkpoint=checkpoint).first_broken.reason == Reason.CHECKPOINT_MISMATCH


def test_a_forged_or_foreign_checkpoint_is_refused(signing, settings):
    write_entries(2)
    data = audit_checkpoint_make().as_json()
    with pytest.raises(DomainError, match="signature"):
        checkpoint_read(json.dumps({**data, "sequence": 1}))
    # signed by another key: refused although the file carries that key (only a key we hold is trusted)
    settings.AUDIT_SIGNING_KEY, other_public = new_key()
    foreign = audit_checkpoint_make().as_json()
    settings.AUDIT_SIGNING_KEY = None
    with pytest.raises(DomainError, match="signature"):
        checkpoint_read(json.dumps(foreign), public_key=signing)
    assert checkpoint_read(json.dumps(foreign), public_key=other_public).sequence == 2
    with pytest.raises(DomainError, match="not a checkpoint"):
        checkpoint_read("{not json", public_key=signing)


def test_no_key_no_checkpoint(settings):
    settings.AUDIT_SIGNING_KEY = None
    with pytest.raises(DomainError) as info:
        audit_checkpoint_make()
    assert info.value.code == "AUDIT_SIGNING_KEY_MISSING"
