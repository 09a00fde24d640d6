"""Screen what is not yet screened: the PEPs whose current content was never compared with the users (a
failed run, a new matcher version), or with --all the whole active list against every user.

    python manage.py run_pep_screening          # pending PEPs only
    python manage.py run_pep_screening --all    # everything; afterwards every user counts as screened
"""

import sys

from django.core.management.base import BaseCommand
from tqdm import tqdm

from compliance.peps.models.pep import PEP
from compliance.peps.selectors.pep import pending_peps, screening_coverage
from compliance.peps.services.screening import screen_everything, screen_pending


class Command(BaseCommand):
    help = "Screen pending PEPs against the users (or, with --all, the whole list)."

    def add_arguments(self, parser):
        parser.add_argument("--all", action="store_true", help="The whole active list against all users")
        parser.add_argument("--no-progress", action="store_true")

    def handle(self, *args, all, no_progress, **options):

        total = PEP.objects.filter(is_active=True).count() if all else pending_peps().count()
        bar = tqdm(total=total, unit="PEP", disable=no_progress or None, file=sys.stderr)

        def progress(done: int) -> None:
            bar.update(done - bar.n)

        summary = screen_everything(progress=progress) if all else screen_pending(progress=progress)
        bar.close()
        coverage = screening_coverage()
        self.stdout.write(
            f"{summary.peps_screened:,} PEP(s) screened against {summary.users_scanned:,} users: "
            f"{len(summary.users_matched):,} users matched, {summary.alerts_created:,} alerts raised "
            f"(run #{summary.run_id})."
        )
        self.stdout.write(
            f"Coverage: {coverage.users_covered:,} of {coverage.users:,} users ({coverage.share:.1%}) screened "
            f"against the current list; {coverage.peps_pending:,} PEP(s) waiting."
        )
