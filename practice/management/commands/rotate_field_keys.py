"""Re-encrypt with the first key in one transaction: a value no key opens changes nothing."""

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
                            return cipher.rotate(bytes(old))
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
