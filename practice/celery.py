"""The Celery app: configuration comes from Django settings (CELERY_* names)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "practice.settings")

# Every task tries once when it runs in the request (see PracticeTask).
app = Celery("practice", task_cls="practice.queue:PracticeTask")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
