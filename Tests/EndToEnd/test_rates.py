"""Sample rates: impossible ones are refused, and a queue that changes rate plays on.

A file whose header claims a rate outside 8,000-768,000 Hz (2^30 Hz, 1 Hz) is refused by
its decoder before any number of it is used: one line on stderr naming the file, a non-zero
exit, within seconds (it used to crash the WAV output, or hang a null output at 0 forever).
A queue of tracks at different rates joins without a silent sample through PulseAudio: the
later track is resampled to the rate the stream is open at.
"""

from __future__ import annotations

import shutil
import time
import subprocess

import numpy as np
import pytest

import audio_analysis as aa
from harness import assert_events_only, assert_one_line_message

HALF = 3.0


def sine(path, seconds, rate, freq=440):
    subprocess.run(["sox", "-n", "-r", str(rate), "-c", "2", "-b", "16", str(path), "synth", str(seconds),
                    "sine", str(freq), "vol", "0.5"], check=True, capture_output=True)
    return path


def ogg_crc(page: bytes) -> int:
    """The CRC-32 of an Ogg page (polynomial 0x04C11DB7, unreflected, initial 0)."""
    crc = 0
    for byte in page:
        crc ^= byte << 24
        for _ in range(8):
            crc = ((crc << 1) ^ 0x04C11DB7) if crc & 0x80000000 else crc << 1
            crc &= 0xFFFFFFFF
    return crc


def vorbis_claiming(rate: int, source, out):
    """`source` (Ogg Vorbis) with its identification header claiming `rate`, CRC made good."""
    data = bytearray(source.read_bytes())
    segments = data[26]
    body = 27 + segments                       # the first page holds the identification packet
    assert data[body:body + 7] == b"\x01vorbis"
    data[body + 12:body + 16] = rate.to_bytes(4, "little")
    length = body + sum(data[27:27 + segments])
    data[22:26] = b"\0\0\0\0"
    data[22:26] = ogg_crc(bytes(data[:length])).to_bytes(4, "little")
    out.write_bytes(bytes(data))
    return out


def flac_claiming(rate: int, source, out):
    """`source` (FLAC) with its STREAMINFO claiming `rate` (20 bits at byte 18)."""
    data = bytearray(source.read_bytes())
    assert data[:4] == b"fLaC" and data[4] & 0x7F == 0
    packed = int.from_bytes(data[18:21], "big")
    packed = (rate << 4) | (packed & 0xF)
    data[18:21] = packed.to_bytes(3, "big")
    out.write_bytes(bytes(data))
    return out


@pytest.fixture(scope="module")
def sources(tmp_path_factory):
    folder = tmp_path_factory.mktemp("rates")
    wav = sine(folder / "tone.wav", 2.0, 44100)
    subprocess.run(["oggenc", "-Q", "-o", str(folder / "tone.ogg"), str(wav)], check=True)
    subprocess.run(["flac", "-s", "-f", "-o", str(folder / "tone.flac"), str(wav)], check=True)
    return folder


@pytest.mark.parametrize("kind,rate,output", [
    ("ogg", 1 << 30, "wav"), ("ogg", 1 << 30, "null"), ("ogg", 1, "null"), ("ogg", 1, "wav"),
    ("flac", 1, "null"), ("flac", 1, "wav"), ("flac", 7_999, "null"), ("flac", 1_000_000, "null"),
])
def test_an_impossible_sample_rate_is_refused_in_one_line(refrain, sources, tmp_path, kind, rate, output):
    make = vorbis_claiming if kind == "ogg" else flac_claiming
    bad = make(rate, sources / f"tone.{kind}", tmp_path / f"claims-{rate}.{kind}")
    target = "null" if output == "null" else f"wav:{tmp_path / 'out.wav'}"
    run = refrain.play(bad, "--output", target, timeout=5)
    assert run.returncode not in (0, None) and run.returncode > 0, f"exit {run.returncode}: {run.stderr}"
    line = assert_one_line_message(run, bad.name)
    assert f"{rate} Hz" in line and "8,000" in line, line
    assert not (tmp_path / "out.wav").exists(), "a WAV was written for an impossible file"


def test_a_good_file_after_an_impossible_one_still_plays(refrain, sources, tmp_path):
    bad = vorbis_claiming(1, sources / "tone.ogg", tmp_path / "one-hertz.ogg")
    run = refrain.play(bad, sources / "tone.flac", "--output", "null", "--events", timeout=10)
    assert_events_only(run)
    assert run.of("end") and run.positions[-1]["t"] >= 1.8, run.summary()
    assert run.returncode != 0
    assert_one_line_message(run, "one-hertz.ogg")


