from compliance.aml.admin import alerts, governance, held, rules  # noqa: F401
