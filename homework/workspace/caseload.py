"""The caseload page: each active client of one therapist, sortable; a therapist sees their own."""

from dataclasses import dataclass

from django.contrib.admin import AdminSite
from django.http import Http404, HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from homework.selectors import caseload as selectors
from practice.models import User
from practice.requests import acting_user
from practice.roles import is_acting_manager


@dataclass(frozen=True)
class Column:
    """One sortable heading: its link and its ``aria-sort``."""

    key: str
    label: str
    href: str
    aria_sort: str  # "ascending", "descending" or "none"


COLUMNS = [
    ("name", gettext_lazy("Client")),
    ("flags", gettext_lazy("Alerts and unread flags")),
    ("week", gettext_lazy("Done, last 7 days")),
    ("month", gettext_lazy("Done, last 28 days")),
    ("urges", gettext_lazy("Urges")),
    ("last_entry", gettext_lazy("Last entry")),
    ("next_session", gettext_lazy("Next session")),
    ("contact", gettext_lazy("Safe contact checked")),
    ("program", gettext_lazy("Program")),
    ("measures", gettext_lazy("Measures, first to latest")),
]


def _columns(*, order: str, therapist: User | None, chooser: bool) -> list[Column]:
    columns = []
    for key, label in COLUMNS:
        current = order.removeprefix("-") == key
        descending = order.startswith("-")
        # A click on the column sorted by turns it round; on another, sorts by it.
        asked = ("" if descending else "-") + key if current else key
        query = {"o": asked}
        if chooser and therapist is not None:
            query["therapist"] = str(therapist.pk)
        columns.append(
            Column(
                key=key,
                label=str(label),
                href="?" + urlencode(query),
                aria_sort=("descending" if descending else "ascending") if current else "none",
            )
        )
    return columns


def caseload_view(request: HttpRequest, *, site: AdminSite) -> HttpResponse:
    user = acting_user(request)
    try:
        therapist = selectors.caseload_therapist(user=user, asked=request.GET.get("therapist"))
    except User.DoesNotExist:
        raise Http404(_("No such caseload.")) from None
    chooser = is_acting_manager(user)
    order = selectors.sort_order(request.GET.get("o"))
    now = timezone.now()
    rows = (
        selectors.caseload(user=user, therapist=therapist, now=now) if therapist is not None else []
    )
    context = {
        **site.each_context(request),
        "title": _("Caseload"),
        "therapist": therapist,
        "therapists": list(selectors.caseload_therapists(user=user)) if chooser else [],
        "chooser": chooser,
        "order": order,
        "columns": _columns(order=order, therapist=therapist, chooser=chooser),
        "rows": selectors.sorted_rows(rows, order=order),
        "week_days": selectors.WEEK_DAYS,
        "month_days": selectors.MONTH_DAYS,
    }
    return TemplateResponse(request, "admin/homework/caseload.html", context)
