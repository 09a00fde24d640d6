"""The sanctions lists' API shapes (camelCase, contract: sanctions lists and screening). Translation only."""

from rest_framework import serializers

from backoffice.api.serializers import CamelKeysJSONField


class SanctionsImporterOut(serializers.Serializer):
    id = serializers.UUIDField()
    email = serializers.EmailField()


class ListOut(serializers.Serializer):
    """A list with its active entries counted and the version in force."""

    list = serializers.CharField(source="code")
    name = serializers.CharField()
    format = serializers.CharField()
    entries = serializers.IntegerField(source="active_entries")
    individuals = serializers.IntegerField(source="active_individuals")
    entities = serializers.IntegerField(source="active_entities")
    vessels = serializers.IntegerField(source="active_vessels")
    aircraft = serializers.IntegerField(source="active_aircraft")
    version = serializers.IntegerField(source="current_version.number", allow_null=True, default=None)
    importedAt = serializers.DateTimeField(source="current_version.imported_at", allow_null=True, default=None)
    importedBy = SanctionsImporterOut(source="current_version.imported_by", allow_null=True, default=None)
    sha256 = serializers.CharField(source="current_version.sha256", allow_null=True, default=None)


class AliasOut(serializers.Serializer):
    name = serializers.CharField()
    quality = serializers.CharField(help_text="GOOD or LOW")
    kind = serializers.CharField(help_text="aka, fka (formerly known as) or nka (now known as)")
    dateOfBirth = serializers.CharField(source="date_of_birth", required=False)
    note = serializers.CharField(required=False)


class EntryOut(serializers.Serializer):
    id = serializers.UUIDField()
    list = serializers.CharField(source="sanctions_list.code")
    reference = serializers.CharField()
    publisherId = serializers.CharField(source="publisher_id")
    type = serializers.CharField(source="entry_type")
    name = serializers.CharField()
    aliases = AliasOut(many=True)
    datesOfBirth = serializers.ListField(
        child=serializers.CharField(), source="dates_of_birth", help_text="YYYY-MM-DD, YYYY-MM, YYYY or YYYY/YYYY"
    )
    nationalities = serializers.ListField(child=serializers.CharField(), help_text="ISO 3166-1 alpha-2")
    programs = serializers.ListField(child=serializers.CharField())
    listedOn = serializers.DateField(source="listed_on", allow_null=True)
    removedAt = serializers.DateTimeField(source="removed_at", allow_null=True)
    version = serializers.IntegerField(source="version.number")


class EntryChangeOut(serializers.Serializer):
    version = serializers.IntegerField(source="version.number")
    importedAt = serializers.DateTimeField(source="version.imported_at")
    kind = serializers.CharField()
    screeningRelevant = serializers.BooleanField(source="screening_relevant")
    changes = CamelKeysJSONField(help_text="field -> {from, to}; an addition lists what was added")


class EntryDetailOut(EntryOut):
    """An entry as listed, with what else its publisher says and its history version by version."""

    details = CamelKeysJSONField(help_text="Remarks, addresses, documents, titles: what else the publisher says")
    history = EntryChangeOut(many=True, source="history.all")


class ImportIn(serializers.Serializer):
    file = serializers.FileField(allow_empty_file=True)
    alt = serializers.FileField(required=False, allow_empty_file=True, help_text="OFAC only: alt.csv")
    add = serializers.FileField(required=False, allow_empty_file=True, help_text="OFAC only: add.csv")
    allowShrink = serializers.BooleanField(required=False, default=False, source="allow_shrink")


class ScreeningCountsOut(serializers.Serializer):
    usersScanned = serializers.IntegerField()
    matchesCreated = serializers.IntegerField()
    matchesReopened = serializers.IntegerField()
    matchesClosed = serializers.IntegerField()


class ImportOut(serializers.Serializer):
    list = serializers.CharField(source="list_code")
    entries = serializers.IntegerField()
    added = serializers.IntegerField()
    removed = serializers.IntegerField()
    changed = serializers.IntegerField()
    unchanged = serializers.IntegerField()
    version = serializers.IntegerField(source="version.number", allow_null=True, default=None)
    screening = ScreeningCountsOut()
