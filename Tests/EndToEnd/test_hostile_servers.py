"""Servers that lie, flood or die (issue 35): every reproducer against the real binary.

- An Ogg Vorbis URL whose server claims 999999999999999 bytes (or a 206 with a total of
  2^63-1) and sends the real few KiB: `refrain play` ends with one error line within
  seconds instead of spinning a core, and `stop` on stdin is obeyed.
- A 50 MB `search3` answer is refused with one line naming the cap, and memory stays small.
- Synced lyrics with `"start": 1e19` and `"offset": 1e19` do not crash the player: it shows
  the lines it could read.
- A live stream that drops right after connecting is asked again less and less often.
- A 100,000-line M3U is read up to its cap, in whole lines, with one line saying so.
- A stream whose server dies mid-song shows `stalled` in `ctl status` within 2 s, and
  `ctl seek 30` is refused with the reason (exit 1).

All servers are on 127.0.0.1 (range_server.py's hostile paths, or a small fake Subsonic
server here).
"""

from __future__ import annotations

import http.server
import json
import os
import subprocess
import threading
import time
import urllib.parse
from pathlib import Path

import pytest

from harness import assert_events_only
from range_server import FixtureServer


def tiny_ogg(folder: Path) -> Path:
    """A half-second Ogg Vorbis tone of a few KiB, made by sox and oggenc."""
    wav, ogg = folder / "tiny.wav", folder / "tiny.ogg"
    subprocess.run(["sox", "-n", "-r", "22050", "-c", "1", "-b", "16", str(wav), "synth", "0.5",
                    "sine", "440"], check=True)
    subprocess.run(["oggenc", "-Q", "-q", "0", "-o", str(ogg), str(wav)], check=True)
    assert ogg.stat().st_size < 16_384, ogg.stat().st_size
    return ogg


@pytest.fixture
def hostile(tmp_path, fixtures_dir):
    folder = tmp_path / "served"
    folder.mkdir()
    tiny_ogg(folder)
    for name in ("steps.mp3", "tone440.mp3"):
        (folder / name).write_bytes((fixtures_dir / name).read_bytes())
    server = FixtureServer(folder)
    yield server
    server.close()


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# ---------------------------------------------------------------- a lying length

@pytest.mark.parametrize("kind", ["liar", "liar206", "liar206big"])
def test_a_vorbis_url_with_a_lying_length_is_one_error_line_within_seconds(kind, refrain, hostile):
    url = f"http://127.0.0.1:{hostile.port}/{kind}/tiny.ogg"
    run = refrain.start(url, "--output", "null", "--events")
    run.finish(timeout=8)
    assert run.returncode != 0, run.summary()
    assert_events_only(run)
    errors = run.of("error")
    assert errors and url in str(errors[-1]["message"]), run.summary()
    lines = [ln for ln in run.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and url in lines[0], run.stderr
    assert run.elapsed < 6, f"took {run.elapsed:.1f} s"


def test_stop_on_stdin_ends_a_play_that_opens_a_lying_server(refrain, hostile):
    # The file's head arrives, then nothing more: the opening waits on the server.
    (Path(hostile.root) / "head.ogg").write_bytes((Path(hostile.root) / "tiny.ogg").read_bytes()[:200])
    url = f"http://127.0.0.1:{hostile.port}/stallfile/head.ogg"
    run = refrain.start(url, "--output", "null", "--events")
    time.sleep(1.5)
    assert run.proc.poll() is None, run.summary()
    used = cpu_seconds(run.proc.pid)
    sent = run.send("stop")
    run.finish(timeout=20)  # from the start
    assert run.ended - sent < 2.5, f"stop took {run.ended - sent:.1f} s"
    assert used < 1.0, f"{used:.2f} s of CPU while waiting for the server"


def test_a_lying_length_does_not_pin_a_core(refrain, hostile):
    url = f"http://127.0.0.1:{hostile.port}/liar206big/tiny.ogg"
    run = refrain.start(url, "--output", "null", "--events")
    pid = run.proc.pid
    used = 0.0
    try:
        time.sleep(1.0)
        if run.proc.poll() is None:
            used = cpu_seconds(pid)
    except FileNotFoundError:
        pass
    run.finish(timeout=8)
    assert used < 0.9, f"{used:.2f} s of CPU in its first second"


# ---------------------------------------------------------------- a 100,000-line playlist

def test_a_100000_line_m3u_is_read_up_to_its_cap_in_whole_lines(refrain, tmp_path):
    playlist = tmp_path / "big.m3u"
    playlist.write_text("".join(f"/nowhere/music/dir/track-{n:06d}.mp3\n" for n in range(1, 100_001)))
    run = refrain.play(str(playlist), "--output", "null", "--events", timeout=60)
    assert run.returncode != 0, run.summary()
    lines = [ln for ln in run.stderr.splitlines() if ln.strip()]
    cap = [ln for ln in lines if "a playlist is read up to" in ln]
    assert len(cap) == 1, run.stderr[-2000:]
    assert "first 10000 entries" in cap[0], cap[0]
    error = run.of("error")[-1]["message"]
    assert "none of its 10000 entries played" in error, error
    # The last entry tried is a whole line, never a cut one (`/de`).
    assert "track-010000.mp3" in error, error


# ---------------------------------------------------------------- reconnecting

def test_a_stream_that_drops_right_after_connecting_is_asked_again_less_and_less(refrain, hostile):
    url = f"http://127.0.0.1:{hostile.port}/icydrop/4000/steps.mp3"
    run = refrain.start(url, "--output", "null", "--events")
    time.sleep(20)
    run.send("stop")
    run.finish(timeout=35)  # from the start
    connections = [t for t in hostile.transfers if t.path.startswith("/icydrop/")]
    waits = [e["retry_in"] for e in run.of("reconnecting")]
    print(f"connections in 20 s: {len(connections)}; waits: {waits}")
    assert 4 <= len(connections) <= 9, len(connections)
    assert waits[:5] == [0.5, 1, 2, 4, 8], waits


# ---------------------------------------------------------------- a stalled stream

def ctl(refrain, socket_path: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(refrain.binary), "ctl", "--socket", str(socket_path), *args],
                          env=refrain.env, capture_output=True, text=True, timeout=10)


