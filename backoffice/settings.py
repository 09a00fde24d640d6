"""Settings for the Vikela compliance back office.

Everything that differs between machines comes from the environment and is
parsed strictly (see ``backoffice.env``); nothing secret lives in this file.
"""

from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from backoffice.env import env_bool, env_choice, env_int, env_list, env_map, env_rate, env_str

BASE_DIR = Path(__file__).resolve().parent.parent

# ---------------------------------------------------------------- core

DEBUG = env_bool("DEBUG", False)
ENVIRONMENT = env_choice("ENVIRONMENT", "development" if DEBUG else "production", {"development", "production", "test"})

_DEFAULT_SECRET = "insecure-development-key-change-me"
SECRET_KEY = env_str("SECRET_KEY", _DEFAULT_SECRET)
if ENVIRONMENT == "production" and (SECRET_KEY == _DEFAULT_SECRET or len(SECRET_KEY) < 32):
    raise ImproperlyConfigured(
        "SECRET_KEY must be set to a random value of at least 32 characters in production "
        "(set ENVIRONMENT=development or DEBUG=true for a local run)."
    )

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

# How many reverse proxies in front of us append to X-Forwarded-For. 0 means
# the client address is REMOTE_ADDR and the header is ignored, so a forged
# header can never buy a fresh rate-limit bucket.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0, minimum=0, maximum=10)

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
    "django_fsm",
    "backoffice",
    "kyc",
    "vendors",
    "compliance",
    "verification",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "backoffice.middleware.ApiErrorMiddleware",
    "backoffice.middleware.RateLimitMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
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
        },
    },
]

# ---------------------------------------------------------------- database

DATABASE_URL = env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}")
# Persistent connections serve production; in tests the live server's request threads would
# keep theirs open past the test and block dropping the test database.
_conn_max_age = env_int("DB_CONN_MAX_AGE", 0 if ENVIRONMENT == "test" else 60, minimum=0)
try:
    _db = dj_database_url.parse(DATABASE_URL, conn_max_age=_conn_max_age)
except Exception as exc:  # dj_database_url raises several types for a bad URL
    raise ImproperlyConfigured(f"DATABASE_URL is not a valid database URL: {exc}") from None
if _db["ENGINE"] not in {"django.db.backends.sqlite3", "django.db.backends.postgresql"}:
    raise ImproperlyConfigured("DATABASE_URL must be a sqlite:// or postgres:// URL")
if _db["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets readers run beside a writer; IMMEDIATE takes the write lock at
    # BEGIN so two writers queue on the busy timeout instead of failing with
    # "database is locked" half-way through a transaction.
    _db["CONN_MAX_AGE"] = 0
    _db["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 30,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;",
    }
    _db.setdefault("TEST", {})["NAME"] = None
DATABASES = {"default": _db}
IS_POSTGRES = _db["ENGINE"] == "django.db.backends.postgresql"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# ---------------------------------------------------------------- cache

REDIS_URL = env_str("REDIS_URL")
if REDIS_URL:
    if not REDIS_URL.startswith(("redis://", "rediss://", "unix://")):
        raise ImproperlyConfigured("REDIS_URL must start with redis://, rediss:// or unix://")
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}
else:
    # Per-process: fine for one server process (make run uses one worker with
    # threads), wrong for several: each would count its own rate limits.
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "backoffice"}}

# ---------------------------------------------------------------- auth

AUTH_USER_MODEL = "backoffice.Staff"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "admin:login"
LOGIN_REDIRECT_URL = "admin:index"

ACCESS_TOKEN_MINUTES = env_int("ACCESS_TOKEN_MINUTES", 15, minimum=1)
REFRESH_TOKEN_DAYS = env_int("REFRESH_TOKEN_DAYS", 7, minimum=1)
SIMPLE_JWT = {
    "ACCESS_TOKEN_LIFETIME": timedelta(minutes=ACCESS_TOKEN_MINUTES),
    "REFRESH_TOKEN_LIFETIME": timedelta(days=REFRESH_TOKEN_DAYS),
    "ALGORITHM": "HS256",
    "SIGNING_KEY": SECRET_KEY,
    "ROTATE_REFRESH_TOKENS": True,
    "BLACKLIST_AFTER_ROTATION": True,
    "UPDATE_LAST_LOGIN": False,
    "USER_ID_CLAIM": "sub",
    "USER_ID_FIELD": "id",
}

OTP_BACKEND = env_choice("OTP_BACKEND", "console", {"console", "file", "locmem"})
OTP_FILE_PATH = env_str("OTP_FILE_PATH", str(BASE_DIR / "otp.txt"))
OTP_TTL_MINUTES = env_int("OTP_TTL_MINUTES", 10, minimum=1)
OTP_MAX_ATTEMPTS = env_int("OTP_MAX_ATTEMPTS", 5, minimum=1)

PHONE_DEFAULT_REGION = env_str("PHONE_DEFAULT_REGION", "SZ")

# ---------------------------------------------------------------- rate limits

RATELIMIT_ENABLE = env_bool("RATELIMIT_ENABLE", True)
RATELIMIT_USE_CACHE = "default"
RATE_LIMIT_STANDARD = env_rate("RATE_LIMIT_STANDARD", "100/m")
RATE_LIMIT_AUTH = env_rate("RATE_LIMIT_AUTH", "10/m")
RATE_LIMIT_BULK = env_rate("RATE_LIMIT_BULK", "10/m")

