"""Fixtures for Refrain's end-to-end tests.

The suite runs the real `refrain` binary against a real PulseAudio server:
run it under scripts/with-test-pulse (see README.md). A test that needs the
server fails, never skips, when it is missing: a suite that passes by
skipping would tell the team nothing.

`make test` runs the suite in two parts (scripts/e2e): the tests marked `serial`, which
measure time on the sink's clock or load the machine on purpose, one at a time; then
the rest spread over pytest-xdist workers. Each worker starts a PulseAudio server of its
own (scripts/with-test-pulse), so what one test records is only what its own player
played.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import FixtureServer, Recorder, Refrain  # noqa: E402

REPO = Path(__file__).resolve().parents[2]

_WORKER_PULSE: subprocess.Popen | None = None
_PULSE_VARS = ("PULSE_SERVER", "PULSE_RUNTIME_PATH", "PULSE_COOKIE", "PULSE_SINK", "REFRAIN_TEST_SINK")


def pytest_configure(config) -> None:
    config.addinivalue_line(
        "markers", "serial: measures time on the sink's clock or loads the machine; run with no other test")
    if os.environ.get("PYTEST_XDIST_WORKER"):
        _start_worker_pulse()


def pytest_unconfigure(config) -> None:
    global _WORKER_PULSE
    if _WORKER_PULSE is not None:
        _WORKER_PULSE.stdin.close()   # with-test-pulse's command ends, and the server with it
        try:
            _WORKER_PULSE.wait(10)
        except subprocess.TimeoutExpired:
            _WORKER_PULSE.kill()
        _WORKER_PULSE = None


def _start_worker_pulse() -> None:
    """Gives this xdist worker a PulseAudio server of its own, for as long as it runs.

    scripts/with-test-pulse starts the server and runs a command that prints the server's
    variables and then waits for its standard input to close: when the worker ends, even
    killed, the pipe closes and the script stops the server and removes its folder.
    """
    global _WORKER_PULSE
    show = ("import os, sys; print(' '.join(f'{k}={os.environ[k]}' for k in %r), flush=True); "
            "sys.stdin.read()" % (_PULSE_VARS,))
    proc = subprocess.Popen([str(REPO / "scripts" / "with-test-pulse"), sys.executable, "-c", show],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    line = proc.stdout.readline().split()
    if not line:
        raise RuntimeError("scripts/with-test-pulse did not start a PulseAudio server for this worker")
    os.environ.update(dict(item.split("=", 1) for item in line))
    _WORKER_PULSE = proc


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO


@pytest.fixture(scope="session")
def refrain_bin() -> Path:
    """The binary under test: $REFRAIN_BIN, else <repo>/.build/debug/refrain."""
    path = Path(os.environ.get("REFRAIN_BIN") or REPO / ".build" / "debug" / "refrain")
    if not (path.is_file() and os.access(path, os.X_OK)):
        pytest.fail(f"no refrain binary at {path}: build it (swift build) or set REFRAIN_BIN", pytrace=False)
    return path


@pytest.fixture(scope="session")
def bench_bin() -> Path:
    """The tools binary (library stress, micro-benchmarks): $REFRAIN_BENCH_BIN, else
    <repo>/.build/debug/refrain-bench. It is never part of the shipped `refrain`."""
    path = Path(os.environ.get("REFRAIN_BENCH_BIN") or REPO / ".build" / "debug" / "refrain-bench")
    if not (path.is_file() and os.access(path, os.X_OK)):
        pytest.fail(f"no refrain-bench binary at {path}: build it (swift build) or set REFRAIN_BENCH_BIN",
                    pytrace=False)
    return path


@pytest.fixture(scope="session")
def fixtures_dir() -> Path:
    """<repo>/Tests/Fixtures/generated, brought up to date by scripts/make-test-fixtures."""
    out = REPO / "Tests" / "Fixtures" / "generated"
    proc = subprocess.run([str(REPO / "scripts" / "make-test-fixtures"), str(out)],
                          capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        pytest.fail(f"scripts/make-test-fixtures failed ({proc.returncode}):\n{proc.stderr}", pytrace=False)
    return out


@pytest.fixture(scope="session")
def steps(fixtures_dir) -> dict:
    """steps.json: second k of steps.mp3 sounds steps['freqs'][k] Hz."""
    doc = json.loads((fixtures_dir / "steps.json").read_text())
    doc["freqs"] = [s["frequency"] for s in doc["steps"]]
    return doc


@pytest.fixture(scope="session")
def pulse() -> dict:
    """The private PulseAudio server started by scripts/with-test-pulse."""
    server = os.environ.get("PULSE_SERVER")
    sink = os.environ.get("REFRAIN_TEST_SINK")
    if not server or not sink:
        pytest.fail("PULSE_SERVER / REFRAIN_TEST_SINK are not set: run the suite under "
                    "scripts/with-test-pulse (see Tests/EndToEnd/README.md)", pytrace=False)
    info = subprocess.run(["pactl", "info"], capture_output=True, text=True, timeout=10)
    if info.returncode != 0:
        pytest.fail(f"the PulseAudio server at {server} does not answer: {info.stderr.strip()}", pytrace=False)
    sinks = subprocess.run(["pactl", "list", "short", "sinks"], capture_output=True, text=True, timeout=10).stdout
    if sink not in sinks.split():
        pytest.fail(f"the PulseAudio server at {server} has no sink {sink}", pytrace=False)
    return {"server": server, "sink": sink}


@pytest.fixture
def refrain(refrain_bin, tmp_path):
    """Starts `refrain play …` with isolated XDG dirs; kills leftovers afterwards."""
    r = Refrain(refrain_bin, tmp_path / "home")
    yield r
    r.cleanup()


@pytest.fixture
def recorder(pulse, tmp_path):
    """Records the test sink from before Refrain starts until `stop()`.

    The fixture returns once samples are flowing (about 2 s after parec
    starts); `recorder.stop(tail=…)` returns a Recording whose `t0` is the
    monotonic time of its first sample.
    """
    rec = Recorder(pulse["sink"], tmp_path / "recording.wav")
    rec.start()
    yield rec
    rec.kill()


@pytest.fixture
def http_server(fixtures_dir):
    """A fixture server on 127.0.0.1 serving the generated fixtures."""
    server = FixtureServer(fixtures_dir)
    yield server
    server.close()
