"""Crisis lines for clients who read Spanish come with the practice, as the English ones do. A
practice still showing the lines we shipped, with none of its own in Spanish, gets ours in Spanish;
one that wrote its own keeps them as they are."""

from typing import Any

from django.db import migrations, models

import practice.models


def spanish_lines(apps: Any, schema_editor: Any) -> None:
    settings = apps.get_model("practice", "PracticeSettings")
    for row in settings.objects.filter(crisis_resources=practice.models.DEFAULT_CRISIS_RESOURCES):
        by_language = dict(row.crisis_resources_by_language or {})
        for language, lines in practice.models.DEFAULT_CRISIS_RESOURCES_IN.items():
            if not str(by_language.get(language, "")).strip():
                by_language[language] = lines
        row.crisis_resources_by_language = by_language
        row.save(update_fields=["crisis_resources_by_language"])


class Migration(migrations.Migration):
    dependencies = [("practice", "0015_reminder_words_by_language")]

    operations = [
        migrations.AlterField(
            model_name="practicesettings",
            name="crisis_resources_by_language",
            field=models.JSONField(
                blank=True,
                default=practice.models.default_crisis_resources_by_language,
                verbose_name="crisis resources in other languages",
            ),
        ),
        migrations.RunPython(spanish_lines, migrations.RunPython.noop),
    ]
