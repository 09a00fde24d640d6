"""PEP shapes: the record, the create/update/bulk/screen bodies, the matching summary, matches."""

from rest_framework import serializers

from backoffice.api.serializers import CamelKeysJSONField, RejectUnknownFieldsMixin, StrictCharField
from compliance.aml.api.serializers.rules import StrictBoolean
from compliance.peps.choices import PEPCategory, PEPMatchStatus
from compliance.peps.models.pep import MAX_ALIASES, NAME_MAX, canonical_category, date_of_birth_problem

NAME_HEADLINES = {"required": "Name is required", "blank": "Name is required", "null": "Name is required"}


class CategoryField(StrictCharField):
    """One of the ten PEP categories; case, underscores and spacing are forgiven ("head_of_state")."""

    def to_internal_value(self, data):
        text = super().to_internal_value(data)
        category = canonical_category(text)
        if category is None:
            raise serializers.ValidationError(f"Must be one of: {', '.join(PEPCategory.values)}.")
        return category


class DateOfBirthField(StrictCharField):
    """YYYY-MM-DD (or YYYY-MM, YYYY when only those are known); null or "" for unknown."""

    def __init__(self, **kwargs):
        kwargs.setdefault("allow_null", True)
        kwargs.setdefault("allow_blank", True)
        kwargs.setdefault("max_length", 10)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        text = super().to_internal_value(data).strip()
        if text and (problem := date_of_birth_problem(text)):
            raise serializers.ValidationError(problem)
        return text


class ObjectField(serializers.JSONField):
    """A JSON object (null is an empty one)."""

    def to_internal_value(self, data):
        if data is None:
            return {}
        if not isinstance(data, dict):
            raise serializers.ValidationError("Must be an object.")
        return super().to_internal_value(data)


# Text arrives as JSON strings: a number (``aliases: [5]``) is refused with the field named, never stored as "5".
def _aliases(**kwargs):
    return serializers.ListField(
        child=StrictCharField(max_length=NAME_MAX, allow_blank=True),
        max_length=MAX_ALIASES,
        allow_null=True,
        **kwargs,
    )


class PEPIn(RejectUnknownFieldsMixin, serializers.Serializer):
    """One PEP to create (also each item of a bulk upload)."""

    headlines = {"name": NAME_HEADLINES}

    name = StrictCharField(max_length=NAME_MAX)
    category = CategoryField(required=False, allow_null=True, default=PEPCategory.UNKNOWN)
    position = StrictCharField(max_length=NAME_MAX, required=False, allow_blank=True, allow_null=True, default="")
    country = StrictCharField(max_length=100, required=False, allow_blank=True, allow_null=True, default="")
    source = StrictCharField(max_length=200, required=False, allow_blank=True, allow_null=True, default="")
    isActive = StrictBoolean(required=False, default=True, source="is_active")
    additionalInfo = ObjectField(required=False, default=dict, source="additional_info")
    aliases = _aliases(required=False, default=list)
    dateOfBirth = DateOfBirthField(required=False, default="", source="date_of_birth")


class PEPUpdateIn(RejectUnknownFieldsMixin, serializers.Serializer):
    """The updatable fields of a PEP (the interface's, plus aliases and date of birth)."""

    headlines = {"name": NAME_HEADLINES}

    name = StrictCharField(max_length=NAME_MAX, required=False)
    category = CategoryField(required=False)
    position = StrictCharField(max_length=NAME_MAX, required=False, allow_blank=True, allow_null=True)
    country = StrictCharField(max_length=100, required=False, allow_blank=True, allow_null=True)
    isActive = StrictBoolean(required=False, source="is_active")
    additionalInfo = ObjectField(required=False, source="additional_info")
    aliases = _aliases(required=False)
    dateOfBirth = DateOfBirthField(required=False, source="date_of_birth")


class PEPBulkIn(serializers.Serializer):
    """The bulk body; each item is checked alone by ``PEPIn`` (one bad item fails alone)."""

    peps = serializers.ListField(child=serializers.JSONField(), allow_empty=False)


class PEPScreenIn(RejectUnknownFieldsMixin, serializers.Serializer):
    headlines = {"name": NAME_HEADLINES}

    name = StrictCharField(max_length=NAME_MAX)
    dateOfBirth = DateOfBirthField(required=False, default="", source="date_of_birth")
    country = StrictCharField(max_length=100, required=False, allow_blank=True, allow_null=True, default="")
    aliases = _aliases(required=False, default=list)


class PEPMatchReviewIn(serializers.Serializer):
    status = serializers.ChoiceField(choices=[PEPMatchStatus.CONFIRMED, PEPMatchStatus.DISMISSED])
    note = serializers.CharField(max_length=2000, help_text="Why: required for both decisions, kept as evidence")


