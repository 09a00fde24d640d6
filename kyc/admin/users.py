"""Admin pages of KYC users. Every write calls kyc.services, so it lands in the audit log."""

import re
import uuid
from decimal import Decimal

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import reverse
from unfold.admin import ModelAdmin
from unfold.decorators import action, display
from unfold.views import ChangeList

from backoffice.admin.actions import object_action
from backoffice.admin.base import (
    DefaultChoiceFilter,
    EstimatedCountPaginator,
    ServiceErrorsAdminMixin,
)
from backoffice.admin.dashboard import register_card
from backoffice.admin.fields import Badge
from backoffice.errors import DomainError
from backoffice.limits import NOTE_MAX_LENGTH
from backoffice.money import money
from backoffice.visibility import Facet, sees
from kyc import panels, services
from kyc.choices import CreditStatus, RiskRating, VerificationStatus
from kyc.errors import IdempotencyKeyReused
from kyc.filtersets import search_users_tolerant
from kyc.models import PlatformUser
from kyc.selectors.history import user_statistics, user_timeline
from kyc.selectors.users import (
    user_archived,
    user_documents,
    user_frozen,
    user_get,
    user_stats,
    user_transactions,
    users_by_seen_risk,
    users_seen_by,
)

VERIFICATION_COLOURS = {
    VerificationStatus.VERIFIED: "success",
    VerificationStatus.PENDING: "warning",
    VerificationStatus.REJECTED: "danger",
}
RISK_COLOURS = {RiskRating.LOW: "success", RiskRating.MEDIUM: "warning", RiskRating.HIGH: "danger"}
LEDGER_ROWS_SHOWN = 50
TIMELINE_EVENTS_SHOWN = 100


class ArchiveStateFilter(DefaultChoiceFilter):
    """Active users by default, like the API; archived ones on request."""

    title = "state"
    parameter_name = "state"
    default = "active"

    def lookups(self, request, model_admin):
        return [("active", "Active"), ("archived", "Archived")]

    def queryset(self, request, queryset):
        return queryset.filter(is_archived=self.current() == "archived")


class HasCardFilter(admin.SimpleListFilter):
    title = "NFC card"
    parameter_name = "card"

    def lookups(self, request, model_admin):
        return [("yes", "Linked"), ("no", "None")]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.exclude(nfc_card_number__isnull=True).exclude(nfc_card_number="")
        if self.value() == "no":
            return queryset.filter(nfc_card_number__isnull=True) | queryset.filter(nfc_card_number="")
        return queryset


class SeenRiskFilter(admin.SimpleListFilter):
    """The rating as the viewer sees it (``users_by_seen_risk``): support and finance filter without a SAR's points."""

    title = "risk rating"
    parameter_name = "risk"

    def lookups(self, request, model_admin):
        return RiskRating.choices

    def queryset(self, request, queryset):
        return queryset.filter(seen_risk_band=self.value()) if self.value() in RiskRating.values else queryset


class SeenRiskChangeList(ChangeList):
    """The list's page of users, their risk read as the viewer may see it, in one go (``users_seen_by``)."""

    def get_results(self, request):
        super().get_results(request)
        self.result_list = users_seen_by(self.result_list, viewer=request.user)


class UnfreezeForm(forms.Form):
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=NOTE_MAX_LENGTH,
        help_text="Why the freeze is lifted (a court order, a listing revoked ...): kept in the audit log",
    )


class CreditForm(forms.Form):
    amount = forms.DecimalField(
        label="Amount (SZL)", max_digits=9, decimal_places=2, min_value=Decimal("0.01"), max_value=services.MAX_CREDIT
    )
    reason = forms.CharField(max_length=255, help_text="Why the wallet is credited (promotion, correction ...)")
    confirm = forms.BooleanField(label="I confirm this credit", required=True)
    # the key of this form, from its URL (credit_wallet): a double click, a reload or Back and resubmit credit once
    idempotency_key = forms.CharField(widget=forms.HiddenInput)


# The form's key lives in its URL, so it is bound to the form, not to one rendering of it: Back returns
# to the same URL (the browser may fetch it again) and the same key comes with it.
FORM_KEY = re.compile(r"[0-9a-f]{32}")


class UserChangeForm(forms.ModelForm):
    class Meta:
        model = PlatformUser
        fields = ("first_name", "last_name", "email")


