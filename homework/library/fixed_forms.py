"""The library's exercises whose kind brings the whole form (a record, the
urge logs, a boundary ladder, a support map, a safety plan): their options
are empty, and only the words are the practice's."""

from homework.library.item import LibraryExercise

FIXED_FORMS: list[LibraryExercise] = [
    {
        "kind": "written_record",
        "title": "Keep the full picture",
        "instructions": (
            "When something hard happens, write it down soon after, while it is clear. "
            "Later, when the good memories crowd in, this record keeps the whole story for you. "
            "Write as much or as little as you like."
        ),
        "therapist_note": "For clients whose memory softens the hard moments when they think of going back.",
        "options": {},
    },
    {
        "kind": "urge_log",
        "title": "30 days of no contact",
        "instructions": (
            "Each time you feel the pull to get in touch (to message, to call, to look at their "
            "profile, to go back), write it down here: how strong it was, what set it off, and what "
            "you did with it.\n\n"
            "You don't have to beat the urge to log it. Urges are usually strongest in the first "
            "days and ease the longer there is no contact, and you will be able to watch that "
            "happen on your own progress page.\n\n"
            "If there was contact, write that down too. It isn't a failure. It's something we can "
            "look at together."
        ),
        "therapist_note": (
            "Assign daily for 30 days when a client has cut contact; fill in “no contact since”. "
            "The urge curve, days without contact and whether urges are easing appear in the summary."
        ),
        "options": {},
    },
    {
        "kind": "urge_log",
        "title": "Notice the pull",
        "instructions": (
            "You don't need to have stopped contact to use this. Whenever you feel pulled towards "
            "them, or towards going back, jot it down: when, how strong, what set it off, and what "
            "you did. Over a few weeks, the pattern will start to show, and patterns are easier to "
            "work with than surprises."
        ),
        "therapist_note": (
            "Harm reduction for clients still in contact or not ready to leave: maps triggers "
            "without asking for no-contact."
        ),
        "options": {},
    },
    {
        "kind": "boundary_steps",
        "title": "One small boundary",
        "instructions": (
            "Choose one boundary small enough to try this week. Not the biggest one: a small one. "
            "“I won't answer calls after 10 pm.” “I'll keep Sunday lunch with my sister, whatever "
            "happens.”\n\n"
            "Write it in your own words and when you plan to try it. Afterwards, come back and say "
            "how it went and how it felt. If it didn't hold, choose “not yet” and write what got "
            "in the way: that is useful to know, not a failure. Add the next step when you're ready."
        ),
        "therapist_note": (
            "Harm reduction when leaving isn't possible or chosen yet. Builds capacity one rung at "
            "a time; notice “tried” as much as “held”."
        ),
        "options": {},
    },
    {
        "kind": "support_network",
        "title": "Who is in my corner",
        "instructions": (
            "Think of the people who are on your side, even a little, and put the closest in the "
            "middle. For each one, note what they give you: a reality check when the good memories "
            "take over, warmth and comfort, practical help, or that they know the real story.\n\n"
            "Notice, too, whether time with them leaves you steadier. Some people love us and still "
            "leave us more anxious, and that's worth knowing.\n\n"
            "Add groups, places and services as well: a class, a helpline, a library, a support "
            "group."
        ),
        "therapist_note": (
            "Isolation strengthens the bond. Use early and repeat every few weeks: the summary "
            "shows what changed since the last map and who can give a reality check."
        ),
        "options": {},
    },
    {
        "kind": "safety_plan",
        "title": "My safety plan",
        "instructions": (
            "This is a plan for a moment you hope never comes. We'll fill it in together in a "
            "session, and you can add to it whenever you like."
        ),
        "therapist_note": (
            "Complete together in session. The summary says only that a plan exists and when it "
            "was last updated; its content shows only when you open it or print with full detail."
        ),
        "options": {},
    },
]
