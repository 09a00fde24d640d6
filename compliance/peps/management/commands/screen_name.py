"""Screen a name against the active PEPs, as POST /admin/aml/pep/screen does, and print its answer.

    python manage.py screen_name "Sipho Dlamini" [--dob 1970-01-01] [--country Eswatini]

The screening is recorded (a name screened is evidence, whoever asks: here, the system); nothing else is
written. The answer is the endpoint's JSON (best first, each with its explanation); --brief prints
one line per match instead.
"""

import json

from django.core.management.base import BaseCommand, CommandError

from compliance.peps.api.serializers.pep import ScreenHitOut
from compliance.peps.choices import ScreeningChannel
from compliance.peps.models.pep import date_of_birth_problem
from compliance.peps.services.name_screening import pep_name_screen


class Command(BaseCommand):
    help = "Screen a name against the active PEPs (the screening is recorded)."

    def add_arguments(self, parser):
        parser.add_argument("name")
        parser.add_argument("--dob", default="", help="Date of birth: YYYY-MM-DD, YYYY-MM or YYYY")
        parser.add_argument("--country", default="")
        parser.add_argument("--brief", action="store_true", help="One line per match")

    def handle(self, *args, name, dob, country, brief, **options):
        if not name.strip():
            raise CommandError("Name is required")
        if dob and (problem := date_of_birth_problem(dob)):
            raise CommandError(f"--dob: {problem}")
        hits = pep_name_screen(
            actor=None, channel=ScreeningChannel.COMMAND, name=name, date_of_birth=dob, country=country
        ).hits
        if brief:
            for hit in hits:
                self.stdout.write(f"{hit.match.score:.3f}  {hit.pep.name}  ({hit.pep.category}, {hit.pep.country})")
                self.stdout.write(f"       {hit.match.explanation['summary']}")
            self.stdout.write(f"{len(hits)} match(es)")
            return
        answer = {"success": True, "data": ScreenHitOut(hits, many=True).data, "count": len(hits)}
        self.stdout.write(json.dumps(answer, indent=2, ensure_ascii=False, default=str))
