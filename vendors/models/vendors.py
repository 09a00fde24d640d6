"""Vendors: merchants that accept payments on the platform."""

import uuid

from django.db import models

from vendors.choices import VendorKycStatus


class Vendor(models.Model):
    """A merchant that accepts payments on the platform and goes through vendor KYC."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    business_name = models.CharField(max_length=200)
    contact_name = models.CharField(max_length=200, blank=True, default="")
    email = models.EmailField(unique=True)
    phone_number = models.CharField(max_length=20, unique=True)
    password = models.CharField(max_length=128)
    kyc_status = models.CharField(max_length=24, choices=VendorKycStatus.choices, default=VendorKycStatus.PENDING)
    business_sector = models.CharField(max_length=64, blank=True, default="")
    is_phone_verified = models.BooleanField(default=False)
    is_active = models.BooleanField(default=True)
    last_login = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]

    # DRF treats any object it authenticates as a user; vendors are.
    is_authenticated = True

    def __str__(self):
        return self.business_name

    def clean(self):
        self.email = (self.email or "").strip().lower()
