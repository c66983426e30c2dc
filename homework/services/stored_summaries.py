"""A write that changes or takes back a client's words leaves no copy in a stored summary."""

import logging

from django.core.files.storage import Storage, storages

logger = logging.getLogger(__name__)

STORAGE_ALIAS = "summaries"


def summary_storage() -> Storage:
    return storages[STORAGE_ALIAS]


def summary_forget(*, client_id: int) -> int:
    storage = summary_storage()
    removed = 0
    try:
        periods, _ = storage.listdir(str(client_id))
    except FileNotFoundError:
        return 0
    for period_folder in periods:
        folder = f"{client_id}/{period_folder}"
        _, files = storage.listdir(folder)
        for filename in files:
            storage.delete(f"{folder}/{filename}")
            removed += 1
        folder_remove(storage, folder)
    # The folders' names alone say who had sessions when.
    if not folder_remove(storage, str(client_id)):
        logger.warning("A client's summaries folder filled again as it was emptied; swept later.")
    return removed


def folder_remove(storage: Storage, folder: str) -> bool:
    """Where the storage has folders; one a render has just written into again stays."""
    try:
        storage.delete(folder)
    except OSError:
        return False
    return True
