"""Model fields that keep what clients write encrypted at rest.

A value is sealed as a Fernet token (AES-128-CBC with an HMAC-SHA256, so a
changed or foreign value is refused, never read as something else) with the
first of ``settings.FIELD_ENCRYPTION_KEYS``, and opened with whichever of
them fits (``MultiFernet``). The database, its backups and its logs hold
only tokens; the keys live in the environment, apart from them.

The database cannot compare what it cannot read: a filter on one of these
fields other than ``isnull`` raises at once rather than quietly matching
nothing. What SQL filters or orders on (dates, flags, scores) stays in plain
columns beside them.
"""

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
    """A stored value that none of the keys opens: its key was dropped from
    the list, or the value was changed in the database. Never shown as text."""


class Codec(Protocol):
    def encrypt(self, data: bytes) -> bytes: ...

    def decrypt(self, token: bytes) -> bytes: ...

    def rotate(self, token: bytes) -> bytes: ...


_codec: Codec | None = None


def codec() -> Codec:
    """The keys of the settings, built once per process (a Fernet key is used
    as it is: no derivation to pay for at start-up or per value)."""
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
    """The text sealed in ``token``, or UnreadableValue naming ``where`` (a
    table and column: never the value)."""
    try:
        return codec().decrypt(token.encode("ascii")).decode("utf-8")
    except (InvalidToken, UnicodeError):
        raise UnreadableValue(
            f"A value in {where} cannot be opened with any key in FIELD_ENCRYPTION_KEYS: the key "
            "it was written with is missing from the list, or the value was changed outside "
            "the application."
        ) from None


# Who is told each time code reads a decrypted value off a model (None: nobody).
_reader: ContextVar[Callable[[models.Model], None] | None] = ContextVar(
    "encrypted_value_reader", default=None
)


@contextmanager
def reads_told_to(reader: Callable[[models.Model], None]) -> Iterator[None]:
    """Call ``reader`` with the model instance each time a decrypted value is
    read off one, for as long as this lasts (clients.services.access_log
    notes a look at a client's words this way)."""
    token = _reader.set(reader)
    try:
        yield
    finally:
        _reader.reset(token)


class ReadIsTold(DeferredAttribute):
    """The attribute of an encrypted field: reading it is where a person's
    words are handed to code, so the reader in force (reads_told_to) hears
    of it there, whichever page, list or export is reading."""

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
    """What the two encrypted fields share: sealing on the way in, opening
    on the way out, and no comparison in SQL."""

    descriptor_class = ReadIsTold

    # Provided by models.Field, which each field below also derives from.
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
    # A str (bytes) in and out, as the fields they replace (the stubs' generic
    # parameters; Django's own classes take none at run time).
    _TextField = models.TextField[str | Combinable, str]
    _BinaryField = models.BinaryField[bytes | Combinable | None, bytes | None]
else:
    _TextField = models.TextField
    _BinaryField = models.BinaryField


class EncryptedTextField(_Encrypted, _TextField):
    """A TextField whose column holds a Fernet token."""

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
    """A JSONField whose column is text holding a Fernet token of the JSON.

    The whole document is sealed as one, so neither its keys nor its shape
    (how many people on a map, which flags a worksheet asks) show in SQL.
    """

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
        # The column is plain text, whatever JSONField would cast on a
        # database with a native JSON type.
        return models.Field.select_format(self, compiler, sql, params)


class EncryptedBinaryField(_Encrypted, _BinaryField):
    """A BinaryField whose column holds a Fernet token of the bytes (a
    client's prepared PDF): sealed and opened here, rotated with the rest."""

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
    """Whether a stored value is a token some key opens (the migrations use
    it to leave alone a row already done, so running them again is safe)."""
    try:
        codec().decrypt(stored.encode("ascii"))
    except (InvalidToken, UnicodeError):
        return False
    return True


BATCH = 500


def rewrite_column(connection: BaseDatabaseWrapper, table: str, column: str, rewrite: Any) -> int:
    """Rewrite every non-null value of a column, a batch of rows at a time,
    by raw SQL (a migration's historical model already reads the column as
    encrypted). ``rewrite`` returns the new value, or None to leave one as
    it is. Returns how many rows changed. Atomic only inside the caller's
    transaction: the migrations and rotate_field_keys run it in one.

    The site may be running meanwhile (rotate_field_keys), so a client's
    autosave can land between the read and the write: each row is written
    only if it still holds the value read, else read again and rewritten
    from what it holds now, never from the older text."""
    quote = connection.ops.quote_name
    # Where the database can, the rows read are locked until the caller's
    # transaction ends, so a save waits rather than racing the rewrite.
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    # Table and column names come from our own models, quoted; values are parameters.
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
    """Write one row's new value if it still holds ``old``; if a save came
    in between, start again from the value it holds now. 1 if it changed."""
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
    """A migration step that encrypts the plain values of (table, column)s;
    a value already sealed is left, so the step is safe to run again."""

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
    """The reverse of encrypt_columns: the values in plain text again (JSON
    columns as their JSON text). A value no key opens stops the migration."""

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
    """Every (table, column) an encrypted field keeps, in the apps' order."""
    return [
        (model._meta.db_table, field.column)
        for model in registry.get_models()
        for field in model._meta.concrete_fields
        if isinstance(field, _Encrypted) and not model._meta.proxy
    ]
