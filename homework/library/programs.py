"""The ready-made programs, built from the library's readings and exercises and installed by a data
migration; ``install_programs`` takes the model classes, so a migration can pass its historical ones.
A program whose title is taken, or whose exercises are not all in the library, is left alone."""

from typing import Any, TypedDict


class LibraryStep(TypedDict):
    exercise: str  # the library exercise's title
    release: str
    days: int | None
    required: bool
    instructions: str


class LibraryProgram(TypedDict):
    title: str
    description: str
    steps: list[LibraryStep]


def step(
    exercise: str, release: str, days: int | None = None, *, required: bool = False, says: str = ""
) -> LibraryStep:
    return {
        "exercise": exercise,
        "release": release,
        "days": days,
        "required": required,
        "instructions": says,
    }


PROGRAMS: list[LibraryProgram] = [
    {
        "title": "Understanding the pull: four weeks",
        "description": (
            "For a client who knows the relationship hurts and still feels pulled back. A reading "
            "a week, with the urge log and the written record between them, and a reflection to "
            "end. Steps come weekly, or once the one before is done."
        ),
        "steps": [
            step("Knowing, and the pull back", "right_away"),
            step(
                "Notice the pull",
                "after_previous",
                says="When the pull comes this week, note it here. A few words are enough.",
            ),
            step("Warmth that comes and goes", "on_day", 8),
            step("Why the good memories come back", "on_day", 15),
            step(
                "Keep the full picture",
                "after_previous",
                says="If it feels safe to, write down one moment you want to remember as it was.",
            ),
            step("An urge is a wave", "on_day", 22),
            step("Knowing is not the same as leaving", "after_previous_days", 2),
        ],
    },
    {
        "title": "Staying safer, for now",
        "description": (
            "Harm reduction for a client who is not leaving yet: safety first, one small "
            "boundary, the people in their corner, and the safety plan looked at again. Nothing "
            "in it asks the client to leave."
        ),
        "steps": [
            step("When leaving isn't safe yet", "right_away"),
            step("My safety plan", "after_previous", required=True),
            step("Starting with a small boundary", "after_previous_days", 3),
            step("One small boundary", "after_previous"),
            step("People in your corner", "on_day", 15),
            step("Who is in my corner", "after_previous"),
            step(
                "My safety plan",
                "on_day",
                28,
                says="Look over your plan once more. Change anything that is different now.",
            ),
        ],
    },
]


def install_programs(
    program_model: Any,
    step_model: Any,
    exercise_model: Any,
    *,
    programs: list[LibraryProgram] = PROGRAMS,
    language: str | None = None,
) -> int:
    """Returns how many were added. A program in another language is built from that language's
    exercises (a migration before exercises had a language passes none)."""
    in_language = {} if language is None else {"language": language}
    added = 0
    for program in programs:
        if program_model.objects.filter(title=program["title"]).exists():
            continue
        titles = {item["exercise"] for item in program["steps"]}
        shared = {
            exercise.title: exercise
            for exercise in exercise_model.objects.filter(
                owner__isnull=True, is_active=True, title__in=titles, **in_language
            ).order_by("-pk")
        }
        if set(shared) != titles:
            continue
        made = program_model.objects.create(
            title=program["title"], description=program["description"], owner=None, **in_language
        )
        step_model.objects.bulk_create(
            step_model(
                program=made,
                position=position,
                exercise=shared[item["exercise"]],
                release=item["release"],
                days=item["days"],
                required=item["required"],
                instructions=item["instructions"],
            )
            for position, item in enumerate(program["steps"], 1)
        )
        added += 1
    return added
