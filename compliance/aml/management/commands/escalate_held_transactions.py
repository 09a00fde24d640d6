from django.conf import settings
from django.core.management.base import BaseCommand

from compliance.aml.services.held import held_escalate


class Command(BaseCommand):
    help = (
        "Escalate the alerts of transactions held longer than AML_HELD_ESCALATE_HOURS (run periodically; "
        "run_aml_scan does it too). Idempotent."
    )

    def handle(self, *args, **options):
        count = held_escalate()
        self.stdout.write(f"{count} alert(s) escalated (held longer than {settings.AML_HELD_ESCALATE_HOURS} h)")
