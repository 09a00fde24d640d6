"""The audit chain's checkpoints and its watch (docs/audit-chain.md)."""

import base64
import binascii

from django.core.exceptions import ImproperlyConfigured

from backoffice.env import env_int, env_str

# The Ed25519 private key that signs checkpoints of the audit chain: base64 of its 32 raw bytes (docs/audit-chain.md
# shows how to make one). Unset: `audit_checkpoint` refuses and beat makes no checkpoint. Keep it out of the
# database's reach, like the checkpoints themselves.
AUDIT_SIGNING_KEY = env_str("AUDIT_SIGNING_KEY")
if AUDIT_SIGNING_KEY is not None:
    try:
        _raw = base64.b64decode(AUDIT_SIGNING_KEY.strip(), validate=True)
    except (binascii.Error, ValueError):
        raise ImproperlyConfigured("AUDIT_SIGNING_KEY must be base64 (of a 32-byte Ed25519 private key)") from None
    if len(_raw) != 32:
        raise ImproperlyConfigured(
            f"AUDIT_SIGNING_KEY must decode to 32 bytes (an Ed25519 private key), not {len(_raw)}"
        )

# Where beat writes its daily signed checkpoint (a folder the database's users cannot write; mount it from another
# machine or sync it to object storage with object lock). Unset: no daily checkpoint.
AUDIT_CHECKPOINT_DIR = env_str("AUDIT_CHECKPOINT_DIR")

# How often beat verifies the entries written since its last verification (seconds).
AUDIT_VERIFY_EVERY_SECONDS = env_int("AUDIT_VERIFY_EVERY_SECONDS", 300, minimum=10)
