"""The vendor KYC pages of the admin site: the list with status and progress, one vendor with its eight slots.

Everything a button does goes through vendors.services (the same path as the API), with the signed-in staff
member as the actor; the page shows each person only the buttons their role allows. Vendor records
themselves are not edited here (vendors register through the API).
"""

import datetime as dt

from django.conf import settings
from django.contrib import admin
from django.db.models import QuerySet
from django.urls import path, reverse
from django.utils.html import format_html
from unfold.admin import ModelAdmin
from unfold.decorators import display

from backoffice.admin.base import EstimatedCountPaginator, StateHistoryInline
from backoffice.admin.dashboard import register_card
from backoffice.admin.fields import Badge
from backoffice.files import signed_file_url
from vendors.admin import kyc_views
from vendors.choices import DocumentKey, ReviewReason, VendorKycStatus
from vendors.models import Vendor, VendorKycChange, today
from vendors.selectors.documents import EVIDENCE_CAPABILITY, vendor_superseded_documents
from vendors.selectors.progress import TOTAL_REQUIRED, progress_percentage, vendor_kyc_progress
from vendors.selectors.vendors import (
    EXPIRY_WARNING_DAYS,
    expiring_within,
    vendor_kyc_card_counts,
    vendor_list,
    vendor_pending_override,
    with_expired_documents,
)
from vendors.services import kyc_status_expire
from vendors.services.kyc_status import four_eyes_breach, verification_gaps

STATUS_LABELS = {
    VendorKycStatus.PENDING: "info",
    VendorKycStatus.DOCUMENTS_SUBMITTED: "warning",
    VendorKycStatus.UNDER_REVIEW: "warning",
    VendorKycStatus.VERIFIED: "success",
    VendorKycStatus.REJECTED: "danger",
}


VENDOR_FIELDS = (
    "business_name",
    "contact_name",
    "email",
    "phone_number",
    "business_sector",
    "is_phone_verified",
    "is_active",
    "created_at",
)
DECISION_FIELDS = ("kyc_status", "kyc_status_changed_at", "kyc_decided_by", "kyc_decided_at", "kyc_decision_reason")


class KycStatusFilter(admin.SimpleListFilter):
    title = "KYC status"
    parameter_name = "kyc_status"

    def lookups(self, request, model_admin):
        return VendorKycStatus.choices

    def queryset(self, request, queryset):
        return queryset.filter(kyc_status=self.value()) if self.value() else queryset


class DocumentExpiryFilter(admin.SimpleListFilter):
    """Vendors with a document expiring within 30 days (today included), or with one already expired."""

    title = "document expiry"
    parameter_name = "expiry"

    def lookups(self, request, model_admin):
        return [("soon", f"Expiring within {EXPIRY_WARNING_DAYS} days"), ("expired", "Expired")]

    def queryset(self, request, queryset):
        if self.value() == "soon":
            return expiring_within(queryset, days=EXPIRY_WARNING_DAYS)
        if self.value() == "expired":
            return with_expired_documents(queryset)
        return queryset


class VendorKycChangeInline(StateHistoryInline):
    model = VendorKycChange
    verbose_name = "KYC status change"
    verbose_name_plural = "KYC history"
    hide_title = True


