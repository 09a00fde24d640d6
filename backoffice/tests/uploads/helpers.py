"""Helpers and fixtures of the tests in backoffice/tests/uploads: import helpers from here, never from conftest."""

import os

import pytest
from django.core.files.storage import FileSystemStorage
from django.core.files.uploadedfile import SimpleUploadedFile

from backoffice.uploads import VENDOR_KYC, safe_filename, upload_store


@pytest.fixture
def local_storage(tmp_path):
    return FileSystemStorage(location=str(tmp_path / "media"))


def stored_files(storage: FileSystemStorage) -> list[str]:
    """Every file under the storage's root, hidden ones included, as relative paths."""
    root = storage.location
    found = []
    for directory, _, names in os.walk(root):
        found.extend(os.path.relpath(os.path.join(directory, name), root) for name in names)
    return sorted(found)


@pytest.fixture
def store(local_storage):
    """store(content, filename, policy=VENDOR_KYC, **options): upload_store as a view would call it."""

    def run(content: bytes, filename: str, policy=VENDOR_KYC, *, storage=None, prefix="vendors/7/kyc/", **options):
        upload = SimpleUploadedFile(filename, content)
        return upload_store(
            file=upload,
            name=prefix + safe_filename(filename),
            policy=policy,
            storage=storage or local_storage,
            **options,
        )

    return run
