from django.apps import AppConfig


class ComplianceConfig(AppConfig):
    name = "compliance"
    verbose_name = "Compliance"

    def ready(self):
        from backoffice import demo, navigation, roles
        from compliance import (
            checks,  # noqa: F401 - registers the system checks
            deadlines,
            goaml,
        )
        from compliance import demo as compliance_demo
        from compliance.customer_view import register_panels
        from compliance.engine.hooks import screen_after_commit
        from compliance.selectors.sar import user_under_sar_retention
        from compliance.services.identity import duplicate_identity_alert
        from compliance.services.screening import screen_renamed_user_after_commit, screen_user_after_commit
        from kyc import hooks as kyc_hooks

        kyc_hooks.transaction_recorded.register(screen_after_commit)
        kyc_hooks.user_registered.register(screen_user_after_commit)
        kyc_hooks.user_name_changed.register(screen_renamed_user_after_commit)
        kyc_hooks.purge_held.register(user_under_sar_retention)
        kyc_hooks.identity_duplicate.register(duplicate_identity_alert)
        goaml.check_settings()
        deadlines.check_settings()
        register_panels()
        roles.grant_admin_permissions("sars.read", {"compliance.view_sar", "compliance.view_sartransition"})
        roles.grant_admin_permissions("rules.read", {"compliance.view_amlrule", "compliance.view_amlruleversion"})
        roles.grant_admin_permissions("rules.write", {"compliance.add_amlrule", "compliance.change_amlrule"})
        roles.grant_admin_permissions("alerts.read", {"compliance.view_alert", "compliance.view_alertevent"})
        roles.grant_admin_permissions("alerts.manage", {"compliance.change_alert"})
        roles.grant_admin_permissions(
            "peps.manage",
            {
                "compliance.view_pep",
                "compliance.add_pep",
                "compliance.change_pep",
                "compliance.delete_pep",
                "compliance.view_pepmatch",
                "compliance.change_pepmatch",
                "compliance.view_pepmatchevent",
                "compliance.view_screeningrun",
            },
        )
        demo.register_seeder(self.label, compliance_demo.seed)
        navigation.add_section(
            title="Compliance",
            position=40,
            items=[
                navigation.Item(
                    "SARs", "report", "admin:compliance_sar_changelist", navigation.has_capability("sars.read")
                ),
                navigation.Item(
                    "Alerts",
                    "notification_important",
                    "admin:compliance_alert_changelist",
                    navigation.has_perm("compliance.view_alert"),
                ),
                navigation.Item(
                    "AML rules",
                    "rule",
                    "admin:compliance_amlrule_changelist",
                    navigation.has_perm("compliance.view_amlrule"),
                ),
                navigation.Item(
                    "PEP list",
                    "account_balance",
                    "admin:compliance_pep_changelist",
                    navigation.has_capability("peps.manage"),
                ),
                navigation.Item(
                    "PEP matches",
                    "person_search",
                    "admin:compliance_pepmatch_changelist",
                    navigation.has_capability("peps.manage"),
                ),
                navigation.Item(
                    "Screen a name",
                    "manage_search",
                    "admin:compliance_pep_screen",
                    navigation.has_capability("peps.manage"),
                ),
                navigation.Item(
                    "Screening runs",
                    "history",
                    "admin:compliance_screeningrun_changelist",
                    navigation.has_capability("peps.manage"),
                ),
            ],
        )
