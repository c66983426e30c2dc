"""The library's readings: one idea each, in the portal's voice, with a few optional
reflection prompts. The text is the small Markdown the reading kind renders: '## '
headings, blank-line paragraphs, '- ' lists and *emphasis*, nothing else; each text is a file in
reading_texts/ so it can be read and edited as the page it becomes."""

from pathlib import Path

from homework.library.item import LibraryExercise

TEXTS = Path(__file__).with_name("reading_texts")


def reading_text(name: str, *, folder: Path = TEXTS) -> str:
    """Each language's library keeps its texts in its own folder, under the same file names."""
    return (folder / f"{name}.md").read_text(encoding="utf-8")


def reading(
    *, title: str, instructions: str, therapist_note: str, text: str, prompts: list[str]
) -> LibraryExercise:
    return {
        "kind": "reading",
        "title": title,
        "instructions": instructions,
        "therapist_note": therapist_note,
        "options": {"text": text.strip(), "prompts": prompts},
    }


READINGS: list[LibraryExercise] = [
    reading(
        title="Knowing, and the pull back",
        instructions=(
            "A short read for a quiet moment. The questions underneath are there if you'd like them."
        ),
        therapist_note=(
            "The clear decision and the attachment pull run on different systems; struggling to "
            "act is not proof the decision was wrong. Pairs with the worksheet “Knowing is not the "
            "same as leaving”."
        ),
        text=reading_text("knowing"),
        prompts=[
            "Is there something you see clearly now that was harder to see a while ago? A few words are enough.",
            "When does the pull tend to show up for you, if you've noticed?",
        ],
    ),
    reading(
        title="Warmth that comes and goes",
        instructions=(
            "A short read about why some bonds hold so tightly. You can stop whenever you like."
        ),
        therapist_note=(
            "Intermittent reinforcement in plain words: the good moments are real and are also "
            "what keeps the cycle going. Pairs with “The cycle, as I have lived it”."
        ),
        text=reading_text("warmth"),
        prompts=[
            "Looking back, is there a rhythm you recognise? Write as much or as little as you like.",
            "What might help you keep the whole picture in mind when the warm moments come?",
        ],
    ),
    reading(
        title="Why the good memories come back",
        instructions="A short read about memory, and a way to keep the whole story close.",
        therapist_note=(
            "Why memory tilts toward the good moments, and what the written record is for. Pairs "
            "with “Keep the full picture”."
        ),
        text=reading_text("memories"),
        prompts=[
            "What would you like your future self to remember on a day when the good memories crowd in?",
            "Is there a hard moment you'd like to keep a note of? You don't need to write it here: this is only a place to notice it.",
        ],
    ),
    reading(
        title="An urge is a wave",
        instructions="A short read for the moments when the urge to get in touch arrives.",
        therapist_note=(
            "Urges as craving, not new information; they peak and ease, and ease further with "
            "sustained no-contact. Pairs with “30 days of no contact”, or “Notice the pull” for "
            "clients still in contact."
        ),
        text=reading_text("urges"),
        prompts=[
            "Think of a recent urge, if you like. What set it off, and what happened to it over time?",
            "What helps you ride out an urge? Anything counts, however small.",
        ],
    ),
    reading(
        title="Starting with a small boundary",
        instructions="A short read about boundaries small enough to try, wherever you are.",
        therapist_note=(
            "Harm reduction: a boundary as the client's own action, small enough to try now, "
            "safety first. Pairs with the ladder “One small boundary”."
        ),
        text=reading_text("boundary"),
        prompts=[
            "Is there a small boundary you'd like to try? You can write it in your own words.",
            "What might make it a little easier to keep, even once?",
        ],
    ),
    reading(
        title="People in your corner",
        instructions="A short read about the people on your side, and what a reality check is.",
        therapist_note=(
            "Isolation strengthens the bond; names the reality-check role and the friend who loves "
            "the client but is not steadying. Pairs with the map “Who is in my corner”."
        ),
        text=reading_text("corner"),
        prompts=[
            "Who leaves you steadier after time together? First names or nicknames are plenty.",
            "Is there someone you've lost touch with who you might like to hear from again? Only if it seems right.",
        ],
    ),
    reading(
        title="Room for grief",
        instructions="A short read about sadness, which can come even when a choice is right.",
        therapist_note=(
            "Grief for the person, the imagined future and the self who believed in it, without "
            "reading it as a reason to return. Pairs with the worksheet “What I'm grieving”."
        ),
        text=reading_text("grief"),
        prompts=[
            "Is there something you miss, and something you don't miss at all? Both are welcome here.",
            "What helps, even a little, when sadness comes in a wave?",
        ],
    ),
    reading(
        title="When leaving isn't safe yet",
        instructions="A short read about staying safe, wherever you are right now.",
        therapist_note=(
            "For clients not able or not ready to leave: safety first, no pressure, harm "
            "reduction. Best alongside “My safety plan”, made together in session."
        ),
        text=reading_text("not_safe_yet"),
        prompts=[
            "What helps you be even a little safer from day to day?",
            "Is there anything about your safety you'd like to talk about in your next session?",
        ],
    ),
]
