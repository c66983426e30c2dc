"""A client's programs from their page: assign one, and pause, resume, stop or skip a step, each
through its service (homework.services.programs). Who may do what is the services' to say; a
refusal is shown as they word it, and changes nothing."""

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseNotAllowed,
    HttpResponseRedirect,
)
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clients.admin.client_pages import client_page_context
from clients.models import Client
from homework import selectors
from homework.models import ClientProgram, Program
from homework.selectors.library_languages import (
    language_name,
    program_language_warning,
    reader_language_first,
    reading_language,
)
from homework.selectors.programs import client_programs_for_user, programs_for_user
from homework.services import programs as services
from homework.workspace.forms import LanguageConfirmField, confirm_language
from homework.workspace.program_panel import program_panel
from practice.bidi import isolated_text
from practice.models import User
from practice.refusals import form_refused
from practice.requests import acting_user, parse_id

# A button's word is shown in the panel, where the page opens after it, not at the page's top.
PANEL = "programs"

if TYPE_CHECKING:
    AdminOf = admin.ModelAdmin[Any]
else:
    AdminOf = object


class ProgramChoice(forms.ModelChoiceField):  # type: ignore[type-arg]
    # The client's language: a program in another names its own.
    reader_language: str | None = None

    def label_from_instance(self, obj: Program) -> str:
        if obj.owner_id is None:
            label = _("%(title)s (the practice’s)") % {"title": obj.title}
        else:
            label = obj.title
        if self.reader_language is not None and obj.language != self.reader_language:
            return _("%(program)s, in %(language)s") % {
                "program": label,
                "language": language_name(obj.language),
            }
        return label


class AssignProgramForm(forms.Form):
    program = ProgramChoice(
        queryset=Program.objects.none(),
        label=gettext_lazy("Program"),
        empty_label=gettext_lazy("Choose a program"),
        error_messages={
            "required": gettext_lazy("Choose a program."),
            "invalid_choice": gettext_lazy("Choose one of the programs listed."),
        },
    )
    starts_on = forms.DateField(
        label=gettext_lazy("Starts on"),
        help_text=gettext_lazy(
            "Day 1 of the program, on the client’s calendar. Steps due by then come at once."
        ),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        error_messages={
            "required": gettext_lazy("Choose the day the program starts."),
            "invalid": gettext_lazy("Enter a date such as 2026-12-31."),
        },
    )
    language_confirmed = LanguageConfirmField()

    def __init__(self, *args: Any, user: User, client: Client, **kwargs: Any) -> None:
        kwargs.setdefault("initial", {"starts_on": selectors.client_today(client)})
        super().__init__(*args, **kwargs)
        self.client = client
        reads = reading_language(client)
        program: ProgramChoice = self.fields["program"]  # type: ignore[assignment]
        program.reader_language = reads
        program.queryset = (
            programs_for_user(user=user)
            .filter(is_active=True)
            .order_by(reader_language_first(reads), "title")
        )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if (chosen := cleaned.get("program")) is not None:
            confirm_language(self, program_language_warning(chosen, self.client), field="program")
        return cleaned

    def refused(self, error: ValidationError | PermissionDenied) -> None:
        """The service's words, under the field they name where the form has it."""
        if not isinstance(error, ValidationError) or not hasattr(error, "error_dict"):
            self.add_error(None, getattr(error, "messages", [str(error)]))
            return
        for field, errors in error.error_dict.items():
            self.add_error(field if field in self.fields else None, errors)


def panel_context(request: HttpRequest, *, user: User, client: Client) -> dict[str, Any]:
    """What the client's page draws the panel from, and its messages split: a button's word is
    drawn in the panel, the rest at the page's top."""
    said = list(messages.get_messages(request))
    ours = [PANEL in message.extra_tags.split() for message in said]
    active = client.status == Client.Status.ACTIVE
    return {
        "programs": program_panel(user=user, client=client),
        "program_messages": [m for m, mine in zip(said, ours, strict=True) if mine],
        "page_messages": [m for m, mine in zip(said, ours, strict=True) if not mine],
        "assign_program_form": AssignProgramForm(user=user, client=client) if active else None,
    }


