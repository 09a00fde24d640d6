"""Reads of vendors: one vendor, the admin's list with its KYC progress, document expiry filters."""

import datetime as dt
import uuid

from django.db.models import Count, Min, Q, QuerySet
from django.utils import timezone

from backoffice.choices import ApprovalStatus
from backoffice.models import ApprovalRequest
from vendors.choices import REQUIRED_DOCUMENT_KEYS, VENDOR_TARGET, VERIFY_OVERRIDE_KIND, ReviewDecision, VendorKycStatus
from vendors.errors import VendorNotFound
from vendors.models import Vendor, VendorDocument, today

EXPIRY_WARNING_DAYS = 30


def vendor_pending_override(*, vendor: Vendor) -> ApprovalRequest | None:
    """The verification despite the gaps that waits for a second person on ``vendor`` (one at most), in time."""
    return (
        ApprovalRequest.objects.filter(
            kind=VERIFY_OVERRIDE_KIND,
            target_type=VENDOR_TARGET,
            target_id=str(vendor.pk),
            status=ApprovalStatus.PENDING,
        )
        .filter(Q(expires_at__isnull=True) | Q(expires_at__gt=timezone.now()))
        .select_related("requested_by")
        .first()
    )


def vendor_get(*, vendor_id) -> Vendor:
    """The vendor with this id, or 404 "Vendor not found" (also for an id that is not a UUID)."""
    try:
        pk = vendor_id if isinstance(vendor_id, uuid.UUID) else uuid.UUID(str(vendor_id))
    except ValueError:
        raise VendorNotFound() from None
    vendor = Vendor.objects.filter(pk=pk).defer("password").first()
    if vendor is None:
        raise VendorNotFound()
    return vendor


def counting_documents_q(on: dt.date, prefix: str = "kyc_documents__") -> Q:
    """Documents that count towards completeness, as a filter on ``prefix`` (the list's progress bar)."""
    return (
        Q(**{f"{prefix}superseded_at__isnull": True})
        & Q(**{f"{prefix}document_key__in": REQUIRED_DOCUMENT_KEYS})
        & ~Q(**{f"{prefix}review_decision": ReviewDecision.REREQUESTED})
        & (Q(**{f"{prefix}expiry_date__isnull": True}) | Q(**{f"{prefix}expiry_date__gte": on}))
    )


def vendor_list(*, on: dt.date | None = None) -> QuerySet[Vendor]:
    """Vendors with their KYC progress (``kyc_completed``) and next document expiry (``kyc_next_expiry``)."""
    on = on or today()
    return (
        Vendor.objects.defer("password")
        .annotate(
            kyc_completed=Count("kyc_documents", filter=counting_documents_q(on), distinct=True),
            kyc_next_expiry=Min("kyc_documents__expiry_date", filter=Q(kyc_documents__superseded_at__isnull=True)),
        )
        .order_by("-created_at", "-id")
    )


def expiring_within(queryset: QuerySet[Vendor], *, days: int, on: dt.date | None = None) -> QuerySet[Vendor]:
    """Vendors with a document whose expiry date falls within the next ``days`` days (today included)."""
    on = on or today()
    ids = VendorDocument.objects.current().filter(expiry_date__gte=on, expiry_date__lte=on + dt.timedelta(days=days))
    return queryset.filter(pk__in=ids.values("vendor_id"))


def with_expired_documents(queryset: QuerySet[Vendor], *, on: dt.date | None = None) -> QuerySet[Vendor]:
    on = on or today()
    return queryset.filter(pk__in=VendorDocument.objects.current().filter(expiry_date__lt=on).values("vendor_id"))


def vendor_kyc_card_counts() -> dict:
    """Vendors awaiting a KYC decision, and vendors with papers expiring within ``EXPIRY_WARNING_DAYS``."""
    return {
        "awaiting": Vendor.objects.filter(kyc_status=VendorKycStatus.UNDER_REVIEW).count(),
        "expiring": expiring_within(Vendor.objects.all(), days=EXPIRY_WARNING_DAYS).count(),
    }
