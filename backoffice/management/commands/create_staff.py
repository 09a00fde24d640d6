from django.core.management.base import BaseCommand, CommandError

from backoffice.choices import StaffRole
from backoffice.errors import DomainError
from backoffice.services import staff_upsert


class Command(BaseCommand):
    help = "Create a staff account, or update the one with this e-mail (idempotent)."

    def add_arguments(self, parser):
        parser.add_argument("--email", required=True)
        parser.add_argument("--password", required=True)
        parser.add_argument("--role", required=True, choices=StaffRole.values)
        parser.add_argument("--first-name", dest="first_name")
        parser.add_argument("--last-name", dest="last_name")

    def handle(self, *args, **options):
        try:
            staff, created = staff_upsert(
                email=options["email"],
                password=options["password"],
                role=options["role"],
                first_name=options["first_name"],
                last_name=options["last_name"],
            )
        except DomainError as exc:
            details = "; ".join(f"{k}: {' '.join(v)}" for k, v in (exc.details or {}).items())
            raise CommandError(f"{exc.message}{': ' + details if details else ''}") from None
        verb = "Created" if created else "Updated"
        self.stdout.write(self.style.SUCCESS(f"{verb} {staff.email} ({staff.role})"))
