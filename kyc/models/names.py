"""The name index of users: what PEP screening searches instead of comparing every user with every name."""

from django.db import models

KEY_MAX = 100


class UserNameKey(models.Model):
    """One blocking key of a user's name (``names.blocking_keys``): screening looks users up by key.

    Written by ``kyc.services.user_name_index`` whenever a user is created or renamed; searched with
    ``WHERE key IN (...)`` (plain equality, the same on SQLite and PostgreSQL). The unique index starts with
    ``key``, so a lookup reads the index only.
    """

    id = models.BigAutoField(primary_key=True)
    user = models.ForeignKey("kyc.PlatformUser", on_delete=models.CASCADE, related_name="name_keys")
    key = models.CharField(max_length=KEY_MAX)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["key", "user"], name="kyc_user_name_key_unique")]

    def __str__(self):
        return self.key


class UserNamePart(models.Model):
    """One normalised part of a user's name (``parse_name(name).parts``), once per user.

    Counted (``kyc.selectors.name_matching.user_name_frequencies``) to weigh a name part by how rare it is among
    our users: a shared "dlamini" says little, a shared rare surname much.
    """

    id = models.BigAutoField(primary_key=True)
    user = models.ForeignKey("kyc.PlatformUser", on_delete=models.CASCADE, related_name="name_parts")
    part = models.CharField(max_length=KEY_MAX)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["part", "user"], name="kyc_user_name_part_unique")]

    def __str__(self):
        return self.part
