"""The session summary benchmark (issue 28's figures), one repeat a call.

1. A typical client (three weeks, ~40 entries of all six kinds): our own
   part (the period, the queries, templates and charts) against WeasyPrint
   on the same finished HTML, timed back to back [at most 0.3x].
2. A year-long client (a record a day since the last session) against the
   typical one, the whole summary each [at most 1.2x]: the summary's pages
   and work stay bounded however long the period.
3. For information, without a budget: the whole summary against WeasyPrint
   alone on a plain document of the same text (how much layout the engine
   does, not our code).

Ratios are the median of pairs timed one right after the other: on a
shared machine a pair sees the same weather. The helpers here (timing, the
plain document, a throwaway SQLite database) serve the other benchmarks too.
"""

import functools
import gc
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from bench.figures import Figure

T = TypeVar("T")

RUNS = 9  # a repeat; the runner reports the median of 3 repeats


def setup_django(folder: Path) -> None:
    """Django on a throwaway SQLite database in ``folder``, with tasks run in-process."""
    os.environ["DATABASE_URL"] = f"sqlite:///{folder / 'bench.sqlite3'}"
    os.environ["VAR_DIR"] = str(folder)
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "practice.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def print_figures_on_sqlite(
    figures: Callable[[], list[Figure]], prefix: str, *, digits: int = 2
) -> None:
    """``python -m bench.<module>`` alone: its figures on a throwaway SQLite database, one a line."""
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        setup_django(Path(tmp))
        for figure in figures():
            ratio = f"{figure.ratio:.{digits}f}"
            print(f"{figure.name}: {ratio}x {figure.goal_text} {figure.note}".rstrip())


def timed_result(fn: Callable[[], T]) -> tuple[T, tuple[float, float]]:
    """What one call returns, and its wall-clock and CPU seconds."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return result, (time.perf_counter() - wall, time.process_time() - cpu)


def timed(fn: Callable[[], object]) -> tuple[float, float]:
    """Wall-clock and CPU seconds for one call."""
    return timed_result(fn)[1]


def median(samples: list[tuple[float, float]], which: int) -> float:
    return statistics.median(sample[which] for sample in samples)


def paired_timings(
    this: Callable[[], object], that: Callable[[], object], rounds: int
) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """Each call started on a clean heap and the order turned round every round: whichever comes
    second otherwise pays for the garbage the first left (0.8x one way, 1.4x the other, on the
    same code). The two lists pair up for ``paired_ratio``."""
    these: list[tuple[float, float]] = []
    those: list[tuple[float, float]] = []
    pair = [(these, this), (those, that)]
    for number in range(rounds):
        for timings, call in pair if number % 2 == 0 else pair[::-1]:
            gc.collect()
            timings.append(timed(call))
    return these, those


def paired_ratio(
    these: list[tuple[float, float]], those: list[tuple[float, float]], which: int
) -> float:
    """The median of the ratios of samples taken one right after the other."""
    return statistics.median(a[which] / b[which] for a, b in zip(these, those, strict=True))


def plain_document(document_html: str, *, face: str) -> tuple[str, str]:
    """A document's text (tags stripped), and the engine's floor for it: that
    text as a plain document, in paragraphs of 600 characters. In the
    document's own body face, named: the default face is whichever the
    machine's fonts make it (Noto Serif once fonts-noto-core is installed, a
    tenth slower here than DejaVu Serif), and the baseline must not move with it."""
    import html
    import re

    text = html.unescape(re.sub(r"<[^>]+>", " ", document_html.split("<body>", 1)[1]))
    text = " ".join(text.split())
    paragraphs = "".join(
        f"<p>{html.escape(text[i : i + 600])}</p>" for i in range(0, len(text), 600)
    )
    return text, f'<html lang="en"><body style="font-family: \'{face}\'">{paragraphs}</body></html>'


@functools.cache
def _clients():
    """The typical client and the year-long one, made once for every repeat."""
    from bench.clients import client_with_records, typical_client

    typical = typical_client()
    return typical, client_with_records("Year", days=365, per_day=1.0, seed=2)


def figures() -> list[Figure]:
    """One repeat: RUNS interleaved runs of each variant, paired ratios."""
    import datetime as dt
    import io

    from django.utils import timezone
    from pypdf import PdfReader

    from homework.selectors.period import PeriodQuery
    from homework.summary import render, selectors
    from practice.pdf import render_pdf

    def our_part(user, client) -> tuple[render.SummaryDocument, dt.datetime]:
        """The period, the entries and the document: our queries, templates and charts."""
        now = timezone.now()
        period = selectors.resolve_period(user=user, client=client, query=PeriodQuery(), now=now)
        data = selectors.summary_data(
            user=user, client=client, period=period, full_detail=False, now=now
        )
        return render.summary_document(data), now

    def whole_summary(user, client) -> bytes:
        document, now = our_part(user, client)
        return render.render_summary_pdf(document, generated_at=now)

    (therapist, client, entry_count), (year_therapist, year_client) = _clients()
    summary_pdf = whole_summary(therapist, client)
    year_pdf = whole_summary(year_therapist, year_client)
    document, _made_at = our_part(therapist, client)
    text, plain = plain_document(document.html, face="DejaVu Serif")
    render_pdf(plain)  # warm every path once

    whole: list[tuple[float, float]] = []
    ours: list[tuple[float, float]] = []
    its_engine: list[tuple[float, float]] = []
    engine: list[tuple[float, float]] = []
    year: list[tuple[float, float]] = []
    for _ in range(RUNS):
        # The whole summary, timed in its two halves back to back.
        (made, made_at), our_sample = timed_result(functools.partial(our_part, therapist, client))
        ours.append(our_sample)
        its_engine.append(
            timed(functools.partial(render.render_summary_pdf, made, generated_at=made_at))
        )
        whole.append((ours[-1][0] + its_engine[-1][0], ours[-1][1] + its_engine[-1][1]))
        engine.append(timed(lambda: render_pdf(plain)))
        year.append(timed(functools.partial(whole_summary, year_therapist, year_client)))
    pages = len(PdfReader(io.BytesIO(summary_pdf)).pages)
    year_pages = len(PdfReader(io.BytesIO(year_pdf)).pages)
    print(
        f"Session summary ({RUNS} interleaved runs): typical client {entry_count} entries, "
        f"{pages} page(s), {len(text)} characters; whole {median(whole, 0) * 1000:.0f} ms, "
        f"ours {median(ours, 0) * 1000:.0f} ms, WeasyPrint {median(its_engine, 0) * 1000:.0f} ms; "
        f"a year (365 entries): {year_pages} page(s), {median(year, 0) * 1000:.0f} ms"
    )
    return [
        Figure(
            "Summary: our part (queries, templates, charts) / WeasyPrint on the same HTML",
            paired_ratio(ours, its_engine, 0),
            0.3,
        ),
        Figure(
            "Summary: a year-long client / a three-week one",
            paired_ratio(year, whole, 0),
            1.2,
            note=f"{year_pages} page(s) against {pages}",
        ),
        Figure(
            "Summary: whole / WeasyPrint on a plain document of the same text",
            paired_ratio(whole, engine, 0),
            None,
            note="how much layout the engine does, not our code",
        ),
    ]


if __name__ == "__main__":
    print_figures_on_sqlite(figures, "summary-bench-")
