"""Files that cannot (fully) play, and a missing sound server.

Whatever goes wrong, the user gets an exit status and one line on stderr
that names the file, promptly; a bad file in a queue does not stop the good
ones after it.
"""

from __future__ import annotations

import pytest

import audio_analysis as aa
from harness import assert_events_only, assert_one_line_message


@pytest.mark.parametrize("name", ["missing.mp3", "empty.mp3", "notmp3.mp3"])
def test_unplayable_file_fails_with_one_line_naming_it(refrain, fixtures_dir, tmp_path, name):
    path = (tmp_path / name) if name == "missing.mp3" else (fixtures_dir / name)
    run = refrain.play(path, "--output", "null", timeout=10)
    assert run.returncode != 0, f"{name}: exit 0"
    assert_one_line_message(run, name)


def test_truncated_file_plays_what_is_there_then_ends_cleanly(refrain, fixtures_dir):
    """truncated.mp3 is tone440.mp3 cut at 40 % (about 2.4 s of 6)."""
    run = refrain.play(fixtures_dir / "truncated.mp3", "--output", "null", "--events", timeout=12)
    assert_events_only(run)
    assert run.of("start"), run.summary()
    assert run.positions and run.positions[-1]["t"] >= 2.0, f"did not play the first 2 s: {run.summary()}"
    assert run.of("end") or run.of("error"), f"neither end nor error: {run.summary()}"
    if run.returncode != 0 or run.stderr.strip():
        assert_one_line_message(run, "truncated.mp3")


def test_corrupted_file_still_plays_through(refrain, recorder, fixtures_dir):
    """bitflip.mp3 is tone440.mp3 with 200 bytes inverted: a listener hears
    the tone to the end (a glitch or two at most), and Refrain may warn."""
    run = refrain.play(fixtures_dir / "bitflip.mp3", "--output", "pulse", timeout=20)
    rec = recorder.stop(tail=0.4)
    assert run.returncode == 0, f"exit {run.returncode}: {run.stderr}"
    if run.stderr.strip():
        assert_one_line_message(run, "bitflip.mp3")
    start, end = aa.sound_start(rec.audio), aa.sound_end(rec.audio)
    assert start is not None
    assert end - start == pytest.approx(6.0, abs=0.4)
    assert aa.dominant_frequency(rec.audio.window(start + 0.5, end - start - 1.0), rec.audio.rate) == pytest.approx(440, abs=5)


def test_bad_file_in_a_queue_does_not_stop_the_next(refrain, fixtures_dir):
    run = refrain.play(fixtures_dir / "notmp3.mp3", fixtures_dir / "tone440.mp3", "--output", "null", "--events",
                       timeout=20)
    assert_events_only(run)
    starts = [e for e in run.of("start") if str(e["file"]).endswith("tone440.mp3")]
    assert starts, f"tone440.mp3 never started: {run.summary()}"
    errors = run.of("error")
    assert errors and "notmp3.mp3" in str(errors[0]["message"]), f"no error event naming notmp3.mp3: {run.summary()}"
    assert errors[0].arrival <= starts[0].arrival
    assert run.of("end") and run.positions[-1]["t"] >= 5.7, f"tone440.mp3 did not play through: {run.summary()}"
    assert run.returncode != 0, "exit 0 although notmp3.mp3 did not play"
    assert_one_line_message(run, "notmp3.mp3")


def test_no_sound_server_is_a_prompt_error_mentioning_pulse_server(refrain, fixtures_dir):
    run = refrain.play(fixtures_dir / "tone440.mp3", "--output", "pulse", timeout=10,
                       env={"PULSE_SERVER": "unix:/nonexistent", "PULSE_RUNTIME_PATH": None})
    assert run.returncode != 0
    assert_one_line_message(run, "PULSE_SERVER")


def test_the_decoder_is_chosen_by_the_first_bytes_not_the_name(refrain, fixtures_dir, tmp_path):
    """An MP3 named `.flac` plays; a damaged FLAC stream named `.mp3` is refused in one line
    that says it is FLAC, and the next file in the queue still plays."""
    renamed = tmp_path / "tone.flac"
    renamed.write_bytes((fixtures_dir / "tone440.mp3").read_bytes())
    flac = tmp_path / "really-flac.mp3"
    flac.write_bytes(b"fLaC\x00\x00\x00\x22" + bytes(512))
    run = refrain.play(flac, renamed, "--output", "null", "--events", timeout=20)
    assert_events_only(run)
    errors = run.of("error")
    assert errors and "is not playable FLAC audio" in str(errors[0]["message"]), run.summary()
    starts = [e for e in run.of("start") if str(e["file"]).endswith("tone.flac")]
    assert starts, f"the MP3 named .flac never started: {run.summary()}"
    assert run.positions and run.positions[-1]["t"] >= 5.7, f"it did not play through: {run.summary()}"
    assert_one_line_message(run, "really-flac.mp3")
