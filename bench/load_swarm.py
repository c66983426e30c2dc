"""The simulated clients of the load test (bench.load), on locust.

Run by bench.load in a process of its own, never imported by Django's: locust
patches the standard library for gevent when it is imported. It reads a plan
(JSON: where the server is, the accounts, how long) and writes what happened
(JSON: every request's time, every save the server acknowledged, each
client's session) for bench.load to measure and to check against the
database.

Each simulated client does what a person in the portal does, with the
requests the browser makes (templates and static/js/autosave.js,
send-guard.js): signs in through the form with its token, opens To do, opens
its exercise, types, and the page saves a draft after each pause in typing
(the form's fields as FormData sends them, with the page's id and save
number, and the version the last answer gave); then asks for a fresh form
token and sends, and the browser follows to the entry sent. That round
repeats until the time is up; the round under way is finished, then the
client signs out.
"""

import json
import random
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import urlencode

import gevent
from locust import FastHttpUser, constant, task
from locust.env import Environment

FORM = {"Content-Type": "application/x-www-form-urlencoded"}
JSON_ANSWER = {"Accept": "application/json"}
SAID = (
    "he took the keys again and said I could not go to my sister's on sunday "
    "I stayed calm and wrote down what was said I felt my chest go tight "
    "later I told myself it was not my fault and I called the number"
)
WORDS = SAID.split()


class Refused(Exception):
    """The server answered a step with something a working portal never does."""


@dataclass
class SessionRecord:
    """One simulated client's session, as the load test saw it."""

    email: str
    signed_in: bool = False
    rounds_begun: int = 0
    rounds_sent: int = 0
    signed_out: bool = False


@dataclass
class Run:
    """What one phase of the run saw; written out for bench.load."""

    requests: list[tuple[str, float, bool, float]] = field(
        default_factory=list
    )  # name, ms, ok, began
    all_in: float = 0.0  # when the last client had started (time.time())
    time_up: float = 0.0  # when the time was up, before the rounds under way finished
    errors: list[str] = field(default_factory=list)
    acks: list[dict[str, Any]] = field(default_factory=list)  # key, version, text, sent
    sessions: list[SessionRecord] = field(default_factory=list)
    seconds: float = 0.0


