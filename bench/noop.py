"""The floor for bench.reminders: a task that does nothing but say it ran.

Imported by the benchmark's worker (``celery worker -I bench.noop``); the
count in Redis is how the benchmark knows the last one has run, one
increment per task (the reminders' floor pays it, our sends do not).
"""

import os
from functools import cache

import redis
from celery import shared_task
from django.conf import settings


@cache
def _redis() -> redis.Redis:
    return redis.Redis.from_url(settings.REDIS_URL)


@shared_task(acks_late=True)
def no_op() -> None:
    _redis().incr(os.environ.get("BENCH_NO_OP_COUNTER", "bench:reminders:no-op"))
