"""The portal as a phone sees it: Lighthouse 12's mobile audit of every portal
page, signed in as the demo's client, on Debian's Chromium.

Lighthouse is pinned in bench/lighthouse/package.json and installed from the
npm registry by this module (``npm ci``); the site runs on gunicorn with
production settings as a practice serves it (practice/gunicorn.conf.py,
compressed static files), behind a TLS proxy this module plays (it sends
X-Forwarded-Proto), with the demo practice in a database of its own (SQLite
in a temporary folder). Figures: the lowest
performance, accessibility and best-practices score over the pages (each held
to its floor, the page named), and the heaviest page's transfer in KiB.
``python -m bench.lighthouse`` runs it alone.
"""

import base64
import json
import os
import secrets
import subprocess
import sys
import tempfile
from pathlib import Path

from bench import services
from bench.figures import Figure
from bench.load import _free_port, _gunicorn, _wait_until_serving

ROOT = Path(__file__).resolve().parent.parent
TOOL = Path(__file__).resolve().parent / "lighthouse"
CHROMIUM = "/usr/bin/chromium"
CLIENT = ("alex@demo.test", "demo-pass-2026")
# What the TLS proxy in front of a practice adds to every request.
PROXY_HEADERS = {"X-Forwarded-Proto": "https"}
FLOORS = {"performance": 95, "accessibility": 100, "best-practices": 100}
MOST_KIB = 100
REPEATS_ITSELF = True  # a page's audit takes seconds; make bench runs it once
CHROME_FLAGS = (
    "--headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run "
    "--disable-background-networking --disable-component-update --disable-sync"
)


def figures() -> list[Figure]:
    skipped = [Figure("Lighthouse (mobile)", float("nan"), None, note="skipped: no Chromium")]
    if not Path(CHROMIUM).exists():
        return skipped
    return services.figures_in_a_process_of_its_own("bench.lighthouse", skipped)


def install() -> Path:
    """Lighthouse as package-lock.json pins it (npm ci), once."""
    binary = TOOL / "node_modules" / ".bin" / "lighthouse"
    if not binary.exists():
        subprocess.run(
            ["npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts"],
            cwd=TOOL,
            check=True,
            stdout=subprocess.DEVNULL,
        )
    return binary


def portal_pages() -> list[str]:
    """Every page the demo's client reads: one exercise of each kind."""
    from homework.models import Assignment, Entry

    client_email = CLIENT[0]
    entry = (
        Entry.objects.filter(
            assignment__client__portal_user__email=client_email, status="submitted"
        )
        .order_by("-submitted_at")
        .first()
    )
    one_of_each_kind: dict[str, int] = {}
    for assignment in Assignment.objects.filter(
        client__portal_user__email=client_email
    ).select_related("exercise"):
        one_of_each_kind.setdefault(assignment.exercise.kind, assignment.pk)
    return [
        "/",
        "/history/",
        *([f"/entries/{entry.key}/"] if entry else []),
        "/progress/",
        "/account/",
        "/account/contact/",
        "/account/who-looked/",
        "/help-now/",
        *(f"/do/{pk}/" for pk in one_of_each_kind.values()),
    ]


def session_cookie(base: str) -> str:
    """Sign in as the demo's client through the sign-in page, as a person does."""
    import requests

    # The cookies are Secure (production): kept by hand, since the loopback
    # hop after the proxy is plain http.
    page = requests.get(f"{base}/login/", headers=PROXY_HEADERS, timeout=30)
    cookies = dict(page.cookies)
    answer = requests.post(
        f"{base}/login/",
        data={
            "username": CLIENT[0],
            "password": CLIENT[1],
            "csrfmiddlewaretoken": cookies["csrftoken"],
        },
        headers={
            **PROXY_HEADERS,
            "Referer": f"{base.replace('http://', 'https://')}/login/",
            "Cookie": "; ".join(f"{name}={value}" for name, value in cookies.items()),
        },
        allow_redirects=False,
        timeout=30,
    )
    cookies.update(answer.cookies)
    if answer.status_code != 302 or "sessionid" not in cookies:
        raise RuntimeError(f"The demo client could not sign in ({answer.status_code}).")
    return "; ".join(f"{name}={value}" for name, value in cookies.items())


