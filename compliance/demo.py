"""Demo data of the compliance app: the AML rule catalogue, and the alerts it raises on the demo ledger."""

import datetime as dt

from compliance.engine.runner import scan
from compliance.services.rules import rule_catalogue_load

# The demo ledger is at most a few years deep; scanning from a fixed date keeps the run deterministic.
DEMO_SCAN_SINCE = dt.datetime(2020, 1, 1, tzinfo=dt.UTC)


def seed_rules(stdout) -> None:
    counts = rule_catalogue_load()
    result = scan(since=DEMO_SCAN_SINCE)
    stdout.write(
        f"AML rules: {counts['created']} created, {counts['unchanged']} already there; "
        f"scan: {result.hits} hits, {result.alerts_created} new alerts"
    )


def seed(stdout) -> None:
    seed_rules(stdout)
