"""Middleware for everything under /api/: errors, caching headers, rate limits and hostile input.

In ``settings.MIDDLEWARE`` order:

* ``ApiErrorMiddleware`` (first, so it wraps every other layer): an exception no view rendered and any
  non-JSON error page (Django's own 400/404/500, a CSRF refusal, DEBUG's technical pages) leave
  ``/api/`` as the envelope; every ``/api/`` response carries ``Cache-Control: no-store`` (they carry
  personal data; no proxy or browser may keep them).
* ``RateLimitMiddleware``: counts the request against its group (``backoffice.http.ratelimit``).
* ``UnauthenticatedBodyMiddleware`` (any path): a body over ``UNAUTHENTICATED_BODY_MAX_BYTES`` is read
  only for an authenticated request; otherwise 401 (or 413 where no credentials are taken), unread.
* ``ApiInputMiddleware``: refuses, before any view runs, what no endpoint may accept: NUL or control
  characters in the path, NUL in a query parameter, too many parameters, a body of a media type the
  view cannot parse (415), a body over the size limit (413) and JSON that ``strictjson`` refuses. An
  endpoint that never reads its body refuses a hostile one all the same.
* ``AdminSecurityHeadersMiddleware``: the admin site's Content-Security-Policy.
"""

import re
import time

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.http import UnreadablePostError
from rest_framework import exceptions
from rest_framework.parsers import JSONParser
from rest_framework.request import Request
from rest_framework.utils.mediatypes import media_type_matches
from rest_framework.views import APIView

from backoffice import strictjson
from backoffice.api.envelope import is_api
from backoffice.api.exceptions import Answer, answer_for, json_error, status_answer
from backoffice.api.parsers import DECODED_JSON, body_limit, declared_length, form_values, too_large
from backoffice.errors import DomainError, LengthRequired, PayloadTooLarge, UnsupportedMediaType, ValidationFailed
from backoffice.http import ratelimit
from backoffice.ops.request_context import client_ip, reset_current_ip, set_current_ip

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


class ApiErrorMiddleware:
    """No HTML and no stack trace ever leaves /api/; nothing under /api/ is cached."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        token = set_current_ip(client_ip(request))
        try:
            response = self.get_response(request)
        finally:
            reset_current_ip(token)
        if not is_api(request):
            return response
        if response.status_code >= 400 and not response.get("Content-Type", "").startswith("application/json"):
            replacement = json_error(status_answer(response.status_code))
            for header in ("Allow", "Retry-After", "WWW-Authenticate"):
                if header in response:
                    replacement[header] = response[header]
            response = replacement
        if "no-store" not in response.get("Cache-Control", ""):
            response["Cache-Control"] = "no-store"
        return response

    def process_exception(self, request, exception):
        if not is_api(request):
            return None
        return json_error(answer_for(exception))


class ApiOnlyMiddleware:
    """Base of middleware that acts under /api/ only: subclasses write ``api_call``."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not is_api(request):
            return self.get_response(request)
        return self.api_call(request)

    def api_call(self, request):
        raise NotImplementedError


class RateLimitMiddleware(ApiOnlyMiddleware):
    """Counts every /api/ request and puts X-RateLimit-* on every /api/ response."""

    def api_call(self, request):
        try:
            usage = ratelimit.hit(request)
        except DomainError as exc:  # the counters are down and the policy is to fail closed
            return json_error(answer_for(exc))
        if usage is not None and usage.limited:
            response = json_error(Answer(429, "Too many requests, slow down", "RATE_LIMITED"))
            response["Retry-After"] = str(usage.retry_after)
        else:
            response = self.get_response(request)
        if usage is not None:
            response["X-RateLimit-Limit"] = str(usage.limit)
            response["X-RateLimit-Remaining"] = str(usage.remaining)
            response["X-RateLimit-Reset"] = str(usage.reset)
        return response


