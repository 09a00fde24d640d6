"""Secrets the product must use again later, sealed at rest.

A webhook endpoint's signing secret cannot be hashed like a password: every delivery signs with it (HMAC needs the
secret itself). So it is stored encrypted (Fernet: AES-CBC with an HMAC, from ``cryptography``) under a key derived
from ``SECRET_KEY`` for one purpose (HKDF-SHA256, the purpose in its info), and opened only when a delivery is
signed. A copy of the database, a backup or a read-only SQL account then yields no usable secret.

Rotating ``SECRET_KEY``: put the old value first in ``SECRET_KEY_FALLBACKS`` (Django's own setting, which also keeps
sessions and reset links valid); sealed values open with any of the keys, and ``manage.py reseal_secrets`` seals
them again under the new key, after which the fallback can go.
"""

import base64
import hashlib
import hmac
import os
from functools import lru_cache

from cryptography.exceptions import InvalidTag
from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from django.conf import settings

# marks a sealed value and its scheme, so a later scheme can be told apart and a plaintext left by an older version
# is recognised (and refused) instead of being fed to the cipher
PREFIX = "sealed:v1:"
NO_KEY_OPENS = "no configured key opens the value (SECRET_KEY changed without the old one in SECRET_KEY_FALLBACKS?)"


class Unsealable(Exception):
    """A sealed value that none of the configured keys opens (``SECRET_KEY`` changed without its fallback)."""


@lru_cache(maxsize=32)
def _cipher(purpose: str, keys: tuple[str, ...]) -> MultiFernet:
    ciphers = []
    for key in keys:
        ciphers.append(Fernet(base64.urlsafe_b64encode(_derive(key, f"vikela.sealing.{purpose}"))))
    return MultiFernet(ciphers)


def _keys() -> tuple[str, ...]:
    return (settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS)


def seal(plain: str, *, purpose: str) -> str:
    """``plain`` encrypted under the current key for ``purpose``; a value for the database, not for anyone's eyes."""
    return PREFIX + _cipher(purpose, _keys()).encrypt(plain.encode()).decode()


def unseal(sealed: str, *, purpose: str) -> str:
    """The plaintext of a value :func:`seal` made with the current key or a fallback, for the same purpose."""
    if not sealed.startswith(PREFIX):
        raise Unsealable("the value is not sealed")
    return _open(sealed, purpose, _keys())


# a sender signs every delivery with its endpoint's secret: each sealed value is opened once per process and set of
# keys (a changed key is another entry), not once per delivery
@lru_cache(maxsize=256)
def _open(sealed: str, purpose: str, keys: tuple[str, ...]) -> str:
    try:
        return _cipher(purpose, keys).decrypt(sealed.removeprefix(PREFIX).encode()).decode()
    except InvalidToken:
        raise Unsealable(NO_KEY_OPENS) from None


def is_current(sealed: str, *, purpose: str) -> bool:
    """Whether ``sealed`` opens with the current ``SECRET_KEY`` itself (not only with a fallback)."""
    if not sealed.startswith(PREFIX):
        return False
    try:
        _cipher(purpose, _keys()[:1]).decrypt(sealed.removeprefix(PREFIX).encode())
    except InvalidToken:
        return False
    return True


# ---------------------------------------------------------------- short values in columns we do not own
# An authenticator app's secret lives in django-otp's column of 80 characters, where a Fernet token (120 characters
# for 20 bytes) does not fit. AES-GCM (the same library) with a 12-byte nonce and its 16-byte tag seals 20 bytes in 48:
# 64 characters of URL-safe base64 after its own prefix. Keys as above: one per purpose, derived from SECRET_KEY and
# each fallback.
SHORT_PREFIX = "s1:"
_NONCE = 12


@lru_cache(maxsize=32)
def _short_keys(purpose: str, keys: tuple[str, ...]) -> tuple[AESGCM, ...]:
    return tuple(AESGCM(_derive(key, f"vikela.sealing.short.{purpose}")) for key in keys)


def _derive(key: str, info: str) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=info.encode()).derive(key.encode())


def seal_short(plain: bytes, *, purpose: str) -> str:
    """``plain`` (a few bytes) sealed under the current key for ``purpose``, in ``SHORT_PREFIX`` + 4/3 of its
    length plus 38 characters."""
    nonce = os.urandom(_NONCE)
    sealed = _short_keys(purpose, _keys())[0].encrypt(nonce, plain, purpose.encode())
    return SHORT_PREFIX + base64.urlsafe_b64encode(nonce + sealed).decode().rstrip("=")


def unseal_short(sealed: str, *, purpose: str) -> bytes:
    """The bytes :func:`seal_short` sealed with the current key or a fallback; Unsealable otherwise, a value that
    is not sealed included (a plaintext written into the column must not be taken for a secret we made)."""
    return _open_short(sealed, purpose, _keys())


@lru_cache(maxsize=256)
def _open_short(sealed: str, purpose: str, keys: tuple[str, ...]) -> bytes:
    if not sealed.startswith(SHORT_PREFIX):
        raise Unsealable("the value is not sealed")
    try:
        raw = base64.urlsafe_b64decode(sealed.removeprefix(SHORT_PREFIX) + "==")
    except ValueError:
        raise Unsealable("the value is not sealed") from None
    for cipher in _short_keys(purpose, keys):
        try:
            return cipher.decrypt(raw[:_NONCE], raw[_NONCE:], purpose.encode())
        except InvalidTag:
            continue
    raise Unsealable(NO_KEY_OPENS)


def is_current_short(sealed: str, *, purpose: str) -> bool:
    """Whether ``sealed`` opens with the current ``SECRET_KEY`` itself (not only with a fallback)."""
    try:
        _open_short(sealed, purpose, _keys()[:1])
    except Unsealable:
        return False
    return True


def digests(value: str, *, purpose: str, length: int = 16) -> list[str]:
    """``value``'s keyed digest (HMAC-SHA256, URL-safe base64 cut to ``length`` characters) under the current key,
    then under each fallback: for a secret that is only ever compared (a recovery code), never used again. The first
    is what to store; a stored one made under an older key is still found among the others."""
    return [
        base64.urlsafe_b64encode(
            hmac.new(_derive(key, f"vikela.digest.{purpose}"), value.encode(), hashlib.sha256).digest()
        ).decode()[:length]
        for key in _keys()
    ]