def client_or_404(request: HttpRequest, object_id: str) -> Client:
    """The same answer for a client that is not there and one that is not yours."""
    client_id = parse_id(object_id)
    if client_id is None:
        raise Http404
    try:
        return selectors.staff_client(user=acting_user(request), client_id=client_id)
    except Client.DoesNotExist:
        raise Http404 from None


def client_page(client: Client) -> str:
    return reverse("admin:clients_client_change", args=[client.pk]) + "#programs"


def assign_program(model_admin: AdminOf, request: HttpRequest, object_id: str) -> HttpResponse:
    """GET: the form on its own page; POST from it or from the client's page."""
    if request.method not in ("GET", "POST"):
        return HttpResponseNotAllowed(["GET", "POST"])
    user = acting_user(request)
    client = client_or_404(request, object_id)
    if request.method == "GET":
        form = AssignProgramForm(user=user, client=client)
    else:
        form = AssignProgramForm(request.POST, user=user, client=client)
        if form.is_valid():
            try:
                made = services.client_program_create(
                    actor=user,
                    client=client,
                    program=form.cleaned_data["program"],
                    starts_on=form.cleaned_data["starts_on"],
                )
            except (ValidationError, PermissionDenied) as error:
                form.refused(error)
            else:
                messages.success(
                    request,
                    _("%(client)s is on the program “%(title)s” from %(day)s.")
                    % {
                        "client": isolated_text(client.display_name),
                        "title": isolated_text(made.title),
                        "day": date_format(made.starts_on, "DATE_FORMAT"),
                    },
                    extra_tags=PANEL,
                )
                return HttpResponseRedirect(client_page(client))
    context = client_page_context(
        model_admin, request, client, _("Assign a program to %(client)s"), form=form
    )
    status = 400 if form.is_bound else 200
    return form_refused(
        request,
        TemplateResponse(
            request, "admin/clients/client/assign_program.html", context, status=status
        ),
    )


def program_change(
    model_admin: AdminOf,
    request: HttpRequest,
    object_id: str,
    client_program_id: int,
    *,
    change: Callable[[User, ClientProgram, HttpRequest], str],
) -> HttpResponse:
    """One button's POST: the change through its service, then back to the client's page."""
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    user = acting_user(request)
    client = client_or_404(request, object_id)
    client_program = (
        client_programs_for_user(user=user).filter(pk=client_program_id, client=client).first()
    )
    if client_program is None:
        raise Http404
    try:
        done = change(user, client_program, request)
    except (ValidationError, PermissionDenied) as refused:
        for message in getattr(refused, "messages", [str(refused)]):
            messages.error(request, message, extra_tags=PANEL)
    else:
        messages.success(request, done, extra_tags=PANEL)
    return HttpResponseRedirect(client_page(client))


def title_of(client_program: ClientProgram) -> dict[str, str]:
    return {"title": isolated_text(client_program.title)}


def pause(user: User, client_program: ClientProgram, request: HttpRequest) -> str:
    services.client_program_pause(actor=user, client_program_id=client_program.pk)
    return _("Paused “%(title)s”: no step comes until you resume it.") % title_of(client_program)


def resume(user: User, client_program: ClientProgram, request: HttpRequest) -> str:
    services.client_program_resume(actor=user, client_program_id=client_program.pk)
    return _("Resumed “%(title)s”: steps now due have come.") % title_of(client_program)


def stop(user: User, client_program: ClientProgram, request: HttpRequest) -> str:
    services.client_program_stop(actor=user, client_program_id=client_program.pk)
    return _("Stopped “%(title)s”. Work already given stays with the client.") % title_of(
        client_program
    )


def skip(user: User, client_program: ClientProgram, request: HttpRequest) -> str:
    step_id = parse_id(request.POST.get("step"))
    if step_id is None:
        raise ValidationError(_("Choose a step to skip. Nothing was changed."))
    services.client_program_skip_step(
        actor=user, client_program_id=client_program.pk, step_id=step_id
    )
    position = client_program.steps.filter(pk=step_id).values_list("position", flat=True).get()
    return _("Skipped step %(position)s of “%(title)s”.") % {
        "position": position,
        **title_of(client_program),
    }


ACTIONS = {"pause": pause, "resume": resume, "stop": stop, "skip": skip}
