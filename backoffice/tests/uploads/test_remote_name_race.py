"""Two uploads of one name at once on S3 (moto's server): neither overwrites the other.

The race is forced, not timed: the first writer stops inside the storage's write (after it has chosen its
name, before its PUT) until the second one has finished.
"""

import hashlib
import threading

import pytest
from django.core.cache import caches
from storages.backends.s3 import S3Storage

from backoffice.tests.s3 import BUCKET
from backoffice.uploads import FileAlreadyStored, IfExists, StorageUnavailable, UploadStorageError

from .corpus import handmade_pdf

pytestmark = pytest.mark.django_db

NAME = "vendors/7/kyc/tax.pdf"
FIRST, SECOND = handmade_pdf(), handmade_pdf(catalog_extra=b"/Lang (en)")
WAIT_SECONDS = 20


class FirstWriterWaits(S3Storage):
    """S3 whose first PUT waits for ``proceed``; ``entered`` says it got there. Every later PUT goes through."""

    def __init__(self, **settings):
        super().__init__(**settings)
        self.entered, self.proceed = threading.Event(), threading.Event()
        self._waited = threading.Lock()

    def _save(self, name, content):
        if self._waited.acquire(blocking=False):
            self.entered.set()
            assert self.proceed.wait(WAIT_SECONDS), "the test never let the first writer go on"
        return super()._save(name, content)


class Background(threading.Thread):
    """Runs one upload; ``result`` is what it stored, ``error`` what it raised."""

    def __init__(self, upload):
        super().__init__(daemon=True)
        self.upload, self.result, self.error = upload, None, None

    def run(self):
        try:
            self.result = self.upload()
        except BaseException as exc:
            self.error = exc


def body(client, key: str) -> bytes:
    return client.get_object(Bucket=BUCKET, Key=key)["Body"].read()


def keys(client) -> list[str]:
    return sorted(o["Key"] for o in client.list_objects_v2(Bucket=BUCKET).get("Contents", []))


def race(store, second_upload):
    """Start the first upload of FIRST, stop it inside its write, run ``second_upload``, then let the first end."""
    storage = FirstWriterWaits()
    first = Background(lambda: store(FIRST, "tax.pdf", storage=storage, if_exists=IfExists.RENAME))
    first.start()
    try:
        assert storage.entered.wait(WAIT_SECONDS), "the first upload never reached its write"
        return first, second_upload(storage)
    finally:
        storage.proceed.set()
        first.join(WAIT_SECONDS)


def test_two_concurrent_renames_of_one_name_keep_two_objects_each_with_its_own_bytes(store, s3_storage):
    first, second = race(store, lambda storage: store(SECOND, "tax.pdf", storage=storage, if_exists=IfExists.RENAME))
    assert first.error is None
    assert first.result.name == NAME  # the claim's holder keeps the plain name
    assert second.name != NAME and second.name.startswith("vendors/7/kyc/tax_") and second.name.endswith(".pdf")
    assert keys(s3_storage) == sorted([NAME, second.name])
    for stored, content in ((first.result, FIRST), (second, SECOND)):
        assert body(s3_storage, stored.name) == content
        assert hashlib.sha256(content).hexdigest() == stored.sha256 and stored.size == len(content)


def test_a_concurrent_refuse_of_a_name_being_written_is_a_conflict_and_overwrites_nothing(store, s3_storage):
    def second_upload(storage):
        with pytest.raises(FileAlreadyStored):
            store(SECOND, "tax.pdf", storage=storage, if_exists=IfExists.REFUSE)

    first, _ = race(store, second_upload)
    assert first.error is None and first.result.name == NAME
    assert keys(s3_storage) == [NAME] and body(s3_storage, NAME) == FIRST


class FailsOnce(S3Storage):
    def __init__(self, **settings):
        super().__init__(**settings)
        self.failed = False

    def _save(self, name, content):
        if not self.failed:
            self.failed = True
            raise ConnectionResetError("connection reset mid-upload")
        return super()._save(name, content)


def test_the_claim_ends_with_the_write_whether_it_succeeded_or_failed(store, s3_storage):
    storage = S3Storage()
    assert store(FIRST, "tax.pdf", storage=storage, if_exists=IfExists.RENAME).name == NAME
    # a later upload of the taken name: RENAME gets a suffix because the object exists, as before
    renamed = store(SECOND, "tax.pdf", storage=storage, if_exists=IfExists.RENAME).name
    assert renamed != NAME and body(s3_storage, renamed) == SECOND
    # once the object is gone, the plain name is free again: no claim was left behind
    storage.delete(NAME)
    assert store(SECOND, "tax.pdf", storage=storage, if_exists=IfExists.REFUSE).name == NAME
    storage.delete(NAME)
    failing = FailsOnce()
    with pytest.raises(UploadStorageError):
        store(FIRST, "tax.pdf", storage=failing, if_exists=IfExists.REFUSE)
    assert store(FIRST, "tax.pdf", storage=failing, if_exists=IfExists.REFUSE).name == NAME


def cache_down(*args, **kwargs):
    raise ConnectionError("the cache is down")


def test_without_the_cache_a_remote_write_never_takes_a_name_it_could_not_claim(store, s3_storage, monkeypatch):
    for operation in ("add", "get", "delete"):
        monkeypatch.setattr(caches["default"], operation, cache_down)
    storage = S3Storage()
    # RENAME: a suffixed name even though the plain one is free (another upload might be writing it)
    renamed = store(FIRST, "tax.pdf", storage=storage, if_exists=IfExists.RENAME).name
    assert renamed != NAME and keys(s3_storage) == [renamed]
    # REFUSE: a free name may be mid-write elsewhere, so 503 (retry later), not a write that could overwrite
    with pytest.raises(StorageUnavailable):
        store(SECOND, "tax.pdf", storage=storage, if_exists=IfExists.REFUSE)
    assert keys(s3_storage) == [renamed]
    # ... and a name that is taken is the usual 409
    s3_storage.put_object(Bucket=BUCKET, Key=NAME, Body=FIRST)
    with pytest.raises(FileAlreadyStored):
        store(SECOND, "tax.pdf", storage=storage, if_exists=IfExists.REFUSE)
