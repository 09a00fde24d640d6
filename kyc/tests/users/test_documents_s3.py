"""KYC documents on S3 (django-storages against moto's S3 server over HTTP): listed as presigned links
that really download, and removed from the bucket when the user is purged."""

import urllib.request
from urllib.parse import parse_qs, urlsplit

import pytest

from backoffice.tests.s3 import BUCKET
from kyc.tests.factories import KycDocumentFactory, PlatformUserFactory
from kyc.tests.helpers import user_url

pytestmark = pytest.mark.django_db


def keys(client):
    return [o["Key"] for o in client.list_objects_v2(Bucket=BUCKET).get("Contents", [])]


def test_documents_live_in_the_bucket_and_their_links_are_presigned(admin_client_api, s3_storage):
    user = PlatformUserFactory()
    doc = KycDocumentFactory(user=user, type="SELFIE")
    assert keys(s3_storage) == [doc.file.name]

    data = admin_client_api.get(user_url(user, "documents")).json()["data"]
    url = data[0]["url"]
    query = parse_qs(urlsplit(url).query)
    assert "X-Amz-Signature" in query and query["X-Amz-Expires"] == ["900"]
    with urllib.request.urlopen(url) as response:  # the presigned link works without any other credential
        assert response.read() == s3_storage.get_object(Bucket=BUCKET, Key=doc.file.name)["Body"].read()

    unsigned = url.split("?")[0]
    with pytest.raises(urllib.error.HTTPError):
        urllib.request.urlopen(unsigned)


def test_purge_removes_the_objects_after_the_commit(admin_client_api, s3_storage, django_capture_on_commit_callbacks):
    user = PlatformUserFactory()
    KycDocumentFactory(user=user, type="ID_FRONT")
    KycDocumentFactory(user=user, type="SELFIE")
    assert len(keys(s3_storage)) == 2
    with django_capture_on_commit_callbacks(execute=True):
        r = admin_client_api.delete(user_url(user, "purge"))
    assert r.status_code == 200 and r.json()["data"]["deleted"]["documents"] == 2
    assert keys(s3_storage) == []


def test_health_checks_the_bucket(api, s3_storage):
    assert api.get("/api/v1/health").json()["data"]["storage"] == "ok"
