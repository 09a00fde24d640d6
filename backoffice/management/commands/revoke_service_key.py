from django.core.management.base import BaseCommand, CommandError

from backoffice.errors import DomainError
from backoffice.services.service_keys import service_key_revoke


class Command(BaseCommand):
    help = "Revoke a service key by name: every later request with it is refused (401)."

    def add_arguments(self, parser):
        parser.add_argument("--name", required=True)

    def handle(self, *args, **options):
        try:
            row = service_key_revoke(name=options["name"])
        except DomainError as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(self.style.SUCCESS(f"Service key {row.name!r} revoked"))
