from django.apps import AppConfig


class AmlConfig(AppConfig):
    """AML rules, the engine that runs them over the ledger, and the alerts they raise."""

    name = "compliance.aml"
    label = "compliance_aml"
    verbose_name = "Compliance: AML rules and alerts"

    def ready(self):
        from backoffice import audit_names, roles
        from compliance.aml.engine.hooks import screen_after_commit
        from compliance.aml.services.identity import duplicate_identity_alert
        from kyc import hooks as kyc_hooks

        kyc_hooks.transaction_recorded.register(screen_after_commit)
        kyc_hooks.identity_duplicate.register(duplicate_identity_alert)
        roles.grant_admin_permissions("rules.read", {"compliance.view_amlrule", "compliance.view_amlruleversion"})
        roles.grant_admin_permissions("rules.write", {"compliance.add_amlrule", "compliance.change_amlrule"})
        roles.grant_admin_permissions("alerts.read", {"compliance.view_alert", "compliance.view_alertevent"})
        roles.grant_admin_permissions("alerts.manage", {"compliance.change_alert"})

        # what the audit log's entries are about, by name
        audit_names.register("alert", "compliance.Alert")
        audit_names.register("aml_rule", "compliance.AMLRule")
