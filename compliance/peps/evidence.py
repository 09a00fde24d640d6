"""A PEP match alert in words: the sentence compliance.aml's evidence shows for it.

The alert's details are written here, in this sub-domain (``services.screening._alert_for``), so their
keys are read here too; ``ready()`` registers ``pep_match_finding`` with ``compliance.aml.evidence``.
"""

from compliance.aml.evidence import Finding


def pep_match_finding(details: dict) -> Finding:
    """Who matched which PEP list entry, how well, and why the alert was raised (again)."""
    where = ", ".join(p for p in (details.get("position"), details.get("country"), details.get("category")) if p)
    summary = (details.get("explanation") or {}).get("summary", "")
    what = (
        f"The customer's name matches the PEP list entry {details.get('pep_name', 'unknown')}"
        f"{f' ({where})' if where else ''} with a score of {float(details.get('score', 0)):.2f}."
        + (f" {summary}" if summary else "")
    )
    rule = "PEP screening: a score at or above the matching threshold; the match page shows how each name part scored."
    if details.get("reason") and details["reason"] != "new match":
        rule += f" Raised again because the {details['reason'].lower()}."
    return Finding(what, rule)
