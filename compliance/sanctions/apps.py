from django.apps import AppConfig


class SanctionsConfig(AppConfig):
    """Sanctions lists (UN, OFAC, FollowTheMoney exports) imported as versions, their entries and deltas.

    The screening side registers on ``compliance.sanctions.hooks.entries_changed`` to re-screen what an
    import added, changed or removed, and polls ``selectors.lists.sanctions_revision`` to rebuild its index.
    """

    name = "compliance.sanctions"
    label = "compliance_sanctions"
    verbose_name = "Compliance: sanctions lists"

    def ready(self):
        from backoffice import roles
        from backoffice.admin import audit_names, navigation

        roles.grant_admin_permissions(
            "sanctions.read",
            {
                "compliance.view_sanctionslist",
                "compliance.view_listversion",
                "compliance.view_sanctionsentry",
                "compliance.view_sanctionsentrychange",
                "compliance.view_sanctionsimport",
            },
        )
        audit_names.register("sanctions_list", "compliance.SanctionsList")
        navigation.add_section(
            title="Sanctions lists",
            position=41,
            items=[
                navigation.Item(
                    "Lists and versions",
                    "gavel",
                    "admin:compliance_sanctionslist_changelist",
                    navigation.has_capability("sanctions.read"),
                ),
                navigation.Item(
                    "Entries",
                    "person_off",
                    "admin:compliance_sanctionsentry_changelist",
                    navigation.has_capability("sanctions.read"),
                ),
                navigation.Item(
                    "Import a list",
                    "upload_file",
                    "admin:compliance_sanctions_import",
                    navigation.has_capability("sanctions.import"),
                ),
            ],
        )

        # screening: matches, the decision's screener, the review queue, the freeze (screening_wiring)
        from compliance.sanctions import screening_wiring

        screening_wiring.register()