def test_a_server_that_dies_mid_song_is_stalled_in_status_within_2_s_and_seek_is_refused(
        refrain, hostile, tmp_path):
    socket_path = tmp_path / "play.sock"
    # steps.mp3 is 16 kB of audio a second: at 24 kB/s it arrives a little ahead.
    url = f"http://127.0.0.1:{hostile.port}/slow/24000/steps.mp3"
    run = refrain.start(url, "--output", "null", "--events", "--socket", str(socket_path))
    run.wait_position(4.0, timeout=15)
    hostile.close()
    killed = time.monotonic()
    samples = []
    stalled_at = None
    while time.monotonic() - killed < 20:
        status = ctl(refrain, socket_path, "status")
        assert status.returncode == 0, status.stderr
        doc = json.loads(status.stdout)
        now = time.monotonic()
        samples.append((now - killed, doc["state"], doc["position"]))
        if doc["state"] == "stalled":
            stalled_at = now
            break
        time.sleep(0.1)
    assert stalled_at, samples
    assert doc.get("stall_reason"), doc
    # The position stopped moving at most 2 s before the status said so.
    final = samples[-1][2]
    frozen_since = min(t for t, _, p in samples if abs(p - final) < 0.05)
    assert samples[-1][0] - frozen_since <= 2.0, samples
    seek = ctl(refrain, socket_path, "seek", "30")
    assert seek.returncode == 1, (seek.returncode, seek.stdout, seek.stderr)
    assert "stalled" in (seek.stdout + seek.stderr), seek.stderr
    assert doc["stall_reason"] in (seek.stdout + seek.stderr), (doc, seek.stderr)
    if run.proc.poll() is None:
        try:
            run.send("stop")
        except BrokenPipeError:
            pass
    run.finish(timeout=90)  # from the start


# ---------------------------------------------------------------- a hostile Subsonic server

