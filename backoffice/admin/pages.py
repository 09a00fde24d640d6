import contextvars

from django import forms
from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice
from rest_framework_simplejwt.token_blacklist.models import BlacklistedToken, OutstandingToken
from unfold.admin import ModelAdmin
from unfold.decorators import action, display
from unfold.forms import AdminPasswordChangeForm, UserChangeForm, UserCreationForm

from backoffice.admin import audit_names
from backoffice.admin.actions import Done, object_action
from backoffice.admin.base import EstimatedCountPaginator, ReadOnlyAdminMixin, ServiceErrorsAdminMixin
from backoffice.auth import mfa
from backoffice.errors import DomainError
from backoffice.models import SERVICE_KEY_SCOPES, AuditLog, ServiceKey, Staff
from backoffice.services.audit_verify import audit_record_outcome, audit_verify
from backoffice.services.mfa import staff_mfa_reset_ask
from backoffice.services.service_keys import service_key_ask, service_key_revoke
from backoffice.services.staff_access import staff_admin_submit, staff_password_submit

# Roles replace groups, and token rows are machinery, not something staff should browse or edit; nor are
# django-otp's devices, whose pages would show other people's secrets (each member has their own page instead,
# backoffice.admin.two_factor).
for _model in (Group, OutstandingToken, BlacklistedToken, TOTPDevice, StaticDevice):
    if admin.site.is_registered(_model):
        admin.site.unregister(_model)

admin.site.site_header = "Vikela Back Office"
admin.site.site_title = "Vikela Back Office"
admin.site.index_title = "Dashboard"


class StaffCreationForm(UserCreationForm):
    class Meta:
        model = Staff
        fields = ("email", "first_name", "last_name", "role")


class StaffChangeForm(UserChangeForm):
    class Meta:
        model = Staff
        fields = ("email", "first_name", "last_name", "role", "is_active", "is_superuser")


# The staff member changing a password in the admin site, for the form's save, and the approval request the save
# opened, for the answer (Django's user_change_password builds the form itself, with no way to hand it the request).
_password_actor: contextvars.ContextVar = contextvars.ContextVar("staff_password_actor", default=None)


class StaffPasswordChangeForm(AdminPasswordChangeForm):
    """A password set in the admin site goes through the service: audited, and every session of the account ends."""

    def save(self, commit=True):
        staff = super().save(commit=False)
        if commit:
            asked = _password_actor.get() or {"actor": None, "approval": None}
            saved = staff_password_submit(staff=staff, actor=asked["actor"])
            asked["approval"] = saved.request  # STAFF_FOUR_EYES: the account waits for its re-activation
        return staff


class ResetReasonForm(forms.Form):
    reason = forms.CharField(
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text="How you know it is them and why they cannot sign in; the approver reads it.",
    )


