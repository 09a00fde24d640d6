"""Where a webhook may be sent, and sending it: the contract's URL rules, checked when an endpoint is saved and again
at every delivery, and the signed POST itself (Standard Webhooks).

A URL is ``https://``, or ``http://`` for a host named in ``WEBHOOK_ALLOWED_HOSTS``; its host must not be, or
resolve to, a loopback, private, link-local or reserved address unless it is named there. At delivery the host is
resolved once and the connection is made to the address that was checked (the ``Host`` header and TLS name stay the
URL's), so a name that resolves to a public address when checked and to a private one a moment later (DNS
rebinding) cannot steer the request. Redirects are never followed.
"""

import base64
import hashlib
import hmac
import ipaddress
import os
import secrets
import socket
import threading
from collections import OrderedDict
from dataclasses import dataclass
from urllib.parse import urlsplit

import urllib3
from django.conf import settings

SECRET_PREFIX = "whsec_"


class UnsafeTarget(Exception):
    """The URL may not be sent to (its scheme, its address); the message says why, in words."""


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str
    port: int
    path: str
    address: str  # the checked address the connection is made to


def new_secret() -> str:
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(32)).decode()


def sign(secret: str, message_id: str, timestamp: int, body: bytes) -> str:
    """``v1,`` and base64 of HMAC-SHA256 over ``id.timestamp.body``, keyed with the secret's decoded bytes."""
    key = base64.b64decode(secret.removeprefix(SECRET_PREFIX))
    mac = hmac.new(key, f"{message_id}.{timestamp}.".encode() + body, hashlib.sha256).digest()
    return "v1," + base64.b64encode(mac).decode()


def _allowed(host: str) -> bool:
    return host.lower() in settings.WEBHOOK_ALLOWED_HOSTS


def _public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


def _parts(url: str):
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise UnsafeTarget("The URL is not valid") from None
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise UnsafeTarget("The URL must be https:// with a host name")
    if parts.username or parts.password:
        raise UnsafeTarget("The URL must not carry a user name or password")
    host = parts.hostname.lower()
    if parts.scheme == "http" and not _allowed(host):
        raise UnsafeTarget("The URL must be https:// (http:// only for a host named in WEBHOOK_ALLOWED_HOSTS)")
    return parts, host, port or (443 if parts.scheme == "https" else 80)


def _addresses(host: str, port: int) -> list[str]:
    try:
        ipaddress.ip_address(host)
        return [host]
    except ValueError:
        pass
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(info[4][0] for info in infos))


def check_url(url: str) -> None:
    """For an endpoint being saved: refuse a URL the rules forbid. A host that does not resolve now is accepted
    (it is checked again at every delivery); one that resolves to a non-public address is refused."""
    _parts_, host, port = _parts(url)
    if _allowed(host):
        return
    try:
        addresses = _addresses(host, port)
    except (socket.gaierror, UnicodeError):
        return
    if not addresses or not all(_public(a) for a in addresses):
        raise UnsafeTarget(f"The URL's host {host} is, or resolves to, a private, loopback or reserved address")


def resolve(url: str) -> Target:
    """For a delivery: the address to connect to, checked now."""
    parts, host, port = _parts(url)
    try:
        addresses = _addresses(host, port)
    except (socket.gaierror, UnicodeError):
        raise UnsafeTarget(f"The host {host} does not resolve") from None
    if not _allowed(host):
        addresses = [a for a in addresses if _public(a)]
        if not addresses:
            raise UnsafeTarget(f"The host {host} resolves to a private, loopback or reserved address: not sent")
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return Target(scheme=parts.scheme, host=host, port=port, path=path, address=addresses[0])


# Connections are kept open per checked address (keep-alive), so a busy endpoint is not paid a TCP (and TLS)
# handshake per delivery. A pool is keyed by the address it connects to, so a host that resolves elsewhere gets
# a pool of its own and the old one is never reused for it; the least recently used pools are closed past the cap.
# Several endpoints may share an address (one platform, several paths), and a process sends from several threads at
# once (webhooks.SEND_THREADS): a pool keeps as many idle connections as could be busy together, so none is thrown
# away and opened again.
MAX_POOLS = 64
POOL_CONNECTIONS = 16
_pools: "OrderedDict[tuple, urllib3.HTTPConnectionPool]" = OrderedDict()
_pools_lock = threading.Lock()
_pools_pid = os.getpid()


def _pool(target: Target, timeout: float) -> urllib3.HTTPConnectionPool:
    global _pools_pid
    key = (target.scheme, target.address, target.port, target.host)
    with _pools_lock:
        if _pools_pid != os.getpid():  # a forked worker must not share its parent's sockets
            _pools.clear()
            _pools_pid = os.getpid()
        pool = _pools.get(key)
        if pool is not None:
            _pools.move_to_end(key)
            return pool
        options = dict(
            host=target.address,
            port=target.port,
            timeout=urllib3.Timeout(connect=timeout, read=timeout),
            retries=False,
            maxsize=POOL_CONNECTIONS,
        )
        if target.scheme == "https":
            pool = urllib3.HTTPSConnectionPool(
                **options, server_hostname=target.host, assert_hostname=target.host, cert_reqs="CERT_REQUIRED"
            )
        else:
            pool = urllib3.HTTPConnectionPool(**options)
        _pools[key] = pool
        while len(_pools) > MAX_POOLS:
            _pools.popitem(last=False)[1].close()
        return pool


def close_pools() -> None:
    with _pools_lock:
        while _pools:
            _pools.popitem()[1].close()


def post(target: Target, body: bytes, headers: dict[str, str], timeout: float) -> tuple[int, str]:
    """POST ``body`` to the checked address; (status code, the first characters of the answer). Raises
    urllib3's errors for no answer within ``timeout`` or a refused connection."""
    host_header = target.host if target.port in (80, 443) else f"{target.host}:{target.port}"
    response = _pool(target, timeout).urlopen(
        "POST",
        target.path,
        body=body,
        headers={**headers, "Host": host_header},
        redirect=False,
        retries=False,
        timeout=urllib3.Timeout(connect=timeout, read=timeout),
        preload_content=False,
        assert_same_host=False,
    )
    try:
        text = response.read(300, decode_content=True).decode("utf-8", "replace")
        if not response.closed:
            # a short rest is read so the connection can carry the next delivery; a longer one closes it
            response.read(16 * 1024, decode_content=False)
            if not response.closed:
                response.close()
        return response.status, text
    finally:
        response.release_conn()
