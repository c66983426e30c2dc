"""What the large practice's simulated clients write, kind by kind, in each
kind's own input shape (as the portal's form would send it); the kind's own
``validate`` then turns it into what is stored, so the stored shape is
always the real one.

Words come from small banks combined at random (a seeded ``random.Random``),
some short, some running to several sentences, so entries vary in size.
"""

import datetime as dt
import random
from collections.abc import Callable
from typing import Any

from homework.kinds.boundary_steps import STATUSES
from homework.kinds.support_network import CIRCLES, ROLES
from homework.kinds.urge_log.form import TRIGGERS

MOMENTS = [
    "They went quiet for the whole evening after I mentioned seeing my friends.",
    "A long message at midnight about how nobody else would put up with me.",
    "They read my phone while I was asleep and brought it up at breakfast.",
    "We argued about money again; they said I cannot manage on my own.",
    "They were warm and funny all weekend, then cold as soon as I asked about Monday.",
    "I was told I imagine things when I said the plan had changed without asking me.",
    "They turned up outside work without warning.",
    "A friend's birthday: they sulked until I said I would not go.",
]
SAID_OR_DONE = [
    "They said I was too sensitive.",
    "I apologised, though I was not sure what for.",
    "They took the car keys and left.",
    "I said I needed a moment and went for a walk.",
    "Nothing was said; the silence did the work.",
    "They laughed and said I would come round.",
]
TOLD_MYSELF = [
    "That I was overreacting again.",
    "Maybe they are right about me.",
    "I can feel this and still wait.",
    "This is the pattern, not the whole of me.",
    "It will be different next time.",
]
REMEMBER = [
    "The silence was a punishment, and I had done nothing.",
    "I managed for years before we met.",
    "Kindness that comes and goes is not safety.",
    "",
    "",
]
DID_INSTEAD = [
    "Went for a walk and texted Jo instead.",
    "Called my sister.",
    "Made tea and sat with it for ten minutes.",
    "Wrote it down here.",
    "Put the phone in another room.",
    "Had a shower and went to bed early.",
    "",
]
TRIGGER_NOTES = [
    "A photo from last summer.",
    "A song in the shop.",
    "Their birthday is next week.",
    "Saw their car on my street.",
    "",
    "",
]
BOUNDARIES = [
    "I won't reply to messages after 10 pm.",
    "Keep Sunday lunch with my sister, whatever happens.",
    "Ask for a day to think before agreeing to anything about money.",
    "Go to the pottery class on my own.",
    "Say no to one thing this week without explaining.",
    "Leave the room when the shouting starts.",
]
BOUNDARY_OUTCOMES = [
    "It held, though it was hard the first night.",
    "I went, but left early when my phone buzzed.",
    "I started to say it, then said yes anyway.",
    "They pushed back and I kept to it.",
    "",
]
PEOPLE = ["Jo", "Mum", "Priya", "Sam", "Ade", "Lena", "Tom", "Nadia", "Chris", "Aunt May"]
PLACES = ["Tuesday support group", "The helpline", "The library", "Pottery class", "My GP"]
LONG_ANSWERS = [
    "I wanted to keep my plan, and to see my friend.",
    "Feeling like myself again, even for an afternoon.",
    "The person I thought they were at the start.",
    "It is hard to put into words; it comes in waves.",
    "That I can trust what I saw with my own eyes.",
    "Being outdoors, early, before anyone needs anything from me.",
]
SHORT_ANSWERS = ["tired", "steadier", "a long week", "hopeful", "raw", "quiet", "the walk"]


def words(rng: random.Random, bank: list[str], *, up_to: int = 3) -> str:
    """One to ``up_to`` sentences from ``bank``: most short, some long."""
    count = 1 if rng.random() < 0.6 else rng.randint(1, up_to)
    # Drawn with replacement, each said once: no sentence twice in one answer.
    return " ".join(dict.fromkeys(rng.choice(bank) for _ in range(count))).strip()


def local(moment: dt.datetime) -> str:
    """A moment as the form's datetime-local field sends it."""
    return moment.strftime("%Y-%m-%dT%H:%M")


def written_record(rng: random.Random, *, at: dt.datetime, **_: Any) -> dict[str, Any]:
    return {
        "occurred_at": local(at),
        "what_happened": words(rng, MOMENTS, up_to=4),
        "what_was_said_or_done": words(rng, SAID_OR_DONE),
        "body_distress": rng.randint(3, 10),
        "what_i_told_myself": words(rng, TOLD_MYSELF, up_to=2),
        "remember_when_i_miss_them": rng.choice(REMEMBER),
    }


