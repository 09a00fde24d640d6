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
from functools import lru_cache

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from django.conf import settings

# marks a sealed value and its scheme, so a later scheme can be told apart and a plaintext left by an older version
# is recognised (and refused) instead of being fed to the cipher
PREFIX = "sealed:v1:"


class Unsealable(Exception):
    """A sealed value that none of the configured keys opens (``SECRET_KEY`` changed without its fallback)."""


@lru_cache(maxsize=32)
def _cipher(purpose: str, keys: tuple[str, ...]) -> MultiFernet:
    ciphers = []
    for key in keys:
        derived = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=f"vikela.sealing.{purpose}".encode())
        ciphers.append(Fernet(base64.urlsafe_b64encode(derived.derive(key.encode()))))
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
        raise Unsealable(
            "no configured key opens the value (SECRET_KEY changed without the old one in SECRET_KEY_FALLBACKS?)"
        ) from None


def is_current(sealed: str, *, purpose: str) -> bool:
    """Whether ``sealed`` opens with the current ``SECRET_KEY`` itself (not only with a fallback)."""
    if not sealed.startswith(PREFIX):
        return False
    try:
        _cipher(purpose, _keys()[:1]).decrypt(sealed.removeprefix(PREFIX).encode())
    except InvalidToken:
        return False
    return True
