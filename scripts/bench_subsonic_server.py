"""supysonic for `make bench` section 20: Tests/EndToEnd/subsonic_server.py with its audio
sent at loopback speed (the tests pace `stream.view` at 64 kB/s; a benchmark of first sound
must not).

    VENV_PYTHON scripts/bench_subsonic_server.py DATA MUSIC USER PASSWORD API_KEY
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Tests" / "EndToEnd"))

import subsonic_server  # noqa: E402


def unpaced(result, rate=None):
    """The body as supysonic gives it, unpaced."""
    return result


subsonic_server.throttled = unpaced

if __name__ == "__main__":
    subsonic_server.main()
