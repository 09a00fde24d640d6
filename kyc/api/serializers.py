"""JSON shapes of /admin/users: camelCase, money as numbers with two decimals, nothing about SARs or alerts."""

from decimal import Decimal

from rest_framework import serializers

from backoffice.api.serializers import MoneyField, RejectUnknownFieldsMixin, StrictCharField, TokenPairOut
from backoffice.files import signed_file_url
from backoffice.limits import NOTE_MAX_LENGTH
from kyc.selectors.users import users_seen_by
from kyc.services.credit import MAX_CREDIT


class BlankAsNullCharField(serializers.CharField):
    def to_representation(self, value):
        return value or None


def _viewer(serializer):
    request = serializer.context.get("request")
    return getattr(request, "user", None)


class SeenRiskListSerializer(serializers.ListSerializer):
    """A page of users, their risk read as the caller may see it (``users_seen_by``) in one go."""

    def to_representation(self, data):
        users = data.all() if hasattr(data, "all") else data
        return super().to_representation(users_seen_by(users, viewer=_viewer(self)))


class UserListOut(serializers.Serializer):
    """A user's row. The risk is what the caller may see (backoffice.visibility): for support and finance the
    score less a SAR's points and the rating it implies; without a request in the context, that too."""

    class Meta:
        list_serializer_class = SeenRiskListSerializer

    def to_representation(self, instance):
        if not hasattr(instance, "seen_risk_score"):
            users_seen_by([instance], viewer=_viewer(self))
        return super().to_representation(instance)

    id = serializers.UUIDField()
    phoneNumber = serializers.CharField(source="phone_number")
    email = serializers.CharField()
    firstName = serializers.CharField(source="first_name")
    lastName = serializers.CharField(source="last_name")
    verificationStatus = serializers.CharField(source="verification_status")
    riskRating = serializers.CharField(source="seen_risk_rating")
    currentRiskScore = serializers.IntegerField(source="seen_risk_score")
    balance = MoneyField()
    isVerified = serializers.BooleanField(source="is_verified")
    isArchived = serializers.BooleanField(source="is_archived")
    # that the wallet is frozen, never why: the reason is compliance's (a sanctions match)
    isFrozen = serializers.BooleanField(source="is_frozen")
    createdAt = serializers.DateTimeField(source="created_at")


class UserDetailOut(UserListOut):
    """Every field of the interface's KYC user table."""

    names = serializers.CharField()
    surname = serializers.CharField()
    idNumber = serializers.CharField(source="id_number")
    dateOfBirth = serializers.DateField(source="date_of_birth", allow_null=True)
    sex = BlankAsNullCharField(allow_null=True)
    nfcCardNumber = BlankAsNullCharField(source="nfc_card_number", allow_null=True)
    rewardsPoints = serializers.IntegerField(source="rewards_points")
    referralCode = serializers.CharField(source="referral_code")


class UserUpdateIn(RejectUnknownFieldsMixin, serializers.Serializer):
    """Only the names and the e-mail; any other field is a 400 naming it, and nothing is written."""

    unknown_field_message = "This field cannot be updated."
    firstName = serializers.CharField(max_length=100, required=False, source="first_name")
    lastName = serializers.CharField(max_length=100, required=False, source="last_name")
    email = serializers.EmailField(max_length=254, required=False, allow_blank=True)

    def validate(self, attrs):
        if not attrs:
            raise serializers.ValidationError("Send firstName, lastName or email.")
        return attrs


class ArchiveOut(serializers.Serializer):
    id = serializers.UUIDField()
    isArchived = serializers.BooleanField(source="is_archived")


class UnfreezeIn(RejectUnknownFieldsMixin, serializers.Serializer):
    reason = StrictCharField(
        max_length=NOTE_MAX_LENGTH,
        error_messages={"required": "A reason is required.", "blank": "A reason is required."},
    )


class FreezeOut(serializers.Serializer):
    id = serializers.UUIDField()
    isFrozen = serializers.BooleanField(source="is_frozen")


class UserStatsOut(serializers.Serializer):
    totalUsers = serializers.IntegerField(source="total_users")
    verifiedUsers = serializers.IntegerField(source="verified_users")
    pendingVerification = serializers.IntegerField(source="pending_verification")
    rejectedVerification = serializers.IntegerField(source="rejected_verification")
    newUsersToday = serializers.IntegerField(source="new_users_today")
    newUsersThisWeek = serializers.IntegerField(source="new_users_this_week")
    newUsersThisMonth = serializers.IntegerField(source="new_users_this_month")


class VerificationOut(serializers.Serializer):
    id = serializers.UUIDField()
    status = serializers.CharField()
    type = serializers.CharField()
    createdAt = serializers.DateTimeField(source="created_at")
    completedAt = serializers.DateTimeField(source="completed_at", allow_null=True)


class TransactionOut(serializers.Serializer):
    id = serializers.UUIDField()
    type = serializers.CharField()
    amount = MoneyField()
    currency = serializers.CharField()
    status = serializers.CharField()
    channel = serializers.CharField()
    reference = serializers.CharField()
    reason = serializers.CharField()
    description = serializers.CharField()
    balanceAfter = MoneyField(source="balance_after", allow_null=True)
    createdAt = serializers.DateTimeField(source="created_at")


