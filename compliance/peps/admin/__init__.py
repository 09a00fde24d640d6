from compliance.peps.admin import pep  # noqa: F401
