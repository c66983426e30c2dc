"""Stored files of what clients wrote, encrypted with the field keys (practice.encryption)."""

import os
from collections.abc import Callable, Iterator

from cryptography.fernet import InvalidToken
from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import FileSystemStorage, Storage, storages

from practice.encryption import UnreadableValue, codec


def encrypted_file_save(*, storage: Storage, name: str, content: bytes) -> str:
    return storage.save(name, ContentFile(codec().encrypt(content)))


def encrypted_file_read(*, storage: Storage, name: str) -> bytes:
    with storage.open(name, "rb") as stored:
        token = stored.read()
    try:
        return codec().decrypt(token)
    except InvalidToken:
        raise UnreadableValue(
            f"The stored file {name} cannot be opened with any key in FIELD_ENCRYPTION_KEYS."
        ) from None


def encrypted_storages() -> dict[str, Storage]:
    return {alias: storages[alias] for alias in settings.ENCRYPTED_STORAGES}


def stored_files(storage: Storage, folder: str = "") -> Iterator[str]:
    try:
        folders, files = storage.listdir(folder)
    except FileNotFoundError:
        return
    prefix = f"{folder}/" if folder else ""
    for name in files:
        yield f"{prefix}{name}"
    for inner in folders:
        yield from stored_files(storage, f"{prefix}{inner}")


def unreadable_files(storage: Storage) -> int:
    count = 0
    for name in stored_files(storage):
        try:
            encrypted_file_read(storage=storage, name=name)
        except UnreadableValue:
            count += 1
        except FileNotFoundError:
            continue
    return count


def encrypted_files_rotate(storage: Storage) -> int:
    def rotated(token: bytes) -> bytes | None:
        try:
            return codec().rotate(token)
        except InvalidToken:
            return None

    return sum(file_rewrite(storage, name, rotated) for name in stored_files(storage))


def plain_files_encrypt(storage: Storage) -> int:
    """A migration's step, safe to run again: a file some key opens is left as it is."""

    def encrypted(content: bytes) -> bytes | None:
        try:
            codec().decrypt(content)
        except InvalidToken:
            return codec().encrypt(content)
        return None

    return sum(file_rewrite(storage, name, encrypted) for name in stored_files(storage))


def plain_files_decrypt(storage: Storage) -> int:
    return sum(
        file_rewrite(storage, name, lambda token: codec().decrypt(token))
        for name in stored_files(storage)
    )


def file_rewrite(storage: Storage, name: str, change: Callable[[bytes], bytes | None]) -> bool:
    """Locally in place: the purge goes by modified time, and a deleted file stays deleted."""
    if not isinstance(storage, FileSystemStorage):
        if not storage.exists(name):
            return False
        with storage.open(name, "rb") as stored:
            new = change(stored.read())
        if new is None:
            return False
        storage.delete(name)
        storage.save(name, ContentFile(new))
        return True
    try:
        handle = open(storage.path(name), "r+b")  # noqa: SIM115 (closed below, after its times are set)
    except FileNotFoundError:
        return False
    with handle:
        times = os.fstat(handle.fileno())
        new = change(handle.read())
        if new is None:
            return False
        handle.seek(0)
        handle.write(new)
        handle.truncate()
        handle.flush()
        os.utime(handle.fileno(), ns=(times.st_atime_ns, times.st_mtime_ns))
    return True
