"""KYC's fixtures for ``backoffice.tests.admin.test_admin_forms_submitted``: a user to change (none is added here)."""

from kyc.tests.factories import PlatformUserFactory

INSTANCES = {"kyc.PlatformUser": PlatformUserFactory}