ENCODE = {
    "opus": lambda wav, out: ["opusenc", "--quiet", "--bitrate", "160", wav, out],
    "mp3": lambda wav, out: ["lame", "--quiet", "-b", "192", wav, out],
    "flac": lambda wav, out: ["flac", "-s", "-f", "-o", out, wav],
}


def largest_click(audio: aa.Audio, start: float, end: float) -> float:
    x = audio.window(start, end - start)
    return float(np.max(np.abs(np.diff(x, 2)))) if len(x) > 2 else 0.0


# A 440 Hz tone in two files at different rates (HALF s each: whole cycles at either rate),
# the first at `first` Hz.
JOINS = [("opus", 48000, "mp3", 44100), ("opus", 48000, "flac", 44100), ("flac", 44100, "opus", 48000),
         ("mp3", 44100, "flac", 48000)]


@pytest.mark.serial
@pytest.mark.parametrize("a,ra,b,rb", JOINS, ids=[f"{a}{ra // 1000}k-{b}{rb // 1000}k" for a, ra, b, rb in JOINS])
def test_a_rate_change_joins_without_a_silent_sample(refrain, recorder, tmp_path, a, ra, b, rb):
    first = tmp_path / f"01.{a}"
    second = tmp_path / f"02.{b}"
    subprocess.run(ENCODE[a](str(sine(tmp_path / "a.wav", HALF, ra)), str(first)), check=True)
    subprocess.run(ENCODE[b](str(sine(tmp_path / "b.wav", HALF, rb)), str(second)), check=True)
    run = refrain.play(first, second, "--output", "pulse", "--events", timeout=30)
    rec = recorder.stop(tail=0.3)
    assert run.returncode == 0, run.stderr
    assert_events_only(run)
    assert [e["event"] for e in run.events if e["event"] in ("start", "end")] == ["start", "end", "start", "end"]
    start = aa.sound_start(rec.audio)
    end = aa.sound_end(rec.audio, after=start)
    assert start is not None and end is not None, "nothing was heard"
    # No silent sample at the join: one tone, as long as both files.
    assert aa.dropouts(rec.audio, start + 0.05, end - 0.05, min_length=2 / rec.audio.rate) == [], \
        "silence where the rate changes"
    assert end - start == pytest.approx(2 * HALF, abs=0.03), f"heard {end - start:.3f} s"
    steady = max(largest_click(rec.audio, start + 1.0, start + 2.0), largest_click(rec.audio, end - 2.0, end - 1.0))
    join = largest_click(rec.audio, start + HALF - 0.1, start + HALF + 0.1)
    assert join <= max(3 * steady, 0.02), f"a click at the join ({join:.4f}, steady {steady:.4f})"
    assert aa.dominant_frequency(rec.audio.window(start + HALF + 0.3, HALF - 0.6), rec.audio.rate) == \
        pytest.approx(440, abs=3), "the second track is not at its pitch"


def sink_input_rates(env: dict) -> list[int]:
    """The sample rates of the streams playing into the test server now."""
    out = subprocess.run(["pactl", "list", "sink-inputs"], env=env, capture_output=True, text=True,
                         timeout=10).stdout
    return [int(line.rsplit(" ", 1)[1].rstrip("Hz")) for line in out.splitlines()
            if "Sample Specification:" in line]


def test_the_stream_goes_back_to_a_tracks_own_rate_only_at_a_pause(refrain, tmp_path):
    """Resampled to join, the 44.1 kHz track plays on the 48 kHz stream; a pause and a resume
    reopen the stream at the track's own rate, where the listener hears a break anyway."""
    first = tmp_path / "01.opus"
    second = tmp_path / "02.flac"
    subprocess.run(ENCODE["opus"](str(sine(tmp_path / "a.wav", 1.0, 48000)), str(first)), check=True)
    subprocess.run(ENCODE["flac"](str(sine(tmp_path / "b.wav", 8.0, 44100)), str(second)), check=True)
    run = refrain.start(first, second, "--output", "pulse", "--events")
    try:
        first_start = run.wait_for(lambda e: e.kind == "start", 15, "the first track's start")
        second_start = run.wait_for(lambda e: e.kind == "start" and e is not first_start, 15,
                                    "the second track's start")
        run.wait_for(lambda e: e.kind == "position" and e.arrival > second_start.arrival + 0.5, 5,
                     "the second track playing")
        assert sink_input_rates(refrain.env) == [48000], "the join reopened the stream"
        run.send("pause")
        time.sleep(0.5)
        run.send("play")
        deadline = time.monotonic() + 5
        while sink_input_rates(refrain.env) != [44100] and time.monotonic() < deadline:
            time.sleep(0.1)
        assert sink_input_rates(refrain.env) == [44100], "the resume did not reopen at 44.1 kHz"
        run.send("stop")
    finally:
        run.finish(15)
    assert run.returncode == 0, run.stderr
