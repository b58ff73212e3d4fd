"""The full-screen player, driven through tmux as a user would drive it.

Each test starts `refrain` in a private tmux server (`tmux -L <unique name>`)
with its own XDG dirs, LANG=C.UTF-8 and TERM=tmux-256color, sends keys with
`send-keys`, and reads the screen with `capture-pane` (with `-e` when the
highlight matters: the selected row is reverse video, the current lyric line
bold green in the Player pane and marked by a green ▶ in the lyrics view).
Waits poll the screen against a deadline; nothing sleeps for a fixed time to
let the UI "settle".

The player runs under a small shell wrapper that records `stty -g` before and
after and prints "refrain exited N", so a test can check that quitting gives
the terminal back as it was.

Set REFRAIN_TUI_SCREENSHOTS=FILE to have `test_pane_screenshots` write the
100x30 screenshots that docs/tui.md shows.
"""

from __future__ import annotations

import itertools
import os
import re
import shlex
import subprocess
import time
import unicodedata
from pathlib import Path

import pytest

import audio_analysis as aa

SGR = re.compile(r"\x1b\[[0-9;]*m")
_counter = itertools.count()

# What the demo catalog's 우산 하나 (one-umbrella.lrc) sings, and when.
UMBRELLA = [
    (5.45, "비가 내리는 버스 정류장"),
    (9.55, "우산 하나에 두 사람"),
    (12.27, "젖은 어깨도 괜찮아"),
    (15.00, "네 노래가 들리니까"),
]


# ---------------------------------------------------------------- driving tmux

def sgr_pieces(line: str):
    """A captured line in pieces: (text, None) for text, (None, parameters) for an SGR."""
    for piece in re.split(r"(\x1b\[[0-9;]*m)", line):
        if SGR.fullmatch(piece):
            yield None, [int(p) if p else 0 for p in piece[2:-1].split(";")]
        elif piece:
            yield piece, None


