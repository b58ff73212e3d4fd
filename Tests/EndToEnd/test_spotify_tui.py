"""The user's imported Spotify library in the full-screen player, driven through tmux.

The fake Spotify services of spotify_fake.py stand in for Spotify's accounts service, its
Web API and the preview catalog. The test logs in as test_spotify.py does (it plays the
browser), then drives `refrain` in a private tmux server as test_tui.py does: its own XDG
dirs (the same folders the `refrain spotify …` commands use), `--output null`, lyrics at a
closed port. What is checked is what the user sees on the screen: the imported playlists,
Liked Songs in Spotify's order, unplayable tracks dim with their reason on the status line,
the Library pane's import with its progress line, and hostile titles shown as plain text.
"""

from __future__ import annotations

import re
import time

import pytest

from spotify_fake import SpotifyFake
from test_spotify import CLIENT_ID, SMALL, User, login
from test_tui import TUI, select_row, tui_factory  # noqa: F401  (the fixture is used by name)

# A title with an OSC 52 clipboard write (payload "hi") and a colour change in it.
HOSTILE = "\x1b]52;c;aGk=\x07Evil\x1b[31m Title"


def spotify_tui(tui_factory, tmp_path, fake: SpotifyFake, name: str) -> tuple[TUI, User]:
    """A TUI and a `refrain spotify …` user sharing one home (the same XDG dirs), both pointed
    at the fake services."""
    home = tmp_path / "home"
    tui = tui_factory(name, home=home)
    user = User(tui.binary, home, fake)
    tui.env.update({
        "REFRAIN_SPOTIFY_ACCOUNTS_URL": fake.accounts_url,
        "REFRAIN_SPOTIFY_API_URL": fake.api_url,
        "REFRAIN_DEEZER_URL": fake.deezer_url,
    })
    return tui, user


def open_home_entry(tui: TUI, text: str, header: str) -> str:
    """Selects the Home row with `text` (j/k) and opens it with Enter; waits for its view."""
    select_row(tui, text)
    tui.keys("Enter")
    tui.wait_for(lambda s: f"‹ {header}" in s and "Play all" in s and track_rows(s),
                 f"the {header!r} view with its tracks", timeout=10)
    return tui.wait_settled("Play all")


def track_rows(screen: str) -> list[str]:
    """The ♪ rows of a list, their text up to the column of the duration/reason."""
    return [ln.strip()[2:] for ln in screen.split("\n") if ln.strip().startswith("♪ ")]


def status_line(screen: str) -> str:
    return screen.rstrip("\n").split("\n")[-1].strip()


def row_cells(tui: TUI, text: str):
    for row in tui.cells():
        line = "".join(ch for ch, _ in row)
        if text in line:
            return line, row
    pytest.fail(f"no row with {text!r}; the screen:\n{tui.screen()}")


@pytest.fixture
def fake():
    f = SpotifyFake(client_id=CLIENT_ID, **SMALL)
    yield f
    f.close()


@pytest.fixture
def slow_fake():
    """Enough Liked Songs for several pages, behind a 20 ms network: the import lasts long
    enough for its progress line to be seen."""
    f = SpotifyFake(client_id=CLIENT_ID, liked=60, long_playlist=6, long_album=6, short_playlist=6,
                    latency_ms=20)
    yield f
    f.close()


# ---------------------------------------------------------------- tests

def test_the_imported_library_on_home_and_an_unplayable_track_says_why(tui_factory, tmp_path, fake):
    fake.add_liked(fake.make_track("Northern Lights", "Aya Sato", 30000, isrc="QZRFT2600003"))
    fake.add_preview("QZRFT2600003", "Northern Lights", "Aya Sato", "Lights", 30)
    fake.add_liked(fake.make_track("Nowhere Song", "Nobody Known", 200000, isrc="QZRFT2600004"))
    tui, user = spotify_tui(tui_factory, tmp_path, fake, "spotify-home")
    login(user)
    summary = user.import_json()
    assert (summary["matched_preview"], summary["unmatched"]) == (1, summary["tracks"] - 1), summary

    tui.start("--output", "null", "--provider", "spotify")
    home = tui.wait_settled("Saved albums", timeout=15)
    lines = [ln.strip() for ln in home.split("\n")]
    assert "Playlists" in lines, home
    assert "Saved albums" in lines, home
    playlists = lines[lines.index("Playlists") + 1: lines.index("Saved albums")]
    for name in ["Liked Songs", *(p["name"] for p in fake.playlists)]:
        assert any(name in ln for ln in playlists), f"{name!r} not under Playlists:\n{home}"
    albums = lines[lines.index("Saved albums") + 1:]
    for album in fake.albums:
        assert any(album["album"]["name"] in ln for ln in albums), f"{album['album']['name']!r}:\n{home}"

    # Liked Songs, newest first as Spotify lists them.
    screen = open_home_entry(tui, "Liked Songs", "Liked Songs")
    expected = [f"{x['track']['name']} — {x['track']['artists'][0]['name']}" for x in fake.liked]
    visible = expected[: len(track_rows(screen))]
    assert len(visible) >= 10, screen
    assert [r.split(" · ")[0] for r in track_rows(screen)] == visible, screen

    # The preview plays: its duration shows. The unmatched track is dim and "unplayable".
    line, cells = row_cells(tui, "Northern Lights")
    assert "0:30" in line and "unplayable" not in line, line
    line, cells = row_cells(tui, "Nowhere Song")
    assert line.rstrip().endswith("unplayable"), line
    title_at = line.index("Nowhere Song")
    assert "dim" in cells[title_at][1] and "dim" in cells[line.rindex("unplayable")][1], cells

    # Enter on it puts the reason on the status line and plays nothing.
    select_row(tui, "Nowhere Song")
    tui.keys("Enter")
    status = tui.wait_for(lambda s: (last := status_line(s)) and
                          ("preview catalog" in last or "no local file" in last) and last,
                          "the reason on the status line", timeout=5)
    assert "■ stopped" in tui.screen(), tui.screen()
    assert "Nowhere Song" in (tui.selected_row() or ""), tui.screen()
    tui.quit()


