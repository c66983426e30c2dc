"""``/health/``: whether this web process can serve, for a load balancer."""

import asyncio
from collections.abc import Iterator
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from health_check.base import HealthCheck
from health_check.checks import Database, Storage
from health_check.contrib.redis import Redis
from health_check.views import HealthCheckView
from redis.asyncio import Redis as AsyncRedis

# Static files are read-only once collected: nothing is written there at run time.
READ_ONLY_STORAGES = {"staticfiles"}
BROKER_TIMEOUT_SECONDS = 2


def _broker() -> AsyncRedis:
    client: AsyncRedis = AsyncRedis.from_url(
        settings.REDIS_URL,
        socket_timeout=BROKER_TIMEOUT_SECONDS,
        socket_connect_timeout=BROKER_TIMEOUT_SECONDS,
    )
    return client


def checks() -> Iterator[HealthCheck]:
    yield Database()
    if settings.REDIS_URL:
        yield Redis(client_factory=_broker)
    for alias in settings.STORAGES:
        if alias not in READ_ONLY_STORAGES:
            yield Storage(alias=alias)


class HealthView(HealthCheckView):
    def get_checks(self) -> Iterator[HealthCheck]:
        return checks()

    async def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        with self.get_executor() as executor:
            results = await asyncio.gather(
                *(check.get_result(executor) for check in self.get_checks())
            )
        healthy = not any(result.error for result in results)
        return HttpResponse(
            "ok\n" if healthy else "unavailable\n",
            status=200 if healthy else 503,
            content_type="text/plain; charset=utf-8",
        )


health = HealthView.as_view()
