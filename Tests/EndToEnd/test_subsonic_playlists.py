"""The Subsonic server's own playlists under `--provider subsonic`, against supysonic.

`refrain ctl playlist …` edits act on the server's playlists, each answered once the server
has answered; every step is checked against the server itself (its getPlaylists and
getPlaylist).
"""

from __future__ import annotations

import json
import subprocess

from subsonic_harness import SubsonicServer
from test_subsonic import (  # noqa: F401  (the fixtures are used by name)
    server_call, server_song, start_and_find, subsonic_tui, supysonic)


def ctl(tui, *words: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(tui.binary), "ctl", "playlist", *words], env=tui.run_env(),
                          capture_output=True, text=True, timeout=30)


def ok(tui, *words: str) -> str:
    run = ctl(tui, *words)
    assert run.returncode == 0, run.stdout + run.stderr
    return run.stdout.strip()


def server_playlists(server: SubsonicServer) -> dict[str, str]:
    """The server's playlists: id → name."""
    listed = server_call(server, "getPlaylists")["playlists"].get("playlist", [])
    return {p["id"]: p["name"] for p in listed}


def server_titles(server: SubsonicServer, playlist: str) -> list[str]:
    return [e["title"] for e in server_call(server, "getPlaylist", id=playlist)["playlist"].get("entry", [])]


def make_playlist(server: SubsonicServer, name: str, *titles: str) -> str:
    """Makes a playlist of these songs on the server itself; returns its id."""
    server_call(server, "createPlaylist", name=name, songId=server_song(server, titles[0])["id"])
    playlist = next(i for i, n in server_playlists(server).items() if n == name)
    for title in titles[1:]:
        server_call(server, "updatePlaylist", playlistId=playlist, songIdToAdd=server_song(server, title)["id"])
    return playlist


def library_at(tui, row: str) -> None:
    """Starts the player on the server, opens the Library pane and selects `row`."""
    from test_tui import select_row

    tui.start("--provider", "subsonic", "--output", "null")
    tui.wait_text("Recently added", timeout=15)
    tui.keys("3")
    tui.wait_text(row, timeout=15)
    select_row(tui, row)


def play(tui, title: str) -> None:
    """Finds `title` in Search (the last query cleared) and plays it."""
    tui.keys("/")
    tui.keys("C-u")
    tui.type(title)
    tui.keys("Enter")
    tui.wait_for(lambda _: tui.track_selected(title), f"{title} selected", timeout=10)
    tui.keys("Enter")
    tui.wait_for(lambda _: (np := tui.now_playing()) and np[0].startswith(title), f"{title} playing",
                 timeout=15)


def test_a_server_playlist_is_made_filled_reordered_and_deleted_from_ctl(subsonic_tui, supysonic):
    tui = subsonic_tui
    start_and_find(tui, "Middle A")
    tui.keys("Enter")
    tui.wait_for(lambda _: (np := tui.now_playing()) and np[0].startswith("Middle A"), "Middle A playing",
                 timeout=15)

    made = json.loads(ok(tui, "create", "Road Trip"))
    playlist = made["id"]
    assert made == {"id": playlist, "name": "Road Trip", "tracks": 0}
    assert server_playlists(supysonic)[playlist] == "Road Trip"

    assert ok(tui, "add", playlist, "current") == "ok"
    assert server_titles(supysonic, playlist) == ["Middle A"]
    play(tui, "Steps Up")
    assert ok(tui, "add", playlist, "current") == "ok"
    assert server_titles(supysonic, playlist) == ["Middle A", "Steps Up"]

    shown = json.loads(ok(tui, "show", playlist))
    assert shown == [
        {"position": 1, "title": "Middle A", "artist": "Tone Quartet", "provider": "subsonic",
         "id": server_song(supysonic, "Middle A")["id"]},
        {"position": 2, "title": "Steps Up", "artist": "Tone Quartet", "provider": "subsonic",
         "id": server_song(supysonic, "Steps Up")["id"]},
    ]
    listed = json.loads(ok(tui, "list"))
    assert {"id": playlist, "name": "Road Trip", "tracks": 2} in listed

    assert ok(tui, "rename", playlist, "Night Drive") == "ok"
    assert server_playlists(supysonic)[playlist] == "Night Drive"

    assert ok(tui, "move", playlist, "2", "1") == "ok"
    assert server_titles(supysonic, playlist) == ["Steps Up", "Middle A"]
    run = ctl(tui, "move", playlist, "3", "1")
    assert run.returncode != 0
    assert "position 3 is outside the playlist (it has 2 tracks)" in run.stdout + run.stderr
    assert ok(tui, "remove", playlist, "1") == "ok"
    assert server_titles(supysonic, playlist) == ["Middle A"]

    # Only the server's own tracks go in its playlists; nothing is sent for a file.
    run = ctl(tui, "add", playlist, "/music/a.flac")
    lines = (run.stdout + run.stderr).strip().splitlines()
    assert run.returncode != 0 and len(lines) == 1, lines
    assert "only the server's own tracks go in its playlists" in lines[0]
    assert server_titles(supysonic, playlist) == ["Middle A"]

    assert ok(tui, "delete", playlist) == "ok"
    assert playlist not in server_playlists(supysonic)
    run = ctl(tui, "show", playlist)
    assert run.returncode != 0 and "not found: playlist" in run.stdout + run.stderr


