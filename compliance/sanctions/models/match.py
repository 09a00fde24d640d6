"""Sanctions matches: a customer, or a payment's counterparty, whose name matches a listed entry.

A match is a pair. For a customer it is (user, entry); for a counterparty it is (the name as compared, entry),
whoever paid it, so an officer's dismissal of "this name is not that listed person" holds for every customer.
Database constraints keep each pair one row, so two screenings finding it at once raise one alert.
``content_hash`` is the entry's screening content the match was last judged on: a dismissed pair reopens only
when the entry's content moved away from it and the names still match.
"""

import uuid

from django.conf import settings
from django.db import models
from django_fsm import ConcurrentTransitionMixin, FSMField, transition

from backoffice.fsm import transition_table
from backoffice.models import StateChange
from compliance.sanctions.match_choices import MatchParty, MatchStatus

S = MatchStatus
NAME_MAX = 500


class SanctionsMatch(ConcurrentTransitionMixin, models.Model):
    """A customer or counterparty name matching a sanctions entry, with the score, the explanation in plain
    words and an officer's decision (confirmed, dismissed) with the note, who and when."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    party = models.CharField(max_length=12, choices=MatchParty.choices)
    # the customer matched (USER), or the customer whose payment named the counterparty first (COUNTERPARTY)
    user = models.ForeignKey(
        "kyc.PlatformUser", null=True, blank=True, on_delete=models.CASCADE, related_name="sanctions_matches"
    )
    counterparty_name = models.CharField(max_length=NAME_MAX, blank=True, default="")
    # the counterparty name as compared (case, accents, spacing, punctuation ignored): the pair's identity
    name_key = models.CharField(max_length=NAME_MAX, blank=True, default="", editable=False)
    entry = models.ForeignKey("compliance.SanctionsEntry", on_delete=models.PROTECT, related_name="matches")
    matched_name = models.CharField(max_length=NAME_MAX, blank=True, default="")
    score = models.FloatField()
    explanation = models.TextField(blank=True, default="")
    status = FSMField(max_length=12, choices=MatchStatus.choices, default=S.POTENTIAL, protected=True)
    note = models.TextField(blank=True, default="")
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    content_hash = models.CharField(max_length=64, help_text="The entry's screening content it was judged on")
    alert = models.ForeignKey(
        "compliance.Alert", null=True, blank=True, on_delete=models.SET_NULL, related_name="sanctions_matches"
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        app_label = "compliance"
        ordering = ["-created_at"]
        verbose_name = "sanctions match"
        verbose_name_plural = "sanctions matches"
        constraints = [
            models.UniqueConstraint(
                fields=["user", "entry"],
                condition=models.Q(party=MatchParty.USER),
                name="sanctions_match_user_entry_unique",
            ),
            models.UniqueConstraint(
                fields=["name_key", "entry"],
                condition=models.Q(party=MatchParty.COUNTERPARTY),
                name="sanctions_match_name_entry_unique",
            ),
            models.CheckConstraint(condition=models.Q(score__gte=0, score__lte=1), name="sanctions_match_score_range"),
            models.CheckConstraint(
                condition=(
                    models.Q(party=MatchParty.USER, user__isnull=False)
                    | (models.Q(party=MatchParty.COUNTERPARTY) & ~models.Q(name_key=""))
                ),
                name="sanctions_match_party_named",
            ),
        ]
        indexes = [
            models.Index(fields=["status", "-created_at"], name="sanctions_match_queue"),
            models.Index(fields=["user", "status"], name="sanctions_match_user_status"),
        ]

    def __str__(self):
        who = self.counterparty_name if self.party == MatchParty.COUNTERPARTY else f"user {str(self.user_id)[:8]}"
        return f"{who} ~ {self.entry_id and self.entry.name} ({self.get_status_display().lower()})"

    @transition(field=status, source=S.POTENTIAL, target=S.CONFIRMED)
    def confirm(self) -> None:
        """An officer established that the party is the listed one."""

    @transition(field=status, source=S.POTENTIAL, target=S.DISMISSED)
    def dismiss(self) -> None:
        """An officer established that the party is not the listed one."""

    @transition(field=status, source=[S.DISMISSED, S.CLOSED], target=S.POTENTIAL)
    def reopen(self) -> None:
        """The entry's content changed after a dismissal (or it was listed again) and the names still match."""

    @transition(field=status, source=[S.POTENTIAL, S.DISMISSED], target=S.CLOSED)
    def close(self) -> None:
        """The entry left its list: nothing left to decide."""


SANCTIONS_MATCH_TRANSITIONS: dict[tuple[str, str], str] = transition_table(SanctionsMatch)


class SanctionsMatchEvent(StateChange):
    """A move of a sanctions match (found, confirmed, dismissed, reopened, closed), with who, when and why."""

    match = models.ForeignKey(SanctionsMatch, on_delete=models.CASCADE, related_name="events")
    from_status = models.CharField(max_length=32, choices=MatchStatus.choices, blank=True, default="")
    to_status = models.CharField(max_length=32, choices=MatchStatus.choices)

    class Meta(StateChange.Meta):
        app_label = "compliance"
        verbose_name = "sanctions match event"
