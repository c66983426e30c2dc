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


def _item(key: str, text: str, **extra: Any) -> dict[str, Any]:
    return {
        "key": key,
        "type": "single_choice",
        "text": text,
        "required": True,
        "choices": OFTEN,
        "points": OFTEN_POINTS,
        "scored": True,
        **extra,
    }


def _difficulty(text: str) -> dict[str, Any]:
    # Asked by the published form, answered only if the client wishes, never in the total.
    return {
        "key": "difficulty",
        "type": "single_choice",
        "text": text,
        "required": False,
        "choices": DIFFICULT,
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
        "questions": [
            *(
                _item(f"phq9_{n}", text, **({"review_above": 0} if n == 9 else {}))
                for n, text in enumerate(PHQ9_ITEMS, start=1)
            ),
            _difficulty(PHQ9_DIFFICULTY),
        ],
        "score": {
            "method": "sum",
            "better": "lower",
            "label": "PHQ-9 total",
            "bands": _bands(
                (0, 4, "Minimal"),
                (5, 9, "Mild"),
                (10, 14, "Moderate"),
                (15, 19, "Moderately severe"),
                (20, 27, "Severe"),
            ),
            "reliable_change": 6,
            "total_to_client": True,
            "cutoff": 10,
            "source": (
                "Kroenke K, Spitzer RL, Williams JBW. The PHQ-9: validity of a brief depression "
                "severity measure. J Gen Intern Med 2001;16:606–613."
            ),
            "terms": PHQ_TERMS,
            "loinc": {"total": "44261-6"},
        },
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
        "questions": [
            *(_item(f"gad7_{n}", text) for n, text in enumerate(GAD7_ITEMS, start=1)),
            _difficulty(GAD7_DIFFICULTY),
        ],
        "score": {
            "method": "sum",
            "better": "lower",
            "label": "GAD-7 total",
            "bands": _bands(
                (0, 4, "Minimal"), (5, 9, "Mild"), (10, 14, "Moderate"), (15, 21, "Severe")
            ),
            "reliable_change": 4,
            "total_to_client": True,
            "cutoff": 10,
            "source": (
                "Spitzer RL, Kroenke K, Williams JBW, Löwe B. A brief measure for assessing "
                "generalized anxiety disorder: the GAD-7. Arch Intern Med 2006;166:1092–1097."
            ),
            "terms": PHQ_TERMS,
            "loinc": {"total": "70274-6"},
        },
    },
}
