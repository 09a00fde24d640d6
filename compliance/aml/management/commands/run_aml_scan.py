import datetime as dt

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from backoffice.lists.filters import parse_date_bound
from backoffice.tasks import dispatch
from compliance.aml.choices import ScanStatus
from compliance.aml.models.rules import AMLRule
from compliance.aml.models.scans import AMLScan
from compliance.aml.services.held import held_escalate
from compliance.aml.services.scans import aml_scan_start
from compliance.aml.tasks import scan


def _moment(text: str, *, end: bool) -> dt.datetime:
    text = text.strip()
    if text.endswith(("h", "d")) and text[:-1].isdigit():
        # relative: 24h, 7d
        unit = dt.timedelta(hours=1) if text.endswith("h") else dt.timedelta(days=1)
        return timezone.now() - int(text[:-1]) * unit
    try:
        return parse_date_bound(text, end=end)
    except ValueError:
        raise CommandError(f"Not a date, date-time or 24h/7d: {text!r}") from None


class Command(BaseCommand):
    help = (
        "Evaluate every active AML rule over the ledger between --since and --until and raise alerts. "
        "Safe to re-run: alerts are deduplicated per rule and hit. With a broker configured the scan runs on the "
        "workers (the command says which scan to look for); without one, here."
    )

    def add_arguments(self, parser):
        parser.add_argument("--since", required=True, help="ISO date or date-time (UTC), or relative: 24h, 30d")
        parser.add_argument("--until", help="ISO date or date-time (UTC); default now")
        parser.add_argument("--rule", action="append", dest="rules", help="Only this ruleId (repeatable)")

    def handle(self, *args, since, until=None, rules=None, **options):

        start = _moment(since, end=False)
        end = _moment(until, end=True) if until else timezone.now()
        if start > end:
            raise CommandError("--since is after --until")
        selected = None
        if rules:
            selected = list(AMLRule.objects.filter(rule_id__in=rules, is_active=True))
            missing = set(rules) - {r.rule_id for r in selected}
            if missing:
                raise CommandError(f"No active rule with ruleId {sorted(missing)}")
        row = aml_scan_start(since=start, until=end, rules=selected)
        dispatch(scan, args=(row.pk,))
        row = AMLScan.objects.get(pk=row.pk)
        if row.status != ScanStatus.COMPLETED:
            window = f"{start:%Y-%m-%d %H:%M} .. {end:%Y-%m-%d %H:%M} UTC"
            self.stdout.write(f"AML scan #{row.pk} {window} sent to the workers")
            return
        for rule_id, figures in row.per_rule.items():
            if figures.get("error"):
                self.stdout.write(self.style.ERROR(f"  {rule_id:<14} failed (see the log)"))
            elif figures["hits"]:
                self.stdout.write(f"  {rule_id:<14} {figures['hits']:>6} hits {figures['created']:>6} new alerts")
        self.stdout.write(
            f"AML scan {start:%Y-%m-%d %H:%M} .. {end:%Y-%m-%d %H:%M} UTC: {len(row.rule_ids)} rules, "
            f"{row.hits} hits, {row.alerts_created} new alerts, {row.errors} failed rules"
        )

        escalated = held_escalate()
        if escalated:
            self.stdout.write(f"{escalated} alert(s) escalated: their held transaction waits too long")
