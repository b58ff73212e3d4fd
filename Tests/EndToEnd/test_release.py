"""The release binary (`make release`) loads libcurl only when the network is first used.

The release build links the Swift runtime and Foundation in, and `make release` then drops
libcurl from the libraries loaded at start-up: CCurlLoader defines the libcurl functions
URLSession calls and opens libcurl.so.4 on the first one. A player or a scan that never
opens a connection never maps libcurl and its TLS libraries; a search of the online
catalog (a local server on 127.0.0.1 here) still works, and maps it then.
"""

from __future__ import annotations

import http.server
import json
import os
import subprocess
import threading
import uuid
from pathlib import Path

import pytest

from test_ctl import SAMPLE, Player

REPO = Path(__file__).resolve().parents[2]
RELEASE = Path(os.environ.get("REFRAIN_RELEASE_BIN") or REPO / ".build" / "release" / "refrain")
SEARCH = REPO / "Tests" / "Fixtures" / "deezer" / "search_track.json"


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


def maps_libcurl(pid: int) -> bool:
    return "libcurl" in Path(f"/proc/{pid}/maps").read_text()


def test_the_release_binary_does_not_link_libcurl(release):
    libraries = needed(release)
    assert "libsqlite3.so.0" in libraries, libraries
    assert not any(name.startswith("libcurl") for name in libraries), libraries


def test_a_run_without_network_never_maps_libcurl(release, tmp_path):
    player = Player(release, tmp_path, f"refrain-release-{uuid.uuid4().hex[:12]}")
    player.start()
    try:
        assert player.ctl("queue", "add", str(SAMPLE)).stdout.strip() == "ok"
        assert player.ctl("play").returncode == 0
        player.wait_for(lambda: player.status().get("state") == "playing", "playback")
        pid = int(subprocess.run(player.tmux + ["list-panes", "-F", "#{pane_pid}"], capture_output=True,
                                 text=True, check=True).stdout.split()[0])
        assert "refrain" in Path(f"/proc/{pid}/cmdline").read_text()
        assert not maps_libcurl(pid), "libcurl was loaded though nothing used the network"
    finally:
        player.ctl("quit")
        player.stop()


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
