"""Who signs in and how: the staff model, passwords, JWT lifetimes, one-time codes, phone numbers."""

from datetime import timedelta

from backoffice.env import env_int, env_str
from backoffice.settings.base import BASE_DIR, SECRET_KEY

AUTH_USER_MODEL = "backoffice.Staff"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "backoffice.auth.passwords.AttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "admin:login"
LOGIN_REDIRECT_URL = "admin:index"

ACCESS_TOKEN_MINUTES = env_int("ACCESS_TOKEN_MINUTES", 15, minimum=1)
REFRESH_TOKEN_DAYS = env_int("REFRESH_TOKEN_DAYS", 7, minimum=1)
# However often a refresh token is rotated, its session ends this long after the login that opened it.
REFRESH_SESSION_MAX_DAYS = env_int("REFRESH_SESSION_MAX_DAYS", 7, minimum=1)
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

# One of backoffice.auth.otp.backends; checked against that registry when the app starts.
OTP_BACKEND = env_str("OTP_BACKEND", "console")
OTP_FILE_PATH = env_str("OTP_FILE_PATH", str(BASE_DIR / "otp.txt"))
OTP_TTL_MINUTES = env_int("OTP_TTL_MINUTES", 10, minimum=1)
OTP_MAX_ATTEMPTS = env_int("OTP_MAX_ATTEMPTS", 5, minimum=1)

PHONE_DEFAULT_REGION = env_str("PHONE_DEFAULT_REGION", "SZ")
