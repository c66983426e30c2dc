"""Headers that limit what a page can do if something slips into it.

The portal and the admin show text written by clients and therapists; a
Content-Security-Policy keeps a script that got in from running, and no page
may be framed by another site (X-Frame-Options alone is ignored by nothing
older, but frame-ancestors is the rule browsers now follow).
"""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client as HttpClient
from django.urls import reverse

from tests.conftest import login


def policy(response) -> dict[str, str]:
    header = response.get("Content-Security-Policy", "")
    assert header, f"no Content-Security-Policy on {response.request['PATH_INFO']}"
    directives = (part.strip().split(None, 1) for part in header.split(";") if part.strip())
    return {name: value[0] if value else "" for name, *value in directives}


@pytest.mark.parametrize(
    ("who", "url"),
    [
        (None, "/login/"),
        (None, "/help-now/"),
        (None, "/no-such-page/"),
        ("alice", "/"),
        ("alice", "/account/"),
        ("tara", "/admin/"),
    ],
)
def test_pages_run_only_the_sites_own_scripts(cast, who, url):
    user = {"alice": cast.alice.portal_user, "tara": cast.tara, None: None}[who]
    rules = policy(login(user).get(url))
    assert rules["script-src"] == "'self'"
    assert rules["object-src"] == "'none'"
    assert rules["base-uri"] == "'none'"
    assert rules["frame-ancestors"] == "'none'"


def test_only_the_admin_may_frame_the_assignment_preview(cast):
    response = login(cast.tara).post(reverse("admin:homework_assignment_preview"))
    assert response.status_code == 200
    assert policy(response)["frame-ancestors"] == "'self'"


def test_a_server_fault_page_has_the_policy_too(cast, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr("homework.portal.todo.render", broken)
    http = HttpClient(raise_request_exception=False)
    http.force_login(cast.alice.portal_user)
    response = http.get("/")
    assert response.status_code == 500
    assert policy(response)["script-src"] == "'self'"


INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>(?!\s*</script>)", re.S)
EVENT_HANDLER = re.compile(r"""\son[a-z]+\s*=\s*["']""")


def served_as_pages() -> list[Path]:
    """Every template but emails and the PDFs' sources, never served as pages."""
    return [
        template
        for template in sorted(Path(settings.BASE_DIR, "templates").rglob("*.html"))
        if "/email/" not in str(template) and template.name not in {"document.html", "export.html"}
    ]


@pytest.mark.parametrize("template", served_as_pages(), ids=str)
def test_templates_hold_no_inline_script_the_policy_would_block(template):
    text = template.read_text()
    text = re.sub(r'<script[^>]*type="application/json"[^>]*>', "", text)
    assert not INLINE_SCRIPT.search(text), "move the script into static/js/"
    assert not EVENT_HANDLER.search(text), "use a listener in static/js/, not an on…= attribute"
