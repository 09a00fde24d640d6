"""Vendor KYC: how long one document's check-and-store may take before it answers 500 "Upload timeout"."""

from backoffice.env import env_int

# The interface leaves the duration open ("not shown"). Two minutes lets 50 MB through a slow 4 Mbit/s link to
# the storage and still answers before gunicorn's worker timeout (GUNICORN_TIMEOUT, 120 s by default) would.
VENDOR_KYC_UPLOAD_TIMEOUT = env_int("VENDOR_KYC_UPLOAD_TIMEOUT", 110, minimum=1, maximum=3600)
