"""Refrain's events follow what the listener hears, not what the decoder read.

The position in `position` events, and the moment a `line` event arrives,
are compared with the tone changes of steps.mp3 in the recording. This is
what makes the lyrics highlight change when the line is sung.
"""

from __future__ import annotations

import pytest

import audio_analysis as aa
from harness import assert_events_only

# Runs alone (scripts/e2e): it measures lyric lines against what is heard.
pytestmark = pytest.mark.serial

TOLERANCE = 0.1   # seconds: beyond this a listener sees lyrics lag or lead


def test_position_events_match_what_is_heard(refrain, recorder, fixtures_dir, steps):
    run = refrain.play(fixtures_dir / "steps.mp3", "--output", "pulse", "--events", "--duration", 6, timeout=20)
    rec = recorder.stop(tail=0.3)
    assert run.returncode == 0, run.stderr
    assert_events_only(run)
    changes = aa.step_changes(rec.audio, steps["freqs"])
    errors = []
    for e in run.positions:
        heard = aa.heard_position(changes, rec.at(e.arrival))
        if heard is None or not 0.5 <= e["t"] <= 5.5:
            continue
        errors.append((round(e["t"], 3), round(e["t"] - heard, 3)))
    assert len(errors) >= 15, f"too few position events while sound was heard: {run.summary()}"
    worst = max(errors, key=lambda x: abs(x[1]))
    assert abs(worst[1]) <= TOLERANCE, (
        f"position events are off what is heard by up to {worst[1]:+.3f} s (at t={worst[0]});"
        f" (t, error) pairs: {errors}")


def test_lyric_lines_change_when_heard(refrain, recorder, fixtures_dir, steps):
    """lyrics-steps.lrc changes line exactly where steps.mp3 changes tone
    (seconds 1, 3, 5, 7): each `line` event must arrive when that tone
    change is heard, and carry the line's index, time and text."""
    lrc = fixtures_dir / "lyrics-steps.lrc"
    run = refrain.play(fixtures_dir / "steps.mp3", "--output", "pulse", "--events", "--lyrics", lrc,
                       "--duration", 8, timeout=20)
    rec = recorder.stop(tail=0.3)
    assert run.returncode == 0, run.stderr
    assert_events_only(run)
    lines = [e for e in run.of("line") if isinstance(e.get("index"), int) and e["index"] >= 0]
    expected = [(n, 2 * n + 1.0, t) for n, t in enumerate(_lrc_texts(lrc)[:4])]
    got = [(e["index"], e["text"]) for e in lines]
    assert got[:4] == [(n, text) for n, _, text in expected], f"line events: {got}"
    changes = aa.step_changes(rec.audio, steps["freqs"])
    for e, (n, when, _) in zip(lines, expected):
        assert e["t"] == pytest.approx(when, abs=TOLERANCE), f"line {n}: t"
        change = next((c for c in changes if c.step == int(when)), None)
        assert change is not None, f"the tone of second {int(when)} was never heard"
        lag = rec.at(e.arrival) - change.t
        assert abs(lag) <= TOLERANCE, f"line {n} shown {lag:+.3f} s from when its tone was heard"


def _lrc_texts(path):
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("[00:"):
            out.append(line.split("]", 1)[1])
    return out