class TUI:
    """`refrain` in a tmux pane of its own, on a private tmux server."""

    def __init__(self, binary: Path, home: Path, name: str, width: int = 100, height: int = 30):
        self.binary = binary
        self.home = home
        self.socket = f"refrain-tui-{os.getpid()}-{name}-{next(_counter)}"
        self.width, self.height = width, height
        self.err_log = home / "err.log"
        self.bytes_log = home / "tty.bytes"
        self.env = {
            "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "tmux-256color",
            "REFRAIN_STDERR_LOG": str(self.err_log),
            # Online catalogs and lyrics point at a closed port: nothing leaves the machine.
            "REFRAIN_DEEZER_URL": "http://127.0.0.1:9/", "REFRAIN_LRCLIB_URL": "http://127.0.0.1:9/",
            # Stale sizes, as some shells and tmux set-ups export them: the player must
            # follow the terminal's real size and its resizes, not these.
            "COLUMNS": "80", "LINES": "24",
        }
        for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR"):
            d = home / var.lower()
            d.mkdir(parents=True, exist_ok=True, mode=0o700)
            self.env[var] = str(d)
        for var in ("PULSE_SERVER", "PULSE_RUNTIME_PATH", "PULSE_COOKIE", "PULSE_SINK", "PATH", "HOME"):
            if var in os.environ:
                self.env[var] = os.environ[var]
        self.started = False

    def run_env(self) -> dict:
        """The environment for `refrain scan` and other commands run next to the UI."""
        env = dict(os.environ)
        env.update(self.env)
        return env

    def start(self, *args: str) -> "TUI":
        """Starts `refrain ARGS` in a fresh pane, behind a wrapper that reports the exit."""
        run = self.home / f"run-{next(_counter)}.sh"
        exports = "\n".join(f"export {k}={shlex.quote(v)}" for k, v in self.env.items())
        argv = " ".join(shlex.quote(a) for a in [str(self.binary), *args])
        run.write_text(
            "#!/bin/sh\n"
            f"{exports}\n"
            f"stty -g > {shlex.quote(str(self.home / 'tty.before'))}\n"
            f"{argv}\n"
            "rc=$?\n"
            f"stty -g > {shlex.quote(str(self.home / 'tty.after'))}\n"
            'echo "refrain exited $rc"\n'
            "exec sleep 600\n")
        run.chmod(0o755)
        for name in ("tty.before", "tty.after"):
            (self.home / name).unlink(missing_ok=True)
        self.tmux("new-session", "-d", "-s", "t", "-x", str(self.width), "-y", str(self.height), str(run))
        # Everything the program writes to the terminal, for the escape-sequence checks.
        self.tmux("pipe-pane", "-t", "t", "-o", f"cat >> {shlex.quote(str(self.bytes_log))}")
        self.started = True
        return self

    def tmux(self, *args: str) -> str:
        proc = subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True, timeout=10)
        if proc.returncode != 0:
            raise RuntimeError(f"tmux {' '.join(args)} failed: {proc.stderr.strip()}")
        return proc.stdout

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=10)
        # tmux leaves its socket file behind.
        folder = Path(os.environ.get("TMUX_TMPDIR", "/tmp")) / f"tmux-{os.getuid()}"
        (folder / self.socket).unlink(missing_ok=True)

    # Input
    def keys(self, *keys: str) -> None:
        """Named keys, one `send-keys` each: `Enter`, `Escape`, `C-u`, `j`, `BSpace`."""
        for key in keys:
            self.tmux("send-keys", "-t", "t", key)
            if key == "Escape":
                time.sleep(0.1)  # curses waits ESCDELAY (25 ms) to tell Esc from Alt-key

    def type(self, text: str) -> None:
        """Literal text, as a user types it (UTF-8)."""
        self.tmux("send-keys", "-t", "t", "-l", text)

    def resize(self, width: int, height: int) -> None:
        self.tmux("resize-window", "-t", "t", "-x", str(width), "-y", str(height))

    # Output
    def screen(self) -> str:
        return self.tmux("capture-pane", "-t", "t", "-p")

    def lines(self) -> list[str]:
        return self.screen().split("\n")

    def styled_lines(self) -> list[str]:
        """The screen with SGR attributes (`capture-pane -e`)."""
        return self.tmux("capture-pane", "-t", "t", "-p", "-e").split("\n")

    def cells(self, styled: list[str] | None = None) -> list[list[tuple[str, frozenset]]]:
        """The screen as rows of (character, attributes) from `capture-pane -e` (or from
        `styled`, lines captured earlier).

        tmux writes only the attribute changes, and a change can carry over from the end
        of one line to the next, so the SGR state is followed through the whole capture.
        Attributes: "bold", "dim", "underline", "reverse", "fg=N" (N as in SGR 30-37).
        """
        state: set[str] = set()
        rows = []
        for line in self.styled_lines() if styled is None else styled:
            row = []
            for text, params in sgr_pieces(line):
                if params is None:
                    row.extend((ch, frozenset(state)) for ch in text)
                    continue
                i = 0
                while i < len(params):
                    code = params[i]
                    if code == 0:
                        state.clear()
                    elif code in (1, 2, 4, 7):
                        state.add({1: "bold", 2: "dim", 4: "underline", 7: "reverse"}[code])
                    elif code == 22:
                        state -= {"bold", "dim"}
                    elif code in (24, 27):
                        state.discard({24: "underline", 27: "reverse"}[code])
                    elif 30 <= code <= 37 or code == 39:
                        state = {a for a in state if not a.startswith("fg=")}
                        if code != 39:
                            state.add(f"fg={code}")
                    elif code in (38, 48):
                        i += 2 if i + 1 < len(params) and params[i + 1] == 5 else 4
                    i += 1
            rows.append(row)
        return rows

    def selected(self) -> tuple[int, str] | None:
        """(screen row, text) of the reverse-video row of a list; the status line does not count."""
        for index, row in enumerate(self.cells()[: self.height - 1]):
            if row and "reverse" in row[0][1]:
                return index, "".join(ch for ch, _ in row).strip()
        return None

    def selected_row(self) -> str | None:
        """The text of the reverse-video row of a list."""
        found = self.selected()
        return found[1] if found else None

    def track_selected(self, title: str) -> bool:
        """Whether the selected row is the track called `title` (a ♪ row), not an album or
        artist whose name holds it: search results of each kind arrive on their own."""
        return (self.selected_row() or "").startswith(f"♪ {title}")

    def highlighted_lyric(self, styled: list[str] | None = None) -> str | None:
        """The lyric line being sung, outside the bottom lines: the text drawn bold green (the
        Player pane, and the lyrics view's default style), or the line a green ▶ marks.
        `styled`: a `styled_lines()` capture taken earlier, instead of a new one."""
        styled = self.styled_lines() if styled is None else styled
        return self.bold_lyric(styled) or self.marked_lyric(styled)

    def bold_lyric(self, styled: list[str] | None = None) -> str | None:
        """The lyric text drawn bold green above the bottom lines, if any."""
        for row in self.cells(styled)[: self.height - 2]:
            text = "".join(ch for ch, attrs in row if {"bold", "fg=32"} <= attrs).strip()
            if text:
                return text
        return None

    def marked_lyric(self, styled: list[str] | None = None) -> str | None:
        """The line a green ▶ marks in the lyrics view, if any."""
        for row in self.cells(styled)[: self.height - 2]:
            marker = next((i for i, (ch, attrs) in enumerate(row) if ch == "▶" and "fg=32" in attrs), None)
            if marker is not None:
                return "".join(ch for ch, _ in row[marker + 1:]).strip()
        return None

    def wait_for(self, check, what: str, timeout: float = 5.0):
        """Polls the screen until `check(screen_text)` is truthy; returns its value."""
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            value = check(screen)
            if value:
                return value
            if time.monotonic() > deadline:
                styled = "\n".join(repr(line) for line in self.styled_lines()[:8])
                pytest.fail(f"no {what} within {timeout} s; the screen:\n{screen}\nstderr log:\n{self.stderr()}"
                            f"\nstyled:\n{styled}")
            time.sleep(0.05)

    def wait_text(self, text: str, timeout: float = 5.0) -> str:
        return self.wait_for(lambda s: s if text in s else None, repr(text), timeout)

    def wait_settled(self, text: str, timeout: float = 5.0) -> str:
        """Waits for `text`, then for two captures 50 ms apart to agree (a whole frame drawn)."""
        previous = self.wait_text(text, timeout)

        def settled(screen: str) -> str | None:
            nonlocal previous
            same = screen == previous and text in screen
            previous = screen
            return screen if same else None

        return self.wait_for(settled, f"a settled screen with {text!r}", timeout)

    def stderr(self) -> str:
        try:
            return self.err_log.read_text(errors="replace")
        except FileNotFoundError:
            return "(no stderr log)"

    def now_playing(self) -> tuple[str, float] | None:
        """(title line, position in seconds) from the now-playing line, if something plays."""
        for line in self.lines():
            m = re.search(r"^ ([▶⏸…■]) (.*?)\s+(\d+):(\d\d) / \d+:\d\d\s*$", line)
            if m:
                return m.group(2), int(m.group(3)) * 60 + int(m.group(4))
        return None

    def quit(self, timeout: float = 5.0) -> None:
        """Presses q until Refrain asks or quits (y when asked); checks the terminal came back."""
        deadline = time.monotonic() + timeout
        while "refrain exited" not in self.screen():
            if "(y/n)" in self.screen():
                self.keys("y")
            else:
                self.keys("q")
            if time.monotonic() > deadline:
                pytest.fail(f"Refrain did not quit; the screen:\n{self.screen()}\nstderr:\n{self.stderr()}")
            time.sleep(0.15)
        self.assert_restored()

    def assert_restored(self) -> None:
        screen = self.wait_settled("refrain exited")
        assert "refrain exited 0" in screen, f"Refrain failed:\n{screen}\nstderr:\n{self.stderr()}"
        before = (self.home / "tty.before").read_text()
        after = self.wait_for(lambda _: (self.home / "tty.after").exists(), "tty.after") and \
            (self.home / "tty.after").read_text()
        assert before == after, f"the tty modes changed: {before.strip()} -> {after.strip()}"
        alternate, cursor = self.tmux("display", "-p", "-t", "t", "#{alternate_on} #{cursor_flag}").split()
        assert alternate == "0", "still on the alternate screen after quitting"
        assert cursor == "1", "the cursor is still hidden after quitting"


