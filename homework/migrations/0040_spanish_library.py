"""The library in Spanish joins it: each exercise linked to the English one it gives, and the
ready-made programs built from the Spanish exercises. As with every library migration, a title
already taken is left as the practice has it, and going back leaves the rows."""

from typing import Any

from django.db import migrations


def install_spanish(apps: Any, schema_editor: Any) -> None:
    from homework.library import install_translations
    from homework.library.es import PROGRAMS
    from homework.library.programs import install_programs

    exercise = apps.get_model("homework", "Exercise")
    install_translations(exercise)
    install_programs(
        apps.get_model("homework", "Program"),
        apps.get_model("homework", "ProgramStep"),
        exercise,
        programs=PROGRAMS,
        language="es",
    )


class Migration(migrations.Migration):
    dependencies = [("homework", "0039_exercise_language")]

    operations = [migrations.RunPython(install_spanish, migrations.RunPython.noop)]
