"""Governance of AML rules: four eyes on rule changes, and when a rule's outcomes call for a review.

``RULE_FOUR_EYES`` (off by default so the interface's immediate update and
toggle hold; recommended in production) turns a change to an active rule's
conditions, severity or actions, and switching a rule on, into a proposal a
second person approves. ``RULE_REVIEW_FP_RATE`` is the share of closed alerts
closed as false positives above which a rule is flagged for review.
"""

from backoffice.env import env_bool, env_float, env_int

RULE_FOUR_EYES = env_bool("RULE_FOUR_EYES", False)
RULE_REVIEW_FP_RATE = env_float("RULE_REVIEW_FP_RATE", 0.9, minimum=0.0, maximum=1.0)
RULE_REVIEW_IDLE_DAYS = env_int("RULE_REVIEW_IDLE_DAYS", 90, minimum=1, maximum=3650)
