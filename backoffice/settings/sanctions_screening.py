"""Sanctions screening: the score from which a name is the listed one, the index's freshness, the re-screening.

The lists themselves (imports) are configured beside these; this module is what screening reads.
"""

from backoffice.env import env_float, env_int

# contract: SANCTIONS_MATCH_THRESHOLD, 0..1, default 0.8
SANCTIONS_MATCH_THRESHOLD = env_float("SANCTIONS_MATCH_THRESHOLD", 0.8, minimum=0.0, maximum=1.0)
# Every server process keeps the active entries in a name index, and asks the database whether a list changed
# at most this often: an import reaches every process within that time (seconds).
SANCTIONS_INDEX_CHECK_SECONDS = env_float("SANCTIONS_INDEX_CHECK_SECONDS", 1.0, minimum=0.0, maximum=3600.0)
# After an import, customers are screened against the entries it added or changed, this many customers per chunk
# (one transaction, one background task); a base larger than SANCTIONS_SCREEN_INLINE_MAX goes to the workers
# when a broker is configured, and the import's answer counts the customers it will scan.
SANCTIONS_SCREENING_CHUNK = env_int("SANCTIONS_SCREENING_CHUNK", 20_000, minimum=1, maximum=1_000_000)
SANCTIONS_SCREEN_INLINE_MAX = env_int("SANCTIONS_SCREEN_INLINE_MAX", 50_000, minimum=1, maximum=100_000_000)
