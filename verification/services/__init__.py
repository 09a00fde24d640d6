"""Every write of identity verification: creating jobs, running them, an officer's decision."""

from verification.services.jobs import job_create, job_decide, job_process

__all__ = ["job_create", "job_decide", "job_process"]
