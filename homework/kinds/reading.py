"""A reading: a short text the client reads in the portal, with up to three reflection prompts they
may answer in their own words. Sending it ("I've read this") is what marks it done."""

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from django import forms
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from markdown_it import MarkdownIt

from homework.kinds.base import BRIEF, ExerciseKind, JSONDict, ResponseInvalid, Shown, SummaryScope
from homework.kinds.excerpts import shorten
from homework.kinds.fields import KindForm, OptionsForm, long_text
from homework.kinds.limits import first_of
from homework.kinds.shelves import Shelf
from practice.text_limits import too_long

if TYPE_CHECKING:
    from homework.models import Entry, Exercise

READING_TEXT_MAX_CHARS = 6000
READING_PROMPTS_MAX = 3
READING_PROMPT_MAX_CHARS = 300
REFLECTION_KEYS = [f"reflection_{n}" for n in range(1, READING_PROMPTS_MAX + 1)]

# Only the agreed subset (headings, paragraphs, lists, emphasis): no raw HTML, no images, no links,
# so no markup or tracking pixel written into a reading can reach the client's page.
_MARKDOWN = MarkdownIt("zero", {"html": False}).enable(["heading", "list", "emphasis"])


def reading_html(text: str) -> SafeString:
    """The page's title is its only <h1>, so the reading's headings start at <h2>."""
    tokens = _MARKDOWN.parse(text)
    for token in tokens:
        if token.type in ("heading_open", "heading_close"):
            token.tag = f"h{max(2, int(token.tag[1]))}"
    html = _MARKDOWN.renderer.render(tokens, _MARKDOWN.options, {})
    return mark_safe(str(html))  # noqa: S308 (markdown-it escapes all it does not make a tag)  # nosec B703


def prompts_by_key(exercise: "Exercise") -> dict[str, str]:
    """The exercise's prompts now, each under the key its reflection is kept by."""
    options = exercise.options if isinstance(exercise.options, dict) else {}
    prompts = options.get("prompts")
    written = [p for p in prompts if isinstance(p, str)] if isinstance(prompts, list) else []
    return dict(zip(REFLECTION_KEYS, written, strict=False))


def clean_reading_options(options: Any) -> JSONDict:
    if not isinstance(options, dict):
        raise ResponseInvalid(
            {"options": [_("A reading needs its text: an object with “text” and “prompts”.")]}
        )
    errors: dict[str, list[str]] = {}
    unknown = sorted(str(name) for name in set(options) - {"text", "prompts"})
    if unknown:
        errors["options"] = [
            _("“%(name)s” is not a reading option. Use “text” and “prompts”.")
            % {"name": unknown[0][:40]}
        ]
    text = options.get("text")
    # A browser's textarea sends "\r\n": counted and kept as the one line break it is.
    text = text.replace("\r\n", "\n").strip() if isinstance(text, str) else None
    if not text:
        errors["text"] = [_("Write the reading the client will read.")]
    elif len(text) > READING_TEXT_MAX_CHARS:
        errors["text"] = [too_long(limit=READING_TEXT_MAX_CHARS, length=len(text))]
    prompts = options.get("prompts", [])
    if not isinstance(prompts, list):
        errors["prompts"] = [_("The prompts are a list of questions (up to three), or none.")]
        prompts = []
    elif len(prompts) > READING_PROMPTS_MAX:
        errors["prompts"] = [
            ngettext(
                "A reading can have up to %(n)s prompt.",
                "A reading can have up to %(n)s prompts.",
                READING_PROMPTS_MAX,
            )
            % {"n": READING_PROMPTS_MAX}
        ]
    for number, prompt in enumerate(prompts, start=1):
        if not isinstance(prompt, str) or not prompt.strip():
            errors[f"prompts.{number}"] = [_("Write the prompt as words, or take it out.")]
        elif len(prompt.strip()) > READING_PROMPT_MAX_CHARS:
            message = too_long(limit=READING_PROMPT_MAX_CHARS, length=len(prompt.strip()))
            errors[f"prompts.{number}"] = [message]
    if errors:
        raise ResponseInvalid(errors)
    return {"text": text, "prompts": [str(p).strip() for p in prompts]}


class ReadingForm(KindForm):
    """The reflections, each optional, with the reading drawn above them."""

    reading: SafeString = SafeString("")


class ReadingOptionsForm(OptionsForm):
    text = forms.CharField(
        label=gettext_lazy("The reading"),
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 20, "class": "vLargeTextField", "dir": "auto"}),
        help_text=format_lazy(
            gettext_lazy(
                "Up to {limit} characters. A blank line starts a new paragraph; “## ” at the start "
                "of a line makes a heading, “- ” an item of a list, and *a word between stars* "
                "stands out."
            ),
            limit=READING_TEXT_MAX_CHARS,
        ),
    )
    prompt_1 = forms.CharField(
        label=gettext_lazy("Reflection prompt 1"),
        required=False,
        help_text=format_lazy(
            gettext_lazy(
                "Optional: up to three questions the client may answer after reading, each up to "
                "{limit} characters. Leave them empty to ask nothing."
            ),
            limit=READING_PROMPT_MAX_CHARS,
        ),
    )
    prompt_2 = forms.CharField(label=gettext_lazy("Reflection prompt 2"), required=False)
    prompt_3 = forms.CharField(label=gettext_lazy("Reflection prompt 3"), required=False)

    PROMPT_FIELDS: ClassVar[list[str]] = ["prompt_1", "prompt_2", "prompt_3"]

    @classmethod
    def initial_from(cls, options: Any) -> dict[str, Any]:
        options = options if isinstance(options, dict) else {}
        prompts = options.get("prompts") if isinstance(options.get("prompts"), list) else []
        return {
            "text": options.get("text", ""),
            **dict(zip(cls.PROMPT_FIELDS, prompts, strict=False)),
        }

    @classmethod
    def options_from(cls, cleaned: Mapping[str, Any]) -> JSONDict:
        filled = [cleaned.get(name) or "" for name in cls.PROMPT_FIELDS]
        return {"text": cleaned.get("text") or "", "prompts": [p for p in filled if p.strip()]}

    @classmethod
    def field_for(cls, key: str, cleaned: Mapping[str, Any]) -> str | None:
        """A prompt's problem goes on the box it was typed in, counting only boxes filled in."""
        if key == "text":
            return "text"
        filled = [name for name in cls.PROMPT_FIELDS if (cleaned.get(name) or "").strip()]
        number = key.removeprefix("prompts.")
        if number.isdigit() and 0 < int(number) <= len(filled):
            return filled[int(number) - 1]
        return None


