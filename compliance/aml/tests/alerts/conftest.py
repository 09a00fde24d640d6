"""This folder's fixtures; they are defined in helpers.py beside this file, where other folders import them."""

from compliance.aml.tests.alerts.helpers import (  # noqa: F401 - fixtures
    make_alert,
    officer,
    rule,
)