class PEPOut(serializers.Serializer):
    id = serializers.UUIDField()
    name = serializers.CharField()
    category = serializers.CharField()
    position = serializers.CharField()
    country = serializers.CharField()
    source = serializers.CharField()
    isActive = serializers.BooleanField(source="is_active")
    additionalInfo = serializers.JSONField(source="additional_info")
    aliases = serializers.ListField(child=serializers.CharField())
    dateOfBirth = serializers.SerializerMethodField()
    version = serializers.IntegerField()
    createdAt = serializers.DateTimeField(source="created_at")
    updatedAt = serializers.DateTimeField(source="updated_at")

    def get_dateOfBirth(self, pep) -> str | None:
        return pep.date_of_birth or None


class MatchEntryOut(serializers.Serializer):
    pepId = serializers.UUIDField(source="pep_id")
    userId = serializers.UUIDField(source="user_id")
    fullName = serializers.CharField(source="full_name")
    score = serializers.FloatField()


class MatchingOut(serializers.Serializer):
    """What the matching after a write found and did."""

    usersScanned = serializers.IntegerField(source="users_scanned")
    usersMatched = serializers.SerializerMethodField()
    usersUpdated = serializers.SerializerMethodField()
    alertsCreated = serializers.IntegerField(source="alerts_created")
    matches = serializers.SerializerMethodField()
    matchesOmitted = serializers.IntegerField(source="matches_omitted")
    candidatesCompared = serializers.IntegerField(source="candidates")
    screeningRunId = serializers.IntegerField(source="run_id", allow_null=True)

    def get_usersMatched(self, summary) -> int:
        return len(summary.users_matched)

    def get_usersUpdated(self, summary) -> int:
        return len(summary.users_updated)

    def get_matches(self, summary) -> list[dict]:
        rows = [{**entry, "score": round(entry["score"], 4)} for entry in summary.matches]
        return MatchEntryOut(rows, many=True).data


class PEPWriteOut(serializers.Serializer):
    pep = PEPOut()
    matching = MatchingOut()


class PEPUpdateOut(PEPOut):
    """The updated record, and the matching that its change ran (empty when matching content did not change)."""

    matching = MatchingOut()


class BulkErrorOut(serializers.Serializer):
    index = serializers.IntegerField()
    name = serializers.CharField()
    message = serializers.CharField()
    details = serializers.JSONField(allow_null=True)


class PEPBulkOut(serializers.Serializer):
    created = serializers.IntegerField()
    failed = serializers.IntegerField()
    errors = BulkErrorOut(many=True)
    matching = MatchingOut()


class RefOut(serializers.Serializer):
    id = serializers.UUIDField()
    email = serializers.EmailField()


class MatchedUserOut(serializers.Serializer):
    """One user a PEP matched, as the PEP's detail lists them."""

    matchId = serializers.UUIDField(source="id")
    userId = serializers.UUIDField(source="user_id")
    firstName = serializers.CharField(source="user.first_name")
    lastName = serializers.CharField(source="user.last_name")
    fullName = serializers.CharField(source="user.full_name")
    score = serializers.FloatField()
    status = serializers.CharField()
    explanation = CamelKeysJSONField()
    createdAt = serializers.DateTimeField(source="created_at")
    reviewedAt = serializers.DateTimeField(source="reviewed_at", allow_null=True)


class PEPDetailOut(PEPOut):
    matchedUsers = MatchedUserOut(many=True, source="matched_users")


class ScreenHitOut(serializers.Serializer):
    pep = PEPOut()
    score = serializers.SerializerMethodField()
    explanation = CamelKeysJSONField(source="match.explanation", stored=False)  # computed, never stored

    def get_score(self, hit) -> float:
        return round(hit.match.score, 4)


class MatchUserOut(serializers.Serializer):
    id = serializers.UUIDField()
    firstName = serializers.CharField(source="first_name")
    lastName = serializers.CharField(source="last_name")


class MatchPEPOut(serializers.Serializer):
    id = serializers.UUIDField()
    name = serializers.CharField()
    category = serializers.CharField()
    position = serializers.CharField()
    country = serializers.CharField()


class PEPMatchOut(serializers.Serializer):
    id = serializers.UUIDField()
    userId = serializers.UUIDField(source="user_id")
    pepId = serializers.UUIDField(source="pep_id", allow_null=True)
    user = MatchUserOut()
    pep = MatchPEPOut(allow_null=True)
    pepName = serializers.CharField(source="pep_name")
    fullName = serializers.CharField(source="user.full_name")
    score = serializers.FloatField()
    status = serializers.CharField()
    explanation = CamelKeysJSONField()
    matcherVersion = serializers.CharField(source="matcher_version")
    alertId = serializers.UUIDField(source="alert_id", allow_null=True)
    reviewedBy = RefOut(source="reviewed_by", allow_null=True)
    reviewedAt = serializers.DateTimeField(source="reviewed_at", allow_null=True)
    note = serializers.CharField(source="review_note")
    createdAt = serializers.DateTimeField(source="created_at")
    updatedAt = serializers.DateTimeField(source="updated_at")
