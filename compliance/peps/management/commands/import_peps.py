"""Import a PEP list file: our CSV or JSON, OpenSanctions' FollowTheMoney JSON lines or targets.simple.csv.

    python manage.py import_peps FILE [--format csv|json|ftm|opensanctions-csv] [--dry-run]
                                      [--source NAME] [--category "Head of State"]

Idempotent: a name already on the list (case, accents and spaces ignored) is updated, an identical one left
alone and not screened again. Rows that cannot be imported are listed with their line numbers; the rest go
in. At the end the new and changed PEPs are screened against all users and the matching summary printed.
"""

import sys

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from compliance.peps.choices import PEPCategory
from compliance.peps.errors import UnreadablePepFile
from compliance.peps.formats import FORMATS
from compliance.peps.models.pep import canonical_category
from compliance.peps.services.imports import pep_file_rows
from compliance.peps.services.pep import pep_import


class Command(BaseCommand):
    help = "Import PEPs from a CSV, JSON, FollowTheMoney (ftm) or OpenSanctions targets.simple.csv file."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--format", choices=FORMATS, help="Detected from the content when not given")
        parser.add_argument("--dry-run", action="store_true", help="Check and count everything, write nothing")
        parser.add_argument("--source", help="Source of the rows that name none")
        parser.add_argument("--category", help="Category of the rows that carry none (default Unknown)")
        parser.add_argument("--no-progress", action="store_true")

    def handle(self, *args, file, format, dry_run, source, category, no_progress, **options):
        if category and canonical_category(category) is None:
            raise CommandError(f"--category must be one of: {', '.join(PEPCategory.values)}")
        try:
            with open(file, "rb") as handle:
                data = handle.read()
        except OSError as exc:
            raise CommandError(f"Cannot read {file}: {exc}") from None
        try:
            format, rows = pep_file_rows(data=data, format=format, category=category, source=source)
        except UnreadablePepFile as exc:
            raise CommandError(f"Cannot read {file}: {' '.join(exc.details['file'])}") from None
        self.stdout.write(
            f"{file}: {format}, {len(rows):,} entries{' (dry run: nothing is written)' if dry_run else ''}"
        )
        bar = tqdm(total=len(rows), unit="PEP", disable=no_progress or None, file=sys.stderr)
        done = {"n": 0}

        def counted():
            for row in rows:
                done["n"] += 1
                if done["n"] % 100 == 0:
                    bar.update(100)
                yield row

        result = pep_import(rows=counted(), actor=None, dry_run=dry_run)
        bar.update(done["n"] - bar.n)
        bar.close()
        for error in result.errors:
            self.stderr.write(f"  line {error.index}: {error.name or '(no name)'}: {_reason(error)}")
        verb = "would be" if dry_run else "were"
        self.stdout.write(
            f"{result.created:,} {verb} created, {result.updated:,} updated, {result.unchanged:,} unchanged, "
            f"{len(result.errors):,} refused."
        )
        if not dry_run:
            m = result.matching
            self.stdout.write(
                f"Matching: {m.peps_screened:,} PEP(s) screened against {m.users_scanned:,} users "
                f"({m.candidates:,} candidate pairs compared): {len(m.users_matched):,} users matched, "
                f"{len(m.users_updated):,} updated, {m.alerts_created:,} alerts raised."
            )
        style = self.style.WARNING if result.errors else self.style.SUCCESS
        self.stdout.write(style("Done." if not dry_run else "Dry run done: nothing was written."))


def _reason(error) -> str:
    details = "; ".join(f"{field}: {' '.join(reasons)}" for field, reasons in (error.details or {}).items())
    return f"{error.message} ({details})" if details else error.message
