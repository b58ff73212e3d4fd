"""Covers from a Subsonic server (supysonic) asked at the size the pane draws, and kept.

The server's music folder here holds one album, "Harbour Lights", with a 1200×1200
`cover.jpg` (red on the left half, blue on the right), so supysonic answers `getCoverArt`
with the picture scaled to the `size` asked. The token layer logs each `getCoverArt` with
that `size` (subsonic_server.py), and the tests read which sizes Refrain asked:

- half blocks (tmux) need a pixel a column and two a row, which the smallest size (256)
  holds at any terminal size;
- kitty (a terminal played on a pseudo-terminal, as in test_cover.py) gets a PNG of 10×20
  pixels a cell, so the Player pane's 40×20 cells at 100×30 ask 512 and its 56×28 cells at
  140×40 ask 1024;
- a player started again in the same folders asks nothing: the covers come from
  `$XDG_CACHE_HOME/refrain/covers`.
"""

from __future__ import annotations

import json
import struct
import subprocess

import pytest

from subsonic_harness import MUSIC, PASSWORD, USER, SubsonicServer, make_music
from test_cover import (KittyTerminal, assert_split_picture, cover_rect, decoded_png, make_split_image,
                        wait_picture)
from test_subsonic import start_and_find, tui_login


ALBUM = "Harbour Lights"


@pytest.fixture(scope="module")
def covered(tmp_path_factory):
    """supysonic over one album with a large cover.jpg beside its tracks."""
    root = tmp_path_factory.mktemp("supysonic-covers")
    music = make_music(root / "music", [t for t in MUSIC if t.album == ALBUM])
    make_split_image(music / "Tone Quartet" / ALBUM / "cover.jpg", size=1200)
    server = SubsonicServer(root).start()
    yield server
    server.stop()


def cover_sizes(server: SubsonicServer, since: int) -> list[str]:
    """The `size` of each `getCoverArt` the server got after its first `since` requests."""
    return [line.split("size=", 1)[1] if "size=" in line else "none"
            for line in server.requests()[since:] if " getCoverArt" in line]


def play_in_player_pane(tui) -> None:
    """Finds "Steps Up" on the server, plays it and shows the Player pane."""
    start_and_find(tui, "Steps Up")
    tui.keys("Enter")
    tui.wait_for(lambda _: (np_ := tui.now_playing()) and np_[0].startswith("Steps Up"),
                 "Steps Up playing", timeout=15)
    tui.keys("4")
    tui.wait_text("vol 100%")


def test_half_blocks_ask_the_smallest_size_once_and_a_restart_asks_nothing(
        refrain_bin, tmp_path, covered):
    from test_tui import TUI  # the tmux driver of test_tui.py

    home = tmp_path / "home"
    for run, (width, height) in enumerate([(100, 30), (100, 30), (160, 50)]):
        tui = TUI(refrain_bin, home, f"halfblocks{run}", width, height)
        tui.env["COLORTERM"] = "truecolor"
        if run == 0:
            tui_login(tui, covered)
        try:
            before = len(covered.requests())
            play_in_player_pane(tui)
            assert_split_picture(wait_picture(tui, cover_rect(width, height), timeout=15))
            # Half blocks need 2 × rows pixels: 40 at 100×30, 64 at 160×50; both fit in 256,
            # which the first run asked once and the later runs read from the disk cache.
            assert cover_sizes(covered, before) == (["256"] if run == 0 else []), run
            tui.quit()
        finally:
            tui.close()
    cached = sorted(p.name for p in (home / "xdg_cache_home" / "refrain" / "covers").iterdir())
    assert len(cached) == 1 and cached[0].endswith("-256.jpg"), cached


def kitty_login(term: KittyTerminal, server: SubsonicServer) -> None:
    run = subprocess.run([str(term.binary), "subsonic", "login", server.url(), "--user", USER,
                          "--password-stdin"], env=term.env, input=PASSWORD + "\n",
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr


def png_size(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", png[16:24])


def kitty_player_cover(term: KittyTerminal, columns: int) -> tuple[int, int]:
    """Opens the newest album (the only one) from Home, plays it, shows the Player pane and
    waits for its cover's placement `columns` cells wide; the size of the PNG sent for it."""
    term.wait_text("Recently added", timeout=15)
    term.keys("\r")
    term.wait_text("▶ Play all", timeout=10)
    term.keys("\r")
    term.wait_for(lambda _: json.loads(term.ctl("status")).get("state") == "playing", "playback", 15)
    mark = len(term.output)
    term.keys("4")
    placement = term.wait_for(
        lambda _: next((e for e in term.images(mark) if e.get("a") == "p" and e.get("c") == str(columns)),
                       None), f"the Player pane's cover, {columns} columns wide", 15)
    # The transmit of the placed image: its first chunk (a=t) and the chunks that follow it.
    images = term.images(mark)
    start = next(k for k, e in enumerate(images) if e.get("a") == "t" and e.get("i") == placement["i"])
    chunks = [images[start]]
    for entry in images[start + 1:]:
        if "a" in entry or chunks[-1].get("m") != "1":
            break
        chunks.append(entry)
    return png_size(decoded_png(chunks))


def test_kitty_asks_the_size_its_pane_needs_and_a_larger_pane_a_larger_one(refrain_bin, tmp_path, covered):
    home = tmp_path / "kitty-home"
    # (width, height, Player pane cover columns, PNG pixels, sizes asked): the album page's
    # 12-column header cover needs 120 pixels (256); the Player pane 400 at 100×30 (512),
    # 560 at 140×40 (1024), and nothing again in the same size.
    runs = [(100, 30, 40, 400, ["256", "512"]), (100, 30, 40, 400, []), (140, 40, 56, 560, ["1024"])]
    for run, (width, height, columns, pixels, asked) in enumerate(runs):
        term = KittyTerminal(refrain_bin, home, kitty=True, width=width, height=height)
        if run == 0:
            kitty_login(term, covered)
        try:
            before = len(covered.requests())
            term.start("--provider", "subsonic", "--output", "null")
            assert kitty_player_cover(term, columns) == (pixels, pixels)
            assert sorted(cover_sizes(covered, before), key=int) == asked, run
            assert term.quit() == 0
        finally:
            term.close()
    cached = sorted(p.name.split("-")[1] for p in (home / "xdg_cache_home" / "refrain" / "covers").iterdir())
    assert cached == ["1024.jpg", "256.jpg", "512.jpg"], cached
