"""The client's record in the admin."""

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.options import IS_POPUP_VAR
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Model, OuterRef, QuerySet, Subquery
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.cache import add_never_cache_headers
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from clients import services
from clients.admin.client_pages import back_to_client, client_page_context
from clients.admin.filters import ClientStatusFilter
from clients.admin.session_pages import session_urls, sessions_card
from clients.admin.two_step import two_step_line, two_step_off_page
from clients.contact.admin import contact_edit_page, contact_summary
from clients.models import Client, Session
from clients.selectors import clients_for_user, invitations_for_client
from clients.time_zones import TimeZoneField, TimeZoneInput
from practice.admin_access import RoleAdmin, not_found
from practice.bidi import isolated_text
from practice.dates import ClientTimeZone, calendar_day
from practice.languages import language_field
from practice.models import User
from practice.requests import acting_user
from practice.roles import is_acting_manager

INVITATIONS_TO_SHOW = "clients.invitations_to_show"


class ClientAdmin(RoleAdmin):
    """The client's own record: who they are, their sessions, their portal invitation, archiving."""

    therapist_can = frozenset({"view", "add", "change"})
    manager_can = frozenset({"view", "add", "change"})
    instead_of_deleting = _(
        "Clients are not deleted here: what they wrote may matter to them later. To take "
        "someone off your lists and close their notebook, open their page and archive "
        "them. Everything they wrote is kept, and you can restore them at any time. If a "
        "client asks for their records to be erased, the practice manager can export and "
        "erase them from the client's page."
    )
    list_display: tuple[str, ...] = ("display_name", "next_session")
    stacks_on_a_phone = True
    search_fields = ("display_name",)
    actions: tuple[str, ...] = ("archive_selected", "restore_selected")
    fieldsets = (
        # The time zone is with the client, not under reminders: their days run on it.
        (None, {"fields": ("display_name", "therapist", "status", "timezone", "language")}),
        # The client's own say on reminders: read here, set with them on its own page.
        (_("How we may contact them"), {"fields": ("contact_preferences",)}),
        (_("Portal"), {"classes": ("collapse",), "fields": ("contact_email", "portal_account")}),
    )

    def get_urls(self) -> list[URLPattern]:
        def wrap(view: Any) -> Any:
            return self.admin_site.admin_view(view)

        return [
            path(
                "<path:object_id>/archive/",
                wrap(self.archive_view),
                name="clients_client_archive",
            ),
            path(
                "<path:object_id>/contact/",
                wrap(self.contact_view),
                name="clients_client_contact",
            ),
            path(
                "<path:object_id>/invite/",
                wrap(self.invite_view),
                name="clients_client_invite",
            ),
            path(
                "<path:object_id>/two-step-off/",
                wrap(self.two_step_off_view),
                name="clients_client_two_step_off",
            ),
            *session_urls(self),
            *super().get_urls(),
        ]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Client]:
        now = timezone.now()
        return (
            clients_for_user(user=acting_user(request))
            .select_related("therapist", "portal_user", "contact_profile")
            .annotate(
                upcoming=Subquery(
                    Session.objects.filter(client=OuterRef("pk"), starts_at__gte=now)
                    .order_by("starts_at")
                    .values("starts_at")[:1]
                ),
            )
        )

    def get_list_display(self, request: HttpRequest) -> tuple[str, ...]:
        shown = tuple(self.list_display)
        return (
            (shown[0], "therapist", *shown[1:])
            if is_acting_manager(acting_user(request))
            else shown
        )

    def get_list_filter(self, request: HttpRequest) -> tuple[Any, ...]:
        if is_acting_manager(acting_user(request)):
            return (ClientStatusFilter, "therapist")
        return (ClientStatusFilter,)

    def get_readonly_fields(
        self, request: HttpRequest, obj: Client | None = None
    ) -> tuple[str, ...]:
        # Status changes through Archive / Restore, which say what they do.
        readonly = ("portal_account", "status", "contact_preferences")
        return readonly if is_acting_manager(acting_user(request)) else (*readonly, "therapist")

    def get_fieldsets(self, request: HttpRequest, obj: Client | None = None) -> Any:
        if obj is None:  # a new client is active; the status line would only be noise
            # A therapist's new client is their own.
            whose = ("therapist",) if is_acting_manager(acting_user(request)) else ()
            main = {"fields": ("display_name", *whose, "timezone", "language")}
            # No profile before there is a client: set it once they are added.
            return ((None, main), *self.fieldsets[2:])
        return self.fieldsets

    def render_change_form(
        self,
        request: HttpRequest,
        context: dict[str, Any],
        add: bool = False,
        change: bool = False,
        form_url: str = "",
        obj: Model | None = None,
    ) -> Any:
        if isinstance(obj, Client) and obj.pk:
            # The page is the client's, not a form to "change": it is titled with their name, and
            # "Save and add another" would leave them for a blank form.
            context.update(
                title=obj.display_name,
                subtitle=None,
                show_save_and_add_another=False,
                sessions=sessions_card(user=acting_user(request), client=obj, now=timezone.now()),
            )
        return super().render_change_form(request, context, add, change, form_url, obj)

    def formfield_for_dbfield(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "timezone":  # "London" is read as Europe/London (clients.time_zones)
            widget = TimeZoneInput(attrs={"class": "vTextField"})
            return db_field.formfield(form_class=TimeZoneField, widget=widget)
        if db_field.name == "language":
            return language_field(db_field)
        if db_field.name == "contact_email":
            kwargs["help_text"] = _(
                "Where the portal invitation is emailed. Reminders go only where the client "
                "said is safe (How we may contact them)."
            )
        return super().formfield_for_dbfield(db_field, request, **kwargs)

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "therapist":
            kwargs["queryset"] = User.objects.filter(role=User.Role.THERAPIST, is_active=True)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    @admin.display(description=_("contact preferences"))
    def contact_preferences(self, obj: Client) -> str:
        return contact_summary(obj)

    def contact_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        return contact_edit_page(self, request, object_id)

    def two_step_off_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        return two_step_off_page(self, request, object_id)

    @admin.display(description=_("portal account"))
    def portal_account(self, obj: Client) -> str:
        """Whether the client can sign in, and since when; never the address
        they sign in with, which the portal promises to show no one here."""
        account = obj.portal_user
        if account is None:
            return self._invitation_status(obj)
        if not account.is_active:
            return str(_("Closed."))
        set_up = _("Set up on %(day)s.") % {
            "day": date_format(timezone.localtime(account.date_joined), "LONG_DATE_FORMAT")
        }
        return format_html("{}{}", set_up, two_step_line(obj))

    def _invitation_status(self, obj: Client) -> str:
        """Where the latest invitation stands, with the way to a new link: an
        invitation in progress must not read as "not set up yet", or the
        therapist invites again and the link already passed on stops working."""
        latest = obj.invitations.first()
        new_link = _("Make a new link")
        if latest is None or latest.used_at or latest.revoked_at:
            said, new_link = _("Not set up yet: invite them to the portal."), _("Invite to portal")
        elif latest.email_state == "given-up":
            said = _(
                "Not set up yet. The invitation email could not be delivered: check "
                "the contact email, then make a new link."
            )
        elif latest.expires_at <= timezone.now():
            said = _(
                "Not set up yet. The last link, made on %(made)s, stopped working on %(until)s."
            )
        elif latest.email_state == "sent":
            said = _("Invited on %(made)s and emailed; the link works until %(until)s.")
        elif latest.email_state:  # waiting or retrying
            said = _(
                "Invited on %(made)s; the link works until %(until)s. Its email has not "
                "gone yet: it is being tried again."
            )
        else:
            said = _("Invited on %(made)s (the link was not emailed); it works until %(until)s.")
        days = {}
        if latest is not None:
            # The last day as the client is told it (their calendar), marked where it differs.
            days = {
                "made": calendar_day(latest.created_at, "MONTH_DAY_FORMAT"),
                "until": ClientTimeZone(zone=obj.timezone).show(
                    latest.expires_at, "MONTH_DAY_FORMAT"
                ),
            }
        url = reverse("admin:clients_client_invite", args=[obj.pk])
        return format_html('{} <a href="{}">{}</a>', str(said) % days, url, new_link)

    @admin.display(description=_("next session"), ordering="upcoming")
    def next_session(self, obj: Client) -> Any:
        return obj.upcoming or "—"  # type: ignore[attr-defined]

    def save_model(
        self, request: HttpRequest, obj: Client, form: "forms.ModelForm[Client]", change: bool
    ) -> None:
        fields = {
            name: form.cleaned_data[name]
            for name in form.cleaned_data
            if name in services.CLIENT_EDITABLE_FIELDS or name == "therapist"
        }
        if change:
            saved = services.client_update(actor=acting_user(request), client=obj, **fields)
        else:
            therapist = fields.pop("therapist", None)
            saved = services.client_create(
                actor=acting_user(request), therapist=therapist, **fields
            )
        obj.pk = saved.pk

    def response_add(
        self, request: HttpRequest, obj: Client, post_url_continue: str | None = None
    ) -> HttpResponse:
        """After "Save", the new client's page, with the next step named."""
        if any(name in request.POST for name in (IS_POPUP_VAR, "_continue", "_addanother")):
            return super().response_add(request, obj, post_url_continue)
        invite = format_html(
            '<a href="{}">{}</a>',
            reverse("admin:clients_client_invite", args=[obj.pk]),
            _("Invite them to the portal"),
        )
        added = _("%(client)s was added.") % {"client": isolated_text(obj.display_name)}
        self.message_user(request, format_html("{} {}", added, invite), messages.SUCCESS)
        return HttpResponseRedirect(reverse("admin:clients_client_change", args=[obj.pk]))

    def invite_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """ "Invite to portal": make a single-use link, show it once, optionally email it. Post then
        redirect, so a reload never makes a second link; the session holds the invitation's id,
        never the link."""
        client = self.get_object(request, object_id)
        if client is None or not self.has_change_permission(request, client):
            # As the admin does for any object that is not yours: as if it did not exist.
            return redirect("admin:index")
        user = acting_user(request)
        error = ""
        if request.method == "POST":
            try:
                made = services.client_invite(
                    actor=user, client=client, send_email=bool(request.POST.get("send_email"))
                )
            except ValidationError as refused:
                error = " ".join(refused.messages)
            else:
                to_show = request.session.get(INVITATIONS_TO_SHOW, {})
                request.session[INVITATIONS_TO_SHOW] = {
                    **to_show,
                    str(client.pk): made.invitation.pk,
                }
                return HttpResponseRedirect(request.path)
        issued = None
        to_show = request.session.get(INVITATIONS_TO_SHOW, {})
        if str(client.pk) in to_show:
            invitation_id = to_show.pop(str(client.pk))
            request.session[INVITATIONS_TO_SHOW] = to_show  # shown once: gone from here on
            issued = services.invitation_issued(
                user=user, client_id=client.pk, invitation_id=invitation_id
            )
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "original": client,
            "title": _("Invite to the portal"),
            "issued": issued,
            "error": error,
            # The link's last day is the one the client is told.
            "client_time_zone": ClientTimeZone(zone=client.timezone),
            "latest": invitations_for_client(user=user, client_id=client.pk).first(),
        }
        response = TemplateResponse(request, "admin/clients/client/invite.html", context)
        # The link is on this page once: never from a cache.
        add_never_cache_headers(response)
        return response

    # -- archive, never delete

    def archive_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """Confirm, then archive (or restore) one client through the service."""
        client = self.get_object(request, object_id)
        if client is None:
            return not_found(self, request, object_id)
        if not self.has_change_permission(request, client):
            raise PermissionDenied
        archived = client.status == Client.Status.ARCHIVED
        if request.method == "POST":
            change = services.client_restore if archived else services.client_archive
            change(actor=acting_user(request), client=client)
            return back_to_client(
                self,
                request,
                client,
                _("%(client)s is active again.")
                if archived
                else _("%(client)s is archived. Their records are kept; nothing was deleted."),
            )
        title = _("Restore %(client)s?") if archived else _("Archive %(client)s?")
        context = client_page_context(self, request, client, title, archived=archived)
        return TemplateResponse(request, "admin/clients/client/archive.html", context)

    @admin.action(description=_("Archive the selected clients (records are kept)"))
    def archive_selected(self, request: HttpRequest, queryset: QuerySet[Client]) -> None:
        done = [services.client_archive(actor=acting_user(request), client=c) for c in queryset]
        self.message_user(
            request,
            ngettext(
                "%(count)d client archived. Their records are kept.",
                "%(count)d clients archived. Their records are kept.",
                len(done),
            )
            % {"count": len(done)},
            messages.SUCCESS,
        )

    @admin.action(description=_("Restore the selected clients"))
    def restore_selected(self, request: HttpRequest, queryset: QuerySet[Client]) -> None:
        done = [services.client_restore(actor=acting_user(request), client=c) for c in queryset]
        self.message_user(
            request,
            ngettext("%(count)d client restored.", "%(count)d clients restored.", len(done))
            % {"count": len(done)},
            messages.SUCCESS,
        )
