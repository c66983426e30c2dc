"""The entries' notification fields go: their notices live in the outbox (0017).

Apart from 0017: PostgreSQL refuses to alter a table in the transaction
that wrote rows referring to it (their foreign keys' checks are pending).
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("homework", "0017_entry_notices_to_the_outbox")]

    operations = [
        migrations.RemoveField(model_name="entry", name="notify_attempts"),
        migrations.RemoveField(model_name="entry", name="notify_given_up_at"),
        migrations.RemoveField(model_name="entry", name="therapist_notified_at"),
    ]
