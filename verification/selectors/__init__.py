"""Verification's reads, one module per concern: jobs, timing (stage durations, the time a job has left) and
results (what a job found, the one value the results endpoint and the admin's job page render).
Import from the module: this package re-exports nothing."""
