"""A worksheet's entries as read: one entry shown, its line in a list, the summary's section and the
client's own progress."""

import datetime as dt
from collections.abc import Sequence
from typing import TYPE_CHECKING

from django.utils import timezone
from django.utils.translation import gettext as _

from homework.kinds import charts
from homework.kinds.excerpts import LINE_CHARS, joiner_after, shorten
from homework.kinds.limits import VALUES_LIST_LIMIT, first_of
from homework.kinds.summaries import by_assignment
from homework.kinds.values import BRIEF, JSONDict, SummaryScope
from homework.kinds.worksheet.measures import subscales_of
from homework.kinds.worksheet.questions import question_as_answered
from homework.kinds.worksheet.scoring import WorksheetScoring
from homework.kinds.worksheet.wording import wording_of
from practice.bidi import isolated_text
from practice.dates import calendar_day, years_named_within

if TYPE_CHECKING:
    from homework.models import Assignment, Entry, Exercise

WRITTEN = ("short_text", "long_text")


class WorksheetSummary(WorksheetScoring):
    def present(self, entry: "Entry") -> JSONDict:
        exercise = entry.assignment.exercise
        response = self.response_of(entry)
        return {
            "response": response,
            "answers": self.answers(exercise, response, entry.asked),
            "score": entry.score,
            "scale": self.score_scale(exercise),
            "band": self.band_of(exercise, entry.score),
            "subscales": self.subscale_readings(exercise, response),
            # As sent: an entry sent before its question was watched is not flagged now.
            "to_review": self.answers_to_review(exercise, response) if entry.needs_review else [],
        }

    def excerpt(self, entry: "Entry") -> str:
        """The total, then the client's first answer in their own words; with neither, the first
        answer after its question, since a bare "8 / 10" tells a reader nothing."""
        parts = []
        exercise = entry.assignment.exercise
        response = self.response_of(entry)
        scale_info = self.score_scale(exercise)
        if scale_info and entry.score is not None:
            parts.append(f"{isolated_text(scale_info['label'])}: {entry.score:g}")
        answered = [
            answer for answer in self.answers(exercise, response, entry.asked) if answer["answer"]
        ]
        parts[:0] = self.review_words(entry)
        written = next((answer for answer in answered if answer["type"] in WRITTEN), None)
        if written is not None:
            parts.append(written["answer"])
        elif answered and not parts:
            parts.append(_after_its_question(answered[0]["question"], answered[0]["answer"]))
        return shorten(" · ".join(parts))

    def review_words(self, entry: "Entry") -> list[str]:
        return [words for _key, words in self.watched_answers(entry) if words]

    def watched_answers(self, entry: "Entry") -> list[tuple[str, str]]:
        if not entry.needs_review:
            return []
        exercise = entry.assignment.exercise
        response = self.response_of(entry)
        to_review = self.answers_to_review(exercise, response)
        named = {
            answer["key"]: _after_its_question(answer["question"], answer["answer"])
            for answer in self.answers(exercise, response, entry.asked)
            if answer["key"] in to_review and answer["answer"]
        }
        return [(key, named.get(key, "")) for key in to_review]

    def summary_context(self, entries: Sequence["Entry"], scope: SummaryScope = BRIEF) -> JSONDict:
        groups = []
        printed: list[Entry] = []
        full_detail = scope.full_detail
        for assignment, own in by_assignment(entries):
            exercise = assignment.exercise
            shown, more = first_of(own[::-1], full_detail=full_detail)
            printed.extend(shown)
            groups.append(
                {
                    "exercise": exercise,
                    "questions": self.answers_by_question(exercise, shown, full_detail=full_detail),
                    "sent_once": shown[0].submitted_at if len(shown) == 1 else None,
                    "entry_once": shown[0] if len(shown) == 1 else None,
                    "more": more,
                    "totals": _with_values_listed(
                        self.totals_chart(exercise, own, labelled=False), full_detail=full_detail
                    ),
                    "subscales": self._latest_subscales(exercise, own),
                }
            )
        return {"groups": groups, "full_detail": full_detail, "printed": printed}

    def _latest_subscales(
        self, exercise: "Exercise", entries: Sequence["Entry"]
    ) -> JSONDict | None:
        """The latest scored entry's subscales, where the measure has them, and when it was sent."""
        if not subscales_of(exercise):
            return None
        for entry in reversed(entries):
            readings = self.subscale_readings(exercise, self.response_of(entry))
            if readings and entry.submitted_at is not None:
                return {"on": entry.submitted_at, "readings": readings}
        return None

    def answers_by_question(
        self, exercise: "Exercise", entries: Sequence["Entry"], *, full_detail: bool
    ) -> list[JSONDict]:
        """Each question once, with its answers in order, so a weekly check-in reads as how each
        answer moved. Grouped by key and by the wording answered, so answers to a reworded question
        are never merged."""
        questions: dict[str, dict[str, JSONDict]] = {}
        totalled = self.score_scale(exercise) is not None
        for entry in entries:
            # An entry sent before its scales were scored has no total to show them.
            in_total = totalled and entry.score is not None
            for answer in self.answers(exercise, self.response_of(entry), entry.asked):
                if answer["answer"] and (full_detail or not (answer["scored"] and in_total)):
                    wordings = questions.setdefault(answer["key"], {})
                    question = wordings.setdefault(
                        wording_of(answer["question"]),
                        {"text": answer["question"], "now": answer["now"], "answers": []},
                    )
                    question["answers"].append(
                        {
                            "on": entry.submitted_at,
                            "entry": entry,
                            "text": answer["answer"],
                        }
                    )
        return [question for wordings in questions.values() for question in wordings.values()]

    def at_a_glance(self, entries: Sequence["Entry"], scope: SummaryScope = BRIEF) -> list[str]:
        lines = []
        for assignment, own in by_assignment(entries):
            scale_info = self.score_scale(assignment.exercise)
            scores = [entry.score for entry in own if entry.score is not None]
            if scale_info is None or not scores:
                continue
            line = _(
                "%(title)s: %(first)s → %(last)s (%(direction)s; a reflection, not a diagnosis)."
            ) % {
                "title": isolated_text(assignment.exercise.title),
                "first": f"{scores[0]:g}",
                "last": f"{scores[-1]:g}",
                "direction": _("higher is steadier")
                if scale_info["higher_is_better"]
                else _("lower is steadier"),
            }
            band = self.band_of(assignment.exercise, scores[-1])
            if band:
                line += " " + _("Latest in the published band: %(band)s.") % {
                    "band": isolated_text(band)
                }
            change = self.change_of(assignment.exercise, scores)
            if change:
                line += " " + change
            lines.append(line)
        return lines

    def progress_context(
        self, *, assignment: "Assignment", entries: Sequence["Entry"]
    ) -> JSONDict | None:
        """The client's own answers as they gave them, never a score that grades them (CLINICAL.md);
        totals and their direction are for the therapist."""
        exercise = assignment.exercise
        questions = []
        for question in self.questions(exercise):
            if not question.get("scored"):
                continue
            # One picture per wording answered: an answer is never drawn under a question it did not
            # answer.
            by_wording: dict[str, tuple[str, list[tuple[dt.date, int]]]] = {}
            for entry in entries:
                value = self.response_of(entry).get(question["key"])
                if entry.submitted_at is None or not isinstance(value, int):
                    continue
                if isinstance(value, bool):
                    continue
                kept = entry.asked.get(question["key"]) if isinstance(entry.asked, dict) else None
                text = str(question_as_answered(kept, question).get("text", ""))
                by_wording.setdefault(wording_of(text), (text, []))[1].append(
                    (timezone.localdate(entry.submitted_at), value)
                )
            for text, answered in by_wording.values():
                days = [day for day, _value in answered]
                with years_named_within(min(days), max(days)):
                    points = [
                        (calendar_day(day, "ABBR_MONTH_DAY_FORMAT"), value)
                        for day, value in answered
                    ]
                questions.append(
                    {
                        "text": text,
                        "points": points,
                        "svg": charts.values_over_time(
                            points=[(label, float(value)) for label, value in points],
                            y_max=10,
                            title=text,
                            description=", ".join(f"{label}: {value}" for label, value in points),
                        ),
                    }
                )
        totals = self._totals_for_client(exercise, entries)
        if not questions and totals is None:
            return None
        return {"questions": questions, "totals": totals}

    def _totals_for_client(
        self, exercise: "Exercise", entries: Sequence["Entry"]
    ) -> JSONDict | None:
        """Only where the exercise shows them (``total_to_client``), with no band and no "better"
        (CLINICAL.md)."""
        rule = self.score_rule(exercise) or {}
        scale_info = self.score_scale(exercise)
        if not rule.get("total_to_client") or scale_info is None:
            return None
        sent = [
            (timezone.localdate(entry.submitted_at), entry.score)
            for entry in entries
            if entry.submitted_at is not None and entry.score is not None
        ]
        if not sent:
            return None
        days = [day for day, _value in sent]
        with years_named_within(min(days), max(days)):
            points = [(calendar_day(day, "ABBR_MONTH_DAY_FORMAT"), value) for day, value in sent]
        title = _("Your totals, each time you answered")
        return {
            "points": [(label, f"{value:g}") for label, value in points],
            "svg": charts.values_over_time(
                points=[(label, float(value)) for label, value in points],
                y_max=scale_info["max"],
                title=title,
                description=", ".join(f"{label}: {value:g}" for label, value in points),
            ),
        }


def _with_values_listed(totals: JSONDict | None, *, full_detail: bool) -> JSONDict | None:
    """The first and the latest, the ones between counted (all in full detail)."""
    if totals is None:
        return None
    points = totals["points"]
    if full_detail or len(points) <= VALUES_LIST_LIMIT:
        return {**totals, "listed_first": [], "unlisted": 0, "listed": points}
    latest = points[-(VALUES_LIST_LIMIT - 1) :]
    return {
        **totals,
        "listed_first": points[:1],
        "unlisted": len(points) - len(latest) - 1,
        "listed": latest,
    }


def _after_its_question(question: str, answer: str) -> str:
    """A long question is cut, not the answer it is there to explain."""
    question = " ".join(question.split())
    if not question:
        return answer
    room = max(LINE_CHARS - len(answer) - len(": "), LINE_CHARS // 2)
    question = shorten(question, room)
    return f"{isolated_text(question)}{joiner_after(question)}{answer}"
