"""This folder's fixtures; they are defined in helpers.py beside this file, where other folders import them."""

from compliance.sars.tests.sar.helpers import (  # noqa: F401 - fixtures
    clients,
    crew,
    make_sar,
    subject,
    subject_alert,
    subject_transactions,
)
