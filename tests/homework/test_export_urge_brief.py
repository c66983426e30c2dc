"""The urge log's lines in the client's download: plain paragraphs (each
inline element costs the PDF engine about a paragraph; bench/export.py),
the client's own line breaks kept by the paragraph's white-space."""

import re

import pytest

from homework import export
from tests.factories import AssignmentFactory, EntryFactory, ExerciseFactory, urge_log

pytestmark = pytest.mark.django_db


def test_an_urge_prints_as_plain_lines_keeping_the_clients_line_breaks(cast):
    assignment = AssignmentFactory.create(
        client=cast.alice, exercise=ExerciseFactory.create(kind="urge_log", title="Pull")
    )
    EntryFactory.create(
        assignment=assignment, response=urge_log(did_instead="Walked.\nThen called my sister.")
    )
    document = export.export_document(user=cast.alice.portal_user)
    briefs = re.findall(r'<p class="brief">(.*?)</p>', document, flags=re.DOTALL)
    assert "What I did with the urge: Walked.\nThen called my sister." in briefs
    assert not any("<" in brief for brief in briefs)
    assert re.search(r"\.brief \{[^}]*white-space: pre-line", document)
