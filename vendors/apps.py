from django.apps import AppConfig


class VendorsConfig(AppConfig):
    name = "vendors"
    verbose_name = "Vendors"

    def ready(self):
        from backoffice import demo, roles
        from backoffice.admin import audit_names, navigation
        from backoffice.auth import principals
        from vendors import demo as vendors_demo
        from vendors.services import PRINCIPAL
        from vendors.services.kyc_override import register_approval_kinds

        principals.register(PRINCIPAL)
        # the dual-control policy's row for verifying a vendor despite the gaps (docs/dual-control.md)
        register_approval_kinds()
        # the vendor page shows its documents and its KYC history (an inline): reading them is reading the vendor
        roles.grant_admin_permissions("vendors.kyc.read", {"vendors.view_vendor", "vendors.view_vendorkycchange"})
        demo.register_seeder(self.label, vendors_demo.seed)
        navigation.add_section(
            title="Vendors",
            position=30,
            items=[
                navigation.Item(
                    "Vendor KYC",
                    "storefront",
                    "admin:vendors_vendor_changelist",
                    navigation.has_perm("vendors.view_vendor"),
                ),
            ],
        )

        # what the audit log's entries are about, by name
        audit_names.register("vendor", "vendors.Vendor")
