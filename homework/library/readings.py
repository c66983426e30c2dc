"""The library's readings: one idea each, in the portal's voice, with a few optional
reflection prompts. The text is the small Markdown the reading kind renders: '## '
headings, blank-line paragraphs, '- ' lists and *emphasis*, nothing else."""

from homework.library.item import LibraryExercise


def _reading(
    *, title: str, instructions: str, therapist_note: str, text: str, prompts: list[str]
) -> LibraryExercise:
    return {
        "kind": "reading",
        "title": title,
        "instructions": instructions,
        "therapist_note": therapist_note,
        "options": {"text": text.strip(), "prompts": prompts},
    }


KNOWING = """
Many people reach a point where they know something clearly. *This relationship hurts me.* Or: *I don't want to go back.* And then, sometimes in the same hour, they find themselves pulled towards the person anyway. Checking the phone. Rereading old messages. Wondering if it could be different this time.

If this happens to you, it can be confusing. It can seem like proof that you don't really know your own mind. This reading offers another way to see it.

## Two different systems

Knowing is something your thinking mind does. It weighs what happened, remembers, and comes to a judgement. That part of you may already be clear.

The pull back works somewhere else. It comes from attachment: the deep, old system that bonds us to the people we are close to. It is the same system that makes a small child reach for a parent, even when that parent isn't always kind. It doesn't listen to reasons. It responds to closeness and distance, to habit, and to the fear of being alone.

So the two can disagree. You can know something with your whole mind and still be drawn the other way. That isn't a lack of sense or of strength. It is how people are made.

## What this means

- A strong pull doesn't mean your decision was wrong.
- Being clear doesn't mean the pull will stop straight away.
- Finding it hard to act on what you know is very common, and it makes sense.

Attachment changes slowly, through time, distance, support and care. Knowing often comes first, and the rest of you follows later, at its own pace. Many people go back and forth more than once before things settle. None of that cancels what you know.

## Being kind to both parts

You don't have to choose between the part of you that knows and the part that longs. Both are trying to look after you in their own way. The knowing part wants you safe. The longing part wants you close to someone, and not alone.

It may help to notice the pull without arguing with it, and without obeying it straight away. You might say to yourself: *This is the pull. It isn't new information. It's attachment doing what it does.* Then you can decide what to do next, from a steadier place.

Wherever you are right now, whether you have left, are thinking about it, or are staying for now, your clarity counts. It is something to build on, one day at a time, with people who support you.

## A question for the week

When the pull shows up this week, what would the part of you that knows like you to remember?
"""

WARMTH = """
Some relationships are hard all the time. Others are hard, and then suddenly kind. After a painful stretch the warmth comes back: an apology, a tender message, a good evening that seems like a fresh start. And then, later, the hurt returns.

If your relationship has had this rhythm, you may have noticed how strongly it holds on. This reading explains why, in plain words.

## Why warmth that comes and goes pulls harder

When something good comes every time, we get used to it. When it never comes, we slowly stop hoping. But when it comes *sometimes*, and we can't tell when, the mind keeps watching for it. Hope stays switched on. Each kind moment seems bigger because of the hard ones around it.

People who study how bonds form have found that this uneven rhythm ties people together more tightly than steady unkindness does. It works on everyone. It says nothing about how clever or how strong you are.

When one person also holds more power, over money, the home, friends, or how the story is told, the pull can be stronger still.

## The good moments were real

This part matters. The warm moments were not fake, and it makes sense that you treasured them. The kindness can be real, and the hurt real too.

Both things can be true at once. The good moments are real, and they are also part of what keeps the cycle turning. The relief after a hard time is powerful. It can seem as if the “real” person has come back, and make the hard times look like the exception.

## Seeing the rhythm

It can help to look at the pattern from a little distance, without judging yourself. Some people find these questions useful:

- What usually happens before the warmth returns?
- How long do the good stretches tend to last?
- What happens to my own needs during the hard stretches?

Noticing the rhythm doesn't mean you have to do anything about it. It gives you more of the picture, and more of the picture often brings a little more choice.

If this reading stirs up a lot, that's understandable. You can stop at any point, and you can bring anything here to your next session.

## A question for the week

The next time the warmth returns, what would you like to remember about the whole rhythm, not only that moment?
"""

