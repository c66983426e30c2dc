"""The PHQ-9 (Kroenke, Spitzer & Williams 2001) and GAD-7 (Spitzer et al. 2006) as worksheets, free
to reproduce, with items, points and bands exactly as published (CLINICAL.md, Standard measures).
Reliable change uses the thresholds in common use, 6 and 4 points (Gyani et al. 2013); the cutoff of
10 is each paper's own. The LOINC codes are the totals' published codes (loinc.org 44261-6 and
70274-6). The words are never rewritten: a published measure's scores mean something only when
asked as published."""

from typing import Any

from homework.library.item import LibraryExercise
from homework.library.measures.common import bands as _bands

OFTEN = ["Not at all", "Several days", "More than half the days", "Nearly every day"]
OFTEN_POINTS = [0, 1, 2, 3]
DIFFICULT = ["Not difficult at all", "Somewhat difficult", "Very difficult", "Extremely difficult"]

PHQ9_ITEMS = [
    "Little interest or pleasure in doing things",
    "Feeling down, depressed, or hopeless",
    "Trouble falling or staying asleep, or sleeping too much",
    "Feeling tired or having little energy",
    "Poor appetite or overeating",
    "Feeling bad about yourself — or that you are a failure or have let yourself or your "
    "family down",
    "Trouble concentrating on things, such as reading the newspaper or watching television",
    "Moving or speaking so slowly that other people could have noticed? Or the opposite — "
    "being so fidgety or restless that you have been moving around a lot more than usual",
    "Thoughts that you would be better off dead or of hurting yourself in some way",
]
PHQ9_DIFFICULTY = (
    "If you checked off any problems, how difficult have these problems made it for you to do "
    "your work, take care of things at home, or get along with other people?"
)
GAD7_ITEMS = [
    "Feeling nervous, anxious or on edge",
    "Not being able to stop or control worrying",
    "Worrying too much about different things",
    "Trouble relaxing",
    "Being so restless that it is hard to sit still",
    "Becoming easily annoyed or irritable",
    "Feeling afraid as if something awful might happen",
]
GAD7_DIFFICULTY = (
    "If you checked off any problems, how difficult have these made it for you to do your work, "
    "take care of things at home, or get along with other people?"
)


# The published figures, whatever the language the items are asked in.
PHQ9_BAND_RANGES = [(0, 4), (5, 9), (10, 14), (15, 19), (20, 27)]
GAD7_BAND_RANGES = [(0, 4), (5, 9), (10, 14), (15, 21)]
CUTOFF = 10
PHQ9_RELIABLE_CHANGE = 6
GAD7_RELIABLE_CHANGE = 4
PHQ9_LOINC = {"total": "44261-6"}
GAD7_LOINC = {"total": "70274-6"}


def often_item(key: str, text: str, choices: list[str], **extra: Any) -> dict[str, Any]:
    """An item answered by how often, worth 0–3 in the order the choices are given."""
    return {
        "key": key,
        "type": "single_choice",
        "text": text,
        "required": True,
        "choices": choices,
        "points": OFTEN_POINTS,
        "scored": True,
        **extra,
    }


def difficulty_question(text: str, choices: list[str]) -> dict[str, Any]:
    # Asked by the published form, answered only if the client wishes, never in the total.
    return {
        "key": "difficulty",
        "type": "single_choice",
        "text": text,
        "required": False,
        "choices": choices,
    }


def phq9_questions(
    items: list[str], often: list[str], difficulty: str, difficulty_choices: list[str]
) -> list[dict[str, Any]]:
    """Item 9 (thoughts of being better off dead or of self-harm) is watched above 0."""
    return [
        *(
            often_item(f"phq9_{n}", text, often, **({"review_above": 0} if n == 9 else {}))
            for n, text in enumerate(items, start=1)
        ),
        difficulty_question(difficulty, difficulty_choices),
    ]


def gad7_questions(
    items: list[str], often: list[str], difficulty: str, difficulty_choices: list[str]
) -> list[dict[str, Any]]:
    return [
        *(often_item(f"gad7_{n}", text, often) for n, text in enumerate(items, start=1)),
        difficulty_question(difficulty, difficulty_choices),
    ]


