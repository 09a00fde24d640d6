from compliance.sars.admin import sar  # noqa: F401
