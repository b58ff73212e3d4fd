"""Internet radio against a real Icecast server fed by ezstream (icecast_harness.py).

- `refrain play URL --events` of an Icecast mount: each StreamTitle comes as a `metadata`
  event with artist and title split on " - " and `raw` kept, and `ctl status` shows it as
  `stream_title`; every track's tone is heard on the private PulseAudio.
- Icecast killed and started again while playing: `play` says `reconnecting` (connection
  refused, the mount missing) and keeps running, then `reconnected`; the title comes again
  and the tones are heard again, without a restart.
- A `.pls` file and an `.m3u` URL whose first entry is refused: the next entry plays.
- `refrain radio add|list|remove` keep stations in the library.
- A station that stays down: `play` retries until SIGTERM, which ends it at once.
- A station queued with `ctl queue add` after a file: its title comes with its start.
- On a private D-Bus: MPRIS `xesam:title`/`xesam:artist` are the title on air, and with
  `desktop.notify` a notification names it.
"""

from __future__ import annotations

import json
import subprocess
import time

import pytest

import audio_analysis as aa
from harness import FixtureServer, assert_events_only
from icecast_harness import RadioTrack, Station, free_port, make_mp3
from test_mpris import (_line, bus, notifying_home, play_headless,  # noqa: F401  (bus: a fixture)
                        start_notification_server, wait_for)

TRACKS = [RadioTrack("Ada Lovelace", "Engine Song", 440, 4),
          RadioTrack("Björk", "Jóga - Live", 554, 4),
          RadioTrack("Cy", "Third", 659, 4)]


@pytest.fixture
def station():
    on_air = Station(TRACKS)
    on_air.start()
    yield on_air
    on_air.close()


def ctl_status(refrain, socket) -> dict:
    answer = subprocess.run([str(refrain.binary), "ctl", "--socket", str(socket), "status"], env=refrain.env,
                            capture_output=True, text=True, timeout=10)
    assert answer.returncode == 0, answer.stderr
    return json.loads(answer.stdout)


def quit_after(seconds: float, run, recorder):
    """Lets `run` play `seconds` more, quits it and returns the recording; `play` exited 0
    and wrote only events."""
    time.sleep(seconds)
    run.send("quit")
    run.finish(15)
    rec = recorder.stop(tail=0.3)
    assert run.returncode == 0, run.stderr
    assert_events_only(run)
    return rec


def tones_heard(audio, start: float = 0.0) -> set[int]:
    """The tracks' frequencies heard for at least a second after `start`."""
    heard = [s for s in aa.segments(aa.frequency_timeline(audio, start=start)) if s.length >= 1.0]
    return {t.frequency for t in TRACKS for s in heard if abs(s.freq - t.frequency) <= 12}


def test_titles_come_as_metadata_events_and_in_ctl_status_and_every_tone_is_heard(
        station, refrain, recorder, tmp_path):
    socket = tmp_path / "ctl.sock"
    run = refrain.start(station.url, "--output", "pulse", "--events", "--socket", str(socket))
    start = run.wait_for(lambda e: e.kind == "start", 15, "the start")
    assert start["file"] == station.url and start["duration"] is None, start
    titles = {t.stream_title for t in TRACKS}
    for track in TRACKS:
        run.wait_for(lambda e, t=track: e.kind == "metadata" and e["raw"] == t.stream_title, 30,
                     f"a metadata event for {track.stream_title}")
    time.sleep(0.5)
    before = run.of("metadata")[-1]
    status = ctl_status(refrain, socket)
    last = run.of("metadata")[-1]
    assert status["stream_title"] in titles and status["state"] == "playing", status
    rec = quit_after(1, run, recorder)
    for event in run.of("metadata"):
        track = next(t for t in TRACKS if t.stream_title == event["raw"])
        # Split on the first " - " only: Jóga - Live stays the title.
        assert (event["artist"], event["title"]) == (track.artist, track.title), event
    # What the status said is the last title told (or the one before, had it just changed).
    assert status["stream_title"] in {before["raw"], last["raw"]}, (status, last)
    assert tones_heard(rec.audio) == {t.frequency for t in TRACKS}, \
        [(round(s.freq), round(s.length, 1)) for s in aa.segments(aa.frequency_timeline(rec.audio))]


