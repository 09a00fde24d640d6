"""Vendors' reads, one module per concern: vendors (one, the list, expiry filters), documents, progress.
Import from the module: this package re-exports nothing."""
