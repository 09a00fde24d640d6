from importlib import import_module

from django.core.management.base import BaseCommand
from django.db import transaction

# Each app's demo module has seed(stdout) -> None; order matters (users before SARs).
DEMO_MODULES = ["backoffice.demo", "vendors.demo", "kyc.demo", "compliance.demo", "verification.demo"]


class Command(BaseCommand):
    help = "Load the deterministic demo data set. Running it again changes nothing."

    def handle(self, *args, **options):
        for name in DEMO_MODULES:
            try:
                module = import_module(name)
            except ModuleNotFoundError as exc:
                if exc.name != name:
                    raise
                continue
            with transaction.atomic():
                module.seed(self.stdout)
        self.stdout.write(self.style.SUCCESS("Demo data ready."))
