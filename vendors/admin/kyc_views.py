"""The KYC panel's buttons (upload, delete, review, decide) and its previews, as admin views.

Each view answers a POST from the vendor page by calling the service with the signed-in staff member and
comes back to the page with a message; a refusal (a role, a file, a move) is a message, never an error page.
"""

import datetime as dt
from urllib.parse import quote

from django.contrib import messages
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.core.files.storage import default_storage
from django.http import Http404, HttpResponse, HttpResponseNotAllowed, HttpResponseRedirect
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt, csrf_protect

from backoffice.admin.actions import object_action
from backoffice.errors import DomainError, ValidationFailed
from backoffice.limits import NOTE_MAX_LENGTH
from backoffice.uploads import VENDOR_KYC, SizeCapUploadHandler, UploadRejected, preview_png
from backoffice.uploads.previews import PREVIEW_MAX_SIDE
from vendors import services
from vendors.choices import DocumentKey
from vendors.selectors.documents import (
    EVIDENCE_CAPABILITY,
    document_duplicates,
    superseded_document_get,
    vendor_document_by_key,
)
from vendors.selectors.vendors import vendor_get

SLOT_PREVIEW_SIDE = 480
PREVIEW_CACHE_SECONDS = 24 * 3600


def _back_url(vendor_id, document_key: str = "") -> str:
    url = reverse("admin:vendors_vendor_change", args=[vendor_id])
    return url + (f"#kyc-{quote(document_key)}" if document_key else "#kyc")


def _explain(exc: DomainError) -> str:
    # reasons the message already says (a refused verification lists every document) are not said twice
    texts = (" ".join(t for t in texts if t not in exc.said) for texts in (exc.details or {}).values())
    reasons = "; ".join(t for t in texts if t)
    return f"{exc.said}: {reasons}" if reasons and reasons != exc.said else exc.said


def _vendor_for(model_admin, request, object_id, capability: str):
    if not model_admin.has_view_permission(request) or not request.user.has_capability(capability):
        raise PermissionDenied
    try:
        return vendor_get(vendor_id=object_id)
    except DomainError:
        raise Http404("Vendor not found") from None


def _label(document_key: str) -> str:
    return DocumentKey(document_key).label if document_key in DocumentKey.values else document_key


def _button(model_admin, capability: str, act):
    """An admin view for one of the panel's buttons: POST only, the capability, the vendor, then ``act``.

    ``act(request, vendor, document_key)`` calls a service and returns the success message; a DomainError it
    raises becomes an error message naming the slot. Either way the answer is the vendor page again.
    """

    def view(request, object_id):
        document_key = request.POST.get("document_key", "")
        slot = f"{_label(document_key)}: " if document_key else ""
        return object_action(
            model_admin,
            request,
            object_id,
            lambda vendor: act(request, vendor, document_key),
            back=_back_url(object_id, document_key),
            lookup=lambda: _vendor_for(model_admin, request, object_id, capability),
            error=lambda exc: slot + _explain(exc),
        )

    return view


def _upload(request, vendor, document_key: str) -> str:
    upload = request.FILES.get("file")
    if upload is None:
        raise ValidationFailed("No file uploaded")
    result = services.vendor_document_upload(vendor=vendor, actor=request.user, document_key=document_key, file=upload)
    stored = result.stored
    duplicates = document_duplicates([result.document]).get(result.document.pk, [])
    if duplicates:
        names = ", ".join(f"{d.business_name} ({_label(d.document_key)})" for d in duplicates)
        messages.warning(request, f"The same file is also stored for: {names}.")
    note = " Location and camera data were removed from the image." if stored.sanitised else ""
    verb = "replaced" if result.replaced_key else "uploaded"
    return f"{_label(document_key)} {verb} ({stored.safe_filename}, {stored.size:,} bytes).{note}"


def upload_view(model_admin):
    """A file for one slot. The size cap is in place before anything reads the body (the CSRF check included)."""
    checked = csrf_protect(_button(model_admin, "vendors.kyc.write", _upload))

    @csrf_exempt  # Django's CSRF check reads the body; ``checked`` runs it once the size cap is in place
    def view(request, object_id):
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        request.upload_handlers.insert(0, SizeCapUploadHandler(request, max_bytes=VENDOR_KYC.max_bytes))
        try:
            return checked(request, object_id)
        except UploadRejected as exc:  # refused while the body arrived, before the view could read it
            model_admin.message_user(request, _explain(exc), messages.ERROR)
            return HttpResponseRedirect(_back_url(object_id))

    return view