class DocumentOut(serializers.Serializer):
    id = serializers.UUIDField()
    type = serializers.CharField()
    url = serializers.SerializerMethodField()
    contentType = serializers.CharField(source="content_type")
    size = serializers.IntegerField()
    uploadedAt = serializers.DateTimeField(source="uploaded_at")

    def get_url(self, document) -> str:
        return signed_file_url(document.file.name, storage=document.file.storage, request=self.context.get("request"))


class TimelineEventOut(serializers.Serializer):
    at = serializers.DateTimeField()
    type = serializers.CharField()
    description = serializers.CharField()


class StatisticsOut(serializers.Serializer):
    totalTransactions = serializers.IntegerField(source="total_transactions")
    totalVolume = MoneyField(source="total_volume")
    avgTransaction = MoneyField(source="avg_transaction")
    daysActive = serializers.IntegerField(source="days_active")


class HistoryOut(serializers.Serializer):
    profile = UserDetailOut()
    verifications = VerificationOut(many=True)
    transactions = TransactionOut(many=True)
    documents = DocumentOut(many=True)
    timeline = TimelineEventOut(many=True)
    statistics = StatisticsOut()


class SearchByPhoneIn(serializers.Serializer):
    phoneNumber = serializers.CharField(max_length=32, source="phone_number")


class SearchByPhoneOut(serializers.Serializer):
    id = serializers.UUIDField()
    phoneNumber = serializers.CharField(source="phone_number")
    firstName = serializers.CharField(source="first_name")
    lastName = serializers.CharField(source="last_name")
    fullName = serializers.CharField(source="full_name")
    verificationStatus = serializers.CharField(source="verification_status")
    isVerified = serializers.BooleanField(source="is_verified")
    nfcCardNumber = BlankAsNullCharField(source="nfc_card_number", allow_null=True)


class AddBalanceIn(RejectUnknownFieldsMixin, serializers.Serializer):
    amount = MoneyField(
        min_value=Decimal("0.01"),
        max_value=MAX_CREDIT,
        help_text="Emalangeni, > 0, at most 1,000,000, two decimals",
        error_messages={"min_value": "Must be greater than 0.", "max_value": "Must be at most 1000000."},
    )
    reason = StrictCharField(
        max_length=255,
        help_text="Why the wallet is credited",
        error_messages={"required": "A reason is required.", "blank": "A reason is required."},
    )


class AddBalanceOut(serializers.Serializer):
    previousBalance = MoneyField(source="previous_balance")
    addedAmount = MoneyField(source="added_amount")
    newBalance = MoneyField(source="new_balance")
    transactionId = serializers.UUIDField(source="transaction_id")
    reference = serializers.CharField()


class CreditRequestOut(serializers.Serializer):
    """A credit as a request: who asked, its status, and (once decided) who decided and what moved."""

    id = serializers.UUIDField()
    userId = serializers.UUIDField(source="user_id")
    amount = MoneyField()
    reason = serializers.CharField()
    requestedBy = serializers.UUIDField(source="requested_by_id")
    status = serializers.CharField()
    decidedBy = serializers.UUIDField(source="decided_by_id", allow_null=True)
    decidedAt = serializers.DateTimeField(source="decided_at", allow_null=True)
    decisionReason = serializers.CharField(source="decision_reason")
    previousBalance = MoneyField(source="previous_balance", allow_null=True)
    newBalance = MoneyField(source="new_balance", allow_null=True)
    transactionId = serializers.UUIDField(source="transaction_id", allow_null=True)
    createdAt = serializers.DateTimeField(source="created_at")


class CreditRequestEnvelopeOut(serializers.Serializer):
    creditRequest = CreditRequestOut(source="*")


class CreditDecisionIn(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=255)


class CreditRejectIn(serializers.Serializer):
    reason = StrictCharField(
        max_length=255, error_messages={"required": "A reason is required.", "blank": "A reason is required."}
    )
    headlines = {"reason": "A reason is required"}


class PurgeCountsOut(serializers.Serializer):
    transactions = serializers.IntegerField()
    documents = serializers.IntegerField()
    verifications = serializers.IntegerField()


class PurgeOut(serializers.Serializer):
    id = serializers.UUIDField()
    deleted = PurgeCountsOut()


# ---------------------------------------------------------------- sign-up and sign-in (/auth/user/...)


class UserRegisterIn(serializers.Serializer):
    phoneNumber = serializers.CharField(max_length=32, source="phone_number")
    password = serializers.CharField(max_length=256, trim_whitespace=False)
    firstName = serializers.CharField(max_length=100, source="first_name")
    lastName = serializers.CharField(max_length=100, source="last_name")
    email = serializers.EmailField(required=False, allow_blank=True)


class UserLoginIn(serializers.Serializer):
    phoneNumber = serializers.CharField(max_length=32, source="login")
    password = serializers.CharField(max_length=256, trim_whitespace=False)


class UserBriefOut(serializers.Serializer):
    id = serializers.UUIDField()
    phoneNumber = serializers.CharField(source="phone_number")
    firstName = serializers.CharField(source="first_name")
    lastName = serializers.CharField(source="last_name")


class UserLoginOut(TokenPairOut):
    user = UserBriefOut()


class UserRegisteredOut(serializers.Serializer):
    id = serializers.UUIDField()
    phoneNumber = serializers.CharField(source="phone_number")
    firstName = serializers.CharField(source="first_name")
    lastName = serializers.CharField(source="last_name")
    email = serializers.CharField()
    verificationStatus = serializers.CharField(source="verification_status")
    isPhoneVerified = serializers.BooleanField(source="is_phone_verified")
