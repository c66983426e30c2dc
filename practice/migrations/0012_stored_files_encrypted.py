"""Encrypt the files stored before stored files were encrypted (the session
summaries under var/summaries): each is rewritten in place, a file already
encrypted left as it is, so the step is safe to run again."""

from typing import Any

from django.db import migrations

from practice.encrypted_files import encrypted_storages, plain_files_decrypt, plain_files_encrypt


def encrypt(apps: Any, schema_editor: Any) -> None:
    for storage in encrypted_storages().values():
        plain_files_encrypt(storage)


def decrypt(apps: Any, schema_editor: Any) -> None:
    for storage in encrypted_storages().values():
        plain_files_decrypt(storage)


class Migration(migrations.Migration):
    dependencies = [
        ("practice", "0011_user_two_step_reset_at"),
    ]

    operations = [migrations.RunPython(encrypt, decrypt, elidable=False)]
