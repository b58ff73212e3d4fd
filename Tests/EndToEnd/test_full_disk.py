"""A full disk loses nothing and says so, from every door.

The full-screen player runs with `XDG_DATA_HOME` on a 3 MiB tmpfs that also holds the
music folder, and the tmpfs is filled up while a track plays. Then a playlist edit, a
playlist add, a tap-to-sync save and a scan each fail with a line naming the full disk
and the file, `refrain ctl` exits non-zero, the music plays on and the screen keeps
moving. Once space is freed the next edit and the next save succeed without a restart,
the library passes `PRAGMA integrity_check` with every acknowledged edit in it, and no
half-written sidecar or temporary file is left behind. A session that cannot be saved at
quit is said on stderr.
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from test_tui import TUI

FIXTURES = Path(__file__).resolve().parents[1] / "Fixtures" / "generated"


@pytest.fixture
def tui_on_a_small_disk(refrain_bin, tmp_path):
    """A TUI whose XDG_DATA_HOME is a 3 MiB tmpfs; unmounted afterwards."""
    tui = TUI(refrain_bin, tmp_path / "home", "full-disk")
    data = Path(tui.env["XDG_DATA_HOME"])
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m,mode=0700", "tmpfs", str(data)],
                             capture_output=True, text=True)
    assert mounted.returncode == 0, f"cannot mount a tmpfs (the tests run as root): {mounted.stderr}"
    try:
        yield tui, data
    finally:
        tui.close()
        subprocess.run(["umount", "-l", str(data)], capture_output=True)


def fill(folder: Path) -> Path:
    """Writes a file until the disk is full; returns it."""
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as out:
        try:
            while True:
                out.write(b"\0" * 65536)
                out.flush()
        except OSError as error:
            assert error.errno == 28, error
    return filler


def test_a_full_disk_loses_nothing_and_says_so_everywhere(tui_on_a_small_disk, refrain_bin):
    tui, data = tui_on_a_small_disk
    env = tui.run_env()
    music = data / "music"
    music.mkdir()
    shutil.copy(FIXTURES / "cbr.mp3", music / "song.mp3")  # 30 s
    shutil.copy(FIXTURES / "lyrics-steps.lrc", music / "song.lrc")
    original_lrc = (music / "song.lrc").read_bytes()
    library = data / "refrain" / "library.sqlite"

    def ctl(*words: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(refrain_bin), "ctl", *words], env=env, capture_output=True, text=True,
                              timeout=20)

    def scan() -> subprocess.CompletedProcess:
        return subprocess.run([str(refrain_bin), "scan", str(music)], env=env, capture_output=True, text=True,
                              timeout=60)

    assert scan().returncode == 0
    tui.start("--output", "null")
    tui.wait_for(lambda s: "Home" in s, "the first screen")
    deadline = time.monotonic() + 10
    while ctl("status").returncode != 0:
        assert time.monotonic() < deadline, "no control socket"
        time.sleep(0.1)
    for _ in range(3):  # 90 s of music, more than the test needs
        assert ctl("queue", "add", str(music / "song.mp3")).returncode == 0
    assert ctl("play").returncode == 0
    tui.wait_for(lambda _: (np := tui.now_playing()) and np[1] >= 1, "the track playing")
    before = ctl("playlist", "create", "Before")
    assert before.returncode == 0, before.stderr

    filler = fill(data)

    # A playlist edit and a playlist add: one line naming the full disk and the library.
    for words in (("playlist", "create", "Night"), ("playlist", "add", "1", "current")):
        failed = ctl(*words)
        assert failed.returncode != 0, (words, failed.stdout)
        said = failed.stderr.strip()
        assert "the disk is full" in said and str(library) in said, said
        assert "\n" not in said, said
    # From the keys: a new playlist in the Library pane says so on the status line.
    tui.keys("3", "c")
    tui.wait_for(lambda s: "New playlist name:" in s, "the name prompt")
    tui.type("Keys")
    tui.keys("Enter")
    tui.wait_for(lambda s: "the disk is full" in s, "the full disk on the status line")

    # Tap-to-sync: every line stamped, then the save fails; the old sidecar is untouched,
    # nothing half-written is left, and the stamps are kept for the next try.
    assert ctl("lyrics", "sync", "start").returncode == 0
    for _ in range(10):
        assert ctl("lyrics", "sync", "stamp").returncode == 0
    failed = ctl("lyrics", "sync", "save")
    assert failed.returncode != 0
    assert "the disk is full" in failed.stderr and "song.lrc" in failed.stderr, failed.stderr
    assert (music / "song.lrc").read_bytes() == original_lrc
    assert sorted(p.name for p in music.iterdir()) == ["song.lrc", "song.mp3"]

    # A scan says so too, and leaves the library as it was.
    failed = scan()
    assert failed.returncode != 0 and "the disk is full" in failed.stderr, failed.stderr

    # The music plays on and the screen keeps moving.
    first = tui.now_playing()
    assert first is not None
    tui.wait_for(lambda _: (np := tui.now_playing()) and np[1] >= first[1] + 2, "the clock moving on", 6)

    # Space freed: the next edit and the next save succeed, without a restart.
    filler.unlink()
    night = ctl("playlist", "create", "Night")
    assert night.returncode == 0, night.stderr
    saved = ctl("lyrics", "sync", "save")
    assert saved.returncode == 0, saved.stderr
    assert (music / "song.lrc.bak").read_bytes() == original_lrc
    assert (music / "song.lrc").read_bytes() != original_lrc
    assert not [p.name for p in music.iterdir() if p.name.endswith(".tmp")]

    # Full again at quit: the session cannot be saved, and stderr says so once the screen
    # is gone.
    filler = fill(data)
    assert ctl("quit").returncode == 0
    tui.wait_for(lambda s: "refrain exited 0" in s, "refrain to quit", 10)
    assert "refrain: could not save the session: the disk is full" in tui.stderr(), tui.stderr()
    filler.unlink()
    with sqlite3.connect(library) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        names = sorted(row[0] for row in db.execute("SELECT name FROM playlists"))
    assert names == ["Before", "Night"], names
