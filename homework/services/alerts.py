"""Alerts: raised with the entry that calls for the therapist, answered with a note of what they
did, and raised to the manager when nobody has answered within the practice's limit."""

import datetime as dt

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clients.services.staff_log import staff_change_record
from homework.kinds import get_kind
from homework.models import ACKNOWLEDGEMENT_MAX_CHARS, Alert, Entry, readable_by_staff_q
from homework.models.field_limits import too_long
from homework.selectors.workspace import is_their_therapist
from practice.bidi import isolated_text
from practice.dates import calendar_day
from practice.models import User
from practice.roles import is_acting_manager


class AlertAlreadyAcknowledged(Exception):
    """Someone acknowledged it first; ``alert`` says who, when and what they wrote."""

    def __init__(self, alert: Alert) -> None:
        super().__init__(alert.pk)
        self.alert = alert


def already_acknowledged(alert: Alert) -> str:
    """What the second of two at once is told."""
    by = alert.acknowledged_by
    return _("Already acknowledged %(when)s by %(who)s: %(note)s. Nothing was changed.") % {
        "when": calendar_day(alert.acknowledged_at, "ABBR_WEEKDAY_DATETIME_FORMAT")
        if alert.acknowledged_at
        else "",
        "who": isolated_text(by.get_short_name()) if by is not None else "",
        "note": isolated_text(alert.note),
    }


def flags_calling_for_attention(entry: Entry) -> list[tuple[str, str, str]]:
    """The one rule for what is an alert: (reason, question key, the answer as its flag names it).
    "Talk about this in session" is a wish for the session, not a call for attention now."""
    flags = [(Alert.Reason.FELT_UNSAFE.value, "", "")] if entry.felt_unsafe else []
    if entry.needs_review:
        watched = get_kind(entry.assignment.exercise.kind).watched_answers(entry)
        flags += [(Alert.Reason.WATCHED_ANSWER.value, key, words) for key, words in watched]
    return flags


def alerts_raise(*, entry: Entry, now: dt.datetime | None = None) -> list[Alert]:
    """Call in the transaction that shares or changes the entry. An open alert for the same flag is
    kept (its answer brought up to date), never doubled; one acknowledged is raised again only when
    the client now gives another answer. A flag the client later clears keeps its alert: they said
    it, and the therapist answers it."""
    if not entry.readable_by_staff:
        return []  # a private entry's flags are the client's alone
    now = now or timezone.now()
    held = list(Alert.objects.select_for_update().filter(entry=entry).order_by("pk"))
    raised = []
    for reason, key, words in flags_calling_for_attention(entry):
        same = [alert for alert in held if (alert.reason, alert.question_key) == (reason, key)]
        still_open = next((alert for alert in same if alert.is_open), None)
        if still_open is not None:
            if still_open.answer != words:
                still_open.answer = words
                still_open.save(update_fields=["answer"])
            continue
        if any(alert.answer == words for alert in same):
            continue
        raised.append(
            Alert.objects.create(
                entry=entry,
                client_id=entry.assignment.client_id,
                reason=reason,
                question_key=key,
                answer=words,
                raised_at=now,
            )
        )
    return raised


def acknowledgement_refusal(note: str) -> str | None:
    if not note:
        return _("Say in a few words what you did, for example “called, safe tonight”.")
    return too_long(note, limit=ACKNOWLEDGEMENT_MAX_CHARS)


@transaction.atomic
def alert_acknowledge(
    *, alert: Alert, by: User, note: str, now: dt.datetime | None = None
) -> Alert:
    """One conditional update: of two at once, the second finds it taken and is told by whom."""
    if not (is_their_therapist(user=by, client=alert.client) or is_acting_manager(by)):
        raise PermissionDenied(
            _("Only the client's therapist or the practice manager can do this.")
        )
    note = " ".join(note.split())
    refusal = acknowledgement_refusal(note)
    if refusal:
        raise ValidationError({"note": [refusal]})
    now = now or timezone.now()
    taken = Alert.objects.filter(pk=alert.pk, acknowledged_at__isnull=True).update(
        acknowledged_at=now, acknowledged_by=by, note=note
    )
    fresh = Alert.objects.select_related("acknowledged_by").get(pk=alert.pk)
    if not taken:
        raise AlertAlreadyAcknowledged(fresh)
    # The admin's history says who acknowledged; the note itself stays encrypted on the alert.
    staff_change_record(actor=by, target=fresh, message="Acknowledged the alert.")
    return fresh


def alerts_to_escalate(*, now: dt.datetime, after_hours: int) -> list[Alert]:
    """Open, past the limit, not yet raised to the manager, and still readable by staff."""
    return list(
        Alert.objects.select_for_update(of=("self",), skip_locked=True)
        .filter(
            readable_by_staff_q("entry__"),
            acknowledged_at__isnull=True,
            escalated_at__isnull=True,
            raised_at__lte=now - dt.timedelta(hours=after_hours),
        )
        .order_by("raised_at", "pk")
    )
