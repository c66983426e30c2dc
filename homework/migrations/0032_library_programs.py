"""The two ready-made programs join the library (homework.library.programs)."""

from typing import Any

from django.db import migrations


def install(apps: Any, schema_editor: Any) -> None:
    from homework.library.programs import install_programs

    install_programs(
        apps.get_model("homework", "Program"),
        apps.get_model("homework", "ProgramStep"),
        apps.get_model("homework", "Exercise"),
    )


class Migration(migrations.Migration):
    dependencies = [("homework", "0031_programs")]

    operations = [migrations.RunPython(install, migrations.RunPython.noop)]