def audit(binary: Path, url: str, cookie: str, folder: Path) -> dict[str, float]:
    """One page's scores (0-100) and its transfer in KiB; a second try where
    Lighthouse lost its own trace of the load (NO_NAVSTART, on a busy machine)."""
    try:
        return audit_once(binary, url, cookie, folder)
    except subprocess.CalledProcessError:
        return audit_once(binary, url, cookie, folder)


def audit_once(binary: Path, url: str, cookie: str, folder: Path) -> dict[str, float]:
    report = folder / "report.json"
    subprocess.run(
        [
            str(binary),
            url,
            "--quiet",
            "--output=json",
            f"--output-path={report}",
            "--only-categories=performance,accessibility,best-practices",
            f"--chrome-flags={CHROME_FLAGS}",
            f"--extra-headers={json.dumps({**PROXY_HEADERS, 'Cookie': cookie})}",
            "--disable-full-page-screenshot",
        ],
        env={**os.environ, "CHROME_PATH": CHROMIUM},
        check=True,
        timeout=180,
    )
    result = json.loads(report.read_text())
    scores: dict[str, float] = {
        name: 100 * (result["categories"][name]["score"] or 0) for name in FLOORS
    }
    scores["kib"] = result["audits"]["total-byte-weight"]["numericValue"] / 1024
    return scores


def run(base: str, binary: Path, folder: Path) -> list[Figure]:
    cookie = session_cookie(base)
    results = {path: audit(binary, base + path, cookie, folder) for path in portal_pages()}
    found = []
    for name, floor in FLOORS.items():
        worst = min(results, key=lambda path: results[path][name])
        found.append(
            Figure(
                f"Lighthouse mobile, {name} (lowest of {len(results)} portal pages)",
                results[worst][name],
                floor,
                at_least=True,
                note=f"lowest: {worst}",
            )
        )
    heaviest = max(results, key=lambda path: results[path]["kib"])
    found.append(
        Figure(
            f"Lighthouse mobile, transfer in KiB (heaviest of {len(results)} portal pages)",
            results[heaviest]["kib"],
            MOST_KIB,
            note=f"heaviest: {heaviest}",
        )
    )
    return found


def main() -> int:
    binary = install()
    with tempfile.TemporaryDirectory(prefix="lighthouse-bench-") as tmp:
        folder = Path(tmp)
        environ = {
            "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}",
            "VAR_DIR": tmp,
            "DJANGO_ENV": "production",
            "DEBUG": "0",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "FIELD_ENCRYPTION_KEYS": base64.urlsafe_b64encode(secrets.token_bytes(32)).decode(),
            "ALLOWED_HOSTS": "127.0.0.1",
            "SITE_URL": "https://127.0.0.1",
            "PROXIES_IN_FRONT": "1",
            "SECURE_SSL_REDIRECT": "0",  # the proxy sends plain http to https
            "LOG_LEVEL": "WARNING",
            "EMAIL_URL": "locmem://",
            "SMS_URL": "locmem://",
            "WEB_CONCURRENCY": "2",
        }
        os.environ.update(environ)
        os.environ.pop("REDIS_URL", None)
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "practice.settings")
        manage = [sys.executable, "manage.py"]
        for command in (["migrate", "--no-input"], ["seed_demo"], ["collectstatic", "--no-input"]):
            subprocess.run(
                [*manage, *command, "-v0"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL
            )
        import django

        django.setup()
        port = _free_port()
        base = f"http://127.0.0.1:{port}"
        server = _gunicorn(port, folder / "gunicorn.log")
        try:
            _wait_until_serving(base, server)
            figures = run(base, binary, folder)
        finally:
            services.stop(server)
    for figure in figures:
        print(f"{figure.name}: {figure.ratio:.1f} ({figure.goal_text}) {figure.note}")
    services.print_figures(figures)  # the last line: what make bench reads
    return 0


if __name__ == "__main__":
    sys.exit(main())
