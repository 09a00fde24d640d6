"""Politically exposed persons, their name index, their matches with users, and the record of screening.

A PEP's identity is its normalised name (``name_key``: case, accents and repeated spaces ignored), unique in
the database. A match (``PEPMatch``) is the pair (user, PEP name): it outlives the PEP record, so deleting a
PEP and adding it again finds the same match, keeps an officer's dismissal and never raises a second alert.
"""

import datetime
import hashlib
import json
import re
import unicodedata
import uuid

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django_fsm import ConcurrentTransitionMixin, FSMField, transition

from backoffice.fsm import transition_table
from backoffice.models import StateChange
from compliance.peps.choices import PEPCategory, PEPMatchStatus, ScreeningChannel, ScreeningStatus, ScreeningTrigger
from names import MATCHER_VERSION, normalise_country

NAME_MAX = 300
MAX_ALIASES = 50
_DATE = re.compile(r"^\d{4}(-\d{2}(-\d{2})?)?$")


_CATEGORIES = {" ".join(c.replace("_", " ").split()).casefold(): c for c in PEPCategory.values}


def canonical_category(text: str) -> str | None:
    """The PEP category ``text`` names, forgiving case, underscores and spacing ("head_of_state"); else None."""
    return _CATEGORIES.get(" ".join(str(text).replace("_", " ").split()).casefold())


def normalise_name(name: str) -> str:
    """The name as PEP identity compares it: accents dropped, case folded, whitespace collapsed."""
    text = unicodedata.normalize("NFKD", name or "")
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return " ".join(text.casefold().split())


def tidy(text: str | None) -> str:
    """Surrounding whitespace removed, runs of whitespace inside made one space."""
    return " ".join((text or "").split())


def date_of_birth_problem(value: str) -> str | None:
    """Why ``value`` is not a date of birth (YYYY, YYYY-MM or YYYY-MM-DD, a real date, not in the future)."""
    if not _DATE.match(value):
        return "Must be a date: YYYY-MM-DD (or YYYY-MM, YYYY when only those are known)."
    year, month, day = (int(p) for p in (value.split("-") + ["1", "1"])[:3])
    try:
        moment = datetime.date(year, month, day)
    except ValueError:
        return "Not a real date."
    if moment > datetime.date.today():
        return "Cannot be in the future."
    return None


