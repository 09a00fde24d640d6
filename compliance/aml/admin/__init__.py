from compliance.aml.admin import alerts, governance, rules  # noqa: F401
