"""The Celery application: ``celery -A backoffice worker`` / ``beat`` (``scripts/worker``, ``scripts/beat``).

Configured from Django's settings (``CELERY_*``, ``backoffice.settings.tasks``); tasks are found in each
installed app's ``tasks`` module. The signals that carry the request id into tasks and record their
metrics are connected by ``backoffice.tasks``, imported here so that every process that has the app has
them.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backoffice.settings")

app = Celery("vikela")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

from backoffice import tasks  # noqa: E402,F401  (connects the signals)
