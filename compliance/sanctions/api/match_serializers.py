"""Sanctions screening's shapes: a name screened, the matches and their review (camelCase <-> domain names)."""

from rest_framework import serializers

from backoffice.api.serializers import RejectUnknownFieldsMixin, StrictCharField
from backoffice.limits import NOTE_MAX_LENGTH
from compliance.sanctions.match_choices import DECIDABLE
from compliance.sanctions.models.match import NAME_MAX
from names import parse_birth_date

NAME_HEADLINES = {"required": "Name is required", "blank": "Name is required", "null": "Name is required"}


class ScreenIn(RejectUnknownFieldsMixin, serializers.Serializer):
    headlines = {"name": NAME_HEADLINES}

    name = StrictCharField(max_length=NAME_MAX)
    dateOfBirth = StrictCharField(
        source="date_of_birth", max_length=10, required=False, allow_blank=True, allow_null=True, default=None
    )
    country = StrictCharField(max_length=100, required=False, allow_blank=True, allow_null=True, default=None)

    def validate_dateOfBirth(self, value):
        value = (value or "").strip()
        try:
            known = parse_birth_date(value) if value else True
        except (TypeError, ValueError):
            known = None
        if known is None:
            raise serializers.ValidationError("Must be a date: YYYY-MM-DD (or YYYY-MM, YYYY).")
        return value or None


class EntryRefOut(serializers.Serializer):
    id = serializers.UUIDField()
    list = serializers.CharField(source="sanctions_list.code")
    reference = serializers.CharField()
    name = serializers.CharField()
    type = serializers.CharField(source="entry_type")


class SanctionsScreenHitOut(serializers.Serializer):
    entry = EntryRefOut()
    score = serializers.FloatField()
    explanation = serializers.CharField()


class SanctionsMatchUserOut(serializers.Serializer):
    id = serializers.UUIDField()
    firstName = serializers.CharField(source="first_name")
    lastName = serializers.CharField(source="last_name")


class SanctionsStaffRefOut(serializers.Serializer):
    id = serializers.UUIDField()
    email = serializers.EmailField()


class MatchOut(serializers.Serializer):
    id = serializers.UUIDField()
    party = serializers.CharField()
    user = SanctionsMatchUserOut(allow_null=True)
    counterpartyName = serializers.CharField(source="counterparty_name", allow_null=True)
    entry = EntryRefOut()
    score = serializers.FloatField()
    explanation = serializers.CharField()
    status = serializers.CharField()
    note = serializers.CharField()
    decidedBy = SanctionsStaffRefOut(source="decided_by", allow_null=True)
    decidedAt = serializers.DateTimeField(source="decided_at", allow_null=True)
    createdAt = serializers.DateTimeField(source="created_at")

    def to_representation(self, instance):
        data = super().to_representation(instance)
        if not data["counterpartyName"]:
            data["counterpartyName"] = None
        return data


class MatchReviewIn(RejectUnknownFieldsMixin, serializers.Serializer):
    status = serializers.ChoiceField(choices=list(DECIDABLE))
    note = StrictCharField(
        max_length=NOTE_MAX_LENGTH,
        help_text="Why: required for both decisions, kept as evidence",
        error_messages={"required": "A note is required.", "blank": "A note is required."},
    )
