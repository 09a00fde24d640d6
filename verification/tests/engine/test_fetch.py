"""Fetching images by URL: only listed hosts, public addresses, at most three redirects, at most max_bytes."""

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from verification.engine.errors import ImageFetchFailed, ImageTooLarge, ImageUrlNotAllowed, NotAnImage
from verification.engine.fetch import fetch_image, host_rule, is_public_address

PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 100


class Handler(BaseHTTPRequestHandler):
    routes: dict = {}

    def do_GET(self):  # noqa: N802 (http.server's name)
        self.server.seen_hosts.append(self.headers.get("Host"))
        status, headers, body = self.routes.get(self.path, (404, {}, b"not found"))
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def server():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.seen_hosts = []
    port = httpd.server_address[1]
    base = f"http://127.0.0.1:{port}"
    Handler.routes = {
        "/card.png": (200, {"Content-Type": "image/png"}, PNG),
        "/hop1": (302, {"Location": "/hop2"}, b""),
        "/hop2": (301, {"Location": f"{base}/card.png"}, b""),
        "/away": (302, {"Location": "http://images.example.org/card.png"}, b""),
        "/loop": (302, {"Location": "/loop"}, b""),
        "/big.png": (200, {}, PNG + b"\0" * 5000),
        "/page.html": (200, {"Content-Type": "text/html"}, b"<html>hello</html>"),
        "/broken": (500, {}, b"oops"),
    }
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd, base, f"127.0.0.1:{port}"
    httpd.shutdown()
    httpd.server_close()


def test_an_image_on_a_listed_host_is_fetched_with_its_host_header(server):
    httpd, base, listed = server
    assert fetch_image(f"{base}/card.png", allowed_hosts=[listed]) == PNG
    assert httpd.seen_hosts[-1] == listed


def test_redirects_on_the_listed_host_are_followed(server):
    _, base, listed = server
    assert fetch_image(f"{base}/hop1", allowed_hosts=[listed]) == PNG


def test_a_redirect_to_an_unlisted_host_is_not_allowed(server):
    _, base, listed = server
    with pytest.raises(ImageUrlNotAllowed, match="images.example.org"):
        fetch_image(f"{base}/away", allowed_hosts=[listed])


def test_endless_redirects_fail(server):
    _, base, listed = server
    with pytest.raises(ImageFetchFailed, match="redirected more than 3 times"):
        fetch_image(f"{base}/loop", allowed_hosts=[listed])


def test_a_missing_image_and_a_server_error_fail(server):
    _, base, listed = server
    with pytest.raises(ImageFetchFailed, match="HTTP 404"):
        fetch_image(f"{base}/nothing.png", allowed_hosts=[listed])
    with pytest.raises(ImageFetchFailed, match="HTTP 500"):
        fetch_image(f"{base}/broken", allowed_hosts=[listed])


def test_a_body_over_the_limit_is_too_large(server):
    _, base, listed = server
    with pytest.raises(ImageTooLarge):
        fetch_image(f"{base}/big.png", allowed_hosts=[listed], max_bytes=1000)


def test_a_page_that_is_not_an_image_is_refused(server):
    _, base, listed = server
    with pytest.raises(NotAnImage):
        fetch_image(f"{base}/page.html", allowed_hosts=[listed])


def test_a_host_listed_with_another_port_is_not_allowed(server):
    _, base, _ = server
    with pytest.raises(ImageUrlNotAllowed):
        fetch_image(f"{base}/card.png", allowed_hosts=["127.0.0.1:1"])


def test_a_private_address_is_refused_unless_the_host_is_listed_exactly(server):
    _, base, _ = server
    with pytest.raises(ImageUrlNotAllowed, match="private or reserved address"):
        fetch_image(f"{base}/card.png", allowed_hosts=["*"])


@pytest.mark.parametrize(
    "url",
    [
        "http://user:secret@127.0.0.1/card.png",
        "http://user@127.0.0.1/card.png",
        "ftp://127.0.0.1/card.png",
        "file:///etc/passwd",
        "gopher://127.0.0.1/",
        "http:///card.png",
        "http://127.0.0.1:99999/card.png",
    ],
)
def test_urls_with_credentials_other_schemes_or_no_host_are_refused(url):
    with pytest.raises(ImageUrlNotAllowed):
        fetch_image(url, allowed_hosts=["127.0.0.1", "*"])


def test_an_unlisted_host_is_refused_before_any_lookup():
    with pytest.raises(ImageUrlNotAllowed, match="not in the allowed list"):
        fetch_image("https://metadata.google.internal/computeMetadata/v1/", allowed_hosts=["images.example.org"])


def test_a_closed_port_on_a_listed_host_fails_to_fetch():
    with pytest.raises(ImageFetchFailed):
        fetch_image("http://127.0.0.1:9/card.png", allowed_hosts=["127.0.0.1"], timeout=1)


def test_the_allowed_hosts_default_to_the_setting(server, settings):
    _, base, listed = server
    settings.VERIFICATION_ALLOWED_IMAGE_HOSTS = []
    with pytest.raises(ImageUrlNotAllowed):
        fetch_image(f"{base}/card.png")
    settings.VERIFICATION_ALLOWED_IMAGE_HOSTS = [listed]
    assert fetch_image(f"{base}/card.png") == PNG


def test_host_rules():
    assert host_rule("Images.Example.org", 443, ["images.example.org"]) == "exact"
    assert host_rule("images.example.org", 8443, ["images.example.org:8443"]) == "exact"
    assert host_rule("images.example.org", 443, ["images.example.org:8443"]) is None
    assert host_rule("cdn.example.org", 443, ["*.example.org"]) == "wildcard"
    assert host_rule("example.org", 443, ["*.example.org"]) is None
    assert host_rule("evilexample.org", 443, ["*.example.org"]) is None
    assert host_rule("anything.test", 80, ["*"]) == "wildcard"


@pytest.mark.parametrize(
    "address",
    ["127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "0.0.0.0", "224.0.0.1", "::1",
     "fe80::1", "fc00::1", "::ffff:127.0.0.1", "100.64.0.1", "240.0.0.1"],
)  # fmt: skip
def test_non_public_addresses(address):
    assert not is_public_address(address)


def test_public_addresses():
    assert is_public_address("8.8.8.8")
    assert is_public_address("2001:4860:4860::8888")
