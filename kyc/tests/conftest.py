"""This folder's fixtures; they are defined in helpers.py beside this file, where other folders import them."""

from kyc.tests.helpers import (  # noqa: F401 - fixtures
    admin_api,
    as_role,
)
