from compliance.reporting.tests.threshold.conftest import api, customer, rule, staff  # noqa: F401 - fixtures
