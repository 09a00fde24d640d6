"""Which of our customers are politically exposed persons, as a report to the FIU states it.

goAML's person elements carry ``peps`` (country, function) for a person with
a confirmed PEP match: one query over the CONFIRMED matches of the users a
report names, with each PEP's country and position. A match still POTENTIAL or
DISMISSED says nothing to the FIU.
"""

from collections.abc import Iterable
from dataclasses import dataclass

from compliance.peps.choices import PEPMatchStatus
from compliance.peps.models.pep import PEPMatch
from names import normalise_country


@dataclass(frozen=True)
class PepExposure:
    """One public function that makes a person politically exposed: where (ISO alpha-2) and what."""

    country: str
    function_name: str = ""
    function_description: str = ""


def pep_exposures_by_user(user_ids: Iterable) -> dict:
    """{user id: [PepExposure, ...]} for the users among ``user_ids`` with a CONFIRMED PEP match.

    One query for any number of users (a report names its subject and every
    counterparty who is our customer). A PEP whose country we cannot name as
    an ISO code counts as exposed in Eswatini, where this institution reports.
    """
    exposures: dict = {}
    matches = (
        PEPMatch.objects.filter(user_id__in=list(user_ids), status=PEPMatchStatus.CONFIRMED, pep__isnull=False)
        .select_related("pep")
        .order_by("created_at", "id")
    )
    for match in matches:
        pep = match.pep
        exposures.setdefault(match.user_id, []).append(
            PepExposure(
                country=normalise_country(pep.country) or "SZ",
                function_name=pep.position or pep.category,
                function_description=pep.category,
            )
        )
    return exposures


def subject_pep_exposures(user) -> list[PepExposure]:
    """The confirmed PEP exposures of one user (see ``pep_exposures_by_user``)."""
    return pep_exposures_by_user([user.pk]).get(user.pk, [])
