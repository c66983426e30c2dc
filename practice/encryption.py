"""Model fields that keep what clients write encrypted at rest; SQL can only test isnull."""

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, Protocol

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from django.conf import settings
from django.core.exceptions import FieldError
from django.core.signals import setting_changed
from django.db import models
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models.expressions import Combinable
from django.db.models.query_utils import DeferredAttribute
from django.dispatch import receiver


class UnreadableValue(Exception):
    """A stored value that none of the keys opens."""


class Codec(Protocol):
    def encrypt(self, data: bytes) -> bytes: ...

    def decrypt(self, token: bytes) -> bytes: ...

    def rotate(self, token: bytes) -> bytes: ...


_codec: Codec | None = None


def codec() -> Codec:
    global _codec
    if _codec is None:
        _codec = MultiFernet(
            [Fernet(key.encode("ascii")) for key in settings.FIELD_ENCRYPTION_KEYS]
        )
    return _codec


@receiver(setting_changed)
def _forget_keys(*, setting: str, **kwargs: Any) -> None:
    global _codec
    if setting == "FIELD_ENCRYPTION_KEYS":
        _codec = None


def encrypt_text(text: str) -> str:
    return codec().encrypt(text.encode("utf-8")).decode("ascii")


def decrypt_text(token: str, *, where: str) -> str:
    try:
        return codec().decrypt(token.encode("ascii")).decode("utf-8")
    except (InvalidToken, UnicodeError):
        raise UnreadableValue(
            f"A value in {where} cannot be opened with any key in FIELD_ENCRYPTION_KEYS: the key "
            "it was written with is missing from the list, or the value was changed outside "
            "the application."
        ) from None


_reader: ContextVar[Callable[[models.Model], None] | None] = ContextVar(
    "encrypted_value_reader", default=None
)


@contextmanager
def reads_told_to(reader: Callable[[models.Model], None]) -> Iterator[None]:
    """Call ``reader`` with each instance a decrypted value is read off (the access log)."""
    token = _reader.set(reader)
    try:
        yield
    finally:
        _reader.reset(token)


class ReadIsTold(DeferredAttribute):
    """Reading the attribute is where words reach code, whichever page reads them."""

    def __get__(self, instance: Any, cls: Any = None) -> Any:
        value = super().__get__(instance, cls)
        if instance is not None:
            reader = _reader.get()
            if reader is not None:
                reader(instance)
        return value

    def __set__(self, instance: Any, value: Any) -> None:
        # A data descriptor, so a loaded value is still read through __get__.
        instance.__dict__[self.field.attname] = value


class _Encrypted:
    descriptor_class = ReadIsTold

    model: type[models.Model]
    column: str
    name: str

    def _where(self) -> str:
        return f"{self.model._meta.db_table}.{self.column}"

    def get_lookup(self, lookup_name: str) -> Any:
        if lookup_name == "isnull":
            return super().get_lookup(lookup_name)  # type: ignore[misc]
        raise FieldError(
            f"{self.name} is stored encrypted, so the database cannot compare it "
            f"(__{lookup_name}): filter on a plain column, or in Python after reading."
        )

    def get_transform(self, lookup_name: str) -> Any:
        raise FieldError(
            f"{self.name} is stored encrypted, so the database cannot look inside it "
            f"(__{lookup_name})."
        )


if TYPE_CHECKING:
    # The stubs' generic parameters; Django's own classes take none at run time.
    _TextField = models.TextField[str | Combinable, str]
    _BinaryField = models.BinaryField[bytes | Combinable | None, bytes | None]
else:
    _TextField = models.TextField
    _BinaryField = models.BinaryField


class EncryptedTextField(_Encrypted, _TextField):
    def get_db_prep_value(
        self, value: Any, connection: BaseDatabaseWrapper, prepared: bool = False
    ) -> Any:
        value = super().get_db_prep_value(value, connection, prepared)
        if value is None or hasattr(value, "as_sql"):
            return value
        return encrypt_text(str(value))

    def from_db_value(self, value: Any, expression: Any, connection: BaseDatabaseWrapper) -> Any:
        if value is None:
            return value
        return decrypt_text(value, where=self._where())


