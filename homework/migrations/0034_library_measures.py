"""The PCL-5, the DASS-21 and the WSAS join the library, and the library's own PHQ-9 and GAD-7 gain
their published cutoff, source, terms of use and LOINC code.

``install`` adds only exercises whose title is not taken (a practice's own "PCL-5" stays theirs).
The PHQ-9 and GAD-7 rows are the library's own (no owner); a figure already on their score, or a
note the practice rewrote, is left as it is. Entries already sent keep their totals: nothing is
rescored. Going back takes the additions off those two rows and leaves the new measures: by then
they are the practice's, and work may already be set with them.
"""

from typing import Any

from django.db import migrations

PHQ_TERMS = (
    "Developed by Drs Robert L. Spitzer, Janet B.W. Williams, Kurt Kroenke and colleagues, with "
    "an educational grant from Pfizer Inc.: no permission is required to reproduce, translate, "
    "display or distribute."
)
ADDED: dict[str, dict[str, Any]] = {
    "PHQ-9": {
        "cutoff": 10,
        "source": (
            "Kroenke K, Spitzer RL, Williams JBW. The PHQ-9: validity of a brief depression "
            "severity measure. J Gen Intern Med 2001;16:606–613."
        ),
        "terms": PHQ_TERMS,
        "loinc": {"total": "44261-6"},
    },
    "GAD-7": {
        "cutoff": 10,
        "source": (
            "Spitzer RL, Kroenke K, Williams JBW, Löwe B. A brief measure for assessing "
            "generalized anxiety disorder: the GAD-7. Arch Intern Med 2006;166:1092–1097."
        ),
        "terms": PHQ_TERMS,
        "loinc": {"total": "70274-6"},
    },
}
NOTES = {
    "PHQ-9": (
        "Patient Health Questionnaire (depression), as published. Total 0–27: "
        "0–4 minimal, 5–9 mild, 10–14 moderate, 15–19 moderately severe, 20–27 severe. "
        "Any answer above 0 on item 9 is flagged for your review.",
        " Cutoff 10 (Kroenke et al. 2001: sensitivity and specificity 88% for major depression); "
        "reliable change 6 points (Gyani et al. 2013). Source: Kroenke, Spitzer & Williams "
        "(2001), J Gen Intern Med 16:606–613. Terms: free to use, no permission needed (Pfizer's "
        "PHQ Screeners).",
    ),
    "GAD-7": (
        "Generalized Anxiety Disorder 7-item scale, as published. Total 0–21: "
        "0–4 minimal, 5–9 mild, 10–14 moderate, 15–21 severe.",
        " Cutoff 10 (Spitzer et al. 2006: sensitivity 89%, specificity 82%); reliable change 4 "
        "points (Gyani et al. 2013). Source: Spitzer, Kroenke, Williams & Löwe (2006), Arch "
        "Intern Med 166:1092–1097. Terms: free to use, no permission needed (Pfizer's PHQ "
        "Screeners).",
    ),
}


def _library_rows(apps: Any) -> Any:
    exercise_model = apps.get_model("homework", "Exercise")
    return exercise_model.objects.filter(owner__isnull=True, kind="worksheet", title__in=ADDED)


def install_measures(apps: Any, schema_editor: Any) -> None:
    from homework.library import install

    install(apps.get_model("homework", "Exercise"))
    for exercise in _library_rows(apps):
        score = exercise.options.get("score") if isinstance(exercise.options, dict) else None
        if not isinstance(score, dict):
            continue
        for name, value in ADDED[exercise.title].items():
            score.setdefault(name, value)
        before, more = NOTES[exercise.title]
        if exercise.therapist_note == before:
            exercise.therapist_note = before + more
        exercise.save(update_fields=["options", "therapist_note"])


def remove_additions(apps: Any, schema_editor: Any) -> None:
    for exercise in _library_rows(apps):
        score = exercise.options.get("score") if isinstance(exercise.options, dict) else None
        if not isinstance(score, dict):
            continue
        for name, value in ADDED[exercise.title].items():
            if score.get(name) == value:
                del score[name]
        before, more = NOTES[exercise.title]
        if exercise.therapist_note == before + more:
            exercise.therapist_note = before
        exercise.save(update_fields=["options", "therapist_note"])


class Migration(migrations.Migration):
    dependencies = [("homework", "0033_before_session")]

    operations = [migrations.RunPython(install_measures, remove_additions)]
