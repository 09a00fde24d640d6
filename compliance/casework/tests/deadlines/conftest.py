"""The alert fixtures, shared with the deadline tests."""

from compliance.aml.tests.alerts.helpers import make_alert, rule  # noqa: F401 - fixtures
