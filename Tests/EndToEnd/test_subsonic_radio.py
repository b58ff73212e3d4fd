"""The Subsonic server's own internet radio stations (`getInternetRadioStations`), played.

supysonic keeps stations in its database; one is stored there pointing at a real Icecast
mount (icecast_harness.py). Under `--provider subsonic`, Home lists "Radio stations";
Enter on the station plays the stream from its own address, and the title on air reaches
`ctl status`.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import time

import pytest

from subsonic_harness import SubsonicServer
from test_radio import TRACKS, station  # noqa: F401  (station: a fixture, a real Icecast mount)
from test_subsonic import tui_login


@pytest.fixture
def supysonic_with_station(tmp_path_factory, station):
    server = SubsonicServer(tmp_path_factory.mktemp("supysonic-radio")).start()
    with sqlite3.connect(server.data / "supysonic.db") as db:
        db.execute("INSERT INTO radio_station (stream_url, name, homepage_url, created) "
                   "VALUES (?, 'Harbour FM', NULL, '2026-01-01 00:00:00')", (station.url,))
    yield server
    server.stop()


def test_a_station_on_the_server_is_listed_on_home_and_plays_with_its_title(refrain_bin, tmp_path,
                                                                           supysonic_with_station):
    from test_tui import TUI  # the tmux driver of test_tui.py

    tui = TUI(refrain_bin, tmp_path / "tui-home", "subsonic")
    try:
        tui_login(tui, supysonic_with_station)
        tui.start("--provider", "subsonic", "--output", "null")
        screen = tui.wait_text("Radio stations", timeout=15)
        assert "Harbour FM" in screen, screen
        for _ in range(40):
            if "Harbour FM" in (tui.selected_row() or ""):
                break
            tui.keys("j")
            time.sleep(0.05)
        assert "Harbour FM" in (tui.selected_row() or ""), tui.screen()
        tui.keys("Enter")

        def status() -> dict:
            answer = subprocess.run([str(tui.binary), "ctl", "status"], env=tui.run_env(),
                                    capture_output=True, text=True, timeout=10)
            return json.loads(answer.stdout) if answer.returncode == 0 else {}

        titles = {t.stream_title for t in TRACKS}
        deadline = time.monotonic() + 30
        seen = {}
        while time.monotonic() < deadline:
            seen = status()
            if seen.get("stream_title") in titles and seen.get("state") == "playing":
                break
            time.sleep(0.3)
        assert seen.get("stream_title") in titles and seen.get("state") == "playing", seen
    finally:
        tui.close()
