"""The autosave script's words, translated on the server (the script has no gettext)."""

import datetime as dt

from django.utils import dateformat, timezone
from django.utils.translation import gettext as _

# The page and the script show the saved time from here, so they always agree.
SAVED_TIME_FORMAT = "H:i"


def saved_time(value: dt.datetime) -> str:
    return dateformat.time_format(timezone.localtime(value), SAVED_TIME_FORMAT)


def autosave_messages() -> dict[str, str]:
    return {
        "status_pending": _("Not saved yet"),
        "status_saving": _("Saving…"),
        "status_saved": _("Saved at %(time)s"),
        # What a screen reader hears when the words are safe again.
        "announce_saved": _("Saved."),
        "status_invalid": _("Not saved yet. %(error)s"),
        "status_offline": _(
            "You are offline. Your words are still here on this page, and they will be saved "
            "as soon as the connection is back. Keep this page open."
        ),
        "status_retrying": _(
            "Not saved yet: we could not reach the server. Your words are still here, "
            "and we will keep trying."
        ),
        "status_signed_out": _(
            "You have been signed out, so this is not saved yet. Your words are still on this "
            "page. Sign in again in another tab and this page will carry on saving; keep it "
            "open until then."
        ),
        "send_not_yet": _(
            "Not sent yet: we could not reach the server. Your words are still here, and we "
            "keep trying to save them. Send again in a moment."
        ),
        # Sending changes to a sent entry (no autosave there: the page is their only copy).
        "send_signed_out": _(
            "You have been signed out, so this is not saved yet. Your words are still on this "
            "page. Sign in again in another tab, then come back here and save again. Keep this "
            "page open until then."
        ),
        "send_unreachable": _(
            "Not saved yet: we could not reach the server. Your words are still here on this "
            "page. Try again in a moment, and keep this page open until then."
        ),
        "status_gone": _(
            "This can no longer be saved here. Your words are still on this page: copy them "
            "somewhere safe before you leave it."
        ),
        "status_conflict": _("Not saved: this changed somewhere else. Choose what to keep below."),
        # Said aloud, after the status, to someone typing when a conflict opens.
        "conflict_where": _(
            "Both versions are shown below, just before the Send button. "
            "What you type stays on this page, not saved, until you choose."
        ),
        # A page opened with nothing saved meets a draft begun since, perhaps its own last words.
        "status_conflict_begun": _(
            "Not saved yet: there is another version of this. Choose what to keep below."
        ),
        "conflict_begun_title": _("There is another version of this"),
        "conflict_begun_text": _(
            "Other words were saved here after this page opened: perhaps by this page just "
            "before it was reloaded, or in another tab. Here are both versions, so nothing "
            "is lost."
        ),
        "theirs_begun": _("The other version"),
        "conflict_title": _("This changed somewhere else"),
        "conflict_text": _(
            "It was saved from another tab or device since you opened this page. "
            "Here are both versions, so nothing is lost."
        ),
        "conflict_sent_title": _("This was already sent from another tab or device"),
        "conflict_sent_text": _(
            "What was sent stays as it is. What you typed here is below, and you can keep it "
            "as a separate entry."
        ),
        # A newer version of a plan, map or ladder was sent since the page opened.
        "conflict_newer_title": _("A newer version was sent since you opened this page"),
        "conflict_newer_text": _(
            "It was sent from another tab or device, while this page still showed the version "
            "before it. Nothing has been lost: here are both, side by side. To keep what is on "
            "this page, add anything you want from the newer version first; it then becomes "
            "your newest version when you send it."
        ),
        "theirs_newer": _("The newer version"),
        "use_newer": _("Use the newer version"),
        "conflict_same": _("The words are the same in both; only the choices below them differ."),
        "mine": _("On this page"),
        "theirs": _("Saved elsewhere"),
        "empty": _("(empty)"),
        "keep_mine": _("Keep what is on this page"),
        "keep_as_new": _("Keep mine as a separate entry"),
        "use_theirs": _("Use the other version"),
        "open_sent": _("Read what was sent"),
    }
