"""The states and parties of sanctions matches (screening's own choices, beside the lists')."""

from django.db import models


class MatchParty(models.TextChoices):
    """Who matched: one of our customers, or the counterparty named in a payment."""

    USER = "USER", "Customer"
    COUNTERPARTY = "COUNTERPARTY", "Counterparty"


class MatchStatus(models.TextChoices):
    POTENTIAL = "POTENTIAL", "Potential: to review"
    CONFIRMED = "CONFIRMED", "Confirmed: the listed party"
    DISMISSED = "DISMISSED", "Dismissed: not the listed party"
    CLOSED = "CLOSED", "Closed: the entry left its list"


# a confirmed or dismissed match is decided; the review answers 409 for it
DECIDABLE = (MatchStatus.CONFIRMED, MatchStatus.DISMISSED)
