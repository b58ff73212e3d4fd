"""A liked Spotify track that is also on a saved album keeps its ISRC (issue 26).

Liked Songs give the full track object, with its ISRC; a saved album's track list gives
simplified ones, without. The import reads Liked Songs before saved albums, so within one
import the album's record comes second; the other order is an album imported first and the
track liked on Spotify before the next import. In both, the stored track keeps its ISRC,
and `refrain spotify import` matches it to the user's MP3 whose TSRC tag carries that ISRC
(the file's title and artist differ, so nothing but the ISRC can match it). A library
imported before the merge, whose stored record lost the ISRC, is repaired by importing
again.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest

from spotify_fake import SpotifyFake, spotify_id
from test_spotify import CLIENT_ID, SMALL, User, login, make_mp3

ISRC = "QZRFT2600026"
NO_ISRC_REASON = "no local file has this title, and Spotify gave no ISRC"


@pytest.fixture
def fake():
    f = SpotifyFake(client_id=CLIENT_ID, **SMALL)
    yield f
    f.close()


@pytest.fixture
def user(refrain_bin, tmp_path, fake):
    u = User(refrain_bin, tmp_path / "mina", fake)
    yield u
    for proc in u.procs:
        if proc.p.poll() is None:
            proc.kill()


def tides(fake: SpotifyFake) -> tuple[dict, dict]:
    """The album "Tides" (three tracks) saved on Spotify; returns it and its second track,
    whose ISRC is ISRC."""
    aid = spotify_id("album:Tides")
    tracks = [fake.make_track(title, "Jun Park", 6000 + 1000 * i, album="Tides", album_id=aid,
                              isrc=ISRC if i == 1 else None)
              for i, title in enumerate(("Low Water", "Tidal - 2011 Remaster", "Spring Tide"))]
    for number, track in enumerate(tracks, start=1):
        track["track_number"] = number
    return fake.add_saved_album("Tides", tracks), tracks[1]


def scan_rip(user: User, tmp_path: Path) -> Path:
    """The user's rip of the liked track: TSRC is its ISRC (in lower case, as some taggers
    write it), its title and artist are not Spotify's."""
    music = tmp_path / "music"
    rip = make_mp3(music / "rip02.mp3", 7, "Track 02", "Unknown Artist", isrc=ISRC.lower())
    user.ok("scan", str(music), "--json")
    return rip


def stored(user: User, track_id: str) -> dict:
    rows = user.rows("SELECT json FROM stored_tracks WHERE provider = 'spotify' AND id = ?", track_id)
    assert len(rows) == 1, f"the library holds {len(rows)} copies of track {track_id}"
    return json.loads(rows[0][0])


def match(user: User, track_id: str) -> tuple:
    rows = user.rows("SELECT kind, local_path, reason FROM spotify_matches WHERE track_id = ?", track_id)
    assert len(rows) == 1, f"track {track_id} has {len(rows)} matches"
    return rows[0]


def search_hit(user: User, track: dict) -> dict:
    hits = [r for r in user.search("Tidal") if r.get("id") == track["id"]]
    assert len(hits) == 1, f"`refrain search Tidal --provider spotify` lists the track {len(hits)} times"
    return hits[0]


def assert_matched_to(user: User, summary: dict, track: dict, rip: Path) -> None:
    assert summary["matched_local"] == 1, summary
    kind, path, _ = match(user, track["id"])
    assert kind == "local" and os.path.realpath(path) == os.path.realpath(rip)
    hit = search_hit(user, track)
    assert (hit["match"], hit["playable"]) == ("local", True), hit
    record = stored(user, track["id"])
    assert record.get("isrc") == ISRC, record
    assert (record.get("album"), record.get("trackNumber"), record.get("duration")) == ("Tides", 2, 7), record


# ---------------------------------------------------------------- both orders

def test_a_liked_track_on_a_saved_album_keeps_its_isrc_and_plays_from_the_file(user, fake, tmp_path):
    album, track = tides(fake)
    fake.add_liked(track)
    rip = scan_rip(user, tmp_path)
    login(user)

    summary = user.import_json()

    assert summary["albums"] == len(fake.albums) and summary["tracks"] == fake.expected_summary()["tracks"]
    assert_matched_to(user, summary, track, rip)
    # The album's own list holds the same track, and no copy of it.
    album_tracks = [r[0] for r in user.rows(
        "SELECT track_id FROM spotify_album_tracks WHERE album_id = ? ORDER BY position", album["id"])]
    assert album_tracks == [t["id"] for t in fake._album_tracks[album["id"]]]


def test_a_track_liked_after_its_album_was_imported_gets_its_isrc_and_plays_from_the_file(
        user, fake, tmp_path):
    _, track = tides(fake)
    rip = scan_rip(user, tmp_path)
    login(user)

    first = user.import_json()
    assert first["matched_local"] == 0, first
    assert "isrc" not in stored(user, track["id"])
    assert match(user, track["id"]) == ("none", None, NO_ISRC_REASON)

    fake.add_liked(track)
    second = user.import_json()

    assert_matched_to(user, second, track, rip)


# ---------------------------------------------------------------- repair

def test_importing_again_repairs_a_library_that_lost_the_isrc(user, fake, tmp_path):
    _, track = tides(fake)
    fake.add_liked(track)
    rip = scan_rip(user, tmp_path)
    login(user)
    user.import_json()
    # What an import before the merge left: the album's record, without the ISRC, over the
    # liked one, and the track unmatched for want of it.
    record = stored(user, track["id"])
    record.pop("isrc", None)
    con = sqlite3.connect(str(user.database), timeout=10)
    try:
        with con:
            con.execute("UPDATE stored_tracks SET json = ? WHERE provider = 'spotify' AND id = ?",
                        (json.dumps(record, sort_keys=True), track["id"]))
            con.execute("UPDATE spotify_matches SET kind = 'none', local_path = NULL, reason = ? WHERE track_id = ?",
                        (NO_ISRC_REASON, track["id"]))
    finally:
        con.close()
    hit = search_hit(user, track)
    assert (hit["match"], hit["playable"], hit.get("reason")) == (None, False, NO_ISRC_REASON), hit

    summary = user.import_json()

    assert_matched_to(user, summary, track, rip)
