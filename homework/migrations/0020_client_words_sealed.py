# What clients wrote, encrypted in place (practice.encryption). Apart from
# 0019, which changes the columns' types: on PostgreSQL, undoing both in one
# transaction would alter a table with the rows just rewritten still pending.

from django.db import migrations

from practice.encryption import decrypt_columns, encrypt_columns

COLUMNS = (
    ("homework_entry", "response"),
    ("homework_entry", "note_draft"),
    ("homework_entrynote", "text"),
    ("homework_entrycomment", "text"),
)


class Migration(migrations.Migration):

    dependencies = [
        ("homework", "0019_client_words_encrypted"),
    ]

    operations = [
        migrations.RunPython(encrypt_columns(*COLUMNS), decrypt_columns(*COLUMNS), elidable=False),
    ]
