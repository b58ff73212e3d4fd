"""supysonic for `make bench` section 20: Tests/EndToEnd/subsonic_server.py with its audio
sent at loopback speed (the tests pace `stream.view` at 64 kB/s; a benchmark of first sound
must not), and the server's own time for each `search3` written down.

    VENV_PYTHON scripts/bench_subsonic_server.py DATA MUSIC USER PASSWORD API_KEY

Each `search3` that passes the token layer adds a line to DATA/search-times.log:
`ARRIVED_MONOTONIC CLIENT_PORT MS`, where MS is the time from the token layer handing the
request to supysonic to the whole JSON answer in hand (GIL waits included; the socket,
werkzeug's parsing and the connection's set-up are not). CLIENT_PORT tells the connections
apart. Transcoding is supysonic's own (the `[transcoding]` line the tests' server writes:
ffmpeg, started for each stream it has not cached under DATA/cache/transcodes).
"""

import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Tests" / "EndToEnd"))

import subsonic_server  # noqa: E402


def unpaced(result, rate=None):
    """The body as supysonic gives it, unpaced."""
    return result


_forward = subsonic_server.forward
_times_lock = threading.Lock()


def timed_forward(app, environ, start_response, user, password):
    """`forward`, with the time supysonic took over each `search3` written to search-times.log."""
    if not environ.get("PATH_INFO", "").endswith(("/search3", "/search3.view")):
        return _forward(app, environ, start_response, user, password)
    arrived = time.monotonic()
    start = time.perf_counter()
    result = _forward(app, environ, start_response, user, password)
    try:
        body = b"".join(result)
    finally:
        if hasattr(result, "close"):
            result.close()
    ms = (time.perf_counter() - start) * 1000
    with _times_lock, open(Path(sys.argv[1]) / "search-times.log", "a") as out:
        out.write(f"{arrived:.6f} {environ.get('REMOTE_PORT', '?')} {ms:.3f}\n")
    return [body]


subsonic_server.throttled = unpaced
subsonic_server.forward = timed_forward

if __name__ == "__main__":
    subsonic_server.main()
