"""JSON shapes of /admin/vendors/:id/kyc/...: camelCase in and out, the interface's messages as headlines."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from backoffice.api.serializers import ApprovalRequestOut, StrictCharField
from backoffice.files import signed_file_url
from backoffice.limits import NOTE_MAX_LENGTH
from vendors.choices import DocumentKey, KycDecision, ReviewDecision, ReviewReason, VendorKycStatus
from vendors.selectors.progress import progress_percentage


def document_url(document, context) -> str | None:
    """A signed, expiring link (presigned on S3), absolute when the request is known."""
    if document is None:
        return None
    return signed_file_url(document.key, request=context.get("request"))


class DocumentKeyField(serializers.CharField):
    """One of the eight document keys; a missing or blank one is "required", another value "invalid_choice"."""

    default_error_messages = {"invalid_choice": "Must be one of: " + ", ".join(DocumentKey.values) + "."}

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        if value not in DocumentKey.values:
            self.fail("invalid_choice")
        return value


# ---------------------------------------------------------------- input


class KycUploadIn(serializers.Serializer):
    """multipart/form-data: ``file`` and ``documentKey``. Checked in this order, like the interface's table."""

    headlines = {
        "file": "No file uploaded",
        "documentKey": {
            "required": "Document key is required",
            "blank": "Document key is required",
            "null": "Document key is required",
            "invalid_choice": "Invalid document key",
            "invalid": "Invalid document key",
        },
    }

    # an empty file is not "no file": it reaches the content check, which names it ("Invalid file type")
    file = serializers.FileField(allow_empty_file=True, use_url=False)
    documentKey = DocumentKeyField(source="document_key")


class KycDocumentKeyIn(serializers.Serializer):
    """The body of DELETE .../kyc/documents: the document's full storage key."""

    headlines = {"key": "Key is required"}

    key = StrictCharField(max_length=255)


class KycDocumentReviewIn(serializers.Serializer):
    """One reviewer's word on one document; ``reasonCode`` is required with REREQUESTED."""

    headlines = {
        "key": "Key is required",
        "decision": "Invalid decision",
        "reasonCode": {"required": "Reason code is required", "invalid_choice": "Invalid reason code"},
        "expiryDate": "Invalid expiry date",
        "issueDate": "Invalid issue date",
    }

    key = StrictCharField(max_length=255)
    decision = serializers.ChoiceField(choices=ReviewDecision.choices)
    reasonCode = serializers.ChoiceField(
        choices=ReviewReason.choices, required=False, allow_null=True, allow_blank=True, source="reason_code"
    )
    note = serializers.CharField(max_length=NOTE_MAX_LENGTH, required=False, allow_blank=True, allow_null=True)
    expiryDate = serializers.DateField(required=False, allow_null=True, source="expiry_date")
    issueDate = serializers.DateField(required=False, allow_null=True, source="issue_date")

    def validate(self, attrs):
        attrs["reason_code"] = attrs.get("reason_code") or ""
        attrs["note"] = attrs.get("note") or ""
        if attrs["decision"] == ReviewDecision.REREQUESTED and not attrs["reason_code"]:
            raise serializers.ValidationError(
                {"reasonCode": [serializers.ErrorDetail("Required to ask for a document again.", code="required")]}
            )
        return attrs


OVERRIDE_REASON = "override_reason"


class KycStatusIn(serializers.Serializer):
    """The decision on a vendor under review; a rejection needs a reason."""

    headlines = {
        "status": "Invalid status",
        "reason": {
            OVERRIDE_REASON: "A reason is required to verify without every document approved",
            "invalid": "Reason is required to reject",
            "max_length": "Reason is required to reject",
        },
    }

    status = serializers.ChoiceField(choices=KycDecision.choices)
    reason = serializers.CharField(max_length=NOTE_MAX_LENGTH, required=False, allow_blank=True, allow_null=True)
    # VERIFIED although required documents are not approved: a request a second person approves (202)
    override = serializers.BooleanField(required=False, default=False)

    def validate(self, attrs):
        attrs["reason"] = (attrs.get("reason") or "").strip()
        if attrs["status"] == KycDecision.REJECTED and not attrs["reason"]:
            raise serializers.ValidationError({"reason": ["Required to reject."]})
        if attrs["status"] == KycDecision.VERIFIED and attrs["override"] and not attrs["reason"]:
            raise serializers.ValidationError(
                {"reason": ["Required to verify without every document approved."]}, code=OVERRIDE_REASON
            )
        return attrs


