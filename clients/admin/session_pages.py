"""The Sessions card on the client's page, and its pages: add a session, move one, remove one."""

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import URLPattern, path
from django.utils.translation import gettext_lazy as _

from clients import services
from clients.admin.client_pages import back_to_client, client_page_context
from clients.admin.forms import SessionForm
from clients.models import Client, Session
from clients.selectors import recent_and_upcoming, sessions_for_user
from practice.admin_access import not_found
from practice.dates import in_client_time_zone
from practice.refusals import form_refused
from practice.requests import acting_user

SESSION_SHOWN = "ABBR_WEEKDAY_YEAR_DATETIME_FORMAT"


def session_time(session: Session, client: Client) -> str:
    """On the client's clock, marked "(their time)" where the practice's differs."""
    return in_client_time_zone(session.starts_at, client.timezone, SESSION_SHOWN)


def sessions_card(*, user: Any, client: Client, now: dt.datetime) -> dict[str, Any]:
    """The card's rows (recent and coming, newest first) and an empty form to add one."""
    sessions = recent_and_upcoming(sessions_for_user(user=user).filter(client=client), now=now)
    return {
        "rows": [
            {"session": s, "when": session_time(s, client), "past": s.starts_at < now}
            for s in sessions.order_by("-starts_at")
        ],
        "form": SessionForm(zone=client.timezone, auto_id="id_session_%s"),
    }


def _client_of(model_admin: Any, request: HttpRequest, object_id: str) -> Client | None:
    client = model_admin.get_object(request, object_id)
    if client is None or not model_admin.has_change_permission(request, client):
        return None
    return client  # type: ignore[no-any-return]


def _form_page(
    model_admin: Any,
    request: HttpRequest,
    client: Client,
    form: SessionForm,
    title: Any,
    session: Session | None = None,
) -> HttpResponse:
    context = client_page_context(
        model_admin,
        request,
        client,
        title,
        form=form,
        session=session,
        when=session_time(session, client) if session else "",
    )
    status = 400 if form.errors else 200
    page = TemplateResponse(request, "admin/clients/client/session.html", context, status=status)
    return form_refused(request, page)


def _saved(form: SessionForm, save: Any) -> Session | None:
    """The service's refusal (out of range, a time already booked) said at the form."""
    try:
        return save(form.cleaned_data["starts_at"])  # type: ignore[no-any-return]
    except ValidationError as refused:
        form.add_error(None, refused.messages)
        return None


def session_add(model_admin: Any, request: HttpRequest, object_id: str) -> HttpResponse:
    client = _client_of(model_admin, request, object_id)
    if client is None:
        return not_found(model_admin, request, object_id)
    form = SessionForm(request.POST or None, zone=client.timezone)
    if request.method == "POST" and form.is_valid():
        made = _saved(
            form,
            lambda starts_at: services.session_schedule(
                actor=acting_user(request), client=client, starts_at=starts_at
            ),
        )
        if made is not None:
            done = _("Session added for %(client)s: %(when)s.")
            return back_to_client(
                model_admin, request, client, done, when=session_time(made, client)
            )
    return _form_page(model_admin, request, client, form, _("A session with %(client)s"))


def _session_of(
    model_admin: Any, request: HttpRequest, object_id: str, session_id: int
) -> tuple[Client, Session] | None:
    client = _client_of(model_admin, request, object_id)
    if client is None:
        return None
    session = (
        sessions_for_user(user=acting_user(request)).filter(client=client, pk=session_id).first()
    )
    return None if session is None else (client, session)


def session_change(
    model_admin: Any, request: HttpRequest, object_id: str, session_id: int
) -> HttpResponse:
    found = _session_of(model_admin, request, object_id, session_id)
    if found is None:
        return not_found(model_admin, request, object_id)
    client, session = found
    if request.method == "POST":
        form = SessionForm(request.POST, zone=client.timezone)
        moved = form.is_valid() and _saved(
            form,
            lambda starts_at: services.session_reschedule(
                actor=acting_user(request), session=session, starts_at=starts_at
            ),
        )
        if moved:
            done = _("The session with %(client)s is now on %(when)s.")
            return back_to_client(
                model_admin, request, client, done, when=session_time(moved, client)
            )
        # The refused form says what is wrong; the page's title still names the stored time.
        session.refresh_from_db()
    else:
        form = SessionForm.of(session.starts_at, zone=client.timezone)
    return _form_page(
        model_admin, request, client, form, _("Move a session with %(client)s"), session
    )


def session_delete(
    model_admin: Any, request: HttpRequest, object_id: str, session_id: int
) -> HttpResponse:
    found = _session_of(model_admin, request, object_id, session_id)
    if found is None:
        return not_found(model_admin, request, object_id)
    client, session = found
    when = session_time(session, client)
    if request.method == "POST":
        services.session_cancel(actor=acting_user(request), session=session)
        done = _("The session with %(client)s on %(when)s is removed.")
        return back_to_client(model_admin, request, client, done, when=when)
    context = client_page_context(
        model_admin,
        request,
        client,
        _("Remove a session with %(client)s?"),
        session=session,
        when=when,
    )
    return TemplateResponse(request, "admin/clients/client/session_delete.html", context)


def session_urls(model_admin: Any) -> list[URLPattern]:
    def wrap(view: Any) -> Any:
        return model_admin.admin_site.admin_view(
            lambda request, *args, **kwargs: view(model_admin, request, *args, **kwargs)
        )

    return [
        path(
            "<path:object_id>/sessions/add/",
            wrap(session_add),
            name="clients_client_session_add",
        ),
        path(
            "<path:object_id>/sessions/<int:session_id>/",
            wrap(session_change),
            name="clients_client_session_change",
        ),
        path(
            "<path:object_id>/sessions/<int:session_id>/remove/",
            wrap(session_delete),
            name="clients_client_session_delete",
        ),
    ]