class PEP(models.Model):
    """A politically exposed person on our list: the interface's record plus aliases, date of birth, version.

    ``version`` rises with every change of the record; ``content_hash`` covers only what matching reads (name,
    aliases, date of birth, country), so changing a position never re-screens users, and a dismissed match
    reopens only when the matching content changed. ``screened_hash`` is the content last screened against
    all users: a PEP whose two hashes differ is waiting for screening (``screening_coverage``).
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=NAME_MAX)
    name_key = models.CharField(
        max_length=NAME_MAX, unique=True, editable=False, help_text="The name without case, accents, extra spaces"
    )
    category = models.CharField(max_length=32, choices=PEPCategory.choices, default=PEPCategory.UNKNOWN, db_index=True)
    position = models.CharField(max_length=NAME_MAX, blank=True, default="")
    country = models.CharField(max_length=100, blank=True, default="", db_index=True)
    source = models.CharField(max_length=200, blank=True, default="")
    is_active = models.BooleanField(default=True, db_index=True)
    additional_info = models.JSONField(default=dict, blank=True)
    aliases = models.JSONField(default=list, blank=True, help_text="Other names of the same person")
    date_of_birth = models.CharField(max_length=10, blank=True, default="", help_text="YYYY-MM-DD, YYYY-MM or YYYY")
    version = models.PositiveIntegerField(default=1)
    content_hash = models.CharField(max_length=64, editable=False)
    screened_hash = models.CharField(max_length=64, blank=True, default="", editable=False)
    screened_matcher = models.CharField(max_length=16, blank=True, default="", editable=False)
    screened_at = models.DateTimeField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    # The interface's updatable fields, and ours beyond it.
    UPDATABLE = ("name", "category", "position", "country", "is_active", "additional_info", "aliases", "date_of_birth")

    class Meta:
        app_label = "compliance"
        ordering = ["-created_at"]
        verbose_name = "PEP"
        verbose_name_plural = "PEPs"
        indexes = [models.Index(fields=["is_active", "-created_at"], name="pep_active_created")]

    def __str__(self):
        return self.name

    def clean(self):
        self.name = tidy(self.name)
        if not self.name:
            raise ValidationError({"name": "Name is required"})
        self.category = canonical_category(self.category or PEPCategory.UNKNOWN) or self.category
        if not isinstance(self.additional_info, dict):
            raise ValidationError({"additional_info": "Must be an object."})
        if not isinstance(self.aliases, list) or not all(isinstance(a, str) for a in self.aliases):
            raise ValidationError({"aliases": "Must be a list of names."})
        self.aliases = self.clean_aliases(self.name, self.aliases)
        if len(self.aliases) > MAX_ALIASES:
            raise ValidationError({"aliases": f"At most {MAX_ALIASES}."})
        if any(len(alias) > NAME_MAX for alias in self.aliases):
            raise ValidationError({"aliases": f"Each at most {NAME_MAX} characters."})
        self.date_of_birth = (self.date_of_birth or "").strip()
        if self.date_of_birth and (problem := date_of_birth_problem(self.date_of_birth)):
            raise ValidationError({"date_of_birth": problem})
        self.position, self.country, self.source = tidy(self.position), tidy(self.country), tidy(self.source)
        self.name_key = normalise_name(self.name)
        self.content_hash = self.matching_hash()

    @staticmethod
    def clean_aliases(name: str, aliases: list[str]) -> list[str]:
        """Aliases tidied, each once, without the name itself (compared as names are: accents, case, spaces)."""
        seen = {normalise_name(name)}
        kept = []
        for alias in aliases:
            alias = tidy(alias)
            key = normalise_name(alias)
            if key and key not in seen:
                seen.add(key)
                kept.append(alias)
        return kept

    def matching_hash(self) -> str:
        """A fingerprint of what matching reads: the normalised name and aliases, date of birth, country."""
        content = [
            normalise_name(self.name),
            sorted(normalise_name(alias) for alias in self.aliases or []),
            self.date_of_birth or "",
            normalise_country(self.country) or normalise_name(self.country),
        ]
        return hashlib.sha256(json.dumps(content, ensure_ascii=False).encode()).hexdigest()

    @property
    def awaiting_screening(self) -> bool:

        return self.is_active and (self.screened_hash != self.content_hash or self.screened_matcher != MATCHER_VERSION)


class PEPNameKey(models.Model):
    """One blocking key of a PEP's names (``names.blocking_keys``): a new or renamed user is screened by
    looking PEPs up by key, never by reading the whole list."""

    id = models.BigAutoField(primary_key=True)
    pep = models.ForeignKey(PEP, on_delete=models.CASCADE, related_name="name_keys")
    key = models.CharField(max_length=100)

    class Meta:
        app_label = "compliance"
        constraints = [models.UniqueConstraint(fields=["key", "pep"], name="pep_name_key_unique")]

    def __str__(self):
        return self.key


S = PEPMatchStatus


class PEPMatch(ConcurrentTransitionMixin, models.Model):
    """A user whose name matches a PEP's: the pair (user, PEP name), with the score and its explanation.

    Unique per user and normalised PEP name, and kept when the PEP record is deleted (``pep`` becomes empty),
    so adding the name again finds this row: no second alert, and an officer's dismissal still stands.
    ``content_hash`` is the PEP content the match was last judged on: a DISMISSED match reopens only when the
    PEP's matching content differs from it. ``risk_points`` are what this match added to the user's risk
    score, taken back when it is dismissed.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.ForeignKey("kyc.PlatformUser", on_delete=models.CASCADE, related_name="pep_matches")
    pep = models.ForeignKey(PEP, null=True, blank=True, on_delete=models.SET_NULL, related_name="matches")
    pep_name_key = models.CharField(max_length=NAME_MAX)
    pep_name = models.CharField(max_length=NAME_MAX)
    score = models.FloatField()
    explanation = models.JSONField(default=dict)
    matcher_version = models.CharField(max_length=16)
    content_hash = models.CharField(max_length=64)
    status = FSMField(max_length=12, choices=PEPMatchStatus.choices, default=S.POTENTIAL, protected=True)
    risk_points = models.PositiveSmallIntegerField(default=0)
    alert = models.ForeignKey(
        "compliance.Alert", null=True, blank=True, on_delete=models.SET_NULL, related_name="pep_matches"
    )
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    reviewed_at = models.DateTimeField(null=True, blank=True)
    review_note = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        app_label = "compliance"
        ordering = ["-created_at"]
        verbose_name = "PEP match"
        verbose_name_plural = "PEP matches"
        constraints = [
            models.UniqueConstraint(fields=["user", "pep_name_key"], name="pep_match_user_name_unique"),
            models.CheckConstraint(condition=models.Q(score__gte=0, score__lte=1), name="pep_match_score_range"),
        ]
        indexes = [models.Index(fields=["status", "-created_at"], name="pep_match_status_created")]

    def __str__(self):
        return f"{self.pep_name} ~ user {str(self.user_id)[:8]} ({self.status})"

    @transition(field=status, source=[S.POTENTIAL, S.DISMISSED], target=S.CONFIRMED)
    def confirm(self) -> None:
        """An officer established that the user is this PEP."""

    @transition(field=status, source=[S.POTENTIAL, S.CONFIRMED], target=S.DISMISSED)
    def dismiss(self) -> None:
        """An officer established that the user is not this PEP."""

    @transition(field=status, source=S.DISMISSED, target=S.POTENTIAL)
    def reopen(self) -> None:
        """The PEP's matching content changed after a dismissal and the names still match: look again."""


