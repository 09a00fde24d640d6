"""PEP screening: the score from which two names are the same person.

Unset means the matcher's own default (``kyc.names.DEFAULT_THRESHOLD``, 0.8), read where the score is used
(``compliance.peps.services.screening.match_threshold``): the foundation does not import the matcher.
"""

from backoffice.env import env_float

PEP_MATCH_THRESHOLD = env_float("PEP_MATCH_THRESHOLD", None, minimum=0.0, maximum=1.0)
