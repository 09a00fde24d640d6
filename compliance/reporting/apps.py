from django.apps import AppConfig


class ReportingConfig(AppConfig):
    """Regulatory reporting beyond suspicion: cash threshold reports, their goAML batches, the unit's answers,
    and the regulator statistics for the MLRO."""

    name = "compliance.reporting"
    label = "compliance_reporting"
    verbose_name = "Compliance: regulatory reporting"

    def ready(self):
        from backoffice import roles
        from compliance.reporting.panels import render_threshold_reports
        from compliance.reporting.services.threshold import (
            threshold_report_for_transaction,
            user_has_threshold_reports,
        )
        from kyc import hooks as kyc_hooks
        from kyc import panels

        kyc_hooks.transaction_recorded.register(threshold_report_for_transaction)
        # a held cash transaction released later counts on the day it happened, from the moment it completes
        kyc_hooks.transaction_completed.register(threshold_report_for_transaction)
        panels.register(
            panels.Panel(
                "threshold_reports",
                "Cash threshold reports",
                35,
                render_threshold_reports,
                panels.for_capability("ctr.read"),
            )
        )
        kyc_hooks.purge_held.register(user_has_threshold_reports)
        roles.grant_admin_permissions(
            "ctr.read",
            {
                "compliance.view_thresholdreport",
                "compliance.view_thresholdreportbatch",
                "compliance.view_thresholdreportfiling",
                "compliance.view_thresholdreportevent",
                "compliance.view_thresholdreportbatchevent",
            },
        )
