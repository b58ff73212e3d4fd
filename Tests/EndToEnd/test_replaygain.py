"""ReplayGain as heard: two FLAC files whose tags are 8 dB apart, and whose tones are 8 dB
apart, play at the same loudness with `replaygain = "track"` and 8 dB apart with "off".
`refrain scan --replaygain` measures untagged files into the library, never into the
files, and `refrain play PATH` then uses what it measured; `ctl status` reports the gain.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import time

import pytest

import audio_analysis as aa
from harness import assert_events_only


def tone(folder, name, freq, level_db, seconds=3, tags=(), album=None):
    """A stereo sine at `level_db` dBFS peak, encoded by flac with `tags` (KEY=value)."""
    wav = folder / f"{name}.wav"
    subprocess.run(["sox", "-n", "-r", "44100", "-c", "2", "-b", "16", str(wav), "synth", str(seconds),
                    "sine", str(freq), "vol", f"{level_db}dB"], check=True, capture_output=True)
    out = folder / f"{name}.flac"
    extra = [f"--tag={t}" for t in tags] + ([f"--tag=ALBUM={album}", "--tag=ARTIST=Harbor Lights"]
                                           if album else [])
    subprocess.run(["flac", "-s", "-f", *extra, "-o", str(out), str(wav)], check=True, capture_output=True)
    wav.unlink()
    return out


def write_config(refrain, mode):
    folder = refrain.home / "xdg_config_home" / "refrain"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.toml").write_text(f'[playback]\nreplaygain = "{mode}"\n')


def level_of(rec, freq):
    """The RMS level (dBFS) of the middle second of the tone heard at `freq` Hz."""
    segs = [s for s in aa.segments(aa.frequency_timeline(rec.audio)) if abs(s.freq - freq) < 15]
    assert segs, f"no {freq} Hz tone heard"
    seg = max(segs, key=lambda s: s.length)
    assert seg.length > 2, f"the {freq} Hz tone lasted only {seg.length:.2f} s"
    middle = (seg.start + seg.end) / 2
    return aa.rms_dbfs(rec.audio.window(middle - 0.5, 1.0))


@pytest.fixture(scope="module")
def tagged(tmp_path_factory):
    folder = tmp_path_factory.mktemp("replaygain")
    # A: -10 dBFS with a -2 dB gain; B: -18 dBFS with a +6 dB gain. Both land on -12 dBFS.
    loud = tone(folder, "loud", 440, -10, tags=["REPLAYGAIN_TRACK_GAIN=-2.00 dB",
                                                "REPLAYGAIN_TRACK_PEAK=0.316"])
    quiet = tone(folder, "quiet", 660, -18, tags=["REPLAYGAIN_TRACK_GAIN=+6.00 dB",
                                                  "REPLAYGAIN_TRACK_PEAK=0.126"])
    return loud, quiet


@pytest.mark.parametrize("mode", ["off", "track"])
def test_two_tracks_tagged_8_db_apart(mode, tagged, refrain, recorder):
    write_config(refrain, mode)
    run = refrain.play(*tagged, "--output", "pulse", "--events", timeout=30)
    rec = recorder.stop(tail=0.3)
    assert run.returncode == 0, run.stderr
    assert_events_only(run)
    loud, quiet = level_of(rec, 440), level_of(rec, 660)
    # A sine's RMS is 3.01 dB under its peak.
    if mode == "off":
        assert loud == pytest.approx(-13.01, abs=0.5)
        assert loud - quiet == pytest.approx(8, abs=0.5), (loud, quiet)
    else:
        assert loud == pytest.approx(-15.01, abs=0.5)
        assert quiet == pytest.approx(-15.01, abs=0.5)
        assert abs(loud - quiet) <= 0.5, (loud, quiet)


def ctl_status(refrain, socket):
    deadline = time.monotonic() + 10
    while True:
        result = subprocess.run([str(refrain.binary), "ctl", "--socket", str(socket), "status"],
                                env=refrain.env, capture_output=True, text=True, timeout=10)
        if result.returncode == 0:
            status = json.loads(result.stdout)
            if status.get("state") == "playing":
                return status
        assert time.monotonic() < deadline, result.stderr
        time.sleep(0.1)


def test_scan_measures_untagged_files_into_the_library_and_play_uses_it(refrain, recorder, tmp_path):
    music = tmp_path / "music"
    music.mkdir()
    # A stereo 1 kHz sine at -20 dBFS peak measures -20 LUFS (+2 dB to -18); at -26, +8 dB.
    # As one album they average to -22.04 LUFS: +4.04 dB.
    first = tone(music, "01 first", 1000, -20, seconds=4, album="Harbor")
    second = tone(music, "02 second", 1000, -26, seconds=4, album="Harbor")
    before = {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in (first, second)}

    def scan():
        result = subprocess.run([str(refrain.binary), "scan", str(music), "--replaygain", "--json"],
                                env=refrain.env, capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stderr
        return json.loads(result.stdout)

    summary = scan()["replaygain"]
    assert summary == {"measured": 2, "albums": 1, "unchanged": 0, "tagged": 0, "failed": 0}
    assert {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in (first, second)} == before
    again = scan()["replaygain"]
    assert again["measured"] == 0 and again["unchanged"] == 2, again
    plain = subprocess.run([str(refrain.binary), "scan", str(music), "--replaygain"], env=refrain.env,
                           capture_output=True, text=True, timeout=120)
    assert "replaygain: measured 0 files (0 albums), 2 unchanged, 0 tagged, 0 failed" in plain.stdout

    for mode, expected in (("track", 2.0), ("album", 4.04)):
        write_config(refrain, mode)
        socket = tmp_path / f"ctl-{mode}.sock"
        run = refrain.start(first, "--output", "null", "--socket", socket)
        status = ctl_status(refrain, socket)
        run.kill()
        assert status["replaygain_db"] == pytest.approx(expected, abs=0.25), status

    # Heard: -20 dBFS peak is -23.01 dBFS RMS; the measured +2 dB makes it -21.
    write_config(refrain, "track")
    run = refrain.play(first, "--output", "pulse", "--events", timeout=30)
    rec = recorder.stop(tail=0.3)
    assert run.returncode == 0, run.stderr
    assert level_of(rec, 1000) == pytest.approx(-21.01, abs=0.5)


def test_a_room_member_applies_the_gains_of_the_files_the_room_shares(refrain_bin, tagged, tmp_path, recorder):
    """The room sends each file's tags' gains with its library entry; the member applies them
    by its own `[playback] replaygain`."""
    from room_harness import JoinedMember, RoomServer

    library = tagged[0].parent
    server = RoomServer(refrain_bin, tmp_path / "server", [library])
    server.start()
    config = tmp_path / "mina" / "config" / "refrain"
    config.mkdir(parents=True)
    (config / "config.toml").write_text('[playback]\nreplaygain = "track"\n')
    member = None
    try:
        member = JoinedMember(refrain_bin, tmp_path / "mina", server.url + "/rooms/gain", server.token, "Mina",
                              output="pulse")
        member.wait("joined")
        for path in ("loud.flac", "quiet.flac"):
            member.send(f"queue add {path}")
            member.wait("queue", lambda e, p=path: any(x["path"] == p for x in e["entries"]))
        member.send("play")
        for _ in range(2):
            member.wait("start", timeout=20)
        time.sleep(3.3)  # the second file plays to its end
    finally:
        if member:
            member.close()
        server.stop()
    rec = recorder.stop(tail=0.3)
    loud, quiet = level_of(rec, 440), level_of(rec, 660)
    assert loud == pytest.approx(-15.01, abs=0.5), (loud, quiet)
    assert abs(loud - quiet) <= 0.5, (loud, quiet)
