"""Who looked: the client's own access log, in plain words."""

import datetime as dt
import re
from dataclasses import dataclass

from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import render
from django.utils import formats
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from clients import selectors
from clients.decorators import client_required
from clients.models import AccessEvent
from clients.services.access_log import is_page_look
from practice.requests import AuthedRequest

WHO_LOOKED_PAGE_SIZE = 50

# The ``what`` the readers write for a look that is not one entry.
_ENTRY_LIST = "Entry list"
_SINCE_LAST_SESSION = "Since last session"
_ENTRY_ID = re.compile(r"\s*\(\d+\)$")
# A summary's ``what`` carries its dates (homework.summary.services.Summary.description).
_SUMMARY_DATES = re.compile(r"(\d{4}-\d{2}-\d{2}) to (\d{4}-\d{2}-\d{2})")


@dataclass(frozen=True)
class Look:
    at: dt.datetime
    who: str
    what: str


def who_in_words(event: AccessEvent) -> str:
    name = event.actor.get_full_name()
    if event.actor_id == event.client.therapist_id:
        return _("%(name)s, your therapist") % {"name": name}
    if event.actor.is_manager:
        return _("%(name)s, the practice manager") % {"name": name}
    return _("%(name)s, a therapist at the practice") % {"name": name}


def _summary_dates(what: str) -> dict[str, str] | None:
    found = _SUMMARY_DATES.search(what)
    if found is None:
        return None
    try:
        since, until = (dt.date.fromisoformat(day) for day in found.groups())
    except ValueError:
        return None
    return {
        "since": formats.date_format(since, "LONG_DATE_FORMAT"),
        "until": formats.date_format(until, "LONG_DATE_FORMAT"),
    }


def what_in_words(event: AccessEvent) -> str:
    if event.action == AccessEvent.Action.PRINTED:
        dates = _summary_dates(event.what)
        if dates is None:
            return _("Printed a summary of what you sent")
        return _("Printed a summary of what you sent from %(since)s to %(until)s") % dates
    if event.action == AccessEvent.Action.EXPORTED:
        dates = _summary_dates(event.what)
        if dates is None:
            return _("Downloaded a summary of what you sent")
        return _("Downloaded a summary of what you sent from %(since)s to %(until)s") % dates
    if event.what == _ENTRY_LIST:
        return _("Saw the first lines of your entries, in a list")
    if event.what == _SINCE_LAST_SESSION:
        return _("Read what you sent since your last session")
    if is_page_look(event.what):
        return _("Looked at your records")
    title = _ENTRY_ID.sub("", event.what)
    if not title:
        return _("Looked at your records")
    return _("Read your entry “%(title)s”") % {"title": title}


@require_safe
@client_required(allow_archived=True)
def who_looked(request: AuthedRequest) -> HttpResponse:
    # An archived client's records were still looked at: the page stays open to them.
    page = Paginator(selectors.access_events_for(user=request.user), WHO_LOOKED_PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    looks = [
        Look(at=event.at, who=who_in_words(event), what=what_in_words(event))
        for event in page.object_list
    ]
    return render(request, "clients/who_looked.html", {"looks": looks, "page": page})
