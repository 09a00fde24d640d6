from compliance.aml.admin import alerts, held, rules  # noqa: F401
