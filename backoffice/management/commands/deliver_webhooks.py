from django.core.management.base import BaseCommand

from backoffice.services.webhooks import webhook_sweep


class Command(BaseCommand):
    help = "Send the webhook deliveries that are due now (retries, and any a lost task left behind); beat runs it too."

    def add_arguments(self, parser):
        parser.add_argument("--limit", type=int, default=500, help="at most this many deliveries (default 500)")

    def handle(self, *args, **options):
        counts = webhook_sweep(limit=max(1, options["limit"]))
        delivered, later, failed = counts["delivered"], counts["pending"], counts["failed"]
        self.stdout.write(f"webhooks: {delivered} delivered, {later} to try again later, {failed} failed")