def banded(ranges: list[tuple[int, int]], labels: list[str]) -> list[dict[str, Any]]:
    return _bands(*((low, high, label) for (low, high), label in zip(ranges, labels, strict=True)))


def phq9_score(*, label: str, band_labels: list[str], source: str, terms: str) -> dict[str, Any]:
    return {
        "method": "sum",
        "better": "lower",
        "label": label,
        "bands": banded(PHQ9_BAND_RANGES, band_labels),
        "reliable_change": PHQ9_RELIABLE_CHANGE,
        "total_to_client": True,
        "cutoff": CUTOFF,
        "source": source,
        "terms": terms,
        "loinc": dict(PHQ9_LOINC),
    }


def gad7_score(*, label: str, band_labels: list[str], source: str, terms: str) -> dict[str, Any]:
    return {
        "method": "sum",
        "better": "lower",
        "label": label,
        "bands": banded(GAD7_BAND_RANGES, band_labels),
        "reliable_change": GAD7_RELIABLE_CHANGE,
        "total_to_client": True,
        "cutoff": CUTOFF,
        "source": source,
        "terms": terms,
        "loinc": dict(GAD7_LOINC),
    }


PHQ_TERMS = (
    "Developed by Drs Robert L. Spitzer, Janet B.W. Williams, Kurt Kroenke and colleagues, with "
    "an educational grant from Pfizer Inc.: no permission is required to reproduce, translate, "
    "display or distribute."
)

PHQ9: LibraryExercise = {
    "kind": "worksheet",
    "title": "PHQ-9",
    "instructions": (
        "Over the last 2 weeks, how often have you been bothered by any of the following "
        "problems?\n\nPlease answer every question: each one counts. The last question is "
        "yours to answer or leave."
    ),
    "therapist_note": (
        "Patient Health Questionnaire (depression), as published. Total 0–27: "
        "0–4 minimal, 5–9 mild, 10–14 moderate, 15–19 moderately severe, 20–27 severe. "
        "Any answer above 0 on item 9 is flagged for your review. Cutoff 10 (Kroenke et al. "
        "2001: sensitivity and specificity 88% for major depression); reliable change 6 points "
        "(Gyani et al. 2013). Source: Kroenke, Spitzer & Williams (2001), J Gen Intern Med "
        "16:606–613. Terms: free to use, no permission needed (Pfizer's PHQ Screeners)."
    ),
    "options": {
        "questions": phq9_questions(PHQ9_ITEMS, OFTEN, PHQ9_DIFFICULTY, DIFFICULT),
        "score": phq9_score(
            label="PHQ-9 total",
            band_labels=["Minimal", "Mild", "Moderate", "Moderately severe", "Severe"],
            source=(
                "Kroenke K, Spitzer RL, Williams JBW. The PHQ-9: validity of a brief depression "
                "severity measure. J Gen Intern Med 2001;16:606–613."
            ),
            terms=PHQ_TERMS,
        ),
    },
}

GAD7: LibraryExercise = {
    "kind": "worksheet",
    "title": "GAD-7",
    "instructions": (
        "Over the last 2 weeks, how often have you been bothered by the following "
        "problems?\n\nPlease answer every question: each one counts. The last question is "
        "yours to answer or leave."
    ),
    "therapist_note": (
        "Generalized Anxiety Disorder 7-item scale, as published. Total 0–21: "
        "0–4 minimal, 5–9 mild, 10–14 moderate, 15–21 severe. Cutoff 10 (Spitzer et al. "
        "2006: sensitivity 89%, specificity 82%); reliable change 4 points (Gyani et al. "
        "2013). Source: Spitzer, Kroenke, Williams & Löwe (2006), Arch Intern Med "
        "166:1092–1097. Terms: free to use, no permission needed (Pfizer's PHQ Screeners)."
    ),
    "options": {
        "questions": gad7_questions(GAD7_ITEMS, OFTEN, GAD7_DIFFICULTY, DIFFICULT),
        "score": gad7_score(
            label="GAD-7 total",
            band_labels=["Minimal", "Mild", "Moderate", "Severe"],
            source=(
                "Spitzer RL, Kroenke K, Williams JBW, Löwe B. A brief measure for assessing "
                "generalized anxiety disorder: the GAD-7. Arch Intern Med 2006;166:1092–1097."
            ),
            terms=PHQ_TERMS,
        ),
    },
}