def test_import_from_the_library_pane_shows_progress_then_the_playlists(tui_factory, tmp_path, slow_fake):
    fake = slow_fake
    tui, user = spotify_tui(tui_factory, tmp_path, fake, "spotify-import")
    login(user)
    assert fake.requests_to("/v1/me/playlists") == []

    tui.start("--output", "null")
    tui.wait_for(lambda s: "1 Home" in s, "the UI", timeout=15)
    tui.keys("3")
    tui.wait_text("New playlist")
    library = tui.screen()
    for pl in fake.playlists:
        assert pl["name"] not in library, library
    tui.keys("I")

    progress: list[str] = []
    done = None
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        last = status_line(tui.screen())
        if "Spotify import:" in last and last not in progress:
            progress.append(last)
        if last.startswith("Spotify:") and "unplayable" in last:
            done = last
            break
        time.sleep(0.02)
    assert done, f"no import summary within 90 s; seen: {progress}\n{tui.screen()}\n{tui.stderr()}"
    # The count a user needs first (what cannot play) comes before anything a narrow line cuts.
    assert re.match(r"Spotify: \d+ tracks, \d+ unplayable, ", done), done
    assert f"({len(fake.playlists)} playlists" in done or len(done) >= 95, done
    assert progress, f"the progress line was never seen; the end: {done!r}"
    assert any(re.fullmatch(r"Spotify import: \S.* \d+/\d+ \[[█·]+\]", p) for p in progress), progress

    screen = tui.wait_for(lambda s: s if all(p["name"] in s for p in fake.playlists) else None,
                          "the imported playlists in Library", timeout=10)
    for pl in fake.playlists:
        row = next(ln for ln in screen.split("\n") if pl["name"] in ln)
        count = len(fake.playlist_track_ids(pl["id"]))
        assert "≡" in row and row.rstrip().endswith(f"{count} tracks"), row
    tui.quit()


def test_a_hostile_liked_title_shows_as_plain_text(tui_factory, tmp_path, fake):
    fake.add_liked(fake.make_track(HOSTILE, "Sneaky\x1b[5m Band", 200000, isrc="QZRFT2600009"))
    tui, user = spotify_tui(tui_factory, tmp_path, fake, "spotify-hostile")
    login(user)
    user.import_json()

    tui.start("--output", "null", "--provider", "spotify")
    tui.wait_settled("Saved albums", timeout=15)
    screen = open_home_entry(tui, "Liked Songs", "Liked Songs")
    first = track_rows(screen)[0]
    assert first.startswith("Evil Title — Sneaky Band"), screen
    assert "\x1b" not in tui.screen() and "\x07" not in tui.screen()
    assert "aGk=" not in tui.screen() and "52;" not in tui.screen(), tui.screen()
    select_row(tui, "Evil Title")
    tui.keys("Enter")   # the reason names nothing hostile either
    status = tui.wait_for(lambda s: (last := status_line(s)) and
                          ("preview catalog" in last or "no local file" in last) and last,
                          "the reason on the status line", timeout=5)
    assert "\x1b" not in status and "aGk=" not in status, status
    tui.quit()

    raw = tui.bytes_log.read_bytes()
    assert b"Evil" in raw, "the title was drawn"
    for payload in [b"\x1b]52;", b"aGk=", b"\x07", b"\x1b[5m", b"\x1b[31m Title"]:
        assert payload not in raw, f"{payload!r} from the title reached the terminal"
