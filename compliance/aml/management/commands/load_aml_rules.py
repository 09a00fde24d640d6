from django.core.management.base import BaseCommand

from compliance.aml.services.catalogue import rule_catalogue_load


class Command(BaseCommand):
    help = (
        "Load the shipped catalogue of 43 AML rules. Idempotent: missing rules are created, existing ones are "
        "left as officers edited them. --reset restores catalogue values, each restored rule as a new version."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--reset",
            action="store_true",
            help="Restore every catalogue rule that differs from the catalogue (as a new version).",
        )

    def handle(self, *args, reset=False, **options):
        counts = rule_catalogue_load(reset=reset)
        self.stdout.write(
            f"AML rules: {counts['created']} created, {counts['reset']} restored, "
            f"{counts['upgraded']} given the catalogue's hold/block actions, {counts['unchanged']} unchanged"
            + (f", {counts['proposed']} proposed for approval (four eyes)" if counts["proposed"] else "")
        )
