"""The payment platform's intake: decisions before the money moves (docs/aml-rules.md, "Decisions")."""

from backoffice.env import env_bool, env_choice, env_int
from backoffice.settings.base import ENVIRONMENT

# When a rule's evaluation fails at record time: "open" records the row on the other rules' decision,
# flags it for the batch scan, counts and logs it; "closed" holds the row for an officer's review.
AML_SCREENING_FAILURE = env_choice("AML_SCREENING_FAILURE", "open", {"open", "closed"})
# Alerts of record-time hits are written after the commit in a worker thread, off the answer's path.
# Tests write them inline (an in-memory test database is not shared between threads).
AML_ALERTS_BACKGROUND = env_bool("AML_ALERTS_BACKGROUND", ENVIRONMENT != "test")
# A transaction held longer than this escalates: its alerts' priority rises and the dashboard counts it.
AML_HELD_ESCALATE_HOURS = env_int("AML_HELD_ESCALATE_HOURS", 24, minimum=1)
# Seconds a process keeps its list of active rules before checking the table again (a change made in this
# process applies at once; one made by another process within this time). Tests check every time.
AML_RULES_REFRESH_SECONDS = env_int("AML_RULES_REFRESH_SECONDS", 0 if ENVIRONMENT == "test" else 2, minimum=0)
# Record-time screening first rules out window rules the wallet's hourly activity cannot bring to their
# thresholds (one small query); false runs every candidate rule's own query (slower, same decisions).
AML_ACTIVITY_PREFILTER = env_bool("AML_ACTIVITY_PREFILTER", True)
