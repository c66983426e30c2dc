"""The weekly check-in's instructions, without "the total".

They told the client that "the total takes care of" the reversed question:
words that make answers sound added up into a grade, which the portal
never shows a client as one. Rows still holding the library's old words
exactly get the new ones; a practice's own edits are left as they are.
"""

from typing import Any

from django.db import migrations

TITLE = "Weekly check-in: pull and clarity"
OPENING = (
    "Once a week, take two minutes to check in with yourself. There are no right answers, "
    "and this isn't a test or a diagnosis. It's a way for you and your therapist to notice, "
    "over the weeks, how things are moving.\n\n"
)
BEFORE = (
    OPENING + "For the pull back, a lower number means an easier week; the total takes care of "
    "that, so just answer honestly."
)
AFTER = (
    OPENING + "For the pull back, a lower number means an easier week. Answer each one as the "
    "week really was."
)


def without_a_total(apps: Any, schema_editor: Any) -> None:
    exercise = apps.get_model("homework", "Exercise")
    exercise.objects.filter(owner__isnull=True, title=TITLE, instructions=BEFORE).update(
        instructions=AFTER
    )


class Migration(migrations.Migration):
    dependencies = [("homework", "0012_entry_changed_at")]

    operations = [migrations.RunPython(without_a_total, migrations.RunPython.noop)]
