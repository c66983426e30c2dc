"""Each sent urge keeps its time and whether it says there was contact in
plain columns, beside its pull (Entry.score, migration 0025).

The urge curve (the client's progress page, "since last session", the
session summary) read and decrypted every urge ever logged for three
things: its time, its pull and whether contact happened; the pull was
already plain. New entries now keep the other two as they are sent or
changed (ExerciseKind.plain_columns). This fills them for the urges
already sent, decrypting each once, in batches.

The rules are written out here rather than imported, as a migration has to
keep meaning what it meant when it ran: the urge log's "at" is ISO 8601
text (a time without an offset, written before times carried one, is read
on the client's own clock, as their pages read it); contact is True when
the urge says "contact_happened", False when it says who reached out was
"none", and None when it does not say (a blank is not "no contact").
Drafts are left alone, as a draft keeps no plain columns until it is sent.
Going back drops the columns.
"""

import datetime as dt
import zoneinfo
from typing import Any

from django.db import migrations, models

BATCH = 500


def _at(response: dict[str, Any], zone: str) -> dt.datetime | None:
    value = response.get("at")
    if not isinstance(value, str):
        return None
    try:
        at = dt.datetime.fromisoformat(value.strip())
    except ValueError:
        return None
    if at.tzinfo is None:
        try:
            at = at.replace(tzinfo=zoneinfo.ZoneInfo(zone))
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            return None
    return at


def _contact(response: dict[str, Any]) -> bool | None:
    if response.get("contact_happened"):
        return True
    if response.get("contact_initiated_by", "") == "none":
        return False
    return None


def fill_urge_columns(apps: Any, schema_editor: Any) -> None:
    Entry = apps.get_model("homework", "Entry")
    urges = Entry.objects.filter(assignment__exercise__kind="urge_log", status="submitted")
    last_pk = 0
    while True:
        batch = list(
            urges.filter(pk__gt=last_pk)
            .order_by("pk")
            .select_related("assignment__client")
            .only("pk", "response", "assignment__client__timezone")[:BATCH]
        )
        if not batch:
            return
        for entry in batch:
            response = entry.response if isinstance(entry.response, dict) else {}
            entry.happened_at = _at(response, entry.assignment.client.timezone)
            entry.contact_happened = _contact(response)
        Entry.objects.bulk_update(batch, ["happened_at", "contact_happened"])
        last_pk = batch[-1].pk


class Migration(migrations.Migration):
    dependencies = [
        ("homework", "0026_prepared_download"),
    ]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="contact_happened",
            field=models.BooleanField(
                blank=True, editable=False, null=True, verbose_name="contact happened"
            ),
        ),
        migrations.AddField(
            model_name="entry",
            name="happened_at",
            field=models.DateTimeField(
                blank=True, editable=False, null=True, verbose_name="happened"
            ),
        ),
        migrations.RunPython(fill_urge_columns, migrations.RunPython.noop),
    ]
