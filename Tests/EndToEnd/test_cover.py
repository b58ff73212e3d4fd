"""The cover in the Player pane (key 4), as the user sees it.

Most tests drive the real binary in tmux, like test_tui.py, where `display.cover_art =
"auto"` means half blocks: each cell is `▀` with the upper pixel as its foreground colour
and the lower as its background (a cell whose two pixels match is a space on the
background colour). `capture-pane -e` gives the colours back as SGR `38;2;r;g;b` /
`48;2;r;g;b` (24-bit, with COLORTERM=truecolor) or `38;5;N` / `48;5;N` (the xterm
palette), so a test rebuilds the picture tmux shows and compares it with the image it came
from: the average colour, and for pictures made here, which side is which colour.

Where the cover goes: the pane's content is the screen minus the tab row and the two
bottom lines; the cover is square in pixels, `rows = min(content - 7, width * 2/5 / 2)`
rows by twice as many columns, at column 2, row 2. A test checks that the cells with a
picture colour fill exactly that rectangle and nothing outside it.

The pictures come from three places: the demo catalog's album PNGs, an ID3v2.3 APIC frame
written here (`id3v23`), and a cover.jpg-like file beside the MP3. Hostile images (cut
short, a header claiming 100000×100000 pixels, JPEG markers that make no sense, a 50 MB
picture) must leave the placeholder box, a player that still answers keys, and one line in
the log ($XDG_STATE_HOME/refrain/refrain.log).

The kitty graphics protocol cannot be tried in tmux (auto never uses it there), so
`KittyTerminal` plays a terminal on a pseudo-terminal: it answers Refrain's start-up
query (or only the device-attributes request that follows it, as a terminal without kitty
graphics does), sends keys, and keeps everything Refrain writes for the checks. Refrain
runs with `--output null` throughout: no sound server is needed.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import re
import select
import struct
import subprocess
import termios
import threading
import time
import zlib
from pathlib import Path

import numpy as np
import pytest

from test_tui import TUI, select_row, sgr_pieces, tui_factory  # noqa: F401  (the fixture is used by name)

# Runs alone (scripts/e2e): it measures how soon the first frame follows the terminal's answers.
pytestmark = pytest.mark.serial

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "Resources" / "demo"
CATALOG = json.loads((DEMO / "catalog.json").read_text())
UPPER_HALF = "▀"
STATE_LOG = Path("xdg_state_home") / "refrain" / "refrain.log"   # under the TUI's home

# The two colours of the pictures made here: red on the left half, blue on the right.
RED, BLUE = (200, 40, 40), (40, 60, 200)


# ---------------------------------------------------------------- pictures

def image_pixels(path: Path) -> np.ndarray:
    """The image as an H×W×3 array of 0-255, transparency over black (as Refrain draws it)."""
    size = subprocess.run(["identify", "-format", "%w %h", f"{path}[0]"], capture_output=True,
                          text=True, check=True, timeout=30).stdout.split()
    width, height = int(size[0]), int(size[1])
    raw = subprocess.run(["convert", f"{path}[0]", "-background", "black", "-alpha", "remove",
                          "-alpha", "off", "-depth", "8", "rgb:-"],
                         capture_output=True, check=True, timeout=30).stdout
    return np.frombuffer(raw, dtype=np.uint8).reshape(height, width, 3).astype(float)


def make_split_image(path: Path, size: int = 64) -> bytes:
    """A square picture, RED on the left half and BLUE on the right (PNG or JPEG by suffix)."""
    left, right = (f"rgb({r},{g},{b})" for r, g, b in (RED, BLUE))
    half = f"{size // 2}x{size}"
    subprocess.run(["convert", "-size", half, f"xc:{left}", "-size", half, f"xc:{right}", "+append",
                    "-quality", "95", str(path)], check=True, timeout=30)
    return path.read_bytes()


def png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def huge_png() -> bytes:
    """A PNG whose header (with a valid CRC) declares 100000×100000 RGB pixels."""
    header = struct.pack(">IIBBBBB", 100_000, 100_000, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header)
            + png_chunk(b"IDAT", zlib.compress(b"\x00" * 4096)) + png_chunk(b"IEND", b""))


def bogus_jpeg() -> bytes:
    """A JPEG start followed by markers no decoder can make sense of: a quantisation table
    longer than the file, an SOF with no components, a marker 0xFF99 and stray fill bytes."""
    return (b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
            b"\xff\xdb\xff\xf0" + b"\x07" * 64
            + b"\xff\xc0\x00\x08\x08\x00\x40\x00\x40\x00"
            + b"\xff\x99\x00\x04\x12\x34" + b"\xff" * 32 + b"\xff\xda\x00\x02" + b"\x55" * 100
            + b"\xff\xd9")


# ---------------------------------------------------------------- ID3v2.3 tags

def syncsafe(n: int) -> bytes:
    return bytes([(n >> 21) & 0x7F, (n >> 14) & 0x7F, (n >> 7) & 0x7F, n & 0x7F])


def frame23(frame_id: str, body: bytes) -> bytes:
    """An ID3v2.3 frame: the size is a plain 32-bit number (v2.4 makes it syncsafe)."""
    return frame_id.encode("ascii") + struct.pack(">I", len(body)) + b"\x00\x00" + body


def text23(frame_id: str, text: str) -> bytes:
    return frame23(frame_id, b"\x01" + text.encode("utf-16"))   # UTF-16 with a BOM


def apic23(mime: str, picture: bytes) -> bytes:
    """A front cover (picture type 3) with an empty description."""
    return frame23("APIC", b"\x00" + mime.encode("latin-1") + b"\x00" + b"\x03" + b"\x00" + picture)


def id3v23(frames: list[bytes]) -> bytes:
    body = b"".join(frames)
    return b"ID3\x03\x00\x00" + syncsafe(len(body)) + body


def write_track(folder: Path, title: str, audio: bytes, picture: tuple[str, bytes] | None = None) -> Path:
    """`folder/<title>.mp3`: `audio` behind a tag naming the title, artist and album (one album
    per title, so no two tracks share a cover), with an APIC (MIME, bytes) when given."""
    folder.mkdir(parents=True, exist_ok=True)
    frames = [text23("TIT2", title), text23("TPE1", "Cover Tests"), text23("TALB", f"{title} Album")]
    if picture:
        frames.append(apic23(*picture))
    path = folder / f"{title}.mp3"
    path.write_bytes(id3v23(frames) + audio)
    return path


def write_track_with_huge_apic(folder: Path, title: str, audio: bytes, size: int = 50 << 20) -> Path:
    """A track whose APIC holds `size` bytes: a PNG signature and then a hole (the file is
    sparse, so this costs no disk and no time)."""
    folder.mkdir(parents=True, exist_ok=True)
    head = [text23("TIT2", title), text23("TPE1", "Cover Tests"), text23("TALB", f"{title} Album")]
    prefix = b"\x00image/png\x00\x03\x00"
    frame_head = b"APIC" + struct.pack(">I", len(prefix) + size) + b"\x00\x00" + prefix
    body_size = sum(map(len, head)) + len(frame_head) + size
    path = folder / f"{title}.mp3"
    with open(path, "wb") as f:
        f.write(b"ID3\x03\x00\x00" + syncsafe(body_size) + b"".join(head) + frame_head + b"\x89PNG\r\n\x1a\n")
        f.seek(10 + body_size)
        f.write(audio)
    return path


# ---------------------------------------------------------------- reading the screen

def palette_rgb(index: int) -> tuple[int, int, int]:
    """xterm's colour for palette entry 16-255 (the part Refrain uses)."""
    if 16 <= index <= 231:
        levels = (0, 95, 135, 175, 215, 255)
        n = index - 16
        return levels[n // 36], levels[n // 6 % 6], levels[n % 6]
    if 232 <= index <= 255:
        level = 8 + 10 * (index - 232)
        return level, level, level
    raise AssertionError(f"palette entry {index} is one of the 16 system colours")


def colour_cells(tui: TUI) -> list[list[tuple[str, tuple | None, tuple | None]]]:
    """The screen as rows of (character, foreground, background) from `capture-pane -e`.

    A colour is ("rgb", (r, g, b)) for 24-bit, ("256", n) for the palette, ("sys", n) for
    SGR 30-37/40-47, or None. The SGR state carries over from line to line, as in TUI.cells.
    Trailing spaces are kept: a cover row may end in cells drawn as spaces on a colour.
    Wide characters count as one entry: only the left part of the screen (the cover) is
    read by position, and nothing wide is drawn left of it.
    """
    fg = bg = None
    rows = []
    # -N keeps trailing spaces: a row of the cover can end in cells drawn as spaces.
    for line in tui.tmux("capture-pane", "-t", "t", "-p", "-e", "-N").split("\n"):
        row = []
        for text, params in sgr_pieces(line):
            if params is None:
                row.extend((ch, fg, bg) for ch in text)
                continue
            i = 0
            while i < len(params):
                code = params[i]
                if code == 0:
                    fg = bg = None
                elif code in (38, 48):
                    if params[i + 1] == 2:
                        colour = ("rgb", tuple(params[i + 2:i + 5]))
                        i += 4
                    else:
                        colour = ("256", params[i + 2])
                        i += 2
                    if code == 38:
                        fg = colour
                    else:
                        bg = colour
                elif 30 <= code <= 37:
                    fg = ("sys", code - 30)
                elif 40 <= code <= 47:
                    bg = ("sys", code - 40)
                elif code == 39:
                    fg = None
                elif code == 49:
                    bg = None
                i += 1
        rows.append(row)
    return rows


def rgb_of(colour: tuple) -> tuple[int, int, int]:
    kind, value = colour
    if kind == "rgb":
        return value
    if kind == "256":
        return palette_rgb(value)
    raise AssertionError(f"a picture cell in a system colour: {colour}")


def is_picture(cell: tuple) -> bool:
    """A half-block cell: a 24-bit or palette background (nothing else on screen has one)."""
    return cell[2] is not None and cell[2][0] in ("rgb", "256")


def cover_rect(width: int, height: int) -> tuple[int, int, int, int]:
    """(x, y, columns, rows) of the cover box in a width×height terminal (PlayerPane's layout)."""
    content = height - 3
    rows = min(content - 7, width * 2 // 5 // 2)
    return 2, 2, rows * 2, rows


def picture_extent(screen: list[list[tuple]]) -> tuple[int, int, int, int] | None:
    """(x, y, columns, rows) of the smallest rectangle holding every picture cell."""
    spots = [(x, y) for y, row in enumerate(screen) for x, cell in enumerate(row) if is_picture(cell)]
    if not spots:
        return None
    xs, ys = [x for x, _ in spots], [y for _, y in spots]
    return min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1


def picture_pixels(screen: list[list[tuple]], rect: tuple[int, int, int, int]) -> np.ndarray:
    """The pixels the cells in `rect` show: rows*2 × columns × 3 (top pixel, bottom pixel)."""
    x0, y0, columns, rows = rect
    out = np.zeros((rows * 2, columns, 3))
    for y in range(rows):
        for x in range(columns):
            ch, fg, bg = screen[y0 + y][x0 + x]
            assert is_picture((ch, fg, bg)), f"cell ({x0 + x}, {y0 + y}) is {ch!r} {fg} {bg}, not a picture cell"
            assert ch in (UPPER_HALF, " "), f"cell ({x0 + x}, {y0 + y}) shows {ch!r}"
            bottom = rgb_of(bg)
            top = rgb_of(fg) if ch == UPPER_HALF else bottom
            out[2 * y, x], out[2 * y + 1, x] = top, bottom
    return out


def colour_distance(a, b) -> float:
    return float(np.max(np.abs(np.asarray(a, dtype=float) - np.asarray(b, dtype=float))))


def wait_picture(tui: TUI, rect: tuple[int, int, int, int], timeout: float = 10.0) -> np.ndarray:
    """Waits until the picture fills exactly `rect`, the same in two captures; its pixels."""
    previous = None

    def ready(_screen: str):
        nonlocal previous
        screen = colour_cells(tui)
        if picture_extent(screen) != rect:
            previous = None
            return None
        same = screen == previous
        previous = screen
        return [picture_pixels(screen, rect)] if same else None

    return tui.wait_for(ready, f"a picture filling {rect}", timeout)[0]


def assert_placeholder(tui: TUI, width: int = 100, height: int = 30) -> None:
    """The placeholder box: a +---+ border around ♪ and "cover", and no picture cells."""
    x, y, columns, rows = cover_rect(width, height)
    lines = tui.lines()
    border = "+" + "-" * (columns - 2) + "+"
    assert lines[y][x:x + columns] == border and lines[y + rows - 1][x:x + columns] == border, \
        "\n".join(lines)
    inside = [lines[y + k][x:x + columns] for k in range(1, rows - 1)]
    assert all(row.startswith("|") and row.endswith("|") for row in inside), "\n".join(lines)
    assert any("♪" in row for row in inside) and any("cover" in row for row in inside), "\n".join(lines)
    screen = colour_cells(tui)
    assert picture_extent(screen) is None, "picture cells beside the placeholder box"
    assert UPPER_HALF not in tui.screen()


# ---------------------------------------------------------------- driving

def start_truecolor(tui_factory, name: str, config: str | None = None, **size) -> TUI:
    tui = tui_factory(name, **size)
    tui.env["COLORTERM"] = "truecolor"
    if config is not None:
        folder = tui.home / "xdg_config_home" / "refrain"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "config.toml").write_text(config)
    return tui


def album_cover_of(title: str) -> Path:
    """The demo catalog's cover PNG for the album holding the track called `title`."""
    track = next(t for t in CATALOG["tracks"] if t["title"] == title)
    album = next(a for a in CATALOG["albums"] if track["id"] in a["tracks"])
    return DEMO / album["cover"]


def play_demo_track(tui: TUI, title: str) -> None:
    """Plays `title` from Home's Top tracks and shows the Player pane."""
    tui.wait_settled("Top tracks", timeout=15)
    select_row(tui, f"♪ {title}")
    tui.keys("Enter")
    tui.wait_for(lambda _: (np_ := tui.now_playing()) and np_[0].startswith(title), f"{title} playing")
    tui.keys("4")
    tui.wait_text("vol 100%")


def play_local_track(tui: TUI, title: str) -> None:
    """Searches the local library for `title`, plays it and shows the Player pane."""
    tui.wait_for(lambda s: "1 Home" in s, "the UI", timeout=15)
    tui.keys("/")
    tui.type(title)
    tui.keys("Enter")
    tui.wait_for(lambda _: tui.track_selected(title), f"{title} selected")
    tui.keys("Enter")
    tui.wait_for(lambda _: (np_ := tui.now_playing()) and np_[0].startswith(title), f"{title} playing")
    tui.keys("4")
    tui.wait_text("vol 100%")


def scan(tui: TUI, folder: Path) -> None:
    result = subprocess.run([str(tui.binary), "scan", str(folder)], env=tui.run_env(),
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr


def log_lines(tui: TUI) -> list[str]:
    try:
        return (tui.home / STATE_LOG).read_text(errors="replace").splitlines()
    except FileNotFoundError:
        return []


def cover_log_lines(tui: TUI, title: str) -> list[str]:
    """The log's "no cover for …" lines about `title` (a local track is named by its path,
    which holds the title here)."""
    return [line for line in log_lines(tui) if "no cover for " in line and title in line]


@pytest.fixture(scope="module")
def audio(fixtures_dir) -> bytes:
    """30 s of MPEG audio with no tag of its own (steps.mp3), for the local tracks."""
    return (fixtures_dir / "steps.mp3").read_bytes()


# ---------------------------------------------------------------- demo covers in tmux

def test_each_demo_album_shows_its_cover_in_24_bit_colour(tui_factory):
    """Start Here plays a track of each demo album in turn; each shows that album's PNG."""
    tui = start_truecolor(tui_factory, "truecolor").start("--output", "null")
    tui.wait_settled("Top tracks", timeout=15)
    select_row(tui, "≡ Start Here")
    tui.keys("Enter")
    tui.wait_text("▶ Play all")
    select_row(tui, "▶ Play all")
    tui.keys("Enter")
    tui.wait_for(lambda _: tui.now_playing(), "the playlist playing")
    tui.keys("4")
    rect = cover_rect(100, 30)
    assert rect == (2, 2, 40, 20)
    seen = []
    for step in range(4):
        title = tui.wait_for(lambda _: (np_ := tui.now_playing()) and np_[0].split(" — ")[0], "a title")
        pixels = wait_picture(tui, rect)
        expected = image_pixels(album_cover_of(title)).mean(axis=(0, 1))
        shown = pixels.mean(axis=(0, 1))
        assert colour_distance(shown, expected) <= 20, f"{title}: shows {shown}, the album PNG averages {expected}"
        assert "38;2;" in "".join(tui.styled_lines()), "24-bit colours"
        seen.append(album_cover_of(title).name)
        if step < 3:
            tui.keys("n")
            tui.wait_for(lambda _: (np_ := tui.now_playing()) and not np_[0].startswith(title), "the next track")
    assert len(set(seen)) == 4, f"the first four tracks of Start Here come from four albums: {seen}"
    tui.quit()


def test_without_colorterm_the_cover_uses_the_256_colour_palette(tui_factory):
    tui = tui_factory("palette")
    tui.env["COLORTERM"] = ""   # not inherited from whoever runs the suite
    tui.start("--output", "null")
    play_demo_track(tui, "우산 하나")
    pixels = wait_picture(tui, cover_rect(100, 30))
    styled = "".join(tui.styled_lines())
    assert "48;5;" in styled and "38;2;" not in styled and "48;2;" not in styled
    expected = image_pixels(album_cover_of("우산 하나")).mean(axis=(0, 1))
    # The palette's nearest colours are up to about 20 apart per channel.
    assert colour_distance(pixels.mean(axis=(0, 1)), expected) <= 30
    tui.quit()


def test_cover_art_off_keeps_the_placeholder_box(tui_factory):
    tui = start_truecolor(tui_factory, "off", config='[display]\ncover_art = "off"\n').start("--output", "null")
    play_demo_track(tui, "우산 하나")
    tui.wait_for(lambda _: (np_ := tui.now_playing()) and np_[1] >= 2, "0:02")
    assert_placeholder(tui)
    tui.quit()
    raw = tui.bytes_log.read_bytes()
    assert UPPER_HALF.encode() not in raw and b"48;2;" not in raw


def test_a_resize_draws_the_cover_again_at_the_new_size(tui_factory):
    tui = start_truecolor(tui_factory, "resize").start("--output", "null")
    play_demo_track(tui, "우산 하나")
    expected = image_pixels(album_cover_of("우산 하나")).mean(axis=(0, 1))
    for width, height in [(100, 30), (120, 40), (80, 24), (59, 24), (100, 30)]:
        if (width, height) != (tui.width, tui.height):
            tui.resize(width, height)
            tui.width, tui.height = width, height
        if width < 60:   # no room for the cover: the rows without it, and no picture left over
            tui.wait_for(lambda _: tui.lines()[2].rstrip() == "  우산 하나", "the title at the left edge")
            tui.wait_settled("vol 100%")
            assert picture_extent(colour_cells(tui)) is None, tui.screen()
            assert UPPER_HALF not in tui.screen()
            continue
        rect = cover_rect(width, height)
        pixels = wait_picture(tui, rect)   # exactly the rect: nothing of the old size is left
        assert colour_distance(pixels.mean(axis=(0, 1)), expected) <= 20, (width, height)
        lines = tui.lines()
        assert "우산 하나" in lines[rect[1]][rect[0] + rect[2]:], "the title beside the cover"
    assert [cover_rect(*s)[2:] for s in [(120, 40), (80, 24)]] == [(48, 24), (28, 14)]
    tui.quit()


def test_views_over_the_player_hide_the_cover_and_it_comes_back(tui_factory):
    """The help box, the lyrics view and another pane leave no cell of the cover; back on
    the Player pane it is drawn whole again."""
    tui = start_truecolor(tui_factory, "overlays").start("--output", "null")
    play_demo_track(tui, "우산 하나")
    rect = cover_rect(100, 30)
    shown = wait_picture(tui, rect)
    for key, sign, back in [("?", "Keys (any key closes)", "Escape"), ("l", "Lyrics — seek mode", "l"),
                            ("5", "Queue (1)", "4")]:
        tui.keys(key)
        tui.wait_settled(sign)
        assert picture_extent(colour_cells(tui)) is None, f"cover cells under {sign!r}:\n{tui.screen()}"
        assert UPPER_HALF not in tui.screen()
        tui.keys(back)
        tui.wait_text("vol 100%")
        assert colour_distance(wait_picture(tui, rect).mean(axis=(0, 1)), shown.mean(axis=(0, 1))) < 1
    tui.quit()


def test_a_playing_cover_is_sent_once(tui_factory):
    """While the clock ticks, a lyric line changes and playback pauses and resumes, the cover
    is not sent again (no half blocks, no 24-bit colours) and stays on screen as it was."""
    tui = start_truecolor(tui_factory, "once").start("--output", "null")
    play_demo_track(tui, "우산 하나")
    rect = cover_rect(100, 30)
    shown = wait_picture(tui, rect)
    start = tui.bytes_log.stat().st_size
    # 비가 내리는 버스 정류장 is sung from 0:05.45: the lyric lines below the cover change.
    tui.wait_for(lambda _: tui.now_playing()[1] >= 7, "0:07", timeout=10)
    tui.keys("Space")
    tui.wait_text("track 1 of 1  paused")
    tui.keys("Space")
    tui.wait_text("track 1 of 1  playing")
    sent = tui.bytes_log.read_bytes()[start:]
    assert "비가 내리는 버스 정류장".encode() in sent, "the lyric line changed in the window"
    assert UPPER_HALF.encode() not in sent and b"38;2;" not in sent and b"48;2;" not in sent, sent
    assert b"\x1b7" not in sent, "a picture was written again (it starts with DECSC)"
    # Ticks, the progress bar, two lyric lines and the state: a few hundred bytes, where the
    # cover alone is about 20 kB.
    assert len(sent) < 2000, f"{len(sent)} bytes: {sent!r}"
    assert np.array_equal(wait_picture(tui, rect), shown), "the cover changed on screen"
    tui.quit()


# ---------------------------------------------------------------- local files

def assert_split_picture(pixels: np.ndarray) -> None:
    """The picture made by make_split_image: red on the left, blue on the right."""
    columns = pixels.shape[1]
    left = pixels[:, : columns * 2 // 5].mean(axis=(0, 1))
    right = pixels[:, columns - columns * 2 // 5:].mean(axis=(0, 1))
    assert colour_distance(left, RED) <= 20, f"the left side is {left}, not {RED}"
    assert colour_distance(right, BLUE) <= 20, f"the right side is {right}, not {BLUE}"


@pytest.mark.parametrize("where", ["embedded-png", "embedded-jpeg", "folder-Cover.JPG", "folder-FRONT.png"])
def test_a_local_track_shows_its_own_picture(tui_factory, tmp_path, audio, where):
    """An APIC picture (PNG or JPEG), or a cover/front image of any case beside the file."""
    music = tmp_path / "music"
    kind, detail = where.split("-", 1)
    if kind == "embedded":
        picture = make_split_image(tmp_path / f"picture.{detail}")
        write_track(music / "album", "Picture Track", audio, (f"image/{detail}", picture))
    else:
        write_track(music / "album", "Picture Track", audio)
        make_split_image(music / "album" / detail)
    tui = start_truecolor(tui_factory, where)
    scan(tui, music)
    tui.start("--provider", "local", "--output", "null")
    play_local_track(tui, "Picture Track")
    assert_split_picture(wait_picture(tui, cover_rect(100, 30)))
    assert cover_log_lines(tui, "Picture Track") == []
    tui.quit()


def test_a_wide_picture_is_centred_in_the_cover_box(tui_factory, tmp_path, audio):
    """A 2:1 picture keeps its shape: the box's full width, half its height, in the middle."""
    music = tmp_path / "music"
    wide = tmp_path / "wide.png"
    subprocess.run(["convert", "-size", "64x64", f"xc:rgb{RED}", "-size", "64x64", f"xc:rgb{BLUE}", "+append",
                    str(wide)], check=True, timeout=30)
    write_track(music / "album", "Wide Picture", audio, ("image/png", wide.read_bytes()))
    tui = start_truecolor(tui_factory, "wide")
    scan(tui, music)
    tui.start("--provider", "local", "--output", "null")
    play_local_track(tui, "Wide Picture")
    x, y, columns, rows = cover_rect(100, 30)
    assert_split_picture(wait_picture(tui, (x, y + rows // 4, columns, rows // 2)))
    tui.quit()


def test_an_embedded_picture_comes_before_the_folder_image(tui_factory, tmp_path, audio):
    music = tmp_path / "music"
    write_track(music / "album", "Both Pictures", audio, ("image/png", make_split_image(tmp_path / "p.png")))
    subprocess.run(["convert", "-size", "64x64", "xc:rgb(20,200,20)", str(music / "album" / "cover.png")],
                   check=True, timeout=30)
    tui = start_truecolor(tui_factory, "order")
    scan(tui, music)
    tui.start("--provider", "local", "--output", "null")
    play_local_track(tui, "Both Pictures")
    assert_split_picture(wait_picture(tui, cover_rect(100, 30)))
    tui.quit()


def build_hostile(case: str, folder: Path, tmp: Path, audio: bytes) -> None:
    """Writes the track `Hostile <case>` with its bad picture into `folder`."""
    title = f"Hostile {case}"
    if case == "lying-mime":   # a JPEG in an APIC that says image/png: the bytes are sniffed
        write_track(folder, title, audio, ("image/png", make_split_image(tmp / "p.jpg")))
    elif case == "huge-apic":
        write_track_with_huge_apic(folder, title, audio)
    else:
        write_track(folder, title, audio)
        if case == "truncated-jpeg":
            whole = make_split_image(tmp / "p.jpg", size=256)
            (folder / "cover.jpg").write_bytes(whole[: len(whole) // 2])
        elif case == "truncated-png":
            whole = make_split_image(tmp / "p.png", size=256)
            (folder / "Folder.PNG").write_bytes(whole[: len(whole) // 2])
        elif case == "huge-png":
            (folder / "cover.png").write_bytes(huge_png())
        elif case == "bogus-jpeg":
            (folder / "front.jpeg").write_bytes(bogus_jpeg())
        else:
            raise AssertionError(case)


# What the log line must say about each case.
HOSTILE = {
    "truncated-jpeg": r"cover art: the image data ends early",
    "truncated-png": r"cover art: the image data ends early",
    "huge-png": r"cover art: the image is 100000×100000 pixels, more than allowed",
    "bogus-jpeg": r"cover art: the image is damaged",
    "huge-apic": r"cover art: the picture is 52428800 bytes, more than the \d+-byte limit",
    "lying-mime": None,   # shown
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_hostile_picture_leaves_a_living_player(tui_factory, tmp_path, audio, case):
    music = tmp_path / "music"
    build_hostile(case, music / case, tmp_path, audio)
    title = f"Hostile {case}"
    tui = start_truecolor(tui_factory, case)
    scan(tui, music)
    tui.start("--provider", "local", "--output", "null")
    play_local_track(tui, title)
    reason = HOSTILE[case]
    if reason is None:
        assert_split_picture(wait_picture(tui, cover_rect(100, 30)))
        assert cover_log_lines(tui, title) == []
    else:
        lines = tui.wait_for(lambda _: cover_log_lines(tui, title), "the log line", timeout=10)
        assert len(lines) == 1 and re.search(reason, lines[0]), lines
        assert_placeholder(tui)
    # Still alive: the clock runs, other panes show, and the Player pane comes back the same.
    at = tui.now_playing()[1]
    tui.wait_for(lambda _: tui.now_playing()[1] > at, "the clock to move")
    tui.keys("5")
    tui.wait_text("Queue (1)")
    assert UPPER_HALF not in tui.screen(), "the cover stayed on the Queue pane"
    tui.keys("4")
    tui.wait_text("vol 100%")
    if reason is None:
        assert_split_picture(wait_picture(tui, cover_rect(100, 30)))
    else:
        assert_placeholder(tui)
        assert len(cover_log_lines(tui, title)) == 1, "the failure was logged once, not per frame"
    tui.quit()


# ---------------------------------------------------------------- a kitty terminal on a pty

APC = re.compile(rb"\x1b_G([^;\x1b]*)(?:;([^\x1b]*))?\x1b\\")
KITTY_QUERY = re.compile(rb"\x1b_Gi=31,[^\x1b]*\x1b\\\x1b\[c")


class KittyTerminal:
    """Refrain on a pseudo-terminal, with this object as the terminal.

    With `kitty=True` it answers the graphics query as kitty does (OK, then the device
    attributes); with `kitty=False` it answers only the device attributes, as a terminal
    without the graphics protocol does. A thread reads everything Refrain writes into
    `output` (with the monotonic time of each read), so Refrain never blocks on a full pty.
    """

    def __init__(self, binary: Path, home: Path, kitty: bool, width: int = 100, height: int = 30,
                 answer_delay: float = 0.0):
        self.binary, self.home, self.kitty = binary, home, kitty
        self.answer_delay = answer_delay
        self.env = {
            "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-kitty", "COLORTERM": "truecolor",
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home),
            "REFRAIN_STDERR_LOG": str(home / "err.log"),
            "REFRAIN_DEEZER_URL": "http://127.0.0.1:9/", "REFRAIN_LRCLIB_URL": "http://127.0.0.1:9/",
        }
        for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR"):
            d = home / var.lower()
            d.mkdir(parents=True, exist_ok=True, mode=0o700)
            self.env[var] = str(d)
        self.size = (width, height)
        self.output = bytearray()
        self.reads: list[tuple[float, int]] = []   # (when, len(output) after the read)
        self.answered_at: float | None = None
        self.changed = threading.Condition()
        self.proc: subprocess.Popen | None = None
        self._stop = threading.Event()

    def start(self, *args: str) -> "KittyTerminal":
        master, slave = os.openpty()
        width, height = self.size
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))
        self.master = master
        self.started_at = time.monotonic()
        self.proc = subprocess.Popen(
            [str(self.binary), *args], stdin=slave, stdout=slave, stderr=slave, env=self.env,
            start_new_session=True, preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
        os.close(slave)
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()
        return self

    def _read(self) -> None:
        while not self._stop.is_set():
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if not ready:
                continue
            try:
                data = os.read(self.master, 65536)
            except OSError:   # EIO: the child closed the pty
                data = b""
            with self.changed:
                if not data:
                    self._stop.set()
                else:
                    self.output += data
                    self.reads.append((time.monotonic(), len(self.output)))
                    if self.answered_at is None and KITTY_QUERY.search(self.output):
                        reply = (b"\x1b_Gi=31;OK\x1b\\" if self.kitty else b"") + b"\x1b[?62;22c"
                        self.answered_at = time.monotonic() + self.answer_delay
                        if self.answer_delay:
                            threading.Timer(self.answer_delay, os.write, (self.master, reply)).start()
                        else:
                            os.write(self.master, reply)
                self.changed.notify_all()

    def wait_for(self, check, what: str, timeout: float = 10.0):
        """Waits until `check(output bytes)` is truthy; returns its value."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                value = check(bytes(self.output))
                if value:
                    return value
                left = deadline - time.monotonic()
                if left <= 0 or (self._stop.is_set() and not value):
                    tail = bytes(self.output[-600:])
                    pytest.fail(f"no {what} within {timeout} s; the last output: {tail!r}\n"
                                f"stderr log:\n{self.stderr()}")
                self.changed.wait(min(left, 0.1))

    def wait_text(self, text: str, after: int = 0, timeout: float = 10.0) -> int:
        """Waits for `text` in the output from offset `after`; returns where it ends."""
        needle = text.encode()

        def found(out: bytes):
            at = out.find(needle, after)
            return at + len(needle) if at >= 0 else None

        return self.wait_for(found, repr(text), timeout)

    def keys(self, data: str) -> None:
        os.write(self.master, data.encode())

    def resize(self, width: int, height: int) -> None:
        """Sets the pty's size; the kernel sends Refrain SIGWINCH, as a terminal window does."""
        fcntl.ioctl(self.master, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))

    def ctl(self, *words: str) -> str:
        result = subprocess.run([str(self.binary), "ctl", *words], env={**os.environ, **self.env},
                                capture_output=True, text=True, timeout=10)
        assert result.returncode == 0, result.stderr
        return result.stdout

    def position(self) -> float:
        return json.loads(self.ctl("status"))["position"]

    def images(self, start: int = 0, end: int | None = None) -> list[dict]:
        """The graphics commands in the output: their keys (and `payload`), in order."""
        found = []
        for m in APC.finditer(bytes(self.output[start:end])):
            keys = dict(pair.split(b"=", 1) for pair in m.group(1).split(b",") if b"=" in pair)
            entry = {k.decode(): v.decode() for k, v in keys.items()}
            entry["payload"] = m.group(2) or b""
            found.append(entry)
        return found

    def quit(self, timeout: float = 10.0) -> int:
        """q until Refrain asks (then y) or exits; its exit status."""
        deadline = time.monotonic() + timeout
        mark = len(self.output)
        while self.proc.poll() is None:
            if b"(y/n)" in self.output[mark:]:
                self.keys("y")
                mark = len(self.output)
            else:
                self.keys("q")
            try:
                self.proc.wait(0.3)
            except subprocess.TimeoutExpired:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"Refrain did not quit; the last output: {bytes(self.output[-400:])!r}")
        self._thread.join(5)   # everything it wrote before exiting
        return self.proc.returncode

    def stderr(self) -> str:
        try:
            return (self.home / "err.log").read_text(errors="replace")
        except FileNotFoundError:
            return "(no stderr log)"

    def close(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)
        self._stop.set()
        if hasattr(self, "_thread"):
            self._thread.join(5)
        if hasattr(self, "master"):
            os.close(self.master)


@pytest.fixture
def pty_terminal(refrain_bin, tmp_path):
    made: list[KittyTerminal] = []

    def make(kitty: bool, answer_delay: float = 0.0) -> KittyTerminal:
        term = KittyTerminal(refrain_bin, tmp_path / f"home-{len(made)}", kitty, answer_delay=answer_delay)
        made.append(term)
        return term

    yield make
    for term in made:
        term.close()


def play_first_album(term: KittyTerminal) -> None:
    """Home opens on the newest album (밤의 편지): Enter opens it, Enter on Play all plays it."""
    term.wait_text("Top tracks")
    term.keys("\r")
    term.wait_text("▶ Play all")
    term.keys("\r")
    term.wait_for(lambda _: json.loads(term.ctl("status")).get("state") == "playing", "playback")


def decoded_png(transmit: list[dict]) -> bytes:
    return base64.b64decode(b"".join(entry["payload"] for entry in transmit))


def test_kitty_gets_each_cover_once_and_deletes_it(pty_terminal, tmp_path):
    term = pty_terminal(kitty=True).start("--output", "null")
    play_first_album(term)
    # The album's page shows its small header cover (12 columns) first; it goes when the
    # Player pane opens.
    header = term.wait_for(lambda _: next((e for e in term.images() if e.get("a") == "p" and e.get("c") == "12"),
                                          None), "the album header's cover")
    mark = len(term.output)
    term.keys("4")
    # The transmit (a=t, chunks with m=1 and a last one with m=0), then the placement.
    term.wait_for(lambda _: any(e.get("a") == "p" and e.get("c") == "40" for e in term.images(mark)),
                  "the placement")
    assert ("d", "I", header["i"]) in [(e.get("a"), e.get("d"), e.get("i")) for e in term.images(mark)], \
        "the album header's cover is deleted with its page"
    first = [e for e in term.images(mark) if not (e.get("a") == "d" and e.get("i") == header["i"])]
    chunks = []
    for entry in first:
        if entry.get("a") == "t" or (chunks and "a" not in entry and chunks[-1].get("m") == "1"):
            chunks.append(entry)
    assert [e.get("a") for e in first if "a" in e] == ["t", "p"], [{k: v for k, v in e.items() if k != "payload"}
                                                                  for e in first]
    image_id = chunks[0]["i"]
    assert chunks[0]["f"] == "100" and chunks[-1]["m"] == "0"
    assert all(c["m"] == "1" for c in chunks[:-1]) and len(chunks) == len(first) - 1
    png = decoded_png(chunks)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    (tmp_path / "sent.png").write_bytes(png)
    sent = image_pixels(tmp_path / "sent.png").mean(axis=(0, 1))
    expected = image_pixels(album_cover_of("첫눈 오는 날")).mean(axis=(0, 1))
    assert colour_distance(sent, expected) <= 20, f"kitty got {sent}, the album PNG averages {expected}"
    place = first[-1]
    assert place["i"] == image_id and (place["c"], place["r"]) == ("40", "20"), place
    # The cursor goes to the cover's corner (row 3, column 3 counting from 1) just before.
    placed_at = bytes(term.output).find(b"\x1b_Ga=p", mark)
    assert bytes(term.output[placed_at - 10:placed_at]).endswith(b"\x1b[3;3H")
    assert UPPER_HALF.encode() not in term.output, "half blocks on a kitty terminal"

    # Two seconds of playback: ticks only, no image sent again.
    mark = len(term.output)
    at = term.position()
    term.wait_for(lambda _: term.position() >= at + 2, "two more seconds", timeout=6)
    assert term.images(mark) == [], "graphics commands while nothing changed"
    assert len(term.output) - mark < 2000

    # A bigger window: the old image is deleted and the cover sent again at the new size.
    mark = len(term.output)
    term.resize(120, 40)
    term.wait_for(lambda _: any(e.get("a") == "p" for e in term.images(mark)), "the placement after the resize")
    after = [e for e in term.images(mark) if "a" in e]
    assert [(e["a"], e["i"]) for e in after] == [("d", image_id), ("t", after[1]["i"]), ("p", after[1]["i"])], after
    assert (after[2]["c"], after[2]["r"]) == ("48", "24"), after[2]
    image_id = after[1]["i"]

    # The next track: the old image is deleted, the new one sent once and placed.
    mark = len(term.output)
    term.keys("n")
    term.wait_for(lambda _: any(e.get("a") == "p" for e in term.images(mark)), "the next placement")
    after = [e for e in term.images(mark) if "a" in e]
    assert after[0] == {"a": "d", "d": "I", "i": image_id, "q": "2", "payload": b""}, after[0]
    assert [e["a"] for e in after] == ["d", "t", "p"], after
    new_id = after[1]["i"]
    assert new_id != image_id and after[2]["i"] == new_id
    assert (after[2]["c"], after[2]["r"]) == ("48", "24"), after[2]

    # The help box over the pane takes the image away; closing it places the cover again.
    mark = len(term.output)
    term.keys("?")
    term.wait_text("Keys (any key closes)", after=mark)
    term.wait_for(lambda _: term.images(mark), "the delete under the help box")
    assert [(e["a"], e.get("d"), e["i"]) for e in term.images(mark)] == [("d", "I", new_id)]
    mark = len(term.output)
    term.keys("\x1b")
    term.wait_for(lambda _: any(e.get("a") == "p" for e in term.images(mark)), "the cover again")
    again = [e for e in term.images(mark) if "a" in e]
    assert [e["a"] for e in again] == ["t", "p"] and again[0]["i"] == again[1]["i"], again
    new_id = again[0]["i"]

    # Quitting deletes the image on screen. On the way out `q` goes back through Home, where
    # the album's page (open since the start) shows its small header cover: that one is
    # sent and deleted too. No image is left on the terminal.
    mark = len(term.output)
    assert term.quit() == 0, term.stderr()
    last = [e for e in term.images(mark) if "a" in e]
    assert ("d", "I", new_id) == (last[0]["a"], last[0].get("d"), last[0]["i"]), last
    sent = {e["i"] for e in last if e["a"] == "t"}
    deleted = {e["i"] for e in last if e["a"] == "d"}
    assert sent <= deleted, f"images left on the terminal: {sent - deleted}"
    assert all(e["c"] == "12" for e in last if e["a"] == "p"), "only the album header's cover"


def test_kitty_gets_a_big_cover_in_chunks(pty_terminal, tmp_path, audio):
    """A picture of noise makes a PNG of many 4096-byte base64 chunks: the first carries the
    keys and m=1, the others only m (and q), the last m=0; together they are the cover."""
    noise = tmp_path / "noise.png"
    subprocess.run(["convert", "-seed", "7", "-size", "64x64", "xc:gray", "+noise", "Random", str(noise)],
                   check=True, timeout=30)
    track = write_track(tmp_path / "music", "Noise Track", audio, ("image/png", noise.read_bytes()))
    term = pty_terminal(kitty=True).start("--output", "null")
    term.wait_text("Top tracks")
    term.ctl("queue", "add", str(track))
    term.ctl("play")
    mark = len(term.output)
    term.keys("4")
    term.wait_for(lambda _: any(e.get("a") == "p" for e in term.images(mark)), "the placement")
    sent = term.images(mark)
    chunks = sent[:-1]
    assert len(chunks) >= 3, f"{len(chunks)} chunks"
    assert chunks[0]["a"] == "t" and chunks[0]["f"] == "100" and chunks[0]["m"] == "1"
    assert all(set(c) == {"m", "q", "payload"} and c["m"] == "1" for c in chunks[1:-1]), chunks[1]
    assert chunks[-1]["m"] == "0" and sent[-1]["a"] == "p"
    assert all(len(c["payload"]) <= 4096 for c in chunks) and all(len(c["payload"]) == 4096 for c in chunks[:-1])
    png = decoded_png(chunks)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    (tmp_path / "sent.png").write_bytes(png)
    sent_mean = image_pixels(tmp_path / "sent.png").mean(axis=(0, 1))
    assert colour_distance(sent_mean, image_pixels(noise).mean(axis=(0, 1))) <= 20
    assert term.quit() == 0, term.stderr()


def test_a_terminal_without_kitty_graphics_gets_half_blocks_at_once(pty_terminal):
    term = pty_terminal(kitty=False).start("--output", "null")
    term.wait_text("1 Home", timeout=5)
    first_frame = next(when for when, size in term.reads if b"1 Home" in term.output[:size])
    assert term.answered_at is not None, "Refrain did not ask the terminal"
    assert first_frame - term.started_at < 1.0, f"the first frame came {first_frame - term.started_at:.2f} s in"
    assert first_frame - term.answered_at < 0.15, "Refrain waited on after the device attributes came"
    play_first_album(term)
    mark = len(term.output)
    term.keys("4")
    term.wait_text(UPPER_HALF, after=mark)
    assert term.images(mark) == [], "graphics commands to a terminal that did not answer the query"
    assert b"\x1b[38;2;" in term.output[mark:], "24-bit colour (COLORTERM=truecolor)"
    assert term.quit() == 0, term.stderr()


def test_answers_that_come_after_the_probe_gave_up_are_not_keys(pty_terminal):
    """Over a slow link the terminal answers after Refrain stopped waiting (200 ms): the
    answers then arrive as input, where Escape would quit and digits would switch panes."""
    term = pty_terminal(kitty=True, answer_delay=0.45).start("--output", "null")
    term.wait_text("1 Home", timeout=5)
    time.sleep(0.3)   # the answers reach Refrain now, after its first frame
    mark = len(term.output)
    term.keys("j")    # a real key after them still works
    term.wait_for(lambda out: len(out) > mark, "a redraw after j")
    time.sleep(1.0)
    assert term.proc.poll() is None, f"Refrain exited on the late answer: {term.stderr()}"
    status = json.loads(term.ctl("status"))
    assert status["pane"] == "home", status
    assert b";22c" not in term.output[mark:], "the answer was typed into the screen"
    play_first_album(term)
    mark = len(term.output)
    term.keys("4")
    term.wait_text(UPPER_HALF, after=mark)
    assert term.images(mark) == [], "kitty's late OK does not switch to kitty graphics"
    assert term.quit() == 0, term.stderr()


def test_an_iterm_terminal_gets_an_inline_image(pty_terminal):
    """TERM_PROGRAM names a terminal with iTerm2 inline images: the cover goes as one
    `OSC 1337 ; File=` image the size of the cover's cells, a PNG of the album's colours."""
    term = pty_terminal(kitty=False)
    term.env.update(TERM="xterm-256color", TERM_PROGRAM="iTerm.app")
    term.start("--output", "null")
    play_first_album(term)
    # The album's page shows its small header cover (12 columns) first.
    term.wait_text("width=12;", timeout=10)
    mark = len(term.output)
    term.keys("4")
    end = term.wait_text("\x07", after=term.wait_text("width=40;", after=mark))
    sequence = bytes(term.output[mark:end])
    m = re.search(rb"\x1b\]1337;File=([^:]*):([A-Za-z0-9+/=]+)\x07", sequence)
    assert m, sequence[-200:]
    keys = dict(pair.split(b"=", 1) for pair in m.group(1).split(b";"))
    assert keys[b"inline"] == b"1" and (keys[b"width"], keys[b"height"]) == (b"40", b"20"), keys
    png = base64.b64decode(m.group(2))
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and int(keys[b"size"]) == len(png)
    assert UPPER_HALF.encode() not in term.output[mark:], "half blocks as well as the image"
    time.sleep(1.5)
    assert b"1337;File" not in term.output[end:], "the image was sent again while playing"
    assert term.quit() == 0, term.stderr()
