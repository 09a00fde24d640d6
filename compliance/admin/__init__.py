from compliance.admin import sar  # noqa: F401
