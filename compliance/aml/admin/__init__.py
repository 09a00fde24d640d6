from compliance.aml.admin import alerts, rules  # noqa: F401
