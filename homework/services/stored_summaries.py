"""Where summary PDFs are kept, and forgetting a client's: a write that
changes or takes back a client's words (entry_writes, erasure) must leave no
copy of them in a stored summary.

The summary's own services (homework.summary.services) render and store the
files; this is the part the writes below them need.
"""

import logging

from django.core.files.storage import Storage, storages

logger = logging.getLogger(__name__)

STORAGE_ALIAS = "summaries"


def summary_storage() -> Storage:
    return storages[STORAGE_ALIAS]


def summary_forget(*, client_id: int) -> int:
    """Delete every stored summary of a client: they have changed or taken
    back words a stored file may hold, and such a file must not outlive
    that until the purge. The next download renders afresh. Returns how
    many went."""
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
    """Remove an emptied folder where the storage has folders (a local
    disk); one a render has just written into again stays. Whether it went."""
    try:
        storage.delete(folder)
    except OSError:
        return False
    return True