@admin.register(Staff)
class StaffAdmin(ServiceErrorsAdminMixin, BaseUserAdmin, ModelAdmin):
    """Staff accounts; only the admin role reaches this page (see backoffice.roles)."""

    form = StaffChangeForm
    add_form = StaffCreationForm
    change_password_form = StaffPasswordChangeForm
    list_display = ("email", "first_name", "last_name", "role", "is_active", "last_login", "created_at")
    list_filter = ("role", "is_active")
    search_fields = ("email", "first_name", "last_name")
    ordering = ("email",)
    readonly_fields = ("last_login", "created_at", "updated_at")
    filter_horizontal = ()
    fieldsets = (
        (None, {"fields": ("email", "password")}),
        ("Person", {"fields": ("first_name", "last_name")}),
        ("Access", {"fields": ("role", "is_active", "is_superuser")}),
        ("Dates", {"fields": ("last_login", "created_at", "updated_at")}),
    )
    add_fieldsets = (
        (
            None,
            {"classes": ("wide",), "fields": ("email", "first_name", "last_name", "role", "password1", "password2")},
        ),
    )

    actions_detail = ["reset_two_factor"]

    def save_model(self, request, obj, form, change):
        saved = staff_admin_submit(staff=obj, actor=request.user, changed_fields=list(form.changed_data))
        request._staff_approval = saved.request

    def _approval_response(self, request, response):
        """After a save whose granted access waits for a second administrator (STAFF_FOUR_EYES): say so, and go to
        the request, where its state can be followed."""
        approval = getattr(request, "_staff_approval", None)
        if approval is None:
            return response
        meanwhile = (
            "until then the account keeps the access it had"
            if approval.payload.get("why") == "edited"
            else f"until then {approval.payload.get('email')} cannot sign in"
        )
        self.message_user(
            request,
            f"Asked for: {approval.summary}. Another administrator approves it (Approvals: waiting for my approval); "
            f"{meanwhile}.",
            messages.WARNING,
        )
        return HttpResponseRedirect(reverse("admin:backoffice_approvalrequest_change", args=[approval.pk]))

    def response_add(self, request, obj, post_url_continue=None):
        if getattr(request, "_staff_approval", None) is not None:
            return self._approval_response(request, None)  # not "added, you may edit it again below": it waits
        return super().response_add(request, obj, post_url_continue)

    def response_change(self, request, obj):
        if getattr(request, "_staff_approval", None) is not None:
            return self._approval_response(request, None)
        return super().response_change(request, obj)

    def get_actions_detail(self, request, object_id):
        # the reset only on the page of another member who has a second factor (their own they remove themselves)
        actions = super().get_actions_detail(request, object_id)
        staff = self.get_object(request, object_id) if object_id else None
        if staff is not None and staff.pk != request.user.pk and mfa.is_enrolled(staff):
            return actions
        return [action for action in actions if not action.action_name.endswith("_reset_two_factor")]

    @action(
        description="Reset two-factor sign-in",
        url_path="reset-two-factor",
        permissions=["change"],
        icon="phonelink_erase",
    )
    def reset_two_factor(self, request, object_id):
        """Ask for another member's second factor to be removed (a lost phone): a second administrator approves it
        in the approval queue (backoffice.services.mfa.staff_mfa_reset_ask)."""
        staff = self.get_object(request, object_id)
        if staff is None:
            raise Http404("Staff member not found")
        back = reverse("admin:backoffice_staff_change", args=[staff.pk])
        form = ResetReasonForm(request.POST if request.method == "POST" else None)
        if request.method == "POST" and form.is_valid():

            def ask(member):
                staff_mfa_reset_ask(staff=member, actor=request.user, reason=form.cleaned_data["reason"])
                return Done(
                    f"Asked: a second administrator approves the reset of {member.email} in the approval queue.",
                    url=back,
                )

            return object_action(self, request, object_id, ask, back=back, lookup=lambda: staff)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "original": staff,
            "form": form,
            "back": back,
            "title": f"Reset the two-factor sign-in of {staff.email}?",
        }
        return TemplateResponse(request, "admin/backoffice/staff_mfa_reset.html", context)

    def has_delete_permission(self, request, obj=None):
        return False  # staff are deactivated, never deleted: their name stays on what they did

    def user_change_password(self, request, id, form_url=""):
        asked = {"actor": request.user, "approval": None}
        token = _password_actor.set(asked)
        try:
            with transaction.atomic():
                response = super().user_change_password(request, id, form_url)
        except DomainError as exc:  # a request for this member already waits: nothing was kept, say why
            self.message_user(request, exc.said, messages.ERROR)
            return HttpResponseRedirect(request.get_full_path())
        finally:
            _password_actor.reset(token)
        request._staff_approval = asked["approval"]
        return self._approval_response(request, response)


@admin.register(AuditLog)
class AuditLogAdmin(ReadOnlyAdminMixin, ModelAdmin):
    """The audit log, read-only for everyone: what each entry is about by name (linked), and its changes in one
    readable form (``backoffice.admin.audit_names``), whichever app wrote it."""

    list_display = ("sequence", "created_at", "actor_email", "action", "object_label", "changes_summary", "link_hash")
    list_filter = ("action", "object_type")
    search_fields = ("actor_email", "object_id", "action")
    date_hierarchy = "created_at"
    list_select_related = ("actor",)
    show_full_result_count = False
    paginator = EstimatedCountPaginator
    readonly_fields = (
        "sequence",
        "created_at",
        "actor",
        "actor_email",
        "action",
        "object_label",
        "object_type",
        "object_id",
        "changes_readable",
        "ip_address",
        "digest",
        "hash",
        "redacted_at",
    )
    fields = readonly_fields
    actions_list = ["verify_chain"]

    @display(description="Hash")
    def link_hash(self, obj):
        # the first characters are enough to compare with a checkpoint by eye; the entry's page shows it whole
        return format_html('<code title="{}">{}…</code>', obj.hash, obj.hash[:12])

    @action(description="Verify the chain now", url_path="verify-chain", icon="verified_user")
    def verify_chain(self, request):
        """Walk the whole chain and say whether it is intact (a read: the walk changes nothing but the
        dashboard's alarm, which an intact walk clears)."""
        if not request.user.has_perm("backoffice.view_auditlog"):
            raise PermissionDenied
        result = audit_verify()
        audit_record_outcome(result)
        if result.intact:
            messages.success(
                request,
                f"The audit chain is intact: {result.entries} entries verified, head {result.head_sequence} "
                f"({result.head_hash[:16]}…).",
            )
        else:
            broken = result.first_broken
            messages.error(
                request, f"The audit chain is broken at entry {broken.sequence}: {broken.detail} ({broken.reason})."
            )
        return HttpResponseRedirect(reverse("admin:backoffice_auditlog_changelist"))

    def get_changelist(self, request, **kwargs):
        base = super().get_changelist(request, **kwargs)

        class NamedChangeList(base):
            def get_results(self, request):
                super().get_results(request)
                audit_names.attach(self.result_list)  # one query per kind of object on the page

        return NamedChangeList

    @display(description="About")
    def object_label(self, obj):
        if not hasattr(obj, "named"):
            audit_names.attach([obj])
        if obj.named is None:
            return f"{obj.object_type.replace('_', ' ')} {obj.object_id}".strip() or "—"
        if obj.named.url:
            return format_html('<a href="{}">{}</a>', obj.named.url, obj.named.name)
        return obj.named.name

    @display(description="Changes")
    def changes_summary(self, obj):
        return audit_names.summary(obj.changes) or "—"

    @display(description="Changes")
    def changes_readable(self, obj):
        lines = audit_names.readable_changes(obj.changes)
        if not lines:
            return "—"
        return format_html(
            "<ul data-testid='audit-changes'>{}</ul>", format_html_join("", "<li>{}</li>", ((line,) for line in lines))
        )


