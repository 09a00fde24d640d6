from django.apps import AppConfig


class AmlConfig(AppConfig):
    """AML rules, the engine that runs them over the ledger, and the alerts they raise."""

    name = "compliance.aml"
    label = "compliance_aml"
    verbose_name = "Compliance: AML rules and alerts"

    def ready(self):
        from django.conf import settings

        from backoffice import metrics, periodic, roles
        from compliance.aml import metrics as aml_metrics
        from compliance.aml.engine.hooks import screen_after_commit
        from compliance.aml.services.identity import duplicate_identity_alert
        from kyc import hooks as kyc_hooks

        kyc_hooks.transaction_recorded.register(screen_after_commit)
        kyc_hooks.identity_duplicate.register(duplicate_identity_alert)
        metrics.register_collector("aml_alerts", aml_metrics.alerts_by_status)
        # the ledger since the last periodic scan, once per period whatever the number of beats (backoffice.beat)
        periodic.register("aml-scan", task="compliance.aml.periodic_scan", every=settings.AML_SCAN_SECONDS)
        roles.grant_admin_permissions("rules.read", {"compliance.view_amlrule", "compliance.view_amlruleversion"})
        roles.grant_admin_permissions("rules.write", {"compliance.add_amlrule", "compliance.change_amlrule"})
        roles.grant_admin_permissions("alerts.read", {"compliance.view_alert", "compliance.view_alertevent"})
        roles.grant_admin_permissions("alerts.manage", {"compliance.change_alert"})
