"""/admin/vendors and /admin/vendors/:id/kyc/...: thin views over vendors.selectors and vendors.services.

Support reads (``vendors.kyc.read``); compliance officers, MLROs and admins upload, delete and review
(``vendors.kyc.write``), read the superseded documents kept as evidence (the same capability: the compliance
roles) and decide (``vendors.kyc.decide``): ``backoffice.roles``.
"""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser

from backoffice.api.serializers import ApprovalRequestOut
from backoffice.api.viewsets import SINGLE, ApiViewSet
from backoffice.uploads import VENDOR_KYC, SizeCapUploadHandler
from vendors import services
from vendors.api.serializers import kyc as s
from vendors.choices import DocumentKey, KycDecision
from vendors.filtersets import VendorFilterSet
from vendors.models import today
from vendors.selectors.documents import (
    EVIDENCE_CAPABILITY,
    document_duplicates,
    vendor_document_by_key,
    vendor_documents,
    vendor_superseded_documents,
)
from vendors.selectors.progress import vendor_kyc_progress
from vendors.selectors.vendors import vendor_get, vendor_list

TAG = ["Vendor KYC"]
VERIFICATION_AWAITING = "Verification awaiting approval"
VENDOR_ID = OpenApiParameter("id", OpenApiTypes.UUID, OpenApiParameter.PATH, description="The vendor's id")
# Actions on one vendor: no list filters, no paging.
UPLOAD_BODY = {
    "multipart/form-data": inline_serializer(
        "VendorKycUpload",
        {
            "file": serializers.FileField(help_text="PDF, JPEG or PNG whose bytes agree with its name; at most 50 MB"),
            "documentKey": serializers.ChoiceField(choices=DocumentKey.choices),
        },
    )
}


