"""The release binary (`make release`): libcurl loaded on first use, and a compact layout.

The release build links the Swift runtime and Foundation in, and `make release` then drops
libcurl from the libraries loaded at start-up: CCurlLoader defines the libcurl functions
URLSession calls and opens libcurl.so.4 on the first one. A player or a scan that never
opens a connection never maps libcurl and its TLS libraries; a search of the online
catalog (a local server on 127.0.0.1 here) still works, and maps it then.

libstdc++ is linked in as well, and lld lays out the functions a listening session runs
(scripts/refrain.order) together at the start of the code, so a playing player keeps few of
the binary's pages resident.
"""

from __future__ import annotations

import contextlib
import http.server
import json
import os
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


def text_section(binary: Path) -> tuple[int, int]:
    out = subprocess.run(["readelf", "-SW", str(binary)], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        fields = line.replace("[ ", "[").split()
        if len(fields) > 5 and fields[1] == ".text":
            return int(fields[3], 16), int(fields[5], 16)
    raise AssertionError("no .text section")


def test_the_release_binary_needs_neither_libcurl_nor_libstdcxx(release):
    libraries = needed(release)
    assert "libsqlite3.so.0" in libraries, libraries
    assert not any(name.startswith("libcurl") for name in libraries), libraries
    assert not any(name.startswith("libstdc++") for name in libraries), libraries


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
        assert "libstdc++" not in maps, "libstdc++ is linked in, yet the shared one was loaded too"


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


def test_the_functions_a_session_runs_are_laid_out_together(release):
    listed = [line.strip() for line in ORDER.read_text().splitlines() if line.strip() and not line.startswith("#")]
    symbols: dict[str, int] = {}
    out = subprocess.run(["nm", "--defined-only", str(release)], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[1] in "tTwW":
            symbols.setdefault(fields[2], int(fields[0], 16))
    found = [symbols[name] for name in listed if name in symbols]
    assert len(found) >= 0.9 * len(listed), (
        f"only {len(found)} of the {len(listed)} functions in {ORDER.name} are left in the binary: "
        "regenerate it with `make order-file`")
    start, size = text_section(release)
    front = sum(1 for address in found if address - start < 0.6 * size)
    # Unordered, 84% were: the toolchain's libraries come first, Refrain's own code last.
    assert front >= 0.97 * len(found), f"{len(found) - front} of {len(found)} listed functions lie outside the front"


def test_a_player_playing_with_lyrics_keeps_little_resident(release, tmp_path):
    with playing(release, tmp_path, DEMO_TRACK) as player:
        subprocess.run(player.tmux + ["send-keys", "4", "l"], check=True)
        player.wait_for(lambda: "Lyrics —" in subprocess.run(player.tmux + ["capture-pane", "-p"], capture_output=True,
                                                           text=True).stdout, "the lyrics view")
        time.sleep(3)
        status = Path(f"/proc/{pane_pid(player)}/status").read_text()
        rss_kib = int(status.split("VmRSS:")[1].split()[0])
        # About 22.5 MiB as `make release` links it, 31.5 MiB before (docs/DECISIONS.md).
        assert rss_kib <= 28 * 1024, f"VmRSS {rss_kib / 1024:.1f} MiB while playing with the lyrics view open"
