"""Middleware for everything under /api/: rate limits and errors that escape DRF."""

import logging

from django.http import JsonResponse

from backoffice import ratelimit
from backoffice.api.envelope import error_body
from backoffice.request_context import client_ip, reset_current_ip, set_current_ip

logger = logging.getLogger("backoffice.api")


def _is_api(request) -> bool:
    return request.path.startswith(ratelimit.API_PREFIX)


class ApiErrorMiddleware:
    """Any exception under /api/ that DRF did not render becomes a 500 envelope, never HTML."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        token = set_current_ip(client_ip(request))
        try:
            return self.get_response(request)
        finally:
            reset_current_ip(token)

    def process_exception(self, request, exception):
        if not _is_api(request):
            return None
        logger.exception("Unhandled error on %s %s", request.method, request.path)
        return JsonResponse(error_body(500, "Internal server error", "INTERNAL_ERROR"), status=500)


class RateLimitMiddleware:
    """Counts every /api/ request and puts X-RateLimit-* on every /api/ response."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not _is_api(request):
            return self.get_response(request)
        usage = ratelimit.hit(request)
        if usage is not None and usage.limited:
            response = JsonResponse(error_body(429, "Too many requests, slow down", "RATE_LIMITED"), status=429)
            response["Retry-After"] = str(usage.retry_after)
        else:
            response = self.get_response(request)
        if usage is not None:
            response["X-RateLimit-Limit"] = str(usage.limit)
            response["X-RateLimit-Remaining"] = str(usage.remaining)
            response["X-RateLimit-Reset"] = str(usage.reset)
        return response
