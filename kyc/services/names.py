"""Writes on the users' name index (``UserNameKey``, ``UserNamePart``): kept in step with every name change.

``user_register``, ``user_update`` and the demo seeder call ``user_name_index`` in the transaction that
writes the name, so the index never describes a name the user no longer has. ``user_name_index_rebuild``
(``manage.py index_user_names``) indexes users created before the index existed, or by bulk loaders.
"""

from collections.abc import Callable, Iterable
from functools import lru_cache

from django.db import transaction

from kyc.models import PlatformUser, UserNameKey, UserNamePart
from kyc.name_index import name_parts, stored, user_person
from names import blocking_keys

NAME_FIELDS = ("first_name", "last_name", "names", "surname")


@lru_cache(maxsize=50_000)
def _index_of(first_name: str, last_name: str, names: str, surname: str) -> tuple[frozenset, frozenset]:
    """(keys, parts) of one set of name fields; many users share names, so a rebuild computes each once."""
    person = user_person(first_name=first_name, last_name=last_name, names=names, surname=surname)
    return frozenset(stored(blocking_keys(person))), frozenset(name_parts(person.name))


def _rows(users: Iterable) -> tuple[list[UserNameKey], list[UserNamePart]]:
    keys, parts = [], []
    for user in users:
        user_keys, user_parts = _index_of(*(getattr(user, field) or "" for field in NAME_FIELDS))
        keys.extend(UserNameKey(user_id=user.pk, key=key) for key in sorted(user_keys))
        parts.extend(UserNamePart(user_id=user.pk, part=part) for part in sorted(user_parts))
    return keys, parts


@transaction.atomic
def user_name_index(*, user: PlatformUser) -> int:
    """Replace the user's index rows with those of their current name; returns the number of keys."""
    return _replace([user])


def _replace(users: list) -> int:
    ids = [user.pk for user in users]
    UserNameKey.objects.filter(user_id__in=ids).delete()
    UserNamePart.objects.filter(user_id__in=ids).delete()
    keys, parts = _rows(users)
    UserNameKey.objects.bulk_create(keys, batch_size=2000)
    UserNamePart.objects.bulk_create(parts, batch_size=2000)
    return len(keys)


def user_name_index_rebuild(*, batch_size: int = 2000, progress: Callable[[int], None] | None = None) -> int:
    """Index every user again, in batches of ``batch_size`` (each its own transaction); returns users indexed."""
    done = 0
    last_pk = None
    while True:
        qs = PlatformUser.objects.order_by("pk").only("pk", *NAME_FIELDS)
        if last_pk is not None:
            qs = qs.filter(pk__gt=last_pk)
        batch = list(qs[:batch_size])
        if not batch:
            return done
        with transaction.atomic():
            _replace(batch)
        done += len(batch)
        last_pk = batch[-1].pk
        if progress:
            progress(done)
