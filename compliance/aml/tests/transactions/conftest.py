"""This folder's fixtures; they are defined in helpers.py beside this file, where other folders import them."""

from compliance.aml.tests.transactions.helpers import (  # noqa: F401 - fixtures
    key_client,
    post,
    service_key,
    user,
)
