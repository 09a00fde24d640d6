import contextvars

from django import forms
from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.contrib.auth.models import Group
from django.db import transaction
from django.utils.html import format_html, format_html_join
from rest_framework_simplejwt.token_blacklist.models import BlacklistedToken, OutstandingToken
from unfold.admin import ModelAdmin
from unfold.decorators import display
from unfold.forms import AdminPasswordChangeForm, UserChangeForm, UserCreationForm

from backoffice import services
from backoffice.admin import audit_names
from backoffice.admin.base import EstimatedCountPaginator, ReadOnlyAdminMixin, ServiceErrorsAdminMixin
from backoffice.models import SERVICE_KEY_SCOPES, AuditLog, ServiceKey, Staff
from backoffice.services.service_keys import service_key_create, service_key_revoke

# Roles replace groups, and token rows are machinery, not something staff should browse or edit.
for _model in (Group, OutstandingToken, BlacklistedToken):
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


# The staff member changing a password in the admin site, for the form's save (Django's
# user_change_password builds the form itself, with no way to hand it the request).
_password_actor: contextvars.ContextVar = contextvars.ContextVar("staff_password_actor", default=None)


class StaffPasswordChangeForm(AdminPasswordChangeForm):
    """A password set in the admin site goes through the service: audited, and every session of the account ends."""

    def save(self, commit=True):
        staff = super().save(commit=False)
        if commit:
            services.staff_password_save(staff=staff, actor=_password_actor.get())
        return staff


@admin.register(Staff)
class StaffAdmin(ServiceErrorsAdminMixin, BaseUserAdmin, ModelAdmin):
    """Staff accounts; only the admin role reaches this page (see backoffice.auth.roles)."""

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

    def save_model(self, request, obj, form, change):
        services.staff_admin_save(staff=obj, actor=request.user, changed_fields=list(form.changed_data))

    def has_delete_permission(self, request, obj=None):
        return False  # staff are deactivated, never deleted: their name stays on what they did

    def user_change_password(self, request, id, form_url=""):
        token = _password_actor.set(request.user)
        try:
            with transaction.atomic():
                return super().user_change_password(request, id, form_url)
        finally:
            _password_actor.reset(token)


@admin.register(AuditLog)
class AuditLogAdmin(ReadOnlyAdminMixin, ModelAdmin):
    """The audit log, read-only for everyone: what each entry is about by name (linked), and its changes in one
    readable form (``backoffice.admin.audit_names``), whichever app wrote it."""

    list_display = ("created_at", "actor_email", "action", "object_label", "changes_summary", "ip_address")
    list_filter = ("action", "object_type")
    search_fields = ("actor_email", "object_id", "action")
    date_hierarchy = "created_at"
    list_select_related = ("actor",)
    show_full_result_count = False
    paginator = EstimatedCountPaginator
    readonly_fields = (
        "created_at",
        "actor",
        "actor_email",
        "action",
        "object_label",
        "object_type",
        "object_id",
        "changes_readable",
        "ip_address",
    )
    fields = readonly_fields

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


class ServiceKeyForm(forms.ModelForm):
    scopes = forms.MultipleChoiceField(
        choices=[(s, s) for s in SERVICE_KEY_SCOPES],
        initial=list(SERVICE_KEY_SCOPES),
        widget=forms.CheckboxSelectMultiple,
        help_text="What the key opens: recording transactions, and the dry run.",
    )

    class Meta:
        model = ServiceKey
        fields = ("name", "scopes")


@admin.register(ServiceKey)
class ServiceKeyAdmin(ServiceErrorsAdminMixin, ModelAdmin):
    """Keys of the payment platform's services: made here (the key is shown once), revoked here, never edited."""

    form = ServiceKeyForm
    list_display = ("name", "prefix", "scopes", "created_by", "created_at", "last_used_at", "revoked_at")
    list_filter = (("revoked_at", admin.EmptyFieldListFilter),)
    search_fields = ("name", "prefix")
    list_select_related = ("created_by",)
    actions = ["revoke_keys"]
    readonly_fields = ("name", "prefix", "scopes", "created_by", "created_at", "last_used_at", "revoked_at")

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
        made = service_key_create(
            name=form.cleaned_data["name"], scopes=form.cleaned_data["scopes"], actor=request.user
        )
        # the admin goes on with ``obj`` (history entry, redirect): make it the row the service wrote
        obj.pk = made.service_key.pk
        obj.refresh_from_db()
        obj._state.adding = False
        self.message_user(
            request,
            f"Service key {made.service_key.name!r} created. Copy it now, it is not shown again: {made.key}",
            messages.WARNING,
        )

    def response_add(self, request, obj, post_url_continue=None):
        return super().response_post_save_add(request, obj)

    @admin.action(description="Revoke the selected keys", permissions=["revoke"])
    def revoke_keys(self, request, queryset):
        revoked = 0
        for row in queryset.filter(revoked_at__isnull=True):
            service_key_revoke(service_key=row, actor=request.user)
            revoked += 1
        self.message_user(request, f"{revoked} key(s) revoked", messages.SUCCESS)

    def has_revoke_permission(self, request):
        return request.user.has_perm("backoffice.change_servicekey")
