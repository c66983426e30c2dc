"""The standard measures (PHQ-9, GAD-7) join the library, and an entry
keeps whether an answer asks for the therapist's review; work may repeat
every two weeks (the measures' usual rhythm).

``install`` adds only exercises whose title is not taken: a practice that
already has an exercise called "PHQ-9" keeps its own.
"""

from typing import Any

from django.db import migrations, models


def install_measures(apps: Any, schema_editor: Any) -> None:
    from homework.library import install

    install(apps.get_model("homework", "Exercise"))


class Migration(migrations.Migration):
    dependencies = [("homework", "0020_client_words_sealed")]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="needs_review",
            field=models.BooleanField(
                default=False, editable=False, verbose_name="an answer to review"
            ),
        ),
        migrations.AlterField(
            model_name="assignment",
            name="schedule",
            field=models.CharField(
                choices=[
                    ("once", "Once"),
                    ("daily", "Every day"),
                    ("weekly", "Weekly"),
                    ("fortnightly", "Every two weeks"),
                ],
                default="once",
                max_length=16,
                verbose_name="schedule",
            ),
        ),
        migrations.RunPython(install_measures, migrations.RunPython.noop),
    ]