class KycVerificationAwaitingOut(serializers.Serializer):
    """A verification despite the gaps: the request a second person decides; the vendor stays UNDER_REVIEW."""

    approvalRequest = ApprovalRequestOut()


# ---------------------------------------------------------------- output


class DuplicateOut(serializers.Serializer):
    vendorId = serializers.UUIDField(source="vendor_id")
    businessName = serializers.CharField(source="business_name")
    documentKey = serializers.CharField(source="document_key")


class KycUploadOut(serializers.Serializer):
    """201 of an upload: the contract's fields, then what a reviewer or client also wants to know."""

    key = serializers.CharField(source="document.key")
    url = serializers.SerializerMethodField()
    size = serializers.IntegerField(source="document.size")
    contentType = serializers.CharField(source="document.content_type")
    documentKey = serializers.CharField(source="document.document_key")
    documentType = serializers.CharField(source="document.document_key")
    uploadedAt = serializers.DateTimeField(source="document.uploaded_at")
    originalFilename = serializers.CharField(source="document.original_filename")
    sha256 = serializers.CharField(source="document.sha256")
    replacedKey = serializers.CharField(source="replaced_key", allow_null=True)
    verificationStatus = serializers.ChoiceField(source="vendor.kyc_status", choices=VendorKycStatus.choices)
    duplicates = DuplicateOut(many=True)

    def get_url(self, result: dict) -> str:
        return document_url(result["document"], self.context)


class KycDocumentOut(serializers.Serializer):
    """One item of GET .../kyc/documents (the interface's five fields, then ours)."""

    key = serializers.CharField()
    url = serializers.SerializerMethodField()
    size = serializers.IntegerField()
    lastModified = serializers.DateTimeField(source="uploaded_at")
    documentType = serializers.CharField(source="document_key")
    documentKey = serializers.CharField(source="document_key")
    contentType = serializers.CharField(source="content_type")
    sha256 = serializers.CharField()

    def get_url(self, document) -> str:
        return document_url(document, self.context)


class ReviewOut(serializers.Serializer):
    decision = serializers.CharField(source="review_decision")
    reasonCode = serializers.SerializerMethodField()
    note = serializers.CharField(source="review_note")
    reviewedAt = serializers.DateTimeField(source="reviewed_at")
    reviewedBy = serializers.UUIDField(source="reviewed_by_id", allow_null=True)

    def get_reasonCode(self, document) -> str | None:  # noqa: N802 - the API's name
        return document.review_reason_code or None


class SlotOut(serializers.Serializer):
    """One entry of the progress ``documents`` map (keyed by document key)."""

    required = serializers.BooleanField()
    uploaded = serializers.SerializerMethodField()
    status = serializers.CharField(source="state")
    url = serializers.SerializerMethodField()
    uploadedAt = serializers.DateTimeField(source="document.uploaded_at", default=None)
    key = serializers.CharField(source="document.key", default=None)
    review = serializers.SerializerMethodField()
    expiryDate = serializers.DateField(source="document.expiry_date", default=None)
    issueDate = serializers.DateField(source="document.issue_date", default=None)
    duplicates = DuplicateOut(many=True)

    def get_uploaded(self, slot) -> bool:
        return slot.document is not None

    def get_url(self, slot) -> str | None:
        return document_url(slot.document, self.context)

    @extend_schema_field(ReviewOut(allow_null=True))
    def get_review(self, slot) -> dict | None:
        document = slot.document
        if document is None or not document.review_decision:
            return None
        return ReviewOut(document).data


