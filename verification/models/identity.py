"""What duplicate-identity checks search: face templates and image fingerprints of every user."""

import uuid

from django.db import models

from verification.choices import ImageRole


class FaceTemplate(models.Model):
    """The face descriptor of a job's selfie (the local engine's 128 numbers), for the 1:N face search.

    Kept as little-endian float32 bytes: 512 bytes a face, read back into one numpy matrix per search.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.ForeignKey("kyc.PlatformUser", on_delete=models.CASCADE, related_name="face_templates")
    job = models.OneToOneField("verification.VerificationJob", on_delete=models.CASCADE, related_name="face")
    engine = models.CharField(max_length=16)
    vector = models.BinaryField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"Face of {self.user_id}"


class ImageFingerprint(models.Model):
    """The exact (sha256) and perceptual (64-bit difference hash) fingerprints of one identity image."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.ForeignKey("kyc.PlatformUser", on_delete=models.CASCADE, related_name="image_fingerprints")
    job = models.ForeignKey("verification.VerificationJob", on_delete=models.CASCADE, related_name="fingerprints")
    role = models.CharField(max_length=8, choices=ImageRole.choices)
    sha256 = models.CharField(max_length=64, db_index=True)
    # signed: the database's bigint; the hash's 64 bits are the same either way
    dhash = models.BigIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [models.UniqueConstraint(fields=["job", "role"], name="verif_fingerprint_one_per_role")]

    def __str__(self):
        return f"{self.role} of {self.user_id}"
