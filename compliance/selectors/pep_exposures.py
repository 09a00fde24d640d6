"""Which of our customers are politically exposed persons, as a report to the FIU states it.

goAML's person elements carry ``peps`` (country, function) for a person with
a confirmed PEP match. The PEP match records are being built beside this
module; until they exist this selector knows no exposure and returns none.
Wiring it is one query: the confirmed matches of these users, with the PEP's
country and function.
"""

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class PepExposure:
    """One public function that makes a person politically exposed: where (ISO alpha-2) and what."""

    country: str
    function_name: str = ""
    function_description: str = ""


def pep_exposures_by_user(user_ids: Iterable) -> dict:
    """{user id: [PepExposure, ...]} for the users among ``user_ids`` with a CONFIRMED PEP match.

    One query for any number of users (a report names its subject and every
    counterparty who is our customer). Empty until the PEP match models land.
    """
    return {}


def subject_pep_exposures(user) -> list[PepExposure]:
    """The confirmed PEP exposures of one user (see ``pep_exposures_by_user``)."""
    return pep_exposures_by_user([user.pk]).get(user.pk, [])