@pytest.fixture
def tui_factory(refrain_bin, tmp_path):
    sessions: list[TUI] = []

    def make(name: str, home: Path | None = None, width: int = 100, height: int = 30) -> TUI:
        session = TUI(refrain_bin, home or tmp_path / "home", name, width, height)
        sessions.append(session)
        return session

    yield make
    for session in sessions:
        session.close()


def search_and_select(tui: TUI, query: str, row_text: str) -> None:
    """`/`, the query, Enter; waits for `row_text` in the results and selects it with j."""
    tui.keys("/")
    tui.type(query)
    tui.wait_text(f"/ {query}▏")
    tui.keys("Enter")
    tui.wait_text(row_text)
    select_row(tui, row_text)


def select_row(tui: TUI, text: str, limit: int = 30) -> None:
    """Goes to the top of the list (g), then down with j until the reverse-video row has `text`."""
    if text in (tui.selected_row() or ""):
        return
    tui.keys("g")
    # The first item sits right under the tabs, the search line and a section header.
    tui.wait_for(lambda _: (found := tui.selected()) and found[0] <= 3, "the top of the list", timeout=2)
    for _ in range(limit):
        if text in (tui.selected_row() or ""):
            return
        before = tui.selected_row()
        tui.keys("j")
        tui.wait_for(lambda _: tui.selected_row() != before or None, "the cursor to move", timeout=2)
    pytest.fail(f"no row containing {text!r} could be selected; the screen:\n{tui.screen()}")


# ---------------------------------------------------------------- tests

