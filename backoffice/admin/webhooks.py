"""The payment platform's webhook endpoints and their deliveries in the admin site (admins): add an endpoint (its
secret shown once), change or delete it, rotate its secret, see every delivery's state and send one again."""

from django import forms
from django.contrib import admin, messages
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from unfold.admin import ModelAdmin
from unfold.decorators import action, display

from backoffice.admin.actions import Done, each_object, object_action
from backoffice.admin.base import EstimatedCountPaginator, ReadOnlyAdminMixin, ServiceErrorsAdminMixin
from backoffice.admin.dashboard import register_card
from backoffice.choices import DeliveryStatus, WebhookEventType
from backoffice.models import WebhookDelivery, WebhookEndpoint
from backoffice.selectors.webhooks import webhook_deliveries, webhook_endpoints, webhook_endpoints_failing
from backoffice.services import webhook_http, webhooks

MANAGE = "backoffice.change_webhookendpoint"


class WebhookEndpointForm(forms.ModelForm):
    events = forms.MultipleChoiceField(
        choices=WebhookEventType.choices,
        widget=forms.CheckboxSelectMultiple,
        help_text="What this endpoint is sent.",
    )
    url = forms.CharField(
        max_length=2000,
        help_text="https:// (http:// only for a host named in WEBHOOK_ALLOWED_HOSTS); never a private address.",
    )

    class Meta:
        model = WebhookEndpoint
        fields = ("url", "events", "description", "is_active")

    def clean_url(self):
        # the service checks it again when it saves; here the refusal lands on the field, in words
        url = self.cleaned_data["url"].strip()
        try:
            webhook_http.check_url(url)
        except webhook_http.UnsafeTarget as exc:
            raise forms.ValidationError(str(exc)) from None
        return url


