"""A listening room over TLS: members join `wss://localhost:PORT` through a TLS-terminating
proxy on 127.0.0.1, as docs/rooms.md sets up a room behind a reverse proxy.

The proxy holds a certificate the test makes with openssl (a private CA, as a home server
would have), decrypts each connection and passes the bytes to `refrain room serve` on its
plain port, noting the first request line of each. Members that trust the certificate
through SSL_CERT_FILE join, play a track from the server's library over HTTPS, and hear it
together; a member that does not trust it is told why in plain words.
"""

from __future__ import annotations

import socket
import ssl
import subprocess
import threading
import time
from pathlib import Path

import pytest

from room_harness import JoinedMember, RoomServer, Track, make_library

TIDE = Track("Long/Slow Tide.mp3", "Slow Tide", "Jun", "Long", 40, 330)


class TLSProxy:
    """Accepts TLS on 127.0.0.1 and relays the plaintext to a backend port."""

    def __init__(self, cert: Path, key: Path, backend_port: int) -> None:
        self.context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        self.context.load_cert_chain(cert, key)
        self.backend_port = backend_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.requests: list[str] = []
        self.handshake_failures = 0
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                raw, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(raw,), daemon=True).start()

    def _serve(self, raw: socket.socket) -> None:
        raw.settimeout(10)
        try:
            client = self.context.wrap_socket(raw, server_side=True)
        except (ssl.SSLError, OSError):
            with self.lock:
                self.handshake_failures += 1
            raw.close()
            return
        client.settimeout(None)
        backend = socket.create_connection(("127.0.0.1", self.backend_port))
        first = True

        def upstream() -> None:
            nonlocal first
            try:
                while data := client.recv(65536):
                    if first:
                        first = False
                        with self.lock:
                            self.requests.append(data.split(b"\r\n", 1)[0].decode("latin-1"))
                    backend.sendall(data)
            except OSError:
                pass
            finally:
                try:
                    backend.shutdown(socket.SHUT_WR)
                except OSError:
                    pass

        threading.Thread(target=upstream, daemon=True).start()
        try:
            while data := backend.recv(65536):
                client.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (client, backend):
                try:
                    sock.close()
                except OSError:
                    pass

    def seen(self) -> list[str]:
        with self.lock:
            return list(self.requests)

    def close(self) -> None:
        self.listener.close()


@pytest.fixture(scope="module")
def certificate(tmp_path_factory) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1, as a home server's private CA would issue."""
    folder = tmp_path_factory.mktemp("room-tls")
    cert, key = folder / "room.pem", folder / "room-key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key),
                    "-out", str(cert), "-days", "2", "-subj", "/CN=Refrain test room",
                    "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
                   check=True, capture_output=True)
    return cert, key


@pytest.fixture
def tls_room(refrain_bin, certificate, tmp_path_factory, tmp_path):
    library = make_library(tmp_path_factory.mktemp("room-tls-lib") / "lib", [TIDE])
    server = RoomServer(refrain_bin, tmp_path / "server", [library], heartbeat=1)
    server.start()
    proxy = TLSProxy(*certificate, server.port)
    members: list[JoinedMember] = []

    def join(name: str, trust: bool) -> JoinedMember:
        extra = {"SSL_CERT_FILE": str(certificate[0])} if trust else {}
        member = JoinedMember(refrain_bin, tmp_path / name, f"wss://localhost:{proxy.port}/rooms/friday",
                              server.token, name, extra_env=extra)
        members.append(member)
        return member

    yield proxy, join
    for member in members:
        member.close()
    proxy.close()
    if server.running():
        server.stop()


def test_members_who_trust_the_certificate_join_over_wss_and_play_the_library_over_https(tls_room):
    proxy, join = tls_room
    mina, jun = join("Mina", trust=True), join("Jun", trust=True)
    for member in (mina, jun):
        assert member.wait("joined", timeout=20)["room"] == "friday"
    mina.send(f"queue add {TIDE.path}")
    jun.wait("queue", lambda e: any(x["path"] == TIDE.path for x in e["entries"]))
    mina.send("play")
    for member in (mina, jun):
        assert member.wait("start", timeout=20)["file"] == TIDE.title
        # Playing past the start means the MP3 came through the proxy and was decoded.
        member.wait("position", lambda e: e["t"] >= 1.5, timeout=15)
    mina.send("chat over TLS")
    assert jun.wait("chat")["text"] == "over TLS"
    seen = proxy.seen()
    assert sum(line.startswith("GET /rooms/friday") for line in seen) >= 2, seen
    assert any(line.startswith("GET /library/Long/Slow%20Tide.mp3") for line in seen), seen


def test_a_member_who_does_not_trust_the_certificate_is_told_why(tls_room):
    proxy, join = tls_room
    stranger = join("Stranger", trust=False)
    lost = stranger.wait("room_lost", timeout=20)
    assert "certificate is not trusted" in lost["reason"] and "SSL_CERT_FILE" in lost["reason"], lost
    assert proxy.handshake_failures >= 1
    assert not any(line.startswith("GET /rooms/") for line in proxy.seen())
    time.sleep(0.2)
    assert stranger.proc.poll() is None, "the member keeps running and retrying"


def test_wss_to_an_address_is_refused_before_connecting_with_the_reason(refrain_bin):
    done = subprocess.run([str(refrain_bin), "room", "join", "wss://127.0.0.1:9/rooms/friday",
                           "--token", "t", "--output", "null", "--events"],
                          capture_output=True, text=True, timeout=20)
    assert done.returncode != 0
    assert "needs the room server's host name" in done.stderr and "127.0.0.1" in done.stderr, done.stderr
