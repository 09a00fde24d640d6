from django.core.management.base import BaseCommand

from backoffice.services.mfa import staff_totp_keys_reseal
from backoffice.services.webhooks import webhook_secrets_reseal


class Command(BaseCommand):
    help = (
        "After rotating SECRET_KEY (the old value in SECRET_KEY_FALLBACKS): seal the stored webhook secrets and "
        "staff's authenticator-app secrets again under the new key. Recovery codes made before the rotation keep "
        "working only while the old key stays a fallback (docs/staff-mfa.md)."
    )

    def handle(self, *args, **options):
        changed = webhook_secrets_reseal()
        self.stdout.write(f"webhook endpoints resealed under the current SECRET_KEY: {changed}")
        self.stdout.write(f"authenticator apps resealed under the current SECRET_KEY: {staff_totp_keys_reseal()}")