@admin.register(PlatformUser)
class PlatformUserAdmin(ServiceErrorsAdminMixin, ModelAdmin):
    """KYC users: searchable like the API, badges for status and risk, credit and archive through the services."""

    form = UserChangeForm
    list_display = (
        "full_name_display",
        "phone_number",
        "email",
        "verification_badge",
        "risk_badge",
        "risk_score",
        "balance_display",
        "wallet_badge",
        "nfc_card_number",
        "created_at",
    )
    list_filter = (ArchiveStateFilter, "verification_status", SeenRiskFilter, HasCardFilter)
    search_fields = ("first_name",)  # the search itself is search_users_tolerant (get_search_results)
    search_help_text = "Name, legacy names, phone, e-mail or ID number"
    list_per_page = 50
    show_full_result_count = False
    paginator = EstimatedCountPaginator
    ordering = ("-created_at", "-id")
    actions = ["archive_selected", "restore_selected"]
    actions_detail = ["credit_wallet", "archive_user", "restore_user", "unfreeze_wallet"]
    fieldsets = (
        ("Person", {"fields": ("first_name", "last_name", "email", "names", "surname", "phone_number")}),
        (
            "Identity",
            {"fields": ("id_number", "date_of_birth", "sex", "nationality", "occupation", "region", "country")},
        ),
        (
            "KYC",
            {
                "fields": (
                    "verification_status",
                    "is_verified",
                    "risk_badge",
                    "risk_score",
                    "documents_gallery",
                )
            },
        ),
        (
            "Wallet",
            {
                "fields": (
                    "wallet_badge",
                    "frozen_at",
                    "balance_display",
                    "nfc_card_number",
                    "rewards_points",
                    "referral_code",
                    "ledger",
                )
            },
        ),
        ("Account", {"fields": ("is_phone_verified", "is_archived", "archived_at", "last_login", "created_at")}),
        ("Timeline", {"fields": ("timeline",)}),
    )
    readonly_fields = (
        "names",
        "surname",
        "phone_number",
        "id_number",
        "date_of_birth",
        "sex",
        "nationality",
        "occupation",
        "region",
        "country",
        "verification_status",
        "is_verified",
        "risk_badge",
        "risk_score",
        "wallet_badge",
        "frozen_at",
        "balance_display",
        "nfc_card_number",
        "rewards_points",
        "referral_code",
        "is_phone_verified",
        "is_archived",
        "archived_at",
        "last_login",
        "created_at",
        "documents_gallery",
        "ledger",
        "timeline",
    )

    # the customer view (kyc.panels): sections other apps contribute, each showing itself only to its roles
    change_form_outer_before_template = "kyc/admin/customer_view.html"

    class Media:
        css = {"all": ("kyc/admin.css",)}

    def change_view(self, request, object_id, form_url="", extra_context=None):
        extra_context = extra_context or {}
        user = self.get_object(request, object_id)
        if user is not None:
            extra_context["customer_panels"] = panels.render_panels(request, user)
        return super().change_view(request, object_id, form_url, extra_context)

    # ---------------------------------------------------------------- permissions

    def get_object(self, request, object_id, from_field=None):
        user = super().get_object(request, object_id, from_field)
        if user is not None:  # what the page may show this viewer (a display method does not see the request)
            users_seen_by([user], viewer=request.user)
            user._viewer = request.user
        return user

    def get_changelist(self, request, **kwargs):
        return SeenRiskChangeList

    def has_add_permission(self, request):
        return False  # users register themselves

    def has_delete_permission(self, request, obj=None):
        return False  # archive (soft delete) and the API's purge are the only ways out

    def has_archive_permission(self, request, obj=None):
        return request.user.has_capability("users.archive")

    # the page offers the one move the user's state allows: Archive on an active user, Restore on an archived one
    def has_archive_user_permission(self, request, object_id=None):
        return self.has_archive_permission(request) and self._archived(request, object_id) is False

    def has_restore_user_permission(self, request, object_id=None):
        return self.has_archive_permission(request) and self._archived(request, object_id) is True

    def _archived(self, request, object_id) -> bool | None:
        """Whether the user is archived; None when there is no such user (or no id: the list's buttons).

        Asked once per request: both buttons' checks need it.
        """
        if object_id is None:
            return None
        known = request.__dict__.setdefault("_vk_archived", {})
        if object_id not in known:
            try:
                known[object_id] = user_archived(object_id)
            except (ValueError, ValidationError):  # a malformed id in the URL
                known[object_id] = None
        return known[object_id]

    def has_credit_permission(self, request, obj=None):
        return request.user.has_capability("users.credit")

    def has_unfreeze_wallet_permission(self, request, object_id=None):
        if object_id is None or not request.user.has_capability("users.unfreeze"):
            return False
        try:
            return bool(user_frozen(object_id))
        except (ValueError, ValidationError):
            return False

    # ---------------------------------------------------------------- list

    def get_queryset(self, request):
        # the risk to filter and order by is the one this viewer sees (support and finance: no SAR points)
        return users_by_seen_risk(super().get_queryset(request).defer("password"), viewer=request.user)

    def get_search_results(self, request, queryset, search_term):
        if not search_term.strip():
            return queryset, False
        return search_users_tolerant(queryset, search_term), False

    @display(description="Balance", ordering="balance")
    def balance_display(self, obj):
        return money(obj.balance)

    @display(description="Name", ordering="last_name")
    def full_name_display(self, obj):
        return obj.full_name

    @display(description="Verification", label=VERIFICATION_COLOURS, ordering="verification_status")
    def verification_badge(self, obj):
        # the colour from the code, the text in words (a bare code reads as DOCUMENTS_SUBMITTED: issue 31)
        return Badge(obj.verification_status, obj.get_verification_status_display())

    # that the wallet is frozen, never why (the reason is compliance's, shown to compliance roles only)
    @display(description="Wallet", label={"Frozen": "danger", "Active": "success"}, ordering="is_frozen")
    def wallet_badge(self, obj):
        return "Frozen" if obj.is_frozen else "Active"

    # the risk as the viewer may see it (backoffice.visibility): support and finance, without a SAR's points
    @display(description="Risk", label=RISK_COLOURS, ordering="seen_risk_band")
    def risk_badge(self, obj):
        rating = obj.seen_risk_rating
        return Badge(rating, RiskRating(rating).label) if rating in RiskRating.values else rating

    @display(description="Risk score", ordering="seen_risk_floor")
    def risk_score(self, obj):
        return obj.seen_risk_score

    # ---------------------------------------------------------------- detail

    @display(description="Documents")
    def documents_gallery(self, obj):
        documents = list(user_documents(user=obj))
        return render_to_string("kyc/admin/documents.html", {"documents": documents})

    @display(description="Ledger")
    def ledger(self, obj):
        rows = list(
            user_transactions(user=obj)
            .select_related("counterparty_user", "counterparty_vendor")
            .order_by("-created_at", "-pk")[:LEDGER_ROWS_SHOWN]
        )
        link = reverse("admin:kyc_transaction_changelist") + f"?user__id__exact={obj.pk}"
        context = {"rows": rows, "link": link, "shown": LEDGER_ROWS_SHOWN}
        # a held row's officer note says why it was decided: never for support or finance (tipping-off)
        context["show_review"] = sees(getattr(obj, "_viewer", None), Facet.REVIEW)
        return render_to_string("kyc/admin/ledger.html", context)

    @display(description="Timeline")
    def timeline(self, obj):
        # the risk score's reasons name alerts, SARs and PEP matches: only for those who see them (tipping-off)
        reasons = sees(getattr(obj, "_viewer", None), Facet.RISK_REASONS)
        events = user_timeline(user=obj, limit=TIMELINE_EVENTS_SHOWN, risk_reasons=reasons)
        statistics = user_statistics(user=obj)
        return render_to_string("kyc/admin/timeline.html", {"events": events, "statistics": statistics})

    def save_model(self, request, obj, form, change):
        services.user_update(
            user=obj,
            actor=request.user,
            first_name=form.cleaned_data["first_name"],
            last_name=form.cleaned_data["last_name"],
            email=form.cleaned_data["email"],
        )

    # ---------------------------------------------------------------- actions

    @admin.action(description="Archive selected users", permissions=["archive"])
    def archive_selected(self, request, queryset):
        for user in queryset:
            services.user_archive(user=user, actor=request.user)
        self.message_user(request, f"{queryset.count()} user(s) archived.", messages.SUCCESS)

    @admin.action(description="Restore selected users", permissions=["archive"])
    def restore_selected(self, request, queryset):
        for user in queryset:
            services.user_unarchive(user=user, actor=request.user)
        self.message_user(request, f"{queryset.count()} user(s) restored.", messages.SUCCESS)

    def _user_or_404(self, object_id):
        return user_get(user_id=object_id)

    def _back(self, user):
        return redirect(reverse("admin:kyc_platformuser_change", args=[user.pk]))

    @action(description="Credit wallet", url_path="credit", permissions=["credit"], icon="payments")
    def credit_wallet(self, request, object_id):
        user = self._user_or_404(object_id)
        key = request.GET.get("key", "")
        if not FORM_KEY.fullmatch(key):
            # a new form: give it its key in its URL (the redirect replaces this entry in the history)
            return redirect(f"{request.path}?key={uuid.uuid4().hex}")
        if request.method == "POST":
            form = CreditForm(request.POST)
            if form.is_valid():
                try:
                    result = services.user_credit(
                        user=user,
                        actor=request.user,
                        amount=form.cleaned_data["amount"],
                        reason=form.cleaned_data["reason"],
                        idempotency_key=key,
                    )
                except IdempotencyKeyReused:
                    self.message_user(
                        request,
                        "This form was already used for another credit; nothing was credited. "
                        "Open Credit wallet again for a new credit.",
                        messages.ERROR,
                    )
                    return self._back(user)
                except DomainError as exc:
                    self.message_user(request, exc.said, messages.ERROR)
                else:
                    self._report_credit(request, result)
                    return self._back(user)
        else:
            form = CreditForm(initial={"idempotency_key": key})
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "original": user,
            "form": form,
            "title": f"Credit the wallet of {user.full_name}",
        }
        return TemplateResponse(request, "kyc/admin/credit_form.html", context)

    def _report_credit(self, request, result) -> None:
        credit = result.request
        if result.replayed and not result.needs_approval:
            self.message_user(
                request,
                f"This credit was already applied ({result.reference}); nothing was credited again. "
                f"Balance {money(credit.user.balance)}.",
                messages.WARNING,
            )
        elif credit.status == CreditStatus.PENDING:
            self.message_user(
                request,
                f"{money(credit.amount)} takes what you credited to this wallet within 24 hours above the "
                "approval threshold: the credit waits for a second finance or admin person (Approvals: waiting "
                "for my approval, or Credit requests). No money has moved yet.",
                messages.WARNING,
            )
        elif result.needs_approval:
            self.message_user(request, f"This credit was already {credit.get_status_display().lower()}.", messages.INFO)
        else:
            self.message_user(
                request,
                f"Credited {money(result.added_amount)}; balance now {money(result.new_balance)}.",
                messages.SUCCESS,
            )

    def _confirm(self, request, user, *, verb: str, service):
        if request.method == "POST":

            def act(user):
                service(user=user, actor=request.user)
                return f"{user.full_name} {verb}."

            back = reverse("admin:kyc_platformuser_change", args=[user.pk])
            return object_action(self, request, user.pk, act, back=back, lookup=lambda: user)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "original": user,
            "verb": verb,
            "title": f"{verb.capitalize()} {user.full_name}?",
        }
        return TemplateResponse(request, "kyc/admin/confirm.html", context)

    @action(description="Lift the freeze", url_path="unfreeze", permissions=["unfreeze_wallet"], icon="lock_open")
    def unfreeze_wallet(self, request, object_id):
        user = self._user_or_404(object_id)
        form = UnfreezeForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                services.user_unfreeze(user=user, actor=request.user, reason=form.cleaned_data["reason"])
            except DomainError as exc:
                self.message_user(request, exc.said, messages.ERROR)
            else:
                self.message_user(request, f"The wallet of {user.full_name} is no longer frozen.", messages.SUCCESS)
            return self._back(user)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "original": user,
            "form": form,
            "title": f"Lift the freeze on {user.full_name}?",
        }
        return TemplateResponse(request, "kyc/admin/unfreeze.html", context)

    @action(description="Archive", url_path="archive", permissions=["archive_user"], icon="archive")
    def archive_user(self, request, object_id):
        user = self._user_or_404(object_id)
        return self._confirm(request, user, verb="archived", service=services.user_archive)

    @action(description="Restore", url_path="restore", permissions=["restore_user"], icon="unarchive")
    def restore_user(self, request, object_id):
        user = self._user_or_404(object_id)
        return self._confirm(request, user, verb="restored", service=services.user_unarchive)


@register_card
def _user_cards(request):
    if not request.user.has_perm("kyc.view_platformuser"):
        return []
    stats = user_stats()
    changelist = reverse("admin:kyc_platformuser_changelist")
    return [
        {
            "title": "KYC users",
            "value": stats.total_users,
            "hint": f"{stats.new_users_this_week} new this week",
            "link": changelist,
        },
        {
            "title": "Pending verification",
            "value": stats.pending_verification,
            "hint": "Users awaiting KYC",
            "link": f"{changelist}?verification_status__exact=PENDING",
        },
    ]
