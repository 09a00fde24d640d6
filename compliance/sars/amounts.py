"""Does a SAR's amount involved agree with the transactions it cites? A warning, never a refusal: the amount
may rightly differ (attempted payments, cash outside the ledger), but an officer and the reviewer must see it."""

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from backoffice.money import money


@dataclass(frozen=True)
class AmountMismatch:
    claimed: Decimal
    cited: Decimal
    count: int

    @property
    def difference(self) -> Decimal:
        return abs(self.claimed - self.cited)

    @property
    def message(self) -> str:
        return (
            f"The amount involved ({money(self.claimed)}) differs from the total of the cited transactions "
            f"({money(self.cited)}, {self.count} transaction{'s' if self.count != 1 else ''}) by "
            f"{money(self.difference)}. Correct it, or say in the narrative why they differ."
        )


def amount_mismatch(*, amount, transactions: Iterable) -> AmountMismatch | None:
    """The mismatch between ``amount`` and the cited ``transactions``' total; None when they agree, when nothing
    is cited or when there is no amount yet."""
    rows = list(transactions)
    if not rows or amount in (None, ""):
        return None
    try:
        claimed = Decimal(str(amount)).quantize(Decimal("0.01"))
    except InvalidOperation:
        return None
    cited = sum((Decimal(t.amount) for t in rows), Decimal("0.00"))
    return None if claimed == cited else AmountMismatch(claimed, cited, len(rows))
