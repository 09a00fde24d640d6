from django.apps import AppConfig
from django.conf import settings


class VerificationConfig(AppConfig):
    name = "verification"
    verbose_name = "Verification"

    def ready(self):
        from backoffice import demo, roles
        from backoffice.admin import audit_names, navigation
        from backoffice.ops import metrics, periodic
        from verification import demo as verification_demo
        from verification import metrics as verification_metrics
        from verification.customer_view import register_panels
        from verification.engine.providers import providers

        # a VERIFICATION_PROVIDER naming no provider stops start-up, not the first job
        providers.check()
        register_panels()
        metrics.register_collector("verification_jobs", verification_metrics.jobs_by_status)
        # runs that died mid-way (a worker killed, a server restarted) are sent again by beat
        periodic.register(
            "verification-requeue-stale",
            task="verification.requeue_stale_jobs",
            every=settings.VERIFICATION_REQUEUE_SECONDS,
        )
        roles.grant_admin_permissions(
            "verification.read", {"verification.view_verificationjob", "verification.view_verificationjobevent"}
        )
        demo.register_seeder(self.label, verification_demo.seed)
        navigation.add_section(
            title="Verification",
            position=35,
            items=[
                navigation.Item(
                    "Verification jobs",
                    "badge",
                    "admin:verification_verificationjob_changelist",
                    navigation.has_capability("verification.read"),
                ),
            ],
        )

        # what the audit log's entries are about, by name
        audit_names.register("verification_job", "verification.VerificationJob")
