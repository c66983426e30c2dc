"""The PTSD Checklist for DSM-5 (Weathers, Litz, Keane, Palmieri, Marx & Schnurr 2013), the version
without Criterion A, in the public domain from the US National Center for PTSD. Items, answers and
order as on its form (PCL-5, 8/14/2013); only "circle one of the numbers to the right" becomes
"choose the answer", the screen having no numbers to circle.

Figures from the National Center for PTSD's "Using the PTSD Checklist for DSM-5": a provisional
cutoff of 31–33, of which the library takes 33 (the top of the range, so a score read as "in the
clinical range" holds under each of the three); and "a 5–10 point change represents reliable change
and a 10–20 point change clinically significant change", of which it takes 10 (the top of the
reliable range and the Center's minimum for a meaningful change). It publishes no severity bands,
so the total has none; the four DSM-5 clusters (B 1–5, C 6–7, D 8–14, E 15–20) are summed as its
scoring notes say. No item asks about self-harm: nothing is watched."""

from homework.library.item import LibraryExercise
from homework.library.measures.common import scored_item, subscale

PCL5_CHOICES = ["Not at all", "A little bit", "Moderately", "Quite a bit", "Extremely"]
PCL5_ITEMS = [
    "Repeated, disturbing, and unwanted memories of the stressful experience?",
    "Repeated, disturbing dreams of the stressful experience?",
    "Suddenly feeling or acting as if the stressful experience were actually happening again "
    "(as if you were actually back there reliving it)?",
    "Feeling very upset when something reminded you of the stressful experience?",
    "Having strong physical reactions when something reminded you of the stressful experience "
    "(for example, heart pounding, trouble breathing, sweating)?",
    "Avoiding memories, thoughts, or feelings related to the stressful experience?",
    "Avoiding external reminders of the stressful experience (for example, people, places, "
    "conversations, activities, objects, or situations)?",
    "Trouble remembering important parts of the stressful experience?",
    "Having strong negative beliefs about yourself, other people, or the world (for example, "
    "having thoughts such as: I am bad, there is something seriously wrong with me, no one can "
    "be trusted, the world is completely dangerous)?",
    "Blaming yourself or someone else for the stressful experience or what happened after it?",
    "Having strong negative feelings such as fear, horror, anger, guilt, or shame?",
    "Loss of interest in activities that you used to enjoy?",
    "Feeling distant or cut off from other people?",
    "Trouble experiencing positive feelings (for example, being unable to feel happiness or have "
    "loving feelings for people close to you)?",
    "Irritable behavior, angry outbursts, or acting aggressively?",
    "Taking too many risks or doing things that could cause you harm?",
    'Being "superalert" or watchful or on guard?',
    "Feeling jumpy or easily startled?",
    "Having difficulty concentrating?",
    "Trouble falling or staying asleep?",
]
CUTOFF = 33
RELIABLE_CHANGE = 10


def _keys(first: int, last: int) -> list[str]:
    return [f"pcl5_{n}" for n in range(first, last + 1)]


PCL5: LibraryExercise = {
    "kind": "worksheet",
    "title": "PCL-5",
    "instructions": (
        "Below is a list of problems that people sometimes have in response to a very stressful "
        "experience. Please read each problem carefully and then choose the answer that shows how "
        "much you have been bothered by that problem in the past month.\n\n"
        "In the past month, how much were you bothered by:"
    ),
    "therapist_note": (
        "PTSD Checklist for DSM-5, as published (without Criterion A). Total 0–80, 0–4 an item. "
        "Provisional cutoff 33 (the National Center for PTSD gives 31–33; 33 is the top of that "
        "range). Reliable change 10 points (the Center: 5–10 points is reliable change, 10–20 "
        "clinically meaningful). No severity bands are published. Cluster scores: intrusions "
        "(B, items 1–5), avoidance (C, 6–7), negative changes in thinking and mood (D, 8–14), "
        "arousal and reactivity (E, 15–20). Source: Weathers et al. (2013), National Center for "
        "PTSD. Terms: public domain (US Government work)."
    ),
    "options": {
        "questions": [
            scored_item(f"pcl5_{n}", text, PCL5_CHOICES, [0, 1, 2, 3, 4])
            for n, text in enumerate(PCL5_ITEMS, start=1)
        ],
        "score": {
            "method": "sum",
            "better": "lower",
            "label": "PCL-5 total",
            "reliable_change": RELIABLE_CHANGE,
            "cutoff": CUTOFF,
            "total_to_client": True,
            "subscales": [
                subscale("intrusion", "Intrusions (B)", _keys(1, 5)),
                subscale("avoidance", "Avoidance (C)", _keys(6, 7)),
                subscale(
                    "cognition_mood", "Negative changes in thinking and mood (D)", _keys(8, 14)
                ),
                subscale("arousal", "Arousal and reactivity (E)", _keys(15, 20)),
            ],
            "source": (
                "Weathers FW, Litz BT, Keane TM, Palmieri PA, Marx BP, Schnurr PP. The PTSD "
                "Checklist for DSM-5 (PCL-5). National Center for PTSD, 2013. Cutoff and reliable "
                "change: National Center for PTSD, Using the PTSD Checklist for DSM-5."
            ),
            "terms": (
                "Public domain: a work of the US Department of Veterans Affairs' National Center "
                "for PTSD, free to use without permission."
            ),
        },
    },
}
