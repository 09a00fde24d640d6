"""The write: never over an existing key unless asked, and a failure mid-write leaves nothing behind."""

import os
import time

import pytest
from django.core.files.storage import FileSystemStorage, InMemoryStorage

from backoffice.uploads import (
    FileAlreadyStored,
    IfExists,
    UploadStorageError,
    UploadTimeout,
)

from .corpus import handmade_pdf, jpeg
from .helpers import stored_files

FIRST = handmade_pdf()
SECOND = handmade_pdf(catalog_extra=b"/Lang (en)")


def read(storage, name) -> bytes:
    with storage.open(name) as f:
        return f.read()


def test_an_existing_key_is_refused_by_default_and_kept(store, local_storage):
    store(FIRST, "tax.pdf")
    with pytest.raises(FileAlreadyStored) as excinfo:
        store(SECOND, "tax.pdf")
    assert excinfo.value.status == 409 and excinfo.value.code == "FILE_EXISTS"
    assert read(local_storage, "vendors/7/kyc/tax.pdf") == FIRST
    assert stored_files(local_storage) == ["vendors/7/kyc/tax.pdf"]


def test_replace_overwrites_the_key_in_one_step(store, local_storage):
    store(FIRST, "tax.pdf")
    stored = store(SECOND, "tax.pdf", if_exists=IfExists.REPLACE)
    assert stored.name == "vendors/7/kyc/tax.pdf"
    assert read(local_storage, stored.name) == SECOND
    assert stored_files(local_storage) == ["vendors/7/kyc/tax.pdf"]


def test_rename_stores_beside_the_existing_key(store, local_storage):
    store(FIRST, "tax.pdf")
    stored = store(SECOND, "tax.pdf", if_exists=IfExists.RENAME)
    assert stored.name != "vendors/7/kyc/tax.pdf" and stored.name.startswith("vendors/7/kyc/tax_")
    assert stored.name.endswith(".pdf")
    assert read(local_storage, "vendors/7/kyc/tax.pdf") == FIRST and read(local_storage, stored.name) == SECOND


class StallingDisk(FileSystemStorage):
    """A real disk that writes the first 1 KB of a file and then stops answering."""

    def _save(self, name, content):
        path = self.path(name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(content.read(1024))
        raise TimeoutError("the disk stopped answering")


class FailingObjectStore(InMemoryStorage):
    """Django's in-memory store (not a file system) that keeps the object, then fails to confirm it."""

    def _save(self, name, content):
        super()._save(name, content)
        raise ConnectionResetError("connection reset after the body was sent")


def test_a_timeout_mid_write_on_disk_leaves_no_file_at_all(store, tmp_path):
    disk = StallingDisk(location=str(tmp_path / "media"))
    with pytest.raises(UploadTimeout) as excinfo:
        store(FIRST, "tax.pdf", storage=disk)
    assert (excinfo.value.status, excinfo.value.code, excinfo.value.message) == (
        500,
        "UPLOAD_TIMEOUT",
        "Upload timeout",
    )
    assert stored_files(disk) == []  # neither the target nor the staging file


def test_a_failure_after_an_object_landed_deletes_it(store):
    objects = FailingObjectStore()
    with pytest.raises(UploadStorageError) as excinfo:
        store(FIRST, "tax.pdf", storage=objects)
    assert (excinfo.value.status, excinfo.value.code) == (500, "STORAGE_ERROR")
    assert not objects.exists("vendors/7/kyc/tax.pdf")
    assert objects.listdir("vendors/7/kyc/") == ([], [])


def test_a_replace_that_fails_keeps_the_old_file(store, local_storage, tmp_path):
    store(FIRST, "tax.pdf")
    disk = StallingDisk(location=local_storage.location)
    with pytest.raises(UploadTimeout):
        store(SECOND, "tax.pdf", storage=disk, if_exists=IfExists.REPLACE)
    assert read(local_storage, "vendors/7/kyc/tax.pdf") == FIRST
    assert stored_files(local_storage) == ["vendors/7/kyc/tax.pdf"]


class SlowDisk(FileSystemStorage):
    def _save(self, name, content):
        time.sleep(0.3)
        return super()._save(name, content)


def test_the_upload_deadline_cancels_a_slow_write_and_leaves_nothing(store, tmp_path):
    disk = SlowDisk(location=str(tmp_path / "media"))
    with pytest.raises(UploadTimeout) as excinfo:
        store(jpeg(), "id.jpg", storage=disk, timeout=0.1)
    assert excinfo.value.details == {"file": ["The upload did not finish within 0.1 seconds"]}
    assert stored_files(disk) == []


def test_other_storages_get_the_bytes_and_the_same_refusal_of_existing_keys(store):
    objects = InMemoryStorage()
    stored = store(FIRST, "tax.pdf", storage=objects)
    assert read(objects, stored.name) == FIRST
    with pytest.raises(FileAlreadyStored):
        store(SECOND, "tax.pdf", storage=objects)
    assert read(objects, store(SECOND, "tax.pdf", storage=objects, if_exists=IfExists.REPLACE).name) == SECOND
