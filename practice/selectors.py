import logging
import time

from django.core.cache import cache

from practice.models import PracticeSettings

logger = logging.getLogger(__name__)

_CACHE_KEY = "practice-settings:v1"
# After a cache fault, read the database alone for a while: a stalled Redis costs one request.
_CACHE_PAUSE_SECONDS = 30.0
_cache_paused_until = 0.0


def _cache_failed() -> None:
    global _cache_paused_until
    _cache_paused_until = time.monotonic() + _CACHE_PAUSE_SECONDS
    logger.warning(
        "Cache unavailable: reading practice settings from the database for %ss.",
        int(_CACHE_PAUSE_SECONDS),
    )


def practice_settings() -> PracticeSettings:
    """Cached: every portal page shows crisis lines."""
    use_cache = time.monotonic() >= _cache_paused_until
    if use_cache:
        try:
            cached = cache.get(_CACHE_KEY)
        except Exception:
            _cache_failed()
            use_cache = False
        else:
            if isinstance(cached, PracticeSettings):
                return cached
    settings_row, _ = PracticeSettings.objects.get_or_create(pk=1)
    if use_cache:
        try:
            cache.set(_CACHE_KEY, settings_row, 60)
        except Exception:
            _cache_failed()
    return settings_row


def forget_practice_settings() -> None:
    try:
        cache.delete(_CACHE_KEY)
    except Exception:
        # A copy cached before the outage may be served for up to its minute.
        _cache_failed()
