"""Each sent measure keeps its subscale scores beside its total, a plain column, so the client page
and the summary draw every subscale over time from one query, as they draw totals.

This fills it for the measures already sent (any worksheet whose score names subscales),
decrypting each response once, in batches. The rule is written out here rather than imported, as a
migration has to keep meaning what it meant when it ran: a subscale's items are each answered with
one of their choices (the points beside it), an item the form lets the client leave out adds
nothing, and the sum is multiplied by the subscale's multiplier; with any item unanswered the
subscale has no score. Going back drops the column: the code before this kept none."""

from typing import Any

from django.db import migrations, models

BATCH = 500


def _points(question: dict[str, Any], value: Any) -> int | None:
    points, choices = question.get("points"), question.get("choices") or []
    if isinstance(points, list):
        return (
            int(points[choices.index(value)])
            if isinstance(value, str) and value in choices
            else None
        )
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _left_out(question: dict[str, Any], response: dict[str, Any]) -> bool:
    unless = question.get("skip_if_yes")
    return isinstance(unless, str) and response.get(unless) == "yes"


def _subscales(options: Any) -> list[dict[str, Any]]:
    rule = options.get("score") if isinstance(options, dict) else None
    found = rule.get("subscales") if isinstance(rule, dict) else None
    return [s for s in found or [] if isinstance(s, dict) and isinstance(s.get("key"), str)]


def _scores(options: dict[str, Any], response: Any) -> dict[str, float]:
    if not isinstance(response, dict):
        return {}
    questions = {
        q["key"]: q for q in options.get("questions") or [] if isinstance(q, dict) and "key" in q
    }
    scores: dict[str, float] = {}
    for subscale in _subscales(options):
        points = [
            _points(questions[item], response.get(item)) if item in questions else None
            for item in subscale.get("items") or []
            if not (item in questions and _left_out(questions[item], response))
        ]
        if points and all(p is not None for p in points):
            multiplier = subscale.get("multiplier")
            if isinstance(multiplier, bool) or not isinstance(multiplier, int | float):
                multiplier = 1
            scores[subscale["key"]] = float(
                sum(p for p in points if p is not None) * (multiplier or 1)
            )
    return scores


def fill_subscale_scores(apps: Any, schema_editor: Any) -> None:
    Exercise = apps.get_model("homework", "Exercise")
    Entry = apps.get_model("homework", "Entry")
    options = {
        pk: found
        for pk, found in Exercise.objects.filter(kind="worksheet").values_list("pk", "options")
        if _subscales(found)
    }
    sent = Entry.objects.filter(status="submitted", assignment__exercise__in=list(options))
    last_pk = 0
    while True:
        batch = list(
            sent.filter(pk__gt=last_pk)
            .order_by("pk")
            .select_related("assignment")
            .only("pk", "response", "assignment__exercise_id")[:BATCH]
        )
        if not batch:
            return
        for entry in batch:
            entry.subscale_scores = _scores(options[entry.assignment.exercise_id], entry.response)
        Entry.objects.bulk_update(batch, ["subscale_scores"])
        last_pk = batch[-1].pk


class Migration(migrations.Migration):
    dependencies = [("homework", "0037_dass21_short_form_reliability")]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="subscale_scores",
            field=models.JSONField(
                blank=True, editable=False, null=True, verbose_name="subscale scores"
            ),
        ),
        migrations.RunPython(fill_subscale_scores, migrations.RunPython.noop),
    ]
