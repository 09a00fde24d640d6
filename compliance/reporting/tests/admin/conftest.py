"""The threshold report fixtures, shared with the admin pages' tests."""

from compliance.reporting.tests.threshold.helpers import api, customer, rule, staff  # noqa: F401 - fixtures
