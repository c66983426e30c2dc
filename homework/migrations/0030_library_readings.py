"""The library's readings join it: eight short texts, each with a few optional
reflection prompts.

``install`` adds only exercises whose title is not taken: a practice that
already has an exercise by one of these names keeps its own, and nothing
else in the library is touched. Going back leaves the rows: by then they
are the practice's, and work may already be set with them.
"""

from typing import Any

from django.db import migrations


def install_readings(apps: Any, schema_editor: Any) -> None:
    from homework.library import install

    install(apps.get_model("homework", "Exercise"))


class Migration(migrations.Migration):
    dependencies = [("homework", "0029_check_in_watches_safety")]

    operations = [migrations.RunPython(install_readings, migrations.RunPython.noop)]
