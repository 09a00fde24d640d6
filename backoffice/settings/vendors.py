"""Vendor KYC: how long one document's check-and-store may take before it answers 500 "Upload timeout", and how
long a superseded document a decision relied on is kept as evidence."""

from backoffice.env import env_bool, env_int

# The interface leaves the duration open ("not shown"). Two minutes lets 50 MB through a slow 4 Mbit/s link to
# the storage and still answers before gunicorn's worker timeout (GUNICORN_TIMEOUT, 120 s by default) would.
VENDOR_KYC_UPLOAD_TIMEOUT = env_int("VENDOR_KYC_UPLOAD_TIMEOUT", 110, minimum=1, maximum=3600)

# Customer due diligence records are kept at least five years (FATF Recommendation 11, and Eswatini's Money
# Laundering and Financing of Terrorism (Prevention) Act): a document replaced in its slot after a review or a
# KYC decision relied on it stays stored this many days after it was replaced. The floor is the five years, so
# a deployment cannot shorten the legal period by a typo; it can keep papers longer.
VENDOR_KYC_RETENTION_DAYS = env_int("VENDOR_KYC_RETENTION_DAYS", 5 * 365 + 1, minimum=5 * 365, maximum=50 * 366)

# A verification on papers nobody approved is a vendor verified on trust. With this on, VERIFIED needs every
# required document approved, each on its own file (409 DOCUMENTS_NOT_APPROVED otherwise). Off by default so the
# interface's decision (allowed from UNDER_REVIEW) holds; `make run` and production switch it on (docs/vendor-kyc.md).
VENDOR_VERIFY_NEEDS_APPROVED_DOCUMENTS = env_bool("VENDOR_VERIFY_NEEDS_APPROVED_DOCUMENTS", False)
