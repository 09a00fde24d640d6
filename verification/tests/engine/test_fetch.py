"""Fetching images by URL: only listed hosts, public addresses, at most three redirects, at most max_bytes."""

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from verification.engine import fetch as fetch_module
from verification.engine.errors import ImageFetchFailed, ImageTooLarge, ImageUrlNotAllowed, NotAnImage
from verification.engine.fetch import fetch_image, host_rule, ip_literal, is_public_address

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
        "/gone": (404, {}, b"gone"),
        "/to-metadata": (302, {"Location": "http://169.254.169.254/latest/meta-data/"}, b""),
        "/to-private-name": (302, {"Location": "http://internal.example/card.png"}, b""),
        "/to-decimal-self": (302, {"Location": f"http://2130706433:{port}/card.png"}, b""),
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


# ------------------------------------------------------------------------------------------- SSRF, every notation


class _NoConnection:
    """Fails the test if the fetcher tries to connect anywhere."""

    def __init__(self, *args, **kwargs):
        raise AssertionError("the fetcher opened a connection for a URL it must refuse")


@pytest.fixture
def no_connection(monkeypatch):
    monkeypatch.setattr(fetch_module.urllib3, "HTTPConnectionPool", _NoConnection)
    monkeypatch.setattr(fetch_module.urllib3, "HTTPSConnectionPool", _NoConnection)


@pytest.mark.parametrize(
    "url",
    [
        "http://2130706433/card.png",  # decimal
        "http://0177.0.0.1/card.png",  # octal
        "http://0x7f.0.0.1/card.png",  # hex
        "http://0x7f000001/card.png",  # one hex number
        "http://017700000001/card.png",  # one octal number
        "http://127.1/card.png",  # short form
        "http://127.0.1/card.png",
        "http://127.0.0.1./card.png",  # trailing dot
        "http://[::1]/card.png",  # IPv6 loopback
        "http://[0:0:0:0:0:0:0:1]/card.png",
        "http://[::ffff:127.0.0.1]/card.png",  # IPv4-mapped IPv6
        "http://[::ffff:7f00:1]/card.png",
        "http://[::ffff:a9fe:a9fe]/latest/meta-data/",  # mapped metadata address
        "http://169.254.169.254/latest/meta-data/",  # link-local: cloud metadata
        "http://0xa9.0xfe.0xa9.0xfe/latest/meta-data/",
        "http://[fd00:ec2::254]/latest/meta-data/",  # AWS's IPv6 metadata address (unique local)
        "http://0.0.0.0/card.png",
        "http://0/card.png",
        "http://[::]/card.png",
        "http://10.0.0.5/card.png",
        "http://192.168.1.1/card.png",
        "http://172.16.0.1/card.png",
        "http://100.64.0.1/card.png",  # carrier-grade NAT
        "http://[fe80::1]/card.png",
        "https://127.0.0.1:8443/card.png",
    ],
)
def test_non_public_ip_literals_are_refused_in_every_notation(url, no_connection):
    with pytest.raises(ImageUrlNotAllowed, match="private or reserved address"):
        fetch_image(url, allowed_hosts=["*"])


@pytest.mark.parametrize(
    ("host", "address"),
    [
        ("2130706433", "127.0.0.1"),
        ("0177.0.0.1", "127.0.0.1"),
        ("0x7f.0.0.1", "127.0.0.1"),
        ("127.1", "127.0.0.1"),
        ("10.1", "10.0.0.1"),
        ("0", "0.0.0.0"),
        ("[::ffff:7f00:1]", "::ffff:7f00:1"),
        ("8.8.8.8", "8.8.8.8"),
        ("images.example.org", None),
        ("0x7g.0.0.1", None),
        ("256.0.0.1", None),
        ("1.2.3.4.5", None),
    ],
)
def test_ip_literals_are_read_as_inet_aton_reads_them(host, address):
    assert ip_literal(host) == address


def test_an_ip_literal_in_another_notation_does_not_match_an_exact_listing(no_connection):
    # 127.0.0.1 listed exactly lets an operator fetch from it; 2130706433 is not that listing
    with pytest.raises(ImageUrlNotAllowed):
        fetch_image("http://2130706433/card.png", allowed_hosts=["127.0.0.1"])


