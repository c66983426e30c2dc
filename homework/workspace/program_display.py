"""A program's release rules in words, as the step editor's preview says them."""

from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from homework.models import Release
from homework.models.programs import StepRule


def step_comes(step: StepRule, *, number: int, previous: StepRule | None) -> str:
    """When step ``number`` comes, read as homework.schedules.pacing walks it: never before the
    step before it, and never before a required step before it is done."""
    before = number - 1
    waits = previous is not None and previous.required
    days = step.days or 0
    if step.release == Release.ON_DAY:
        if previous is None:
            return _("On day %(day)s") % {"day": days}
        if waits:
            return _("On day %(day)s, once step %(before)s is done") % {
                "day": days,
                "before": before,
            }
        return _("On day %(day)s, not before step %(before)s") % {"day": days, "before": before}
    if step.release == Release.AFTER_PREVIOUS_DAYS:
        if previous is None:
            return _("On day %(day)s") % {"day": days + 1}
        return ngettext(
            "Comes %(days)s day after step %(before)s is done",
            "Comes %(days)s days after step %(before)s is done",
            days,
        ) % {"days": days, "before": before}
    if previous is None:
        return _("Comes right away")
    if step.release == Release.AFTER_PREVIOUS or waits:
        return _("Comes when step %(before)s is done") % {"before": before}
    return _("Comes with step %(before)s") % {"before": before}


def steps_with_timing(steps: Sequence[StepRule]) -> list[tuple[int, StepRule, str]]:
    """Each step with its number and when it comes."""
    return [
        (
            number,
            step,
            step_comes(step, number=number, previous=steps[number - 2] if number > 1 else None),
        )
        for number, step in enumerate(steps, 1)
    ]