def test_the_library_pane_lists_the_servers_playlists_and_stars_and_enter_plays(subsonic_tui, supysonic):
    from test_tui import select_row

    middle = server_song(supysonic, "Middle A")
    playlist = make_playlist(supysonic, "Server Mix", "Steps Up")
    server_call(supysonic, "star", id=middle["id"])
    try:
        tui = subsonic_tui
        library_at(tui, "≡ Server Mix")
        screen = tui.wait_text("Starred on the server", timeout=15)
        rows = [r.strip() for r in screen.splitlines()]
        mix = next(i for i, r in enumerate(rows) if r.startswith("≡ Server Mix"))
        assert rows[mix - 1] == "Server playlists" and rows[mix].endswith("1 tracks"), screen
        starred = rows.index("Starred on the server")
        assert rows[starred + 1].startswith("♪ Middle A — Tone Quartet · Harbour Lights"), screen
        # Opening the playlist lists its tracks from the server; Enter plays one.
        tui.keys("Enter")
        tui.wait_text("♪ Steps Up", timeout=10)
        select_row(tui, "♪ Steps Up")
        tui.keys("Enter")
        tui.wait_for(lambda _: (np := tui.now_playing()) and np[0].startswith("Steps Up"), "Steps Up playing",
                     timeout=15)
        # A starred track plays from its row too.
        tui.keys("Escape")
        select_row(tui, "♪ Middle A")
        tui.keys("Enter")
        tui.wait_for(lambda _: (np := tui.now_playing()) and np[0].startswith("Middle A"), "Middle A playing",
                     timeout=15)
    finally:
        server_call(supysonic, "unstar", id=middle["id"])
        server_call(supysonic, "deletePlaylist", id=playlist)


def test_the_liked_mark_follows_the_servers_star_in_a_list_and_the_player(subsonic_tui, supysonic):
    from test_subsonic import wait_status

    tui = subsonic_tui
    start_and_find(tui, "Middle A")
    assert "♥" not in (tui.selected_row() or "")
    tui.keys("+")
    wait_status(tui, "starred Middle A on the server")
    tui.wait_for(lambda _: "Harbour Lights ♥" in (tui.selected_row() or ""), "the mark on the row",
                 timeout=10)
    assert [s["title"] for s in server_call(supysonic, "getStarred2")["starred2"].get("song", [])] == ["Middle A"]
    tui.keys("Enter")
    tui.wait_for(lambda _: (np := tui.now_playing()) and np[0].startswith("Middle A"), "Middle A playing",
                 timeout=15)
    tui.keys("4")
    tui.wait_text("Middle A ♥", timeout=5)
    # `+` reads the server's state first, so here it unstars, and the mark goes.
    tui.keys("+")
    wait_status(tui, "unstarred Middle A on the server")
    tui.wait_for(lambda s: "Middle A ♥" not in s, "the mark gone", timeout=10)
    assert server_call(supysonic, "getStarred2")["starred2"].get("song", []) == []


def test_x_and_k_in_an_open_server_playlist_edit_it_on_the_server(subsonic_tui, supysonic):
    from test_tui import select_row

    playlist = make_playlist(supysonic, "Keys Mix", "Steps Up", "Middle A", "Fifth Above")
    try:
        tui = subsonic_tui
        library_at(tui, "≡ Keys Mix")
        tui.keys("Enter")
        tui.wait_text("♪ Fifth Above", timeout=10)
        select_row(tui, "♪ Middle A")
        tui.keys("K")
        tui.wait_text("playlist reordered on the server", timeout=10)
        assert server_titles(supysonic, playlist) == ["Middle A", "Steps Up", "Fifth Above"]
        # The page is read again from the server, the cursor on the moved track.
        tui.wait_for(lambda s: s.index("♪ Middle A") < s.index("♪ Steps Up"), "the new order", timeout=10)
        assert "♪ Middle A" in (tui.selected_row() or "")
        tui.keys("x")
        tui.wait_for(lambda s: "♪ Middle A" not in s, "Middle A gone from the page", timeout=10)
        assert server_titles(supysonic, playlist) == ["Steps Up", "Fifth Above"]
    finally:
        server_call(supysonic, "deletePlaylist", id=playlist)


