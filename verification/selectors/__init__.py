"""Verification's reads, one module per concern: jobs and timing (stage durations, the time a job has left).
Import from the module: this package re-exports nothing."""
