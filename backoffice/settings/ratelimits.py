"""The contract's rate-limit groups (backoffice.ratelimit); counters live in the cache."""

from backoffice.env import env_bool, env_rate

RATELIMIT_ENABLE = env_bool("RATELIMIT_ENABLE", True)
RATELIMIT_USE_CACHE = "default"
RATE_LIMIT_STANDARD = env_rate("RATE_LIMIT_STANDARD", "100/m")
RATE_LIMIT_AUTH = env_rate("RATE_LIMIT_AUTH", "10/m")
RATE_LIMIT_BULK = env_rate("RATE_LIMIT_BULK", "10/m")