def test_r_and_d_on_a_server_playlist_rename_and_delete_it_on_the_server(subsonic_tui, supysonic):
    from test_tui import select_row

    # With a song: supysonic 0.7.9 answers HTTP 500 to any updatePlaylist of a playlist that
    # never had one (its track list is null), a rename included.
    playlist = make_playlist(supysonic, "Old Name", "Middle A")
    try:
        tui = subsonic_tui
        library_at(tui, "≡ Old Name")
        tui.keys("R")
        tui.wait_text("Rename Old Name to:", timeout=5)
        tui.keys("C-u")
        tui.type("New Name")
        tui.keys("Enter")
        tui.wait_text("≡ New Name", timeout=10)
        assert server_playlists(supysonic)[playlist] == "New Name"
        select_row(tui, "≡ New Name")
        tui.keys("d")
        tui.wait_text("Delete the playlist New Name on the server? (y/n)", timeout=5)
        tui.keys("y")
        tui.wait_for(lambda s: "≡ New Name" not in s, "the playlist gone from the pane", timeout=10)
        assert playlist not in server_playlists(supysonic)
    finally:
        if playlist in server_playlists(supysonic):
            server_call(supysonic, "deletePlaylist", id=playlist)


def picker_selection(tui) -> str | None:
    """The text of the picker's selected row: reverse video inside its box (a list's selected
    row is reverse video from the first column)."""
    for row in tui.cells()[: tui.height - 1]:
        if row and "reverse" not in row[0][1]:
            text = "".join(ch for ch, attrs in row if "reverse" in attrs).strip()
            if text:
                return text
    return None


def pick(tui, text: str) -> None:
    """Moves the picker's selection down (j) until it is on `text`."""
    for _ in range(30):
        if text in (picker_selection(tui) or ""):
            return
        before = picker_selection(tui)
        tui.keys("j")
        tui.wait_for(lambda _: picker_selection(tui) != before or None, "the picker's cursor to move",
                     timeout=2)
    raise AssertionError(f"no picker row {text!r}; the screen:\n{tui.screen()}")


def test_a_and_c_add_to_the_servers_playlists_and_make_new_ones_there(subsonic_tui, supysonic):
    from test_subsonic import wait_status

    playlist = make_playlist(supysonic, "Picker Mix", "Steps Up")
    try:
        tui = subsonic_tui
        start_and_find(tui, "Middle A")
        # A: the server's playlists come first in the picker, above Refrain's own.
        tui.keys("A")
        tui.wait_text("Add 1 to playlist", timeout=5)
        screen = tui.wait_text("Picker Mix", timeout=10)
        assert screen.index("On the server") < screen.index("Picker Mix") < screen.index("Refrain's playlists")
        pick(tui, "Picker Mix")
        tui.keys("Enter")
        wait_status(tui, "added 1 track to Picker Mix on the server")
        assert server_titles(supysonic, playlist) == ["Steps Up", "Middle A"]

        # A, then "new playlist on the server": made there with the track in it.
        tui.keys("A")
        tui.wait_text("Add 1 to playlist", timeout=5)
        pick(tui, "+ New playlist on the server")
        tui.keys("Enter")
        tui.wait_text("New playlist on the server, name:", timeout=5)
        tui.type("Fresh Road")
        tui.keys("Enter")
        wait_status(tui, "created Fresh Road on the server with 1 track")
        fresh = next(i for i, n in server_playlists(supysonic).items() if n == "Fresh Road")
        assert server_titles(supysonic, fresh) == ["Middle A"]

        # c in the Library pane makes an empty playlist on the server, listed there once made.
        tui.keys("3")
        tui.wait_text("+ New playlist on the server (c)", timeout=10)
        tui.keys("c")
        tui.wait_text("New playlist on the server, name:", timeout=5)
        tui.type("Empty Shelf")
        tui.keys("Enter")
        tui.wait_text("≡ Empty Shelf", timeout=10)
        assert "Empty Shelf" in server_playlists(supysonic).values()
    finally:
        for pid, name in server_playlists(supysonic).items():
            if name in ("Picker Mix", "Fresh Road", "Empty Shelf"):
                server_call(supysonic, "deletePlaylist", id=pid)