MEMORIES = """
You may have noticed something puzzling. When you step back from the relationship, even a little, or only think about it, the good memories arrive. A holiday. The way they laughed. The night they said exactly the right thing. Meanwhile the hard moments go quiet, or blur, or seem smaller than they were.

This happens to a great many people. It isn't a sign that you were wrong about the hard times.

## Memory rearranges itself

Memory isn't a recording. It is rebuilt each time we reach for it, and our mood shapes what we find. When we miss someone, the mind brings forward what we miss. The warm moments get sharper. The painful ones get softer, or we start to explain them away.

There is a kind of logic to it. The mind is trying to close the distance and ease the ache of missing someone. But it can leave you with only half the story, at the very moment the whole of it matters most.

## What a written record is for

This is where writing things down can help. A written record is a short note about a difficult moment, made soon after it happens, while it is still clear. It might hold:

- what happened, and when
- what was said or done
- how your body felt
- what you told yourself afterwards

Later, when the good memories crowd in, you can go back and read it. Not to punish yourself, and not to stir up anger. Only to see the whole picture again, in your own words, written at a time when you knew what it was like.

Some people add a line for their future self: *what I want to remember when I miss them.* It can be a kind thing to leave for yourself.

There is no right length and no right way. A few words on a hard day are enough.

## Keeping it safe

Your record is yours. Here you can keep any entry private: your therapist then sees only that it exists, never what it says. If someone else may look at your phone or computer, think about where you read and write. The *Leave this site now* button at the top of every page is there whenever you need it.

## A question for the week

When a good memory arrives this week, what else from that time would you like to hold alongside it?
"""

URGES = """
If you have cut contact, or are trying to see less of someone, you may know the urge. To send one message. To check their profile. To call, only to hear their voice. It can arrive out of nowhere and seem very urgent, as if something must be done right now.

This reading is about what urges are, and how they tend to pass.

## An urge is a signal, not news

An urge to get in touch is a lot like a craving. It comes from the part of us that is attached and missing something. It can be strong. But it usually isn't telling you anything new about the relationship. More often it is a sign of missing someone, of loneliness, of tiredness, or of a reminder that caught you off guard.

That matters, because an urge can seem like a decision that has already been made. It isn't. It's a feeling, and feelings move.

## Urges rise, peak and ease

Most urges follow a shape, a bit like a wave. They build, reach a peak, and then slowly ease, often within minutes rather than hours. When we act on an urge the moment it arrives, we never get to see it ease by itself.

Over days and weeks there is a larger shape too. For many people, urges are strongest in the first days after contact stops. With time and distance they tend to come less often and with less force. Not in a straight line: a date, a song or a message can bring a big wave back. But the overall curve usually bends down.

## Riding the wave

Some people call this *urge surfing*. Instead of fighting the urge or giving in to it, you ride it out. You might:

- notice it and name it: *this is an urge, and it will pass*
- rate how strong it is, from 0 to 10
- notice where it sits in your body, and breathe slowly
- give it ten minutes before doing anything, then check again
- do something with your hands, or message a friend instead

You don't have to do this perfectly. If you do get in touch, that isn't a failure. It's something you can look at, gently, with your therapist.

## Watching the curve

If you keep a log of your urges here, your progress page shows how they change over the days. Many people find it steadying to see, in their own numbers, that the waves do ease.

## A question for the week

When the next urge comes, what could you do for the first ten minutes while it rises and eases?
"""

BOUNDARY = """
Boundaries can sound like something big and final. A line in the sand. A speech. A door closing. If that's how they sound to you, it's no wonder they can seem out of reach.

This reading is about a smaller kind of boundary: one you could try this week, wherever you are in your relationship.

## What a boundary is

A boundary is a decision about what *you* will do. It isn't a rule for someone else, and it doesn't need their agreement. “Don't call me late at night” is a request. “I won't answer calls after 10 pm” is a boundary, because it is yours to keep.

Small boundaries count. They are how people rebuild trust in themselves, a step at a time. Each one is a way of saying: *my needs matter too.*

## Why start small

When a relationship has been hard, many people get used to setting their own needs aside to keep the peace. That makes sense. It may have been the safest thing to do. But over time it can leave you unsure what you want, or whether you're allowed to want it.

A small boundary is a way back to yourself. It might be:

- keeping one evening a week for a friend or family member
- taking a moment before you reply to a message
- keeping a little money that is yours
- going to bed at the time you choose
- saying “I'll think about it” instead of yes straight away

Pick something small enough to seem possible. Not the biggest thing. The next thing.

## Safety comes first

If a boundary could make things more dangerous for you, your safety matters more than any boundary. Some boundaries are best kept quietly, where no one else needs to see them. You can talk with your therapist about which steps are safe for you.

## If it doesn't hold

Sometimes a boundary holds. Sometimes it doesn't, and the old way comes back. That is very common, and it isn't a failure. It tells you something useful about what got in the way, and what might help next time. Trying counts as much as holding.

Over time, small boundaries add up. They build the strength you would need for bigger ones, if and when you choose them.

## A question for the week

What is one small boundary that seems possible for you this week?
"""

