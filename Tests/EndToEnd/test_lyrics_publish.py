"""`refrain lyrics publish TRACK` against a local fake of LRCLIB's publishing API: a
challenge, a proof of work the fake checks, and the published lyrics it records."""

from __future__ import annotations

import hashlib
import http.server
import json
import os
import subprocess
import threading
from pathlib import Path

import pytest

from room_harness import Track, make_mp3

SYNCED = "[ti:Paper Boats]\n[00:01.00]비가 내리는 밤\n[00:03.50]Rain on the road\n"


class FakeLRCLIB:
    """Issues one fixed challenge (easy: a hash under 0x00ff… takes ~256 tries), checks the
    `X-Publish-Token` proof, and records every published body with its headers."""

    PREFIX = "refrain-test-prefix"
    TARGET = "00ff" + "ff" * 30

    def __init__(self, publish_status: int = 201) -> None:
        self.published: list[tuple[dict, dict]] = []
        self.challenges = 0
        self.refused: list[str] = []
        self.publish_status = publish_status
        fake = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                if self.path == "/api/request-challenge":
                    fake.challenges += 1
                    return self.answer(200, {"prefix": fake.PREFIX, "target": fake.TARGET})
                if self.path == "/api/publish":
                    token = self.headers.get("X-Publish-Token", "")
                    prefix, _, nonce = token.partition(":")
                    digest = hashlib.sha256((prefix + nonce).encode()).digest()
                    if prefix != fake.PREFIX or not nonce.isdigit() or digest > bytes.fromhex(fake.TARGET):
                        fake.refused.append(token)
                        return self.answer(400, {"code": 400, "name": "IncorrectPublishTokenError",
                                                 "message": "The provided publish token is incorrect"})
                    fake.published.append((json.loads(body), dict(self.headers)))
                    return self.answer(fake.publish_status, {} if fake.publish_status < 300 else
                                       {"message": "server trouble"})
                self.answer(404, {"message": "not found"})

            def answer(self, status: int, obj: dict) -> None:
                data = json.dumps(obj).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def song(tmp_path) -> Path:
    path = make_mp3(tmp_path / "music" / "paper-boats.mp3",
                    Track("paper-boats.mp3", "Paper Boats", "Jun Park", "Harbour", 6), tmp_path / "work")
    path.with_suffix(".lrc").write_text(SYNCED, encoding="utf-8")
    return path


def publish(refrain_bin: Path, song: Path, url: str, tmp_path: Path, answer: str | None = "y", *flags: str):
    env = dict(os.environ, REFRAIN_LRCLIB_URL=url, XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_DATA_HOME=str(tmp_path / "data"), XDG_STATE_HOME=str(tmp_path / "state"))
    return subprocess.run([str(refrain_bin), "lyrics", "publish", str(song), *flags], env=env,
                          input=(answer + "\n") if answer is not None else "", capture_output=True,
                          text=True, timeout=60)


def test_publishing_asks_proves_the_work_and_sends_the_track_and_both_lyrics(refrain_bin, song, tmp_path):
    fake = FakeLRCLIB()
    try:
        done = publish(refrain_bin, song, fake.url, tmp_path)
        assert done.returncode == 0, done.stderr
        assert "Publish “Paper Boats” by Jun Park (0:06, 2 lines)" in done.stderr
        assert "Published" in done.stderr
        assert fake.challenges == 1 and fake.refused == []
        (body, headers), = fake.published
        assert body == {
            "trackName": "Paper Boats", "artistName": "Jun Park", "albumName": "Harbour",
            "duration": 6, "plainLyrics": "비가 내리는 밤\nRain on the road", "syncedLyrics": SYNCED,
        }
        assert "Refrain" in headers.get("User-Agent", "")
    finally:
        fake.close()


def test_answering_no_publishes_nothing(refrain_bin, song, tmp_path):
    fake = FakeLRCLIB()
    try:
        done = publish(refrain_bin, song, fake.url, tmp_path, answer="n")
        assert done.returncode == 0, done.stderr
        assert "Not published." in done.stderr
        assert fake.published == [] and fake.challenges == 0
    finally:
        fake.close()


def test_a_refusal_and_missing_lyrics_are_one_clear_line(refrain_bin, song, tmp_path):
    fake = FakeLRCLIB(publish_status=500)
    try:
        done = publish(refrain_bin, song, fake.url, tmp_path, None, "--yes")
        assert done.returncode == 1
        assert done.stderr.strip().splitlines()[-1].startswith("refrain lyrics publish: LRCLIB refused the lyrics: HTTP 500")
        song.with_suffix(".lrc").write_text("plain only\n", encoding="utf-8")
        plain = publish(refrain_bin, song, fake.url, tmp_path, None, "--yes")
        assert plain.returncode == 1 and "is not synced lyrics" in plain.stderr
    finally:
        fake.close()
