"""Reads of homework, always scoped by the acting user.

Staff see through ``clients_for_user``; a client sees only their own
records. Nothing here fetches clinical data by id alone. One module per
audience: ``scoping`` (the querysets every read starts from), ``portal``
(a client's own homework), ``workspace`` (the therapist's admin) and
``progress`` (where each assignment stands, for the admin and the summary)
and ``outbox`` (messages waiting to be sent, for the workers).
"""

from homework.schedules import Progress
from homework.selectors.outbox import pending_notification_ids
from homework.selectors.portal import (
    Todo,
    assignments_for_export,
    client_today,
    drafts_for_client,
    entries_for_export,
    history_for_client,
    last_sent_entry,
    open_draft,
    portal_assignment,
    portal_entry_with_notes,
    progress_for_client,
    recent_comments_for_client,
    recent_entries_for_client,
    sent_count,
    sent_for_slot,
    todo_for_client,
)
from homework.selectors.progress import (
    AssignmentProgress,
    completion,
    is_overdue,
    one_off_progress,
    open_work,
    overdue,
    overdue_exactly,
    with_open_work,
    with_progress,
)
from homework.selectors.scoping import (
    assignments_for_user,
    entries_for_user,
    entry_readable_by_staff,
    exercises_for_user,
    flags_first,
    known_after,
    known_by,
)
from homework.selectors.workspace import (
    HOME_LIST_LIMIT,
    NEW_WITHOUT_PREVIOUS_VISIT,
    UNSAFE_FLAG_WINDOW,
    SinceLastSession,
    StaffHome,
    entry_commentable_by,
    felt_unsafe_lately,
    new_entries,
    new_since_for,
    since_last_session,
    staff_client,
    staff_entry,
    staff_home,
)

__all__ = [
    "HOME_LIST_LIMIT",
    "NEW_WITHOUT_PREVIOUS_VISIT",
    "UNSAFE_FLAG_WINDOW",
    "AssignmentProgress",
    "Progress",
    "SinceLastSession",
    "StaffHome",
    "Todo",
    "assignments_for_export",
    "assignments_for_user",
    "client_today",
    "completion",
    "drafts_for_client",
    "entries_for_export",
    "entries_for_user",
    "entry_commentable_by",
    "entry_readable_by_staff",
    "exercises_for_user",
    "felt_unsafe_lately",
    "flags_first",
    "history_for_client",
    "is_overdue",
    "known_after",
    "known_by",
    "last_sent_entry",
    "new_entries",
    "new_since_for",
    "one_off_progress",
    "open_draft",
    "open_work",
    "overdue",
    "overdue_exactly",
    "pending_notification_ids",
    "portal_assignment",
    "portal_entry_with_notes",
    "progress_for_client",
    "recent_comments_for_client",
    "recent_entries_for_client",
    "sent_count",
    "sent_for_slot",
    "since_last_session",
    "staff_client",
    "staff_entry",
    "staff_home",
    "todo_for_client",
    "with_open_work",
    "with_progress",
]
