"""A FLAC's embedded PICTURE and an M4A's `covr`, with their tags, in the Player pane.

Each file is made here by its real encoder: `flac --picture` and `-T` for the FLAC, ffmpeg
with an attached picture and `-metadata` for the M4A (the tool writes `covr` and the
`©nam`/`©ART`/`©alb` atoms). The full-screen player runs in tmux with `--output null`; the
file is added by its path (`refrain ctl queue add PATH`), never scanned, so what the pane
shows comes from the file's own tags and picture. The cover is read back from the screen's
half blocks as test_cover.py does: red on the left half, blue on the right.
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest

from test_cover import assert_split_picture, cover_rect, make_split_image, start_truecolor, wait_picture
from test_tui import tui_factory  # noqa: F401  (the fixture is used by name)


def tone(path: Path, seconds: int = 30) -> Path:
    subprocess.run(["sox", "-n", "-r", "44100", "-c", "2", "-b", "16", str(path), "synth", str(seconds),
                    "sine", "440", "vol", "0.3"], check=True, timeout=60)
    return path


def make_flac(folder: Path) -> Path:
    """A FLAC with a JPEG front cover in a PICTURE block and Vorbis comments."""
    picture = folder / "flac-cover.jpg"
    make_split_image(picture)
    out = folder / "picture.flac"
    subprocess.run(["flac", "-s", "-f", f"--picture={picture}", "-T", "TITLE=Harbour Lights",
                    "-T", "ARTIST=Flac Quartet", "-T", "ALBUM=Pictures in Blocks", "-o", str(out),
                    str(tone(folder / "flac-tone.wav"))], check=True, timeout=60)
    return out


def make_m4a(folder: Path) -> Path:
    """An M4A (AAC) with a PNG in `covr` and iTunes text atoms, written by ffmpeg."""
    picture = folder / "m4a-cover.png"
    make_split_image(picture)
    out = folder / "covr.m4a"
    subprocess.run(["ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-i",
                    str(tone(folder / "m4a-tone.wav")), "-i", str(picture), "-map", "0", "-map", "1",
                    "-c:a", "aac", "-b:a", "96k", "-c:v", "copy", "-disposition:v", "attached_pic",
                    "-metadata", "title=Tide Tables", "-metadata", "artist=Atom Ensemble",
                    "-metadata", "album=Boxes Within Boxes", str(out)], check=True, timeout=120)
    return out


@pytest.mark.parametrize("kind", ["flac", "m4a"])
def test_a_file_added_by_path_shows_its_embedded_cover_and_tags(tui_factory, tmp_path, refrain_bin, kind):
    media = tmp_path / "media"
    media.mkdir()
    track = make_flac(media) if kind == "flac" else make_m4a(media)
    title, artist, album = {
        "flac": ("Harbour Lights", "Flac Quartet", "Pictures in Blocks"),
        "m4a": ("Tide Tables", "Atom Ensemble", "Boxes Within Boxes"),
    }[kind]
    tui = start_truecolor(tui_factory, f"cover-{kind}")
    env = tui.run_env()

    def ctl(*words: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(refrain_bin), "ctl", *words], env=env, capture_output=True, text=True,
                              timeout=10)

    tui.start("--output", "null")
    tui.wait_for(lambda s: "1 Home" in s, "the UI", timeout=15)
    deadline = time.monotonic() + 15
    while ctl("status").returncode != 0:
        assert time.monotonic() < deadline, f"no control socket; stderr:\n{tui.stderr()}"
        time.sleep(0.05)
    added = ctl("queue", "add", str(track))
    assert added.returncode == 0 and added.stdout.strip() == "ok", added.stderr
    assert ctl("play").returncode == 0
    tui.keys("4")
    tui.wait_for(lambda _: (np_ := tui.now_playing()) and np_[0].startswith(title), f"{title} playing")

    # The cover: the file's own picture fills the cover box.
    x, y, columns, _rows = cover_rect(100, 30)
    assert_split_picture(wait_picture(tui, cover_rect(100, 30)))
    # Beside it, the title, artist and album from the file's tags.
    text_x = x + columns + 3
    lines = tui.lines()
    assert [lines[y + k][text_x:].rstrip() for k in range(3)] == [title, artist, album], "\n".join(lines)
    status = json.loads(ctl("status").stdout)
    assert (status["track"], status["artist"], status["album"]) == (title, artist, album)
    assert status["duration"] == pytest.approx(30, abs=0.2)
    tui.quit()
