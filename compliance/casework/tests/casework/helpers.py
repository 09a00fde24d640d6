"""Fixtures of the case work tests: files as a client uploads them, made from scratch."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from backoffice.tests.uploads.corpus import handmade_pdf, javascript_action, jpeg, pikepdf_pdf, png
from compliance.aml.tests.alerts.helpers import make_alert, rule  # noqa: F401 - fixtures
from compliance.sars.tests.sar.helpers import (  # noqa: F401 - fixtures
    client_for,
    clients,
    crew,
    make_sar,
    subject,
    subject_alert,
)

__all__ = ["handmade_pdf", "javascript_action", "jpeg", "pdf_upload", "pikepdf_pdf", "png"]


def pdf_upload(name: str = "evidence.pdf", **options) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, pikepdf_pdf(**options), content_type="application/pdf")


@pytest.fixture(autouse=True)
def stored_files(media):
    """Every upload of these tests lands in a temporary MEDIA_ROOT."""
    return media
