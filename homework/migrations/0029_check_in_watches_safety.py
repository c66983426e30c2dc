"""The library's weekly check-in flags a safety answer of 3 or lower.

Its "How safe have you felt?" answered 0 of 10 reached the therapist as an
ordinary entry. The library's own row (not a therapist's copy) gets the
watch on that question where it is still the scored 0–10 safety question
and watches nothing yet, and the note that says so where the note is still
the library's. Entries already sent keep their flags as they were sent:
none is flagged after the fact. Going back takes the watch away again.
"""

from typing import Any

from django.db import migrations

TITLE = "Weekly check-in: pull and clarity"
QUESTION = "safe"
AT_OR_BELOW = 3
NOTE_BEFORE = (
    "Our own reflective check-in, not a validated measure. The total (mean of the five, "
    "pull reversed; higher = steadier) is charted over time in the portal and the summary."
)
NOTE_AFTER = NOTE_BEFORE + " A safety answer of 3 or lower is flagged for your review."
WATCHES = ("review_above", "review_at_or_below", "review_choices")


def _safety_question(options: Any) -> dict[str, Any] | None:
    questions = options.get("questions") if isinstance(options, dict) else None
    for question in questions if isinstance(questions, list) else []:
        if (
            isinstance(question, dict)
            and question.get("key") == QUESTION
            and question.get("type") == "scale_0_10"
            and question.get("scored") is True
        ):
            return question
    return None


def watch_safety(apps: Any, schema_editor: Any) -> None:
    exercise_model = apps.get_model("homework", "Exercise")
    for exercise in exercise_model.objects.filter(
        owner__isnull=True, title=TITLE, kind="worksheet"
    ):
        question = _safety_question(exercise.options)
        if question is None or any(name in question for name in WATCHES):
            continue
        question["review_at_or_below"] = AT_OR_BELOW
        if exercise.therapist_note == NOTE_BEFORE:
            exercise.therapist_note = NOTE_AFTER
        exercise.save(update_fields=["options", "therapist_note"])


def unwatch_safety(apps: Any, schema_editor: Any) -> None:
    exercise_model = apps.get_model("homework", "Exercise")
    for exercise in exercise_model.objects.filter(
        owner__isnull=True, title=TITLE, kind="worksheet"
    ):
        question = _safety_question(exercise.options)
        if question is None or question.get("review_at_or_below") != AT_OR_BELOW:
            continue
        del question["review_at_or_below"]
        if exercise.therapist_note == NOTE_AFTER:
            exercise.therapist_note = NOTE_BEFORE
        exercise.save(update_fields=["options", "therapist_note"])


class Migration(migrations.Migration):
    dependencies = [("homework", "0028_prepared_download_file_field")]

    operations = [migrations.RunPython(watch_safety, unwatch_safety)]
