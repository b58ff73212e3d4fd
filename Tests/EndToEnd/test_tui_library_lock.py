"""The full-screen player keeps answering while another process holds the library's write lock.

A full-screen Refrain runs in tmux (see test_tui.py) on the demo catalog, playing a track.
The test takes the library file's write lock from Python (`BEGIN EXCLUSIVE`, as a long
`refrain scan` would hold it) and then makes edits that must wait for it: a new playlist
from the Library pane, a search (remembered as a recent search), and a
`refrain ctl playlist create`. While the lock is held, every key still changes the screen
within half a second, the clock keeps moving, `ctl status` answers, the ctl edit is not
acknowledged and nothing claims to be stored. Once the lock is released (well inside the
library's 10 s busy timeout) the new playlists show up, the ctl edit is acknowledged and
every edit is in the file.
"""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import time

import pytest

from test_tui import TUI, search_and_select, tui_factory  # noqa: F401

# Runs alone (scripts/e2e): it measures how soon a key's effect is on screen.
pytestmark = pytest.mark.serial

ANSWER_WITHIN = 0.5  # seconds from a key to the screen showing its effect


def position(tui: TUI) -> float:
    """The now-playing position in whole seconds (-1 while the line shows none)."""
    playing = tui.now_playing()
    return playing[1] if playing else -1


def answered(tui: TUI, keys: list[str], check, what: str) -> float:
    """Sends `keys` and returns how long the screen took to satisfy `check` (fails past 5 s)."""
    start = time.monotonic()
    tui.keys(*keys)
    tui.wait_for(check, what, timeout=5)
    return time.monotonic() - start


def test_the_screen_answers_while_the_library_is_locked(tui_factory, refrain_bin):
    tui = tui_factory("lock").start("--output", "null")
    tui.wait_text("Top tracks", timeout=15)
    tui.keys("3")
    tui.wait_settled("+ New playlist (c)")
    assert "Playlists (loading…)" not in tui.screen(), "the first read of the library finished"
    search_and_select(tui, "우산", "♪ 우산 하나")
    tui.keys("Enter")
    tui.wait_for(lambda _: (np := tui.now_playing()) and np[0].startswith("우산 하나"), "우산 하나 playing")

    database = tui.home / "xdg_data_home" / "refrain" / "library.sqlite"
    lock = sqlite3.connect(database, isolation_level=None, timeout=10)
    ctl_edit = None
    try:
        lock.execute("BEGIN EXCLUSIVE")
        locked_at = time.monotonic()
        started = position(tui)

        # An edit that waits for the lock, made the way a user makes it.
        tui.keys("3")
        tui.wait_settled("+ New playlist (c)")
        tui.keys("c")
        tui.wait_text("New playlist name: ▏")
        tui.type("잠금 노래")
        tui.wait_text("New playlist name: 잠금 노래▏")
        tui.keys("Enter")
        ctl_edit = subprocess.Popen([str(refrain_bin), "ctl", "playlist", "create", "ctl 목록"],
                                    env=tui.run_env(), stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True)

        # Every key answers at once while that edit waits.
        slowest = {
            "Home": answered(tui, ["1"], lambda s: "Top tracks" in s, "the Home tab"),
            "Library": answered(tui, ["3"], lambda s: "+ New playlist (c)" in s and "Top tracks" not in s,
                                "the Library tab"),
        }
        before = tui.selected_row()
        slowest["j"] = answered(tui, ["j"], lambda _: tui.selected_row() != before, "the cursor to move")
        slowest["Search"] = answered(tui, ["2"], lambda s: re.search(r"^ / 우산", s, re.M), "the Search tab")
        tui.keys("/", "C-u")
        tui.type("Lighthouse")
        slowest["search"] = answered(tui, ["Enter"], lambda s: "♪ Lighthouse Radio" in s, "search results")
        # Playing (the track may still be loading on a busy machine: the session, not the
        # locked library, decides that).
        deadline = time.monotonic() + 10
        while True:
            status = subprocess.run([str(refrain_bin), "ctl", "status"], env=tui.run_env(),
                                    capture_output=True, text=True, timeout=5)
            state = json.loads(status.stdout)["state"] if status.returncode == 0 else None
            if state == "playing" or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert state == "playing", status
        slowest["Library again"] = answered(tui, ["3"], lambda s: "+ New playlist (c)" in s, "the Library tab")
        assert max(slowest.values()) < ANSWER_WITHIN, f"seconds from key to screen: {slowest}"

        # The clock moves on while the edits wait.
        tui.wait_for(lambda _: position(tui) >= started + 2, "the clock to move 2 s")

        screen = tui.screen()
        assert "잠금 노래" not in screen and "ctl 목록" not in screen, screen
        assert "created 잠금 노래" not in screen, "an edit said it was stored while the file was locked"
        assert ctl_edit.poll() is None, "ctl acknowledged an edit the file could not hold yet"
        assert time.monotonic() - locked_at < 8, "the lock was held too long for the busy timeout"
    finally:
        lock.execute("ROLLBACK")
        lock.close()

    # Released: the edits are stored, and the panes show them.
    out, err = ctl_edit.communicate(timeout=10)
    assert ctl_edit.returncode == 0, err
    assert json.loads(out)["name"] == "ctl 목록"
    tui.wait_for(lambda s: re.search(r"≡ ctl 목록\s+0 tracks", s) and re.search(r"≡ 잠금 노래\s+0 tracks", s),
                 "the playlists made while the file was locked")
    with sqlite3.connect(database) as check:
        names = [name for (name,) in check.execute("SELECT name FROM playlists ORDER BY id")]
        searches = [query for (query,) in check.execute("SELECT query FROM recent_searches ORDER BY id")]
    assert names == ["잠금 노래", "ctl 목록"], "stored in the order they were made"
    assert searches == ["우산", "Lighthouse"]
    tui.quit()
