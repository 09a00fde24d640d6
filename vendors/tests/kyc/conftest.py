"""This folder's fixtures; they are defined in helpers.py beside this file, where other folders import them."""

from vendors.tests.kyc.helpers import (  # noqa: F401 - fixtures
    approved_documents_required,
    clients,
    officer,
    store_documents,
    upload,
    vendor,
)
