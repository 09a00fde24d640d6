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
from backoffice.services.audit_verify import audit_chain_alarm

DASHBOARD_CARDS: list[Callable] = []


def register_card(fn: Callable) -> Callable:
    DASHBOARD_CARDS.append(fn)
    return fn


@register_card
def _staff_cards(request):
    cards = []
    if request.user.has_perm("backoffice.view_staff"):
        staff = Staff.objects.aggregate(active=Count("id", filter=Q(is_active=True)))
        cards.append(
            {
                "title": "Active staff",
                "value": staff["active"],
                "hint": "Accounts that can sign in",
                "link": reverse("admin:backoffice_staff_changelist"),
            }
        )
    if request.user.has_perm("backoffice.view_auditlog"):
        since = timezone.now() - timezone.timedelta(hours=24)
        cards.append(
            {
                "title": "Audit events (24 h)",
                "value": AuditLog.objects.filter(created_at__gte=since).count(),
                "hint": "Staff writes recorded",
                "link": reverse("admin:backoffice_auditlog_changelist"),
            }
        )
        cards.append(_audit_chain_card())
    return cards


def _audit_chain_card() -> dict:
    """The watch's verdict on the audit chain: a break shows in red until a whole walk finds it intact again."""
    broken = audit_chain_alarm()
    link = reverse("admin:backoffice_auditlog_changelist")
    if broken:
        return {
            "title": "Audit chain BROKEN",
            "value": f"entry {broken['sequence']}",
            "hint": f"{broken['detail']} ({broken['reason']}): CRITICAL, see docs/audit-chain.md",
            "link": link,
            "tone": "danger",
        }
    return {"title": "Audit chain", "value": "intact", "hint": "Verified every few minutes", "link": link}


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
