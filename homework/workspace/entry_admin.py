"""Clients' entries in the admin, read and commented on by staff, never
edited: flags first, private ones shown as private, every look logged."""

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.urls import URLPattern, path
from django.utils import formats, timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from clients.admin.filters import EntryClientFilter
from homework import services
from homework.kinds import get_kind
from homework.models import Entry, EntryComment
from homework.selectors import (
    count_per_entry,
    entries_for_user,
    entry_commentable_by,
    flags_first,
    listed,
)
from homework.templatetags.entries import changed_note
from homework.workspace import views
from homework.workspace.display import entry_html
from homework.workspace.entry_walk import entry_walk, from_since_last_session
from homework.workspace.filters import NewEntriesFilter, SharedFlagFilter
from homework.workspace.forms import EntryCommentForm
from practice.admin_access import RoleAdmin
from practice.requests import acting_user


@admin.register(Entry)
class EntryAdmin(RoleAdmin):
    """Clients' words are theirs: staff read entries, and never edit them."""

    instead_of_deleting = _(
        "A client's entries are never deleted here: they are the client's own words. "
        "The client decides what you see of them, and can keep any entry private."
    )

    list_display = ("exercise", "client", "sent", "flags", "excerpt", "read", "comments")
    stacks_on_a_phone = True
    list_filter = (
        EntryClientFilter,
        NewEntriesFilter,
        SharedFlagFilter,
        "assignment__exercise__kind",
    )
    search_fields = ("assignment__client__display_name", "assignment__exercise__title")
    date_hierarchy = "submitted_at"
    fields = ("exercise", "client", "sent", "flags", "first_read", "content")
    readonly_fields = fields
    change_form_template = "admin/homework/entry/change_form.html"

    def get_urls(self) -> list[URLPattern]:
        return [
            path(
                "<path:object_id>/comment/",
                self.admin_site.admin_view(self.comment_view),
                name="homework_entry_comment",
            ),
            *super().get_urls(),
        ]

    def comment_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        return views.entry_comment(self, request, object_id)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Entry]:
        return (
            flags_first(listed(entries_for_user(user=acting_user(request))))
            .select_related("assignment__exercise", "assignment__client")
            .annotate(comment_count=count_per_entry(EntryComment))
        )

    def get_ordering(self, request: HttpRequest) -> tuple[str, ...]:
        return ("-shared_unsafe", "-shared_discuss", "-submitted_at")

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """The list shows clients' words, so each shown client gets a line in their access log."""
        response = super().changelist_view(request, extra_context)
        changelist = (getattr(response, "context_data", None) or {}).get("cl")
        if changelist is not None:
            # The page's own rows, read once: the template reuses them.
            services.entry_list_record_view(
                actor=acting_user(request), entries=changelist.result_list
            )
        return response

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        """Opening an entry is a look, logged, never a read (reading.mark_read)."""
        entry = self.get_object(request, object_id)
        if entry is None:
            return super().change_view(request, object_id, form_url, extra_context)
        user = acting_user(request)
        services.entry_record_view(actor=user, entry=entry)
        can_comment = entry_commentable_by(user=user, entry=entry)
        extra = {
            "mark_read": can_comment and entry.seen_at is None,
            "comments": list(entry.comments.select_related("author")),
            "can_comment": can_comment,
            "comment_form": EntryCommentForm(),
            "client": entry.assignment.client,
            # Opened from Since last session: the entries before and after it there.
            "walk": entry_walk(user=user, entry=entry, now=timezone.now())
            if from_since_last_session(request)
            else None,
            **(extra_context or {}),
        }
        return super().change_view(request, object_id, form_url, extra)

    @admin.display(description=_("exercise"), ordering="assignment__exercise__title")
    def exercise(self, obj: Entry) -> str:
        return obj.assignment.exercise.title

    @admin.display(description=_("client"), ordering="assignment__client__display_name")
    def client(self, obj: Entry) -> str:
        return obj.assignment.client.display_name

    @admin.display(
        description=Entry._meta.get_field("submitted_at").verbose_name, ordering="submitted_at"
    )
    def sent(self, obj: Entry) -> str:
        # Sent time, then when the client changed it: what was read before may read differently now.
        sent = formats.localize(timezone.localtime(obj.submitted_at)) if obj.submitted_at else "—"
        return " · ".join(filter(None, [sent, changed_note(obj)]))

    @admin.display(description=_("flags"))
    def flags(self, obj: Entry) -> SafeString | str:
        if not obj.readable_by_staff:
            return "—"  # a private entry's flags are the client's too
        if not (obj.felt_unsafe or obj.needs_review or obj.discuss_in_session):
            return "—"
        # Marked as on the admin home, so "felt unsafe" stands out here too.
        return render_to_string("admin/homework/partials/flag_badges.html", {"entry": obj})

    @admin.display(description=_("excerpt"))
    def excerpt(self, obj: Entry) -> str:
        if not obj.readable_by_staff:
            return str(_("Private: kept by the client for themselves"))
        # The client's words in their own direction in a list that runs left to right.
        return format_html(
            '<span dir="auto">{}</span>', get_kind(obj.assignment.exercise.kind).excerpt(obj)
        )

    @admin.display(description=_("read"), ordering="seen_at")
    def read(self, obj: Entry) -> str:
        # Words, not red and green icons: an unread entry is news, not an alarm.
        if not obj.readable_by_staff:
            return "—"
        return str(_("read")) if obj.seen_at else str(_("new"))

    @admin.display(description=Entry._meta.get_field("seen_at").verbose_name)
    def first_read(self, obj: Entry) -> str:
        # Said here, not as the field's help text, which would sit beside the date that ended
        # editing.
        if obj.seen_at is None:
            return str(_("Not yet: until it is marked as read, the client may still change it."))
        return str(
            _(
                "%(date)s. The client can no longer change what they sent; "
                "they can still add a note to it."
            )
            % {"date": formats.localize(timezone.localtime(obj.seen_at))}
        )

    @admin.display(description=_("comments"), ordering="comment_count")
    def comments(self, obj: Entry) -> int:
        return obj.comment_count  # type: ignore[attr-defined,no-any-return]

    @admin.display(description=_("what the client wrote"))
    def content(self, obj: Entry) -> SafeString:
        # Under the change form's h1 (the page) and h2 (the entry's name).
        return entry_html(obj, heading_level=3)
