"""The demo catalog from an installed Refrain, far from the source tree.

`scripts/install-refrain` (what `make install` runs) copies the built binary and its
resources into a fresh prefix under /tmp. Run from there, with no REFRAIN_RESOURCES and
the working directory elsewhere, Refrain must find its demo catalog beside the binary:
search it in English and Korean, open Home on it, and play a demo track with its lyrics.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from test_tui import TUI

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def installed(refrain_bin, tmp_path) -> Path:
    prefix = tmp_path / "prefix"
    done = subprocess.run([str(REPO / "scripts" / "install-refrain"), str(refrain_bin), str(prefix)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    binary = prefix / "bin" / "refrain"
    assert REPO not in binary.resolve().parents
    return binary


def clean_env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "REFRAIN_RESOURCES"}
    env.update(LANG="C.UTF-8", XDG_DATA_HOME=str(tmp_path / "data"), XDG_CACHE_HOME=str(tmp_path / "cache"),
               XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_STATE_HOME=str(tmp_path / "state"))
    return env


def search(binary: Path, query: str, tmp_path: Path, kind: str = "track") -> list[dict]:
    result = subprocess.run([str(binary), "search", "--provider", "demo", "--type", kind, "--json", query],
                            capture_output=True, text=True, timeout=30, cwd="/", env=clean_env(tmp_path))
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines() if line.strip()] \
        if not result.stdout.lstrip().startswith("[") else json.loads(result.stdout)


def test_installed_binary_searches_its_demo_catalog(installed, tmp_path):
    english = search(installed, "static", tmp_path)
    assert [r["title"] for r in english][:1] == ["Refrain in the Static"], english
    assert english[0]["playable"] is True
    korean = search(installed, "우산", tmp_path)
    assert "우산 하나" in [r["title"] for r in korean], korean
    albums = search(installed, "밤", tmp_path, kind="album")
    assert albums, "no demo album matched 밤"


def test_installed_binary_plays_a_demo_track_with_its_lyrics(installed, tmp_path):
    track = installed.parent.parent / "share" / "refrain" / "demo" / "tracks" / "one-umbrella.mp3"
    result = subprocess.run([str(installed), "play", str(track), "--output", "null", "--events",
                             "--duration", "10.5"], capture_output=True, text=True, timeout=30, cwd="/",
                            env=clean_env(tmp_path), stdin=subprocess.DEVNULL)
    assert result.returncode == 0, result.stderr
    events = [json.loads(line) for line in result.stdout.splitlines()]
    lines = [(e["index"], e["text"], e["t"]) for e in events
             if e.get("event") == "line" and isinstance(e.get("index"), int) and e["index"] >= 0]
    assert [(i, text) for i, text, _ in lines] == [(0, "비가 내리는 버스 정류장"), (1, "우산 하나에 두 사람")], events
    assert [t for _, _, t in lines] == pytest.approx([5.45, 9.55], abs=0.1)


def test_installed_binary_opens_home_on_the_demo_catalog(installed, tmp_path):
    tui = TUI(installed, tmp_path / "home", "installed")
    try:
        tui.env.pop("REFRAIN_RESOURCES", None)
        tui.start("--output", "null")
        screen = tui.wait_text("New releases")
        for section in ("Featured playlists", "Top tracks"):
            assert section in screen, screen
        assert "Refrain · demo" in screen
    finally:
        tui.close()


def test_installed_binary_finds_its_mpris_plugin(installed, tmp_path):
    """The plugin is installed in PREFIX/lib/refrain; the installed player is on the bus."""
    from test_mpris import BUS_NAME, Bus, wait_for

    assert (installed.parent.parent / "lib" / "refrain" / "librefrain-mpris.so").is_file()
    bus = Bus(tmp_path / "dbus")
    track = installed.parent.parent / "share" / "refrain" / "demo" / "tracks" / "one-umbrella.mp3"
    env = dict(clean_env(tmp_path), DBUS_SESSION_BUS_ADDRESS=bus.address)
    proc = subprocess.Popen([str(installed), "play", str(track), "--output", "null", "--duration", "20"],
                            env=env, cwd="/", stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    try:
        wait_for(lambda: BUS_NAME in bus.names(), "the installed Refrain on the bus")
        assert bus.playerctl("status") == "Playing"
    finally:
        proc.terminate()
        proc.wait(10)
        bus.close()
    log = (tmp_path / "state" / "refrain" / "refrain.log").read_text()
    assert "MPRIS off" not in log, log


def test_installed_binary_serves_a_room_with_its_helper(installed, tmp_path):
    """`refrain room serve` finds refrain-room in PREFIX/lib/refrain and serves."""
    helper = installed.parent.parent / "lib" / "refrain" / "refrain-room"
    assert helper.is_file() and os.access(helper, os.X_OK)
    library = installed.parent.parent / "share" / "refrain" / "demo" / "tracks"
    proc = subprocess.Popen([str(installed), "room", "serve", "--listen", "127.0.0.1:0", "--library", str(library)],
                            env=clean_env(tmp_path), cwd="/", stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        line = json.loads(proc.stdout.readline())
        assert line["event"] == "listening" and line["url"].startswith("ws://127.0.0.1:"), line
        port = line["url"].rsplit(":", 1)[1]
        import urllib.request
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/library?token={line['token']}", timeout=10) as answer:
            tracks = json.loads(answer.read())["tracks"]
        assert "one-umbrella.mp3" in [t["path"] for t in tracks], tracks
    finally:
        proc.terminate()
        assert proc.wait(10) == 0