CORNER = """
Relationships that hurt often shrink a person's world. Friends drift away. Family may not know the full story. Sometimes it seemed easier not to tell anyone, or staying in touch was made hard. However it happened, it is very common to end up with fewer people close by.

That matters, because being alone makes the pull of a relationship stronger. And having people around, even one or two, can make a real difference.

## Who is in your corner

Think about the people in your life. Not only the closest ones: people you see now and then count too, and so do groups, classes and services. Different people can give different things:

- someone who knows the real story, not the edited version
- someone who offers warmth and comfort: a hug, a meal, company on the sofa
- someone who helps with practical things: a lift, a form, a spare key
- someone you can ask for a reality check

No one person has to do all of it.

## What a reality check is

There may be moments when the good memories take over and the hard ones fade. In those moments it can be very hard to see clearly on your own. A reality check is a person you can turn to and say: *remind me what it was really like.*

The best person for this knows what actually happened. They listen without rushing you, and they don't shame you for missing someone. They help you hold the whole picture when it's slipping.

It can help to ask them ahead of time. You might say: “On the hard days, could I message you? I might need help seeing things clearly.” Asking early makes it easier to reach out when the moment comes.

## Steadying, or not

Some people love us and still leave us more anxious. A friend who carries their own fears about relationships might, without meaning to, push you one way or the other. That doesn't make them a bad friend. It's worth noticing who leaves you steadier and who leaves you shaken, and thinking about who to call when things are hard.

## Starting small

If your corner seems empty right now, that's all right. It can grow, one person or one place at a time: a support group, a helpline, an old friend you've lost touch with, a class where you see the same faces each week. Your therapist is in your corner too.

## A question for the week

Who is one person you might ask to be your reality check, and what could you say to them?
"""

GRIEF = """
When a hard relationship ends, or starts to loosen, people often expect only relief. Sometimes relief comes. But often there is sadness too, and it can run deep.

Grief doesn't mean a decision was a mistake. Grief and a right decision can sit side by side.

## What there is to grieve

It can help to know that there is often more than one loss at once:

- *The person.* Their voice, their habits, the good days. Missing someone doesn't mean wanting the hard days back.
- *The future you imagined.* The home, the plans, perhaps a family, growing old together. Letting go of a future that won't come is a real loss.
- *The version of you who believed in it.* The person you were when you hoped it would work. It's natural to miss that hope too.

There can be other losses as well: shared friends, a home, routines, a sense of who you were. Each of these is worth grieving.

## Grief doesn't follow a straight line

Grief comes and goes. One day can be lighter, and the next a song or a smell brings it all back. Sadness can arrive alongside anger, relief, guilt or numbness, sometimes all in one afternoon. None of this means you are doing it wrong.

Grief can also blur into the pull to go back. Missing someone is real. On its own, it isn't a sign that a decision was wrong. You can honour the sadness without acting on it.

## Making room for it

Grief tends to ease when it has somewhere to go. Some things people find helpful:

- letting yourself cry, or be quiet, without explaining
- writing down what you miss, and also what you don't
- telling someone who understands
- small rituals: a walk, a candle, putting some things away in a box
- being gentle with yourself about what you can manage right now

There is no timetable. Grief takes as long as it takes, and it doesn't need to be rushed or hidden.

If the sadness ever becomes too heavy to carry alone, you can reach out: to your therapist, to someone you trust, or to the lines on the *Help now* page.

## A question for the week

Is there a loss, big or small, that you would like to name this week?
"""

NOT_SAFE_YET = """
Sometimes leaving isn't possible right now. It might not be safe. There might be children to think about, or money, or somewhere to live. The person might react in ways that put you at risk. Or you might not be ready, and that is allowed too.

You don't have to leave to deserve support. And you don't need a plan to leave to work on things here.

## Your safety comes first

The time around leaving can carry real risks. That's why no one here will push you to leave. You know your situation better than anyone. Your therapist will follow your lead, and help you think through what is possible.

## A safety plan

A safety plan is a set of notes for a hard moment, made in a calm one. You can make it with your therapist. It might include:

- the warning signs that things are getting worse
- safe places you could go, even for a few hours
- people you could call, and a code word that means “I need help”
- where your important documents are, like ID and bank cards
- emergency numbers

A plan is not a promise to leave. It's there so that, if something happens, you don't have to think of everything at once. You can change it whenever things change.

## Help is always close

At the top of every page here there is a *Help now* link. It shows your own plan, if you have one, and the crisis lines your practice has chosen. You don't need to wait for a session to use them.

If you are in danger right now, call your local emergency number.

There is also a *Leave this site now* button at the top of every page, or you can press the Shift key three times. It takes you straight to another website and signs you out. It doesn't clear your browser's history, so if someone may check your phone, a private window can help too.

## Small steps still count

Staying for now doesn't mean nothing can change. Many people, while still in a relationship, find ways to reduce harm and look after themselves:

- keeping in touch with one person who knows the real story
- setting one small, safe boundary
- doing something each week that is only for you
- keeping a private record of hard moments, if that is safe for you

Each of these is worth doing for its own sake, whatever comes next.

## A question for the week

What is one thing that might help you be a little safer this week?
"""

