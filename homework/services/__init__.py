"""Every write to homework goes through here: keyword-only, atomic, typed."""

from homework.models.field_limits import COMMENT_MAX_CHARS
from homework.services.assignments import (
    ASSIGNMENT_EDITABLE_FIELDS,
    assignment_check_update,
    assignment_create,
    assignment_create_many,
    assignment_end,
    assignment_update,
    exercise_copy,
    exercise_save,
    new_exercise_owner,
)
from homework.services.drafts import entry_save_draft
from homework.services.edits import entry_edit, entry_set_private
from homework.services.entry_writes import (
    EntryConflict,
    EntryLocked,
    EntrySentSince,
    Flags,
    PageSave,
    validation_messages,
)
from homework.services.feedback import (
    entries_mark_read,
    entry_comment_add,
    entry_list_record_view,
    entry_record_view,
    records_record_view,
    since_last_session_record_view,
)
from homework.services.notes import (
    NOTE_MAX_CHARS,
    edit_words,
    entry_add_note,
    entry_keep_note_draft,
    entry_keep_refused_edit,
    note_is_too_long,
    note_with_edit_words,
)
from homework.services.notify import NotificationNotSent, entry_notify_therapist
from homework.services.refused_words import (
    EditTried,
    KeptWords,
    NoteTried,
    entry_add_note_or_keep_words,
    entry_edit_keep_words,
    entry_edit_or_keep_words,
    has_new_words,
)
from homework.services.sending import entry_submit

__all__ = [
    "ASSIGNMENT_EDITABLE_FIELDS",
    "COMMENT_MAX_CHARS",
    "NOTE_MAX_CHARS",
    "EditTried",
    "EntryConflict",
    "EntryLocked",
    "EntrySentSince",
    "Flags",
    "KeptWords",
    "NoteTried",
    "NotificationNotSent",
    "PageSave",
    "assignment_check_update",
    "assignment_create",
    "assignment_create_many",
    "assignment_end",
    "assignment_update",
    "edit_words",
    "entries_mark_read",
    "entry_add_note",
    "entry_add_note_or_keep_words",
    "entry_comment_add",
    "entry_edit",
    "entry_edit_keep_words",
    "entry_edit_or_keep_words",
    "entry_keep_note_draft",
    "entry_keep_refused_edit",
    "entry_list_record_view",
    "entry_notify_therapist",
    "entry_record_view",
    "entry_save_draft",
    "entry_set_private",
    "entry_submit",
    "exercise_copy",
    "exercise_save",
    "has_new_words",
    "new_exercise_owner",
    "note_is_too_long",
    "note_with_edit_words",
    "records_record_view",
    "since_last_session_record_view",
    "validation_messages",
]
