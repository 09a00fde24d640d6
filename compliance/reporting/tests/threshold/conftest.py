"""This folder's fixtures; they are defined in helpers.py beside this file, where other folders import them."""

from compliance.reporting.tests.threshold.helpers import (  # noqa: F401 - fixtures
    api,
    customer,
    rule,
    staff,
)