class UnauthenticatedBodyMiddleware:
    """A request body over ``UNAUTHENTICATED_BODY_MAX_BYTES`` is read only once the request is authenticated.

    Reading a body holds a server thread for as long as the client takes to send it (each read has a
    deadline, ``backoffice.http.serving``, but the thread is held until then): fifty anonymous clients
    announcing large bodies and trickling them would hold every thread. So before any layer reads the
    body (ApiInputMiddleware's JSON check, the CSRF check of a form, the view), a request announcing
    more is authenticated as its view will authenticate it: an API view's own authentication classes,
    the session elsewhere. Unauthenticated, it is answered at once with its body unread: 401 when the
    view takes credentials, 413 when it takes none (no public endpoint takes a large body). The
    bound is at most what the server gathers before handing a request to a thread, so an anonymous
    body is only ever read by the event loop.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        if declared_length(request.META) <= settings.UNAUTHENTICATED_BODY_MAX_BYTES:
            return None
        try:
            if authenticated_before_the_body(request, view_func):
                return None
            raise PayloadTooLarge(
                f"Request body is too large (more than {settings.UNAUTHENTICATED_BODY_MAX_BYTES} bytes "
                "without authentication)"
            )
        except (DomainError, exceptions.APIException) as exc:
            return json_error(answer_for(exc))


def authenticated_before_the_body(request, view_func) -> bool:
    """Whether ``request`` is authenticated as ``view_func`` will check it; raises 401 for bad or missing credentials.

    False for a view that takes no credentials at all (the caller answers 413).
    """
    view_class = getattr(view_func, "cls", None)
    if view_class is None or not issubclass(view_class, APIView):
        user = getattr(request, "user", None)  # a Django view (the admin site): its session
        return bool(user is not None and user.is_authenticated)
    authenticators = (getattr(view_func, "initkwargs", None) or {}).get(
        "authentication_classes", view_class.authentication_classes
    )
    api_request = Request(request, authenticators=[authenticator() for authenticator in authenticators])
    if not api_request.authenticators:
        return False
    if api_request.user is None:  # raises AuthenticationFailed for a bad token
        raise exceptions.NotAuthenticated()
    return True


def check_body_length_declared(request) -> None:
    """A body sent chunked (no Content-Length) is refused 411, unread.

    Django reads a body by its Content-Length: without one it sees none, and a chunked request was answered
    as if every field were missing (400 "This field is required"). The limits on bodies (the unauthenticated
    bound, the server's read deadlines) are set from the declared length too, so the client is told to
    declare it rather than have the body read without them.
    """
    if "chunked" in request.META.get("HTTP_TRANSFER_ENCODING", "").lower():
        raise LengthRequired()


def check_path_and_query(request) -> None:
    """The path may hold no control character, the query string no NUL, and only so many parameters."""
    if _CONTROL.search(request.path_info):
        raise ValidationFailed(
            "The path contains NUL or control characters", details={"path": ["Must not contain control characters."]}
        )
    _check_fields(lambda: request.GET, plural="query parameters", singular="query parameter", name="query")


def _check_fields(read, *, plural: str, singular: str, name: str) -> None:
    """Parsed fields (query or form) within the count limit (Django raises past it), none holding a NUL."""
    try:
        fields = form_values(read())
    except TooManyFieldsSent:
        limit = settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
        raise ValidationFailed(f"Too many {plural}", details={name: [f"At most {limit} {plural}."]}) from None
    strictjson.refuse_bad_text(fields, message=f"A {singular} contains a NUL character")


def check_body(request, parser_classes) -> None:
    """A body must be of a media type the view parses, within the size limit; JSON is decoded here, strictly."""
    length = declared_length(request.META)
    if not length:
        return
    media_type = request.META.get("CONTENT_TYPE", "")
    parser = next((p for p in parser_classes if media_type_matches(p.media_type, media_type)), None)
    if parser is None:
        raise UnsupportedMediaType(f'Unsupported media type "{media_type}" in request.')
    is_json = issubclass(parser, JSONParser)
    is_form = media_type_matches("application/x-www-form-urlencoded", media_type)
    if not (is_json or is_form):
        return  # multipart and a view's own parsers stream the body and apply the view's caps themselves
    if length > body_limit():
        raise too_large(length)
    try:
        raw = request.body
    except RequestDataTooBig:
        raise too_large(length) from None
    if is_json:
        setattr(request, DECODED_JSON, strictjson.decode(raw))
    else:
        _check_fields(lambda: request.POST, plural="form fields", singular="form field", name="body")


class ApiInputMiddleware(ApiOnlyMiddleware):
    """What no /api/ endpoint accepts is refused here, before routing (path, query) or before the view (body)."""

    def api_call(self, request):
        try:
            check_path_and_query(request)
            check_body_length_declared(request)
        except DomainError as exc:
            return json_error(answer_for(exc))
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        if not is_api(request):
            return None
        view_class = getattr(view_func, "cls", None)
        # an @action(parser_classes=...) of a viewset overrides its class's parsers
        parser_classes = (getattr(view_func, "initkwargs", None) or {}).get(
            "parser_classes", getattr(view_class, "parser_classes", None)
        )
        if parser_classes is None:
            return None  # not a DRF view: it reads its request its own way
        try:
            check_body(request, parser_classes)
        except (DomainError, UnreadablePostError) as exc:  # unreadable: past its deadline (408)
            return json_error(answer_for(exc))
        return None


class AdminSecurityHeadersMiddleware:
    """The admin site's Content-Security-Policy (``ADMIN_CONTENT_SECURITY_POLICY``) on every page under /admin/."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if request.path.startswith("/admin/") and settings.ADMIN_CONTENT_SECURITY_POLICY:
            response.setdefault("Content-Security-Policy", settings.ADMIN_CONTENT_SECURITY_POLICY)
        return response


class SessionIdleMiddleware:
    """Moves a signed-in session's expiry on, so it ends ``SESSION_COOKIE_AGE`` after the last request.

    Saving the session on every request (``SESSION_SAVE_EVERY_REQUEST``) would write it once per image
    of a page, and parallel writes of one session row are needless load (and lock SQLite's test
    database); renewing at most once per ``SESSION_RENEW_SECONDS`` keeps the idle timeout to the minute.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        session = getattr(request, "session", None)
        if session is not None and session.session_key and not session.is_empty():
            now = int(time.time())
            if now - int(session.get("_renewed_at", 0)) >= settings.SESSION_RENEW_SECONDS:
                session["_renewed_at"] = now  # marks the session modified: SessionMiddleware saves it
        return response
