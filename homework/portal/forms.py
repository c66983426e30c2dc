from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from clients.readers import PRIVATE_IS_SEEN_AS
from homework.kinds.fields import TextField
from homework.services import NOTE_MAX_CHARS, Flags, PageSave, note_is_too_long
from practice.form_messages import TOO_LONG, PortalFormMessages, too_long

RESPONSE_PREFIX = "r-"


class EntryEnvelopeForm(PortalFormMessages, forms.Form):
    key = forms.UUIDField(widget=forms.HiddenInput)
    version = forms.IntegerField(min_value=0, max_value=2**31 - 1, widget=forms.HiddenInput)
    # Sent count when the page opened (refuse_if_sent_since).
    sent_count_seen = forms.IntegerField(
        min_value=0, max_value=2**31 - 1, required=False, widget=forms.HiddenInput
    )
    discuss_in_session = forms.BooleanField(
        required=False, label=_("I want to talk about this in session")
    )
    felt_unsafe = forms.BooleanField(required=False, label=_("I felt unsafe"))
    private = forms.BooleanField(
        required=False,
        label=_("Keep this private"),
        help_text=PRIVATE_IS_SEEN_AS,
    )

    page = forms.RegexField(
        regex=r"^[A-Za-z0-9_-]{8,32}$", required=False, widget=forms.HiddenInput
    )
    save_number = forms.IntegerField(
        min_value=1, max_value=2**31 - 1, required=False, widget=forms.HiddenInput
    )

    # Set by autosave.js when the page leaves on purpose while a conflict waits for a choice.
    leaving = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def flags(self) -> Flags:
        return Flags(
            discuss_in_session=self.cleaned_data["discuss_in_session"],
            felt_unsafe=self.cleaned_data["felt_unsafe"],
            private=self.cleaned_data["private"],
        )

    def page_save(self) -> PageSave | None:
        page, number = self.cleaned_data.get("page"), self.cleaned_data.get("save_number")
        return PageSave(page=page, number=number) if page and number else None


def response_data(post: Any) -> dict[str, str | list[str]]:
    data: dict[str, str | list[str]] = {}
    for name in post:
        if name.startswith(RESPONSE_PREFIX):
            values = post.getlist(name)
            data[name.removeprefix(RESPONSE_PREFIX)] = values[0] if len(values) == 1 else values
    return data


class NoteForm(PortalFormMessages, forms.Form):
    # Held to its length by the server, not cut by the browser (TextField).
    text = TextField(
        label=_("Add a note"),
        marked_needed=False,
        max_length=NOTE_MAX_CHARS,
        help_text=_("Anything you want to add now. The entry itself stays as it was."),
        widget=forms.Textarea(attrs={"rows": 3, "autocomplete": "off"}),
        error_messages={
            "required": _("Write a few words here first."),
            "max_length": TOO_LONG,
        },
    )

    def __init__(self, *args: Any, kept: str = "", **kwargs: Any) -> None:
        if kept:
            kwargs.setdefault("initial", {"text": kept})
        super().__init__(*args, **kwargs)
        if kept:
            then = (
                too_long(limit=NOTE_MAX_CHARS, length=len(kept.strip()))
                if note_is_too_long(kept)
                else SEND_WHEN_READY
            )
            self.fields["text"].help_text = f"{KEPT_NOTE} {then}"

    def holds_words(self) -> bool:
        """One refused as empty has nothing to lose."""
        return self.is_bound and bool(str(self.data.get("text", "")).strip())


KEPT_NOTE = _("You started this note earlier and it has not been sent yet.")
SEND_WHEN_READY = _("Send it when you are ready.")


class PrivacyForm(PortalFormMessages, forms.Form):
    private = forms.TypedChoiceField(
        choices=[("1", _("private")), ("0", _("shared"))], coerce=lambda value: value == "1"
    )
