from django.apps import AppConfig


class KycConfig(AppConfig):
    name = "kyc"
    verbose_name = "KYC users"

    def ready(self):
        from backoffice import demo, roles
        from backoffice.admin import audit_names, navigation
        from backoffice.auth import principals
        from kyc import demo as kyc_demo
        from kyc.customer_view import register_panels
        from kyc.services.approvals import register_approval_kinds
        from kyc.services.auth import PRINCIPAL

        principals.register(PRINCIPAL)
        # the dual-control policy's rows for credits and held releases (docs/dual-control.md)
        register_approval_kinds()
        roles.grant_admin_permissions(
            "users.read", {"kyc.view_platformuser", "kyc.view_transaction", "kyc.view_transactionevent"}
        )
        roles.grant_admin_permissions("users.update", {"kyc.change_platformuser"})
        roles.grant_admin_permissions("users.credit", {"kyc.view_creditrequest", "kyc.view_creditrequestevent"})
        demo.register_seeder(self.label, kyc_demo.seed)
        register_panels()
        navigation.add_section(
            title="KYC",
            position=20,
            items=[
                navigation.Item(
                    "KYC users",
                    "group",
                    "admin:kyc_platformuser_changelist",
                    navigation.has_perm("kyc.view_platformuser"),
                ),
                navigation.Item(
                    "Transactions",
                    "receipt_long",
                    "admin:kyc_transaction_changelist",
                    navigation.has_perm("kyc.view_transaction"),
                ),
                navigation.Item(
                    "Credit requests",
                    "approval",
                    "admin:kyc_creditrequest_changelist",
                    navigation.has_capability("users.credit"),
                ),
            ],
        )

        # what the audit log's entries are about, by name
        audit_names.register("kyc_user", "kyc.PlatformUser")
        audit_names.register("user", "kyc.PlatformUser")  # a principal signing in
