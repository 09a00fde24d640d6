"""POST /verification/test-face-comparison and /verification/test-ocr: images by URL, only from allowed sources."""

import http.server
import threading

import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage

from backoffice.choices import StaffRole
from backoffice.files import signed_file_url
from verification.tests.helpers import card, face, selfie

pytestmark = pytest.mark.django_db
FACES = "/api/v1/verification/test-face-comparison"
OCR = "/api/v1/verification/test-ocr"


@pytest.fixture
def officer(staff_client):
    return staff_client(StaffRole.COMPLIANCE_OFFICER)[0]


def stored(name: str, data: bytes) -> str:
    """A link of ours to a stored file, as this service hands them out."""
    saved = default_storage.save(f"tests/{name}", ContentFile(data))
    return "http://testserver" + signed_file_url(saved)


@pytest.fixture
def image_server():
    """A real HTTP server on 127.0.0.1 serving the project's face photos (and one thing that is not an image)."""
    pages = {"/obama.jpg": face("obama"), "/obama2.jpg": face("obama2"), "/biden.jpg": face("biden"), "/text": b"hello"}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = pages.get(self.path)
            if body is None:
                self.send_response(302 if self.path == "/away" else 404)
                if self.path == "/away":
                    self.send_header("Location", "http://example.com/obama.jpg")
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_the_same_person_from_our_own_storage_is_a_match(officer, media):
    body = {"sourceImage": stored("card.png", card()), "targetImage": stored("selfie.jpg", selfie())}
    response = officer.post(FACES, body, format="json")
    assert response.status_code == 200, response.json()
    data = response.json()["data"]
    assert data["isMatch"] is True and data["similarity"] >= 80 and data["decision"] == "approved"
    assert 0 <= data["confidence"] <= 100
    for side in ("source", "target"):
        assert data["faceDetails"][side]["face"]["box"]["width"] > 0
        assert data["faceDetails"][side]["passed"] is True


def test_different_people_from_an_allowed_host_do_not_match(officer, image_server, settings):
    settings.VERIFICATION_ALLOWED_IMAGE_HOSTS = [image_server]
    body = {"sourceImage": f"http://{image_server}/obama.jpg", "targetImage": f"http://{image_server}/biden.jpg"}
    data = officer.post(FACES, body, format="json").json()["data"]
    assert data["isMatch"] is False and data["similarity"] < 60 and data["decision"] == "rejected"


def test_the_threshold_of_the_request_decides_is_match(officer, image_server, settings):
    settings.VERIFICATION_ALLOWED_IMAGE_HOSTS = [image_server]
    body = {"sourceImage": f"http://{image_server}/obama.jpg", "targetImage": f"http://{image_server}/obama2.jpg"}
    low = officer.post(FACES, {**body, "similarityThreshold": 10}, format="json").json()["data"]
    high = officer.post(FACES, {**body, "similarityThreshold": 100}, format="json").json()["data"]
    assert low["isMatch"] is True and high["isMatch"] is False and low["similarity"] == high["similarity"]


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:9/obama.jpg",  # loopback, not listed
        "http://169.254.169.254/latest/meta-data/",  # cloud metadata
        "http://example.com/obama.jpg",  # a public host not listed
        "file:///etc/passwd",
        "ftp://example.com/a.jpg",
    ],
)
def test_a_url_outside_the_allowed_sources_is_refused(officer, url):
    response = officer.post(FACES, {"sourceImage": url, "targetImage": url}, format="json")
    assert response.status_code == 400 and response.json()["error"]["code"] == "IMAGE_URL_NOT_ALLOWED"


def test_a_redirect_to_a_host_not_listed_is_refused(officer, image_server, settings):
    settings.VERIFICATION_ALLOWED_IMAGE_HOSTS = [image_server]
    url = f"http://{image_server}/away"
    response = officer.post(FACES, {"sourceImage": url, "targetImage": url}, format="json")
    assert response.status_code == 400 and response.json()["error"]["code"] == "IMAGE_URL_NOT_ALLOWED"


def test_something_that_is_not_an_image_is_a_400(officer, image_server, settings):
    settings.VERIFICATION_ALLOWED_IMAGE_HOSTS = [image_server]
    url = f"http://{image_server}/text"
    response = officer.post(OCR, {"imageUrl": url}, format="json")
    assert response.status_code == 400 and response.json()["error"]["code"] == "VALIDATION_ERROR"


def test_an_image_without_a_face_is_a_400_that_says_which(officer, media):
    import io

    from PIL import Image

    blank = io.BytesIO()
    Image.new("RGB", (400, 300), (200, 200, 200)).save(blank, "PNG")
    body = {"sourceImage": stored("card.png", card()), "targetImage": stored("blank.png", blank.getvalue())}
    response = officer.post(FACES, body, format="json")
    assert response.status_code == 400 and "No face" in response.json()["message"]


@pytest.mark.parametrize("body", [{}, {"sourceImage": 5, "targetImage": "x"}, {"sourceImage": "x"}])
def test_missing_or_wrong_fields_are_400(officer, body):
    assert officer.post(FACES, body, format="json").status_code == 400


def test_ocr_reads_the_personal_fields_of_a_card(officer, media):
    response = officer.post(OCR, {"imageUrl": stored("card.png", card())}, format="json")
    assert response.status_code == 200, response.json()
    data = response.json()["data"]
    assert data["personalInfo"]["name"] == "Sipho Dlamini"
    assert data["personalInfo"]["idNumber"] == "9001015800085"
    assert data["personalInfo"]["dateOfBirth"] == "1990-01-01" and data["personalInfo"]["sex"] == "MALE"
    assert data["validation"]["isComplete"] is True and data["validation"]["missingFields"] == []
    assert {"firstName", "lastName", "idNumber", "dateOfBirth"} <= set(data["extractedFields"])
    assert 0 < data["confidence"] <= 100


def test_an_expired_link_of_ours_is_a_clear_400(officer, media):
    response = officer.post(OCR, {"imageUrl": "http://testserver/api/v1/files/forged-token"}, format="json")
    assert response.status_code == 400 and "expired" in response.json()["message"]


@pytest.mark.parametrize("role", [StaffRole.SUPPORT, StaffRole.FINANCE])
def test_only_roles_that_run_verifications_may_test(staff_client, role):
    client, _ = staff_client(role)
    assert client.post(OCR, {"imageUrl": "http://x/y.png"}, format="json").status_code == 403
