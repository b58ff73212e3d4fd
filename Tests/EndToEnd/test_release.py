"""The release binary (`make release`): libcurl loaded on first use, and a clear error
without it.

The release build links the Swift runtime and Foundation in, and `make release` then drops
libcurl from the libraries loaded at start-up: CCurlLoader defines the libcurl functions
URLSession calls and opens libcurl.so.4 on the first one. A player or a scan that never
opens a connection never maps libcurl and its TLS libraries; a search of the online
catalog (a local server on 127.0.0.1 here) still works, and maps it then. On a machine
without libcurl, the network says so in one line, and the player keeps running.

How the code is laid out and how much stays resident are measured by `make bench`
(docs/benchmarks.md), not checked here.
"""

from __future__ import annotations

import contextlib
import http.server
import json
import os
import shlex
import subprocess
import threading
import time
import uuid
from pathlib import Path

import pytest

from test_ctl import SAMPLE, Player

REPO = Path(__file__).resolve().parents[2]
RELEASE = Path(os.environ.get("REFRAIN_RELEASE_BIN") or REPO / ".build" / "release" / "refrain")
SEARCH = REPO / "Tests" / "Fixtures" / "deezer" / "search_track.json"
ORDER = REPO / "scripts" / "refrain.order"
DEMO_TRACK = REPO / "Resources" / "demo" / "tracks" / "one-umbrella.mp3"


@pytest.fixture(scope="module")
def release() -> Path:
    if not RELEASE.exists():
        pytest.fail(f"no release binary at {RELEASE}: run `make release` (make test does)", pytrace=False)
    return RELEASE


@pytest.fixture
def catalog():
    """Answers every request with the recorded track search."""
    body = SEARCH.read_bytes()
    paths: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            paths.append(self.path)
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/", paths
    httpd.shutdown()
    httpd.server_close()


def env(tmp_path: Path, **extra: str) -> dict[str, str]:
    e = dict(os.environ, LANG="C.UTF-8")
    for var in ("XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
        e[var] = str(tmp_path / var.lower())
    e.update(extra)
    return e


def needed(binary: Path) -> list[str]:
    out = subprocess.run(["readelf", "-d", str(binary)], capture_output=True, text=True, check=True).stdout
    return [line.split("[")[1].rstrip("]") for line in out.splitlines() if "(NEEDED)" in line]


def pane_pid(player: Player) -> int:
    pid = int(subprocess.run(player.tmux + ["list-panes", "-F", "#{pane_pid}"], capture_output=True,
                             text=True, check=True).stdout.split()[0])
    assert "refrain" in Path(f"/proc/{pid}/cmdline").read_text()
    return pid


def test_the_release_binary_does_not_load_libcurl_at_start(release):
    libraries = needed(release)
    assert "libsqlite3.so.0" in libraries, libraries
    assert not any(name.startswith("libcurl") for name in libraries), libraries


def test_the_release_binary_leaves_glib_to_the_mpris_plugin(release):
    """GIO, GObject and GLib come only with librefrain-mpris.so, which needs no Swift runtime."""
    libraries = needed(release)
    assert not any(name.startswith(("libgio", "libgobject", "libglib")) for name in libraries), libraries
    plugin = needed(release.parent / "librefrain-mpris.so")
    assert "libgio-2.0.so.0" in plugin, plugin
    assert not any("swift" in name for name in plugin), plugin


@contextlib.contextmanager
def playing(release: Path, home: Path, track: Path):
    """The release player in tmux, playing `track`."""
    player = Player(release, home, f"refrain-release-{uuid.uuid4().hex[:12]}")
    player.start()
    try:
        assert player.ctl("queue", "add", str(track)).stdout.strip() == "ok"
        assert player.ctl("play").returncode == 0
        player.wait_for(lambda: player.status().get("state") == "playing", "playback")
        yield player
    finally:
        player.ctl("quit")
        player.stop()


def test_a_run_without_network_never_maps_libcurl(release, tmp_path):
    with playing(release, tmp_path, SAMPLE) as player:
        maps = Path(f"/proc/{pane_pid(player)}/maps").read_text()
        assert "libcurl" not in maps, "libcurl was loaded though nothing used the network"


def test_an_online_search_loads_libcurl_and_works(release, catalog, tmp_path):
    url, paths = catalog
    result = subprocess.run([str(release), "search", "--provider", "deezer", "--json", "love"],
                            env=env(tmp_path, REFRAIN_DEEZER_URL=url), capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    expected = json.loads(SEARCH.read_text())["data"]
    assert [r["title"] for r in found][:3] == [t["title"] for t in expected][:3], found[:3]
    assert any(p.startswith("/search") for p in paths), paths


LIBCURL = Path("/usr/lib/x86_64-linux-gnu/libcurl.so.4")


def without_libcurl(command: str) -> list[str]:
    """`command` in a mount namespace where libcurl.so.4 is an empty file (needs root)."""
    target = LIBCURL.resolve()
    return ["unshare", "--mount", "--propagation", "private", "sh", "-c",
            f"mount --bind /dev/null {target} && exec {command}"]


def test_without_libcurl_a_search_says_so_in_one_line(release, catalog, tmp_path):
    url, paths = catalog
    assert LIBCURL.exists(), f"{LIBCURL} is not installed: make test installs libcurl4-openssl-dev"
    result = subprocess.run(without_libcurl(f"{release} search --provider deezer --json love"),
                            env=env(tmp_path, REFRAIN_DEEZER_URL=url), capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 1, (result.returncode, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "needs libcurl" in lines[0] and "install libcurl4" in lines[0], result.stderr
    assert paths == [], "no request can have been sent"


def test_without_libcurl_the_player_shows_the_error_and_keeps_running(release, catalog, tmp_path):
    url, _ = catalog
    player = Player(release, tmp_path, f"refrain-nocurl-{uuid.uuid4().hex[:12]}")
    player.env["REFRAIN_DEEZER_URL"] = url
    exports = " ".join(f"{k}={v}" for k, v in player.env.items() if k.startswith(("XDG_", "REFRAIN_", "LANG", "TERM")))
    command = without_libcurl(f"env {exports} {release} --output null --provider deezer")
    subprocess.run(player.tmux + ["new-session", "-d", "-x", "100", "-y", "30", shlex.join(command)],
                   check=True)
    try:
        def screen() -> str:
            return subprocess.run(player.tmux + ["capture-pane", "-p"], capture_output=True, text=True).stdout

        player.wait_for(lambda: "needs libcurl" in screen(), "the libcurl message on screen")
        assert player.ctl("status").returncode == 0, "the player answers after the error"
        subprocess.run(player.tmux + ["send-keys", "2"], check=True)
        player.wait_for(lambda: player.status().get("pane") == "search", "the keys to keep working")
    finally:
        player.ctl("quit")
        player.stop()
