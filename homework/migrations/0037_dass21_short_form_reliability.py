"""The library's DASS-21 reads reliable change with the 21-item form's own reliability (Henry &
Crawford 2005: α .88, .82, .90) in place of the 42-item form's (.91, .84, .90), and names that
source. Only the library's own row changes, and on it only a figure, source or note still as first
installed: a practice that set its own keeps it. Entries already sent keep their scores: the
reliability only changes how the change between them is read. Going back restores the old ones."""

from typing import Any

from django.db import migrations

OLD_RELIABILITY = {"depression": 0.91, "anxiety": 0.84, "stress": 0.90}
NEW_RELIABILITY = {"depression": 0.88, "anxiety": 0.82, "stress": 0.90}
OLD_SOURCE = (
    "Lovibond SH, Lovibond PF. Manual for the Depression Anxiety Stress Scales. 2nd ed. "
    "Sydney: Psychology Foundation; 1995. Internal consistency: Lovibond PF, Lovibond "
    "SH, Behav Res Ther 1995;33:335–343."
)
NEW_SOURCE = (
    "Lovibond SH, Lovibond PF. Manual for the Depression Anxiety Stress Scales. 2nd ed. "
    "Sydney: Psychology Foundation; 1995. Internal consistency of the 21-item form: "
    "Henry JD, Crawford JR. The short-form version of the Depression Anxiety Stress "
    "Scales (DASS-21): construct validity and normative data in a large non-clinical "
    "sample. Br J Clin Psychol 2005;44:227–239."
)
NOTE_START = (
    "Depression Anxiety Stress Scales (21 items), as published. Each scale is its seven "
    "items (0–3) summed and doubled, 0–42. Depression: 0–9 normal, 10–13 mild, 14–20 "
    "moderate, 21–27 severe, 28+ extremely severe. Anxiety: 0–7, 8–9, 10–14, 15–19, 20+. "
    "Stress: 0–14, 15–18, 19–25, 26–33, 34+. Cutoff: the first score above normal (10, 8, "
    "15). "
)
OLD_NOTE = NOTE_START + (
    "Reliable change: the Jacobson–Truax index from the manual's norms (about 6, 5 and "
    "7 points). The total of all 21 items is shown without a band: none is published. "
    "Source: Lovibond & Lovibond (1995), Manual for the Depression Anxiety Stress Scales. "
    "Terms: public domain, no permission needed."
)
NEW_NOTE = NOTE_START + (
    "Reliable change: the Jacobson–Truax index from the manual's norms and the short "
    "form's reliability (about 7, 6 and 7 points). The total of all 21 items is shown "
    "without a band: none is published. Source: Lovibond & Lovibond (1995), Manual for the "
    "Depression Anxiety Stress Scales; Henry & Crawford (2005). Terms: public domain, no "
    "permission needed."
)


def _rewrite(
    apps: Any,
    *,
    reliability: dict[str, float],
    new: dict[str, float],
    source: tuple[str, str],
    note: tuple[str, str],
) -> None:
    exercise_model = apps.get_model("homework", "Exercise")
    rows = exercise_model.objects.filter(owner__isnull=True, kind="worksheet", title="DASS-21")
    for exercise in rows:
        score = exercise.options.get("score") if isinstance(exercise.options, dict) else None
        if not isinstance(score, dict):
            continue
        for scale in score.get("subscales") or []:
            key = scale.get("key") if isinstance(scale, dict) else None
            if key in reliability and scale.get("reliability") == reliability[key]:
                scale["reliability"] = new[key]
        if score.get("source") == source[0]:
            score["source"] = source[1]
        if exercise.therapist_note == note[0]:
            exercise.therapist_note = note[1]
        exercise.save(update_fields=["options", "therapist_note"])


def short_form_reliability(apps: Any, schema_editor: Any) -> None:
    _rewrite(
        apps,
        reliability=OLD_RELIABILITY,
        new=NEW_RELIABILITY,
        source=(OLD_SOURCE, NEW_SOURCE),
        note=(OLD_NOTE, NEW_NOTE),
    )


def long_form_reliability(apps: Any, schema_editor: Any) -> None:
    _rewrite(
        apps,
        reliability=NEW_RELIABILITY,
        new=OLD_RELIABILITY,
        source=(NEW_SOURCE, OLD_SOURCE),
        note=(NEW_NOTE, OLD_NOTE),
    )


class Migration(migrations.Migration):
    dependencies = [("homework", "0036_alerts_for_unread_flags")]

    operations = [migrations.RunPython(short_form_reliability, long_form_reliability)]
