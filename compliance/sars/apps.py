from django.apps import AppConfig


class SarsConfig(AppConfig):
    """Suspicious activity reports: drafting, four eyes, goAML export, the retention hold."""

    name = "compliance.sars"
    label = "compliance_sars"
    verbose_name = "Compliance: SARs"

    def ready(self):
        from backoffice import roles
        from backoffice.admin import audit_names
        from compliance.aml import hooks as aml_hooks
        from compliance.sars import (
            checks,  # noqa: F401 - registers the system checks
            goaml,
        )
        from compliance.sars.selectors.sar import user_under_sar_retention
        from compliance.sars.services.sar import sar_create_from_alert
        from kyc import hooks as kyc_hooks

        kyc_hooks.purge_held.register(user_under_sar_retention)
        aml_hooks.sar_from_alert.register(sar_create_from_alert)
        goaml.check_settings()
        roles.grant_admin_permissions("sars.read", {"compliance.view_sar", "compliance.view_sartransition"})

        # what the audit log's entries are about, by name
        audit_names.register("sar", "compliance.SAR")
