"""The API's documentation: a schema and interactive docs for signed-in people, nothing from a CDN."""

import re

from tests.conftest import login


def test_the_docs_load_only_our_own_files(cast):
    http = login(cast.tara)
    page = http.get("/api/docs/")
    assert page.status_code == 200
    sources = re.findall(r'(?:src|href)="([^"]+)"', page.content.decode())
    assert sources and all(source.startswith("/") for source in sources), sources
    assert any("drf_spectacular_sidecar/swagger-ui-dist/" in source for source in sources)
    script = http.get("/api/docs/?script=")  # the page's own script, a file: no inline script
    assert script.status_code == 200 and "/api/schema/" in script.content.decode()
    assert "script-src 'self'" in page["Content-Security-Policy"]