class Reading(ExerciseKind):
    slug = "reading"
    label = gettext_lazy("Reading")
    shelf = Shelf.READINGS
    about = gettext_lazy("A short reading with questions to take into the week.")
    schema_version = 1
    form_class = ReadingForm
    send_label = gettext_lazy("I've read this")
    options_form = ReadingOptionsForm

    def clean_options(self, options: Any, *, saved: Any = None) -> JSONDict:
        return clean_reading_options(options)

    def form(
        self,
        *,
        exercise: "Exercise",
        data: Mapping[str, Any] | None = None,
        initial: Mapping[str, Any] | None = None,
        asked: Mapping[str, Any] | None = None,
    ) -> KindForm:
        form = ReadingForm(data=data, initial=dict(initial or {}), prefix="r")
        for key, prompt in prompts_by_key(exercise).items():
            form.fields[key] = long_text(prompt, help_text=_("Optional."))
        options = exercise.options if isinstance(exercise.options, dict) else {}
        form.reading = reading_html(str(options.get("text") or ""))
        return form

    def merge_edit(self, sent: JSONDict, edited: JSONDict, *, exercise: "Exercise") -> JSONDict:
        """A reflection on a prompt since taken away is still the client's words."""
        return {**sent, **edited}

    def asked(
        self,
        exercise: "Exercise",
        response: JSONDict,
        *,
        before: JSONDict,
        answered_before: JSONDict,
        shown: Shown | None = None,
    ) -> JSONDict:
        """Each reflection keeps the prompt it answered, so a reworded prompt cannot change it."""
        now = prompts_by_key(exercise)
        before = before if isinstance(before, dict) else {}
        kept: JSONDict = {}
        for key, answer in response.items():
            if not isinstance(answer, str) or not answer.strip():
                continue
            unchanged = answered_before.get(key) == answer and isinstance(before.get(key), str)
            prompt = before[key] if unchanged else now.get(key)
            if prompt is not None:
                kept[key] = prompt
        return kept

    def questions_answered(self, entry: "Entry", asked_now: list[JSONDict]) -> list[JSONDict]:
        kept = entry.asked if isinstance(entry.asked, dict) else {}
        listed = [{**q, "text": kept.get(q["key"], q["text"])} for q in asked_now]
        known = {q["key"] for q in asked_now}
        return listed + [{"key": k, "text": t} for k, t in kept.items() if k not in known]

    def reflections(self, entry: "Entry") -> list[tuple[str, str]]:
        """(prompt, answer) for each reflection written; one left empty is not mentioned."""
        response = self.response_of(entry)
        kept = entry.asked if isinstance(entry.asked, dict) else {}
        now = prompts_by_key(entry.assignment.exercise)
        return [
            (str(kept.get(key) or now.get(key) or _("A reflection")), answer)
            for key in sorted(response)
            if isinstance(answer := response[key], str) and answer.strip()
        ]

    def present(self, entry: "Entry") -> JSONDict:
        options = entry.assignment.exercise.options
        text = options.get("text") if isinstance(options, dict) else ""
        return {
            "response": self.response_of(entry),
            # For the client to read again from their history.
            "reading": reading_html(str(text or "")),
            "read_at": entry.submitted_at,
            "reflections": self.reflections(entry),
        }

    def excerpt(self, entry: "Entry") -> str:
        reflections = self.reflections(entry)
        return shorten(reflections[0][1]) if reflections else ""

    def summary_context(self, entries: Sequence["Entry"], scope: SummaryScope = BRIEF) -> JSONDict:
        presented = [(entry, self.present(entry)) for entry in entries]
        presented.sort(key=lambda pair: pair[0].submitted_at or pair[0].created_at, reverse=True)
        shown, more = first_of(presented, full_detail=scope.full_detail)
        return {
            "entries": shown,
            "more": more,
            "printed": [entry for entry, present in shown if present["reflections"]],
            "full_detail": scope.full_detail,
        }

    def at_a_glance(self, entries: Sequence["Entry"], scope: SummaryScope = BRIEF) -> list[str]:
        line = ngettext("%(count)s reading read", "%(count)s readings read", len(entries)) % {
            "count": len(entries)
        }
        reflected = sum(1 for entry in entries if self.reflections(entry))
        if reflected:
            line += " · " + ngettext(
                "%(count)s with reflections", "%(count)s with reflections", reflected
            ) % {"count": reflected}
        return [line]


KIND = Reading()
