"""KYC's fixtures for ``backoffice.tests.test_admin_forms_submitted``: a user to change (users are not added here)."""

from kyc.tests.factories import PlatformUserFactory

INSTANCES = {"kyc.PlatformUser": PlatformUserFactory}
