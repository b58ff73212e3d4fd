"""Every format over HTTP, as a listener hears it.

- `refrain play URL` of a FLAC, an Opus and an M4A (its `moov` after the audio, as ffmpeg
  writes it) on a file server with byte ranges on 127.0.0.1: the tones of steps.mp3 are
  heard from the start, and `seek 0:12.5` on `--events` stdin lands within 50 ms, as
  test_formats.py checks for local files. The server, sending at three times the track's
  bit rate, saw range requests past the head: the player jumped (to the M4A's `moov`, the
  Opus file's last page, the FLAC frame of 12.5 s) rather than waiting for the bytes in order.
- A room whose host shares a FLAC, an Opus and an M4A (each a tone of its own): the server
  lists them with the media type of each, and a member with a PulseAudio output plays
  them one after another; the recording holds each tone.
"""

from __future__ import annotations

import subprocess
import time
import urllib.parse
from pathlib import Path

import pytest

import audio_analysis as aa
from harness import FixtureServer, assert_events_only
from room_harness import JoinedMember, RoomServer
from test_formats import assert_the_seek_landed_at_12_5, encoded  # noqa: F401  (encoded: a fixture)

KINDS = ["flac", "opus", "m4a"]


@pytest.fixture(scope="module")
def served(encoded):  # noqa: F811
    """The encoded steps, an M4A beside them, on a file server with byte ranges."""
    folder = encoded["wav"].parent
    m4a = folder / "steps-m4a.m4a"
    subprocess.run(["ffmpeg", "-v", "quiet", "-y", "-i", str(encoded["wav"]), "-c:a", "aac", "-b:a", "128k",
                    str(m4a)], check=True, timeout=120)
    files = dict(encoded, m4a=m4a)
    server = FixtureServer(folder)
    yield server, files
    server.close()


@pytest.mark.parametrize("kind", KINDS)
def test_a_url_of_each_format_plays_and_a_seek_lands_where_asked(kind, served, refrain, recorder, steps):
    server, files = served
    name = files[kind].name
    size = files[kind].stat().st_size
    # A link three times as fast as the track's bit rate: playback needs no more, and the
    # bytes at 12.5 s would take 4 s to arrive in order.
    url = server.url(name, rate=size * 3 // 30)
    run = refrain.start(url, "--output", "pulse", "--events")
    start = run.wait_for(lambda e: e["event"] == "start", 15, "the start")
    time.sleep(1.0)
    run.send("seek 0:12.5")
    time.sleep(2.5)
    run.send("quit")
    run.finish(20)
    rec = recorder.stop(tail=0.3)
    assert run.returncode == 0, run.stderr
    assert_events_only(run)
    assert start["file"] == url and start["duration"] == pytest.approx(30, abs=0.2), start
    changes = aa.step_changes(rec.audio, steps["freqs"])
    heard = [c.step for c in changes if c.step is not None]
    assert heard[:1] == [0], f"{kind}: the first tone heard was not second 0: {heard}"
    assert_the_seek_landed_at_12_5(kind, changes)
    asked = [t.range for t in server.requests_for(name)]
    assert asked[0] == "bytes=0-", asked
    assert any(r and int(r[6:].split("-")[0]) > size // 4 for r in asked), \
        f"{kind}: no range request past the head: {asked}"


# ---------------------------------------------------------------- a room

TONES = {"Tones/a.flac": (523, "audio/flac"), "Tones/b.opus": (659, "audio/ogg"),
         "Tones/c.m4a": (784, "audio/mp4")}


@pytest.fixture(scope="module")
def tone_library(tmp_path_factory) -> Path:
    """Three 4-second tones, encoded as FLAC, Opus and M4A by the real encoders."""
    root = tmp_path_factory.mktemp("room-formats")
    folder = root / "lib" / "Tones"
    folder.mkdir(parents=True)
    for path, (frequency, _) in TONES.items():
        wav = root / f"{frequency}.wav"
        subprocess.run(["sox", "-n", "-r", "44100", "-c", "2", "-b", "16", str(wav), "synth", "4", "sine",
                        str(frequency), "vol", "0.5"], check=True, timeout=60)
        out = root / "lib" / path
        command = {
            ".flac": ["flac", "-s", "-f", "-o", str(out), str(wav)],
            ".opus": ["opusenc", "--quiet", str(wav), str(out)],
            ".m4a": ["ffmpeg", "-v", "quiet", "-y", "-i", str(wav), "-c:a", "aac", "-b:a", "128k", str(out)],
        }[out.suffix]
        subprocess.run(command, check=True, timeout=120)
    return root / "lib"


def test_a_room_shares_flac_opus_and_m4a_and_a_member_hears_each(refrain_bin, tone_library, tmp_path,
                                                                  recorder):
    server = RoomServer(refrain_bin, tmp_path / "server", [tone_library])
    server.start()
    member = None
    try:
        status, _, body = server.http("/library")
        assert status == 200, body[:200]
        for path, (_, media_type) in TONES.items():
            assert path.encode() in body, (path, body[:300])
            status, headers, part = server.http("/library/" + urllib.parse.quote(path),
                                                headers={"Range": "bytes=0-3"})
            assert status == 206 and headers.get("content-type") == media_type, (path, status, headers)
            assert part == (tone_library / path).read_bytes()[:4]

        member = JoinedMember(refrain_bin, tmp_path / "mina", server.url + "/rooms/formats", server.token,
                              "Mina", output="pulse")
        member.wait("joined")
        for path in TONES:
            member.send(f"queue add {path}")
            member.wait("queue", lambda e, p=path: any(x["path"] == p for x in e["entries"]))
        member.send("play")
        starts = [member.wait("start", timeout=20) for _ in TONES]
        time.sleep(4.5)  # the last tone plays to its end
        assert [s["file"] for s in starts] == ["a", "b", "c"], starts
    finally:
        if member:
            member.close()
        server.stop()
    rec = recorder.stop(tail=0.3)
    errors = [e for e in member.seen if e.get("event") == "error"]
    assert not errors, errors
    heard = [seg for seg in aa.segments(aa.frequency_timeline(rec.audio)) if seg.end - seg.start >= 1.0]
    for path, (frequency, _) in TONES.items():
        assert any(abs(seg.freq - frequency) <= 12 for seg in heard), \
            f"{path} ({frequency} Hz) was not heard: {[(round(s.freq), round(s.end - s.start, 1)) for s in heard]}"
    order = [f for seg in heard for f in [t[0] for t in TONES.values()] if abs(seg.freq - f) <= 12]
    assert order == [523, 659, 784], order
