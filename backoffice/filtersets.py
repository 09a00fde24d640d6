"""Query-string filters of the foundation's own lists (the audit log)."""

import django_filters

from backoffice.lists.filters import ListFilterSet


class AuditLogFilterSet(ListFilterSet):
    """Filters of GET /admin/audit-logs: actorId, action, objectType, objectId, startDate/endDate; newest first."""

    sort_fields = {"createdAt": "created_at", "sequence": "sequence"}

    actorId = django_filters.UUIDFilter(field_name="actor_id")
    action = django_filters.CharFilter(field_name="action", max_length=64)
    objectType = django_filters.CharFilter(field_name="object_type", max_length=64)
    objectId = django_filters.CharFilter(field_name="object_id", max_length=64)
