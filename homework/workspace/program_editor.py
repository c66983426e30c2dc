"""The program builder's pages: the step editor (works without JavaScript: each row's buttons
post the form and come back rearranged, nothing saved until "Save"), and the client's preview."""

from typing import TYPE_CHECKING, Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _

from homework.models import Assignment, Program
from homework.selectors.programs import exercises_for_steps, programs_for_user, programs_with_steps
from homework.services import programs as services
from homework.workspace.program_display import steps_with_timing
from homework.workspace.program_forms import (
    STEPS_PREFIX,
    ProgramForm,
    blank_step,
    posted_rows,
    rearranged,
    step_data,
    steps_formset,
)
from homework.workspace.views import preview_of
from practice.admin_access import not_found
from practice.refusals import form_refused
from practice.requests import acting_user, parse_id

if TYPE_CHECKING:
    AdminOf = admin.ModelAdmin[Any]
else:
    AdminOf = admin.ModelAdmin


def program_change(model_admin: AdminOf, request: HttpRequest, object_id: str) -> HttpResponse:
    user = acting_user(request)
    program = find(request, object_id)
    if program is None:
        return not_found(model_admin, request, object_id)
    if not services.can_edit_program(user, program):
        if request.method == "POST":
            raise PermissionDenied
        return read_only(model_admin, request, program)
    exercises = list(exercises_for_steps(user=user, program=program))
    if request.method != "POST":
        rows = [
            {
                "exercise": step.exercise_id,
                "instructions": step.instructions,
                "release": step.release,
                "days": step.days,
                "required": step.required,
            }
            for step in program.steps.order_by("position")
        ]
        context = {
            "form": ProgramForm(instance=program),
            "formset": steps_formset(exercises, initial=rows or [blank_step()]),
            "revision": program.revision,
        }
        return editor(model_admin, request, program, context)
    # A fresh instance: a refused form must not change the program read for the page.
    form = ProgramForm(request.POST)
    posted = {"revision": request.POST.get("revision", "")}
    moved = rearranged(posted_rows(request.POST, STEPS_PREFIX), request.POST)
    if moved is not None:
        context = {**posted, "form": form, "formset": steps_formset(exercises, initial=moved)}
        context["unsaved"] = True
        return editor(model_admin, request, program, context)
    formset = steps_formset(exercises, data=request.POST)
    context = {**posted, "form": form, "formset": formset, "problems": []}
    if form.is_valid() and formset.is_valid():
        try:
            saved = services.program_update(
                actor=user,
                program=program,
                details=form.details(),
                steps=step_data(formset, exercises),
                revision=revision_of(posted["revision"]),
            )
        except services.ProgramChanged:
            context["problems"] = [
                _(
                    "Someone changed this program since you opened it: reload to see their "
                    "change. Nothing was saved."
                )
            ]
        except ValidationError as refused:
            context["problems"] = placed(refused, form, formset)
        else:
            model_admin.log_change(request, saved, _("Changed the program and its steps."))
            messages.success(request, _("The program “%(title)s” was saved.") % {"title": saved})
            return HttpResponseRedirect(request.path)
    return form_refused(request, editor(model_admin, request, program, context, status=400))


def revision_of(posted: str) -> int:
    """The revision the editor was opened at; anything else is no revision the program had."""
    return int(posted) if posted.isascii() and posted.isdigit() and len(posted) < 10 else -1


def placed(refused: ValidationError, form: ProgramForm, formset: Any) -> list[str]:
    """Each of the service's errors beside what it is about: a step's (keyed by its position) on
    that step, a field's on the field; the rest, for above the steps."""
    if not hasattr(refused, "error_dict"):
        return list(refused.messages)
    rest = []
    for key, problems in refused.message_dict.items():
        position = parse_id(key)
        if position is not None and position <= len(formset.forms):
            formset.forms[position - 1].add_error(None, problems)
        elif key in form.fields:
            form.add_error(key, problems)
        else:
            rest.extend(problems)
    return rest


def editor(
    model_admin: AdminOf,
    request: HttpRequest,
    program: Program,
    context: dict[str, Any],
    status: int = 200,
) -> HttpResponse:
    formset = context["formset"]
    return TemplateResponse(
        request,
        "admin/homework/program/editor.html",
        {
            **page_context(model_admin, request, program),
            "title": _("Change program: %(title)s") % {"title": program.title},
            "rows": list(enumerate(formset.forms)),
            "last_row": len(formset.forms) - 1,
            **context,
        },
        status=status,
    )


def read_only(model_admin: AdminOf, request: HttpRequest, program: Program) -> HttpResponse:
    steps = list(program.steps.select_related("exercise").order_by("position"))
    return TemplateResponse(
        request,
        "admin/homework/program/read_only.html",
        {
            **page_context(model_admin, request, program),
            "title": _("Program: %(title)s") % {"title": program.title},
            "steps": steps_with_timing(steps),
        },
    )


def program_preview(model_admin: AdminOf, request: HttpRequest, object_id: str) -> HttpResponse:
    """Each step as the portal would show it, in order, with when it would come."""
    if request.method not in ("GET", "HEAD"):
        return HttpResponseNotAllowed(["GET"])
    program = find(request, object_id, with_steps=True)
    if program is None:
        return not_found(model_admin, request, object_id)
    shown = []
    for number, step, comes in steps_with_timing(list(program.steps.all())):
        work = Assignment(exercise=step.exercise, instructions=step.instructions)
        preview = {**preview_of(work), "schedule": comes, "number": number, "step": step}
        # Each step's fields named apart, so no two labels on the page point at one id.
        preview["form"].prefix = f"s{number}"
        shown.append(preview)
    context = {
        **page_context(model_admin, request, program),
        "title": _("Preview: %(title)s") % {"title": program.title},
        "shown": shown,
        "steps_in_program": len(shown),
    }
    return TemplateResponse(request, "admin/homework/program/preview.html", context)


def program_copy(model_admin: AdminOf, request: HttpRequest, object_id: str) -> HttpResponse:
    """ "Make my own copy": a program the person may use becomes theirs to edit."""
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    program = find(request, object_id)
    if program is None:
        return not_found(model_admin, request, object_id)
    back = reverse("admin:homework_program_change", args=[program.pk])
    try:
        copied = services.program_copy(actor=acting_user(request), program=program)
    except ValidationError as refused:
        messages.error(
            request, _("No copy was made: %(reason)s") % {"reason": " ".join(refused.messages)}
        )
        return HttpResponseRedirect(back)
    model_admin.log_addition(request, copied, _("Copied from “%(title)s”.") % {"title": program})
    messages.success(request, _("This copy is yours to change. The original stays as it was."))
    return HttpResponseRedirect(reverse("admin:homework_program_change", args=[copied.pk]))


def find(request: HttpRequest, object_id: str, *, with_steps: bool = False) -> Program | None:
    program_id = parse_id(object_id)
    if program_id is None:
        return None
    programs = programs_for_user(user=acting_user(request)).select_related("owner")
    if with_steps:
        programs = programs_with_steps(programs)
    return programs.filter(pk=program_id).first()


def page_context(model_admin: AdminOf, request: HttpRequest, program: Program) -> dict[str, Any]:
    return {
        **model_admin.admin_site.each_context(request),
        "opts": model_admin.opts,
        "original": program,
        "program": program,
        # "Make my own copy" is for a program the person may read but not change.
        "can_copy": model_admin.has_add_permission(request)
        and not services.can_edit_program(acting_user(request), program),
    }
