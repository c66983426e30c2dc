"""Exercises and programs say which language their words are in. Every row so far was written in
English, whatever the practice's language is set to now; new rows take the practice's."""

import django.db.models.deletion
import practice.languages
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("homework", "0038_entry_subscale_scores"),
    ]

    operations = [
        migrations.AddField(
            model_name="exercise",
            name="language",
            field=models.CharField(
                choices=practice.languages.offered_languages,
                default="en-gb",
                help_text="The language its words are written in.",
                max_length=16,
                verbose_name="language",
            ),
        ),
        migrations.AddField(
            model_name="exercise",
            name="translation_of",
            field=models.ForeignKey(
                blank=True,
                help_text="The exercise this one gives in another language.",
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="translations",
                to="homework.exercise",
                verbose_name="a version of",
            ),
        ),
        migrations.AddField(
            model_name="program",
            name="language",
            field=models.CharField(
                choices=practice.languages.offered_languages,
                default="en-gb",
                help_text="The language its steps are written in.",
                max_length=16,
                verbose_name="language",
            ),
        ),
        migrations.AlterField(
            model_name="exercise",
            name="language",
            field=models.CharField(
                choices=practice.languages.offered_languages,
                default=practice.languages.practice_language,
                help_text="The language its words are written in.",
                max_length=16,
                verbose_name="language",
            ),
        ),
        migrations.AlterField(
            model_name="program",
            name="language",
            field=models.CharField(
                choices=practice.languages.offered_languages,
                default=practice.languages.practice_language,
                help_text="The language its steps are written in.",
                max_length=16,
                verbose_name="language",
            ),
        ),
    ]
