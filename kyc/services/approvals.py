"""KYC's rows of the dual-control policy (docs/dual-control.md): wallet credits and releasing held transactions.

Registered from ``KycConfig.ready()``. Each row says who may ask and decide, when a second person is needed, how
to apply an approved request, and how the approver reads it.
"""

import uuid
from decimal import Decimal

from backoffice import dual_control
from backoffice.models import ApprovalRequest
from backoffice.money import money
from kyc.models import CreditRequest, Transaction
from kyc.models.ledger import CREDIT_CAPABILITY
from kyc.selectors.credits import credit_request_get, credits_recent
from kyc.services.credit import CREDIT_KIND, credit_request_approve, credit_request_reject
from kyc.services.ledger import HELD_RELEASE_KIND, held_transaction_release

# ------------------------------------------------------------------ wallet credits


def _credit(request: ApprovalRequest) -> CreditRequest:
    return credit_request_get(request_id=request.payload["credit_request"])


def _credit_apply(*, payload: dict, actor, request: ApprovalRequest | None) -> CreditRequest:
    """The approved credit moves the money (the credit request's own approval: four eyes, once, audited)."""
    credit = CreditRequest(pk=uuid.UUID(payload["credit_request"]))
    return credit_request_approve(credit_request=credit, actor=actor, reason=request.decision_reason if request else "")


def _credit_reject(*, request: ApprovalRequest, actor) -> None:
    credit_request_reject(credit_request=_credit(request), actor=actor, reason=request.decision_reason)


def _credit_describe(request: ApprovalRequest) -> list[str]:
    credit = _credit(request)
    # once paid, the balances the credit recorded; while it waits, what it would do to the balance now
    before = credit.previous_balance if credit.previous_balance is not None else credit.user.balance
    after = credit.new_balance if credit.new_balance is not None else credit.user.balance + credit.amount
    lines = [
        f"Wallet of {credit.user.full_name} ({credit.user.phone_number}): balance {money(before)} → {money(after)}",
        f"Credit: {money(credit.amount)}, reason “{credit.reason}”",
    ]
    if request.amount is not None and Decimal(request.amount) != credit.amount:
        lines.append(
            f"With this credit, {credit.requested_by.email} has credited {money(request.amount)} to this wallet in "
            "24 hours: above the approval threshold together, though each credit may be below it"
        )
    return lines


def _credit_context(request: ApprovalRequest) -> list[str]:
    """The wallet's recent credits (every requester), so a split credit shows as what it is."""
    recent = credits_recent(user_id=request.payload["user"])
    if not recent:
        return ["No other credits to this wallet in the last 7 days."]
    return [
        f"{credit.created_at:%Y-%m-%d %H:%M}: {money(credit.amount)} by {credit.requested_by.email} "
        f"({credit.get_status_display().lower()}), “{credit.reason}”"
        for credit in recent
    ]


# ------------------------------------------------------------------ held transactions


def _held_apply(*, payload: dict, actor, request: ApprovalRequest | None) -> Transaction:
    return held_transaction_release(
        transaction_id=uuid.UUID(payload["transaction"]), actor=actor, note=payload["note"], approval=request
    )


def _held_describe(request: ApprovalRequest) -> list[str]:
    tx = Transaction.objects.select_related("user").filter(pk=request.payload["transaction"]).first()
    if tx is None:
        return ["The transaction no longer exists."]
    return [
        f"Transaction {tx.external_id or tx.reference} ({tx.get_type_display().lower()}, {money(tx.amount)}) for "
        f"{tx.user.full_name}: status {tx.status} → COMPLETED, the money moves",
        f"Balance now {money(tx.user.balance)}",
        f"Note: “{request.payload['note']}”",
    ]


def register_approval_kinds() -> None:
    dual_control.register(
        dual_control.SensitiveAction(
            kind=CREDIT_KIND,
            label="Wallet credit",
            request_capability=CREDIT_CAPABILITY,
            approve_capability=CREDIT_CAPABILITY,
            above_setting="CREDIT_APPROVAL_THRESHOLD",
            # the credit request itself waits until decided (its API has no expiry): so does its approval
            lifetime=dual_control.NEVER,
            apply=_credit_apply,
            on_reject=_credit_reject,
            describe=_credit_describe,
            context=_credit_context,
            notes="Judged on what one requester credited to one wallet over the last 24 hours, this credit included.",
        )
    )
    dual_control.register(
        dual_control.SensitiveAction(
            kind=HELD_RELEASE_KIND,
            label="Release of a held transaction",
            request_capability="transactions.review",
            approve_capability="transactions.review",
            above_setting="HELD_RELEASE_FOUR_EYES_ABOVE",
            apply=_held_apply,
            describe=_held_describe,
            notes="Rejecting the held transaction meanwhile lapses the waiting release.",
        )
    )
