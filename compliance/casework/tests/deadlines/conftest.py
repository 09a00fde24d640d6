from compliance.aml.tests.alerts.conftest import make_alert, rule  # noqa: F401  (the alert fixtures)
