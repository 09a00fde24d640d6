"""What KYC services refuse, each with its code and status (rendered by the one error path)."""

from backoffice.errors import Conflict, DomainError


class PhoneNotVerified(DomainError):
    status = 403
    code = "PHONE_NOT_VERIFIED"
    default_message = "Verify your phone number before logging in"


class AccountArchived(DomainError):
    status = 403
    code = "ACCOUNT_ARCHIVED"
    default_message = "This account is archived"


class InsufficientFunds(Conflict):
    code = "INSUFFICIENT_FUNDS"
    default_message = "The wallet balance is too low for this transaction"


class RetentionHold(Conflict):
    code = "RETENTION_HOLD"
    default_message = "This user's records are under a legal retention hold and cannot be deleted"


class UserArchived(Conflict):
    code = "USER_ARCHIVED"
    default_message = "The user is archived; restore the account first"


class IdempotencyKeyReused(DomainError):
    status = 422
    code = "IDEMPOTENCY_KEY_REUSED"
    default_message = "Idempotency-Key was already used for a different request"


class FourEyesRequired(DomainError):
    status = 403
    code = "FOUR_EYES_REQUIRED"
    default_message = "Four-eyes principle: a credit is approved by someone other than the person who asked for it"


class AccountArchivedConflict(Conflict):
    """The payment platform asked to move money for an archived account (contract: 409 ACCOUNT_ARCHIVED)."""

    code = "ACCOUNT_ARCHIVED"
    default_message = "This account is archived"


class AccountFrozen(Conflict):
    """The wallet is frozen under sanctions: no credit lands on it (contract: 409 ACCOUNT_FROZEN)."""

    code = "ACCOUNT_FROZEN"
    default_message = "This account is frozen"