READINGS: list[LibraryExercise] = [
    _reading(
        title="Knowing, and the pull back",
        instructions=(
            "A short read for a quiet moment. The questions underneath are there if you'd like them."
        ),
        therapist_note=(
            "The clear decision and the attachment pull run on different systems; struggling to "
            "act is not proof the decision was wrong. Pairs with the worksheet “Knowing is not the "
            "same as leaving”."
        ),
        text=KNOWING,
        prompts=[
            "Is there something you see clearly now that was harder to see a while ago? A few words are enough.",
            "When does the pull tend to show up for you, if you've noticed?",
        ],
    ),
    _reading(
        title="Warmth that comes and goes",
        instructions=(
            "A short read about why some bonds hold so tightly. You can stop whenever you like."
        ),
        therapist_note=(
            "Intermittent reinforcement in plain words: the good moments are real and are also "
            "what keeps the cycle going. Pairs with “The cycle, as I have lived it”."
        ),
        text=WARMTH,
        prompts=[
            "Looking back, is there a rhythm you recognise? Write as much or as little as you like.",
            "What might help you keep the whole picture in mind when the warm moments come?",
        ],
    ),
    _reading(
        title="Why the good memories come back",
        instructions="A short read about memory, and a way to keep the whole story close.",
        therapist_note=(
            "Why memory tilts toward the good moments, and what the written record is for. Pairs "
            "with “Keep the full picture”."
        ),
        text=MEMORIES,
        prompts=[
            "What would you like your future self to remember on a day when the good memories crowd in?",
            "Is there a hard moment you'd like to keep a note of? You don't need to write it here: this is only a place to notice it.",
        ],
    ),
    _reading(
        title="An urge is a wave",
        instructions="A short read for the moments when the urge to get in touch arrives.",
        therapist_note=(
            "Urges as craving, not new information; they peak and ease, and ease further with "
            "sustained no-contact. Pairs with “30 days of no contact”, or “Notice the pull” for "
            "clients still in contact."
        ),
        text=URGES,
        prompts=[
            "Think of a recent urge, if you like. What set it off, and what happened to it over time?",
            "What helps you ride out an urge? Anything counts, however small.",
        ],
    ),
    _reading(
        title="Starting with a small boundary",
        instructions="A short read about boundaries small enough to try, wherever you are.",
        therapist_note=(
            "Harm reduction: a boundary as the client's own action, small enough to try now, "
            "safety first. Pairs with the ladder “One small boundary”."
        ),
        text=BOUNDARY,
        prompts=[
            "Is there a small boundary you'd like to try? You can write it in your own words.",
            "What might make it a little easier to keep, even once?",
        ],
    ),
    _reading(
        title="People in your corner",
        instructions="A short read about the people on your side, and what a reality check is.",
        therapist_note=(
            "Isolation strengthens the bond; names the reality-check role and the friend who loves "
            "the client but is not steadying. Pairs with the map “Who is in my corner”."
        ),
        text=CORNER,
        prompts=[
            "Who leaves you steadier after time together? First names or nicknames are plenty.",
            "Is there someone you've lost touch with who you might like to hear from again? Only if it seems right.",
        ],
    ),
    _reading(
        title="Room for grief",
        instructions="A short read about sadness, which can come even when a choice is right.",
        therapist_note=(
            "Grief for the person, the imagined future and the self who believed in it, without "
            "reading it as a reason to return. Pairs with the worksheet “What I'm grieving”."
        ),
        text=GRIEF,
        prompts=[
            "Is there something you miss, and something you don't miss at all? Both are welcome here.",
            "What helps, even a little, when sadness comes in a wave?",
        ],
    ),
    _reading(
        title="When leaving isn't safe yet",
        instructions="A short read about staying safe, wherever you are right now.",
        therapist_note=(
            "For clients not able or not ready to leave: safety first, no pressure, harm "
            "reduction. Best alongside “My safety plan”, made together in session."
        ),
        text=NOT_SAFE_YET,
        prompts=[
            "What helps you be even a little safer from day to day?",
            "Is there anything about your safety you'd like to talk about in your next session?",
        ],
    ),
]