def test_icecast_killed_and_started_again_reconnects_and_plays_on_with_the_title_again(
        station, refrain, recorder, tmp_path):
    run = refrain.start(station.url, "--output", "pulse", "--events")
    run.wait_for(lambda e: e.kind == "metadata", 15, "the first title")
    time.sleep(1)
    station.kill()
    dropped = time.monotonic()
    run.wait_for(lambda e: e.kind == "reconnecting" and e["message"] == "connection refused", 20,
                 "a reconnection refused while the server is down")
    time.sleep(3)
    assert run.proc.poll() is None, "play exited while the stream was being retried"
    back = station.start_server()
    # Without its source the mount is missing (404): retried like a drop.
    time.sleep(1.5)
    station.start_source()
    reconnected = run.wait_for(lambda e: e.kind == "reconnected", 20, "the reconnection")
    again = run.wait_for(lambda e: e.kind == "metadata" and e.arrival > reconnected.arrival - 0.5, 15,
                         "the title sent again after the reconnection")
    rec = quit_after(5, run, recorder)
    delays = [e["retry_in"] for e in run.of("reconnecting")]
    assert delays[:4] == [0.5, 1, 2, 4][:len(delays[:4])] and max(delays) <= 10, delays
    assert again["raw"] in {t.stream_title for t in TRACKS}, again
    assert reconnected.arrival > back
    heard_after = tones_heard(rec.audio, start=rec.at(reconnected.arrival))
    assert heard_after, "no tone heard after the station came back"
    print(f"server down {back - dropped:.1f} s; reconnected {reconnected.arrival - back:.2f} s after icecast2 was up")


def test_a_pls_file_and_an_m3u_url_play_their_first_stream_that_answers(station, refrain, recorder, tmp_path):
    # The first entry is a port nobody listens on: refused, so the next entry plays.
    dead = f"http://127.0.0.1:{free_port()}/gone.mp3"
    pls = tmp_path / "station.pls"
    pls.write_text(f"[playlist]\nNumberOfEntries=2\nFile1={dead}\nTitle1=Gone\nFile2={station.url}\n"
                   "Title2=Tones\nVersion=2\n")
    run = refrain.start(str(pls), "--output", "pulse", "--events")
    run.wait_for(lambda e: e.kind == "metadata", 20, "a title from the playlist's second stream")
    rec = quit_after(3, run, recorder)
    assert not run.of("error"), run.summary()
    assert tones_heard(rec.audio), "nothing heard from the .pls file's stream"

    served = tmp_path / "served"
    served.mkdir()
    (served / "station.m3u").write_text(f"#EXTM3U\n#EXTINF:-1,Gone\n{dead}\n#EXTINF:-1,Tones\n{station.url}\n")
    files = FixtureServer(served)
    try:
        run = refrain.start(files.url("station.m3u"), "--output", "null", "--events")
        title = run.wait_for(lambda e: e.kind == "metadata", 20, "a title from the .m3u URL's stream")
        run.send("quit")
        run.finish(15)
    finally:
        files.close()
    assert title["raw"] in {t.stream_title for t in TRACKS}, title


