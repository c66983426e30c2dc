"""Flagged entries shared before alerts existed, not yet read, become open alerts, so nothing that
was first on the home page drops off it. Raised now, not when the entry was shared: the practice's
limit counts from here, so deploying does not send the manager every old flag at once. Entries
already read are left as they are: the therapist saw them, and no acknowledgement is made up."""

from typing import Any

from django.db import migrations
from django.utils import timezone


def watched(entry: Any) -> list[tuple[str, str]]:
    from homework.kinds import get_kind

    try:
        return get_kind(entry.assignment.exercise.kind).watched_answers(entry)
    except LookupError:
        return []  # a kind no longer registered: its answers cannot be named


def raise_alerts(apps: Any, schema_editor: Any) -> None:
    Entry = apps.get_model("homework", "Entry")
    Alert = apps.get_model("homework", "Alert")
    now = timezone.now()
    flagged = (
        Entry.objects.filter(status="submitted", private=False, seen_at__isnull=True)
        .filter(assignment__client__status="active")
        .exclude(felt_unsafe=False, needs_review=False)
        .select_related("assignment__exercise")
    )
    alerts = []
    for entry in flagged.iterator(chunk_size=500):
        client_id = entry.assignment.client_id
        if entry.felt_unsafe:
            alerts.append(
                Alert(entry=entry, client_id=client_id, reason="felt-unsafe", raised_at=now)
            )
        if entry.needs_review:
            alerts += [
                Alert(
                    entry=entry,
                    client_id=client_id,
                    reason="watched-answer",
                    question_key=key,
                    answer=words,
                    raised_at=now,
                )
                for key, words in watched(entry)
            ]
    Alert.objects.bulk_create(alerts, batch_size=500, ignore_conflicts=True)


class Migration(migrations.Migration):
    dependencies = [("homework", "0035_alerts")]

    # Back: the alerts go with the table the schema step removes.
    operations = [migrations.RunPython(raise_alerts, migrations.RunPython.noop)]
