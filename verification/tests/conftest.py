"""This folder's fixtures; they are defined in helpers.py beside this file, where other folders import them."""

from verification.tests.helpers import (  # noqa: F401 - fixtures
    make_job,
    sipho,
)
