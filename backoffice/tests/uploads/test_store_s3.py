"""The S3 path end to end against moto's server over HTTP (backoffice.tests.s3), faults injected on the wire."""

import hashlib
import urllib.request

import pytest
from botocore.config import Config
from botocore.exceptions import ReadTimeoutError
from django.core.files.storage import default_storage
from storages.backends.s3 import S3Storage

from backoffice import files
from backoffice.tests.s3 import BUCKET
from backoffice.uploads import FileAlreadyStored, IfExists, StorageUnavailable

from .corpus import gps_exif, handmade_pdf, jpeg

pytestmark = pytest.mark.django_db


def big_pdf(megabytes: int) -> bytes:
    data = bytes(range(256)) * (megabytes * 4096)
    return handmade_pdf(objects=(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(data), data),))


def test_upload_list_presigned_download_and_delete_on_s3(store, s3_storage):
    content = big_pdf(12)  # past boto3's 8 MB threshold: a multipart upload
    stored = store(content, "Bank Statement.pdf", storage=default_storage)
    assert stored.name == "vendors/7/kyc/Bank_Statement.pdf"
    assert default_storage.exists(stored.name)
    assert default_storage.listdir("vendors/7/kyc/") == ([], ["Bank_Statement.pdf"])
    head = s3_storage.head_object(Bucket=BUCKET, Key=stored.name)
    assert head["ContentType"] == "application/pdf" and head["ContentLength"] == len(content)

    url = files.signed_file_url(stored.name)
    assert "X-Amz-Signature=" in url and "X-Amz-Expires=" in url
    with urllib.request.urlopen(url) as response:
        downloaded = response.read()
    assert downloaded == content and hashlib.sha256(downloaded).hexdigest() == stored.sha256

    default_storage.delete(stored.name)
    assert not default_storage.exists(stored.name)


def test_an_image_on_s3_is_the_rebuilt_one(store, s3_storage):
    stored = store(jpeg(exif=gps_exif()), "director-id.jpg", storage=default_storage)
    body = s3_storage.get_object(Bucket=BUCKET, Key=stored.name)["Body"].read()
    assert stored.sanitised and b"SecretPhone" not in body and hashlib.sha256(body).hexdigest() == stored.sha256


def test_an_existing_key_on_s3_is_refused_unless_replaced(store, s3_storage):
    first, second = handmade_pdf(), handmade_pdf(catalog_extra=b"/Lang (en)")
    store(first, "tax.pdf", storage=default_storage)
    with pytest.raises(FileAlreadyStored):
        store(second, "tax.pdf", storage=default_storage)
    assert s3_storage.get_object(Bucket=BUCKET, Key="vendors/7/kyc/tax.pdf")["Body"].read() == first
    stored = store(second, "tax.pdf", storage=default_storage, if_exists=IfExists.REPLACE)
    assert stored.name == "vendors/7/kyc/tax.pdf"
    assert s3_storage.get_object(Bucket=BUCKET, Key=stored.name)["Body"].read() == second
    keys = [o["Key"] for o in s3_storage.list_objects_v2(Bucket=BUCKET)["Contents"]]
    assert keys == ["vendors/7/kyc/tax.pdf"]


def test_an_s3_read_timeout_mid_upload_is_503_and_leaves_no_object_or_open_multipart_upload(store, s3_storage):
    storage = S3Storage(client_config=Config(retries={"max_attempts": 1, "mode": "standard"}))
    parts_sent = []

    def time_out_after_the_first_part(request, **kwargs):
        parts_sent.append(request.url)
        if len(parts_sent) > 1:
            raise ReadTimeoutError(endpoint_url=request.url)

    storage.connection.meta.client.meta.events.register("before-send.s3.UploadPart", time_out_after_the_first_part)
    with pytest.raises(StorageUnavailable) as excinfo:
        store(big_pdf(20), "statement.pdf", storage=storage)
    # the storage stopped answering (botocore gave up): an outage, not this upload's own deadline
    assert (excinfo.value.status, excinfo.value.code) == (503, "SERVICE_UNAVAILABLE")
    assert len(parts_sent) >= 2  # the fault struck mid-upload, after a part had gone through
    assert "Contents" not in s3_storage.list_objects_v2(Bucket=BUCKET)
    assert "Uploads" not in s3_storage.list_multipart_uploads(Bucket=BUCKET)