def test_stations_are_added_listed_and_removed(refrain):
    def radio(*words: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(refrain.binary), "radio", *words], env=refrain.env, capture_output=True,
                              text=True, timeout=20)

    assert radio("list", "--json").stdout.strip() == "[]"
    added = radio("add", "Tones FM", "http://127.0.0.1:9/radio.mp3")
    assert (added.returncode, added.stdout.strip()) == (0, "added station Tones FM"), added
    assert radio("add", "Ambient", "http://127.0.0.1:9/ambient.pls").returncode == 0
    assert json.loads(radio("list", "--json").stdout) == [
        {"name": "Ambient", "url": "http://127.0.0.1:9/ambient.pls"},
        {"name": "Tones FM", "url": "http://127.0.0.1:9/radio.mp3"}]
    assert radio("list").stdout.splitlines() == ["Ambient\thttp://127.0.0.1:9/ambient.pls",
                                                  "Tones FM\thttp://127.0.0.1:9/radio.mp3"]
    assert radio("remove", "tones fm").returncode == 0
    missing = radio("remove", "Tones FM")
    assert missing.returncode == 1 and missing.stderr.strip() == "refrain radio: no station named Tones FM"
    assert [s["name"] for s in json.loads(radio("list", "--json").stdout)] == ["Ambient"]
    refused = radio("add", "Bad", "ftp://127.0.0.1/x")
    assert refused.returncode != 0 and "expected an http(s) URL" in refused.stderr


def test_play_keeps_retrying_a_dead_station_until_sigterm_ends_it(station, refrain):
    run = refrain.start(station.url, "--output", "null", "--events")
    run.wait_for(lambda e: e.kind == "metadata", 15, "the first title")
    station.kill()
    run.wait_for(lambda e: e.kind == "reconnecting" and e["message"] == "connection refused", 20,
                 "a refused reconnection")
    time.sleep(4)
    assert run.proc.poll() is None, "play exited on its own while retrying"
    asked = time.monotonic()
    run.proc.terminate()
    run.proc.wait(5)
    assert time.monotonic() - asked < 2


def test_a_station_queued_with_ctl_after_a_file_starts_with_its_title(station, refrain, tmp_path):
    song = tmp_path / "short.mp3"
    make_mp3(song, RadioTrack("File", "Short", 330, 3))
    socket = tmp_path / "ctl.sock"
    run = refrain.start(str(song), "--output", "null", "--events", "--socket", str(socket))
    run.wait_for(lambda e: e.kind == "start", 15, "the file's start")
    queued = subprocess.run([str(refrain.binary), "ctl", "--socket", str(socket), "queue", "add", station.url],
                            env=refrain.env, capture_output=True, text=True, timeout=10)
    assert queued.returncode == 0, queued.stderr
    start = run.wait_for(lambda e: e.kind == "start" and e["file"] == station.url, 20, "the station's start")
    title = run.wait_for(lambda e: e.kind == "metadata", 10, "the station's title")
    assert title.arrival - start.arrival < 1.0, "the title came late: it was lost while the station was prepared"
    assert ctl_status(refrain, socket)["stream_title"] in {t.stream_title for t in TRACKS}
    run.send("quit")
    run.finish(15)


def test_mpris_metadata_and_a_notification_show_the_title_on_air(refrain_bin, bus, station, tmp_path):  # noqa: F811
    server = start_notification_server(bus)
    proc = None
    try:
        proc = play_headless(refrain_bin, notifying_home(tmp_path), bus.env, station.url)
        by_title = {t.title: t for t in TRACKS}
        deadline = time.monotonic() + 20
        shown = None
        while shown is None and time.monotonic() < deadline:
            note = json.loads(_line(server, "a notification", seconds=max(0.1, deadline - time.monotonic())))
            if note["summary"] in by_title:
                shown = note
        assert shown is not None, "no notification named a title on air"
        track = by_title[shown["summary"]]
        assert shown["body"].startswith(track.artist + " — "), shown
        wait_for(lambda: bus.playerctl("metadata", "xesam:title", check=False) in by_title, "xesam:title")
        title = bus.playerctl("metadata", "xesam:title")
        artist = bus.playerctl("metadata", "xesam:artist")
        assert artist == by_title[title].artist, (title, artist)
    finally:
        for p in (proc, server):
            if p is not None and p.poll() is None:
                p.kill()
                p.wait()