class KycProgressOut(serializers.Serializer):
    vendorId = serializers.UUIDField(source="vendor.pk")
    verificationStatus = serializers.ChoiceField(source="vendor.kyc_status", choices=VendorKycStatus.choices)
    totalRequired = serializers.IntegerField(source="total_required")
    totalCompleted = serializers.IntegerField(source="total_completed")
    progressPercentage = serializers.IntegerField(source="percentage")
    documents = serializers.SerializerMethodField()
    missingDocuments = serializers.ListField(source="missing", child=serializers.CharField())

    @extend_schema_field(serializers.DictField(child=SlotOut(), help_text="One entry per document key"))
    def get_documents(self, progress) -> dict:
        return {slot.document_key: SlotOut(slot, context=self.context).data for slot in progress.slots}


class KycSupersededDocumentOut(KycDocumentOut):
    """One item of GET .../kyc/documents/superseded: a replaced document kept as evidence, its review and how long
    it is kept (compliance roles only)."""

    originalFilename = serializers.CharField(source="original_filename")
    uploadedAt = serializers.DateTimeField(source="uploaded_at")
    review = serializers.SerializerMethodField()
    supersededAt = serializers.DateTimeField(source="superseded_at")
    supersededByKey = serializers.CharField(source="superseded_by.key", default=None, allow_null=True)
    retainedUntil = serializers.DateField(source="retained_until")

    @extend_schema_field(ReviewOut(allow_null=True))
    def get_review(self, document) -> dict | None:
        return ReviewOut(document).data if document.review_decision else None


class KycDocumentDeletedOut(serializers.Serializer):
    key = serializers.CharField()
    verificationStatus = serializers.ChoiceField(source="vendor.kyc_status", choices=VendorKycStatus.choices)


class KycDocumentReviewedOut(serializers.Serializer):
    key = serializers.CharField()
    documentKey = serializers.CharField(source="document_key")
    status = serializers.SerializerMethodField()
    review = serializers.SerializerMethodField()
    expiryDate = serializers.DateField(source="expiry_date", allow_null=True)  # dates are optional in a review
    issueDate = serializers.DateField(source="issue_date", allow_null=True)
    verificationStatus = serializers.ChoiceField(source="vendor.kyc_status", choices=VendorKycStatus.choices)

    def get_status(self, document) -> str:
        return document.state(self.context["on"])

    @extend_schema_field(ReviewOut)
    def get_review(self, document) -> dict:
        return ReviewOut(document).data


class KycStatusOut(serializers.Serializer):
    vendorId = serializers.UUIDField(source="pk")
    verificationStatus = serializers.ChoiceField(source="kyc_status", choices=VendorKycStatus.choices)
    reason = serializers.CharField(source="kyc_decision_reason")
    decidedAt = serializers.DateTimeField(source="kyc_decided_at")
    decidedBy = serializers.UUIDField(source="kyc_decided_by_id")


class VendorListOut(serializers.Serializer):
    """GET /admin/vendors (beyond the interface): a vendor with its KYC progress."""

    id = serializers.UUIDField()
    businessName = serializers.CharField(source="business_name")
    contactName = serializers.CharField(source="contact_name")
    email = serializers.EmailField()
    phoneNumber = serializers.CharField(source="phone_number")
    verificationStatus = serializers.ChoiceField(source="kyc_status", choices=VendorKycStatus.choices)
    totalCompleted = serializers.IntegerField(source="kyc_completed")
    progressPercentage = serializers.SerializerMethodField()
    nextDocumentExpiry = serializers.DateField(source="kyc_next_expiry", allow_null=True)  # no dated document
    createdAt = serializers.DateTimeField(source="created_at")

    def get_progressPercentage(self, vendor) -> int:  # noqa: N802 - the API's name

        return progress_percentage(vendor.kyc_completed)
