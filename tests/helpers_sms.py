"""A fake text-message (or email) provider on loopback, for tests of the real HTTP backends.

    with FakeProvider() as provider:
        provider.answer(201, {"sid": "SM1"})
        ... point a backend at provider.url ...
        provider.requests[0].form["To"]

Each request takes the next answer queued (the last one repeats; none
queued: 201). An answer
of HANG keeps the connection open without a word until the test ends, to
show a timeout is bounded.
"""

import json
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs

HANG = -1


@dataclass(frozen=True)
class Recorded:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes

    @property
    def form(self) -> dict[str, str]:
        return {key: values[-1] for key, values in parse_qs(self.body.decode()).items()}

    @property
    def json(self) -> Any:
        return json.loads(self.body)


class _Handler(BaseHTTPRequestHandler):
    server: "_Server"

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        provider = self.server.provider
        status, payload, headers = provider._record(
            Recorded("POST", self.path, dict(self.headers.items()), body)
        )
        if status == HANG:
            provider._released.wait(30)
            return
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        pass  # the test reads provider.requests instead


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    provider: "FakeProvider"


class FakeProvider:
    def __init__(self) -> None:
        self.requests: list[Recorded] = []
        self._answers: list[tuple[int, Any, dict[str, str]]] = []
        self._lock = threading.Lock()
        self._released = threading.Event()
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.provider = self
        self.port = self._server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"

    def answer(self, status: int, payload: Any = None, **headers: str) -> None:
        """Queue the answer to the next request (the last one queued repeats)."""
        with self._lock:
            self._answers.append((status, payload if payload is not None else {}, headers))

    def _record(self, request: Recorded) -> tuple[int, Any, dict[str, str]]:
        with self._lock:
            self.requests.append(request)
            if not self._answers:
                return 201, {"sid": "SM0"}, {}
            return self._answers.pop(0) if len(self._answers) > 1 else self._answers[0]

    def __enter__(self) -> "FakeProvider":
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._released.set()
        self._server.shutdown()
        self._server.server_close()
