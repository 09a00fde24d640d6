"""Every write on KYC users and their ledger: sign-up and sign-in, the ledger, staff edits, credits, documents."""

from kyc.services.auth import user_login, user_register
from kyc.services.credit import (
    MAX_CREDIT,
    CreditResult,
    credit_request_approve,
    credit_request_reject,
    needs_approval,
    user_credit,
)
from kyc.services.documents import user_document_store, user_document_upload
from kyc.services.freeze import user_freeze, user_unfreeze
from kyc.services.ledger import new_reference, transaction_record
from kyc.services.names import user_name_index, user_name_index_rebuild
from kyc.services.risk import RiskChange, risk_rating_for, user_risk_refresh, user_risk_refresh_many
from kyc.services.users import user_archive, user_purge, user_unarchive, user_update
from kyc.services.verification import (
    IdentityFacts,
    user_identity_duplicate,
    user_identity_duplicate_decided,
    user_verification_close,
    user_verification_open,
)

__all__ = [
    "MAX_CREDIT",
    "CreditResult",
    "IdentityFacts",
    "credit_request_approve",
    "credit_request_reject",
    "needs_approval",
    "RiskChange",
    "new_reference",
    "risk_rating_for",
    "transaction_record",
    "user_archive",
    "user_credit",
    "user_document_store",
    "user_document_upload",
    "user_login",
    "user_name_index",
    "user_name_index_rebuild",
    "user_purge",
    "user_register",
    "user_risk_refresh",
    "user_risk_refresh_many",
    "user_unarchive",
    "user_freeze",
    "user_unfreeze",
    "user_update",
    "user_identity_duplicate",
    "user_identity_duplicate_decided",
    "user_verification_close",
    "user_verification_open",
]
