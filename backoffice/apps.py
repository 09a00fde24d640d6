from django.apps import AppConfig


class BackofficeConfig(AppConfig):
    name = "backoffice"
    verbose_name = "Administration"

    def ready(self):
        from django.conf import settings

        from backoffice import db_deadline, demo, navigation, otp, principals, tokens

        if settings.DB_ANSWER_DEADLINE:
            db_deadline.install(connect=settings.DB_CONNECT_TIMEOUT, answer=settings.DB_ANSWER_DEADLINE)

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
