"""JSON shapes of /admin/users: camelCase, money as numbers with two decimals, nothing about SARs or alerts."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from backoffice.api.serializers import MoneyField, PassThroughField, RejectUnknownFieldsMixin
from backoffice.files import signed_file_url


class BlankAsNullCharField(serializers.CharField):
    def to_representation(self, value):
        return value or None


class UserListOut(serializers.Serializer):
    id = serializers.UUIDField()
    phoneNumber = serializers.CharField(source="phone_number")
    email = serializers.CharField()
    firstName = serializers.CharField(source="first_name")
    lastName = serializers.CharField(source="last_name")
    verificationStatus = serializers.CharField(source="verification_status")
    riskRating = serializers.CharField(source="risk_rating")
    currentRiskScore = serializers.IntegerField(source="current_risk_score")
    balance = MoneyField()
    isVerified = serializers.BooleanField(source="is_verified")
    isArchived = serializers.BooleanField(source="is_archived")
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
    firstName = serializers.CharField(max_length=100, required=False)
    lastName = serializers.CharField(max_length=100, required=False)
    email = serializers.EmailField(max_length=254, required=False, allow_blank=True)


class ArchiveOut(serializers.Serializer):
    id = serializers.UUIDField()
    isArchived = serializers.BooleanField(source="is_archived")


class UserStatsOut(serializers.Serializer):
    totalUsers = serializers.IntegerField()
    verifiedUsers = serializers.IntegerField()
    pendingVerification = serializers.IntegerField()
    rejectedVerification = serializers.IntegerField()
    newUsersToday = serializers.IntegerField()
    newUsersThisWeek = serializers.IntegerField()
    newUsersThisMonth = serializers.IntegerField()


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
    totalTransactions = serializers.IntegerField()
    totalVolume = MoneyField()
    avgTransaction = MoneyField()
    daysActive = serializers.IntegerField()


class HistoryOut(serializers.Serializer):
    profile = UserDetailOut()
    verifications = VerificationOut(many=True)
    transactions = TransactionOut(many=True)
    documents = DocumentOut(many=True)
    timeline = TimelineEventOut(many=True)
    statistics = StatisticsOut()


class SearchByPhoneIn(serializers.Serializer):
    phoneNumber = serializers.CharField(max_length=32)


class SearchByPhoneOut(serializers.Serializer):
    id = serializers.UUIDField()
    phoneNumber = serializers.CharField(source="phone_number")
    firstName = serializers.CharField(source="first_name")
    lastName = serializers.CharField(source="last_name")
    fullName = serializers.CharField(source="full_name")
    verificationStatus = serializers.CharField(source="verification_status")
    isVerified = serializers.BooleanField(source="is_verified")
    nfcCardNumber = BlankAsNullCharField(source="nfc_card_number", allow_null=True)


@extend_schema_field({"type": "number", "exclusiveMinimum": 0, "maximum": 1000000, "multipleOf": 0.01})
class CreditAmountInput(PassThroughField):
    pass


@extend_schema_field({"type": "string", "minLength": 1, "maxLength": 255})
class CreditReasonInput(PassThroughField):
    pass


class AddBalanceIn(RejectUnknownFieldsMixin, serializers.Serializer):
    """Shape only: kyc.services.validate_credit checks amount and reason together (the admin form uses it too)."""

    amount = CreditAmountInput(required=False, help_text="Emalangeni, > 0, at most 1,000,000, two decimals")
    reason = CreditReasonInput(required=False, help_text="Why the wallet is credited")


class AddBalanceOut(serializers.Serializer):
    previousBalance = MoneyField()
    addedAmount = MoneyField()
    newBalance = MoneyField()
    transactionId = serializers.UUIDField()
    reference = serializers.CharField()


class PurgeCountsOut(serializers.Serializer):
    transactions = serializers.IntegerField()
    documents = serializers.IntegerField()
    verifications = serializers.IntegerField()


class PurgeOut(serializers.Serializer):
    id = serializers.UUIDField()
    deleted = PurgeCountsOut()
