"""The library's worksheets: each one's questions are its options."""

from typing import Any

from homework.library.item import LibraryExercise


# Shared with the other languages' worksheets, so a question is built one way everywhere.
def scale(key: str, text: str, low: str, high: str, **extra: Any) -> dict[str, Any]:
    return {
        "key": key,
        "type": "scale_0_10",
        "text": text,
        "low": low,
        "high": high,
        "required": True,
        **extra,
    }


def long_text(key: str, text: str, **extra: Any) -> dict[str, Any]:
    return {"key": key, "type": "long_text", "text": text, "required": False, **extra}


WORKSHEETS: list[LibraryExercise] = [
    {
        "kind": "worksheet",
        "title": "Where do I abandon myself?",
        "instructions": (
            "We all sometimes set our own needs aside to keep the peace. This worksheet is a way "
            "to notice when it happens to you, gently and without blame. Think of one recent "
            "moment, and answer what you can."
        ),
        "therapist_note": "Self-abandonment in the relationship: a starting point for a small boundary.",
        "options": {
            "questions": [
                long_text(
                    "moment",
                    "Think of a recent moment when you went along with something that didn't feel right for you. What happened?",
                    required=True,
                ),
                long_text("wanted", "What did you want or need in that moment?"),
                {
                    "key": "what_got_in_the_way",
                    "type": "single_choice",
                    "text": "What made it hard to hold on to that?",
                    "required": False,
                    "choices": [
                        "I was afraid of how they would react",
                        "I didn't want to lose a good moment",
                        "I wasn't sure I was allowed to want it",
                        "I only noticed afterwards",
                        "Something else",
                    ],
                },
                long_text(
                    "next_time",
                    "What would staying with yourself look like next time, even a little?",
                ),
                scale(
                    "kindness",
                    "How kindly are you looking at yourself as you answer this?",
                    "harshly",
                    "kindly",
                ),
            ]
        },
    },
    {
        "kind": "worksheet",
        "title": "Things that make me feel alive",
        "instructions": (
            "A hard relationship can shrink a life until there's little left that's only yours. "
            "This is a small way back. Think of anything, from any time in your life, that has "
            "made you feel like yourself, then pick one thing to try this week."
        ),
        "therapist_note": "Reconnecting with activities and identity outside the relationship (harm reduction).",
        "options": {
            "questions": [
                long_text(
                    "list",
                    "What has made you feel alive, or like yourself? Big or tiny, from any time.",
                    required=True,
                ),
                {
                    "key": "kinds",
                    "type": "multiple_choice",
                    "text": "What kinds of things are they?",
                    "required": False,
                    "choices": [
                        "Moving my body",
                        "Making something",
                        "Being outdoors",
                        "Being with people",
                        "Music",
                        "Learning something",
                        "Quiet time on my own",
                    ],
                },
                {
                    "key": "this_week",
                    "type": "short_text",
                    "text": "One thing from your list you could do this week",
                    "required": False,
                },
                {"key": "when", "type": "date", "text": "When will you do it?", "required": False},
                long_text(
                    "afterwards",
                    "Afterwards: how was it?",
                    help="You can come back and add this later.",
                ),
            ]
        },
    },
    {
        "kind": "worksheet",
        "title": "Sitting with a hard feeling for ten minutes",
        "instructions": (
            "When a hard feeling arrives (loneliness, longing, panic), see if you can stay with it "
            "for ten minutes before doing anything about it. Set a timer. Breathe slowly, notice "
            "where it sits in your body, and let it rise and fall like a wave.\n\n"
            "You're not trying to make it go away. You're learning that you can get through it "
            "without reaching for them. Any time you stayed with it counts, even a minute. Then "
            "answer these."
        ),
        "therapist_note": "Distress tolerance: practising self-regulation instead of using the partner to regulate.",
        "options": {
            "questions": [
                {
                    "key": "feeling",
                    "type": "short_text",
                    "text": "What was the feeling?",
                    "required": True,
                },
                scale("start", "How strong was it at the start?", "mild", "overwhelming"),
                scale("end", "How strong was it at the end?", "mild", "overwhelming"),
                long_text("body", "Where did you feel it in your body, and what did you notice?"),
                long_text("helped", "What helped you stay with it?"),
            ]
        },
    },
    {
        "kind": "worksheet",
        "title": "What I'm grieving",
        "instructions": (
            "Even when leaving is right, it hurts. You may be grieving the person, the future you "
            "imagined, and the version of yourself who believed in it. All of that is real. Take "
            "your time with these questions. There's no need to answer them all at once."
        ),
        "therapist_note": "Grief work after (or while) ending the relationship; pace it, and return to it.",
        "options": {
            "questions": [
                long_text("miss", "What do you miss about them, and about the two of you?"),
                long_text("future", "What future did you imagine, that you are letting go of?"),
                long_text(
                    "who_i_was",
                    "Who were you when you believed in it? What would you like to keep of that person?",
                ),
                long_text(
                    "to_a_friend", "What would you say to a friend who was grieving this same loss?"
                ),
            ]
        },
    },
    {
        "kind": "worksheet",
        "title": "Weekly check-in: pull and clarity",
        "instructions": (
            "Once a week, take two minutes to check in with yourself. There are no right answers, "
            "and this isn't a test or a diagnosis. It's a way for you and your therapist to notice, "
            "over the weeks, how things are moving.\n\n"
            "For the pull back, a lower number means an easier week. Answer each one as the "
            "week really was."
        ),
        "therapist_note": (
            "Our own reflective check-in, not a validated measure. The total (mean of the five, "
            "pull reversed; higher = steadier) is charted over time in the portal and the summary. "
            "A safety answer of 3 or lower is flagged for your review."
        ),
        "options": {
            "questions": [
                scale(
                    "pull",
                    "How strong has the pull back been this week?",
                    "hardly at all",
                    "very strong",
                    scored=True,
                    reverse=True,
                ),
                scale(
                    "clarity",
                    "How clear do you feel about what you want?",
                    "foggy",
                    "clear",
                    scored=True,
                ),
                scale(
                    "supported",
                    "How supported have you felt?",
                    "on my own",
                    "well supported",
                    scored=True,
                ),
                scale(
                    "safe",
                    "How safe have you felt?",
                    "not safe",
                    "safe",
                    scored=True,
                    review_at_or_below=3,
                ),
                scale(
                    "kindness", "How kind have you been to yourself?", "harsh", "kind", scored=True
                ),
                long_text(
                    "anything_else", "Anything you'd like your therapist to know about this week?"
                ),
            ],
            "score": {"method": "mean", "better": "higher", "label": "Steadiness"},
        },
    },
    {
        "kind": "worksheet",
        "title": "Knowing is not the same as leaving",
        "instructions": (
            "Deciding something and being able to act on it run on different systems. The pull "
            "back is an attachment response, not proof that your decision was wrong. These "
            "questions help you hold both: what you know, and what you feel."
        ),
        "therapist_note": "For clients who read their ambivalence as weakness or as evidence they should return.",
        "options": {
            "questions": [
                long_text(
                    "know", "What do you know, clearly, about this relationship?", required=True
                ),
                long_text(
                    "when_pull",
                    "When does the pull back come most strongly? What is happening around you then?",
                ),
                long_text(
                    "answer_the_pull",
                    "If the pull is an old, deep response rather than new information, what would you like to say to it?",
                ),
                scale(
                    "self_blame",
                    "How much are you blaming yourself for feeling the pull, right now?",
                    "not at all",
                    "a lot",
                ),
            ]
        },
    },
    {
        "kind": "worksheet",
        "title": "The cycle, as I have lived it",
        "instructions": (
            "In many hard relationships, painful times and warm times take turns, and the warm "
            "times are real. They're also part of what keeps the pattern going. Looking at one "
            "turn of the cycle on paper can make it easier to recognise the next time."
        ),
        "therapist_note": "Psychoeducation on intermittent reinforcement, from the client's own example.",
        "options": {
            "questions": [
                long_text("hard_time", "Describe a hard time with them.", required=True),
                long_text("warmth_returned", "What came after? How did the warmth come back?"),
                long_text(
                    "what_it_did",
                    "How did the warm part change the way the hard part felt afterwards?",
                ),
                {
                    "key": "pattern",
                    "type": "yes_no",
                    "text": "Do you recognise this as something that repeats?",
                    "required": False,
                },
                long_text(
                    "remember", "What would you like to remember the next time the warm part comes?"
                ),
            ]
        },
    },
    {
        "kind": "worksheet",
        "title": "Before I reply",
        "instructions": (
            "When a message from them arrives, you don't have to answer straight away. Before you "
            "decide, take a few minutes with these questions. Whatever you then choose, you'll have "
            "chosen it, rather than the urge choosing for you."
        ),
        "therapist_note": "For clients in contact (or with shared children or practical ties) who reply on impulse.",
        "options": {
            "questions": [
                {
                    "key": "message",
                    "type": "short_text",
                    "text": "What did the message say, in a few words?",
                    "required": False,
                },
                scale(
                    "urge",
                    "How strong is the urge to reply right now?",
                    "barely there",
                    "overwhelming",
                ),
                {
                    "key": "want",
                    "type": "single_choice",
                    "text": "What do you hope replying will give you?",
                    "required": False,
                    "choices": [
                        "To feel close again",
                        "To make the bad feeling stop",
                        "To explain myself",
                        "To put something right",
                        "Something practical (children, money, belongings)",
                        "I'm not sure",
                    ],
                },
                long_text("before", "What has happened before when you replied quickly?"),
                {
                    "key": "wait",
                    "type": "yes_no",
                    "text": "Could you wait an hour, or talk to someone first?",
                    "required": False,
                },
            ]
        },
    },
]