def test_search_play_follow_lyrics_and_seek_from_the_lyrics_view(tui_factory):
    tui = tui_factory("play").start("--output", "null")
    home = tui.wait_settled("Top tracks", timeout=15)
    assert "New releases" in home and "Refrain · demo" in home
    assert "♪ 우산 하나 — 달빛 우체국" in home

    # Search in Korean; Backspace removes one syllable.
    tui.keys("/")
    tui.type("우산x")
    tui.wait_text("/ 우산x▏")
    tui.keys("BSpace")
    tui.wait_text("/ 우산▏")
    tui.keys("Enter")
    tui.wait_text("♪ 우산 하나 — 달빛 우체국 · 밤의 편지")
    select_row(tui, "♪ 우산 하나")
    tui.keys("Enter")
    tui.wait_for(lambda _: (np := tui.now_playing()) and np[0].startswith("우산 하나"), "우산 하나 playing")
    tui.keys("4")
    tui.wait_text("vol 100%")

    # The clock and the highlighted line move together, on the clock's time.
    seen: list[tuple[float, float, str | None]] = []   # (wall time, shown position, highlighted line)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        np = tui.now_playing()
        seen.append((time.monotonic(), np[1] if np else -1, tui.highlighted_lyric()))
        if np and np[1] >= 10:
            break
        time.sleep(0.05)
    assert seen[-1][1] >= 10, f"the clock did not reach 0:10: {seen[-5:]}"

    def shown_while(first: int, last: int) -> set:
        return {s[2] for s in seen if first <= s[1] <= last}

    assert shown_while(0, 4) <= {None, "♪"}, f"a line was highlighted before 0:05.45: {shown_while(0, 4)}"
    assert shown_while(6, 8) == {UMBRELLA[0][1]}, shown_while(6, 8)
    assert shown_while(10, 10) == {UMBRELLA[1][1]}, shown_while(10, 10)
    # The shown seconds advance with the wall clock (1 s per second, whole seconds shown).
    first_1 = next(s for s in seen if s[1] >= 1)
    first_10 = next(s for s in seen if s[1] >= 10)
    assert first_10[0] - first_1[0] == pytest.approx(9.0, abs=0.5), "the clock runs at real-time speed"
    # The next line is shown dim below the current one.
    assert UMBRELLA[2][1] in tui.screen()

    # The lyrics view: it follows; j moves from the line being sung; Enter seeks there.
    tui.keys("l")
    view = tui.wait_settled("Lyrics — seek mode ON (s) · following")
    assert all(text in view for _, text in UMBRELLA)
    assert tui.highlighted_lyric() == UMBRELLA[1][1]
    tui.keys("j")
    tui.wait_text(f"› {UMBRELLA[2][1]}")
    tui.keys("j")
    tui.wait_text(f"› {UMBRELLA[3][1]}")
    assert "scrolled: f follows" in tui.screen()
    tui.keys("Enter")
    np = tui.wait_for(lambda _: (np := tui.now_playing()) and 15 <= np[1] <= 16 and np, "the seek to 0:15", timeout=3)
    tui.wait_for(lambda _: tui.highlighted_lyric() == UMBRELLA[3][1], f"{UMBRELLA[3][1]!r} highlighted", timeout=2)
    assert "› " not in tui.screen(), "following again after the seek"
    assert "· following" in tui.screen()

    # Seek mode off: Enter closes the view instead of seeking.
    tui.keys("s")
    tui.wait_text("Lyrics — seek mode off (s)")
    position = tui.now_playing()[1]
    tui.keys("j", "Enter")
    player = tui.wait_settled("vol 100%")
    assert "Lyrics —" not in player
    assert tui.now_playing()[1] - position < 2, "Enter with seek mode off did not seek"
    tui.quit()


def test_a_playlist_made_in_the_ui_survives_a_restart(tui_factory, tmp_path):
    tui = tui_factory("playlist").start("--output", "null")
    tui.wait_text("Top tracks", timeout=15)
    tui.keys("3")
    tui.wait_text("+ New playlist (c)")
    tui.keys("c")
    tui.wait_text("New playlist name: ▏")
    tui.type("밤 드라이브")
    tui.wait_text("New playlist name: 밤 드라이브▏")
    tui.keys("Enter")
    tui.wait_for(lambda s: re.search(r"≡ 밤 드라이브\s+0 tracks", s), "the new playlist")

    # One track from Home, one from Search, with the A picker.
    tui.keys("1")
    tui.wait_text("Top tracks")
    select_row(tui, "♪ 첫눈 오는 날")
    tui.keys("A")
    tui.wait_text("Add 1 to playlist")
    tui.keys("Enter")
    tui.wait_text("added 1 to 밤 드라이브")
    search_and_select(tui, "Lighthouse", "♪ Lighthouse Radio")
    tui.keys("A")
    tui.wait_text("Add 1 to playlist")
    tui.keys("Enter")
    tui.wait_text("added 1 to 밤 드라이브")
    tui.keys("3")
    tui.wait_for(lambda s: re.search(r"≡ 밤 드라이브\s+2 tracks", s), "2 tracks in the playlist")
    tui.quit()

    again = tui_factory("playlist-again", home=tui.home).start("--output", "null")
    again.keys("3")
    again.wait_for(lambda s: re.search(r"≡ 밤 드라이브\s+2 tracks", s), "the playlist after a restart", timeout=15)
    select_row(again, "≡ 밤 드라이브")
    again.keys("Enter")
    detail = again.wait_settled("‹ 밤 드라이브")
    rows = [line.strip() for line in detail.split("\n") if line.strip().startswith("♪")]
    assert [r.split(" — ")[0] for r in rows] == ["♪ 첫눈 오는 날", "♪ Lighthouse Radio"], detail
    again.quit()


