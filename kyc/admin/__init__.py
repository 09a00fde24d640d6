"""KYC's admin pages, one module per model; importing them registers them with the admin site."""

from kyc.admin.credits import CreditRequestAdmin
from kyc.admin.transactions import TransactionAdmin
from kyc.admin.users import PlatformUserAdmin

__all__ = ["CreditRequestAdmin", "PlatformUserAdmin", "TransactionAdmin"]
