"""The contract's rate-limit groups (backoffice.http.ratelimit); counters live in the cache."""

from backoffice.env import env_bool, env_int, env_rate

RATELIMIT_ENABLE = env_bool("RATELIMIT_ENABLE", True)
RATELIMIT_USE_CACHE = "default"
RATE_LIMIT_STANDARD = env_rate("RATE_LIMIT_STANDARD", "100/m")
RATE_LIMIT_AUTH = env_rate("RATE_LIMIT_AUTH", "10/m")
RATE_LIMIT_BULK = env_rate("RATE_LIMIT_BULK", "10/m")
# the payment platform's intake (POST /admin/aml/transactions and its dry run), per service key
RATE_LIMIT_TRANSACTIONS = env_rate("RATE_LIMIT_TRANSACTIONS", "6000/m")
# When the cache holding the counters is down: serve uncounted (true, logged and counted as
# ratelimit.cache_unavailable) or refuse with 503 (false). django-ratelimit reads the same name.
RATELIMIT_FAIL_OPEN = env_bool("RATELIMIT_FAIL_OPEN", True)

# Sign-in failures per login name (any kind of principal, the admin site's form too): this many within
# LOGIN_LOCKOUT_MINUTES lock that name for LOGIN_LOCKOUT_MINUTES (backoffice.auth.login_guard). Twice the
# per-address limit: one address meets that limit first; the lock stops guessing spread over addresses.
LOGIN_LOCKOUT_FAILURES = env_int("LOGIN_LOCKOUT_FAILURES", 20, minimum=1)
LOGIN_LOCKOUT_MINUTES = env_int("LOGIN_LOCKOUT_MINUTES", 15, minimum=1)
