from django.apps import AppConfig


class PepsConfig(AppConfig):
    """The PEP list, screening our users against it, and the matches an officer decides."""

    name = "compliance.peps"
    label = "compliance_peps"
    verbose_name = "Compliance: PEPs"

    def ready(self):
        from django.conf import settings

        from backoffice.admin import audit_names
        from backoffice.auth import roles
        from backoffice.ops import periodic
        from compliance.peps.services.screening import screen_renamed_user_after_commit, screen_user_after_commit
        from kyc import hooks as kyc_hooks

        kyc_hooks.user_registered.register(screen_user_after_commit)
        kyc_hooks.user_name_changed.register(screen_renamed_user_after_commit)
        # PEPs left unscreened (a failed run, a new matcher) and runs whose worker died are taken up again
        periodic.register("pep-rescreen", task="compliance.peps.rescreen", every=settings.PEP_RESCREEN_SECONDS)
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