@pytest.mark.parametrize(
    "url",
    [
        "http://allowed.host@127.0.0.1/card.png",
        "http://allowed.host:443@127.0.0.1/card.png",
        "http://allowed.host%40@127.0.0.1/card.png",
        "http://@127.0.0.1/card.png",
    ],
)
def test_userinfo_tricks_are_refused(url, no_connection):
    with pytest.raises(ImageUrlNotAllowed):
        fetch_image(url, allowed_hosts=["allowed.host", "127.0.0.1"])


def _resolve_to(monkeypatch, mapping: dict[str, list[str]]):
    real = fetch_module.socket.getaddrinfo

    def fake(host, port, *args, **kwargs):
        if host in mapping:
            return [
                (fetch_module.socket.AF_INET, fetch_module.socket.SOCK_STREAM, 6, "", (a, port)) for a in mapping[host]
            ]
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(fetch_module.socket, "getaddrinfo", fake)


def test_a_name_resolving_to_a_private_address_is_refused_when_allowed_by_a_wildcard(monkeypatch, no_connection):
    _resolve_to(monkeypatch, {"internal.example": ["10.0.0.5"]})
    with pytest.raises(ImageUrlNotAllowed, match=r"10\.0\.0\.5"):
        fetch_image("http://internal.example/card.png", allowed_hosts=["*.example"])
    with pytest.raises(ImageUrlNotAllowed, match=r"10\.0\.0\.5"):
        fetch_image("http://internal.example/card.png", allowed_hosts=["*"])


def test_a_name_with_one_private_address_among_public_ones_is_refused(monkeypatch, no_connection):
    _resolve_to(monkeypatch, {"cdn.example": ["93.184.216.34", "127.0.0.1"]})
    with pytest.raises(ImageUrlNotAllowed, match=r"127\.0\.0\.1"):
        fetch_image("http://cdn.example/card.png", allowed_hosts=["*.example"])


def test_a_name_listed_exactly_may_resolve_to_a_private_address(server, monkeypatch):
    # an operator names an internal image server on purpose; the connection goes to the address checked
    httpd, base, listed = server
    port = int(listed.rsplit(":", 1)[1])
    _resolve_to(monkeypatch, {"internal.example": ["127.0.0.1"]})
    assert fetch_image(f"http://internal.example:{port}/card.png", allowed_hosts=["internal.example"]) == PNG
    assert httpd.seen_hosts[-1] == f"internal.example:{port}"


@pytest.mark.parametrize("path", ["/to-metadata", "/to-private-name", "/to-decimal-self"])
def test_a_redirect_to_a_private_address_is_refused(server, monkeypatch, path):
    _, base, listed = server
    _resolve_to(monkeypatch, {"internal.example": ["10.0.0.5"]})
    with pytest.raises(ImageUrlNotAllowed, match="private or reserved address"):
        fetch_image(f"{base}{path}", allowed_hosts=[listed, "*"])


def test_a_redirect_to_another_scheme_is_refused(server, monkeypatch):
    _, base, listed = server
    Handler.routes["/to-file"] = (302, {"Location": "file:///etc/passwd"}, b"")
    with pytest.raises(ImageUrlNotAllowed, match="http"):
        fetch_image(f"{base}/to-file", allowed_hosts=[listed, "*"])


# ------------------------------------------------------------------------------------------- retryable or not


def test_fetch_failures_say_whether_a_retry_can_help(server):
    _, base, listed = server
    with pytest.raises(ImageFetchFailed) as missing:
        fetch_image(f"{base}/gone", allowed_hosts=[listed])
    assert not missing.value.retryable
    with pytest.raises(ImageFetchFailed) as broken:
        fetch_image(f"{base}/broken", allowed_hosts=[listed])
    assert broken.value.retryable
    with pytest.raises(ImageFetchFailed) as refused:
        fetch_image("http://127.0.0.1:9/card.png", allowed_hosts=["127.0.0.1"], timeout=1)
    assert refused.value.retryable
    with pytest.raises(ImageUrlNotAllowed) as not_allowed:
        fetch_image("http://10.0.0.1/card.png", allowed_hosts=["*"])
    assert not not_allowed.value.retryable
