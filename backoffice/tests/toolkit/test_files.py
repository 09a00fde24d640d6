import time

import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage

from backoffice import files

pytestmark = pytest.mark.django_db


@pytest.fixture
def stored(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path)
    return default_storage.save("kyc/private/id.png", ContentFile(b"\x89PNG-bytes"))


def test_a_signed_link_streams_the_file_without_a_bearer_header(api, stored):
    url = files.signed_file_url(stored)
    response = api.get(url)
    assert response.status_code == 200
    assert b"".join(response.streaming_content) == b"\x89PNG-bytes"
    assert response["Cache-Control"] == "private, no-store"


def test_a_tampered_token_is_404(api, stored):
    url = files.signed_file_url(stored)
    response = api.get(url[:-3] + "xyz")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "NOT_FOUND"


def test_an_expired_token_names_nothing(stored, monkeypatch):
    token = files.file_token(stored)
    assert files.file_name_from_token(token) == stored
    later = time.time() + files.FILE_URL_MAX_AGE + 5
    monkeypatch.setattr(time, "time", lambda: later)
    assert files.file_name_from_token(token) is None


def test_a_token_for_a_missing_file_is_404(api, settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path)
    assert api.get(files.signed_file_url("kyc/none.png")).status_code == 404


def test_media_files_are_not_served_by_a_public_path(api, stored):
    assert api.get(f"/media/{stored}").status_code == 404
