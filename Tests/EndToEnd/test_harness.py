"""Checks of the measuring tools themselves, without Refrain.

If these fail, a failure elsewhere in the suite says nothing about Refrain.
They use known signals, then pacat and the mpg123 command-line player as
stand-ins for Refrain on the same PulseAudio test sink.
"""

from __future__ import annotations

import subprocess
import time

import numpy as np
import pytest

import audio_analysis as aa
from harness import Recorder

# Runs alone (scripts/e2e): it measures the recorder's clock.
pytestmark = pytest.mark.serial


def sine(freq, seconds, rate=44100, amp=0.5):
    return amp * np.sin(2 * np.pi * freq * np.arange(int(seconds * rate)) / rate)


def test_analysis_measures_known_signals():
    rate = 44100
    for f in (300.0, 440.0, 1337.0, 1750.0):
        assert aa.dominant_frequency(sine(f, 0.05), rate) == pytest.approx(f, abs=2.0)
    assert aa.rms_dbfs(sine(440, 1)) == pytest.approx(-9.03, abs=0.02)
    assert aa.rms_dbfs(sine(440, 1, amp=0.25)) - aa.rms_dbfs(sine(440, 1)) == pytest.approx(-6.02, abs=0.02)

    audio = aa.Audio(np.concatenate([np.zeros(int(1.234 * rate)), sine(440, 2), np.zeros(rate)]), rate)
    assert aa.sound_start(audio) == pytest.approx(1.234, abs=0.006)
    assert aa.sound_end(audio) == pytest.approx(3.234, abs=0.006)
    assert aa.sounding_time(audio) == pytest.approx(2.0, abs=0.011)
    assert aa.silence_start(audio, after=2.0) == pytest.approx(3.234, abs=0.006)

    freqs = [300 + 50 * k for k in range(30)]
    steps = aa.Audio(np.concatenate([np.zeros(rate // 2)] + [sine(freqs[k], 1) for k in (4, 5, 20, 21)]), rate)
    changes = aa.step_changes(steps, freqs)
    assert [c.step for c in changes] == [None, 4, 5, 20, 21]
    assert [c.t for c in changes[1:]] == pytest.approx([0.5, 1.5, 2.5, 3.5], abs=0.02)
    assert aa.heard_position(changes, 2.75) == pytest.approx(20.25, abs=0.02)


PACAT_LATENCY = 0.05  # enough slack that a test process descheduled for a moment does not underrun


def _burst_offsets(recorder) -> list[float]:
    """Writes two bursts to a pacat stream at known moments and returns when each
    was heard in the recording, minus when it was written."""
    pacat = subprocess.Popen(["pacat", "--playback", f"--latency-msec={int(PACAT_LATENCY * 1000)}",
                              "--rate=44100", "--channels=1",
                              "--format=s16le", "--raw"], stdin=subprocess.PIPE)
    silence = np.zeros(441, "<i2").tobytes()
    burst = (sine(1000, 0.05, amp=0.5) * 32767).astype("<i2").tobytes()
    marks, begin = [], time.monotonic()
    i = 0
    while i < 250:  # 2.5 s of 10 ms chunks, paced in real time
        delay = begin + i * 0.01 - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        if i in (100, 200):
            marks.append(time.monotonic())
            pacat.stdin.write(burst)
            i += 5
        else:
            pacat.stdin.write(silence)
            i += 1
        pacat.stdin.flush()
    pacat.stdin.close()
    assert pacat.wait(10) == 0
    rec = recorder.stop(tail=0.3)
    offsets = []
    for m in marks:
        heard = aa.sound_start(rec.audio, after=rec.at(m) - 0.3)
        assert heard is not None, "burst not heard at all"
        offsets.append(heard - rec.at(m))
    return offsets


def test_recorder_clock_matches_wall_clock(recorder, pulse, tmp_path):
    """A burst written to a pacat stream at a known moment shows up that moment
    plus the stream's latency later in the recording: the recorder's t0 can be
    trusted to align Refrain's events with what was heard.

    Written in real time, the stream holds about its latency (50 ms) ahead of
    what is heard. A stream that underruns on a loaded machine waits to refill
    and from then on plays later still, so a burst can be late for reasons that
    are pacat's; heard early would mean the recorder's clock is wrong. Up to
    three runs: none may be early, and one must land within 40 ms of its write
    time plus the stream's latency.
    """

    def on_time(run: list[float]) -> bool:
        return all(-0.04 <= o <= PACAT_LATENCY + 0.04 for o in run)

    runs = [_burst_offsets(recorder)]
    while len(runs) < 3 and not on_time(runs[-1]):
        again = Recorder(pulse["sink"], tmp_path / f"recording-{len(runs)}.wav")
        again.start()
        try:
            runs.append(_burst_offsets(again))
        finally:
            again.kill()
    print("burst offsets (s):", runs)
    assert all(o >= -0.04 for run in runs for o in run), f"burst heard before it was written: {runs}"
    assert any(on_time(run) for run in runs), f"burst heard off its write time: {runs}"


def test_mpg123_stand_in_is_heard_at_pitch_and_length(recorder, fixtures_dir):
    """The path the Refrain tests rely on, with mpg123 in Refrain's place:
    tone440.mp3 is recorded as 6 s of 440 Hz."""
    proc = subprocess.run(["mpg123", "-q", "-o", "pulse", str(fixtures_dir / "tone440.mp3")],
                          capture_output=True, timeout=30)
    assert proc.returncode == 0, proc.stderr
    rec = recorder.stop(tail=0.5)
    start, end = aa.sound_start(rec.audio), aa.sound_end(rec.audio)
    assert start is not None
    assert end - start == pytest.approx(6.0, abs=0.3)
    assert aa.dominant_frequency(rec.audio.window(start + 0.5, 4.0), rec.audio.rate) == pytest.approx(440, abs=5)
