"""Issue 35: the room server and symlinks in its shared library. A symlink whose target
(every link resolved) is inside the library is listed and served as that target's audio;
one that points outside the library, or nowhere, is neither listed nor served."""

from __future__ import annotations

import json
import os
import shutil
import urllib.parse
from pathlib import Path

import pytest

from room_harness import RoomServer, Track, make_library

SONG = Track("Night Walks/01 Umbrella.mp3", "Umbrella", "Mina", "Night Walks", 4, 440)


@pytest.fixture
def linked_library(tmp_path) -> Path:
    folder = make_library(tmp_path / "lib", [SONG])
    shutil.copy(folder / SONG.path, tmp_path / "secret.mp3")
    os.symlink("Night Walks/01 Umbrella.mp3", folder / "Inside Link.mp3")
    os.symlink(folder / "Night Walks", folder / "Linked Folder.mp3")           # a folder: not a track
    os.symlink(tmp_path / "secret.mp3", folder / "Outside Link.mp3")
    os.symlink("../secret.mp3", folder / "Night Walks" / "Relative Out.mp3")
    os.symlink("nowhere.mp3", folder / "Dangling.mp3")
    return folder


def test_an_inside_symlink_is_served_as_its_target_and_an_outside_one_not_at_all(refrain_bin, tmp_path,
                                                                                   linked_library):
    server = RoomServer(refrain_bin, tmp_path / "home", [linked_library])
    server.start()
    try:
        status, _, body = server.http("/library")
        assert status == 200, body[:200]
        doc = json.loads(body)
        paths = sorted(t["path"] for t in (doc["tracks"] if isinstance(doc, dict) else doc))
        assert paths == ["Inside Link.mp3", "Night Walks/01 Umbrella.mp3"], paths

        audio = (linked_library / SONG.path).read_bytes()
        status, headers, body = server.http("/library/" + urllib.parse.quote("Inside Link.mp3"))
        assert status == 200, body[:200]
        assert headers.get("content-length") == str(len(audio)), headers
        assert body == audio
        status, headers, body = server.http("/library/" + urllib.parse.quote("Inside Link.mp3"),
                                            headers={"Range": "bytes=100-199"})
        assert status == 206 and body == audio[100:200], (status, headers)

        for name in ("Outside Link.mp3", "Night Walks/Relative Out.mp3", "Dangling.mp3", "Linked Folder.mp3"):
            status, _, body = server.http("/library/" + urllib.parse.quote(name))
            assert status == 404, (name, status)
            assert b"ID3" not in body[:10] and b"\xff\xfb" not in body[:10]

        # A link re-pointed out of the library after the scan is not followed either.
        os.unlink(linked_library / "Inside Link.mp3")
        os.symlink(tmp_path / "secret.mp3", linked_library / "Inside Link.mp3")
        status, _, body = server.http("/library/" + urllib.parse.quote("Inside Link.mp3"))
        assert status == 404, status
    finally:
        server.stop()
