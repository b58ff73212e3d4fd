"""Every format Refrain decodes is heard, with its sidecar lyrics in sync.

steps.mp3's tones (a new frequency every second) are made again and encoded by the real
encoders as FLAC, Ogg Vorbis, Opus and WAV (MP3 beside them for reference), each with a sidecar `.lrc` of the same stem. Each file
plays through the private PulseAudio server: its tones are heard in order, and each
`line` event arrives when its tone is heard. A seek on stdin lands where asked.
"""

from __future__ import annotations

import shutil
import subprocess
import time

import pytest

import audio_analysis as aa
from harness import assert_events_only

# Runs alone (scripts/e2e): it measures when lyric lines and seeks are heard.
pytestmark = pytest.mark.serial

TOLERANCE = 0.1   # seconds, as for MP3 (test_sync.py)

ENCODE = {
    "flac": lambda wav, out: ["flac", "-s", "-f", "-o", out, wav],
    "ogg": lambda wav, out: ["oggenc", "-Q", "-o", out, wav],
    "opus": lambda wav, out: ["opusenc", "--quiet", wav, out],
    "wav": None,
    "mp3": None,
}


@pytest.fixture(scope="module")
def encoded(fixtures_dir, steps, tmp_path_factory):
    """steps.mp3's tones, made again by sox (decoding the MP3 would add its encoder delay),
    in each format, with the lyrics beside it."""
    folder = tmp_path_factory.mktemp("formats")
    parts = []
    for k, freq in enumerate(steps["freqs"]):
        part = folder / f"step{k}.wav"
        subprocess.run(["sox", "-n", "-r", "44100", "-c", "2", "-b", "16", str(part), "synth", "1", "sine",
                        str(freq)], check=True, capture_output=True)
        parts.append(str(part))
    wav = folder / "steps.wav"
    subprocess.run(["sox", *parts, str(wav)], check=True, capture_output=True)
    files = {}
    for kind, command in ENCODE.items():
        out = folder / f"steps-{kind}.{kind}"
        if kind == "mp3":
            shutil.copy(fixtures_dir / "steps.mp3", out)
        elif command is None:
            shutil.copy(wav, out)
        else:
            subprocess.run(command(str(wav), str(out)), check=True, capture_output=True)
        shutil.copy(fixtures_dir / "lyrics-steps.lrc", out.with_suffix(".lrc"))
        files[kind] = out
    return files


@pytest.mark.parametrize("kind", list(ENCODE))
def test_each_format_is_heard_with_its_lyrics_in_sync(kind, encoded, refrain, recorder, steps):
    run = refrain.play(encoded[kind], "--output", "pulse", "--events", "--duration", 4, timeout=20)
    rec = recorder.stop(tail=0.3)
    assert run.returncode == 0, run.stderr
    assert_events_only(run)
    start = run.of("start")[0]
    assert start["duration"] == pytest.approx(30, abs=0.2), start
    changes = aa.step_changes(rec.audio, steps["freqs"])
    heard = [c.step for c in changes if c.step is not None]
    assert heard[:4] == [0, 1, 2, 3], f"{kind}: the tones heard were {heard}"
    lines = [e for e in run.of("line") if isinstance(e.get("index"), int) and e["index"] >= 0]
    assert [e["index"] for e in lines[:2]] == [0, 1], run.summary()
    for e, when in zip(lines[:2], (1, 3)):
        change = next(c for c in changes if c.step == when)
        lag = rec.at(e.arrival) - change.t
        # Each event says where the audio is (`t`): that must be what was heard then.
        assert abs(lag - (e["t"] - when)) <= TOLERANCE, \
            f"{kind}: line {e['index']} at t={e['t']:.3f} arrived {lag:+.3f} s from its tone"
        # And the line comes when its time is heard. Only the first may come late, when its
        # lyrics were still being read on a busy machine (then `t` says how late).
        if e["index"] == 1 or e["t"] - when <= TOLERANCE:
            assert abs(lag) <= TOLERANCE, f"{kind}: line {e['index']} shown {lag:+.3f} s from its tone"


@pytest.mark.parametrize("kind", list(ENCODE))
def test_a_seek_lands_where_asked(kind, encoded, refrain, recorder, steps):
    run = refrain.start(encoded[kind], "--output", "pulse", "--events")
    run.wait_for(lambda e: e["event"] == "start", 10, "the start")
    time.sleep(1.0)
    run.send("seek 12.5")
    time.sleep(2.5)
    run.send("quit")
    run.finish(20)
    rec = recorder.stop(tail=0.3)
    assert run.returncode == 0, run.stderr
    assert_the_seek_landed_at_12_5(kind, aa.step_changes(rec.audio, steps["freqs"]))


def assert_the_seek_landed_at_12_5(kind: str, changes: list) -> None:
    """Asserts that after a seek to 12.5 s the steps heard are 12 then 13, and that 13
    starts 0.5 s after the seek is heard (within 50 ms)."""
    after = [c for c in changes if c.step is not None and c.step >= 12]
    assert after, f"{kind}: nothing from second 12 on was heard: {[c.step for c in changes]}"
    assert after[0].step in (12, 13), [c.step for c in changes]
    # The tone of second 13 starts 0.5 s after the seek is heard.
    thirteen = next((c for c in changes if c.step == 13), None)
    assert thirteen is not None, f"{kind}: second 13 was never heard"
    twelve_heard = after[0].t if after[0].step == 12 else thirteen.t - 0.5
    assert thirteen.t - twelve_heard == pytest.approx(0.5, abs=0.05), f"{kind}: the seek landed off 12.5 s"
