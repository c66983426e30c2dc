"""Re-encrypt everything clients wrote with the first of FIELD_ENCRYPTION_KEYS:
every encrypted column, and every file of the encrypted storages
(settings.ENCRYPTED_STORAGES: the stored session summaries).

    python manage.py rotate_field_keys

To change the key: put a new key first in FIELD_ENCRYPTION_KEYS, keeping
the old one after it, restart, run this, then drop the old key. All in one
transaction: if any value opens with none of the keys (a key already
dropped from the list), the command says where and how many, and changes
nothing.
"""

from typing import Any

from cryptography.fernet import InvalidToken
from django.apps import apps
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction

from practice.encrypted_files import encrypted_files_rotate, encrypted_storages, unreadable_files
from practice.encryption import codec, encrypted_columns, rewrite_column


class Command(BaseCommand):
    help = "Re-encrypt every encrypted column with the first key of FIELD_ENCRYPTION_KEYS."

    def handle(self, *args: Any, **options: Any) -> None:
        cipher = codec()
        unreadable: dict[str, int] = {}
        done: dict[str, int] = {}
        try:
            with transaction.atomic():
                for table, column in encrypted_columns(apps):
                    where = f"{table}.{column}"

                    def rotated(old: str | bytes, where: str = where) -> str | bytes | None:
                        try:
                            if isinstance(old, str):
                                return cipher.rotate(old.encode("ascii")).decode("ascii")
                            return cipher.rotate(bytes(old))  # a binary column's token
                        except (InvalidToken, UnicodeError):
                            unreadable[where] = unreadable.get(where, 0) + 1
                            return None

                    done[where] = rewrite_column(connection, table, column, rotated)
                files = encrypted_storages()
                for alias, storage in files.items():
                    if count := unreadable_files(storage):
                        unreadable[f"storage {alias}"] = count
                if unreadable:
                    raise _Unreadable
                # Last, once nothing is refused: a file is not rolled back.
                for alias, storage in files.items():
                    done[f"storage {alias}"] = encrypted_files_rotate(storage)
        except _Unreadable:
            counts = ", ".join(
                f"{where}: {n} {'file(s)' if where.startswith('storage ') else 'row(s)'}"
                for where, n in unreadable.items()
            )
            raise CommandError(
                f"Nothing was changed: some values open with none of the keys in "
                f"FIELD_ENCRYPTION_KEYS ({counts}). Put back the key they were written with "
                "(after the new one) and run this again."
            ) from None
        for where, n in done.items():
            what = "file(s)" if where.startswith("storage ") else "value(s)"
            self.stdout.write(f"{where}: {n} {what} re-encrypted with the first key.")


class _Unreadable(Exception):
    """Raised inside the transaction so that it rolls back."""
