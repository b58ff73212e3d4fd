"""What a listener hears from `refrain play … --output pulse`.

Each test records the test sink while Refrain plays and checks pitch,
length, start point and loudness against the fixture's known content.
"""

from __future__ import annotations

import time

import pytest

import audio_analysis as aa

# Runs alone (scripts/e2e): it counts dropouts in what is heard.
pytestmark = pytest.mark.serial


def heard_span(rec, after=0.0):
    start = aa.sound_start(rec.audio, after=after)
    assert start is not None, "nothing was heard"
    return start, aa.sound_end(rec.audio, after=start)


def test_tone_is_heard_at_pitch_for_its_whole_length(refrain, recorder, fixtures_dir):
    run = refrain.play(fixtures_dir / "tone440.mp3", "--output", "pulse", timeout=20)
    rec = recorder.stop(tail=0.5)
    assert run.returncode == 0, run.stderr
    start, end = heard_span(rec)
    assert end - start == pytest.approx(6.0, abs=0.3), "tone440.mp3 lasts 6 s"
    # No dropouts: the sound is continuous from its first to its last moment.
    gaps = (end - start) - aa.sounding_time(aa.Audio(rec.audio.window(start, end - start), rec.audio.rate))
    assert gaps <= 0.05, f"{gaps:.3f} s of dropouts inside the tone"
    pitch = aa.dominant_frequency(rec.audio.window(start + 0.5, end - start - 1.0), rec.audio.rate)
    assert pitch == pytest.approx(440, abs=5)


@pytest.mark.parametrize("name,start", [("steps.mp3", 12), ("cbr.mp3", 20), ("vbr-noxing.mp3", 20)])
def test_start_option_begins_at_that_second(refrain, recorder, fixtures_dir, steps, name, start):
    """`--start S` is heard from second S's tone, also in a VBR file that has
    no Xing/Info table to seek with; `--duration 2` stops 2 s later."""
    run = refrain.play(fixtures_dir / name, "--output", "pulse", "--start", start, "--duration", 2, timeout=15)
    rec = recorder.stop(tail=0.4)
    assert run.returncode == 0, run.stderr
    # A tone must hold 50 ms to count: vbr-noxing.mp3 has no header to tell
    # the decoder the encoder's 25 ms delay, so its second 20 truly begins with
    # 25 ms of second 19.
    heard = [c for c in aa.step_changes(rec.audio, steps["freqs"], stable=10) if c.step is not None]
    assert heard, "no tone of steps.mp3 was heard"
    assert heard[0].step == start, (
        f"first tone heard is second {heard[0].step}'s ({steps['freqs'][heard[0].step]} Hz),"
        f" expected second {start}'s ({steps['freqs'][start]} Hz)")
    assert len(heard) >= 2 and heard[1].step == start + 1
    # The seek is exact: second S+1 begins one second after S did.
    assert heard[1].t - heard[0].t == pytest.approx(1.0, abs=0.05)
    s, e = heard_span(rec)
    assert e - s == pytest.approx(2.0, abs=0.2), "--duration 2"


@pytest.mark.parametrize("name,freq,seconds", [("mono22k.mp3", 660, 5.0), ("mpeg2-16k.mp3", 550, 3.0)])
def test_other_sample_rates_play_at_true_pitch_and_speed(refrain, recorder, fixtures_dir, name, freq, seconds):
    """A 22.05 kHz mono or 16 kHz MPEG-2 file must not play fast or high."""
    run = refrain.play(fixtures_dir / name, "--output", "pulse", timeout=seconds + 10)
    rec = recorder.stop(tail=0.4)
    assert run.returncode == 0, run.stderr
    start, end = heard_span(rec)
    assert end - start == pytest.approx(seconds, abs=0.3)
    assert aa.dominant_frequency(rec.audio.window(start + 0.3, end - start - 0.6), rec.audio.rate) == pytest.approx(freq, abs=5)


def test_volume_50_is_6_db_quieter(refrain, recorder, fixtures_dir):
    """`--volume N` scales the amplitude by N/100: 50 is -6.02 dB."""
    launched = {}
    for volume in (100, 50):
        run = refrain.play(fixtures_dir / "tone440.mp3", "--output", "pulse", "--start", 1, "--duration", 2,
                           "--volume", volume, timeout=15)
        assert run.returncode == 0, run.stderr
        launched[volume] = run.launched
        time.sleep(0.6)   # let the tail drain, so the two runs do not touch in the recording
    rec = recorder.stop(tail=0.3)
    measured = {}
    for volume, when in launched.items():
        start = aa.sound_start(rec.audio, after=rec.at(when))
        assert start is not None, f"volume {volume}: nothing heard"
        # The middle of the 2 s tone, away from its start and end.
        measured[volume] = aa.rms_dbfs(rec.audio.window(start + 0.3, 1.4))
    assert measured[100] == pytest.approx(-9.0, abs=1.0), "at volume 100 the tone plays at its own level"
    assert measured[50] - measured[100] == pytest.approx(-6.02, abs=1.0), measured
