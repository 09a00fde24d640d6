"""Limits several apps share, defined once."""

# An officer's note or reason on a decision (alerts, identity checks, vendor KYC, held transactions): long enough for
# a paragraph of reasoning, short enough to read on one screen and to keep in an audit entry.
NOTE_MAX_LENGTH = 2000
