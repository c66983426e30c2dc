"""The Work and Social Adjustment Scale (Mundt, Marks, Shear & Greist 2002): five items, 0–8 each,
total 0–40, with the bands of its paper (below 10 subclinical, 10–20 significant impairment, above 20
moderately severe or worse) and 10 as its cutoff. Items and the 0–8 anchors as on the published form,
whose "[problem]" is filled in, as most services do, with "problem". The paper publishes a test-retest
reliability (.73) but no standard deviation to go with it for the whole scale, so no reliable-change
figure is given rather than one made up.

The published form has a box to tick for someone retired, or not working by choice for reasons
unrelated to their problem, whose work item is then left out and whose total is of the other four
(as CamCOPS scores it). Here the box is a yes/no question asked first; a "yes" lets the work item be
left blank and leaves it out of the total."""

from homework.library.item import LibraryExercise
from homework.library.measures.common import bands, scored_item

WSAS_CHOICES = [
    "0 – Not at all",
    "1",
    "2 – Slightly",
    "3",
    "4 – Definitely",
    "5",
    "6 – Markedly",
    "7",
    "8 – Very severely",
]
WSAS_ITEMS = [
    "Because of my problem my ability to work is impaired. ‘0’ means ‘not at all impaired’ and "
    "‘8’ means very severely impaired to the point I can’t work.",
    "Because of my problem my home management (cleaning, tidying, shopping, cooking, looking "
    "after home or children, paying bills) is impaired.",
    "Because of my problem my social leisure activities (with other people e.g. parties, bars, "
    "clubs, outings, visits, dating, home entertaining) are impaired.",
    "Because of my problem, my private leisure activities (done alone, such as reading, "
    "gardening, collecting, sewing, walking alone) are impaired.",
    "Because of my problem, my ability to form and maintain close relationships with others, "
    "including those I live with, is impaired.",
]
RETIRED_NOTE = (
    "If you’re retired or choose not to have a job for reasons unrelated to your problem, tick here"
)
RETIRED = {
    "key": "wsas_retired",
    "type": "yes_no",
    "text": (
        "Are you retired, or do you choose not to have a job for reasons unrelated to your problem?"
    ),
    "help": "If yes, you can leave the next question, about work, blank.",
    "required": False,
}

WSAS: LibraryExercise = {
    "kind": "worksheet",
    "title": "WSAS",
    "instructions": (
        "People’s problems sometimes affect their ability to do certain day-to-day tasks in their "
        "lives. To rate your problems look at each section and determine on the scale provided how "
        "much your problem impairs your ability to carry out the activity."
    ),
    "therapist_note": (
        "Work and Social Adjustment Scale, as published. Five items, 0–8 each; total 0–40: "
        "below 10 subclinical, 10–20 significant functional impairment, above 20 moderately "
        "severe or worse (Mundt et al. 2002). Cutoff 10. No reliable-change figure is given: the "
        "paper publishes a test-retest reliability (.73) without the standard deviation it "
        "needs. The published form's box (“" + RETIRED_NOTE + "”) is asked first as a yes/no "
        "question: after a “yes” the work item may be left blank, and the total is then of "
        "items 2–5 (out of 32), read against the same bands. "
        "Source: Mundt et al. (2002), Br J Psychiatry 180:461–464. Terms: free to use, published "
        "by its authors without a fee."
    ),
    "options": {
        "questions": [
            RETIRED,
            *(
                scored_item(
                    f"wsas_{n}",
                    text,
                    WSAS_CHOICES,
                    list(range(9)),
                    **({"skip_if_yes": "wsas_retired"} if n == 1 else {}),
                )
                for n, text in enumerate(WSAS_ITEMS, start=1)
            ),
        ],
        "score": {
            "method": "sum",
            "better": "lower",
            "label": "WSAS total",
            "bands": bands(
                (0, 9, "Subclinical"),
                (10, 20, "Significant functional impairment"),
                (21, 40, "Moderately severe or worse"),
            ),
            "cutoff": 10,
            "total_to_client": True,
            "source": (
                "Mundt JC, Marks IM, Shear MK, Greist JH. The Work and Social Adjustment Scale: a "
                "simple measure of impairment in functioning. Br J Psychiatry 2002;180:461–464."
            ),
            "terms": (
                "Free to use without a fee: published by its authors and widely distributed "
                "(copyright retained by I. M. Marks)."
            ),
        },
    },
}
