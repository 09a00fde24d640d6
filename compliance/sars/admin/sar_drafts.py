"""Writing a SAR in the admin site: start one from scratch, and edit a DRAFT.

Starting is two steps: pick the subject (search by name, phone, e-mail or ID
number), then write the report, ticking the transactions from their ledger
and their alerts it cites. Editing a draft is the same form, filled in. Both
call the services the API calls (``sar_create``, ``sar_update``), so the
checks, the narrative versions, the alerts' escalation and the audit entries
are the same whichever way a report is written.

The narrative editor offers each activity type's template (``narratives``):
the six questions (who, what, when, where, why, how) as prompts to replace.
"""

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone

from backoffice.errors import DomainError
from compliance.sars import narratives
from compliance.sars.amounts import amount_mismatch
from compliance.sars.choices import ActivityType, SARStatus
from compliance.sars.models.sar import SAR
from compliance.sars.selectors.drafting import (
    LEDGER_ROWS,
    sar_draft_start,
    sar_evidence_rows,
    sar_subjects,
    sars_with_people,
)
from compliance.sars.selectors.sar import sar_next_step
from compliance.sars.services.sar import sar_create
from compliance.sars.services.sar_drafts import sar_update
from kyc.models import PlatformUser

# domain names in a service's error details -> the form's fields
FIELD_OF = {
    "suspicious_activity_type": "suspicious_activity_type",
    "activity_description": "activity_description",
    "date_of_suspicious_activity": "date_of_suspicious_activity",
    "amount_involved": "amount_involved",
}


class SARDraftForm(forms.Form):
    """The facts of a report; the evidence it cites is ticked in the tables beside the form."""

    suspicious_activity_type = forms.ChoiceField(label="Activity type", choices=ActivityType.choices)
    date_of_suspicious_activity = forms.DateField(
        label="Date of the suspicious activity", widget=forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"})
    )
    amount_involved = forms.DecimalField(label="Amount involved (SZL)", min_value=0, max_digits=14, decimal_places=2)
    activity_description = forms.CharField(
        label="Narrative",
        widget=forms.Textarea(attrs={"rows": 18, "spellcheck": "true"}),
        max_length=20000,
        help_text="goAML carries at most 4,000 characters of narrative; a longer one fails the FIU's schema.",
    )

    def clean_date_of_suspicious_activity(self):
        value = self.cleaned_data["date_of_suspicious_activity"]
        if value > timezone.now().date():
            raise forms.ValidationError("The date cannot be in the future.")
        return value


class SARDraftingAdminMixin:
    """The new-SAR and edit-draft pages of ``SARAdmin``."""

    def get_urls(self):
        view = self.admin_site.admin_view
        return [
            path("new/", view(self.new_sar_view), name="compliance_sar_new"),
            path("<uuid:object_id>/edit/", view(self.edit_sar_view), name="compliance_sar_edit"),
            *super().get_urls(),
        ]

    def add_view(self, request, form_url="", extra_context=None):
        return HttpResponseRedirect(reverse("admin:compliance_sar_new"))

    def _require_filer(self, request) -> None:
        if not request.user.has_capability("sars.file"):
            raise PermissionDenied

    def new_sar_view(self, request):
        self._require_filer(request)
        subject_id = request.GET.get("subject") or request.POST.get("subject")
        if not subject_id:
            query = request.GET.get("q", "").strip()[:100]
            context = {
                **self.admin_site.each_context(request),
                "opts": self.opts,
                "title": "New SAR: who is it about?",
                "query": query,
                "results": sar_subjects(query),
            }
            return TemplateResponse(request, "compliance/admin/sar_pick_subject.html", context)
        subject = get_object_or_404(PlatformUser, pk=subject_id)
        return self._draft_page(request, subject=subject, sar=None)

    def edit_sar_view(self, request, object_id):
        self._require_filer(request)
        sar = get_object_or_404(sars_with_people(), pk=object_id)
        if sar.status != SARStatus.DRAFT:
            self.message_user(
                request, f"{sar.sar_id} is {sar.get_status_display()}: only a draft is edited.", messages.ERROR
            )
            return HttpResponseRedirect(reverse("admin:compliance_sar_change", args=[sar.pk]))
        return self._draft_page(request, subject=sar.entity_user, sar=sar)

    def _draft_page(self, request, *, subject: PlatformUser, sar: SAR | None):
        initial, chosen_tx, chosen_alerts = sar_draft_start(sar)
        form = SARDraftForm(initial=initial)
        if request.method == "POST":
            chosen_tx = set(request.POST.getlist("related_transactions"))
            chosen_alerts = set(request.POST.getlist("related_alerts"))
            data = request.POST.copy()
            if "_template" in request.POST:  # the editor's no-script path: put the template in, save nothing
                kind = data.get("suspicious_activity_type") or ActivityType.OTHER
                current = data.get("activity_description", "").rstrip()
                data["activity_description"] = (current + "\n\n" if current else "") + narratives.template(kind)
                form = SARDraftForm(initial=data.dict())
            else:
                form = SARDraftForm(data)
                saved = form.is_valid() and self._save_draft(request, form, subject, sar, chosen_tx, chosen_alerts)
                if saved:
                    return HttpResponseRedirect(reverse("admin:compliance_sar_change", args=[saved.pk]))
        transactions, alerts = sar_evidence_rows(subject, sar)
        claimed = form.data.get("amount_involved") if form.is_bound else form.initial.get("amount_involved")
        mismatch = amount_mismatch(amount=claimed, transactions=[t for t in transactions if str(t.pk) in chosen_tx])
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": f"Edit draft {sar.sar_id}" if sar else f"New SAR about {subject.full_name}",
            "sar": sar,
            "subject": subject,
            "form": form,
            "transactions": transactions,
            "alerts": alerts,
            "chosen_tx": chosen_tx,
            "chosen_alerts": chosen_alerts,
            "amount_warning": mismatch.message if mismatch else "",
            "ledger_rows": LEDGER_ROWS,
            "templates": narratives.templates(),
            "prompts": {kind: narratives.prompts(kind) for kind in ActivityType.values},
            "next_step": sar_next_step(sar=sar)
            if sar
            else "You are drafting this report; submit it for review when it is complete.",
            "cancel_url": reverse("admin:compliance_sar_change", args=[sar.pk])
            if sar
            else reverse("admin:compliance_sar_changelist"),
        }
        return TemplateResponse(request, "compliance/admin/sar_draft_form.html", context)

    def _save_draft(self, request, form, subject, sar, chosen_tx, chosen_alerts):
        """Create or update through the services; their refusals become the form's errors (returns None then)."""
        fields = {
            **form.cleaned_data,
            "related_transaction_ids": sorted(chosen_tx),
            "related_alert_ids": sorted(chosen_alerts),
        }
        try:
            if sar is None:
                saved = sar_create(actor=request.user, entity_user_id=subject.pk, **fields)
                self.message_user(request, f"{saved.sar_id} filed as a draft.", messages.SUCCESS)
            else:
                saved = sar_update(sar=sar, actor=request.user, **fields)
                self.message_user(request, f"{saved.sar_id} saved.", messages.SUCCESS)
            mismatch = amount_mismatch(amount=saved.amount_involved, transactions=saved.related_transactions.all())
            if mismatch:
                self.message_user(request, mismatch.message, messages.WARNING)
            return saved
        except DomainError as exc:
            details = exc.details or {}
            for name, reasons in details.items():
                form.add_error(FIELD_OF.get(name), [f"{name.replace('_', ' ')}: {r}" for r in reasons])
            if not details:
                form.add_error(None, exc.said)
            return None