class AutosaveForm(HTMLParser):
    """The fields of the page's autosaved form, as FormData collects them:
    inputs with their values (boxes only when ticked), textareas with their
    text, selects with the option chosen (else the first)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.inside = False
        self.url = ""
        self.fields: dict[str, str] = {}
        self._textarea: str | None = None
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        if tag == "form" and "data-autosave-url" in found:
            self.inside, self.url = True, found["data-autosave-url"]
        if not self.inside:
            return
        name = found.get("name", "")
        if tag == "input" and name:
            if found.get("type") in ("checkbox", "radio") and "checked" not in found:
                return
            self.fields[name] = found.get("value", "on" if found.get("type") == "checkbox" else "")
        elif tag == "textarea" and name:
            self._textarea = name
            self.fields[name] = ""
        elif tag == "select" and name:
            self._select = name
        elif tag == "option" and self._select:
            chosen = "selected" in found or self._select not in self.fields
            if chosen:
                self.fields[self._select] = found.get("value", "")

    def handle_data(self, data: str) -> None:
        if self._textarea:
            self.fields[self._textarea] += (
                data.removeprefix("\n") if not self.fields[self._textarea] else data
            )

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False
        elif tag == "textarea":
            self._textarea = None
        elif tag == "select":
            self._select = None


def form_token(page: str) -> str:
    start = page.index('name="csrfmiddlewaretoken" value="') + len(
        'name="csrfmiddlewaretoken" value="'
    )
    return page[start : page.index('"', start)]


class PortalClient(FastHttpUser):
    """A client of the practice, writing and sending a written record."""

    wait_time = constant(0)  # the pauses are inside the round, where a person makes them
    # Each request on a connection of its own, as gunicorn sees a browser's
    # behind a proxy that does not keep its connections to it (nginx's
    # default); reused, a connection idle past gunicorn's keep-alive is
    # closed as a request sets out on it, which no browser meets.
    default_headers = {"Connection": "close"}
    log: ClassVar[Run]
    accounts: ClassVar[list[dict[str, Any]]]
    pause: ClassVar[tuple[float, float]]  # seconds of typing between two saves
    saves_per_entry: ClassVar[int]

    def on_start(self) -> None:
        self.account = self.accounts.pop()
        self.record = SessionRecord(email=self.account["email"])
        self.log.sessions.append(self.record)
        self.random = random.Random(self.account["email"])  # noqa: S311 (made-up words, not secrets)
        with self.step():
            self._sign_in()

    @task
    def write_and_send(self) -> None:
        self.record.rounds_begun += 1
        with self.step():
            self._get("/", "To do")
            fields = self._open_exercise()
            # The scale is moved once, as a person answers it, then the words are typed.
            fields["r-body_distress"] = str(self.random.randint(0, 10))
            text = ""
            for _ in range(self.saves_per_entry):
                gevent.sleep(self.random.uniform(*self.pause))
                text = " ".join([text, *self.random.sample(WORDS, 3)]).strip()
                fields["r-what_happened"] = text
                self._autosave(fields, text)
            gevent.sleep(self.random.uniform(*self.pause) / 2)
            self._send(fields, text)
            self.record.rounds_sent += 1

    def on_stop(self) -> None:
        if not self.record.signed_in:
            return
        with self.step():
            answer = self.client.post(
                "/logout/", name="sign out", data="", headers=FORM, allow_redirects=False
            )
            self._expect(answer, 302, "sign out")
            self.record.signed_out = True

    @contextmanager
    def step(self) -> Iterator[None]:
        """A refused step ends what the client was doing, and is counted."""
        try:
            yield
        except Refused as refused:
            self.log.errors.append(f"{self.account['email']}: {refused}")

    def _expect(self, answer: Any, status: int, what: str) -> None:
        if answer.status_code != status:
            body = (answer.text or "")[:200].replace("\n", " ")
            raise Refused(f"{what}: {answer.status_code} (wanted {status}) {body}")

    def _get(self, path: str, name: str) -> str:
        answer = self.client.get(path, name=name, allow_redirects=False)
        self._expect(answer, 200, name)
        return str(answer.text)

    def _sign_in(self) -> None:
        token = form_token(self._get("/login/", "sign-in page"))
        form = {"csrfmiddlewaretoken": token, "username": self.account["email"]}
        form |= {"password": self.account["password"], "next": ""}
        with self.client.post(
            "/login/",
            name="sign in",
            data=urlencode(form),
            headers=FORM,
            allow_redirects=False,
            catch_response=True,
        ) as answer:
            if answer.status_code != 302 or answer.headers.get("Location") != "/":
                answer.failure(f"sign in: {answer.status_code}")
                raise Refused(f"sign in: {answer.status_code} to {answer.headers.get('Location')}")
        self.record.signed_in = True

    def _open_exercise(self) -> dict[str, str]:
        page = self._get(f"/do/{self.account['assignment']}/", "exercise")
        form = AutosaveForm()
        form.feed(page)
        self.save_url = form.url
        # Each page opened names itself anew and counts its saves from one (autosave.js).
        self.page_id = f"{self.random.getrandbits(96):024x}"
        self.page_saves = 0
        return dict(form.fields)

    def _autosave(self, fields: dict[str, str], text: str) -> None:
        self.page_saves += 1
        sent = fields | {"page": self.page_id, "save_number": str(self.page_saves)}
        answer = self.client.post(
            self.save_url, name="autosave", data=urlencode(sent), headers=FORM | JSON_ANSWER
        )
        self._expect(answer, 200, "autosave")
        version = int(answer.json()["version"])
        if version > int(fields["version"]):
            fields["version"] = str(version)
        self.log.acks.append(
            {"key": fields["key"], "version": version, "text": text, "sent": False}
        )

    def _send(self, fields: dict[str, str], text: str) -> None:
        token = self.client.get("/account/token/", name="form token", headers=JSON_ANSWER)
        self._expect(token, 200, "form token")
        fields["csrfmiddlewaretoken"] = str(token.json()["token"])
        answer = self.client.post(
            f"/do/{self.account['assignment']}/",
            name="send",
            data=urlencode(fields),
            headers=FORM,
            allow_redirects=False,
        )
        self._expect(answer, 302, "send")
        self.log.acks.append({"key": fields["key"], "version": None, "text": text, "sent": True})
        self._get(str(answer.headers["Location"] if answer.headers else ""), "entry sent")


def phase(plan: dict[str, Any], users: int, seconds: float, pause: list[float]) -> Run:
    """``users`` clients (from ``plan``'s accounts) for ``seconds``, then the
    rounds under way finished and everyone signed out."""
    run = Run()
    PortalClient.log = run
    PortalClient.accounts = plan["accounts"][:users]
    plan["accounts"] = plan["accounts"][users:]
    PortalClient.pause = (pause[0], pause[1])
    PortalClient.saves_per_entry = plan["saves_per_entry"]
    environment = Environment(
        user_classes=[PortalClient], host=plan["base"], stop_timeout=plan["stop_timeout"]
    )

    def timed(
        name: str, response_time: float, exception: object, start_time: float, **_kw: object
    ) -> None:
        run.requests.append((name, response_time, exception is None, start_time))
        if exception is not None:
            run.errors.append(f"{name}: {exception}")

    def crashed(user_instance: object, exception: object, tb: object, **_kw: object) -> None:
        run.errors.append(f"unexpected in a simulated client: {exception!r}")

    environment.events.request.add_listener(timed)
    environment.events.user_error.add_listener(crashed)
    runner = environment.create_local_runner()
    began = time.monotonic()
    runner.start(users, spawn_rate=plan["spawn_rate"])
    if runner.spawning_greenlet is not None:
        runner.spawning_greenlet.join()
    run.all_in = time.time()
    gevent.sleep(seconds)
    run.time_up = time.time()
    runner.stop()  # waits up to stop_timeout for each round under way, then on_stop
    run.seconds = time.monotonic() - began
    runner.quit()
    return run


def main(plan_path: Path, out_path: Path) -> None:
    plan = json.loads(plan_path.read_text())
    unloaded = phase(plan, 1, plan["unloaded_seconds"], plan["unloaded_pause"])
    loaded = phase(plan, plan["users"], plan["seconds"], plan["pause"])
    out_path.write_text(
        json.dumps({"unloaded": asdict(unloaded), "loaded": asdict(loaded)}, indent=None)
    )


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
