"""The filters of GET /admin/aml/sanctions/matches: userId, entryId, status, party; dates; sortBy."""

import django_filters

from backoffice.lists.filters import ListFilterSet
from compliance.sanctions.match_choices import MatchParty, MatchStatus
from compliance.sanctions.models.match import SanctionsMatch


class SanctionsMatchFilterSet(ListFilterSet):
    sort_fields = {"createdAt": "created_at", "updatedAt": "updated_at", "score": "score", "status": "status"}

    userId = django_filters.UUIDFilter(field_name="user_id")
    entryId = django_filters.UUIDFilter(field_name="entry_id")
    status = django_filters.ChoiceFilter(choices=MatchStatus.choices)
    party = django_filters.ChoiceFilter(choices=MatchParty.choices)

    class Meta:
        model = SanctionsMatch
        fields = []
