from django.apps import AppConfig


class ComplianceConfig(AppConfig):
    """Compliance: owns the models' one app label and migrations; its sub-domains are apps of their own.

    There is no ``compliance/models.py``: each sub-domain's models declare ``app_label = "compliance"`` and Django
    imports them with the sub-domain's app (``compliance.aml.models``...), so they join this label's registry.

    ``compliance.casework`` <- ``compliance.aml`` <- ``compliance.peps`` <- ``compliance.sars``: each
    sub-domain registers its hooks, permissions and checks in its own ``ready()``; this app adds what spans them
    (the customer view's panels, the demo, the sidebar).
    """

    name = "compliance"
    verbose_name = "Compliance"

    def import_models(self):
        super().import_models()
        # Django runs an app's post-migrate work (its content types and permissions) and dumpdata only when the
        # app has a models module; this label's models are declared in the sub-domains, so the package stands in
        self.models_module = self.module

    def ready(self):
        from backoffice import demo
        from backoffice.admin import navigation
        from compliance import demo as compliance_demo
        from compliance.customer_view import register_panels
        from compliance.risk import party_flags, risk_floor_without_sar, risk_scores, sar_risk_points
        from kyc import hooks as kyc_hooks

        register_panels()
        # the one risk function: kyc's risk service stores what it answers on every change of a fact
        kyc_hooks.risk_scores.register(risk_scores)
        kyc_hooks.sar_risk_points.register(sar_risk_points)
        kyc_hooks.risk_floor_without_sar.register(risk_floor_without_sar)
        kyc_hooks.party_flags.register(party_flags)
        demo.register_seeder(self.label, compliance_demo.seed)
        navigation.add_section(
            title="Compliance",
            position=40,
            items=[
                navigation.Item(
                    "SARs", "report", "admin:compliance_sar_changelist", navigation.has_capability("sars.read")
                ),
                navigation.Item(
                    "Threshold reports",
                    "payments",
                    "admin:compliance_thresholdreport_changelist",
                    navigation.has_capability("ctr.read"),
                ),
                navigation.Item(
                    "Threshold report batches",
                    "inventory_2",
                    "admin:compliance_thresholdreportbatch_changelist",
                    navigation.has_capability("ctr.read"),
                ),
                navigation.Item(
                    "Regulator statistics",
                    "monitoring",
                    "admin:compliance_regulator_statistics",
                    navigation.has_capability("regulator.stats"),
                ),
                navigation.Item(
                    "Alerts",
                    "notification_important",
                    "admin:compliance_alert_changelist",
                    navigation.has_perm("compliance.view_alert"),
                ),
                navigation.Item(
                    "Held transactions",
                    "pause_circle",
                    "admin:compliance_heldtransaction_changelist",
                    navigation.has_perm("compliance.view_heldtransaction"),
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
                navigation.Item(
                    "Names screened",
                    "fact_check",
                    "admin:compliance_namescreening_changelist",
                    navigation.has_capability("peps.manage"),
                ),
            ],
        )
