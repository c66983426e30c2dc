"""Run one reminders' scan in the foreground and send what is due.

    python manage.py send_reminders

For a practice without a worker and beat (no REDIS_URL: ``make run``, or a
server run from cron): every five minutes from cron does what beat's
``scan-reminders`` does. Prints what it sent, held and closed, and why, by
the outbox row's number only: cron mails its output, and a name or an
address has no place in it.
"""

from collections import Counter
from typing import Any

from django.core.management.base import BaseCommand
from django.utils import timezone

from homework.models import OutboxMessage
from homework.reminders.services import ReminderNotSent, reminder_send, reminders_scan
from homework.services.digest import DigestNotSent, digest_send, digests_scan


class Command(BaseCommand):
    help = "Find the reminders due now and send them, here and once."

    def handle(self, *args: Any, **options: Any) -> None:
        scanned = reminders_scan(now=timezone.now())
        outcomes: Counter[str] = Counter()
        for message_id in scanned.ready:
            try:
                outcome = reminder_send(message_id=message_id)
            except ReminderNotSent:
                outcome = "failed"  # counted on its row; the next run tries again
            outcomes[outcome] += 1
            row = OutboxMessage.objects.only("reason", "last_error").get(pk=message_id)
            why = row.get_reason_display() if row.reason else row.last_error
            self.stdout.write(f"reminder {message_id}: {outcome}" + (f" ({why})" if why else ""))
        waiting = OutboxMessage.objects.filter(
            kind=OutboxMessage.Kind.REMINDER,
            state=OutboxMessage.State.PENDING,
            send_after__gt=timezone.now(),
        ).count()
        # The therapists' weekly digests ride along: without beat, nothing else sends them.
        for message_id in digests_scan(now=timezone.now()):
            try:
                outcome = digest_send(message_id=message_id, now=timezone.now())
            except DigestNotSent:
                outcome = "failed"
            self.stdout.write(f"digest {message_id}: {outcome}")
        summary = ", ".join(f"{count} {name}" for name, count in sorted(outcomes.items()))
        self.stdout.write(
            f"{scanned.due} due; {summary or 'nothing to send'}; {waiting} waiting for safe hours."
        )
