from django.apps import AppConfig
from django.db.models.signals import post_migrate


def _ensure_audit_chain_head(using="default", **_):
    from backoffice.models import AuditChainHead, AuditLog

    if not AuditChainHead.objects.using(using).exists() and not AuditLog.objects.using(using).exists():
        AuditChainHead.objects.using(using).get_or_create(pk=1)


class BackofficeConfig(AppConfig):
    name = "backoffice"
    verbose_name = "Administration"

    def ready(self):
        from django.conf import settings

        from backoffice import background, demo, dual_control, tasks
        from backoffice.admin import audit_names, links, navigation, readable_json
        from backoffice.auth import otp, principals, tokens
        from backoffice.celery import app as celery_app
        from backoffice.ops import db_deadline, metrics, periodic
        from backoffice.services import mfa, service_keys, staff_access, webhooks

        links.install()  # read-only foreign keys link only to pages the viewer may open
        readable_json.install()  # read-only JSON fields read as words, not as a JSON document
        if settings.DB_ANSWER_DEADLINE:
            db_deadline.install(connect=settings.DB_CONNECT_TIMEOUT, answer=settings.DB_ANSWER_DEADLINE)
        # every process that runs Django (server, worker, command) sends tasks with this app's settings
        celery_app.set_current()
        metrics.register_collector("queue_depth", tasks.queue_depth_metrics)
        # the audit chain: the newest entries verified every few minutes, the head signed once a day
        periodic.register("audit-watch", task="backoffice.audit_watch", every=settings.AUDIT_VERIFY_EVERY_SECONDS)
        # the audit chain's head row, again after a flush (tests) emptied the tables: no write pays for making it
        post_migrate.connect(_ensure_audit_chain_head, sender=self)
        # webhooks: an event's deliveries handed to one task after its commit; the sweep sends retries and anything lost
        webhooks.set_sender(background.send_webhook_deliveries)
        periodic.register("webhook-sweep", task="backoffice.webhook_sweep", every=settings.WEBHOOK_SWEEP_SECONDS)
        periodic.register("audit-checkpoint", task="backoffice.audit_checkpoint", crontab={"minute": "10", "hour": "0"})
        # dual control: requests nobody decided in time lapse (docs/dual-control.md)
        service_keys.register_approval_kind()
        mfa.register_approval_kind()
        staff_access.register_approval_kind()
        periodic.register(
            "approvals-expire", task="backoffice.approvals_expire", every=settings.APPROVAL_EXPIRE_EVERY_SECONDS
        )

        principals.register(
            principals.PrincipalKind(
                kind=tokens.STAFF,
                model="backoffice.Staff",
                login_field="email",
                active={"is_active": True},
                generation_field="token_generation",
                second_factor=lambda staff, otp, via: mfa.staff_second_factor(staff=staff, otp=otp, via=via),
            )
        )
        otp.backends.check()
        demo.register_seeder("backoffice", demo.seed)
        navigation.add_section(
            title="Approvals",
            position=5,
            items=[
                navigation.Item(
                    "Waiting for my approval",
                    "approval",
                    "admin:backoffice_approvalrequest_changelist",
                    lambda request: (
                        request.user.is_authenticated and bool(dual_control.kinds_decidable_by(request.user))
                    ),
                ),
            ],
        )
        navigation.add_section(
            title="Administration",
            position=90,
            items=[
                navigation.Item(
                    "Staff", "badge", "admin:backoffice_staff_changelist", navigation.has_perm("backoffice.view_staff")
                ),
                navigation.Item(
                    "Webhooks",
                    "webhook",
                    "admin:backoffice_webhookendpoint_changelist",
                    navigation.has_perm("backoffice.view_webhookendpoint"),
                ),
                navigation.Item(
                    "Webhook deliveries",
                    "outbox",
                    "admin:backoffice_webhookdelivery_changelist",
                    navigation.has_perm("backoffice.view_webhookdelivery"),
                ),
                navigation.Item(
                    "Audit log",
                    "history",
                    "admin:backoffice_auditlog_changelist",
                    navigation.has_perm("backoffice.view_auditlog"),
                ),
            ],
        )

        navigation.add_section(
            title="My account",
            position=95,
            items=[navigation.Item("Two-factor sign-in", "phonelink_lock", "admin:staff_two_factor")],
        )

        # what the audit log's entries are about, by name
        audit_names.register("staff", "backoffice.Staff")
        audit_names.register("webhook_endpoint", "backoffice.WebhookEndpoint")
        audit_names.register("approval_request", "backoffice.ApprovalRequest")
