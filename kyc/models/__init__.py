from kyc.models.activity import UserActivityHour
from kyc.models.documents import KycDocument, VerificationRecord, document_path
from kyc.models.ledger import CreditRequest, CreditRequestEvent, IntakeRefusal, Transaction, TransactionEvent
from kyc.models.names import UserNameKey, UserNamePart
from kyc.models.users import MONEY, PlatformUser

__all__ = [
    "MONEY",
    "CreditRequest",
    "CreditRequestEvent",
    "IntakeRefusal",
    "KycDocument",
    "PlatformUser",
    "Transaction",
    "TransactionEvent",
    "UserActivityHour",
    "UserNameKey",
    "UserNamePart",
    "VerificationRecord",
    "document_path",
]
