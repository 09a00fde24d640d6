"""The compliance app's admin pages, one module per area."""

from compliance.admin import (
    alerts,  # noqa: F401
    rules,  # noqa: F401
)
