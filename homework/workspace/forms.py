"""Forms of the therapist's workspace in the admin. They validate; services write."""

import copy
import json
import uuid
from collections.abc import Sequence
from typing import Any

from django import forms
from django.contrib.admin.widgets import AdminDateWidget
from django.core.exceptions import ValidationError
from django.forms.fields import InvalidJSONInput
from django.utils.dates import WEEKDAYS
from django.utils.translation import gettext_lazy as _

from clients.models import Client
from homework.kinds import ResponseInvalid, all_kinds, get_kind
from homework.models import DAYS_BEFORE_MAX, DAYS_BEFORE_MESSAGE, Assignment, Exercise
from homework.selectors.library_languages import LanguageWarning, exercise_language_warning
from homework.services import COMMENT_MAX_CHARS, assignment_check_update, new_exercise_owner
from homework.workspace.library_picker import LibraryChoiceField
from practice.models import User
from practice.requests import parse_id

ASSIGNMENT_FIELDS = (
    "client",
    "exercise",
    "instructions",
    "schedule",
    "starts_on",
    "due_on",
    "weekdays",
    "days_before",
    "ends_on",
    "no_contact_since",
    "status",
)
# What the same exercise for several clients shares (each client gets their own copy).
BULK_FIELDS = (
    "exercise",
    "instructions",
    "schedule",
    "starts_on",
    "due_on",
    "weekdays",
    "days_before",
    "ends_on",
)


class WeekdaysField(forms.TypedMultipleChoiceField):
    """Days of the week as check boxes, stored as numbers (0 = Monday)."""

    widget = forms.CheckboxSelectMultiple(attrs={"class": "weekday-choices"})

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("label", _("On these days"))
        kwargs.setdefault(
            "help_text",
            _("For a weekly schedule. With none ticked, it comes on the start date's weekday."),
        )
        super().__init__(
            choices=list(WEEKDAYS.items()), coerce=int, empty_value=[], required=False, **kwargs
        )


def normalise_schedule(cleaned: dict[str, Any]) -> None:
    """Drop what the chosen schedule does not use."""
    schedule = cleaned.get("schedule")
    if schedule == Assignment.Schedule.ONCE:
        cleaned["ends_on"] = None
        cleaned["weekdays"] = []
    elif schedule in (Assignment.Schedule.DAILY, Assignment.Schedule.BEFORE_SESSION):
        cleaned["due_on"] = None
        cleaned["weekdays"] = []
    elif schedule in (Assignment.Schedule.WEEKLY, Assignment.Schedule.FORTNIGHTLY):
        cleaned["due_on"] = None


def days_before_field() -> forms.IntegerField:
    """One message for every way a number of days can be wrong, naming what to type."""
    return forms.IntegerField(
        label=_("Days before each session"),
        required=False,
        min_value=1,
        max_value=DAYS_BEFORE_MAX,
        error_messages={
            "invalid": DAYS_BEFORE_MESSAGE,
            "min_value": DAYS_BEFORE_MESSAGE,
            "max_value": DAYS_BEFORE_MESSAGE,
        },
        widget=forms.NumberInput(attrs={"min": 1, "max": DAYS_BEFORE_MAX}),
        help_text=_(
            "For “Before each session”: it opens this many days before each booked "
            "session, and is due by the session."
        ),
    )


def said_once(form: forms.BaseForm, cleaned: dict[str, Any]) -> None:
    """A number of days refused by its field is not also "missing" to the model's check: the form
    stays refused, with the one message that says what to type."""
    if form.has_error("days_before"):
        cleaned["days_before"] = DAYS_BEFORE_MAX


def drop_unchanged_instructions(cleaned: dict[str, Any]) -> None:
    """Instructions left as the library has them are stored as none, so its later words reach."""
    exercise = cleaned.get("exercise")
    text = (cleaned.get("instructions") or "").strip()
    if exercise is not None and text == exercise.instructions.strip():
        cleaned["instructions"] = ""


_SCHEDULE_WIDGETS = {
    "schedule": forms.RadioSelect(attrs={"class": "schedule-choices"}),
    "instructions": forms.Textarea(attrs={"rows": 7, "class": "vLargeTextField"}),
}
_SCHEDULE_HELP = {
    "instructions": _(
        "What the client reads first. Start from the library's words and make them theirs; "
        "the preview shows the result."
    ),
    "due_on": _("For a one-off exercise. Optional."),
    "ends_on": _(
        "For a daily or weekly exercise: the last day it repeats. Leave it empty to keep it "
        "going until you stop it: then give it a last day here, or mark it completed."
    ),
    "no_contact_since": _("Only for a no-contact tracker: the day contact stopped."),
}


