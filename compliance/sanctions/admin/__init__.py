from compliance.sanctions.admin import lists, matches  # noqa: F401
