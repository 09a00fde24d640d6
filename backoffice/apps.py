from django.apps import AppConfig


class BackofficeConfig(AppConfig):
    name = "backoffice"
    verbose_name = "Administration"

    def ready(self):
        from backoffice import audit_names, demo, navigation, otp, principals, tokens

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
