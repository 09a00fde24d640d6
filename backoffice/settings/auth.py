"""Who signs in and how: the staff model, passwords, JWT lifetimes, one-time codes, phone numbers."""

from datetime import timedelta

from backoffice.choices import StaffRole
from backoffice.env import env_choices, env_int, env_str
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

# Two-factor sign-in for staff (backoffice.auth.mfa, docs/staff-mfa.md). Anyone may enrol; a role named here cannot
# sign in (API or admin site) without a second factor, and is sent to enrol after the password. Empty by default,
# so the interface's login answers are unchanged until a deployment names roles.
STAFF_MFA_REQUIRED_ROLES = env_choices("STAFF_MFA_REQUIRED_ROLES", [], set(StaffRole.values))
# How long the admin site waits for the code after a right password before asking for the password again.
STAFF_MFA_STEP_MINUTES = env_int("STAFF_MFA_STEP_MINUTES", 5, minimum=1)
# The name authenticator apps show for the account (django-otp's setting).
OTP_TOTP_ISSUER = env_str("OTP_TOTP_ISSUER", "Vikela Back Office")
# django-otp's own back-off after a wrong code (1 s, 2 s, 4 s... per device), on top of the per-account lockout
# that wrong codes count towards (LOGIN_LOCKOUT_FAILURES). 0 switches the back-off off.
OTP_TOTP_THROTTLE_FACTOR = env_int("OTP_TOTP_THROTTLE_FACTOR", 1, minimum=0)
OTP_STATIC_THROTTLE_FACTOR = env_int("OTP_STATIC_THROTTLE_FACTOR", 1, minimum=0)
