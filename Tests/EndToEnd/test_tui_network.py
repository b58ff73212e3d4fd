"""The full-screen player against an online catalog server that misbehaves.

A local HTTP server on 127.0.0.1 stands in for the online catalog (`--provider deezer`,
`REFRAIN_DEEZER_URL`). Its Home requests hang; its search answers depend on the query:
slow, 503, 429 with Retry-After, 200 with an error body, malformed JSON, a body cut short.
While requests hang the UI answers keys within 250 ms; each failure is explained in plain
words; afterwards a good search works and the user's playlist is still there.
"""

from __future__ import annotations

import http.server
import statistics
import threading
import time
import urllib.parse
from pathlib import Path

import pytest

from test_tui import TUI, tui_factory  # noqa: F401  (the fixture is used by name)

# Runs alone (scripts/e2e): it measures how soon keys are answered while requests hang.
pytestmark = pytest.mark.serial

DEEZER = Path(__file__).resolve().parents[1] / "Fixtures" / "deezer"


class MisbehavingCatalog:
    """The online catalog's API, answering badly on purpose; `release()` ends every hang."""

    def __init__(self) -> None:
        self.released = threading.Event()
        self.requests: list[str] = []
        catalog = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                catalog.answer(self)

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05},
                         daemon=True).start()

    def close(self) -> None:
        self.released.set()
        self.httpd.shutdown()
        self.httpd.server_close()

    def answer(self, h: http.server.BaseHTTPRequestHandler) -> None:
        url = urllib.parse.urlsplit(h.path)
        self.requests.append(h.path)
        query = urllib.parse.parse_qs(url.query).get("q", [""])[0]
        if not url.path.startswith("/search") or query == "slow":
            self.released.wait(60)  # Home (chart, releases, genres) and "slow" hang
            return self.send(h, 503, b'{"error":"released"}')
        match query:
            case "busy":
                return self.send(h, 503, b"<html>Service Unavailable</html>", "text/html")
            case "limit":
                return self.send(h, 429, b"", headers={"Retry-After": "1"})
            case "quota":
                return self.send(h, 200, (DEEZER / "errors" / "quota_exceeded_4.http200.json").read_bytes())
            case "garbled":
                return self.send(h, 200, b'{"data": [{"id": 3135556, "title": "Harder')
            case "cut":
                h.send_response(200)
                h.send_header("Content-Type", "application/json")
                h.send_header("Content-Length", "50000")
                h.end_headers()
                h.wfile.write(b'{"data": [')
                h.wfile.flush()
                h.close_connection = True
                return
        name = {"/search": "search_track.json", "/search/album": "search_album.json",
                "/search/artist": "search_artist.json", "/search/playlist": "search_playlist.json"}
        path = DEEZER / name.get(url.path, "search_track.json")
        self.send(h, 200, path.read_bytes())

    @staticmethod
    def send(h, status: int, body: bytes, kind: str = "application/json", headers=None) -> None:
        h.send_response(status)
        h.send_header("Content-Type", kind)
        h.send_header("Content-Length", str(len(body)))
        for key, value in (headers or {}).items():
            h.send_header(key, value)
        h.end_headers()
        try:
            h.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # Refrain gave up on a hanging request: what it should do


@pytest.fixture
def catalog():
    server = MisbehavingCatalog()
    yield server
    server.close()


def answered_in(tui: TUI, key: str, shows: str, timeout: float = 5.0) -> float:
    """Seconds from sending `key` until the screen shows `shows`."""
    start = time.monotonic()
    tui.keys(key)
    while time.monotonic() - start < timeout:
        if shows in tui.screen():
            return time.monotonic() - start
        time.sleep(0.005)
    raise AssertionError(f"{key!r} never showed {shows!r}; the screen:\n{tui.screen()}")


def search(tui: TUI, query: str) -> None:
    tui.keys("/", "C-u")
    tui.type(query)
    tui.wait_text(f"/ {query}▏")
    tui.keys("Enter")


def test_misbehaving_catalog_server_keeps_the_ui_responsive_and_explained(tui_factory, catalog):
    tui = tui_factory("network")
    tui.env["REFRAIN_DEEZER_URL"] = catalog.url
    tui.start("--output", "null", "--provider", "deezer")
    tui.wait_text("Loading")
    # A playlist made before the trouble starts.
    tui.keys("3", "c")
    tui.type("Before the storm")
    tui.keys("Enter")
    tui.wait_text("created Before the storm")

    # Home's requests hang (they reach the server, on a busy machine a moment later); keys
    # are still answered at once.
    asked = lambda: any(path.startswith(("/chart", "/editorial", "/genre")) for path in catalog.requests)
    deadline = time.monotonic() + 10
    while not asked() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert asked(), catalog.requests
    times = []
    for _ in range(3):
        times.append(answered_in(tui, "1", "Loading"))
        times.append(answered_in(tui, "3", "Before the storm"))
        times.append(answered_in(tui, "?", "any key closes"))
        tui.keys("Escape")
    print("key → screen while requests hang, ms:", [round(t * 1000) for t in times])
    assert statistics.median(times) <= 0.25, f"keys answered slowly while requests hang: {times}"
    assert max(times) <= 1.0, f"a key waited for the network: {times}"

    # Each kind of failure is explained on screen, and the UI keeps answering.
    explained = {
        "busy": "the server had a problem (HTTP 503)",
        "limit": "the server is limiting requests (HTTP 429)",  # after the Retry-After retry
        "quota": "the service's request quota is used up",
        "garbled": "could not be read (malformed JSON)",
        "cut": "could not reach the server",
    }
    for query, words in explained.items():
        search(tui, query)
        screen = tui.wait_for(lambda s: s if "Search failed: online catalog:" in s and words in s else None,
                              f"the {query!r} failure explained", timeout=20)
        assert "\x1b" not in screen
        assert answered_in(tui, "3", "Before the storm") <= 1.0
        tui.keys("2")

    # A search that hangs does not freeze typing either.
    search(tui, "slow")
    assert answered_in(tui, "3", "Before the storm") <= 1.0

    # The server behaves again: a search works, and nothing was lost.
    search(tui, "not afraid")
    tui.wait_text("Not Afraid", timeout=20)
    tui.keys("3")
    tui.wait_text("Before the storm")
    # Home's hanging requests ended at the progress deadline, said in plain words.
    tui.keys("1")
    tui.wait_text("Home could not load: online catalog: the server sent nothing for 10 s", timeout=20)
    assert "refrain exited" not in tui.screen()
