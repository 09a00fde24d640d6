"""Cookies, TLS and browser protections.

One switch, ``SECURE_HTTPS=true``, declares that the site is served over HTTPS (directly or behind a
TLS-terminating proxy): session and CSRF cookies become Secure, HSTS is sent and plain HTTP redirects
to HTTPS; ``manage.py check --deploy`` is clean with it alone. Without it (``make run`` on localhost)
everything works over plain HTTP.
"""

from backoffice.env import env_bool, env_int
from backoffice.settings.base import TRUSTED_PROXY_COUNT

SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

SECURE_HTTPS = env_bool("SECURE_HTTPS", False)
SECURE_SSL_REDIRECT = SECURE_HTTPS
SESSION_COOKIE_SECURE = SECURE_HTTPS
CSRF_COOKIE_SECURE = SECURE_HTTPS
SECURE_HSTS_SECONDS = 365 * 24 * 3600 if SECURE_HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE_HTTPS
SECURE_HSTS_PRELOAD = SECURE_HTTPS
# A load balancer probing health over plain HTTP gets an answer, not a redirect.
SECURE_REDIRECT_EXEMPT = [r"^api/v1/health$", r"^api/v1/health/ready$"]
if TRUSTED_PROXY_COUNT:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# The admin site's session ends after this many idle minutes. Requests move the deadline on
# (backoffice.http.middleware.SessionIdleMiddleware), at most once a minute: a page that loads many images
# writes the session once, not once per image.
ADMIN_SESSION_IDLE_MINUTES = env_int("ADMIN_SESSION_IDLE_MINUTES", 30, minimum=1, maximum=24 * 60)
SESSION_COOKIE_AGE = ADMIN_SESSION_IDLE_MINUTES * 60
SESSION_RENEW_SECONDS = 60

# Content-Security-Policy of the admin site (backoffice.http.middleware.AdminSecurityHeadersMiddleware).
# django-unfold's Alpine.js evaluates its directives with new Function(), hence 'unsafe-eval'; its
# templates carry inline style attributes and a few inline scripts, hence 'unsafe-inline'. What the
# policy still forbids is what matters: any script, style, font, frame or form target from elsewhere.
ADMIN_CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self' 'unsafe-inline' 'unsafe-eval'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "font-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
