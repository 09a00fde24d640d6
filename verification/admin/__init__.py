from verification.admin.jobs import VerificationJobAdmin

__all__ = ["VerificationJobAdmin"]
