"""Maker-checker on money: wallet credits above this amount (SZL) wait for a second person's approval.

Unset (the default) keeps the interface's immediate credit; set it in
production (docs/kyc.md, "Maker-checker").
"""

from decimal import Decimal

from backoffice.env import env_decimal

CREDIT_APPROVAL_THRESHOLD: Decimal | None = env_decimal("CREDIT_APPROVAL_THRESHOLD", None, minimum=Decimal("0"))
