"""A user's identity documents and verification records."""

import uuid
from pathlib import Path

from django.db import models

from kyc.choices import DocumentType, VerificationStatus, VerificationType
from kyc.models.users import PlatformUser


def document_path(document: "KycDocument", filename: str) -> str:
    """``kyc/<user id>/<random>.<ext>``: never another user's name, and no client-chosen file name in the key."""
    extension = Path(filename).suffix.lower()[:8]
    return f"kyc/{document.user_id}/{uuid.uuid4().hex}{extension}"


class KycDocument(models.Model):
    """An identity image of a user (ID front, ID back, selfie), kept through Django's storage API."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.ForeignKey(PlatformUser, on_delete=models.CASCADE, related_name="documents")
    type = models.CharField(max_length=8, choices=DocumentType.choices)
    file = models.FileField(upload_to=document_path, max_length=255)
    content_type = models.CharField(max_length=64, blank=True, default="")
    size = models.PositiveIntegerField(default=0)
    uploaded_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-uploaded_at"]
        verbose_name = "KYC document"

    def __str__(self):
        return f"{self.get_type_display()} of {self.user_id}"


class VerificationRecord(models.Model):
    """One verification attempt of a user (identity check, phone check) and its outcome."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.ForeignKey(PlatformUser, on_delete=models.CASCADE, related_name="verifications")
    type = models.CharField(max_length=10, choices=VerificationType.choices, default=VerificationType.IDENTITY)
    status = models.CharField(max_length=10, choices=VerificationStatus.choices, default=VerificationStatus.PENDING)
    notes = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"{self.type} {self.status} for {self.user_id}"
