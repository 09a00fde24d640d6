"""This folder's fixtures; they are defined in helpers.py beside this file, where other folders import them."""

from compliance.casework.tests.casework.helpers import (  # noqa: F401 - fixtures
    client_for,
    clients,
    crew,
    make_alert,
    make_sar,
    rule,
    stored_files,
    subject,
    subject_alert,
)
