"""Django's PostgreSQL backend (``ENGINE = "backoffice.ops.postgresql"``), one thing changed.

``CONN_HEALTH_CHECKS`` runs ``SELECT 1`` on a persistent connection before a request reuses it. Against a
frozen server that check waited for the full answer deadline (statement timeout plus connect timeout,
``backoffice.ops.db_deadline``) and connecting again then took the connect timeout on top: 25 s instead of
the 20 s documented, and a freeze shorter than the deadline was a hang with no 503 at all. A server that
answers at all answers ``SELECT 1`` in milliseconds, so the check has ``DB_HEALTH_CHECK_SECONDS``.
"""

from django.conf import settings
from django.db.backends.postgresql import base

from backoffice.ops import db_deadline


class DatabaseWrapper(base.DatabaseWrapper):
    def is_usable(self):
        with db_deadline.at_most(settings.DB_HEALTH_CHECK_SECONDS):
            return super().is_usable()