def test_resizing_down_to_the_minimum_and_below_and_back(tui_factory):
    tui = tui_factory("resize").start("--output", "null")
    tui.wait_text("Top tracks", timeout=15)
    tui.resize(40, 12)
    small = tui.wait_settled("1 Home  2 Search  3 Library  4 Player  …")
    lines = small.rstrip("\n").split("\n")
    assert len(lines) == 12 and all(len(line) <= 40 for line in lines), small
    assert "New releases" in small and "■ stopped" in small
    assert "? help  / search  l lyrics  space pla…" in small

    tui.resize(30, 8)
    tiny = tui.wait_settled("terminal too small")
    assert "(30×8, needs 40×12)" in tiny
    assert "Home" not in tiny and "New releases" not in tiny
    tui.keys("2")   # keys still work while too small
    tui.resize(100, 30)
    full = tui.wait_settled("Refrain · demo")
    assert "Press / and type to search demo." in full, "the pane chosen while small is shown"
    assert "terminal too small" not in full
    tui.keys("Escape", "1")   # 2 opened the search box, which takes digits as text
    tui.wait_text("Top tracks")
    tui.quit()


def test_the_ui_plays_audio_on_pulseaudio(tui_factory, recorder):
    tui = tui_factory("pulse").start("--output", "pulse")
    home = tui.wait_settled("Top tracks", timeout=15)
    assert "no audio server" not in home
    search_and_select(tui, "첫눈", "♪ 첫눈 오는 날")
    quiet_until = time.monotonic()
    tui.keys("Enter")
    tui.wait_for(lambda _: (np := tui.now_playing()) and np[1] >= 3, "three seconds of 첫눈 오는 날", timeout=10)
    shown = tui.now_playing()
    rec = recorder.stop(tail=0.2)
    assert shown[0].startswith("첫눈 오는 날")
    before = rec.audio.window(0, max(0.1, rec.at(quiet_until) - 0.1))
    assert aa.rms_dbfs(before) < -60, "sound before anything was played"
    start = aa.sound_start(rec.audio, after=rec.at(quiet_until))
    assert start is not None, "nothing was heard while the UI played"
    heard = rec.audio.window(start, rec.audio.duration - start)
    assert aa.sounding_time(aa.Audio(heard, rec.audio.rate)) >= 2.0, "less than 2 s of sound"
    assert aa.rms_dbfs(heard) > -40
    tui.quit()


# ---------------------------------------------------------------- mouse, small sizes, overlays, traffic

def cells_of(line: str) -> list[str]:
    """A captured line as terminal cells: a wide character fills two (its second is "")."""
    cells: list[str] = []
    for ch in line:
        cells.append(ch)
        if unicodedata.east_asian_width(ch) in ("W", "F"):
            cells.append("")
    return cells


def x10_mouse(button: int, x: int, y: int) -> str:
    """The X10 mouse report a terminal sends (tmux-256color's kmous is \\E[M): cell x, y from 0."""
    return "\x1b[M" + chr(32 + button) + chr(33 + x) + chr(33 + y)


WHEEL_UP, WHEEL_DOWN, LEFT_PRESS = 64, 65, 0


def play_umbrella(tui: TUI) -> None:
    """Searches 우산 and plays 우산 하나; waits until it plays."""
    search_and_select(tui, "우산", "♪ 우산 하나")
    tui.keys("Enter")
    tui.wait_for(lambda _: (np := tui.now_playing()) and np[0].startswith("우산 하나"), "우산 하나 playing")


