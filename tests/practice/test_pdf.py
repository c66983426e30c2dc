import pytest

from practice.pdf import BASE_URL, BlockedFetch, render_pdf, safe_url_fetcher


def test_renders_a_pdf():
    assert render_pdf("<h1>Hello</h1>").startswith(b"%PDF")


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:9/",
        "file:///etc/passwd",
        f"{BASE_URL}static/../../etc/passwd",
        f"{BASE_URL}elsewhere/style.css",
        "https://example.org/static/favicon.svg",
    ],
)
def test_fetcher_refuses_everything_but_our_static_files(url):
    with pytest.raises(BlockedFetch):
        safe_url_fetcher(url)


def test_fetcher_serves_our_static_files_and_data_uris():
    assert b"<svg" in safe_url_fetcher(f"{BASE_URL}static/favicon.svg")["string"]
    assert safe_url_fetcher("data:text/plain,hi")["file_obj"].read() == b"hi"
