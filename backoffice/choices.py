from django.db import models


class StaffRole(models.TextChoices):
    SUPPORT = "support", "Support"
    COMPLIANCE_OFFICER = "compliance_officer", "Compliance officer"
    MLRO = "mlro", "Money-laundering reporting officer"
    FINANCE = "finance", "Finance"
    ADMIN = "admin", "Administrator"


class OtpPurpose(models.TextChoices):
    PHONE_VERIFICATION = "phone_verification", "Phone verification"