def _delete(request, vendor, document_key: str) -> str:
    """The slot's current document, or (``key``: its full storage key) a superseded one whose retention ended."""
    key = request.POST.get("key", "").strip()
    document = vendor_document_by_key(vendor=vendor, key=key or document_key, slot_names=not key, superseded=True)
    services.vendor_document_delete(document=document, actor=request.user)
    if document.superseded_at is not None:
        return f"{_label(document_key)}: the superseded document {document.original_filename or key} was purged."
    return f"{_label(document_key)} deleted."


def _date(name: str, value: str) -> dt.date | None:
    value = (value or "").strip()
    try:
        return dt.date.fromisoformat(value) if value else None
    except ValueError:
        raise ValidationFailed("Dates are YYYY-MM-DD", details={name: [value]}) from None


def _review(request, vendor, document_key: str) -> str:
    dates = {name: _date(name, request.POST[name]) for name in ("expiry_date", "issue_date") if name in request.POST}
    document = vendor_document_by_key(vendor=vendor, key=document_key, slot_names=True)
    document = services.vendor_document_review(
        document=document,
        actor=request.user,
        decision=request.POST.get("decision", ""),
        reason_code=request.POST.get("reason_code", ""),
        note=request.POST.get("note", "").strip()[:NOTE_MAX_LENGTH],
        **dates,
    )
    if document.review_decision == "APPROVED":
        what = "approved"
    else:
        what = f"asked for again ({document.get_review_reason_code_display()})"
    return f"{_label(document_key)} {what}. The vendor is {document.vendor.get_kyc_status_display()}."


def _decide(request, vendor, document_key: str) -> str:
    vendor = services.vendor_kyc_decide(
        vendor=vendor,
        actor=request.user,
        status=request.POST.get("status", ""),
        reason=request.POST.get("reason", "").strip()[:NOTE_MAX_LENGTH],
    )
    return f"{vendor.business_name} is {vendor.get_kyc_status_display()}."


def _override(request, vendor, document_key: str) -> str:
    outcome = services.vendor_kyc_verify_override(
        vendor=vendor, actor=request.user, reason=request.POST.get("reason", "").strip()[:NOTE_MAX_LENGTH]
    )
    if not outcome.waits:  # everything got approved meanwhile: the plain verification
        return f"{outcome.result.business_name} is {outcome.result.get_kyc_status_display()}."
    return (
        f"Verifying {vendor.business_name} without every document approved now waits for a second person "
        "(another compliance officer, MLRO or admin, in Approvals → Waiting for my approval)."
    )


def delete_view(model_admin):
    return _button(model_admin, "vendors.kyc.write", _delete)


def review_view(model_admin):
    return _button(model_admin, "vendors.kyc.write", _review)


def decide_view(model_admin):
    return _button(model_admin, "vendors.kyc.decide", _decide)


def override_view(model_admin):
    return _button(model_admin, "vendors.kyc.decide", _override)


def _preview(request, document) -> HttpResponse:
    """A PNG of the document's file drawn on the server (a PDF's first page, an image scaled): never the raw file.

    Cached by the stored file's sha256, so a page of eight previews costs eight cache reads once drawn.
    """
    side = PREVIEW_MAX_SIDE if request.GET.get("size") == "large" else SLOT_PREVIEW_SIDE
    cache_key = f"vendors:kyc:preview:{document.sha256}:{side}"
    png = cache.get(cache_key)
    if png is None:
        try:
            with default_storage.open(document.key, "rb") as source:
                png = preview_png(source, max_side=side)
        except (DomainError, OSError):
            raise Http404("No preview for this file") from None
        cache.set(cache_key, png, PREVIEW_CACHE_SECONDS)
    response = HttpResponse(png, content_type="image/png")
    response["Cache-Control"] = "private, max-age=300"
    response["Content-Disposition"] = "inline"
    return response


def preview_view(model_admin):
    """The preview of a slot's current file, for every reader of vendor KYC."""

    def view(request, object_id, document_key):
        vendor = _vendor_for(model_admin, request, object_id, "vendors.kyc.read")
        try:
            document = vendor_document_by_key(vendor=vendor, key=document_key, slot_names=True)
        except DomainError:
            raise Http404("No document in this slot") from None
        return _preview(request, document)

    return view


def evidence_preview_view(model_admin):
    """The preview of a superseded document kept as evidence: compliance roles only (``EVIDENCE_CAPABILITY``)."""

    def view(request, object_id, document_id):
        vendor = _vendor_for(model_admin, request, object_id, EVIDENCE_CAPABILITY)
        document = superseded_document_get(vendor=vendor, document_id=document_id)
        if document is None:
            raise Http404("No superseded document of this vendor")
        return _preview(request, document)

    return view
