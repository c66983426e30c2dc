"""The translation catalogs: placeholders kept as in English, and each compiled file current."""

import gettext
import subprocess  # nosec B404 (msgfmt, the catalogs' own tool, on our own files)
from pathlib import Path

import pytest
from django.conf import settings

CATALOGS = sorted(Path(settings.BASE_DIR, "locale").glob("*/LC_MESSAGES/django.po"))


def format_errors(po: Path) -> str:
    """msgfmt's own check: a translation whose %(name)s placeholders differ from its source."""
    checked = subprocess.run(  # nosec B603 B607
        ["msgfmt", "--check-format", "-o", "/dev/null", str(po)],
        capture_output=True,
        text=True,
        check=False,
    )
    return checked.stderr if checked.returncode else ""


def compiled(po: Path, into: Path) -> dict[object, str]:
    subprocess.run(["msgfmt", "-o", str(into), str(po)], check=True)  # nosec B603 B607
    return read_mo(into)


def read_mo(mo: Path) -> dict[object, str]:
    with mo.open("rb") as file:
        return dict(gettext.GNUTranslations(file)._catalog)  # type: ignore[attr-defined]


def test_every_offered_language_but_the_source_has_a_catalog():
    offered = {code.split("-")[0] for code, _name in settings.LANGUAGES} - {"en"}
    assert {po.parts[-3] for po in CATALOGS} >= offered


@pytest.mark.parametrize("po", CATALOGS, ids=lambda po: po.parts[-3])
def test_no_translation_changes_a_placeholder(po):
    assert format_errors(po) == ""


def test_a_changed_placeholder_is_caught(tmp_path):
    po = tmp_path / "django.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        '#, python-format\nmsgid "Until %(date)s"\nmsgstr "Hasta %(fecha)s"\n',
        encoding="utf-8",
    )
    assert "date" in format_errors(po)


@pytest.mark.parametrize("po", CATALOGS, ids=lambda po: po.parts[-3])
def test_the_committed_compiled_catalog_matches_its_source(po, tmp_path):
    """`make messages` (or `make test`) compiles it; a .po changed without it fails here."""
    mo = po.with_suffix(".mo")
    assert mo.exists(), f"{mo} is missing: run make messages"
    assert read_mo(mo) == compiled(po, tmp_path / "fresh.mo"), f"{mo} is stale: run make messages"


def statistics(po: Path) -> str:
    counted = subprocess.run(  # nosec B603 B607
        ["msgfmt", "--statistics", "-o", "/dev/null", str(po)],
        capture_output=True,
        text=True,
        check=True,
    )
    return counted.stderr.strip()


@pytest.mark.parametrize("po", CATALOGS, ids=lambda po: po.parts[-3])
def test_every_entry_is_translated_and_none_is_fuzzy(po):
    """A client who reads Spanish never meets an English sentence the catalog left out."""
    said = statistics(po)
    assert "untranslated" not in said and "fuzzy" not in said, said


@pytest.mark.parametrize("po", CATALOGS, ids=lambda po: po.parts[-3])
def test_every_plural_has_each_form_its_language_counts(po, tmp_path):
    """Spanish counts three forms (one, a million, the rest): one left empty is English again."""
    catalog = compiled(po, tmp_path / "fresh.mo")
    with (tmp_path / "fresh.mo").open("rb") as file:
        plural = gettext.GNUTranslations(file).plural  # type: ignore[attr-defined]
    forms = max(plural(n) for n in (0, 1, 2, 5, 1_000_000)) + 1
    plurals = {key[0] for key in catalog if isinstance(key, tuple)}
    missing = [msgid for msgid in plurals for n in range(forms) if not catalog.get((msgid, n))]
    assert not missing, missing[:5]
