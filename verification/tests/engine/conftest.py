"""This folder's fixtures; they are defined in helpers.py beside this file, where other folders import them."""

from verification.tests.engine.helpers import (  # noqa: F401 - fixtures
    biden,
    biden_selfie,
    local,
    obama,
    obama2,
    obama_card,
    obama_selfie,
)
