"""Rebuild the users' name index (the keys PEP screening searches and the part counts that weigh names).

    python manage.py index_user_names

Needed after users were loaded without the services (bulk loads, restores) or after a matcher version that
changes the keys. Each batch is its own transaction; screening keeps working meanwhile.
"""

from django.core.management.base import BaseCommand

from kyc.selectors.name_matching import user_count
from kyc.services import user_name_index_rebuild


class Command(BaseCommand):
    help = "Rebuild the name index of every user (PEP screening searches it)."

    def add_arguments(self, parser):
        parser.add_argument("--batch-size", type=int, default=2000)

    def handle(self, *args, batch_size, **options):
        total = user_count()

        def progress(done: int) -> None:
            self.stderr.write(f"\r  {done:,} / {total:,} users indexed", ending="")

        done = user_name_index_rebuild(batch_size=batch_size, progress=progress)
        self.stderr.write("")
        self.stdout.write(self.style.SUCCESS(f"Indexed the names of {done:,} users."))
