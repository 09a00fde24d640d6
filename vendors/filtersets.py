"""Query-string filters of GET /admin/vendors: KYC status, documents expiring soon, a text search."""

import django_filters
from django.db.models import Q

from backoffice.lists.filters import ListFilterSet
from vendors.choices import VendorKycStatus
from vendors.models import Vendor
from vendors.selectors.vendors import expiring_within


class VendorFilterSet(ListFilterSet):
    """``verificationStatus``, ``documentsExpiringWithinDays`` (0-365), ``q`` (name, e-mail, phone), dates, sorting."""

    headlines = {
        "verificationStatus": "Invalid verification status",
        "documentsExpiringWithinDays": "Invalid number of days",
    }
    sort_fields = {
        "createdAt": "created_at",
        "businessName": "business_name",
        "verificationStatus": "kyc_status",
        "progress": "kyc_completed",
    }

    verificationStatus = django_filters.ChoiceFilter(field_name="kyc_status", choices=VendorKycStatus.choices)
    documentsExpiringWithinDays = django_filters.NumberFilter(method="filter_expiring", min_value=0, max_value=365)
    q = django_filters.CharFilter(method="filter_q", max_length=100)

    class Meta:
        model = Vendor
        fields = []

    def filter_expiring(self, queryset, name, value):
        return expiring_within(queryset, days=int(value))

    def filter_q(self, queryset, name, value):
        value = value.strip()
        if not value:
            return queryset
        return queryset.filter(
            Q(business_name__icontains=value)
            | Q(contact_name__icontains=value)
            | Q(email__icontains=value)
            | Q(phone_number__icontains=value)
        )
