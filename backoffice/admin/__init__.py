"""The admin site: the foundation's own pages (``pages``), what every app's admin shares (``base``),
and the registries apps fill from ``ready()``: the sidebar (``navigation``), the dashboard's cards
(``dashboard``), the audit log's names (``audit_names``).

Django's autodiscovery imports this package: importing ``pages`` registers the foundation's pages.
"""

from django.contrib import admin

from backoffice.admin import (
    approvals,  # noqa: F401
    pages,  # noqa: F401
    two_factor,
    webhooks,  # noqa: F401
)

# the sign-in's second step and each staff member's two-factor page (backoffice.admin.two_factor)
two_factor.install(admin.site)