def drop_fields_the_kind_does_not_use(cleaned: dict[str, Any]) -> None:
    """A field another kind uses, posted anyway (the page shows every field without JavaScript),
    is ignored rather than stored or refused."""
    exercise = cleaned.get("exercise")
    if exercise is None:
        return
    used = get_kind(exercise.kind).assignment_fields
    for name in kind_assignment_fields():
        if name not in used and name in cleaned:
            cleaned[name] = None


def kind_assignment_fields() -> list[str]:
    """The assignment's fields some kind uses beyond the schedule (ExerciseKind.assignment_fields)."""
    return sorted({name for kind in all_kinds() for name in kind.assignment_fields})


class LanguageConfirmField(forms.BooleanField):
    """The tick that assigns work in a language the client does not read: hidden (its row too, in
    the admin) until the form has said so, so it is never ticked unread."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, widget=forms.HiddenInput, **kwargs)

    def show(self, warning: LanguageWarning) -> None:
        self.widget = forms.CheckboxInput()
        self.label = warning.confirm_label


def confirm_language(form: forms.BaseForm, warning: LanguageWarning | None, *, field: str) -> None:
    """Refuses ``field`` with ``warning`` until the tick is given; shows the tick either way."""
    if warning is None:
        return
    confirm: LanguageConfirmField = form.fields["language_confirmed"]  # type: ignore[assignment]
    confirm.show(warning)
    if not form.cleaned_data.get("language_confirmed"):
        form.add_error(field, warning.message)


class AssignmentForm(forms.ModelForm):  # type: ignore[type-arg]
    weekdays = WeekdaysField()
    days_before = days_before_field()
    language_confirmed = LanguageConfirmField()
    # Set by the admin for the person assigning: whose library a version may come from.
    acting_user: Any = None

    class Meta:
        model = Assignment
        fields = ASSIGNMENT_FIELDS
        field_classes = {"exercise": LibraryChoiceField}
        widgets = _SCHEDULE_WIDGETS
        help_texts = _SCHEDULE_HELP
        error_messages = {
            "client": {
                "invalid_choice": _(
                    "Choose one of your own clients. Archived clients cannot be given new work."
                )
            },
            "exercise": {"invalid_choice": _("Choose an exercise from your library.")},
        }

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        drop_fields_the_kind_does_not_use(cleaned)
        normalise_schedule(cleaned)
        drop_unchanged_instructions(cleaned)
        said_once(self, cleaned)
        self._check_language(cleaned)
        return cleaned

    def _check_language(self, cleaned: dict[str, Any]) -> None:
        """Work in a language the client does not read is said before saving (issue 39)."""
        exercise = cleaned.get("exercise")
        client = cleaned.get("client") or (
            self.instance.client if self.instance.client_id is not None else None
        )
        new_choice = self.instance.pk is None or "exercise" in self.changed_data
        if exercise is None or client is None or self.acting_user is None or not new_choice:
            return
        warning = exercise_language_warning(exercise, client, user=self.acting_user)
        confirm_language(self, warning, field="exercise")

    def _post_clean(self) -> None:
        # Django's step that sets the changes on the instance and runs the model's checks.
        super()._post_clean()  # type: ignore[misc]
        if self.instance.pk is not None and not self.errors:
            # New days that would rewrite what was asked: said beside their fields.
            try:
                assignment_check_update(assignment=self.instance)
            except ValidationError as refused:
                self.add_error(None, refused)


class BulkAssignForm(forms.ModelForm):  # type: ignore[type-arg]
    """One exercise for several clients: the assignment's fields without the client."""

    weekdays = WeekdaysField()
    days_before = days_before_field()

    class Meta:
        model = Assignment
        fields = BULK_FIELDS
        field_classes = {"exercise": LibraryChoiceField}
        # The admin's own date pickers, as on the form for one client.
        widgets = {
            **_SCHEDULE_WIDGETS,
            "starts_on": AdminDateWidget(),
            "due_on": AdminDateWidget(),
            "ends_on": AdminDateWidget(),
        }
        help_texts = {
            **_SCHEDULE_HELP,
            "instructions": _(
                "What each client reads first. Start from the library's words and make "
                "them theirs; each client gets the same words, which you can change later "
                "on their own assignment."
            ),
        }

    language_confirmed = LanguageConfirmField()

    def __init__(
        self,
        *args: Any,
        exercises: Any,
        clients: Sequence[Client] = (),
        acting_user: User | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.clients, self.acting_user = clients, acting_user
        exercise_field: forms.ModelChoiceField[Exercise] = self.fields["exercise"]  # type: ignore[assignment]
        exercise_field.queryset = exercises
        exercise_field.error_messages["invalid_choice"] = _("Choose an exercise from your library.")
        # One date for everyone would be a day gone for a client far ahead of the practice.
        starts_on = self.fields["starts_on"]
        starts_on.required = False
        starts_on.help_text = _(
            "Leave empty to start on each client’s own today, in their time zone "
            "(for someone far away that may already be tomorrow)."
        )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        normalise_schedule(cleaned)
        drop_unchanged_instructions(cleaned)
        said_once(self, cleaned)
        self._check_language(cleaned)
        return cleaned

    def _check_language(self, cleaned: dict[str, Any]) -> None:
        """Each client who reads another language is named, with the one tick for all of them."""
        exercise = cleaned.get("exercise")
        if exercise is None or self.acting_user is None:
            return
        warnings = [
            warning
            for client in self.clients
            if (warning := exercise_language_warning(exercise, client, user=self.acting_user))
        ]
        if warnings:
            said = list(dict.fromkeys(warning.message for warning in warnings))
            confirm_language(
                self, LanguageWarning(" ".join(said), warnings[0].confirm_label), field="exercise"
            )


class OptionsField(forms.JSONField):
    """A kind's options as indented JSON, with parse errors that say where."""

    def prepare_value(self, value: Any) -> str:
        if isinstance(value, InvalidJSONInput):
            return value
        # A new exercise has no options yet: show the "{}" the help text asks for.
        return json.dumps({} if value is None else value, indent=2, ensure_ascii=False)

    def bound_data(self, data: Any, initial: Any) -> Any:
        try:
            return super().bound_data(data, initial)
        except RecursionError:  # shown back as typed, with the error below (to_python)
            return InvalidJSONInput(data)

    def to_python(self, value: Any) -> Any:
        if isinstance(value, str) and value.strip():
            try:
                json.loads(value)
            except json.JSONDecodeError as error:
                raise forms.ValidationError(
                    _(
                        "This is not valid JSON (line %(line)s, column %(column)s: %(problem)s). "
                        "Check the commas, quotes and brackets near there."
                    ),
                    code="invalid",
                    params={"line": error.lineno, "column": error.colno, "problem": error.msg},
                ) from None
            except RecursionError:
                # Brackets inside brackets thousands deep: no kind's options look like that.
                raise forms.ValidationError(
                    _("These options are nested too deeply. No kind needs more than a few levels."),
                    code="invalid",
                ) from None
        return super().to_python(value)


class OptionsJSONWidget(forms.Textarea):
    """The options as JSON, folded away behind "Edit as JSON": the question editor is drawn above
    it where the kind has one, and without JavaScript it is the editor. Open when it holds an
    error, with the editor's last readable state (``builder``) for the script to draw again."""

    template_name = "admin/homework/exercise/options_widget.html"
    is_open = False
    builder: str | None = None

    def get_context(self, name: str, value: Any, attrs: Any) -> dict[str, Any]:
        context = super().get_context(name, value, attrs)
        if self.builder is not None:
            context["widget"]["attrs"]["data-builder-options"] = self.builder
        examples = [kind for kind in all_kinds() if kind.options_example is not None]
        context["is_open"] = self.is_open
        context["examples"] = [
            (kind.label, json.dumps(kind.options_example, indent=2, ensure_ascii=False))
            for kind in examples
        ]
        return context


# Posted by the question editor beside the JSON: read only to draw the editor again.
BUILDER_FIELD = "options_builder"


def builder_state(data: Any) -> str | None:
    """The question editor's last readable options, if they read as an object of options."""
    posted = data.get(BUILDER_FIELD) if data is not None else None
    try:
        parsed = json.loads(posted) if posted else None
    except (ValueError, RecursionError):
        return None
    return json.dumps(parsed) if isinstance(parsed, dict) else None


class ExerciseForm(forms.ModelForm):  # type: ignore[type-arg]
    """The kind checks its own options (clean_options); this form only shows what it says."""

    options = OptionsField(
        label=_("Questions"),
        required=False,
        widget=OptionsJSONWidget(attrs={"rows": 14, "class": "vLargeTextField json-editor"}),
    )

    class Meta:
        model = Exercise
        fields = (
            "kind",
            "title",
            "language",
            "translation_of",
            "instructions",
            "therapist_note",
            "options",
            "is_active",
        )
        widgets = {"instructions": forms.Textarea(attrs={"rows": 6, "class": "vLargeTextField"})}

    acting_user: User | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk is None and self.acting_user is not None:
            # Whose it will be, so its rules (a version's source shared as widely) read right.
            self.instance.owner = new_exercise_owner(self.acting_user)
        if "language" in self.fields:
            # A form posted without it (a script's, an older page's) keeps the language it had.
            self.fields["language"].required = False
        # Kinds with an editor of their own for the options.
        editors = {kind.slug: editor for kind in all_kinds() if (editor := kind.options_editor())}
        self.fields["options"].widget.attrs["data-options-editors"] = json.dumps(editors)
        for kind in all_kinds():
            if kind.options_form is None:
                continue
            own = self.instance.pk is not None and self.instance.kind == kind.slug
            # A new version in another language starts from the options it gives (its initial).
            given = self.instance.pk is None and self.initial.get("kind") == kind.slug
            options = (
                self.instance.options if own else self.initial.get("options") if given else None
            )
            initial = kind.options_form.initial_from(options) if options is not None else {}
            for name, field in kind.options_form.base_fields.items():
                self.fields[f"{kind.slug}_{name}"] = copy.deepcopy(field)
                self.initial[f"{kind.slug}_{name}"] = initial.get(name)

    def clean_language(self) -> str:
        return str(self.cleaned_data.get("language") or self.instance.language)

    def full_clean(self) -> None:
        super().full_clean()
        if self.is_bound and "options" in self.errors:
            widget = self.fields["options"].widget
            assert isinstance(widget, OptionsJSONWidget)
            widget.is_open = True
            widget.builder = builder_state(self.data)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        options_form = get_kind(cleaned["kind"]).options_form if cleaned.get("kind") else None
        own_fields: dict[str, Any] = {}
        if options_form is not None:
            # This kind's options come from its own fields; the JSON box is not shown for it.
            self.errors.pop("options", None)
            own_fields = {
                name: cleaned.get(f"{cleaned['kind']}_{name}") for name in options_form.base_fields
            }
            cleaned["options"] = options_form.options_from(own_fields)
        if cleaned.get("kind") and "options" not in self.errors:
            # What the exercise holds now, so the kind can tell old options from new ones.
            saved = (
                self.instance.options
                if self.instance.pk and self.instance.kind == cleaned["kind"]
                else None
            )
            try:
                cleaned["options"] = get_kind(cleaned["kind"]).clean_options(
                    cleaned.get("options"), saved=saved
                )
            except ResponseInvalid as invalid:
                for key, messages in invalid.errors.items():
                    if options_form is not None:
                        field = options_form.field_for(key, own_fields)
                        self.add_error(field and f"{cleaned['kind']}_{field}", messages)
                        continue
                    for message in messages:
                        where = "" if key in ("options", "__all__") else f"{key}: "
                        self.add_error("options", f"{where}{message}")
        return cleaned


class EntryCommentForm(forms.Form):
    """Carries the comment's text; the service decides what is acceptable."""

    text = forms.CharField(
        label=_("A short note for the client"),
        required=False,
        strip=False,
        # Its own direction: a comment in Arabic or Hebrew reads from the right.
        widget=forms.Textarea(
            attrs={"rows": 3, "maxlength": COMMENT_MAX_CHARS, "cols": 60, "dir": "auto"}
        ),
        help_text=_("They see it beside their entry in the portal."),
    )


def shown_versions(values: list[str]) -> dict[uuid.UUID, int] | None:
    """What a "Mark as read" button posts: each entry its page showed as "key:version"; None for
    anything else, which the view refuses."""
    shown: dict[uuid.UUID, int] = {}
    for value in values:
        key, _colon, version = value.partition(":")
        seen = parse_id(version)
        try:
            entry_key = uuid.UUID(key)
        except ValueError:
            return None
        if seen is None or entry_key in shown:
            return None
        shown[entry_key] = seen
    return shown