@admin.register(Vendor)
class VendorAdmin(ModelAdmin):
    list_display = (
        "business_name",
        "email",
        "kyc_badge",
        "progress_bar",
        "next_expiry",
        "created_at",
    )
    list_filter = (KycStatusFilter, DocumentExpiryFilter)
    search_fields = ("business_name", "contact_name", "email", "phone_number")
    search_help_text = "Business or contact name, e-mail or phone"
    list_per_page = 50
    show_full_result_count = False
    paginator = EstimatedCountPaginator
    inlines = [VendorKycChangeInline]
    change_form_outer_before_template = "vendors/admin/kyc_panel.html"
    fieldsets = (("Vendor", {"fields": VENDOR_FIELDS}), ("Last KYC decision", {"fields": DECISION_FIELDS}))
    readonly_fields = VENDOR_FIELDS + DECISION_FIELDS

    class Media:
        css = {"all": ("vendors/kyc_admin.css",)}

    # ------------------------------------------------------------ permissions

    def has_add_permission(self, request):
        return False  # vendors register themselves (POST /auth/vendor/register)

    def has_change_permission(self, request, obj=None):
        return False  # the record is read-only; its KYC changes through the panel's buttons

    def has_delete_permission(self, request, obj=None):
        return False

    # ------------------------------------------------------------ list

    def get_queryset(self, request) -> QuerySet[Vendor]:
        return vendor_list().select_related("kyc_decided_by")

    @display(description="KYC status", ordering="kyc_status", label=STATUS_LABELS)
    def kyc_badge(self, obj):
        # the colour from the code, the text in words (not DOCUMENTS_SUBMITTED: issue 31)
        return Badge(obj.kyc_status, obj.get_kyc_status_display())

    @display(description="Required documents", ordering="kyc_completed")
    def progress_bar(self, obj):
        percentage = progress_percentage(obj.kyc_completed)
        return format_html(
            '<div class="vkyc-bar" title="{} of {} required documents in" data-testid="progress-{}">'
            '<span style="width:{}%"></span></div><small>{} / {}</small>',
            obj.kyc_completed,
            TOTAL_REQUIRED,
            obj.pk,
            percentage,
            obj.kyc_completed,
            TOTAL_REQUIRED,
        )

    @display(description="Next document expiry", ordering="kyc_next_expiry")
    def next_expiry(self, obj):
        day = obj.kyc_next_expiry
        if day is None:
            return "—"
        now = today()
        if day < now:
            return format_html('<span class="vkyc-expired">{} (expired)</span>', day.isoformat())
        if day <= now + dt.timedelta(days=EXPIRY_WARNING_DAYS):
            return format_html('<span class="vkyc-expiring">{}</span>', day.isoformat())
        return day.isoformat()

    # ------------------------------------------------------------ one vendor: the KYC panel

    def get_urls(self):
        view = self.admin_site.admin_view
        urls = [
            path("<uuid:object_id>/kyc/upload/", view(kyc_views.upload_view(self)), name="vendors_vendor_kyc_upload"),
            path("<uuid:object_id>/kyc/delete/", view(kyc_views.delete_view(self)), name="vendors_vendor_kyc_delete"),
            path("<uuid:object_id>/kyc/review/", view(kyc_views.review_view(self)), name="vendors_vendor_kyc_review"),
            path("<uuid:object_id>/kyc/decide/", view(kyc_views.decide_view(self)), name="vendors_vendor_kyc_decide"),
            path(
                "<uuid:object_id>/kyc/override/",
                view(kyc_views.override_view(self)),
                name="vendors_vendor_kyc_override",
            ),
            path(
                "<uuid:object_id>/kyc/preview/<str:document_key>/",
                view(kyc_views.preview_view(self)),
                name="vendors_vendor_kyc_preview",
            ),
            path(
                "<uuid:object_id>/kyc/evidence/<uuid:document_id>/preview/",
                view(kyc_views.evidence_preview_view(self)),
                name="vendors_vendor_kyc_evidence_preview",
            ),
        ]
        return urls + super().get_urls()

    def change_view(self, request, object_id, form_url="", extra_context=None):
        vendor = self.get_object(request, object_id)
        extra_context = extra_context or {}
        if vendor is not None and self.has_view_permission(request, vendor):
            vendor = kyc_status_expire(vendor=vendor)  # a passed expiry date shows as what it is
            extra_context["kyc"] = self.kyc_panel(request, vendor)
        return super().change_view(request, object_id, form_url, extra_context)

    def kyc_panel(self, request, vendor: Vendor) -> dict:
        """What the panel template shows: the progress, the eight slots, and what this person may do."""
        progress = vendor_kyc_progress(vendor=vendor)
        user = request.user
        urls = {
            name: reverse(f"admin:vendors_vendor_kyc_{name}", args=[vendor.pk])
            for name in ("upload", "delete", "review", "decide", "override")
        }
        now = today()
        soon = now + dt.timedelta(days=EXPIRY_WARNING_DAYS)
        slots = [
            {
                "slot": slot,
                "document": slot.document,
                "preview": reverse("admin:vendors_vendor_kyc_preview", args=[vendor.pk, slot.document_key])
                if slot.document
                else "",
                "expiring": bool(
                    slot.document and slot.document.expiry_date and now <= slot.document.expiry_date <= soon
                ),
            }
            for slot in progress.slots
        ]
        approved = sum(1 for slot in progress.slots if slot.required and slot.state == "APPROVED")
        documents = [slot.document for slot in progress.slots if slot.document]
        may_decide = user.has_capability("vendors.kyc.decide") and vendor.kyc_status == VendorKycStatus.UNDER_REVIEW
        not_independent = may_decide and four_eyes_breach(vendor, user, documents)
        gaps = verification_gaps(vendor, documents, now)
        pending = vendor_pending_override(vendor=vendor) if gaps and may_decide else None
        for item in slots:
            document = item["document"]
            item["kept_because"] = document.relied_on(vendor) if document else None
        return {
            "vendor": vendor,
            "progress": progress,
            "slots": slots,
            "approved_required": approved,
            "missing_labels": [DocumentKey(key).label for key in progress.missing],
            "urls": urls,
            "can_write": user.has_capability("vendors.kyc.write"),
            "can_decide": may_decide and not not_independent,
            "verification_gaps": [(DocumentKey(key).label, why) for key, why in gaps.items()],
            "pending_override": pending,
            "pending_override_url": reverse("admin:backoffice_approvalrequest_change", args=[pending.pk])
            if pending
            else "",
            "evidence": self.evidence_panel(vendor, now) if user.has_capability(EVIDENCE_CAPABILITY) else None,
            "retention_days": settings.VENDOR_KYC_RETENTION_DAYS,
            "not_independent": not_independent or "",
            "reasons": ReviewReason.choices,
            "document_keys": DocumentKey.choices,
            "accept": ".pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png",
        }

    def evidence_panel(self, vendor: Vendor, now: dt.date) -> list[dict]:
        """The superseded documents kept as evidence, each with its preview, original and retention end."""
        return [
            {
                "document": document,
                "label": DocumentKey(document.document_key).label,
                "preview": reverse("admin:vendors_vendor_kyc_evidence_preview", args=[vendor.pk, document.pk]),
                "original": signed_file_url(document.key),
                "retained_until": document.retained_until(),
                "purgeable": now > document.retained_until(),
            }
            for document in vendor_superseded_documents(vendor=vendor)
        ]


@register_card
def _vendor_kyc_cards(request):
    """Two figures for the dashboard: vendors awaiting a decision, and vendors with papers about to expire."""
    if not request.user.has_perm("vendors.view_vendor"):
        return []
    url = reverse("admin:vendors_vendor_changelist")
    counts = vendor_kyc_card_counts()
    awaiting, expiring = counts["awaiting"], counts["expiring"]
    return [
        {
            "title": "Vendors awaiting a KYC decision",
            "value": awaiting,
            "hint": "All six required documents in",
            "link": f"{url}?kyc_status={VendorKycStatus.UNDER_REVIEW}",
        },
        {
            "title": "Vendor documents expiring soon",
            "value": expiring,
            "hint": f"Vendors with a paper expiring within {EXPIRY_WARNING_DAYS} days",
            "link": f"{url}?expiry=soon",
        },
    ]
