"""Fetching an image by URL without letting the URL reach what it should not (SSRF).

Rules, applied to the URL and again to every redirect:

* ``http`` or ``https`` only; no user or password in the URL.
* The host must be listed in ``allowed_hosts`` (case-insensitive): ``host`` (any port), ``host:port`` (that
  port only), ``*.example.com`` (its subdomains) or ``*`` (any host). Hosts come from
  ``VERIFICATION_ALLOWED_IMAGE_HOSTS`` when not given.
* The name is resolved once; if any address is private, loopback, link-local, multicast, reserved, unspecified
  or otherwise not global, the fetch is refused, unless the host is listed exactly (``host`` or ``host:port``,
  not by a wildcard): an operator may name an internal image server, and the tests a server on 127.0.0.1.
* The connection goes to the address that was checked (no second lookup that DNS rebinding could answer
  differently), with the original name in the ``Host`` header and, for https, in SNI and the certificate check.
* At most ``MAX_REDIRECTS`` redirects. The body is streamed and abandoned past ``max_bytes``; the whole fetch
  must finish within a few times ``timeout``. Proxies from the environment are never used.
"""

import ipaddress
import socket
import time
from collections.abc import Iterable
from urllib.parse import urljoin, urlsplit

import urllib3

from verification.engine.errors import ImageFetchFailed, ImageTooLarge, ImageUrlNotAllowed, NotAnImage
from verification.engine.images import MAX_IMAGE_BYTES, is_image_bytes

MAX_REDIRECTS = 3
CHUNK = 64 * 1024
# the whole fetch (every hop, the whole body) may take this many times the per-operation timeout
TOTAL_TIMEOUT_FACTOR = 3
_REDIRECTS = {301, 302, 303, 307, 308}
_DEFAULT_PORTS = {"http": 80, "https": 443}


def _allowed_hosts_from_settings() -> list[str]:
    from django.conf import settings

    return list(getattr(settings, "VERIFICATION_ALLOWED_IMAGE_HOSTS", []))


