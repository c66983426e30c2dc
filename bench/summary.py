"""The session summary benchmark.

1. A typical client (three weeks, ~40 entries of all six kinds): the whole summary (queries,
   templates, WeasyPrint) against WeasyPrint alone on a plain HTML document
   with the same text, in the same run. Each summary is timed right beside
   a plain render, and the ratio is the median of those pairs: on a shared
   machine a pair sees the same weather, where the ratio of two medians of
   nine swung from 2.1x to 2.9x between runs of an unchanged tree.
   Budget: at most 2x (our work may cost at most as much as the engine's).
   Each summary is timed in its two halves, so the benchmark also prints our
   own part (queries, templates, charts) against WeasyPrint on that same
   document: what our work adds to the engine's cost for this very summary,
   where the plain document stands in for the engine's cost.
2. The same summary served again from storage (the evening batch's case).
3. A year of daily entries: pages and queries.

The plain document is the summary's own text (tags stripped), in paragraphs
of 600 characters, in the summary's body face (DejaVu Serif), rendered
through the same ``render_pdf``. For context the benchmark also renders the
summary's own paragraphs with no style sheet and no charts: the engine's
cost for this structure, before anything of ours.

Runs on a throwaway SQLite database in a temporary folder; touches nothing else.
"""

import functools
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

RUNS = 25
BUDGET = 2.0


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


def run() -> int:
    with tempfile.TemporaryDirectory(prefix="summary-bench-") as tmp:
        setup_django(Path(tmp))
        return run_on_database()


def run_on_database() -> int:
    """The benchmark, once Django is set up on a database of its own."""
    import datetime as dt
    import io
    import re

    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone
    from pypdf import PdfReader

    from bench.clients import client_with_records, typical_client
    from homework.summary import render, selectors, services
    from homework.summary.period import PeriodQuery
    from practice.pdf import fonttools_fallback, render_pdf

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

    therapist, client, entry_count = typical_client()
    summary_pdf = whole_summary(therapist, client)
    document, _made_at = our_part(therapist, client)
    text, plain = plain_document(document.html, face="DejaVu Serif")
    unstyled = re.sub(r"<style>.*?</style>|<img [^>]*>", "", document.html, flags=re.S)
    render_pdf(plain)  # warm every path once
    render_pdf(unstyled)

    whole: list[tuple[float, float]] = []
    ours: list[tuple[float, float]] = []
    its_engine: list[tuple[float, float]] = []
    engine: list[tuple[float, float]] = []
    structure: list[tuple[float, float]] = []
    for _ in range(RUNS):
        # The whole summary, timed in its two halves back to back.
        (made, made_at), our_sample = timed_result(functools.partial(our_part, therapist, client))
        ours.append(our_sample)
        its_engine.append(
            timed(functools.partial(render.render_summary_pdf, made, generated_at=made_at))
        )
        whole.append((ours[-1][0] + its_engine[-1][0], ours[-1][1] + its_engine[-1][1]))
        engine.append(timed(lambda: render_pdf(plain)))
        structure.append(timed(lambda: render_pdf(unstyled)))
    ratio = paired_ratio(whole, engine, 0)
    cpu_ratio = paired_ratio(whole, engine, 1)
    structure_ratio = paired_ratio(whole, structure, 0)
    ours_ratio = paired_ratio(ours, its_engine, 0)

    services.summary_pdf(user=therapist, client=client, query=PeriodQuery())
    stored = [
        timed(lambda: services.summary_pdf(user=therapist, client=client, query=PeriodQuery()))
        for _ in range(RUNS)
    ]

    year_therapist, year_client = client_with_records("Year", days=365, per_day=1.0, seed=2)
    with CaptureQueriesContext(connection) as queries:
        year_pdf = whole_summary(year_therapist, year_client)
    year_pages = len(PdfReader(io.BytesIO(year_pdf)).pages)

    pages = len(PdfReader(io.BytesIO(summary_pdf)).pages)
    subsetting = (
        "fontTools (slow: install libharfbuzz-subset0)" if fonttools_fallback() else "HarfBuzz"
    )
    lines = [
        f"Session summary benchmark ({RUNS} interleaved runs; ratios: the median of pairs)",
        f"  font subsetting:               {subsetting}",
        f"  typical client:                {entry_count} entries of all six kinds over 3 weeks: "
        f"{pages} page(s), {len(text)} characters",
        f"  whole summary:                 {median(whole, 0) * 1000:7.1f} ms"
        f"   (CPU {median(whole, 1) * 1000:.1f} ms)",
        f"    our queries, templates, charts: {median(ours, 0) * 1000:5.1f} ms"
        f"   ({ours_ratio:.2f}x WeasyPrint on the same document,"
        f" {median(its_engine, 0) * 1000:.1f} ms)",
        f"  WeasyPrint, same text, plain:  {median(engine, 0) * 1000:7.1f} ms"
        f"   (CPU {median(engine, 1) * 1000:.1f} ms)",
        f"  ratio:                         {ratio:7.2f}x   (CPU {cpu_ratio:.2f}x; budget {BUDGET:.1f}x)",
        "  WeasyPrint, same paragraphs,",
        f"    no style sheet, no charts:   {median(structure, 0) * 1000:7.1f} ms"
        f"   (the whole summary: {structure_ratio:.2f}x that)",
        f"  served again from storage:     {median(stored, 0) * 1000:7.1f} ms",
        f"  a year of daily entries:       {year_pages} page(s), {len(queries)} queries",
    ]
    within = ratio <= BUDGET and year_pages <= 3
    lines.append("  " + ("within budget" if within else "over budget (see the ratio)"))
    print("\n".join(lines))
    # A figure to read, not a gate: timings on a shared machine are noisy.
    return 0


if __name__ == "__main__":
    sys.exit(run())
