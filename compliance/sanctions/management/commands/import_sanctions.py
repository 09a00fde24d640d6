"""Import a new version of a sanctions list from its publisher's file.

    python manage.py import_sanctions --list UN FILE
    python manage.py import_sanctions --list OFAC SDN_CSV [--alt ALT_CSV] [--add ADD_CSV]
    python manage.py import_sanctions --list EU_FSF FILE          (FollowTheMoney JSON lines)
        [--dry-run] [--allow-shrink]

Prints the API's answer as JSON on stdout (``{list, entries, added, removed, changed, unchanged,
screening}``) and the progress on stderr. A file the list's reader refuses, or a shrink of more than half
without --allow-shrink, ends with an error and changes nothing.
"""

import json
import os
import sys

from django.core.management.base import BaseCommand, CommandError

from backoffice.errors import DomainError
from compliance.sanctions.api.serializers import ImportOut
from compliance.sanctions.services.imports import SourceFile, sanctions_import


def _read(path: str | None) -> SourceFile | None:
    if path is None:
        return None
    try:
        with open(path, "rb") as handle:
            return SourceFile(name=os.path.basename(path), data=handle.read())
    except OSError as exc:
        raise CommandError(f"Cannot read {path}: {exc.strerror or exc}") from None


class Command(BaseCommand):
    help = "Import a sanctions list (UN XML, OFAC legacy CSV with alt/add, or FollowTheMoney JSON lines)."

    def add_arguments(self, parser):
        parser.add_argument("file", help="The list's file (OFAC: sdn.csv)")
        parser.add_argument("--list", required=True, dest="list_code", help="UN, OFAC, or a code for an FtM file")
        parser.add_argument("--alt", help="OFAC's alt.csv (other names)")
        parser.add_argument("--add", help="OFAC's add.csv (addresses)")
        parser.add_argument("--dry-run", action="store_true", help="Read, compare and count; write nothing")
        parser.add_argument("--allow-shrink", action="store_true", help="Let the import remove over half the list")

    def handle(self, *args, file, list_code, alt, add, dry_run, allow_shrink, **options):
        def progress(stage: str, done: int, total: int) -> None:
            sys.stderr.write(f"\r{stage}: {done:,}{f' of {total:,}' if total else ''}   ")

        try:
            result = sanctions_import(
                list_code=list_code.upper(),
                file=_read(file),
                alt=_read(alt),
                add=_read(add),
                actor=None,
                allow_shrink=allow_shrink,
                dry_run=dry_run,
                progress=progress,
            )
        except DomainError as exc:
            reasons = "; ".join(f"{k}: {' '.join(v)}" for k, v in (exc.details or {}).items())
            raise CommandError(f"{exc.code}: {exc.message}" + (f" ({reasons})" if reasons else "")) from None
        sys.stderr.write("\n")
        self.stdout.write(json.dumps(ImportOut(result).data | {"dryRun": dry_run}))
