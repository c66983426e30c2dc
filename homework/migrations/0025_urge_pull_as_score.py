"""Each urge log entry keeps its pull (0–10) as its score, a plain column.

The caseload's urge trend read every urge of the last four weeks and
decrypted each one's response for one number; new entries now keep it on
Entry.score as they are sent or changed (UrgeLog.score). This fills it for
the urges already sent, decrypting each once, in batches. A pull left
blank stays None: a blank is not a 0.

The rule is written out here rather than imported, as a migration has to
keep meaning what it meant when it ran: the urge log's answer is
"intensity", a whole number from 0 to 10. Going back clears these scores
(no other kind of entry is touched): the code before this kept none.
"""

from typing import Any

from django.db import migrations, models

BATCH = 500


def _pull(response: Any) -> float | None:
    value = response.get("intensity") if isinstance(response, dict) else None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 10:
        return None
    return float(value)


def _urges(apps: Any) -> Any:
    Entry = apps.get_model("homework", "Entry")
    return Entry, Entry.objects.filter(assignment__exercise__kind="urge_log")


def fill_urge_scores(apps: Any, schema_editor: Any) -> None:
    Entry, urges = _urges(apps)
    last_pk = 0
    while True:
        batch = list(urges.filter(pk__gt=last_pk).order_by("pk").only("pk", "response")[:BATCH])
        if not batch:
            return
        for entry in batch:
            entry.score = _pull(entry.response)
        Entry.objects.bulk_update(batch, ["score"])
        last_pk = batch[-1].pk


def clear_urge_scores(apps: Any, schema_editor: Any) -> None:
    _Entry, urges = _urges(apps)
    urges.update(score=None)


class Migration(migrations.Migration):
    dependencies = [
        ("homework", "0024_flag_notices_and_digests"),
    ]

    operations = [
        migrations.AlterField(
            model_name="entry",
            name="score",
            field=models.FloatField(
                blank=True,
                help_text=(
                    "A scored worksheet's total, or an urge's pull (0 to 10), kept so it "
                    "can be charted over time."
                ),
                null=True,
                verbose_name="score",
            ),
        ),
        migrations.RunPython(fill_urge_scores, clear_urge_scores),
    ]
