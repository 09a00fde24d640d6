"""This folder's fixtures; they are defined in helpers.py beside this file, where other folders import them."""

from compliance.peps.tests.helpers import (  # noqa: F401 - fixtures
    officer,
    officer_api,
    person,
)