PEP_MATCH_TRANSITIONS: dict[tuple[str, str], str] = transition_table(PEPMatch)


class PEPMatchEvent(StateChange):
    """A move of a PEP match (found, confirmed, dismissed, reopened), with who, when and why."""

    match = models.ForeignKey(PEPMatch, on_delete=models.CASCADE, related_name="events")
    from_status = models.CharField(max_length=32, choices=PEPMatchStatus.choices, blank=True, default="")
    to_status = models.CharField(max_length=32, choices=PEPMatchStatus.choices)

    class Meta(StateChange.Meta):
        app_label = "compliance"
        verbose_name = "PEP match event"


class ScreeningRun(models.Model):
    """One screening: what triggered it, what was compared with what, and what it found and raised."""

    id = models.BigAutoField(primary_key=True)
    trigger = models.CharField(max_length=24, choices=ScreeningTrigger.choices)
    status = models.CharField(max_length=12, choices=ScreeningStatus.choices, default=ScreeningStatus.RUNNING)
    subject = models.CharField(max_length=300, blank=True, default="", help_text="What was screened")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    matcher_version = models.CharField(max_length=16)
    threshold = models.FloatField()
    peps_screened = models.PositiveIntegerField(default=0)
    users_scanned = models.PositiveIntegerField(default=0)
    candidates = models.PositiveBigIntegerField(default=0, help_text="Pairs compared after blocking")
    matches = models.PositiveIntegerField(default=0)
    users_matched = models.PositiveIntegerField(default=0)
    users_updated = models.PositiveIntegerField(default=0)
    alerts_created = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True, default="")
    started_at = models.DateTimeField(db_index=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The run's work and how far it got, so that it can go in short chunks (a background task each) and a chunk
    # delivered twice, or a run resumed after its worker died, repeats nothing: chunk i covers
    # pep_ids[i * chunk_size:(i + 1) * chunk_size] and is done when chunks_done > i, recorded in the same
    # transaction as its matches.
    pep_ids = models.JSONField(default=list, blank=True, editable=False)
    chunk_size = models.PositiveIntegerField(default=200)
    chunks_total = models.PositiveIntegerField(default=0)
    chunks_done = models.PositiveIntegerField(default=0)
    matched_user_ids = models.JSONField(default=list, blank=True, editable=False)
    updated_user_ids = models.JSONField(default=list, blank=True, editable=False)
    progressed_at = models.DateTimeField(null=True, blank=True, help_text="When its last chunk was done")

    class Meta:
        app_label = "compliance"
        ordering = ["-started_at", "-id"]
        verbose_name = "screening run"
        indexes = [models.Index(fields=["status", "progressed_at"], name="screening_run_status_progress")]

    def __str__(self):
        return f"#{self.pk} {self.get_trigger_display()} ({self.status})"

    @property
    def seconds(self) -> float | None:
        return (self.finished_at - self.started_at).total_seconds() if self.finished_at else None


class NameScreening(models.Model):
    """A name screened by hand against the PEP list (the admin's "screen a name" page or the API): evidence of
    who asked about whom, when, and what the list answered (the hits as they were, best first)."""

    HITS_KEPT = 50

    id = models.BigAutoField(primary_key=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    actor_email = models.CharField(max_length=254, blank=True, default="", help_text="Kept when the account goes")
    channel = models.CharField(max_length=8, choices=ScreeningChannel.choices)
    name = models.CharField(max_length=NAME_MAX)
    date_of_birth = models.CharField(max_length=10, blank=True, default="")
    country = models.CharField(max_length=100, blank=True, default="")
    aliases = models.JSONField(default=list, blank=True)
    matcher_version = models.CharField(max_length=16)
    threshold = models.FloatField()
    hit_count = models.PositiveIntegerField(default=0)
    hits = models.JSONField(default=list, blank=True, help_text="[{pep_id, name, category, score}], best first")
    screened_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        app_label = "compliance"
        ordering = ["-screened_at", "-id"]
        verbose_name = "name screening"

    def __str__(self):
        return f"{self.name} ({self.screened_at:%Y-%m-%d %H:%M})"


class UserScreening(models.Model):
    """When a user (under these names) was last screened against the whole active list: read for coverage."""

    user = models.OneToOneField(
        "kyc.PlatformUser", primary_key=True, on_delete=models.CASCADE, related_name="pep_screening"
    )
    first_name = models.CharField(max_length=100)
    last_name = models.CharField(max_length=100)
    screened_at = models.DateTimeField(db_index=True)
    matcher_version = models.CharField(max_length=16)

    class Meta:
        app_label = "compliance"

    def __str__(self):
        return f"{self.user_id} screened {self.screened_at:%Y-%m-%d %H:%M}"
