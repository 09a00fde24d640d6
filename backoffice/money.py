"""How money is shown to people: ``SZL 1,334.06`` (the currency, thousands grouped, two decimals), everywhere.

One helper for the admin site, the customer view, exports and messages; templates use the ``money`` filter
(``backoffice.templatetags.money``, a builtin: no ``{% load %}``). The API sends money as JSON numbers and
never goes through here.
"""

from decimal import Decimal, InvalidOperation

CURRENCY = "SZL"
TWO_PLACES = Decimal("0.01")


def money(value, currency: str = CURRENCY) -> str:
    """``SZL 1,334.06``; a negative amount ``-SZL 12.50``; nothing (None, "") an em dash; not a number: as given."""
    if value is None or value == "":
        return "—"
    try:
        amount = Decimal(str(value)).quantize(TWO_PLACES)
    except (InvalidOperation, ValueError):
        return str(value)
    sign = "-" if amount < 0 else ""
    return f"{sign}{currency} {abs(amount):,.2f}"
