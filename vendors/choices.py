from django.db import models


class VendorKycStatus(models.TextChoices):
    PENDING = "PENDING", "Pending"
    DOCUMENTS_SUBMITTED = "DOCUMENTS_SUBMITTED", "Documents submitted"
    UNDER_REVIEW = "UNDER_REVIEW", "Under review"
    VERIFIED = "VERIFIED", "Verified"
    REJECTED = "REJECTED", "Rejected"
