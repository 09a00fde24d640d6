from django.apps import AppConfig


class BackofficeConfig(AppConfig):
    name = "backoffice"
    verbose_name = "Administration"

    def ready(self):
        from django.conf import settings

        from backoffice import demo, tasks
        from backoffice.admin import audit_names, navigation
        from backoffice.auth import otp, principals, tokens
        from backoffice.celery import app as celery_app
        from backoffice.ops import db_deadline, metrics

        if settings.DB_ANSWER_DEADLINE:
            db_deadline.install(connect=settings.DB_CONNECT_TIMEOUT, answer=settings.DB_ANSWER_DEADLINE)
        # every process that runs Django (server, worker, command) sends tasks with this app's settings
        celery_app.set_current()
        metrics.register_collector("queue_depth", tasks.queue_depth_metrics)

        principals.register(
            principals.PrincipalKind(
                kind=tokens.STAFF,
                model="backoffice.Staff",
                login_field="email",
                active={"is_active": True},
                generation_field="token_generation",
            )
        )
        otp.backends.check()
        demo.register_seeder("backoffice", demo.seed)
        navigation.add_section(
            title="Administration",
            position=90,
            items=[
                navigation.Item(
                    "Staff", "badge", "admin:backoffice_staff_changelist", navigation.has_perm("backoffice.view_staff")
                ),
                navigation.Item(
                    "Audit log",
                    "history",
                    "admin:backoffice_auditlog_changelist",
                    navigation.has_perm("backoffice.view_auditlog"),
                ),
            ],
        )

        # what the audit log's entries are about, by name
        audit_names.register("staff", "backoffice.Staff")
