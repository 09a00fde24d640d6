"""Core: environment, secret key, hosts, installed apps, middleware, templates, i18n, logging."""

from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from backoffice.env import env_bool, env_choice, env_int, env_list, env_str
from backoffice.ops.logs import logging_config

BASE_DIR = Path(__file__).resolve().parent.parent.parent

DEBUG = env_bool("DEBUG", False)
ENVIRONMENT = env_choice("ENVIRONMENT", "development" if DEBUG else "production", {"development", "production", "test"})

_DEFAULT_SECRET = "insecure-development-key-change-me"
SECRET_KEY = env_str("SECRET_KEY", _DEFAULT_SECRET)
if ENVIRONMENT == "production" and (SECRET_KEY == _DEFAULT_SECRET or len(SECRET_KEY) < 32):
    raise ImproperlyConfigured(
        "SECRET_KEY must be set to a random value of at least 32 characters in production "
        "(set ENVIRONMENT=development or DEBUG=true for a local run)."
    )

# Earlier keys, newest first, comma-separated: what they signed or sealed still opens (sessions, reset links, the
# webhook secrets of backoffice.sealing) until `manage.py reseal_secrets` and time have moved everything on.
SECRET_KEY_FALLBACKS = env_list("SECRET_KEY_FALLBACKS", [])

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

# How many reverse proxies in front of us append to X-Forwarded-For. 0 means
# the client address is REMOTE_ADDR and the header is ignored, so a forged
# header can never buy a fresh rate-limit bucket.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0, minimum=0, maximum=10)

# The domain apps in the order they depend on each other (docs/architecture.md):
# a later app may import an earlier one, never the reverse. The demo seeders run in this order.
DOMAIN_APPS = ["backoffice", "vendors", "kyc", "compliance", "verification"]

INSTALLED_APPS = [
    "unfold",
    "unfold.contrib.filters",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "rest_framework",
    "rest_framework_simplejwt.token_blacklist",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_fsm",
    # staff's second factor at sign-in (backoffice.auth.mfa): authenticator-app codes and recovery codes
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    *DOMAIN_APPS,
    # compliance's sub-domains: apps of their own (templates, static files, commands, ready()), while their
    # models keep the one ``compliance`` app label and its migrations
    "compliance.casework",
    "compliance.aml",
    "compliance.peps",
    "compliance.sanctions",
    "compliance.sars",
    "compliance.reporting",
]

MIDDLEWARE = [
    # outermost: the request id exists before anything logs, and every response (errors too) carries it
    "backoffice.http.requestlog.RequestLogMiddleware",
    # GET and HEAD under /api/ may read from DATABASE_REPLICA_URL (a no-op without one)
    "backoffice.ops.dbrouter.ReplicaRoutingMiddleware",
    # next: it wraps every other layer, so nothing under /api/ leaves as HTML (backoffice.http.middleware)
    "backoffice.http.middleware.ApiErrorMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "backoffice.http.middleware.RateLimitMiddleware",
    # before anything reads a body: large ones only for authenticated requests (backoffice.http.middleware)
    "backoffice.http.middleware.UnauthenticatedBodyMiddleware",
    "backoffice.http.middleware.ApiInputMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "backoffice.http.middleware.SessionIdleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "backoffice.http.middleware.AdminSecurityHeadersMiddleware",
    # the viewer of an admin page, so a read-only field links only to records they may open (backoffice.admin.links)
    "backoffice.admin.links.ViewerMiddleware",
]

ROOT_URLCONF = "backoffice.urls"
WSGI_APPLICATION = "backoffice.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            # money is shown one way everywhere: {{ amount|money }} -> "SZL 1,334.06"
            "builtins": ["backoffice.templatetags.money"],
        },
    },
]

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# One JSON event per line (backoffice.ops.logs), with the request id, principal and route of the request (or task)
# it belongs to; "plain" is one readable line per event for a terminal.
LOG_LEVEL = env_choice("LOG_LEVEL", "INFO", {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"})
LOG_FORMAT = env_choice("LOG_FORMAT", "json", {"json", "plain"})
LOGGING = logging_config(fmt=LOG_FORMAT, level=LOG_LEVEL)
