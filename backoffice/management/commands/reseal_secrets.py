from django.core.management.base import BaseCommand

from backoffice.services.webhooks import webhook_secrets_reseal


class Command(BaseCommand):
    help = (
        "After rotating SECRET_KEY (the old value in SECRET_KEY_FALLBACKS): seal the stored webhook secrets again "
        "under the new key, so the fallback can be dropped."
    )

    def handle(self, *args, **options):
        changed = webhook_secrets_reseal()
        self.stdout.write(f"webhook endpoints resealed under the current SECRET_KEY: {changed}")
