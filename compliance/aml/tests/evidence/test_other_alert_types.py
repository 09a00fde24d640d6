"""Alerts no AML rule raised (PEP matches) still read as sentences on the alert page."""

from types import SimpleNamespace

from compliance.aml.choices import AlertType
from compliance.aml.evidence import finding


def test_a_pep_match_reads_as_who_matched_whom_and_how_well():
    alert = SimpleNamespace(
        alert_type=AlertType.PEP_MATCH,
        details={
            "pep_name": "Hon. Thabo Maseko",
            "position": "Member of Parliament",
            "country": "Eswatini",
            "category": "Senior Politician",
            "score": 0.934,
            "reason": "new match",
            "explanation": {"summary": "Both name parts agree."},
        },
        get_alert_type_display=lambda: "PEP match",
    )
    found = finding(alert, None, [])
    assert found.what == (
        "The customer's name matches the PEP list entry Hon. Thabo Maseko (Member of Parliament, Eswatini, "
        "Senior Politician) with a score of 0.93. Both name parts agree."
    )
    assert "threshold" in found.rule and "Raised again" not in found.rule
