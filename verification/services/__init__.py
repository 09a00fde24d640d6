"""Every write of identity verification: creating jobs, running them (now or later), an officer's decision."""

from verification.services.jobs import job_create, job_decide, job_process, job_process_later, job_requeue_stale

__all__ = ["job_create", "job_decide", "job_process", "job_process_later", "job_requeue_stale"]
