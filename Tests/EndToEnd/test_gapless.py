"""Gapless between tracks of every format, as heard.

A 440 Hz tone is cut into two files at a sample (the cut falls on a zero crossing), each
half encoded by the format's real encoder, and the two play as a queue through the
private PulseAudio server. What is recorded must be one tone: as long as the two halves,
with no silence and no click where they meet. A change of sample rate (FLAC at 44.1 kHz,
then FLAC at 48 kHz) may cost one short gap, but no click.
"""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest

import audio_analysis as aa
from harness import assert_events_only

# Runs alone (scripts/e2e): it counts silent samples at every join.
pytestmark = pytest.mark.serial

RATE = 44100
HALF = 3.0          # seconds per file: 1320 whole cycles of 440 Hz
AMPLITUDE = 0.5

ENCODE = {
    "flac": lambda wav, out: ["flac", "-s", "-f", "-o", out, wav],
    "ogg": lambda wav, out: ["oggenc", "-Q", "-q", "6", "-o", out, wav],
    "opus": lambda wav, out: ["opusenc", "--quiet", "--bitrate", "160", wav, out],
    "m4a": lambda wav, out: ["ffmpeg", "-loglevel", "error", "-y", "-i", wav, "-c:a", "aac", "-b:a", "192k",
                             out],
    "mp3": lambda wav, out: ["lame", "--quiet", "-b", "192", wav, out],
    "wav": None,
}


def sine(path, seconds, rate=RATE):
    subprocess.run(["sox", "-n", "-r", str(rate), "-c", "2", "-b", "16", str(path), "synth", str(seconds),
                    "sine", "440", "vol", str(AMPLITUDE)], check=True, capture_output=True)


def encode(kind, wav, out):
    command = ENCODE[kind]
    if command is None:
        shutil.copy(wav, out)
    else:
        subprocess.run(command(str(wav), str(out)), check=True, capture_output=True)
    return out


def largest_click(audio: aa.Audio, start: float, end: float) -> float:
    """The largest second difference of the samples in [start, end]: a 440 Hz sine at 0.5
    never exceeds 0.0022; a gap's edge or a jump of phase reaches tenths."""
    x = audio.window(start, end - start)
    return float(np.max(np.abs(np.diff(x, 2)))) if len(x) > 2 else 0.0


@pytest.fixture(scope="module")
def halves(tmp_path_factory):
    folder = tmp_path_factory.mktemp("gapless")
    whole = folder / "whole.wav"
    sine(whole, 2 * HALF)
    cut = int(HALF * RATE)
    subprocess.run(["sox", str(whole), str(folder / "a.wav"), "trim", "0", f"{cut}s"], check=True)
    subprocess.run(["sox", str(whole), str(folder / "b.wav"), "trim", f"{cut}s"], check=True)
    return folder


@pytest.mark.parametrize("kind", list(ENCODE))
def test_an_album_split_in_two_files_plays_without_a_gap(kind, halves, refrain, recorder):
    first = encode(kind, halves / "a.wav", halves / f"01-{kind}.{kind}")
    second = encode(kind, halves / "b.wav", halves / f"02-{kind}.{kind}")
    run = refrain.play(first, second, "--output", "pulse", "--events", timeout=30)
    rec = recorder.stop(tail=0.3)
    assert run.returncode == 0, run.stderr
    assert_events_only(run)
    assert [e["event"] for e in run.events if e["event"] in ("start", "end")] == ["start", "end", "start",
                                                                                    "end"]
    start = aa.sound_start(rec.audio)
    end = aa.sound_end(rec.audio, after=start)
    assert start is not None and end is not None, "nothing was heard"
    assert end - start == pytest.approx(2 * HALF, abs=0.02), f"{kind}: heard {end - start:.3f} s"
    assert aa.dropouts(rec.audio, start + 0.05, end - 0.05) == [], f"{kind}: silence inside the tone"
    boundary = start + HALF
    steady = largest_click(rec.audio, start + 1.0, start + 2.0)
    at_boundary = largest_click(rec.audio, boundary - 0.1, boundary + 0.1)
    # Independent encodes of the two halves differ a little where they meet (seen: 0.0103 for
    # AAC); a gap, or one sample lost or doubled, gives 0.03 or more.
    assert at_boundary <= max(3 * steady, 0.02), \
        f"{kind}: a click where the files meet ({at_boundary:.4f}, steady {steady:.4f})"


def test_a_sample_rate_change_costs_at_most_one_short_gap(tmp_path, refrain, recorder):
    """The output is reopened at the new rate once the old track has been heard: one gap
    of a few tens of milliseconds, both tones heard whole around it, and no click at
    either edge. (PulseAudio's sink cuts up to about 1.5 ms at the edges of a stream,
    `paplay`'s included; Refrain fades the tone out and in over 5 ms and pads the edges
    with silence, so what is cut is silence.)"""
    sine(tmp_path / "a.wav", HALF, rate=44100)
    sine(tmp_path / "b.wav", HALF, rate=48000)
    first = encode("flac", tmp_path / "a.wav", tmp_path / "01.flac")
    second = encode("flac", tmp_path / "b.wav", tmp_path / "02.flac")
    run = refrain.play(first, second, "--output", "pulse", "--events", timeout=30)
    rec = recorder.stop(tail=0.3)
    assert run.returncode == 0, run.stderr
    assert_events_only(run)
    starts = run.of("start")
    assert [s["duration"] for s in starts] == [pytest.approx(HALF, abs=0.01)] * 2
    start = aa.sound_start(rec.audio)
    end = aa.sound_end(rec.audio, after=start)
    gaps = aa.dropouts(rec.audio, start + 0.05, end - 0.05)
    assert len(gaps) == 1, gaps
    gap = gaps[0][1]
    assert gap <= 0.1, f"the rate change cost {gap * 1000:.0f} ms"
    # The sink may cut up to about 15 ms of the first stream's onset, which moves `start`.
    assert gaps[0][0] - start == pytest.approx(HALF, abs=0.02), "the gap is not where the files meet"
    # Both tones, less the two 5 ms fades and what the sink cuts around the gap.
    assert end - start - gap == pytest.approx(2 * HALF, abs=0.03)
    # A tone cut mid-wave at either edge of the gap is a click: tenths, against a steady
    # 0.0022 (the 48 kHz tone resampled by the sink measures about the same).
    steady = max(largest_click(rec.audio, start + 1.0, start + 2.0),
                 largest_click(rec.audio, end - 2.0, end - 1.0))
    into, out_of = gaps[0][0], gaps[0][0] + gap
    for name, edge in (("into", into), ("out of", out_of)):
        click = largest_click(rec.audio, edge - 0.03, edge + 0.03)
        if click > 0.01:
                assert click <= max(3 * steady, 0.01), \
            f"a click {name} the gap ({click:.4f}, steady {steady:.4f})"