def test_the_mouse_wheel_scrolls_the_lyrics_view_and_a_click_shows_a_tab(tui_factory):
    tui = tui_factory("mouse")
    config = tui.home / "xdg_config_home" / "refrain"
    config.mkdir(parents=True, exist_ok=True)
    (config / "config.toml").write_text("[display]\nmouse = true\n")
    tui.start("--output", "null")
    tui.wait_settled("Top tracks", timeout=15)
    assert tui.tmux("display", "-p", "-t", "t", "#{mouse_any_flag}").strip() == "1", "mouse reporting is on"
    # The wheel moves a list selection like j.
    before = tui.selected_row()
    tui.tmux("send-keys", "-t", "t", "-l", x10_mouse(WHEEL_DOWN, 10, 5))
    tui.wait_for(lambda _: tui.selected_row() != before or None, "the wheel to move the selection")

    play_umbrella(tui)
    tui.keys("l")
    tui.wait_settled("Lyrics — seek mode ON (s) · following")
    tui.tmux("send-keys", "-t", "t", "-l", x10_mouse(WHEEL_DOWN, 20, 10) * 2)
    view = tui.wait_text("scrolled: f follows")
    assert "› " in view, "the wheel selected a line, like j"
    tui.keys("f")
    tui.wait_text("· following")
    tui.keys("l")
    # A click on a tab shows its pane.
    column = tui.lines()[0].index("3 Library") + 2
    tui.tmux("send-keys", "-t", "t", "-l", x10_mouse(LEFT_PRESS, column, 0))
    tui.wait_text("+ New playlist (c)")
    tui.quit()
    assert tui.tmux("display", "-p", "-t", "t", "#{mouse_any_flag}").strip() == "0", "mouse reporting is off again"


def test_the_player_at_forty_by_twelve_keeps_its_two_lyric_lines(tui_factory):
    tui = tui_factory("small-player", width=40, height=12).start("--output", "null")
    tui.wait_text("New releases", timeout=15)
    play_umbrella(tui)
    tui.keys("4")
    tui.wait_text("vol 100%")
    tui.keys("Right")   # on to 0:05, just before the first line
    tui.wait_for(lambda _: tui.highlighted_lyric() == UMBRELLA[0][1], f"{UMBRELLA[0][1]!r} highlighted", timeout=5)
    screen = tui.screen()
    assert UMBRELLA[1][1] in screen, f"the next line shows too:\n{screen}"
    assert all(len(line) <= 40 for line in screen.split("\n"))
    # A list command with nothing to work on says so.
    tui.keys("a")
    tui.wait_text("nothing here to add")
    tui.quit()


def test_a_playing_tick_writes_a_few_bytes(tui_factory):
    """With the lyrics view open and no line changing, a tick is the changed digit, not a line."""
    tui = tui_factory("tick").start("--output", "null")
    tui.wait_text("Top tracks", timeout=15)
    play_umbrella(tui)
    tui.keys("l")
    tui.wait_settled("Lyrics — seek mode ON (s) · following")
    tui.wait_for(lambda _: (np := tui.now_playing()) and np[1] >= 1, "0:01")
    start = tui.bytes_log.stat().st_size
    tui.wait_for(lambda _: (np := tui.now_playing()) and np[1] >= 4, "0:04")
    written = tui.bytes_log.stat().st_size - start
    assert tui.now_playing()[1] < 5, "the window ran into the first lyric line"
    # Three ticks (four if the log lagged): a cursor move and a digit each, no colours, about
    # 30 bytes with today's ncurses and tmux (make bench measures it); a redrawn line or
    # screen would be hundreds.
    assert written <= 200, f"{written} bytes for three one-second ticks"
    assert tui.tmux("display", "-p", "-t", "t", "#{mouse_any_flag}").strip() == "0", "the mouse is off by default"
    tui.quit()
    assert b"\x1b[?1000h" not in tui.bytes_log.read_bytes(), "mouse reporting was asked for"


@pytest.mark.parametrize("highlight", ["default", "marker"])
def test_a_lyric_line_change_in_the_lyrics_view(tui_factory, highlight):
    """The sung line moves on: by default it is drawn bold in its colour beside the ▶; with
    `lyrics_highlight = "marker"` only the ▶ moves and no lyric text is resent."""
    tui = tui_factory(f"change-{highlight}")
    if highlight == "marker":
        config = tui.home / "xdg_config_home" / "refrain"
        config.mkdir(parents=True, exist_ok=True)
        (config / "config.toml").write_text('[display]\nlyrics_highlight = "marker"\n')
    tui.start("--output", "null")
    tui.wait_text("Top tracks", timeout=15)
    play_umbrella(tui)
    tui.keys("l")
    tui.wait_settled("Lyrics — seek mode ON (s) · following")
    tui.wait_for(lambda _: (np := tui.now_playing()) and np[1] >= 9, "0:09", timeout=12)
    assert tui.highlighted_lyric() == UMBRELLA[0][1]
    start = tui.bytes_log.stat().st_size
    # 우산 하나에 두 사람 is sung from 0:09.55; the 0:10 tick follows.
    tui.wait_for(lambda _: tui.highlighted_lyric() == UMBRELLA[1][1], f"{UMBRELLA[1][1]!r} sung", timeout=3)
    tui.wait_for(lambda _: (np := tui.now_playing()) and np[1] >= 10, "0:10", timeout=3)
    sent = tui.bytes_log.read_bytes()[start:]
    screen = tui.screen()
    assert UMBRELLA[0][1] in screen and UMBRELLA[2][1] in screen, "the lines around it still show"
    if highlight == "marker":
        assert tui.marked_lyric() == UMBRELLA[1][1], "the ▶ marks the sung line"
        assert tui.bold_lyric() is None, "the marker style leaves the text as it is"
        assert UMBRELLA[1][1].encode() not in sent and UMBRELLA[0][1].encode() not in sent, sent
        # A scroll, the old marker erased and the new one drawn, and a tick (about 55 bytes
        # with today's ncurses and tmux; docs/benchmarks.md measures it): a sanity bound.
        assert len(sent) <= 200, f"{len(sent)} bytes for one line change: {sent!r}"
    else:
        assert tui.bold_lyric() == UMBRELLA[1][1], "the sung line is bold in its colour"
        assert tui.marked_lyric() is None, "the colour marks it; the ▶ is for NO_COLOR"
        assert UMBRELLA[1][1].encode() in sent, "the whole line is drawn again in its new colours"
    tui.quit()


