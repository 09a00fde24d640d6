"""This folder's fixtures; they are defined in helpers.py beside this file, where other folders import them."""

from compliance.aml.tests.rules.helpers import (  # noqa: F401 - fixtures
    make_rule,
    mlro,
    officer,
)
