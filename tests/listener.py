"""A TCP listener on 127.0.0.1 that counts who knocks: proof that nothing
rendered on this machine reached out to the network."""

import socket
import threading


class Listener:
    backlog = 8

    def __init__(self) -> None:
        self.server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(self.backlog)
        self.server.settimeout(0.2)
        self.host: str = "127.0.0.1"
        self.port: int = self.server.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}/"
        self.hits = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                connection, _ = self.server.accept()
            except OSError:
                continue
            self.hits += 1
            self._took(connection)

    def _took(self, connection: socket.socket) -> None:
        connection.close()

    def knocks(self) -> int:
        """Every connection made so far, those the kernel has taken but this
        listener has not yet accepted included (a client's connect returns once
        the kernel has it): stops listening, so call it once, at the end."""
        self._stop.set()
        self._thread.join(timeout=2)
        self.server.setblocking(False)
        while True:
            try:
                connection, _ = self.server.accept()
            except BlockingIOError:
                return self.hits
            self.hits += 1
            self._took(connection)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        self.server.close()


class SilentMailServer(Listener):
    """A mail server that takes every connection and never says a word: an
    overloaded relay, or a firewall that swallows packets. Counts who came."""

    backlog = 16

    def __init__(self) -> None:
        self._held: list[socket.socket] = []  # before the listening thread starts
        super().__init__()

    @property
    def connections(self) -> int:
        return self.hits

    def _took(self, connection: socket.socket) -> None:
        self._held.append(connection)  # open, and silent

    def close(self) -> None:
        super().close()
        for connection in self._held:
            connection.close()
