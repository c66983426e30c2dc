"""Writes to practice-wide settings."""

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from practice.models import PracticeSettings, User
from practice.roles import require_manager
from practice.selectors import forget_practice_settings

PRACTICE_SETTINGS_FIELDS = frozenset(
    {
        "name",
        "reminder_sender_name",
        "reminder_subject",
        "reminder_sender_name_by_language",
        "reminder_subject_by_language",
        "crisis_resources",
        "crisis_resources_by_language",
        "practice_contact",
        "quick_exit_url",
        "idle_timeout_minutes",
        "staff_idle_timeout_minutes",
        "paper_size",
        "contact_recheck_weeks",
        "weekly_digest",
        "alert_escalate_after_hours",
        "summary_keep_days",
        "message_keep_days",
    }
)


@transaction.atomic
def practice_settings_update(*, actor: User, **changes: Any) -> PracticeSettings:
    """The cache is cleared after commit, so no request can cache the old row again."""
    require_manager(actor, refusal=_("Only a practice manager changes the practice's settings."))
    unknown = set(changes) - PRACTICE_SETTINGS_FIELDS
    if unknown:
        raise TypeError(f"Unknown practice settings: {sorted(unknown)}")
    row, _created = PracticeSettings.objects.select_for_update().get_or_create(pk=1)
    for name, value in changes.items():
        setattr(row, name, value)
    row.full_clean()
    row.save(update_fields=sorted(changes))
    transaction.on_commit(forget_practice_settings)
    return row
