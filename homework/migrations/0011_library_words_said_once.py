"""The library's own words, where the portal already says them under the kind.

The safety plan's advice about a shared device and the map's "a first name
or a nickname" were both in the library's instructions and in the kind's own
help just below them: the client read them twice in a row. Rows still
holding the library's old words exactly get the new ones; a practice's own
edits are left as they are.
"""

from typing import Any

from django.db import migrations

BEFORE = {
    "Who is in my corner": (
        "Think of the people who are on your side, even a little, and put the closest in the "
        "middle. For each one, note what they give you: a reality check when the good memories "
        "take over, warmth and comfort, practical help, or that they know the real story.\n\n"
        "Notice, too, whether time with them leaves you steadier. Some people love us and still "
        "leave us more anxious, and that's worth knowing.\n\n"
        "Add groups, places and services as well: a class, a helpline, a library, a support "
        "group. A first name or a nickname is all you need."
    ),
    "My safety plan": (
        "This is a plan for a moment you hope never comes. We'll fill it in together in a "
        "session, and you can add to it whenever you like.\n\n"
        "If someone else might look at this device, keep your answers short, use words only "
        "you understand, or tick “Keep this private”."
    ),
}
AFTER = {
    "Who is in my corner": BEFORE["Who is in my corner"].replace(
        " A first name or a nickname is all you need.", ""
    ),
    "My safety plan": BEFORE["My safety plan"].split("\n\n")[0],
}


def say_it_once(apps: Any, schema_editor: Any) -> None:
    exercise = apps.get_model("homework", "Exercise")
    for title, before in BEFORE.items():
        exercise.objects.filter(owner__isnull=True, title=title, instructions=before).update(
            instructions=AFTER[title]
        )


class Migration(migrations.Migration):
    dependencies = [("homework", "0010_entry_notify_attempts")]

    operations = [migrations.RunPython(say_it_once, migrations.RunPython.noop)]
