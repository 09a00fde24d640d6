"""A real S3 API for storage tests: moto's server mode over HTTP on a loopback port (loaded by the root conftest)."""

import socket

import pytest

BUCKET = "vikela-test"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def s3_server():
    from moto.server import ThreadedMotoServer

    port = _free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    yield f"http://127.0.0.1:{port}"
    server.stop()


@pytest.fixture
def s3_storage(s3_server, settings, monkeypatch):
    """Django's default storage on S3 (django-storages) against the moto server, with a fresh bucket."""
    import boto3

    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    client = boto3.client("s3", endpoint_url=s3_server, region_name="us-east-1")
    client.create_bucket(Bucket=BUCKET)
    settings.AWS_STORAGE_BUCKET_NAME = BUCKET
    settings.AWS_S3_ENDPOINT_URL = s3_server
    settings.AWS_S3_REGION_NAME = "us-east-1"
    settings.STORAGES = {**settings.STORAGES, "default": {"BACKEND": "storages.backends.s3.S3Storage"}}
    yield client
    for obj in client.list_objects_v2(Bucket=BUCKET).get("Contents", []):
        client.delete_object(Bucket=BUCKET, Key=obj["Key"])
    client.delete_bucket(Bucket=BUCKET)


@pytest.fixture
def frozen_s3(settings, monkeypatch):
    """Django's default storage on an S3 endpoint that accepts connections and never answers (a frozen or
    overloaded S3: the kernel completes the TCP handshake for the listening socket, nothing reads or replies).
    The S3 client keeps the configuration production runs with (``AWS_S3_CLIENT_CONFIG``)."""
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(128)
    endpoint = f"http://127.0.0.1:{listener.getsockname()[1]}"
    settings.AWS_STORAGE_BUCKET_NAME = BUCKET
    settings.AWS_S3_ENDPOINT_URL = endpoint
    settings.AWS_S3_REGION_NAME = "us-east-1"
    settings.STORAGES = {**settings.STORAGES, "default": {"BACKEND": "storages.backends.s3.S3Storage"}}
    yield endpoint
    listener.close()
