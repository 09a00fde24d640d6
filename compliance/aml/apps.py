from django.apps import AppConfig


class AmlConfig(AppConfig):
    """AML rules, the engine that runs them over the ledger, and the alerts they raise."""

    name = "compliance.aml"
    label = "compliance_aml"
    verbose_name = "Compliance: AML rules and alerts"

    def ready(self):
        from django.conf import settings

        from backoffice import roles
        from backoffice.admin import audit_names
        from backoffice.ops import metrics, periodic
        from compliance.aml import metrics as aml_metrics
        from compliance.aml.engine.registry import RULE_TYPES
        from compliance.aml.models.parameters import parameters_register
        from compliance.aml.services.approvals import register_approval_kinds
        from compliance.aml.services.held import on_held_transaction_decided
        from compliance.aml.services.identity import duplicate_identity_alert, identity_decision_decides_alerts
        from compliance.aml.services.screening import screen_transaction
        from kyc import hooks as kyc_hooks

        # each rule type's parameters, declared in its engine/<type>.py: the models check conditions against them
        for rule_type in RULE_TYPES.values():
            parameters_register(rule_type.name, rule_type.parameters)
        kyc_hooks.transaction_screen.register(screen_transaction)
        # the dual-control policy's rows for rule changes and snoozes (docs/dual-control.md)
        register_approval_kinds()
        from django.db.models.signals import post_delete, post_save

        from compliance.aml.models.governance import RuleSnooze
        from compliance.aml.models.rules import AMLRule
        from compliance.aml.services.screening import _rule_cache

        # the record-time cache of active rules and snoozes: reloaded at once after a change in this process
        for model in (AMLRule, RuleSnooze):
            name = model._meta.model_name
            post_save.connect(_rule_cache.invalidate, sender=model, dispatch_uid=f"aml_cache_save_{name}")
            post_delete.connect(_rule_cache.invalidate, sender=model, dispatch_uid=f"aml_cache_delete_{name}")
        kyc_hooks.identity_duplicate.register(duplicate_identity_alert)
        kyc_hooks.identity_duplicate_decided.register(identity_decision_decides_alerts)
        kyc_hooks.held_transaction_decided.register(on_held_transaction_decided)
        roles.grant_admin_permissions(
            "transactions.review", {"compliance.view_heldtransaction", "compliance.change_heldtransaction"}
        )
        roles.grant_admin_permissions(
            "rules.read",
            {
                "compliance.view_amlrule",
                "compliance.view_amlruleversion",
                "compliance.view_ruleproposal",
                "compliance.view_rulesnooze",
            },
        )
        roles.grant_admin_permissions(
            "rules.write",
            {
                "compliance.add_amlrule",
                "compliance.change_amlrule",
                "compliance.add_rulesnooze",
                "compliance.change_rulesnooze",
            },
        )
        metrics.register_collector("aml_alerts", aml_metrics.alerts_by_status)
        # the ledger since the last periodic scan, once per period whatever the number of beats (backoffice.ops.beat)
        periodic.register("aml-scan", task="compliance.aml.periodic_scan", every=settings.AML_SCAN_SECONDS)
        roles.grant_admin_permissions("alerts.read", {"compliance.view_alert", "compliance.view_alertevent"})
        roles.grant_admin_permissions("alerts.manage", {"compliance.change_alert"})

        # what the audit log's entries are about, by name
        audit_names.register("alert", "compliance.Alert")
        audit_names.register("aml_rule", "compliance.AMLRule")
