"""This folder's fixtures; they are defined in helpers.py beside this file, where other folders import them."""

from backoffice.tests.uploads.helpers import (  # noqa: F401 - fixtures
    local_storage,
    store,
)
