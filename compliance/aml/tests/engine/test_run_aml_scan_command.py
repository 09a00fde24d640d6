from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from compliance.aml.models.alerts import Alert
from compliance.aml.tests.engine.helpers import make_rule, tx


def _run(*args):
    out = StringIO()
    call_command("run_aml_scan", *args, stdout=out)
    return out.getvalue()


def test_batch_scan_over_dates_raises_alerts_once(user):
    rule = make_rule("threshold", thresholdAmount=100)
    tx(user, 500)
    assert "1 new alerts" in _run("--since", "2026-06-09", "--until", "2026-06-11")
    assert "0 new alerts" in _run("--since", "2026-06-09", "--until", "2026-06-11")
    assert Alert.objects.get().rule == rule


def test_a_scan_outside_the_rows_dates_finds_nothing(user):
    make_rule("threshold", thresholdAmount=100)
    tx(user, 500)
    assert "0 hits" in _run("--since", "2026-06-11", "--until", "2026-06-12")


@pytest.mark.parametrize(
    "args",
    [["--since", "yesterday"], ["--since", "2026-06-11", "--until", "2026-06-10"], ["--since", "7d", "--rule", "NOPE"]],
)
def test_bad_arguments_are_refused(db, args):
    with pytest.raises(CommandError):
        _run(*args)
