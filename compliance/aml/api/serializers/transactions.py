"""The payment platform's intake, its dry run, and the held-transaction queue (camelCase <-> domain names)."""

from decimal import Decimal

from rest_framework import serializers

from backoffice.api.serializers import ApprovalRequestOut, MoneyField, RejectUnknownFieldsMixin, StrictCharField
from backoffice.limits import NOTE_MAX_LENGTH
from kyc.choices import INTAKE_TYPES, Channel, HitAction
from kyc.services.ledger import EXTERNAL_ID_MAX, MAX_AMOUNT

AMOUNT_ERRORS = {"min_value": "Must be greater than 0.", "max_value": "Must be at most 1000000."}


class TransactionIn(RejectUnknownFieldsMixin, serializers.Serializer):
    externalId = StrictCharField(source="external_id", max_length=EXTERNAL_ID_MAX, help_text="The caller's id")
    userId = serializers.UUIDField(source="user_id")
    type = serializers.ChoiceField(choices=INTAKE_TYPES)
    amount = MoneyField(min_value=Decimal("0.01"), max_value=MAX_AMOUNT, error_messages=AMOUNT_ERRORS)
    channel = serializers.ChoiceField(choices=Channel.values, default=Channel.WALLET)
    counterpartyUserId = serializers.UUIDField(source="counterparty_user_id", required=False, allow_null=True)
    counterpartyVendorId = serializers.UUIDField(source="counterparty_vendor_id", required=False, allow_null=True)
    counterpartyName = StrictCharField(
        source="counterparty_name", required=False, allow_blank=True, max_length=255, default=""
    )
    region = StrictCharField(required=False, allow_blank=True, max_length=64, default="")
    occurredAt = serializers.DateTimeField(source="occurred_at", required=False, allow_null=True)


class DryRunIn(TransactionIn):
    externalId = StrictCharField(
        source="external_id", max_length=EXTERNAL_ID_MAX, required=False, allow_null=True, default=None
    )


class HitOut(serializers.Serializer):
    """A rule's hit; a sanctions hit (``ruleId`` SANCTIONS) adds the match, the list, its reference and the score."""

    ruleId = serializers.CharField(source="rule_id")
    ruleVersion = serializers.IntegerField(source="rule_version", allow_null=True, required=False)  # not on SANCTIONS
    severity = serializers.CharField()
    action = serializers.ChoiceField(choices=HitAction.values)
    matchId = serializers.CharField(source="match_id", required=False)
    list = serializers.CharField(required=False)
    reference = serializers.CharField(required=False)
    score = serializers.FloatField(required=False)

    SANCTIONS_ONLY = ("matchId", "list", "reference", "score")

    def to_representation(self, instance):
        data = super().to_representation(instance)
        if instance.get("rule_id") == "SANCTIONS":
            data.pop("ruleVersion", None)
        else:
            for name in self.SANCTIONS_ONLY:
                data.pop(name, None)
        return data


class TransactionDecisionOut(serializers.Serializer):
    transactionId = serializers.UUIDField(source="id")
    externalId = serializers.CharField(source="external_id")
    status = serializers.CharField()
    decision = serializers.CharField()
    hits = HitOut(many=True)
    balance = MoneyField(source="decision_balance")
    tookMs = serializers.IntegerField(source="took_ms")


class DryRunOut(serializers.Serializer):
    decision = serializers.CharField()
    hits = HitOut(many=True)
    tookMs = serializers.IntegerField(source="took_ms")


class HeldUserOut(serializers.Serializer):
    id = serializers.UUIDField()
    firstName = serializers.CharField(source="first_name")
    lastName = serializers.CharField(source="last_name")


class HeldTransactionOut(serializers.Serializer):
    id = serializers.UUIDField()
    externalId = serializers.CharField(source="external_id", allow_null=True)
    user = HeldUserOut()
    type = serializers.CharField()
    amount = MoneyField()
    status = serializers.CharField()
    hits = HitOut(many=True)
    createdAt = serializers.DateTimeField(source="created_at")


class HeldDecisionIn(RejectUnknownFieldsMixin, serializers.Serializer):
    note = StrictCharField(
        max_length=NOTE_MAX_LENGTH,
        error_messages={"required": "A note is required.", "blank": "A note is required."},
    )


class HeldDecisionOut(HeldTransactionOut):
    reviewNote = serializers.CharField(source="review_note")
    reviewedAt = serializers.DateTimeField(source="reviewed_at")
    balanceAfter = MoneyField(source="balance_after", allow_null=True)


class ReleaseAwaitingOut(serializers.Serializer):
    """A release above ``HELD_RELEASE_FOUR_EYES_ABOVE``: the request a second person decides; the row stays HELD."""

    approvalRequest = ApprovalRequestOut()