# what each scope opens, in words: the form's boxes and the key's page say it so, not as the scope's code
SCOPE_WORDS = {
    "transactions.record": "Record transactions (transactions.record)",
    "transactions.screen": "Screen a transaction without recording it, the dry run (transactions.screen)",
}


class ServiceKeyForm(forms.ModelForm):
    # nothing ticked to start with, and at least one needed: a key never gets every scope by default
    scopes = forms.MultipleChoiceField(
        choices=[(s, SCOPE_WORDS.get(s, s)) for s in SERVICE_KEY_SCOPES],
        required=True,
        error_messages={"required": "Tick at least one scope: what the key may open."},
        widget=forms.CheckboxSelectMultiple,
        help_text="What the key opens: recording transactions, and the dry run. Tick only what the service needs.",
    )

    class Meta:
        model = ServiceKey
        fields = ("name", "scopes")


@admin.register(ServiceKey)
class ServiceKeyAdmin(ServiceErrorsAdminMixin, ModelAdmin):
    """Keys of the payment platform's services: made here (the key is shown once), revoked here, never edited."""

    form = ServiceKeyForm
    list_display = ("name", "prefix", "scopes_display", "created_by", "created_at", "last_used_at", "revoked_at")
    list_filter = (("revoked_at", admin.EmptyFieldListFilter),)
    search_fields = ("name", "prefix")
    list_select_related = ("created_by",)
    actions = ["revoke_keys"]
    readonly_fields = ("name", "prefix", "scopes_display", "created_by", "created_at", "last_used_at", "revoked_at")

    @admin.display(description="Scopes")
    def scopes_display(self, obj):
        return "; ".join(SCOPE_WORDS.get(s, s) for s in obj.scopes or []) or "—"

    def get_readonly_fields(self, request, obj=None):
        return self.readonly_fields if obj is not None else ()

    def get_fields(self, request, obj=None):
        return self.readonly_fields if obj is not None else ("name", "scopes")

    def has_change_permission(self, request, obj=None):
        # the change page only shows the key; edits would be a new key
        return obj is None and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        outcome = service_key_ask(
            name=form.cleaned_data["name"], scopes=form.cleaned_data["scopes"], actor=request.user
        )
        if outcome.waits:
            # SERVICE_KEY_FOUR_EYES: no key yet; a second administrator approves it (and is shown the secret)
            request._key_approval = outcome.request
            return
        made = outcome.result
        # the admin goes on with ``obj`` (history entry, redirect): make it the row the service wrote
        obj.pk = made.service_key.pk
        obj.refresh_from_db()
        obj._state.adding = False
        self.message_user(
            request,
            f"Service key {made.service_key.name!r} created. Copy it now, it is not shown again: {made.key}",
            messages.WARNING,
        )

    def log_addition(self, request, obj, message):
        if getattr(request, "_key_approval", None) is None:
            return super().log_addition(request, obj, message)
        return None  # nothing was added yet: the approval request is audited on its own

    def response_add(self, request, obj, post_url_continue=None):
        approval = getattr(request, "_key_approval", None)
        if approval is not None:
            self.message_user(
                request,
                f"Asked for: {approval.summary}. Another administrator approves it (Approvals: waiting for my "
                "approval); the key is made then, and shown to them once.",
                messages.WARNING,
            )
            return HttpResponseRedirect(reverse("admin:backoffice_approvalrequest_change", args=[approval.pk]))
        return super().response_post_save_add(request, obj)

    @admin.action(description="Revoke the selected keys", permissions=["revoke"])
    def revoke_keys(self, request, queryset):
        """Asks first (a revoked key stops the platform's calls at once and cannot be restored), then revokes."""
        live = list(queryset.filter(revoked_at__isnull=True).order_by("name"))
        if request.POST.get("confirmed") != "yes":
            context = {
                **self.admin_site.each_context(request),
                "opts": self.opts,
                "title": f"Revoke {len(live)} service key{'s' if len(live) != 1 else ''}?",
                "keys": live,
                "selected": request.POST.getlist(admin.helpers.ACTION_CHECKBOX_NAME),
            }
            return TemplateResponse(request, "admin/backoffice/service_key_revoke.html", context)
        revoked = 0
        for row in live:
            service_key_revoke(service_key=row, actor=request.user)
            revoked += 1
        self.message_user(request, f"{revoked} key(s) revoked", messages.SUCCESS)

    def has_revoke_permission(self, request):
        return request.user.has_perm("backoffice.change_servicekey")
