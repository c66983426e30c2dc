"""Each entry's notification bookkeeping becomes its notice in the outbox.

Notified: a sent notice, at the time it went. Given up: a given-up notice
with its tries (its last try at the time it was given up). Sent, shared and
not yet notified, or tried before: a waiting notice with its tries. A
private entry never tried has none: sharing it writes one. Back the other
way, the notices fill the three fields again.
"""

from django.db import migrations
from django.db.models import Q
from django.utils import timezone

BATCH = 500
ENTRY_NOTICE = "entry-notice"


def to_the_outbox(apps, schema_editor):
    Entry = apps.get_model("homework", "Entry")
    OutboxMessage = apps.get_model("homework", "OutboxMessage")
    entries = (
        Entry.objects.filter(
            Q(therapist_notified_at__isnull=False)
            | Q(notify_given_up_at__isnull=False)
            | Q(notify_attempts__gt=0)
            | Q(status="submitted", private=False)
        )
        .order_by("pk")
        .values(
            "pk",
            "assignment__client_id",
            "assignment__client__therapist_id",
            "submitted_at",
            "shared_at",
            "therapist_notified_at",
            "notify_attempts",
            "notify_given_up_at",
        )
    )
    batch = []
    for entry in entries.iterator(chunk_size=BATCH):
        if entry["therapist_notified_at"] is not None:
            state, last_tried_at = "sent", entry["therapist_notified_at"]
        elif entry["notify_given_up_at"] is not None:
            state, last_tried_at = "given-up", entry["notify_given_up_at"]
        else:
            state, last_tried_at = "pending", None
        asked_at = entry["shared_at"] or entry["submitted_at"]
        batch.append(
            OutboxMessage(
                kind=ENTRY_NOTICE,
                entry_id=entry["pk"],
                client_id=entry["assignment__client_id"],
                recipient_id=entry["assignment__client__therapist_id"],
                state=state,
                attempts=entry["notify_attempts"],
                created_at=asked_at or last_tried_at or timezone.now(),
                last_tried_at=last_tried_at,
                sent_at=entry["therapist_notified_at"],
            )
        )
        if len(batch) >= BATCH:
            OutboxMessage.objects.bulk_create(batch)
            batch = []
    OutboxMessage.objects.bulk_create(batch)


def back_to_the_entries(apps, schema_editor):
    Entry = apps.get_model("homework", "Entry")
    OutboxMessage = apps.get_model("homework", "OutboxMessage")
    notices = OutboxMessage.objects.filter(kind=ENTRY_NOTICE).values(
        "entry_id", "state", "attempts", "last_tried_at", "sent_at", "created_at"
    )
    for notice in notices.iterator(chunk_size=BATCH):
        given_up = notice["state"] == "given-up"
        Entry.objects.filter(pk=notice["entry_id"]).update(
            therapist_notified_at=notice["sent_at"],
            notify_attempts=notice["attempts"],
            notify_given_up_at=(notice["last_tried_at"] or notice["created_at"])
            if given_up
            else None,
        )
    OutboxMessage.objects.filter(kind=ENTRY_NOTICE).delete()


class Migration(migrations.Migration):
    dependencies = [("homework", "0016_outboxmessage")]

    operations = [migrations.RunPython(to_the_outbox, back_to_the_entries)]
