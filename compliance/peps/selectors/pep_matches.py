"""Reads of PEP matches for the admin's pages: one match with what its page shows, and the dashboard's figures."""

import uuid

from django.db.models import Count, Q

from compliance.peps.choices import PEPMatchStatus
from compliance.peps.models.pep import PEP, PEPMatch


def match_page(match_id) -> PEPMatch | None:
    """One match with its user, PEP, alert and reviewer (None for an unknown or malformed id)."""
    try:
        uuid.UUID(str(match_id))
    except ValueError:
        return None
    return PEPMatch.objects.select_related("user", "pep", "alert", "reviewed_by").filter(pk=match_id).first()


def matches_with_people():
    """Matches with their user and PEP (what a review's confirmation page names)."""
    return PEPMatch.objects.select_related("user", "pep")


def pep_card_counts() -> dict:
    """PEPs on the list (all, active) and matches waiting for review, in two queries."""
    counts = PEP.objects.aggregate(total=Count("pk"), active=Count("pk", filter=Q(is_active=True)))
    counts["to_review"] = PEPMatch.objects.filter(status=PEPMatchStatus.POTENTIAL).count()
    return counts