def test_an_album_not_opened_goes_to_a_playlist_and_overlays_hide_the_pane(tui_factory):
    tui = tui_factory("album-add").start("--output", "null")
    tui.wait_text("Top tracks", timeout=15)
    tui.keys("3", "c")
    tui.type("Albums")
    tui.keys("Enter")
    tui.wait_text("≡ Albums")
    tui.keys("1")
    tui.wait_text("Top tracks")
    select_row(tui, "◉ 밤의 편지")
    tui.keys("A")
    tui.wait_text("Add 2 to playlist")
    # The picker's box and a one-cell margin around it show nothing of the list behind.
    lines = [cells_of(line) for line in tui.lines()]
    top = next(y for y, line in enumerate(lines) if "+- Add 2 to playlist" in "".join(line))
    left = lines[top].index("+")
    right = len(lines[top]) - 1 - lines[top][::-1].index("+")
    bottom = next(y for y in range(top + 1, len(lines)) if len(lines[y]) > left and lines[y][left] == "+")
    for y in range(top - 1, bottom + 2):
        row = lines[y] + [" "] * (right + 2 - len(lines[y]))
        inside = "".join(row[left - 1:right + 2])
        if y in (top - 1, bottom + 1):
            assert inside.strip() == "", f"the margin row {y} shows {inside!r}"
        else:
            assert row[left - 1] == " " and row[right + 1] == " ", f"row {y} touches the border: {inside!r}"
    tui.keys("Enter")
    tui.wait_text("added 2 to Albums")
    tui.keys("a")
    tui.wait_text("added 2 tracks to the queue")
    tui.keys("3")
    tui.wait_for(lambda s: re.search(r"≡ Albums\s+2 tracks", s), "2 tracks in the playlist")
    tui.quit()


# ---------------------------------------------------------------- hostile metadata

def _text_frame(frame_id: str, value: str) -> bytes:
    body = b"\x03" + value.encode("utf-8")
    n = len(body)
    size = bytes([(n >> 21) & 0x7F, (n >> 14) & 0x7F, (n >> 7) & 0x7F, n & 0x7F])
    return frame_id.encode("ascii") + size + b"\x00\x00" + body


def write_tagged_mp3(path: Path, audio: bytes, tags: dict[str, str]) -> None:
    """`audio` behind an ID3v2.4 tag with UTF-8 text frames."""
    frames = b"".join(_text_frame(k, v) for k, v in tags.items())
    n = len(frames)
    header = b"ID3\x04\x00\x00" + bytes([(n >> 21) & 0x7F, (n >> 14) & 0x7F, (n >> 7) & 0x7F, n & 0x7F])
    path.write_bytes(header + frames + audio)


HOSTILE_TITLE = (
    "Evil\x1b]52;c;cm0gLXJmIH4=\x07 Clip"    # OSC 52: write the clipboard
    "\x1b]0;pwned-title\x1b\\board"            # OSC 0 with ST: set the window title
    "\x1b[5;35;47m Blink\x1b[0m"               # blinking magenta (curses never sends 5;35;47)
    "\x1b[2J\x1b[H"                             # clear the screen
    "\u202e Tail\u2066x\u2069"                  # bidi override and isolate
    "\x9b31m\x90dcs-payload\x9c"                # 8-bit CSI and DCS
)
HOSTILE_ARTIST = "\x1b[31mRed\x1b[0m Band\x07"


