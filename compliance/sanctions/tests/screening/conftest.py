"""This folder's fixtures; they are defined in helpers.py beside this file (and the intake's, in aml's)."""

from compliance.aml.tests.transactions.helpers import key_client, post, service_key  # noqa: F401 - fixtures
from compliance.sanctions.tests.screening.helpers import (  # noqa: F401 - fixtures
    _fresh_index,
    customer,
    mlro,
    officer,
)
