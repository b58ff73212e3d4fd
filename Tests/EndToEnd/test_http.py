"""Playing URLs: progressive playback and the ways a download goes wrong.

A fixture server on 127.0.0.1 stands in for a catalog's preview host. A
listener should hear music as soon as enough has arrived, and get a clear
one-line message naming the URL (never a hang) when the server fails.
"""

from __future__ import annotations

import pytest

import audio_analysis as aa
from harness import assert_events_only, assert_one_line_message

RATE = 48_000   # bytes/s: steps.mp3 (481 kB at 16 kB/s of audio) takes 10 s to download


def test_playback_starts_before_the_download_finishes(refrain, recorder, http_server, fixtures_dir, steps):
    url = http_server.url("steps.mp3", rate=RATE)
    run = refrain.play(url, "--output", "pulse", "--events", "--duration", 3, timeout=20)
    rec = recorder.stop(tail=0.3)
    assert run.returncode == 0, run.stderr
    assert_events_only(run)
    start = run.of("start")
    assert start, run.summary()
    transfers = [t for t in http_server.requests_for("steps.mp3") if t.method == "GET"]
    assert transfers, "Refrain never requested the file"
    done = min((t.finished for t in transfers if t.finished), default=None)
    assert done is None or start[0].arrival < done, (
        f"playback started {start[0].arrival - done:.2f} s after the whole file had downloaded")
    assert start[0].arrival - run.launched <= 5.0, "playback took more than 5 s to start"
    assert str(start[0]["file"]) == url
    # And it is the right music: seconds 0, 1 and 2 of steps.mp3.
    heard = [c.step for c in aa.step_changes(rec.audio, steps["freqs"]) if c.step is not None]
    assert heard[:3] == [0, 1, 2], f"heard seconds {heard}"


def test_a_dropped_connection_is_a_clear_error_not_a_hang(refrain, http_server):
    url = http_server.drop_url("tone440.mp3")   # sends half the file (3 s of audio), then closes
    run = refrain.play(url, "--output", "null", "--events", timeout=15)
    assert run.returncode != 0, f"a download cut in half exited 0; {run.summary()}"
    assert_events_only(run)
    errors = run.of("error")
    assert errors and url in str(errors[-1]["message"]), f"no error event naming the URL: {run.summary()}"
    assert_one_line_message(run, url)


def test_404_is_a_clear_error_naming_the_url(refrain, http_server):
    url = http_server.missing_url()
    run = refrain.play(url, "--output", "null", timeout=10)
    assert run.returncode != 0
    line = assert_one_line_message(run, url)
    assert "404" in line or "not found" in line.lower(), f"the message does not say the file was not found: {line!r}"


def test_a_server_that_never_answers_times_out(refrain, http_server):
    """A stalled host must not leave the listener waiting forever: within
    20 s Refrain gives up with a message naming the URL."""
    url = http_server.hang_url("tone440.mp3")
    run = refrain.play(url, "--output", "null", timeout=20)
    assert run.returncode != 0
    assert_one_line_message(run, url)