def _format_host(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def host_rule(host: str, port: int, allowed_hosts: Iterable[str]) -> str | None:
    """How ``host:port`` is allowed: ``"exact"``, ``"wildcard"`` or None (not allowed)."""
    host = host.lower().rstrip(".")
    with_port = _format_host(host, port)
    rule = None
    for entry in allowed_hosts:
        entry = entry.strip().lower().rstrip(".")
        if not entry:
            continue
        if entry in (host, with_port, f"[{host}]"):
            return "exact"
        if entry == "*" or (entry.startswith("*.") and host.endswith(entry[1:]) and host != entry[2:]):
            rule = "wildcard"
    return rule


def is_public_address(address: str) -> bool:
    """Whether an IP address is a public unicast address (not private, loopback, link-local, multicast, ...)."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not (
        ip.is_private or ip.is_loopback or ip.is_link_local or ip.is_multicast or ip.is_reserved or ip.is_unspecified
    )


def ip_literal(host: str) -> str | None:
    """The address an IP literal in any notation stands for, or None when ``host`` is a name.

    Besides the canonical forms, the notations ``inet_aton`` accepts (and so curl, browsers and many HTTP
    clients): one to four dot-separated parts, each decimal, octal (leading 0) or hex (0x), the last part filling
    the remaining bytes: ``2130706433``, ``0177.0.0.1``, ``0x7f.0.0.1``, ``127.1`` are all 127.0.0.1. They are
    checked here, without a lookup, so whether they are refused does not depend on the resolver.
    """
    host = host.strip("[]").rstrip(".")
    try:
        return str(ipaddress.ip_address(host.split("%", 1)[0]))
    except ValueError:
        pass
    parts = host.split(".")
    if not 1 <= len(parts) <= 4:
        return None
    numbers = []
    for part in parts:
        try:
            if part.lower().startswith("0x"):
                numbers.append(int(part[2:] or "0", 16))
            elif len(part) > 1 and part.startswith("0"):
                numbers.append(int(part, 8))
            elif part.isdigit():
                numbers.append(int(part))
            else:
                return None
        except ValueError:
            return None
    *head, last = numbers
    if any(n > 255 for n in head) or last >= 256 ** (4 - len(head)):
        return None
    value = 0
    for n in head:
        value = value * 256 + n
    value = value * 256 ** (4 - len(head)) + last
    return str(ipaddress.IPv4Address(value))


def _resolve(host: str, port: int, *, exact: bool) -> str:
    literal = ip_literal(host)
    if literal is not None:
        if not exact and not is_public_address(literal):
            raise ImageUrlNotAllowed(
                f"The image URL points to a private or reserved address ({literal}); that host is not allowed."
            )
        return literal
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise ImageFetchFailed(
            f"The image host {host} could not be resolved ({exc}).",
            retryable=getattr(exc, "errno", None) == socket.EAI_AGAIN,  # a resolver's "try again"
        ) from None
    addresses = list(dict.fromkeys(info[4][0] for info in infos))
    if not addresses:
        raise ImageFetchFailed(f"The image host {host} has no address.", retryable=False)
    if not exact:
        for address in addresses:
            if not is_public_address(address):
                raise ImageUrlNotAllowed(
                    f"The image URL points to a private or reserved address ({address}); that host is not allowed."
                )
    return addresses[0]


def _check_url(url: str, allowed_hosts: list[str]) -> tuple[str, str, int, str, str]:
    """(scheme, host, port, address to connect to, path with query) of an allowed URL."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise ImageUrlNotAllowed("The image URL is not a valid URL.") from None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS:
        raise ImageUrlNotAllowed("The image URL must start with http:// or https://.")
    if parts.username is not None or parts.password is not None:
        raise ImageUrlNotAllowed("The image URL must not contain a user name or password.")
    host = (parts.hostname or "").lower()
    if not host:
        raise ImageUrlNotAllowed("The image URL has no host.")
    port = port or _DEFAULT_PORTS[scheme]
    rule = host_rule(host, port, allowed_hosts)
    if rule is None:
        raise ImageUrlNotAllowed(f"Images may not be fetched from {host}: the host is not in the allowed list.")
    address = _resolve(host, port, exact=rule == "exact")
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return scheme, host, port, address, path


def _pool(scheme: str, host: str, port: int, address: str, timeout: float):
    options = {"timeout": urllib3.Timeout(connect=timeout, read=timeout), "retries": False, "maxsize": 1}
    if scheme == "https":
        # connect to the checked address; SNI and the certificate check still use the name
        return urllib3.HTTPSConnectionPool(
            address, port, server_hostname=host, assert_hostname=host, cert_reqs="CERT_REQUIRED", **options
        )
    return urllib3.HTTPConnectionPool(address, port, **options)


def fetch_image(
    url: str,
    *,
    allowed_hosts: Iterable[str] | None = None,
    max_bytes: int = MAX_IMAGE_BYTES,
    timeout: float = 5.0,
) -> bytes:
    """The bytes of the JPEG or PNG image at ``url``.

    Raises ImageUrlNotAllowed (scheme, host, address, credentials, a redirect elsewhere), ImageFetchFailed
    (unreachable, timeout, an HTTP error status, too many redirects), ImageTooLarge (over ``max_bytes``) and
    NotAnImage (anything but JPEG or PNG).
    """
    hosts = list(_allowed_hosts_from_settings() if allowed_hosts is None else allowed_hosts)
    deadline = time.monotonic() + timeout * TOTAL_TIMEOUT_FACTOR
    current = url
    for _hop in range(MAX_REDIRECTS + 1):
        scheme, host, port, address, path = _check_url(current, hosts)
        host_header = host if port == _DEFAULT_PORTS[scheme] else _format_host(host, port)
        pool = _pool(scheme, host, port, address, timeout)
        try:
            response = pool.urlopen(
                "GET",
                path,
                headers={"Host": host_header, "Accept": "image/jpeg, image/png", "User-Agent": "vikela-verification"},
                redirect=False,
                retries=False,
                preload_content=False,
            )
        except urllib3.exceptions.HTTPError as exc:
            pool.close()
            raise ImageFetchFailed(f"The image could not be fetched from {host}: {exc}") from None
        try:
            if response.status in _REDIRECTS and response.headers.get("Location"):
                current = urljoin(current, response.headers["Location"])
                continue
            if response.status >= 400:
                # a 4xx will answer the same next time; a 5xx may not
                raise ImageFetchFailed(
                    f"The image could not be fetched: {host} answered HTTP {response.status}.",
                    retryable=response.status >= 500 or response.status in (408, 429),
                )
            if response.status != 200:
                raise ImageFetchFailed(
                    f"The image could not be fetched: {host} answered HTTP {response.status}.", retryable=False
                )
            return _read_body(response, max_bytes=max_bytes, deadline=deadline, host=host)
        finally:
            response.release_conn()
            pool.close()
    raise ImageFetchFailed(f"The image URL redirected more than {MAX_REDIRECTS} times.", retryable=False)


def _read_body(response, *, max_bytes: int, deadline: float, host: str) -> bytes:
    declared = response.headers.get("Content-Length")
    if declared and declared.isdigit() and int(declared) > max_bytes:
        raise ImageTooLarge(_too_large(max_bytes))
    body = bytearray()
    try:
        for chunk in response.stream(CHUNK, decode_content=True):
            body += chunk
            if len(body) > max_bytes:
                raise ImageTooLarge(_too_large(max_bytes))
            if time.monotonic() > deadline:
                raise ImageFetchFailed(f"The image could not be fetched from {host}: it took too long.")
    except urllib3.exceptions.HTTPError as exc:
        raise ImageFetchFailed(f"The image could not be fetched from {host}: {exc}") from None
    data = bytes(body)
    if not is_image_bytes(data):
        raise NotAnImage("The URL does not point to a JPEG or PNG image.")
    return data


def _too_large(max_bytes: int) -> str:
    limit = f"{max_bytes // (1024 * 1024)} MB" if max_bytes >= 1024 * 1024 else f"{max_bytes} bytes"
    return f"The image is larger than {limit}."
