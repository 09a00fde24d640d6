"""PEP screening: the score from which two names are the same person.

Unset means the matcher's own default (``names.DEFAULT_THRESHOLD``, 0.8), read where the score is used
(``compliance.peps.services.screening.match_threshold``): the foundation does not import the matcher.
"""

from backoffice.env import env_float, env_int

PEP_MATCH_THRESHOLD = env_float("PEP_MATCH_THRESHOLD", None, minimum=0.0, maximum=1.0)

# With a broker, a write that screens more PEPs than this (a bulk upload, a list import) is screened on the
# workers in chunks and its answer names the screening run; fewer are screened inside the request, whose answer
# lists the matches. Without a broker everything is screened inside the request.
PEP_SCREEN_INLINE_MAX = env_int("PEP_SCREEN_INLINE_MAX", 1000, minimum=1, maximum=100_000)
# Beat re-screens the PEPs whose content was never screened (a failed run, a new matcher) this often; a run that
# did no chunk for PEP_SCREENING_STALE_SECONDS (its worker died) is resumed by a sweep of its own (below).
PEP_RESCREEN_SECONDS = env_int("PEP_RESCREEN_SECONDS", 3600, minimum=60, maximum=7 * 86400)
PEP_SCREENING_STALE_SECONDS = env_int("PEP_SCREENING_STALE_SECONDS", 600, minimum=30, maximum=86400)
# How often beat looks for such runs: a chunk held by a dead worker is sent again within the stale time plus this.
PEP_SCREENING_SWEEP_SECONDS = env_int("PEP_SCREENING_SWEEP_SECONDS", 60, minimum=5, maximum=86400)
# PEPs screened per chunk (one transaction, one background task): a chunk takes seconds, well inside the
# broker's visibility timeout, and a run cut short loses at most one chunk's work.
PEP_SCREENING_CHUNK = env_int("PEP_SCREENING_CHUNK", 200, minimum=1, maximum=10_000)
# Each server process screens names against an in-memory index of the active PEPs (``names.index``), and asks
# the database at most this often whether the list changed (then rebuilds it): every process sees an import or
# an edit within about this many seconds. A write in the process itself is seen at once.
PEP_INDEX_CHECK_SECONDS = env_float("PEP_INDEX_CHECK_SECONDS", 1.0, minimum=0.0, maximum=3600.0)
