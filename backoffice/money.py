"""How money is shown to people: ``SZL 1,334.06`` (the currency, thousands grouped, two decimals), everywhere.

One helper for the admin site, the customer view, exports and messages; templates use the ``money`` filter
(``backoffice.templatetags.money``, a builtin: no ``{% load %}``). The API sends money as JSON numbers and
never goes through here. Beside it, ``money_sum``: how SQL adds amounts so that a sum is its cents on both databases.
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


def money_sum(expression: str) -> str:
    """SQL for the sum ``expression`` (``SUM(amount)``, windowed or filtered, or ``total + amount``) to the cent, so
    that it compares with a money threshold exactly on both databases. SQLite keeps amounts as REAL and adds them in
    binary floating point: seven cash deposits making exactly E25,000 summed to 24999.999999999996, under the
    reporting threshold. On PostgreSQL's numeric the rounding changes nothing. Used by the AML rules' SQL and the
    wallets' hourly activity (``kyc.services.activity``), which the rules' bounds add up."""
    return f"ROUND({expression}, 2)"
