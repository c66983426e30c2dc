from django.db import migrations


def create_settings_row(apps, schema_editor):
    apps.get_model("practice", "PracticeSettings").objects.get_or_create(pk=1)


class Migration(migrations.Migration):
    dependencies = [("practice", "0001_initial")]

    operations = [migrations.RunPython(create_settings_row, migrations.RunPython.noop)]