# ---------------------------------------------------------------- API

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["backoffice.api.authentication.StaffJWTAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["backoffice.api.permissions.RolePermission"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": [
        "rest_framework.parsers.JSONParser",
        "rest_framework.parsers.MultiPartParser",
        "rest_framework.parsers.FormParser",
    ],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "backoffice.api.pagination.EnvelopePagination",
    "DEFAULT_SCHEMA_CLASS": "backoffice.api.schema.EnvelopeAutoSchema",
    "EXCEPTION_HANDLER": "backoffice.api.exceptions.exception_handler",
    "UNAUTHENTICATED_USER": None,
    "COERCE_DECIMAL_TO_STRING": False,
    "DATETIME_FORMAT": "%Y-%m-%dT%H:%M:%S.%fZ",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Vikela compliance back office API",
    "DESCRIPTION": (
        "Back-office API of the payment platform: SARs, AML rules and alerts, PEPs, KYC users, "
        "verification and vendor KYC. Every success is `{success: true, data, message?}`; every "
        "error is `{success: false, message, statusCode, error: {code, message, details?}}`."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {"PartStatusEnum": ["ok", "error"]},
}

# ---------------------------------------------------------------- storage

MEDIA_ROOT = env_str("MEDIA_ROOT", str(BASE_DIR / "media"))
MEDIA_URL = env_str("MEDIA_URL", "/media/")
STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# Collected files are served by WhiteNoise; before collectstatic (tests, dev) it finds them in the apps.
WHITENOISE_USE_FINDERS = True
STATICFILES_DIRS = [BASE_DIR / "static"]

AWS_STORAGE_BUCKET_NAME = env_str("AWS_STORAGE_BUCKET_NAME")
AWS_S3_ENDPOINT_URL = env_str("AWS_S3_ENDPOINT_URL")
AWS_S3_REGION_NAME = env_str("AWS_S3_REGION_NAME", "af-south-1")
# Private documents: S3 links are always presigned, and live as long as the local signed links (15 minutes).
AWS_QUERYSTRING_AUTH = True
AWS_QUERYSTRING_EXPIRE = env_int("AWS_QUERYSTRING_EXPIRE", 15 * 60, minimum=60, maximum=7 * 24 * 3600)
AWS_DEFAULT_ACL = None
# Never replace an object that has the same key (django-storages overwrites by default), and sign with
# SigV4: regions opened since 2014, af-south-1 among them, accept nothing else.
AWS_S3_FILE_OVERWRITE = False
AWS_S3_SIGNATURE_VERSION = "s3v4"
if AWS_STORAGE_BUCKET_NAME:
    _default_storage = {"BACKEND": "storages.backends.s3.S3Storage"}
else:
    _default_storage = {"BACKEND": "django.core.files.storage.FileSystemStorage"}
STORAGES = {
    "default": _default_storage,
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
DATA_UPLOAD_MAX_MEMORY_SIZE = 10 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 10 * 1024 * 1024

# ---------------------------------------------------------------- goAML (SAR export, docs/sars.md)

# Our identity at the financial intelligence unit and the unit's code lists;
# each unit publishes its own, so they are settings rather than code.
GOAML_RENTITY_ID = env_str("GOAML_RENTITY_ID", "0")
if not GOAML_RENTITY_ID.isdigit():
    raise ImproperlyConfigured(f"GOAML_RENTITY_ID must be the numeric id the FIU gave us, got {GOAML_RENTITY_ID!r}")
GOAML_RENTITY_BRANCH = env_str("GOAML_RENTITY_BRANCH", "")
GOAML_SUBMISSION_CODE = env_choice("GOAML_SUBMISSION_CODE", "E", {"E", "M"})
GOAML_REPORT_CODE = env_str("GOAML_REPORT_CODE", "SAR")
if not GOAML_REPORT_CODE.isalnum():
    raise ImproperlyConfigured(f"GOAML_REPORT_CODE must be a code such as SAR or STR, got {GOAML_REPORT_CODE!r}")
# suspiciousActivityType -> the unit's report indicator code
_GOAML_INDICATOR_DEFAULTS = {
    "structuring": "STRUCT",
    "large_cash": "LCASH",
    "unusual_pattern": "UNUSUAL",
    "money_laundering": "ML",
    "fraud": "FRAUD",
    "terrorist_financing": "TF",
    "sanctions_violation": "SANCT",
    "other": "OTHER",
}
GOAML_INDICATORS = env_map("GOAML_INDICATORS", _GOAML_INDICATOR_DEFAULTS, keys=set(_GOAML_INDICATOR_DEFAULTS))
# ledger channel -> the unit's transmode_code and funds code
_CHANNELS = {"WALLET", "MOBILE_MONEY", "CARD", "BANK"}
GOAML_TRANSMODE_CODES = env_map(
    "GOAML_TRANSMODE_CODES", {"WALLET": "EW", "MOBILE_MONEY": "MM", "CARD": "CC", "BANK": "EFT"}, keys=_CHANNELS
)
GOAML_FUNDS_CODES = env_map(
    "GOAML_FUNDS_CODES", {"WALLET": "E", "MOBILE_MONEY": "M", "CARD": "C", "BANK": "B"}, keys=_CHANNELS
)

# ---------------------------------------------------------------- i18n

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# ---------------------------------------------------------------- security

SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", False)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", False)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE_HSTS_SECONDS > 0
SECURE_HSTS_PRELOAD = SECURE_HSTS_SECONDS > 0
if TRUSTED_PROXY_COUNT:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {"django.request": {"level": "ERROR"}},
}

# ---------------------------------------------------------------- admin site

from backoffice.unfold import UNFOLD  # noqa: E402,F401  (kept beside the admin code it configures)
