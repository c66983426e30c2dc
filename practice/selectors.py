from django.core.cache import cache

from practice.models import PracticeSettings

_CACHE_KEY = "practice-settings:v1"


def practice_settings() -> PracticeSettings:
    """The practice's settings, cached: every portal page shows crisis lines."""
    cached = cache.get(_CACHE_KEY)
    if isinstance(cached, PracticeSettings):
        return cached
    settings_row, _ = PracticeSettings.objects.get_or_create(pk=1)
    cache.set(_CACHE_KEY, settings_row, 60)
    return settings_row


def forget_practice_settings() -> None:
    cache.delete(_CACHE_KEY)
