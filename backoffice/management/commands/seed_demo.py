from django.core.management.base import BaseCommand
from django.db import transaction

from backoffice.demo import seeders


class Command(BaseCommand):
    help = "Load the deterministic demo data set. Running it again changes nothing."

    def handle(self, *args, **options):
        for _app_label, seed in seeders():
            with transaction.atomic():
                seed(self.stdout)
        self.stdout.write(self.style.SUCCESS("Demo data ready."))
