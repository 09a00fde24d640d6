from django.core.management.base import BaseCommand, CommandError

from backoffice.errors import DomainError
from backoffice.models import SERVICE_KEY_SCOPES
from backoffice.services.service_keys import service_key_create


class Command(BaseCommand):
    help = "Make a service key for a payment-platform service; the key is printed once, alone on the last line."

    def add_arguments(self, parser):
        parser.add_argument("--name", required=True)

    def handle(self, *args, **options):
        try:
            # the operator's key on the server opens the intake and its dry run (contract: service keys), named here
            made = service_key_create(name=options["name"], scopes=list(SERVICE_KEY_SCOPES))
        except DomainError as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(f"Service key {made.service_key.name!r} created; it is shown once, keep it now:")
        self.stdout.write(made.key)
