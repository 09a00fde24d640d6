"""The admin site: the foundation's own pages (``pages``), what every app's admin shares (``base``),
and the registries apps fill from ``ready()``: the sidebar (``navigation``), the dashboard's cards
(``dashboard``), the audit log's names (``audit_names``).

Django's autodiscovery imports this package: importing ``pages`` registers the foundation's pages.
"""

from backoffice.admin import pages  # noqa: F401