class EncryptedJSONField(_Encrypted, models.JSONField):
    """Sealed whole, so neither its keys nor its shape show in SQL."""

    def get_internal_type(self) -> str:
        return "TextField"

    def get_db_prep_value(
        self, value: Any, connection: BaseDatabaseWrapper, prepared: bool = False
    ) -> Any:
        if not prepared:
            value = self.get_prep_value(value)
        if value is None or hasattr(value, "as_sql"):
            return value
        return encrypt_text(json.dumps(value, cls=self.encoder))

    def from_db_value(self, value: Any, expression: Any, connection: BaseDatabaseWrapper) -> Any:
        if value is None:
            return value
        return json.loads(decrypt_text(value, where=self._where()), cls=self.decoder)

    def select_format(self, compiler: Any, sql: str, params: Any) -> Any:
        # The column is plain text, whatever JSONField would cast.
        return models.Field.select_format(self, compiler, sql, params)


class EncryptedBinaryField(_Encrypted, _BinaryField):
    def get_db_prep_value(
        self, value: Any, connection: BaseDatabaseWrapper, prepared: bool = False
    ) -> Any:
        if value is not None and not hasattr(value, "as_sql"):
            value = codec().encrypt(bytes(value))
        return super().get_db_prep_value(value, connection, prepared)

    def from_db_value(self, value: Any, expression: Any, connection: BaseDatabaseWrapper) -> Any:
        if value is None:
            return value
        try:
            return codec().decrypt(bytes(value))
        except InvalidToken:
            raise UnreadableValue(
                f"A value in {self._where()} cannot be opened with any key in "
                "FIELD_ENCRYPTION_KEYS."
            ) from None


def is_encrypted(stored: str) -> bool:
    """The migrations leave a row already done alone, so running them again is safe."""
    try:
        codec().decrypt(stored.encode("ascii"))
    except (InvalidToken, UnicodeError):
        return False
    return True


BATCH = 500


def rewrite_column(connection: BaseDatabaseWrapper, table: str, column: str, rewrite: Any) -> int:
    """Written only where a row still holds the value read, so a concurrent save is kept."""
    quote = connection.ops.quote_name
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    select = (
        f"SELECT id, {quote(column)} FROM {quote(table)} "  # noqa: S608  # nosec B608 (quoted model names)
        f"WHERE id > %s AND {quote(column)} IS NOT NULL ORDER BY id LIMIT {BATCH}{lock}"
    )
    reread = f"SELECT {quote(column)} FROM {quote(table)} WHERE id = %s{lock}"  # noqa: S608  # nosec B608 (quoted model names)
    update = (
        f"UPDATE {quote(table)} SET {quote(column)} = %s "  # noqa: S608  # nosec B608 (quoted model names)
        f"WHERE id = %s AND {quote(column)} = %s"
    )
    changed, last = 0, 0
    with connection.cursor() as cursor:
        while True:
            cursor.execute(select, [last])
            rows = cursor.fetchall()
            if not rows:
                return changed
            for pk, old in rows:
                changed += _rewrite_row(cursor, reread, update, pk, old, rewrite)
            last = rows[-1][0]


def _rewrite_row(
    cursor: Any, reread: str, update: str, pk: Any, old: str | None, rewrite: Any
) -> int:
    while old is not None:
        value = rewrite(old)
        if value is None:
            return 0
        cursor.execute(update, [value, pk, old])
        if cursor.rowcount:
            return 1
        cursor.execute(reread, [pk])
        row = cursor.fetchone()
        old = row[0] if row else None
    return 0


def encrypt_columns(*columns: tuple[str, str]) -> Any:
    def step(apps: Any, schema_editor: Any) -> None:
        for table, column in columns:
            rewrite_column(
                schema_editor.connection,
                table,
                column,
                lambda old: None if is_encrypted(old) else encrypt_text(old),
            )

    return step


def decrypt_columns(*columns: tuple[str, str]) -> Any:
    def step(apps: Any, schema_editor: Any) -> None:
        for table, column in columns:
            where = f"{table}.{column}"
            rewrite_column(
                schema_editor.connection,
                table,
                column,
                lambda old, where=where: decrypt_text(old, where=where),
            )

    return step


def encrypted_columns(registry: Any) -> list[tuple[str, str]]:
    return [
        (model._meta.db_table, field.column)
        for model in registry.get_models()
        for field in model._meta.concrete_fields
        if isinstance(field, _Encrypted) and not model._meta.proxy
    ]
