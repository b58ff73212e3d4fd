"""Secrets stay in their files: a room token never reaches a command line, and a stream URL
that carries a login is shown redacted wherever a failure is reported.

- `refrain room join` hands the token to its `refrain-room link` helper through the
  environment: no process's command line (what `ps -eo args` shows) holds it.
- A Subsonic-style stream URL (`t` and `s` in its query) that fails with a 404 or a 401 is
  reported on stderr, in `--events` and in `ctl status`'s `last_error` with the server and
  path kept and `t=REDACTED&s=REDACTED`.
"""

from __future__ import annotations

import http.server
import json
import os
import subprocess
import threading
import time
from pathlib import Path

import pytest

from room_harness import JoinedMember, RoomServer, Track, make_library

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "Resources" / "sample" / "refrain-sample.mp3"
TOKEN = "48d84223f00dfeed"
SALT = "25e8587abad5a17e"


def command_lines() -> list[str]:
    """Every process's command line, as `ps -eo args` shows it."""
    lines = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                lines.append((entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace"))
            except OSError:
                pass
    return lines


def test_the_room_token_is_on_no_command_line(refrain_bin, tmp_path):
    library = make_library(tmp_path / "lib", [Track("Sea/Tide.mp3", "Tide Song", "Jun", "Sea", 40, 330)])
    server = RoomServer(refrain_bin, tmp_path / "server", [library], heartbeat=1)
    server.start()
    member = JoinedMember(refrain_bin, tmp_path / "mina", server.url + "/rooms/den", server.token, "Mina")
    try:
        member.wait("joined", timeout=20)
        links = [line for line in command_lines() if "refrain-room" in line and " link " in line]
        assert links, "the link helper is running"
        leaking = [line for line in command_lines() if server.token in line]
        assert not leaking, leaking
    finally:
        member.close()
        server.stop()


class Refusing(http.server.BaseHTTPRequestHandler):
    """Answers every stream request with the status its path names (`/404/…`, `/401/…`)."""

    def do_GET(self) -> None:  # noqa: N802 (the http.server interface)
        status = int(self.path.split("/")[1])
        body = b'{"error":"no"}'
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def refusing_server():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Refusing)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.mark.parametrize("status", [404, 401])
def test_a_failed_stream_is_reported_without_its_login(refrain_bin, tmp_path, refusing_server, status):
    url = f"{refusing_server}/{status}/rest/stream.view?u=ann&t={TOKEN}&s={SALT}&v=1.16.1&c=refrain&id=7"
    socket = tmp_path / "run" / "ctl.sock"
    socket.parent.mkdir(mode=0o700)
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"), XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_STATE_HOME=str(tmp_path / "state"), XDG_CACHE_HOME=str(tmp_path / "cache"),
               XDG_RUNTIME_DIR=str(tmp_path / "run"))
    proc = subprocess.Popen([str(refrain_bin), "play", "--output", "null", "--events", "--socket", str(socket),
                             url, str(SAMPLE)],
                            env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        deadline = time.monotonic() + 15
        status_line = {}
        while time.monotonic() < deadline:
            asked = subprocess.run([str(refrain_bin), "ctl", "--socket", str(socket), "status"], env=env,
                                   capture_output=True, text=True, timeout=10)
            if asked.returncode == 0:
                status_line = json.loads(asked.stdout)
                if status_line.get("last_error"):
                    break
            time.sleep(0.1)
        assert status_line.get("last_error"), status_line
        last_error = status_line["last_error"]
        assert "/rest/stream.view" in last_error and "t=REDACTED&s=REDACTED" in last_error, last_error
        log = tmp_path / "state" / "refrain" / "refrain.log"
        out, err = proc.communicate("quit\n", timeout=15)
        shown = {"ctl status": json.dumps(status_line), "--events": out, "stderr": err,
                 "log": log.read_text() if log.exists() else ""}
        assert "REDACTED" in out + err, shown
        for where, text in shown.items():
            assert TOKEN not in text and SALT not in text, f"the login is in {where}: {text}"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)