class VendorViewSet(ApiViewSet):
    """Vendors and their KYC documents. Every write goes through vendors.services and lands in the audit log."""

    filterset_class = VendorFilterSet
    lookup_value_regex = "[^/]+"  # any text reaches the view, which answers 404 "Vendor not found"
    capabilities = {
        "list": "vendors.kyc.read",
        "progress": "vendors.kyc.read",
        "documents": "vendors.kyc.read",
        "superseded_documents": EVIDENCE_CAPABILITY,
        "upload": "vendors.kyc.write",
        "delete_document": "vendors.kyc.write",
        "review_document": "vendors.kyc.write",
        "status": "vendors.kyc.decide",
    }

    def get_queryset(self):
        return vendor_list()

    def _vendor(self):
        return vendor_get(vendor_id=self.kwargs.get("pk"))

    @extend_schema(
        tags=TAG, summary="List vendors with their KYC progress", responses={200: s.VendorListOut(many=True)}
    )
    def list(self, request):
        return self.paged(self.get_queryset(), s.VendorListOut)

    @extend_schema(
        tags=TAG,
        summary="Upload (or replace) one KYC document of a vendor",
        description="The file is checked by its bytes (PDF, JPEG, PNG; active or encrypted PDFs refused), images "
        "lose their metadata, and the key is `vendors/{vendorId}/kyc/{documentKey}_{safeFilename}`. A file "
        "already in the slot is replaced, and deleted once the new one is recorded (the same file name again "
        'gets a new key with a random suffix). 500 "Upload timeout" leaves nothing stored.',
        parameters=[VENDOR_ID],
        request=UPLOAD_BODY,
        responses={201: s.KycUploadOut},
    )
    @action(
        detail=True,
        methods=["post"],
        url_path="kyc/upload",
        parser_classes=[MultiPartParser, FormParser, JSONParser],
        **SINGLE,
    )
    def upload(self, request, pk=None):
        # Before anything reads the body: a file over the cap is refused while it arrives, never kept whole.
        request.upload_handlers.insert(0, SizeCapUploadHandler(max_bytes=VENDOR_KYC.max_bytes))
        vendor = self._vendor()
        data = self.input(s.KycUploadIn)
        result = services.vendor_document_upload(vendor=vendor, actor=request.user, **data)
        duplicates = document_duplicates([result.document]).get(result.document.pk, [])
        body = {
            "document": result.document,
            "replaced_key": result.replaced_key,
            "vendor": result.vendor,
            "duplicates": duplicates,
        }
        message = "Document replaced" if result.replaced_key else "Document uploaded"
        return self.ok(s.KycUploadOut(body, context={"request": request}).data, message=message, status=201)

    @extend_schema(
        tags=TAG, summary="A vendor's KYC progress", parameters=[VENDOR_ID], responses={200: s.KycProgressOut}
    )
    @action(detail=True, methods=["get"], url_path="kyc/progress", **SINGLE)
    def progress(self, request, pk=None):
        vendor = services.kyc_status_expire(vendor=self._vendor())
        progress = vendor_kyc_progress(vendor=vendor)
        return self.ok(s.KycProgressOut(progress, context={"request": request}).data)

    @extend_schema(
        tags=TAG,
        summary="A vendor's KYC documents (signed, expiring URLs)",
        parameters=[VENDOR_ID],
        responses={200: s.KycDocumentOut(many=True)},
    )
    @action(detail=True, methods=["get"], url_path="kyc/documents", **SINGLE)
    def documents(self, request, pk=None):
        documents = vendor_documents(vendor=self._vendor())
        return self.ok(s.KycDocumentOut(documents, many=True, context={"request": request}).data)

    @extend_schema(
        tags=TAG,
        summary="A vendor's superseded KYC documents, kept as evidence (compliance roles)",
        description="Documents replaced after a review or a KYC decision relied on them: kept, with their review, "
        "until `retainedUntil` (`VENDOR_KYC_RETENTION_DAYS` after they were replaced). Newest replacement first.",
        parameters=[VENDOR_ID],
        responses={200: s.KycSupersededDocumentOut(many=True)},
    )
    @action(detail=True, methods=["get"], url_path="kyc/documents/superseded", **SINGLE)
    def superseded_documents(self, request, pk=None):
        documents = vendor_superseded_documents(vendor=self._vendor())
        return self.ok(s.KycSupersededDocumentOut(documents, many=True, context={"request": request}).data)

    @extend_schema(
        tags=TAG,
        summary="Delete one of a vendor's KYC documents by its full storage key",
        description="A document a review or a KYC decision relied on is kept: 409 `RETENTION_HOLD` while it is "
        "in its slot (replace it instead) and, once superseded, until its retention period has ended.",
        parameters=[VENDOR_ID],
        request=s.KycDocumentKeyIn,
        responses={200: s.KycDocumentDeletedOut},
    )
    @documents.mapping.delete
    def delete_document(self, request, pk=None):
        vendor = self._vendor()
        document = vendor_document_by_key(vendor=vendor, superseded=True, **self.input(s.KycDocumentKeyIn))
        vendor = services.vendor_document_delete(document=document, actor=request.user)
        return self.ok(
            s.KycDocumentDeletedOut({"key": document.key, "vendor": vendor}).data, message="Document deleted"
        )

    @extend_schema(
        tags=TAG,
        summary="Approve one document or ask for it again",
        parameters=[VENDOR_ID],
        request=s.KycDocumentReviewIn,
        responses={200: s.KycDocumentReviewedOut},
    )
    @action(detail=True, methods=["put"], url_path="kyc/documents/review", **SINGLE)
    def review_document(self, request, pk=None):
        vendor = self._vendor()
        data = self.input(s.KycDocumentReviewIn)
        document = vendor_document_by_key(vendor=vendor, key=data.pop("key"), slot_names=True)
        document = services.vendor_document_review(document=document, actor=request.user, **data)
        return self.ok(s.KycDocumentReviewedOut(document, context={"on": today()}).data, message="Document reviewed")

    @extend_schema(
        tags=TAG,
        summary="Decide on a vendor under review: VERIFIED or REJECTED",
        description="Only from UNDER_REVIEW; any other status answers 409 INVALID_TRANSITION. VERIFIED needs every "
        "required document approved on its own file: 409 DOCUMENTS_NOT_APPROVED otherwise, `details` naming each "
        "document key with why (missing, not reviewed, asked for again, expired, the same file as another slot). "
        "`override: true` with VERIFIED and a `reason` (required, 400 without) asks instead to verify despite "
        "those gaps: 202 `approvalRequest`, which another officer, MLRO or admin approves in the admin queue "
        "(docs/dual-control.md); with nothing missing the flag is ignored and the vendor is verified (200).",
        parameters=[VENDOR_ID],
        request=s.KycStatusIn,
        responses={200: s.KycStatusOut, 202: s.KycVerificationAwaitingOut},
    )
    @action(detail=True, methods=["put"], url_path="kyc/status", **SINGLE)
    def status(self, request, pk=None):
        vendor = self._vendor()
        data = self.input(s.KycStatusIn)
        if data.pop("override") and data["status"] == KycDecision.VERIFIED:
            outcome = services.vendor_kyc_verify_override(vendor=vendor, actor=request.user, reason=data["reason"])
            if outcome.waits:
                body = {"approvalRequest": ApprovalRequestOut(outcome.request).data}
                return self.ok(body, message=VERIFICATION_AWAITING, status=202)
            vendor = outcome.result
        else:
            vendor = services.vendor_kyc_decide(vendor=vendor, actor=request.user, **data)
        return self.ok(s.KycStatusOut(vendor).data, message="Vendor KYC status updated")
