"""`[subsonic] transcode` for thin links, against supysonic, a real Subsonic server.

supysonic transcodes with ffmpeg (its `[transcoding]` section, see subsonic_server.py) and
refuses `timeOffset`, listing no OpenSubsonic extensions: a seek is refused with one line
and playback goes on. The `offsets` port lists `transcodeOffset` and answers `timeOffset`
(ffmpeg from that second), as a server with the extension does: a seek asks again from
the whole second and the clock goes on from there.
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest

import audio_analysis as aa
from subsonic_harness import PASSWORD, STEPS, USER, SubsonicServer

REFUSAL = ("seeking is not available: the server transcodes this track to opus and does not "
           "offer timeOffset (transcodeOffset)")


@pytest.fixture(scope="module")
def supysonic(tmp_path_factory):
    server = SubsonicServer(tmp_path_factory.mktemp("supysonic-transcode")).start()
    yield server
    server.stop()


def thin_link_tui(refrain_bin, home: Path, server: SubsonicServer, port: str):
    """The full-screen player with `transcode = "opus"` at 96 kbit/s, logged in on `port`."""
    from test_tui import TUI

    tui = TUI(refrain_bin, home, f"transcode-{port}", width=160)
    config = Path(tui.env["XDG_CONFIG_HOME"]) / "refrain"
    config.mkdir(parents=True, exist_ok=True)
    (config / "config.toml").write_text('[subsonic]\ntranscode = "opus"\nmax_bitrate = 96\n')
    run = subprocess.run([str(tui.binary), "subsonic", "login", server.url(port), "--user", USER,
                          "--password-stdin"], env=tui.run_env(), input=PASSWORD + "\n",
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    return tui


def play_steps_up(tui) -> None:
    tui.start("--provider", "subsonic", "--output", "pulse")
    tui.wait_text("Recently added", timeout=15)
    tui.keys("/")
    tui.type("Steps Up")
    tui.keys("Enter")
    tui.wait_for(lambda _: "Steps Up" in (tui.selected_row() or ""), "Steps Up selected", timeout=10)
    tui.keys("Enter")
    # The length on the now-playing line is the server's (a transcoded stream knows none).
    tui.wait_for(lambda _: (np := tui.now_playing()) and np[0].startswith("Steps Up"),
                 "Steps Up playing with its length", timeout=20)
    assert "/ 0:20" in tui.screen()
    deadline = time.monotonic() + 15
    while not ((status := json.loads(ctl(tui, "status").stdout or "{}")).get("state") == "playing"
               and status.get("position", 0) >= 1.0):
        assert time.monotonic() < deadline, f"Steps Up did not play: {status}"
        time.sleep(0.1)


def ctl(tui, *words: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(tui.binary), "ctl", *words], env=tui.run_env(), capture_output=True,
                          text=True, timeout=10)


def position(tui) -> float:
    answer = ctl(tui, "status")
    assert answer.returncode == 0, answer.stderr
    return json.loads(answer.stdout)["position"]


def streamed(server: SubsonicServer, port: str, since: int) -> list[list[str]]:
    return [r.split() for r in server.requests()[since:] if r.startswith(f"{port} stream.view ")]


def test_a_transcoded_track_is_heard_and_a_seek_is_refused_with_a_reason(refrain_bin, tmp_path,
                                                                          supysonic, recorder):
    tui = thin_link_tui(refrain_bin, tmp_path / "home", supysonic, "token")
    try:
        before = len(supysonic.requests())
        play_steps_up(tui)
        time.sleep(0.5)
        at_seek, seek_sent = position(tui), time.monotonic()
        assert ctl(tui, "seek", "0:12.5").returncode == 0
        screen = tui.wait_text(REFUSAL, timeout=5)
        assert "Steps Up" in screen
        time.sleep(2.0)
        went_on, elapsed = position(tui) - at_seek, time.monotonic() - seek_sent
        assert ctl(tui, "stop").returncode == 0
        rec = recorder.stop(tail=0.3)
    finally:
        tui.close()
    # Playback went on undisturbed: the clock moved with the wall clock, not to 12.5 s.
    assert went_on == pytest.approx(elapsed, abs=0.3), (went_on, elapsed)
    heard = [c.step for c in aa.step_changes(rec.audio, list(STEPS)) if c.step is not None]
    assert heard[:1] == [0], f"the first tone heard was not second 0: {heard}"
    assert heard == sorted(heard) and max(heard) <= 7, f"the tones did not go on in order: {heard}"
    assert len(heard) >= 4, heard
    # The server was asked for Opus at 96 kbit/s, once, and never for an offset.
    requests = streamed(supysonic, "token", before)
    assert requests and all(r[2] == "token" and "format=opus" in r and "maxBitRate=96" in r
                            for r in requests), requests
    assert not [r for r in requests if any(w.startswith("timeOffset=") for w in r)], requests


def test_mpris_says_a_refusing_track_cannot_seek_and_a_seek_from_it_changes_nothing(
        refrain_bin, tmp_path, supysonic, recorder):
    """The desktop's door: on a private session bus, `CanSeek` is false for the transcoded track
    (playerctl then refuses to seek, as a widget greys its seek bar out), and a `Seek` sent
    anyway leaves playback going on, with the same one-line reason on screen. (The recorder
    runs so that the idle null sink is awake: without a reader its first stream stalls about
    a second in, which the clock rightly follows.)"""
    from test_mpris import BUS_NAME, Bus, wait_for

    bus = Bus(tmp_path / "dbus")
    tui = thin_link_tui(refrain_bin, tmp_path / "home", supysonic, "token")
    tui.env["DBUS_SESSION_BUS_ADDRESS"] = bus.address
    try:
        play_steps_up(tui)
        wait_for(lambda: BUS_NAME in bus.names(), "Refrain on the bus")
        assert bus.get(BUS_NAME, "org.mpris.MediaPlayer2.Player", "CanSeek") == "b false"
        at_seek, seek_sent = position(tui), time.monotonic()
        # playerctl reads CanSeek and sends nothing.
        refused = bus.run("playerctl", "-p", "refrain", "position", "12", check=False)
        assert refused.returncode != 0 and "No player could handle" in refused.stderr, refused
        # A client that sends Seek anyway gets nothing done, and the screen says why.
        bus.run("dbus-send", f"--bus={bus.address}", "--type=method_call", f"--dest={BUS_NAME}",
                "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player.Seek", "int64:5000000")
        tui.wait_text(REFUSAL, timeout=5)
        time.sleep(1.5)
        went_on, elapsed = position(tui) - at_seek, time.monotonic() - seek_sent
        assert json.loads(ctl(tui, "status").stdout)["state"] == "playing"
        recorder.stop(tail=0.1)
    finally:
        tui.close()
        bus.close()
    assert went_on == pytest.approx(elapsed, abs=0.3), (went_on, elapsed)


def test_a_server_with_transcode_offset_seeks_by_asking_again_from_the_second(refrain_bin, tmp_path,
                                                                              supysonic, recorder):
    tui = thin_link_tui(refrain_bin, tmp_path / "home", supysonic, "offsets")
    try:
        status = subprocess.run([str(tui.binary), "subsonic", "status", "--json"], env=tui.run_env(),
                                capture_output=True, text=True, timeout=30)
        assert "transcodeOffset" in json.loads(status.stdout)["extensions"]
        before = len(supysonic.requests())
        play_steps_up(tui)
        seek_sent = time.monotonic()
        assert ctl(tui, "seek", "0:12.5").returncode == 0
        time.sleep(3.0)
        sampled = time.monotonic()
        after = position(tui)
        sampled = (sampled + time.monotonic()) / 2
        assert ctl(tui, "stop").returncode == 0
        rec = recorder.stop(tail=0.3)
    finally:
        tui.close()
    requests = streamed(supysonic, "offsets", before)
    asked = [[w for w in r[3:] if not w.startswith("bytes=")] for r in requests]
    assert asked == [["format=opus", "maxBitRate=96"],
                                         ["format=opus", "maxBitRate=96", "timeOffset=12"]], requests
    changes = aa.step_changes(rec.audio, list(STEPS))
    heard = [c.step for c in changes if c.step is not None]
    assert heard[:1] == [0], f"the first tone heard was not second 0: {heard}"
    later = [c for c in changes if c.step is not None and c.step >= 10]
    assert later and later[0].step == 12, f"after the seek: {heard}"
    thirteen = next((c for c in later if c.step == 13), None)
    assert thirteen is not None, heard
    # Second 12 is heard whole: the server started at 12 s, not 12.5 s.
    assert thirteen.t - later[0].t == pytest.approx(1.0, abs=0.06), heard
    # The clock goes on from that second: the position is 12 plus what was heard since.
    twelve_heard = rec.t0 + later[0].t
    assert after == pytest.approx(12 + sampled - twelve_heard, abs=0.15), (after, sampled - twelve_heard)
    print(f"seek to the first sound of second 12: {1000 * (twelve_heard - seek_sent):.0f} ms")
