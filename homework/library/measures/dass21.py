"""The Depression Anxiety Stress Scales, short form (Lovibond & Lovibond 1995), in the public domain.
Items, answers and order as on the DASS21 form; only "circle a number 0, 1, 2 or 3" becomes "choose
the answer", the screen having no numbers to circle.

The published reading is per scale, never the whole: each scale's seven items summed and doubled
(so a DASS-21 score reads on the full DASS's 0–42), with the manual's severity labels. The cutoff of
each scale is the first score above its "Normal" range. Reliable change is the Jacobson–Truax index
from the manual's normative SDs (N = 2,914, on the 0–42 scale a doubled score reads on: 6.97, 4.91
and 7.91) and the internal consistency of the 21-item form's own seven-item scales (α .88, .82 and
.90; Henry & Crawford 2005, N = 1,794), not the 42-item form's (.91, .84, .90), which would call
smaller changes reliable than seven items can show. The sum of all 21 items is kept as the
total, without bands: no band for it is published. The manual asks no follow-up of any single item,
so nothing is watched."""

from homework.library.item import LibraryExercise
from homework.library.measures.common import bands, scored_item, subscale

DASS21_CHOICES = [
    "Did not apply to me at all",
    "Applied to me to some degree, or some of the time",
    "Applied to me to a considerable degree, or a good part of time",
    "Applied to me very much, or most of the time",
]
DASS21_ITEMS = [
    "I found it hard to wind down",
    "I was aware of dryness of my mouth",
    "I couldn't seem to experience any positive feeling at all",
    "I experienced breathing difficulty (eg, excessively rapid breathing, breathlessness in the "
    "absence of physical exertion)",
    "I found it difficult to work up the initiative to do things",
    "I tended to over-react to situations",
    "I experienced trembling (eg, in the hands)",
    "I felt that I was using a lot of nervous energy",
    "I was worried about situations in which I might panic and make a fool of myself",
    "I felt that I had nothing to look forward to",
    "I found myself getting agitated",
    "I found it difficult to relax",
    "I felt down-hearted and blue",
    "I was intolerant of anything that kept me from getting on with what I was doing",
    "I felt I was close to panic",
    "I was unable to become enthusiastic about anything",
    "I felt I wasn't worth much as a person",
    "I felt that I was rather touchy",
    "I was aware of the action of my heart in the absence of physical exertion (eg, sense of "
    "heart rate increase, heart missing a beat)",
    "I felt scared without any good reason",
    "I felt that life was meaningless",
]
DEPRESSION = [3, 5, 10, 13, 16, 17, 21]
ANXIETY = [2, 4, 7, 9, 15, 19, 20]
STRESS = [1, 6, 8, 11, 12, 14, 18]


def _scale(
    key: str,
    label: str,
    items: list[int],
    limits: tuple[int, int, int, int],
    *,
    reliability: float,
    sd: float,
) -> dict[str, object]:
    """``limits``: where Mild, Moderate, Severe and Extremely severe begin, on the doubled score."""
    mild, moderate, severe, extreme = limits
    return subscale(
        key,
        label,
        [f"dass21_{n}" for n in items],
        multiplier=2,
        bands=bands(
            (0, mild - 1, "Normal"),
            (mild, moderate - 1, "Mild"),
            (moderate, severe - 1, "Moderate"),
            (severe, extreme - 1, "Severe"),
            (extreme, 42, "Extremely severe"),
        ),
        cutoff=mild,
        reliability=reliability,
        sd=sd,
    )


DASS21: LibraryExercise = {
    "kind": "worksheet",
    "title": "DASS-21",
    "instructions": (
        "Please read each statement and choose the answer which indicates how much the statement "
        "applied to you over the past week. There are no right or wrong answers. Do not spend too "
        "much time on any statement."
    ),
    "therapist_note": (
        "Depression Anxiety Stress Scales (21 items), as published. Each scale is its seven "
        "items (0–3) summed and doubled, 0–42. Depression: 0–9 normal, 10–13 mild, 14–20 "
        "moderate, 21–27 severe, 28+ extremely severe. Anxiety: 0–7, 8–9, 10–14, 15–19, 20+. "
        "Stress: 0–14, 15–18, 19–25, 26–33, 34+. Cutoff: the first score above normal (10, 8, "
        "15). Reliable change: the Jacobson–Truax index from the manual's norms and the short "
        "form's reliability (about 7, 6 and 7 points). The total of all 21 items is shown "
        "without a band: none is published. Source: Lovibond & Lovibond (1995), Manual for the "
        "Depression Anxiety Stress Scales; Henry & Crawford (2005). Terms: public domain, no "
        "permission needed."
    ),
    "options": {
        "questions": [
            scored_item(f"dass21_{n}", text, DASS21_CHOICES, [0, 1, 2, 3])
            for n, text in enumerate(DASS21_ITEMS, start=1)
        ],
        "score": {
            "method": "sum",
            "better": "lower",
            "label": "DASS-21 items summed",
            "total_to_client": True,
            "subscales": [
                _scale(
                    "depression",
                    "Depression",
                    DEPRESSION,
                    (10, 14, 21, 28),
                    reliability=0.88,
                    sd=6.97,
                ),
                _scale("anxiety", "Anxiety", ANXIETY, (8, 10, 15, 20), reliability=0.82, sd=4.91),
                _scale("stress", "Stress", STRESS, (15, 19, 26, 34), reliability=0.90, sd=7.91),
            ],
            "source": (
                "Lovibond SH, Lovibond PF. Manual for the Depression Anxiety Stress Scales. 2nd ed. "
                "Sydney: Psychology Foundation; 1995. Internal consistency of the 21-item form: "
                "Henry JD, Crawford JR. The short-form version of the Depression Anxiety Stress "
                "Scales (DASS-21): construct validity and normative data in a large non-clinical "
                "sample. Br J Clin Psychol 2005;44:227–239."
            ),
            "terms": (
                "Public domain: the authors allow the DASS to be copied and used without "
                "permission (psy.unsw.edu.au/dass)."
            ),
        },
    },
}