def urge_log(
    rng: random.Random, *, at: dt.datetime, progress: float = 0.0, **_: Any
) -> dict[str, Any]:
    """An urge whose pull eases as ``progress`` (0 at the start of the log, 1
    at its end) grows, with a wobble, and now and then contact."""
    intensity = round(8.5 - 5.5 * progress + rng.gauss(0, 1.3))
    contact = rng.random() < 0.06 * (1.2 - progress)
    by = rng.choice(["me", "them", "them"]) if contact else "none"
    return {
        "at": local(at),
        "intensity": max(0, min(10, intensity)),
        "trigger": rng.choice(TRIGGERS)[0],
        "trigger_note": rng.choice(TRIGGER_NOTES),
        "did_instead": rng.choice(DID_INSTEAD),
        "contact_happened": contact,
        "contact_initiated_by": by,
    }


def boundary_steps(
    rng: random.Random, *, at: dt.datetime, version: int = 0, **_: Any
) -> dict[str, Any]:
    """A ladder that grows by a step with each version sent."""
    steps = []
    for number in range(min(2 + version, 8)):
        planned = at.date() - dt.timedelta(days=7 * (2 + version - number))
        status = rng.choice(STATUSES)[0] if number < 1 + version else "planned"
        step: dict[str, Any] = {"boundary": BOUNDARIES[number % len(BOUNDARIES)], "status": status}
        if rng.random() < 0.8:
            step["planned_on"] = planned.isoformat()
        if status != "planned":
            step["what_happened"] = rng.choice(BOUNDARY_OUTCOMES)
            step["feeling"] = rng.randint(2, 9)
        steps.append(step)
    return {"steps": steps}


def support_network(
    rng: random.Random, *, at: dt.datetime, version: int = 0, **_: Any
) -> dict[str, Any]:
    """A map that grows a little with each version sent."""
    people = []
    for name in PEOPLE[: min(3 + version + rng.randint(0, 2), len(PEOPLE))]:
        person: dict[str, Any] = {
            "name": name,
            "circle": rng.choice(CIRCLES)[0],
            "roles": sorted({rng.choice(ROLES)[0] for _ in range(rng.randint(1, 3))}),
            "steadying": rng.random() < 0.75,
        }
        if rng.random() < 0.5:
            person["last_contact"] = (at.date() - dt.timedelta(days=rng.randint(0, 20))).isoformat()
        people.append(person)
    places = [
        {"name": place, "circle": rng.choice(CIRCLES)[0]}
        for place in PLACES[: rng.randint(0, len(PLACES))]
    ]
    return {"people": people, "places_and_services": places}


def safety_plan(rng: random.Random, **_: Any) -> dict[str, Any]:
    return {
        "warning_signs": rng.choice(
            [
                "Drinking more, going very quiet, checking my phone.",
                "Not sleeping; saying sorry a lot.",
            ]
        ),
        "safe_places": rng.choice(["Jo's flat.", "My sister's, the spare room is mine."]),
        "people_to_call": rng.choice(["Jo, then my sister.", "Priya; the helpline."]),
        "documents_and_where": "Copies of my passport and bank papers at Jo's.",
        "emergency_numbers": "999; the helpline number is on the card in my purse.",
        "code_word": rng.choice(["pineapple", "blue door", "tea time"]),
    }


def worksheet(
    rng: random.Random, *, at: dt.datetime, options: dict[str, Any], **_: Any
) -> dict[str, Any]:
    """Answers to any worksheet, by each question's type (measures included:
    their single choices lean towards the first, mildest answers, so about
    one PHQ-9 in seven has an answer to review)."""
    answers: dict[str, Any] = {}
    for question in options.get("questions", []):
        kind = question["type"]
        if not question.get("required") and rng.random() < 0.1:
            continue
        if kind == "scale_0_10":
            answers[question["key"]] = rng.randint(0, 10)
        elif kind == "short_text":
            answers[question["key"]] = rng.choice(SHORT_ANSWERS)
        elif kind == "long_text":
            answers[question["key"]] = words(rng, LONG_ANSWERS, up_to=4)
        elif kind == "single_choice":
            choices = question["choices"]
            answers[question["key"]] = choices[min(int(rng.expovariate(2.0)), len(choices) - 1)]
        elif kind == "multiple_choice":
            answers[question["key"]] = rng.sample(
                question["choices"], rng.randint(1, len(question["choices"]))
            )
        elif kind == "yes_no":
            answers[question["key"]] = rng.choice(["yes", "no"])
        elif kind == "date":
            answers[question["key"]] = (
                at.date() - dt.timedelta(days=rng.randint(0, 6))
            ).isoformat()
    return answers


def reading(rng: random.Random, *, options: dict[str, Any], **_: Any) -> dict[str, Any]:
    """Read, with a reflection on some of its prompts (each is optional)."""
    return {
        f"reflection_{n}": words(rng, LONG_ANSWERS, up_to=2)
        for n in range(1, len(options.get("prompts", [])) + 1)
        if rng.random() < 0.6
    }


# One maker per kind; a kind without one here has no simulated work, which
# the command refuses (every registered kind must be present).
MAKERS: dict[str, Callable[..., dict[str, Any]]] = {
    "written_record": written_record,
    "urge_log": urge_log,
    "boundary_steps": boundary_steps,
    "support_network": support_network,
    "safety_plan": safety_plan,
    "worksheet": worksheet,
    "reading": reading,
}