@admin.register(WebhookEndpoint)
class WebhookEndpointAdmin(ServiceErrorsAdminMixin, ModelAdmin):
    form = WebhookEndpointForm
    list_display = ("label", "url", "event_list", "is_active", "created_at")
    list_filter = ("is_active",)
    search_fields = ("url", "description")
    list_select_related = ("created_by",)
    actions = ["delete_endpoints"]
    actions_detail = ["rotate_secret"]
    readonly_fields = ("created_by", "created_at", "deliveries_table")

    def get_queryset(self, request):
        return webhook_endpoints().select_related("created_by")

    def get_fields(self, request, obj=None):
        if obj is None:
            return ("url", "events", "description")
        return ("url", "events", "description", "is_active", "created_by", "created_at", "deliveries_table")

    def has_delete_permission(self, request, obj=None):
        return False  # deleted through the service (nothing more is sent; the rows stay), the action below

    def has_manage_permission(self, request, obj=None):
        return request.user.has_perm(MANAGE)

    @display(description="Endpoint")
    def label(self, obj):
        return obj.description or obj.url

    @display(description="Events")
    def event_list(self, obj):
        labels = dict(WebhookEventType.choices)
        return ", ".join(labels.get(t, t) for t in obj.events or [])

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        if change:
            saved = webhooks.webhook_endpoint_update(
                endpoint=obj,
                actor=request.user,
                url=data["url"],
                event_types=data["events"],
                description=data.get("description") or "",
                is_active=data.get("is_active", True),
            )
        else:
            saved, secret = webhooks.webhook_endpoint_create(
                actor=request.user,
                url=data["url"],
                event_types=data["events"],
                description=data.get("description") or "",
            )
            self.message_user(
                request,
                f"Endpoint created. Copy its signing secret now, it is not shown again: {secret}",
                messages.WARNING,
            )
        # the admin goes on with ``obj`` (history entry, redirect): make it the row the service wrote
        obj.pk = saved.pk
        obj.refresh_from_db()
        obj._state.adding = False

    @action(description="Rotate the signing secret", url_path="rotate-secret", permissions=["manage"])
    def rotate_secret(self, request, object_id):
        if request.method != "POST":
            # the button is a link: its GET shows what rotating does; only that page's POST rotates
            return self._confirm_rotation(request, object_id)
        page = reverse("admin:backoffice_webhookendpoint_change", args=[object_id])

        def rotate(endpoint):
            _endpoint, secret = webhooks.webhook_endpoint_rotate(endpoint=endpoint, actor=request.user)
            return Done(
                "New signing secret (shown once; the old one is still signed with for a day): " + secret,
                level=messages.WARNING,
            )

        return object_action(
            self,
            request,
            object_id,
            rotate,
            back=page,
            lookup=lambda: get_object_or_404(webhook_endpoints(), pk=object_id),
            allowed=self.has_manage_permission,
        )

    def _confirm_rotation(self, request, object_id):
        endpoint = get_object_or_404(webhook_endpoints(), pk=object_id)
        context = {
            **self.admin_site.each_context(request),
            "title": f"Rotate the signing secret of {endpoint}",
            "endpoint": endpoint,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/backoffice/webhook_rotate.html", context)

    @admin.action(description="Delete the selected endpoints (nothing more is sent)", permissions=["manage"])
    def delete_endpoints(self, request, queryset):
        deleted = each_object(
            self,
            request,
            queryset,
            lambda endpoint: webhooks.webhook_endpoint_delete(endpoint=endpoint, actor=request.user),
        )
        self.message_user(request, f"{len(deleted)} endpoint(s) deleted", messages.SUCCESS)

    @display(description="Recent deliveries")
    def deliveries_table(self, obj):
        rows = list(webhook_deliveries(endpoint=obj)[:25])
        if not rows:
            return "No deliveries yet."
        return format_html(
            "<table class='vk-table'><thead><tr><th>Event</th><th>Status</th><th>Attempts</th><th>Last answer</th>"
            "<th>Next attempt</th><th></th></tr></thead><tbody>{}</tbody></table>",
            format_html_join(
                "",
                "<tr><td>{} <code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
                "<td><a href='{}'>Details</a></td></tr>",
                (
                    (
                        d.event.get_type_display(),
                        d.event_id,
                        d.get_status_display(),
                        d.attempts,
                        d.last_error or (f"HTTP {d.last_status_code}" if d.last_status_code else "—"),
                        d.next_attempt_at.strftime("%Y-%m-%d %H:%M:%S") if d.next_attempt_at else "—",
                        reverse("admin:backoffice_webhookdelivery_change", args=[d.pk]),
                    )
                    for d in rows
                ),
            ),
        )


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(ReadOnlyAdminMixin, ModelAdmin):
    """Every delivery: its state, attempts, last answer and next attempt; sent again on demand."""

    list_display = ("event_label", "endpoint", "status", "attempts", "last_answer", "next_attempt_at", "delivered_at")
    list_filter = ("status", "event__type")
    search_fields = ("event__id", "endpoint__url", "endpoint__description")
    list_select_related = ("event", "endpoint")
    show_full_result_count = False
    paginator = EstimatedCountPaginator
    actions = ["resend_selected"]
    readonly_fields = (
        "event_label",
        "endpoint",
        "status",
        "attempts",
        "last_status_code",
        "last_error",
        "next_attempt_at",
        "delivered_at",
        "created_at",
        "payload",
        "resend_button",
    )
    fields = readonly_fields

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path("<uuid:delivery_id>/resend/", wrap(self.resend_view), name="backoffice_webhookdelivery_resend"),
            *super().get_urls(),
        ]

    def has_resend_permission(self, request):
        return request.user.has_perm(MANAGE)

    @display(description="Event")
    def event_label(self, obj):
        return f"{obj.event.get_type_display()} ({obj.event_id})"

    @display(description="Last answer")
    def last_answer(self, obj):
        if obj.last_error:
            return obj.last_error
        return f"HTTP {obj.last_status_code}" if obj.last_status_code else "—"

    @display(description="What is sent")
    def payload(self, obj):
        return format_html("<pre>{}</pre>", webhooks.payload(obj.event).decode())

    @display(description="")
    def resend_button(self, obj):
        if obj.endpoint.deleted_at:
            return "The endpoint was deleted."
        # inside the admin's own form (forms do not nest): the button posts that form, with its CSRF token, here
        return format_html(
            "<button type='submit' class='button' formaction='{}' formmethod='post' formnovalidate>"
            "Send it again now</button>",
            reverse("admin:backoffice_webhookdelivery_resend", args=[obj.pk]),
        )

    def resend_view(self, request, delivery_id):
        def resend(delivery):
            delivery = webhooks.webhook_retry(delivery=delivery, actor=request.user)
            delivered = delivery.status == DeliveryStatus.DELIVERED
            return Done(
                f"Sent again: {delivery.get_status_display()} ({self.last_answer(delivery)})",
                level=messages.SUCCESS if delivered else messages.WARNING,
            )

        return object_action(
            self,
            request,
            delivery_id,
            resend,
            back=reverse("admin:backoffice_webhookdelivery_change", args=[delivery_id]),
            lookup=lambda: get_object_or_404(
                WebhookDelivery.objects.select_related("event", "endpoint"), pk=delivery_id
            ),
            allowed=self.has_resend_permission,
        )

    @admin.action(description="Send the selected deliveries again now", permissions=["resend"])
    def resend_selected(self, request, queryset):
        sent = each_object(
            self,
            request,
            queryset.select_related("event", "endpoint"),
            lambda delivery: webhooks.webhook_retry(delivery=delivery, actor=request.user),
            label=lambda delivery: delivery.event_id,
        )
        self.message_user(request, f"{len(sent)} deliver(ies) sent again", messages.SUCCESS)


@register_card
def _failing_endpoints_card(request):
    if not request.user.has_perm("backoffice.view_webhookendpoint"):
        return []
    failing = webhook_endpoints_failing().count()
    return [
        {
            "title": "Webhook endpoints failing",
            "value": failing,
            "hint": "Endpoints with a failed delivery, or one tried three times without a 2xx",
            "link": reverse("admin:backoffice_webhookendpoint_changelist"),
            "tone": "danger" if failing else None,
        }
    ]