class FakeSubsonic:
    """Just enough of a Subsonic server: login, a huge `search3` (or a small one), one song
    whose synced lyrics hold numbers no time can be, and its stream."""

    def __init__(self, song: Path, search_bytes: int = 0):
        self.song = song
        self.search_bytes = search_bytes
        self.requests: list[str] = []
        fake = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):
                pass

            def do_GET(self):
                fake._answer(self)

        class Server(http.server.ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request, client_address):
                pass

        self.httpd = Server(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05},
                         daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    @staticmethod
    def ok(**body) -> bytes:
        return json.dumps({"subsonic-response": {"status": "ok", "version": "1.16.1",
                                                 "type": "fake", "openSubsonic": True, **body}}).encode()

    SONG = {"id": "7", "title": "Huge Numbers", "artist": "Liar", "album": "Overflow",
            "albumId": "70", "duration": 20, "track": 1, "suffix": "mp3", "isDir": False}

    def _answer(self, h) -> None:
        parts = urllib.parse.urlsplit(h.path)
        method = parts.path.rsplit("/", 1)[-1].removesuffix(".view")
        self.requests.append(method)
        if method == "stream":
            data = self.song.read_bytes()
            h.send_response(200)
            h.send_header("Content-Type", "audio/mpeg")
            h.send_header("Content-Length", str(len(data)))
            h.end_headers()
            h.wfile.write(data)
            return
        if method == "search3" and self.search_bytes:
            # A valid answer padded to search_bytes, sent without a length.
            h.send_response(200)
            h.send_header("Content-Type", "application/json")
            h.send_header("Connection", "close")
            h.end_headers()
            h.close_connection = True
            head = b'{"subsonic-response":{"status":"ok","version":"1.16.1","searchResult3":{"song":['
            song = json.dumps(self.SONG).encode() + b","
            try:
                h.wfile.write(head)
                sent = len(head)
                chunk = song * 1000
                while sent < self.search_bytes:
                    h.wfile.write(chunk)
                    sent += len(chunk)
                h.wfile.write(json.dumps(self.SONG).encode() + b"]}}}")
            except (BrokenPipeError, ConnectionResetError):
                pass
            return
        if method == "getOpenSubsonicExtensions":
            body = self.ok(openSubsonicExtensions=[{"name": "songLyrics", "versions": [1]}])
        elif method == "search3":
            body = self.ok(searchResult3={"song": [self.SONG]})
        elif method == "getAlbumList2":
            body = self.ok(albumList2={"album": [{"id": "70", "name": "Overflow", "artist": "Liar",
                                                 "songCount": 1}]})
        elif method == "getAlbum":
            body = self.ok(album={"id": "70", "name": "Overflow", "artist": "Liar", "songCount": 1,
                                  "song": [self.SONG]})
        elif method == "getSong":
            body = self.ok(song=self.SONG)
        elif method == "getLyricsBySongId":
            body = self.ok(lyricsList={"structuredLyrics": [
                {"lang": "eng", "synced": True, "offset": 1e19, "line": [
                    {"start": 0, "value": "Readable one"},
                    {"start": 1e19, "value": "Never sung"},
                    {"start": 3000, "value": "Readable two"}]},
                {"lang": "xxx", "synced": True, "offset": -1e19, "line": [
                    {"start": 1e19, "value": "Jamais"}]}]})
        else:
            body = self.ok()
        h.send_response(200)
        h.send_header("Content-Type", "application/json")
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.write(body)


def subsonic_login(binary: Path, env: dict, server: FakeSubsonic) -> None:
    run = subprocess.run([str(binary), "subsonic", "login", server.url, "--user", "ann",
                          "--password-stdin"], env=env, input="secret\n", capture_output=True,
                         text=True, timeout=30)
    assert run.returncode == 0, run.stdout + run.stderr


def vm_hwm_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def test_a_50_mb_search3_answer_is_refused_naming_the_cap_and_memory_stays_small(
        refrain, fixtures_dir):
    server = FakeSubsonic(fixtures_dir / "tone440.mp3", search_bytes=50_000_000)
    try:
        subsonic_login(refrain.binary, refrain.env, server)
        proc = subprocess.Popen([str(refrain.binary), "search", "Huge", "--provider", "subsonic",
                                 "--json"], env=refrain.env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        peak = 0
        while proc.poll() is None:
            try:
                peak = max(peak, vm_hwm_kib(proc.pid))
            except (FileNotFoundError, ProcessLookupError):
                break
            time.sleep(0.02)
        out, err = proc.communicate(timeout=30)
        print(f"peak RSS (VmHWM) with a 50 MB search3 answer: {peak / 1024:.1f} MiB")
        assert proc.returncode != 0, out[:200]
        lines = [ln for ln in (out + err).splitlines() if ln.strip()]
        assert len(lines) == 1, out[:500] + err
        assert "16 MiB" in lines[0], lines[0]
        assert peak < 80 * 1024, f"peak RSS {peak / 1024:.1f} MiB"
    finally:
        server.close()


def test_synced_lyrics_with_1e19_times_keep_the_player_running_with_the_readable_lines(
        refrain_bin, tmp_path, fixtures_dir):
    from test_tui import TUI

    server = FakeSubsonic(fixtures_dir / "steps.mp3")
    tui = TUI(refrain_bin, tmp_path / "tui-home", "subsonic-huge-lyrics")
    try:
        subsonic_login(refrain_bin, tui.run_env(), server)
        tui.start("--provider", "subsonic", "--output", "null")
        tui.wait_for(lambda s: s if "Recently added" in s or "Overflow" in s else None,
                     "the Home pane", timeout=15)
        tui.keys("/")
        tui.type("Huge")
        tui.keys("Enter")
        tui.wait_for(lambda _: (tui.selected_row() or "").startswith("♪ Huge Numbers"),
                     "the song selected", timeout=10)
        tui.keys("Enter")
        env = tui.run_env()
        seen = set()
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and not {"Readable one", "Readable two"} <= seen:
            status = subprocess.run([str(refrain_bin), "ctl", "status"], env=env,
                                    capture_output=True, text=True, timeout=10)
            assert status.returncode == 0, f"the player is gone: {status.stderr}; {tui.stderr()}"
            doc = json.loads(status.stdout)
            if doc.get("line"):
                seen.add(doc["line"])
            time.sleep(0.2)
        assert {"Readable one", "Readable two"} <= seen, seen
        assert "Never sung" not in seen and "Jamais" not in seen, seen
        assert "getLyricsBySongId" in server.requests, server.requests
    finally:
        tui.close()
        server.close()
