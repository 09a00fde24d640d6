"""Background work on Celery (``backoffice.celery``, docs/operations.md).

With ``CELERY_BROKER_URL`` set, tasks go through that Redis to workers (``scripts/worker``) and periodic work
is sent by beat (``scripts/beat``). Unset (the embedded default): every task runs in the process that asks
for it, through the same code (``task_always_eager``), so ``make run`` works with nothing else running.
"""

from django.core.exceptions import ImproperlyConfigured

from backoffice.env import env_int, env_str

CELERY_BROKER_URL = env_str("CELERY_BROKER_URL")
if CELERY_BROKER_URL and not CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    raise ImproperlyConfigured("CELERY_BROKER_URL must be a redis:// or rediss:// URL")
TASKS_ASYNC = bool(CELERY_BROKER_URL)

CELERY_TASK_ALWAYS_EAGER = not TASKS_ASYNC
# dispatch() raises a failed in-process run's error itself, after its retries (backoffice.tasks)
CELERY_TASK_EAGER_PROPAGATES = False
CELERY_BROKER_URL = CELERY_BROKER_URL or "memory://"
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# Outcomes live in the database (a job's status), not in a result backend.
CELERY_TASK_IGNORE_RESULT = True
CELERY_RESULT_BACKEND = None
# A task is acknowledged when it has finished, not when it starts: a worker that dies mid-task leaves it in
# the queue for another (after the visibility timeout when the whole worker died, at once when only a pool
# process did). Every task is therefore written to run twice harmlessly. One task at a time per process:
# long jobs do not wait behind a prefetched backlog.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Seconds Redis waits for an acknowledgement before it gives a task to another worker; longer than any task
# runs, or a slow task would run twice at once.
CELERY_VISIBILITY_TIMEOUT = env_int("CELERY_VISIBILITY_TIMEOUT", 1800, minimum=60, maximum=86400)
_REDIS_TIMEOUT = 5
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": CELERY_VISIBILITY_TIMEOUT,
    # a command waits at most this long on a Redis that stopped answering (a frozen server, a dropped route)
    "socket_timeout": _REDIS_TIMEOUT,
    "socket_connect_timeout": _REDIS_TIMEOUT,
    "socket_keepalive": True,
    # kombu pings its long-lived consuming connections this often and drops one whose answer is overdue, so a
    # worker on a half-open connection reconnects instead of waiting for messages that never come
    "health_check_interval": 10,
}
# A worker outlives its broker: a lost connection is retried for ever (Celery's default gives up after 100
# attempts and the worker then exits for good), at start-up too, with Celery's back-off (2 s, 4 s, 6 s ... up
# to 30 s between attempts), and it consumes again as soon as Redis answers. scripts/run (and systemd in
# production) still restart a worker that ends for another reason.
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# Tasks still running when the connection goes cannot be acknowledged any more and Redis hands them out again:
# stop them instead of letting a second copy run beside them (each task is idempotent either way).
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
# A request that sends a task while the broker is down answers 503 within seconds instead of hanging.
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.5, "interval_max": 1}
CELERY_BROKER_CONNECTION_TIMEOUT = _REDIS_TIMEOUT
CELERY_WORKER_HIJACK_ROOT_LOGGER = False  # workers keep Django's LOGGING (JSON lines with the request id)
CELERY_WORKER_SEND_TASK_EVENTS = False
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_DEFAULT_QUEUE", "default")
# OCR and face work: the models are heavy (hundreds of MB per process), so they have a queue and workers of
# their own, fewer of them than the light work's.
VERIFICATION_QUEUE = env_str("VERIFICATION_QUEUE", "verification")
CELERY_TASK_ROUTES = {"verification.process_job": {"queue": VERIFICATION_QUEUE}}
CELERY_WORKER_CONCURRENCY = env_int("CELERY_WORKER_CONCURRENCY", 2, minimum=1, maximum=64)
VERIFICATION_WORKER_CONCURRENCY = env_int("VERIFICATION_WORKER_CONCURRENCY", 1, minimum=1, maximum=64)
# Beat checks its leadership lock and the schedule this often (seconds); a beat that stops is replaced by a
# standby one within BEAT_LOCK_SECONDS.
CELERY_BEAT_MAX_LOOP_INTERVAL = 5
BEAT_LOCK_SECONDS = env_int("BEAT_LOCK_SECONDS", 30, minimum=10, maximum=3600)
CELERY_BEAT_SCHEDULER = "backoffice.ops.beat:LockedScheduler"
# Transient errors (a lost database or broker connection, a throttled provider) are retried this many times
# with exponential back-off (1 s, 2 s, 4 s ... capped at TASK_RETRY_BACKOFF_MAX) before the task gives up.
TASK_MAX_RETRIES = env_int("TASK_MAX_RETRIES", 5, minimum=0, maximum=100)
TASK_RETRY_BACKOFF_MAX = env_int("TASK_RETRY_BACKOFF_MAX", 300, minimum=1, maximum=3600)

# Beat's AML scan: every AML_SCAN_SECONDS the active rules run over the ledger since the end of the last
# periodic scan (the first one looks back AML_SCAN_LOOKBACK_SECONDS), rule by rule, each rule's alerts and its
# progress committed together.
AML_SCAN_SECONDS = env_int("AML_SCAN_SECONDS", 3600, minimum=60, maximum=7 * 86400)
AML_SCAN_LOOKBACK_SECONDS = env_int("AML_SCAN_LOOKBACK_SECONDS", 86400, minimum=60, maximum=366 * 86400)
