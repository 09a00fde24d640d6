from django.apps import AppConfig


class PepsConfig(AppConfig):
    """The PEP list, screening our users against it, and the matches an officer decides."""

    name = "compliance.peps"
    label = "compliance_peps"
    verbose_name = "Compliance: PEPs"

    def ready(self):
        from django.conf import settings

        from backoffice import roles
        from backoffice.admin import audit_names
        from backoffice.http.warmup import server_warm_up
        from backoffice.ops import periodic
        from compliance.aml.choices import AlertType
        from compliance.aml.evidence import finding_register
        from compliance.peps.evidence import pep_match_finding
        from compliance.peps.selectors.pep_index import pep_index
        from compliance.peps.services.screening import screen_renamed_user_after_commit, screen_user_after_commit
        from kyc import hooks as kyc_hooks

        kyc_hooks.user_registered.register(screen_user_after_commit)
        # a server process builds the PEP index before its first screen needs it
        server_warm_up.register(pep_index)
        kyc_hooks.user_name_changed.register(screen_renamed_user_after_commit)
        # a PEP match alert reads, on the alert page, as this sub-domain words its details
        finding_register(AlertType.PEP_MATCH, pep_match_finding)
        # PEPs left unscreened (a failed run, a new matcher) and runs whose worker died are taken up again
        periodic.register("pep-rescreen", task="compliance.peps.rescreen", every=settings.PEP_RESCREEN_SECONDS)
        # a run whose worker died comes back within PEP_SCREENING_STALE_SECONDS and one sweep, not the hour above
        periodic.register(
            "pep-resume-stale", task="compliance.peps.resume_stale", every=settings.PEP_SCREENING_SWEEP_SECONDS
        )
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
                "compliance.view_namescreening",
            },
        )

        # what the audit log's entries are about, by name
        audit_names.register("pep", "compliance.PEP")
        audit_names.register("pep_match", "compliance.PEPMatch")
        audit_names.register("name_screening", "compliance.NameScreening")
