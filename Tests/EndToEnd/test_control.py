"""Controlling a playing `refrain play --events` from stdin.

With `--events`, Refrain reads commands a line at a time from stdin
(`seek 20`, `pause`, `resume`, `volume 50`). The listener must hear each
at once: the design flushes the output so a seek is heard in tens of ms.
"""

from __future__ import annotations

import time

import pytest

import audio_analysis as aa
from harness import assert_events_only

# Runs alone (scripts/e2e): it measures when commands are heard.
pytestmark = pytest.mark.serial

PROMPT = 0.25   # seconds within which a command must be heard
# How far apart the recording's clock and the events' clock may be: the null
# sink renders (and the monitor delivers) each block up to ~20 ms before its
# nominal play time, and tone changes are located to about 10 ms.
SLACK = 0.04


def stop(run):
    """Ends a run that would otherwise play on (SIGTERM), without judging its exit."""
    if run.proc.poll() is None:
        run.proc.terminate()
    run.finish(10)


def step_at(changes, rec_t):
    last = None
    for c in changes:
        if c.t <= rec_t:
            last = c
    return None if last is None else last.step


def test_seek_is_heard_at_the_new_position(refrain, recorder, fixtures_dir, steps):
    run = refrain.start(fixtures_dir / "steps.mp3", "--output", "pulse", "--events")
    run.wait_position(2.3, timeout=10)
    sent = run.send("seek 20")
    time.sleep(1.6)
    stop(run)
    rec = recorder.stop()
    assert_events_only(run)
    assert not run.of("error"), run.summary()

    changes = aa.step_changes(rec.audio, steps["freqs"])
    before = step_at(changes, rec.at(sent) - SLACK)
    assert before == 2, f"at the seek, second {before} was heard, not second 2 (position said 2.3)"
    after = [c for c in changes if c.t > rec.at(sent) - SLACK and c.step != before]
    assert after, "nothing changed after the seek"
    first = after[0]
    assert first.step == 20, (
        f"after `seek 20` the listener heard second {first.step}"
        f" ({'silence' if first.step is None else str(steps['freqs'][first.step]) + ' Hz'}), not second 20")
    assert first.t - rec.at(sent) <= PROMPT, f"the seek was heard {first.t - rec.at(sent):.3f} s after it was sent"
    assert len(after) >= 2 and after[1].step == 21, "second 21 should follow second 20"
    assert after[1].t - first.t == pytest.approx(1.0, abs=0.05), "the seek landed exactly on 20.0 s"

    # Position events after the seek report the new, heard position.
    later = [e for e in run.positions if e.arrival > sent + 0.4]
    assert later, "no position events after the seek"
    for e in later:
        heard = aa.heard_position(changes, rec.at(e.arrival))
        if heard is not None:
            assert e["t"] == pytest.approx(heard, abs=0.1), f"position {e['t']} while {heard:.3f} was heard"


def test_pause_is_silent_and_resume_continues_where_it_stopped(refrain, recorder, fixtures_dir, steps):
    run = refrain.start(fixtures_dir / "steps.mp3", "--output", "pulse", "--events")
    run.wait_position(2.3, timeout=10)
    paused = run.send("pause")
    time.sleep(1.5)
    resumed = run.send("resume")
    time.sleep(1.4)
    stop(run)
    rec = recorder.stop()
    assert_events_only(run)
    assert not run.of("error"), run.summary()

    quiet = aa.silence_start(rec.audio, after=rec.at(paused) - SLACK, min_length=0.2)
    assert quiet is not None, "the sound never stopped after `pause`"
    assert quiet - rec.at(paused) <= PROMPT, f"`pause` was heard {quiet - rec.at(paused):.3f} s late"
    back = aa.sound_start(rec.audio, after=quiet)
    assert back is not None, "the sound never came back after `resume`"
    assert back >= rec.at(resumed) - SLACK, f"sound came back {rec.at(resumed) - back:.3f} s before `resume`"
    assert back - rec.at(resumed) <= PROMPT, f"`resume` was heard {back - rec.at(resumed):.3f} s late"

    # Nothing is skipped or repeated: the position heard when the sound
    # stopped is where it picks up (second 3 begins 3 - P seconds after).
    changes = aa.step_changes(rec.audio, steps["freqs"])
    p = aa.heard_position(changes, quiet - 0.001)
    assert p is not None and 2.0 <= p < 3.0, f"heard position at the pause: {p}"
    resumed_step = step_at(changes, back + 0.05)
    assert resumed_step == 2, f"after `resume` second {resumed_step} was heard, not second 2"
    nxt = next((c for c in changes if c.t > back and c.step == 3), None)
    assert nxt is not None, "second 3 never followed"
    assert nxt.t - back == pytest.approx(3.0 - p, abs=0.1), "playback did not continue from where it paused"

    # While paused, positions hold still.
    held = [e["t"] for e in run.positions if paused + 0.4 < e.arrival < resumed]
    if held:
        assert max(held) - min(held) <= 0.05, f"positions moved while paused: {held}"


def test_volume_command_is_heard_at_once(refrain, recorder, fixtures_dir):
    run = refrain.start(fixtures_dir / "tone440.mp3", "--output", "pulse", "--events")
    run.wait_position(1.5, timeout=10)
    sent = run.send("volume 50")
    time.sleep(1.5)
    stop(run)
    rec = recorder.stop()
    assert not run.of("error"), run.summary()
    s = rec.at(sent)
    before = aa.rms_dbfs(rec.audio.window(s - 1.0, 0.9))
    after = aa.rms_dbfs(rec.audio.window(s + PROMPT, 1.0))
    assert after - before == pytest.approx(-6.02, abs=1.0), f"level {before:.2f} -> {after:.2f} dBFS"
