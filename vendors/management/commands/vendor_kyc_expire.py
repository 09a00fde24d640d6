from django.core.management.base import BaseCommand

from vendors.choices import REQUIRED_DOCUMENT_KEYS
from vendors.models import Vendor, VendorDocument, today
from vendors.services import kyc_status_expire
from vendors.services.kyc_status import COMPLETE_STATES


class Command(BaseCommand):
    help = (
        "Send every vendor whose KYC status claims completeness (UNDER_REVIEW, VERIFIED) back to "
        "DOCUMENTS_SUBMITTED when a required document has expired. Run daily; safe to re-run."
    )

    def handle(self, *args, **options):
        on = today()
        expired = VendorDocument.objects.current().filter(document_key__in=REQUIRED_DOCUMENT_KEYS, expiry_date__lt=on)
        candidates = Vendor.objects.filter(kyc_status__in=COMPLETE_STATES, pk__in=expired.values("vendor_id"))
        moved = 0
        for vendor in candidates.iterator():
            before = vendor.kyc_status
            moved += kyc_status_expire(vendor=vendor, on=on).kyc_status != before
        self.stdout.write(f"Vendors sent back for an expired document: {moved}")
