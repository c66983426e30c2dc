"""The exercise editor's preview: the exercise as the form stands, drawn by the portal's own
templates for its kind. Nothing here is saved."""

from typing import TYPE_CHECKING, Any

from django.contrib import admin
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.views.decorators.clickjacking import xframe_options_sameorigin

from homework.models import Assignment, Exercise
from homework.workspace.forms import ExerciseForm
from homework.workspace.views import preview_of

if TYPE_CHECKING:
    AdminOf = admin.ModelAdmin[Any]
else:
    AdminOf = admin.ModelAdmin


@xframe_options_sameorigin
def exercise_preview(
    model_admin: AdminOf, request: HttpRequest, object_id: str | None = None
) -> HttpResponse:
    """GET shows the exercise as saved; POST shows the editor's form as it stands. Another
    therapist's exercise is not found, as if it did not exist."""
    if request.method not in ("GET", "HEAD", "POST"):
        return HttpResponseNotAllowed(["GET", "POST"])
    saved = None
    if object_id is not None:
        saved = model_admin.get_object(request, object_id)
        if saved is None:
            raise Http404
    elif request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    may_edit = (
        model_admin.has_change_permission(request, saved)
        if saved is not None
        else model_admin.has_add_permission(request)
    )
    if request.method == "POST" and may_edit:
        context = preview_context(data=request.POST, saved=saved)
    elif saved is not None:
        context = preview_context(data=None, saved=saved)
    else:
        raise Http404
    return TemplateResponse(request, "admin/homework/exercise/preview.html", context)


def preview_html(request: HttpRequest, *, saved: Exercise | None) -> str:
    """Drawn into the editor as it opens: the exercise as saved, or after a refused save, the
    form as it was left, so the frame never waits for a change to show something."""
    data = request.POST if request.method == "POST" else None
    if data is None and saved is None:
        return ""
    context = preview_context(data=data, saved=saved)
    return render_to_string("admin/homework/exercise/preview.html", context, request=request)


def preview_context(*, data: Any, saved: Exercise | None) -> dict[str, Any]:
    """The form is checked as a save would check it; what it refuses is listed, not drawn."""
    if data is None:
        assert saved is not None
        return _drawn(saved, problems=[])
    instance = Exercise(pk=saved.pk, owner=saved.owner) if saved is not None else Exercise()
    if saved is not None:
        instance.options = saved.options
        instance.kind = saved.kind
    form = ExerciseForm(data, instance=instance)
    if form.is_valid():
        return _drawn(form.instance, problems=[])
    problems = [
        f"{form.fields[name].label}: {message}" if name in form.fields else str(message)
        for name, messages in form.errors.items()
        for message in messages
    ]
    kind_slug = form.cleaned_data.get("kind")
    if not kind_slug:
        return {"exercise": None, "problems": problems}
    # What can still be drawn: the words as typed, and the options if they were not what was
    # refused (else those last saved for this kind).
    options_refused = any(
        name == "options" or name.startswith(f"{kind_slug}_") for name in form.errors
    )
    if not options_refused:
        options = form.cleaned_data.get("options") or {}
    else:
        options = saved.options if saved is not None and saved.kind == kind_slug else {}
    sample = Exercise(
        kind=kind_slug,
        title=form.cleaned_data.get("title", ""),
        instructions=form.cleaned_data.get("instructions", ""),
        options=options,
    )
    return _drawn(sample, problems=problems)


def _drawn(exercise: Exercise, *, problems: list[str]) -> dict[str, Any]:
    if not exercise.title.strip():
        exercise.title = _("Your title here")
    return {**preview_of(Assignment(exercise=exercise)), "problems": problems}
