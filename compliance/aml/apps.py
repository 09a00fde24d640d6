from django.apps import AppConfig


class AmlConfig(AppConfig):
    """AML rules, the engine that runs them over the ledger, and the alerts they raise."""

    name = "compliance.aml"
    label = "compliance_aml"
    verbose_name = "Compliance: AML rules and alerts"

    def ready(self):
        from backoffice import roles
        from compliance.aml.engine.hooks import screen_after_commit
        from compliance.aml.services.identity import duplicate_identity_alert, identity_decision_decides_alerts
        from kyc import hooks as kyc_hooks

        kyc_hooks.transaction_recorded.register(screen_after_commit)
        kyc_hooks.identity_duplicate.register(duplicate_identity_alert)
        kyc_hooks.identity_duplicate_decided.register(identity_decision_decides_alerts)
        roles.grant_admin_permissions("rules.read", {"compliance.view_amlrule", "compliance.view_amlruleversion"})
        roles.grant_admin_permissions("rules.write", {"compliance.add_amlrule", "compliance.change_amlrule"})
        roles.grant_admin_permissions("alerts.read", {"compliance.view_alert", "compliance.view_alertevent"})
        roles.grant_admin_permissions("alerts.manage", {"compliance.change_alert"})
