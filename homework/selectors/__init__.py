"""Reads of homework, always scoped by the acting user.

Staff see through ``clients_for_user``; a client sees only their own
records. Nothing here fetches clinical data by id alone. One module per
audience: ``scoping`` (the querysets every read starts from), ``portal``
(a client's own homework) and ``workspace`` (the therapist's admin).
"""

from homework.selectors.portal import (
    client_today,
    drafts_for_client,
    entries_for_export,
    history_for_client,
    last_sent_entry,
    open_draft,
    portal_assignment,
    portal_entry,
    portal_entry_with_notes,
    progress_for_client,
    recent_comments_for_client,
    recent_entries_for_client,
    sent_for_slot,
    todo_for_client,
)
from homework.selectors.scoping import (
    assignments_for_user,
    entries_for_user,
    entry_readable_by_staff,
    exercises_for_user,
    flags_first,
)
from homework.selectors.workspace import (
    HOME_LIST_LIMIT,
    NEW_WITHOUT_PREVIOUS_VISIT,
    UNSAFE_FLAG_WINDOW,
    Completion,
    Progress,
    SinceLastSession,
    StaffHome,
    completion,
    entry_commentable_by,
    one_off_state,
    overdue,
    pending_notification_ids,
    since_last_session,
    staff_client,
    staff_entry,
    staff_home,
    with_progress,
)

__all__ = [
    "HOME_LIST_LIMIT",
    "NEW_WITHOUT_PREVIOUS_VISIT",
    "UNSAFE_FLAG_WINDOW",
    "Completion",
    "Progress",
    "SinceLastSession",
    "StaffHome",
    "assignments_for_user",
    "client_today",
    "completion",
    "drafts_for_client",
    "entries_for_export",
    "entries_for_user",
    "entry_commentable_by",
    "entry_readable_by_staff",
    "exercises_for_user",
    "flags_first",
    "history_for_client",
    "last_sent_entry",
    "one_off_state",
    "open_draft",
    "overdue",
    "pending_notification_ids",
    "portal_assignment",
    "portal_entry",
    "portal_entry_with_notes",
    "progress_for_client",
    "recent_comments_for_client",
    "recent_entries_for_client",
    "sent_for_slot",
    "since_last_session",
    "staff_client",
    "staff_entry",
    "staff_home",
    "todo_for_client",
    "with_progress",
]
