"""Spotify import matching the user's own Subsonic server (supysonic, a real one).

With a Subsonic login, an imported Spotify track plays from the server when no local file
has it, before any preview: supysonic sends no ISRC (API 1.12), so its songs are found by
artist, title and duration through `search3`. The match keeps the server's song ID, never
a URL with the login in it.
"""

from __future__ import annotations

import json
import subprocess

import pytest

from subsonic_harness import PASSWORD, USER, SubsonicServer
from test_spotify import login as spotify_login
from test_spotify import small_fake, small_user  # noqa: F401  (fixtures)
from test_subsonic import server_song


@pytest.fixture(scope="module")
def supysonic(tmp_path_factory):
    server = SubsonicServer(tmp_path_factory.mktemp("supysonic-spotify")).start()
    yield server
    server.stop()


def test_an_imported_track_on_the_server_plays_from_it_before_any_preview(small_user, small_fake,
                                                                          supysonic):
    fake = small_fake
    # "Steps Up" by Tone Quartet is a 20 s FLAC on the server; Spotify's copy is 1 s longer.
    on_server = fake.make_track("Steps Up", "Tone Quartet", 21000, isrc="QZRFT2600021")
    # The server has a "Middle A" too, but of 6 s: another recording than Spotify's 3 min one.
    other_cut = fake.make_track("Middle A", "Tone Quartet", 180000, isrc="QZRFT2600022")
    fake.add_preview("QZRFT2600022", "Middle A", "Tone Quartet", "Singles", 30)
    for track in (other_cut, on_server):
        fake.add_liked(track, first=True)

    login = subprocess.run([str(small_user.binary), "subsonic", "login", supysonic.url(), "--user", USER,
                            "--password-stdin"], env=small_user.env, input=PASSWORD + "\n",
                           capture_output=True, text=True, timeout=60)
    assert login.returncode == 0, login.stdout + login.stderr
    spotify_login(small_user)
    summary = small_user.import_json()
    assert summary["matched_subsonic"] == 1, summary
    assert summary["matched_preview"] == 1, summary

    matches = {r[0]: r[1:] for r in small_user.rows(
        "SELECT track_id, kind, server_id, preview_id FROM spotify_matches")}
    assert matches[on_server["id"]][:2] == ("subsonic", server_song(supysonic, "Steps Up")["id"])
    assert matches[other_cut["id"]][0] == "preview"

    hits = [r for r in small_user.search("Steps Up") if r.get("id") == on_server["id"]]
    assert len(hits) == 1 and (hits[0]["match"], hits[0]["playable"]) == ("subsonic", True), hits

    # The library keeps the song's ID only: the stored login's token appears nowhere in it.
    account = json.loads((small_user.database.parent / "subsonic.json").read_text())
    secret = account.get("token") or account.get("apiKey") or account.get("api_key")
    assert secret, account
    assert secret.encode() not in small_user.database.read_bytes()

    # `refrain spotify status` and the import line name the server's share.
    status = small_user.ok("spotify", "status")
    assert "1 on your server" in status.stdout, status.stdout
