"""The manager's Staff pages: who works here, inviting a therapist or a manager, closing and
reopening an account, handing a therapist's clients to another, and resetting a lost second
factor. Therapists are refused (403), as on the other manager-only pages."""

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.admin import AdminSite
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from clients import selectors
from clients.models import StaffInvitation
from clients.services import staff as staff_services
from clients.services import staff_invitations
from practice.models import User
from practice.refusals import form_refused
from practice.roles import require_manager

# In the manager's session: the id, never the link, of an invitation still to show once.
STAFF_INVITATION_TO_SHOW = "clients.staff_invitation_to_show"


class StaffInviteForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=150)
    email = forms.EmailField(
        label=gettext_lazy("Email"),
        max_length=254,
        help_text=gettext_lazy("Their work address: they sign in with it."),
    )
    # No role is chosen for the manager: a default left untouched would make a manager.
    role = forms.ChoiceField(
        label=gettext_lazy("Role"),
        choices=StaffInvitation.Role.choices,
        widget=forms.RadioSelect,
        error_messages={"required": gettext_lazy("Choose therapist or practice manager.")},
    )
    send_email = forms.BooleanField(
        label=gettext_lazy("Also email the link to this address (neutral wording)"),
        required=False,
    )


class HandOverForm(forms.Form):
    to_therapist = forms.ModelChoiceField(
        label=gettext_lazy("Hand them to"),
        queryset=User.objects.none(),
        empty_label=gettext_lazy("Choose a therapist"),
        error_messages={
            "required": gettext_lazy("Choose the therapist who takes these clients over."),
            "invalid_choice": gettext_lazy("Choose a therapist whose account is open."),
        },
    )

    def __init__(self, *args: Any, giver: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["to_therapist"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = selectors.active_therapists().exclude(pk=giver.pk)


def add_refusal(form: forms.Form, refused: ValidationError) -> None:
    """A service's refusal on the form: on its field if the form has one, else above it."""
    if not hasattr(refused, "error_dict"):
        form.add_error(None, refused.messages)
        return
    for field, errors in refused.message_dict.items():
        form.add_error(field if field in form.fields else None, errors)


def _member(user_id: int) -> User:
    member = User.objects.filter(
        pk=user_id, role__in=(User.Role.THERAPIST, User.Role.MANAGER)
    ).first()
    if member is None:
        raise Http404
    return member


def _page(
    request: HttpRequest, site: AdminSite, template: str, context: dict[str, Any], status: int = 200
) -> HttpResponse:
    response = TemplateResponse(
        request, template, {**site.each_context(request), **context}, status=status
    )
    return form_refused(request, response)


def _confirm_then_act(
    request: HttpRequest,
    site: AdminSite,
    template: str,
    context: dict[str, Any],
    *,
    act: Callable[[], object],
    done: str,
) -> HttpResponse:
    """A manager's change to a staff account: the page asks first; the POST makes the change
    and goes back to the Staff page, or says why not on the page again."""
    error = ""
    if request.method == "POST":
        try:
            act()
        except ValidationError as refused:
            error = " ".join(refused.messages)
        else:
            messages.success(request, done)
            return redirect("admin:staff")
    return _page(request, site, template, {**context, "error": error}, status=400 if error else 200)


def staff_list(request: HttpRequest, *, site: AdminSite) -> HttpResponse:
    user = require_manager(request.user)
    return _page(
        request,
        site,
        "admin/staff/list.html",
        {
            "title": _("Staff"),
            "staff": selectors.staff_overview(user=user),
            "waiting": selectors.staff_invitations_waiting(user=user),
        },
    )


@require_http_methods(["GET", "POST"])
def staff_invite(request: HttpRequest, *, site: AdminSite) -> HttpResponse:
    """Post, then redirect to this page, which shows the link once: a reload
    must not make a new link (the one just copied would stop working)."""
    user = require_manager(request.user)
    form = StaffInviteForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            made = staff_invitations.staff_invite(actor=user, **form.cleaned_data)
        except ValidationError as refused:
            add_refusal(form, refused)
        else:
            request.session[STAFF_INVITATION_TO_SHOW] = made.invitation.pk
            return HttpResponseRedirect(request.path)
    issued = None
    to_show = request.session.pop(STAFF_INVITATION_TO_SHOW, None) if not form.is_bound else None
    if isinstance(to_show, int):
        issued = staff_invitations.staff_invitation_issued(actor=user, invitation_id=to_show)
    response = _page(
        request,
        site,
        "admin/staff/invite.html",
        {"title": _("Invite a therapist or a manager"), "form": form, "issued": issued},
        status=400 if form.errors else 200,
    )
    add_never_cache_headers(response)  # the link is on this page once: never from a cache
    return response


@require_http_methods(["GET", "POST"])
def staff_deactivate(request: HttpRequest, user_id: int, *, site: AdminSite) -> HttpResponse:
    """Close an account (asked to confirm first), or say why not, and offer the hand-over."""
    user = require_manager(request.user)
    member = _member(user_id)
    return _confirm_then_act(
        request,
        site,
        "admin/staff/deactivate.html",
        {
            "title": _("Close an account"),
            "member": member,
            "active_clients": staff_services.active_client_count(therapist=member),
        },
        act=lambda: staff_services.staff_deactivate(actor=user, user_id=member.pk),
        done=_("%(name)s's account is closed. Everything they did here is kept.")
        % {"name": member},
    )


@require_POST
def staff_reactivate(request: HttpRequest, user_id: int, *, site: AdminSite) -> HttpResponse:
    user = require_manager(request.user)
    member = _member(user_id)
    staff_services.staff_reactivate(actor=user, user_id=member.pk)
    messages.success(request, _("%(name)s's account is open again.") % {"name": member})
    return redirect("admin:staff")


@require_http_methods(["GET", "POST"])
def clients_hand_over(request: HttpRequest, user_id: int, *, site: AdminSite) -> HttpResponse:
    """Move all of a therapist's active clients to another therapist."""
    user = require_manager(request.user)
    giver = _member(user_id)
    form = HandOverForm(request.POST or None, giver=giver)
    if request.method == "POST" and form.is_valid():
        try:
            moved = staff_services.clients_hand_over(
                actor=user, from_id=giver.pk, to_id=form.cleaned_data["to_therapist"].pk
            )
        except ValidationError as refused:
            add_refusal(form, refused)
        else:
            messages.success(
                request,
                ngettext(
                    "%(count)s client handed over to %(to)s.",
                    "%(count)s clients handed over to %(to)s.",
                    moved,
                )
                % {"count": moved, "to": form.cleaned_data["to_therapist"]},
            )
            return redirect("admin:staff")
    return _page(
        request,
        site,
        "admin/staff/hand_over.html",
        {
            "title": _("Hand clients over"),
            "member": giver,
            "form": form,
            "active_clients": staff_services.active_client_count(therapist=giver),
        },
        status=400 if form.errors else 200,
    )


@require_http_methods(["GET", "POST"])
def staff_second_factor_reset(
    request: HttpRequest, user_id: int, *, site: AdminSite
) -> HttpResponse:
    user = require_manager(request.user)
    member = _member(user_id)
    return _confirm_then_act(
        request,
        site,
        "admin/staff/reset_second_factor.html",
        {"title": _("Reset a second factor"), "member": member},
        act=lambda: staff_services.staff_second_factor_reset(actor=user, user_id=member.pk),
        done=_(
            "%(name)s's second factor is reset and they are signed out everywhere. "
            "At their next sign-in they set up their authenticator app again."
        )
        % {"name": member},
    )


def staff_urls(site: AdminSite) -> list[URLPattern]:
    """The Staff pages, each behind the admin's own sign-in (two factors)."""

    def view(function: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        def bound(request: HttpRequest, **kwargs: Any) -> HttpResponse:
            return function(request, site=site, **kwargs)

        return site.admin_view(bound)

    return [
        path("staff/", view(staff_list), name="staff"),
        path("staff/invite/", view(staff_invite), name="staff_invite"),
        path("staff/<int:user_id>/close/", view(staff_deactivate), name="staff_deactivate"),
        path("staff/<int:user_id>/reopen/", view(staff_reactivate), name="staff_reactivate"),
        path("staff/<int:user_id>/hand-over/", view(clients_hand_over), name="clients_hand_over"),
        path(
            "staff/<int:user_id>/reset-second-factor/",
            view(staff_second_factor_reset),
            name="staff_second_factor_reset",
        ),
    ]
