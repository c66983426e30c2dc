"""The ready-made exercise library (homework/library/).

Adds only exercises whose title is not taken, so running it against a
practice that already has (or has edited) these exercises changes nothing.
"""

from django.db import migrations


def install_library(apps, schema_editor):
    from homework.library import install

    install(apps.get_model("homework", "Exercise"))


class Migration(migrations.Migration):
    dependencies = [
        ("homework", "0004_entrynote"),
    ]

    operations = [
        migrations.RunPython(install_library, migrations.RunPython.noop),
    ]
