"""Deadlines and "my work" for SARs in the admin site: who must act next, the filing deadline in colour.

Kept apart from ``compliance.sars.admin.sar`` (the SAR pages) so the SAR pages
only name these pieces: a list filter, two columns and a field, and the
dashboard cards.
"""

from django.contrib import admin
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from unfold.decorators import display

from backoffice.admin.dashboard import register_card
from compliance.casework import deadlines
from compliance.casework.choices import Priority
from compliance.sars.selectors.mywork import overdue_sars, sars_waiting_for, waiting_for
from compliance.sars.selectors.sar import first_alert_at


class WaitingForMeFilter(admin.SimpleListFilter):
    title = "my work"
    parameter_name = "mine"

    def lookups(self, request, model_admin):
        return [("waiting", "Waiting for me"), ("overdue", "Filing overdue")]

    def queryset(self, request, queryset):
        if self.value() == "waiting":
            return queryset.filter(waiting_for(request.user))
        if self.value() == "overdue":
            return queryset.filter(pk__in=[sar.pk for sar in overdue_sars()])
        return queryset


class SARDeadlineColumns:
    """The filing deadline and priority of a SAR, for its list and its page (mixed into SARAdmin)."""

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(first_alert_at=first_alert_at())

    @staticmethod
    def _deadline(sar):
        detected = deadlines.sar_detected_at(sar)
        return deadlines.sar_due_at(detected_at=detected), deadlines.sar_priority(sar, detected_at=detected)

    @display(description="Filing due")
    def filing_due(self, obj):
        due, _ = self._deadline(obj)
        # the deadline is local midnight: the last day to file is the day before it
        return f"{(due.astimezone(deadlines.ESWATINI) - timezone.timedelta(seconds=1)):%Y-%m-%d}"

    @display(description="Priority", label=deadlines.PRIORITY_COLOURS)
    def filing_priority(self, obj):
        _, priority = self._deadline(obj)
        return priority, Priority(priority).label

    @display(description="Filing deadline")
    def filing_deadline(self, obj):
        due, priority = self._deadline(obj)
        state = "met" if obj.submitted_at and obj.submitted_at <= due else "missed" if obj.submitted_at else "open"
        return format_html(
            '<span class="vk-badge vk-prio-{}">{}</span> due by the end of {} (Eswatini time) &middot; {}',
            priority,
            Priority(priority).label,
            self.filing_due(obj),
            {"met": "filed in time", "missed": "filed late", "open": "not filed yet"}[state],
        )


@register_card
def _sar_work_cards(request):
    user = request.user
    if not (getattr(user, "is_authenticated", False) and user.has_capability("sars.read")):
        return []
    url = reverse("admin:compliance_sar_changelist")
    waiting = sars_waiting_for(user)
    overdue = len(overdue_sars())
    return [
        {
            "title": "SARs waiting for me",
            "value": waiting,
            "hint": "Drafts to hand over, reviews and approvals I may do",
            "link": f"{url}?mine=waiting",
            "group": "my work",
            "tone": "warning" if waiting else "",
        },
        {
            "title": "SARs overdue for filing",
            "value": overdue,
            "hint": "Past the filing deadline, not with the FIU",
            "link": f"{url}?mine=overdue",
            "group": "my work",
            "tone": "danger" if overdue else "",
        },
    ]
