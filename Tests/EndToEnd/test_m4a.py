"""M4A (AAC in MP4) through the real binary: heard at pitch through PulseAudio, exact in
length after the gapless trim, joined to an MP3 without a gap, seekable with --start,
its embedded LRC shown in time, and ALAC refused in one line that names it.

The files come from scripts/make-m4a-fixtures (ffmpeg), which make-test-fixtures runs.
"""

from __future__ import annotations

import pytest

import audio_analysis as aa
from harness import assert_events_only, assert_one_line_message


def test_steps_are_heard_at_pitch_through_pulseaudio(refrain, recorder, fixtures_dir, steps):
    run = refrain.play(fixtures_dir / "steps.m4a", "--output", "pulse", timeout=25)
    rec = recorder.stop(tail=0.5)
    assert run.returncode == 0, run.stderr
    heard = [c for c in aa.step_changes(rec.audio, steps["freqs"][:10], stable=10) if c.step is not None]
    assert [c.step for c in heard] == list(range(10)), [c.step for c in heard]
    assert heard[-1].t - heard[0].t == pytest.approx(9.0, abs=0.05)


def test_an_mp3_then_an_m4a_join_without_a_gap(refrain, fixtures_dir, tmp_path):
    """tone440.mp3 (6 s) then steps.m4a (10 s) write exactly 16 s: both encoders' delay
    and padding are dropped, and the formats match, so nothing is drained between them."""
    out = tmp_path / "out.wav"
    run = refrain.play(fixtures_dir / "tone440.mp3", fixtures_dir / "steps.m4a", "--output", f"wav:{out}",
                       timeout=30)
    assert run.returncode == 0, run.stderr
    audio = aa.read_wav(str(out))
    assert len(audio.samples) == 16 * 44_100
    assert aa.dominant_frequency(audio.window(5.5, 0.4), audio.rate) == pytest.approx(440, abs=5)
    assert aa.dominant_frequency(audio.window(6.05, 0.4), audio.rate) == pytest.approx(300, abs=5)
    assert aa.dominant_frequency(audio.window(15.5, 0.4), audio.rate) == pytest.approx(750, abs=5)


def test_start_seeks_to_that_second(refrain, fixtures_dir, tmp_path):
    out = tmp_path / "out.wav"
    run = refrain.play(fixtures_dir / "steps.m4a", "--output", f"wav:{out}", "--start", 7.25, timeout=20)
    assert run.returncode == 0, run.stderr
    audio = aa.read_wav(str(out))
    assert len(audio.samples) == round(2.75 * 44_100)
    assert aa.dominant_frequency(audio.window(0.05, 0.6), audio.rate) == pytest.approx(650, abs=5)
    assert aa.dominant_frequency(audio.window(0.8, 0.6), audio.rate) == pytest.approx(700, abs=5)


def test_embedded_lrc_lines_are_shown_in_time(refrain, fixtures_dir):
    run = refrain.play(fixtures_dir / "tags.m4a", "--output", "null", "--events", timeout=15)
    assert_events_only(run)
    assert run.of("start") and run.of("start")[0]["duration"] == pytest.approx(3.0, abs=0.01)
    lines = run.of("line")
    assert [e["text"] for e in lines] == ["첫 줄", "둘째 줄"], run.summary()
    assert [e["t"] for e in lines] == [pytest.approx(1.0, abs=0.05), pytest.approx(2.5, abs=0.05)]


def test_alac_is_refused_in_one_line_and_the_next_file_plays(refrain, fixtures_dir):
    run = refrain.play(fixtures_dir / "alac.m4a", fixtures_dir / "smpb.m4a", "--output", "null", "--events",
                       timeout=20)
    assert_events_only(run)
    errors = run.of("error")
    assert errors and "alac.m4a holds ALAC audio, which Refrain cannot decode yet" in str(errors[0]["message"])
    assert [e for e in run.of("start") if str(e["file"]).endswith("smpb.m4a")], run.summary()
    assert run.positions and run.positions[-1]["t"] >= 1.8, run.summary()
    assert_one_line_message(run, "alac.m4a")


def test_a_file_cut_inside_its_audio_plays_to_the_cut_then_says_so(refrain, fixtures_dir):
    run = refrain.play(fixtures_dir / "cut-audio.m4a", "--output", "null", "--events", timeout=20)
    assert_events_only(run)
    assert run.positions and run.positions[-1]["t"] >= 4.0, run.summary()
    errors = run.of("error")
    assert errors and "cut short" in str(errors[0]["message"]), run.summary()
    assert_one_line_message(run, "cut-audio.m4a")