def test_hostile_tags_never_reach_the_terminal(tui_factory, tmp_path, fixtures_dir):
    music = tmp_path / "music"
    music.mkdir()
    tone = (fixtures_dir / "tone440.mp3").read_bytes()
    write_tagged_mp3(music / "hostile.mp3", tone, {"TIT2": HOSTILE_TITLE, "TPE1": HOSTILE_ARTIST, "TALB": "Traps"})
    tui = tui_factory("hostile")
    scan = subprocess.run([str(tui.binary), "scan", str(music)], env=tui.run_env(),
                          capture_output=True, text=True, timeout=30)
    assert scan.returncode == 0, scan.stderr

    tui.start("--provider", "local", "--output", "null")
    tui.wait_for(lambda s: "1 Home" in s, "the UI", timeout=15)
    tui.keys("/")
    tui.type("Evil")
    tui.keys("Enter")
    row = tui.wait_for(lambda s: next((ln for ln in s.split("\n") if "♪ Evil" in ln), None), "the hostile track")
    # The printable words survive, in order, with the controls gone.
    words = ["Evil", "Clip", "board", "Blink", "Tail", "x"]
    positions = [row.find(w) for w in words]
    assert -1 not in positions and positions == sorted(positions), row
    assert "Red Band" in row
    tui.wait_for(lambda _: "Evil" in (tui.selected_row() or ""), "the track selected")
    tui.keys("Enter")   # play it: the title reaches the now-playing line and the Player pane
    tui.wait_for(lambda _: (np := tui.now_playing()) and np[0].startswith("Evil"), "the hostile track playing")
    tui.keys("4")
    tui.wait_text("vol 100%")
    tui.quit()

    raw = tui.bytes_log.read_bytes()
    assert "Blink".encode() in raw and "Evil".encode() in raw, "the title was drawn"
    for payload in [b"\x1b]52;", b"cm0gLXJmIH4=", b"\x1b]0;", b"pwned-title", b"\x1b[5;35;47m",
                    "\u202e".encode(), "\u2066".encode(), "\u009b".encode(), "\u0090".encode(),
                    b"dcs-payload", b"\x07"]:
        assert payload not in raw, f"{payload!r} from the tags reached the terminal"
    # The title's "clear the screen" must not appear right after its own text.
    assert b"Blink\x1b[2J" not in raw


# ---------------------------------------------------------------- screenshots for docs/tui.md

def test_pane_screenshots(tui_factory):
    """Visits every pane at 100x30; with REFRAIN_TUI_SCREENSHOTS=FILE, writes them for docs/tui.md."""
    tui = tui_factory("shots").start("--output", "null")
    shots: dict[str, str] = {}
    hint = "? help  / search  l lyrics  space play/pause  q back"

    def shot(name: str, must: str) -> None:
        screen = tui.wait_settled(must)
        shots[name] = "\n".join(line.rstrip() for line in screen.rstrip("\n").split("\n"))

    shot("Home", "Top tracks")
    tui.keys("3", "c")
    tui.type("Rainy day")
    tui.keys("Enter")
    tui.wait_text("≡ Rainy day")
    search_and_select(tui, "달빛", "♪ 우산 하나")
    tui.wait_text(hint)   # the "created" message has gone
    shot("Search", "♪ 첫눈 오는 날")
    tui.keys("Enter")
    tui.wait_for(lambda _: (np := tui.now_playing()) and np[0].startswith("우산 하나"), "우산 하나 playing")
    for title in ("♪ 우산 하나", "♪ 첫눈 오는 날"):
        select_row(tui, title)
        tui.keys("A")
        tui.wait_text("Add 1 to playlist")
        tui.keys("Enter")
        tui.wait_text("added 1 to Rainy day")
    tui.keys("a")
    tui.wait_text("added 1 track to the queue")
    tui.keys("Right", "Right")   # on to the second and third lines
    tui.wait_text(hint, timeout=6)
    tui.keys("3")
    shot("Library", "2 tracks")
    tui.keys("4")
    shot("Player", "vol 100%")
    tui.keys("l")
    shot("Lyrics", "Lyrics — seek mode ON")
    tui.keys("l", "5")
    shot("Queue", "Queue (2)")
    tui.keys("?")
    shot("Help", "Keys (any key closes)")
    tui.keys("Escape")
    tui.quit()

    assert re.search(r"≡ Rainy day\s+2 tracks", shots["Library"])
    assert any(text in shots["Player"] for _, text in UMBRELLA)
    assert "첫눈 오는 날 — 달빛 우체국" in shots["Queue"]
    assert "j, down" in shots["Help"] and "more: refrain keys" not in shots["Help"]
    target = os.environ.get("REFRAIN_TUI_SCREENSHOTS")
    if target:
        Path(target).write_text("".join(f"## {k}\n\n```\n{v}\n```\n\n" for k, v in shots.items()))
