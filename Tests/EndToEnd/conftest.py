"""Fixtures for Refrain's end-to-end tests.

The suite runs the real `refrain` binary against a real PulseAudio server:
run it under scripts/with-test-pulse (see README.md). A test that needs the
server fails, never skips, when it is missing: a suite that passes by
skipping would tell the team nothing.
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
