"""Sign-in throttling shared by every login: the API's (staff, users, vendors) and the admin site's form.

Two guards, both counted in the cache (shared by every server process):

* **per address**: the API's /auth/ endpoints are limited to ``RATE_LIMIT_AUTH`` requests a period
  per address by the rate-limit middleware (the contract's ``auth`` group). The admin site's form
  counts only *failed* sign-ins per address (``record_address_failure``) and refuses an address that
  has ``RATE_LIMIT_AUTH`` of them in the period (``check_address``): a team signing in from one
  office address at 9 am is never throttled by its own successes, a password guesser is.
* **per account**: ``LOGIN_LOCKOUT_FAILURES`` failed sign-ins for one login name (e-mail or phone, of
  any kind) within ``LOGIN_LOCKOUT_MINUTES`` lock that name for ``LOGIN_LOCKOUT_MINUTES``, whatever
  address the attempts come from; the lock is written to the audit log. It is keyed by the name typed,
  not by the account found, so it behaves the same for names that do not exist and reveals nothing.
  A successful sign-in clears the count.

A cache outage follows ``RATELIMIT_FAIL_OPEN`` like every limiter (``backoffice.ops.cache_guard.guarded``):
by default sign-in goes on unthrottled (passwords are still checked), logged and counted.
"""

import hashlib

from django.conf import settings
from django.core.cache import cache
from django_ratelimit.core import get_usage

from backoffice import events
from backoffice.errors import DomainError
from backoffice.ops.cache_guard import guarded
from backoffice.ops.request_context import client_ip


class AccountLocked(DomainError):
    status = 429
    code = "ACCOUNT_LOCKED"

    def __init__(self):
        minutes = settings.LOGIN_LOCKOUT_MINUTES
        super().__init__(
            f"Too many failed sign-ins for this account; it is locked for {minutes} minutes. Try again later."
        )
        self.headers = {"Retry-After": str(minutes * 60)}


class TooManyAttempts(DomainError):
    status = 429
    code = "RATE_LIMITED"
    default_message = "Too many requests, slow down"


def _name_key(kind: str, login: str) -> str:
    digest = hashlib.sha256(f"{kind}:{(login or '').strip().lower()}".encode()).hexdigest()[:32]
    return f"login-guard:{digest}"


def check_account(*, kind: str, login: str) -> None:
    """Raise AccountLocked while ``login`` is locked."""
    if guarded(lambda: cache.get(_name_key(kind, login) + ":locked"), default=None):
        raise AccountLocked()


def record_failure(*, kind: str, login: str, principal_id=None, via: str) -> bool:
    """Count a failed sign-in for ``login``; lock it (and audit the lock) at the threshold. True when it locked."""
    key = _name_key(kind, login)
    window = settings.LOGIN_LOCKOUT_MINUTES * 60

    def count() -> int:
        cache.add(key + ":failures", 0, window)
        return cache.incr(key + ":failures")

    failures = guarded(count, default=0)
    if failures < settings.LOGIN_LOCKOUT_FAILURES:
        return False
    guarded(lambda: (cache.set(key + ":locked", 1, window), cache.delete(key + ":failures")), default=None)
    events.login_locked(
        kind=kind, login=login, principal_id=principal_id, failures=failures, minutes=window // 60, via=via
    )
    return True


def record_success(*, kind: str, login: str) -> None:
    guarded(lambda: cache.delete(_name_key(kind, login) + ":failures"), default=None)


def _address_failures(request, *, group: str, increment: bool):
    return guarded(
        lambda: get_usage(
            request,
            group=group,
            key=lambda _g, r: "ip:" + client_ip(r),
            rate=settings.RATE_LIMIT_AUTH,
            increment=increment,
        ),
        default=None,
    )


def check_address(request, *, group: str) -> None:
    """Raise TooManyAttempts while the request's address has ``RATE_LIMIT_AUTH`` failed sign-ins this period."""
    usage = _address_failures(request, group=group, increment=False)
    if usage is not None and (usage["should_limit"] or usage["count"] >= usage["limit"]):
        raise TooManyAttempts()


def record_address_failure(request, *, group: str) -> None:
    """Count one failed sign-in from the request's address (successes are never counted)."""
    _address_failures(request, group=group, increment=True)
