"""The admin site's dashboard: figures each app contributes, shown as cards.

An app adds a card by appending a callable to ``DASHBOARD_CARDS``; each
callable takes the request and returns a list of
``{"title", "value", "hint", "link"?, "group"?, "tone"?}`` dicts (or [] when
the staff member's role may not see it). Cards of the group "my work" (what
waits for the signed-in person) open the dashboard; ``tone`` "danger" or
"warning" colours a card that needs attention.
"""

from collections.abc import Callable

from django.db.models import Count, Q
from django.urls import reverse
from django.utils import timezone

from backoffice.models import AuditLog, Staff

DASHBOARD_CARDS: list[Callable] = []


def register_card(fn: Callable) -> Callable:
    DASHBOARD_CARDS.append(fn)
    return fn


@register_card
def _staff_cards(request):
    if not request.user.has_perm("backoffice.view_auditlog"):
        return []
    since = timezone.now() - timezone.timedelta(hours=24)
    staff = Staff.objects.aggregate(active=Count("id", filter=Q(is_active=True)))
    return [
        {
            "title": "Active staff",
            "value": staff["active"],
            "hint": "Accounts that can sign in",
            "link": reverse("admin:backoffice_staff_changelist"),
        },
        {
            "title": "Audit events (24 h)",
            "value": AuditLog.objects.filter(created_at__gte=since).count(),
            "hint": "Staff writes recorded",
            "link": reverse("admin:backoffice_auditlog_changelist"),
        },
    ]


def dashboard_callback(request, context):
    cards = []
    for fn in DASHBOARD_CARDS:
        cards.extend(fn(request))
    context.update(
        {
            "my_work": [c for c in cards if c.get("group") == "my work"],
            "cards": [c for c in cards if c.get("group") != "my work"],
            "role": getattr(request.user, "get_role_display", lambda: "")(),
        }
    )
    return context
