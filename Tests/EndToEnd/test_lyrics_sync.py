"""Tap-to-sync (issue 19), end to end: the full-screen player in tmux, real audio on the
private PulseAudio server, stamps sent with `refrain ctl` and with keys.

The song is the generated steps.mp3 (second k sounds 300 + 50·k Hz) copied into a
temporary folder as song.mp3, with a plain sidecar song.lrc of five lines (one of them
blank: a break is a line to stamp too). The player's output is recorded from the test
sink's monitor, and `aa.step_changes` + `aa.heard_position(changes, rec.at(t))` say which
position of the song was being heard at monotonic time t, as in test_sync.py.

How a stamp's error is measured:

- `refrain ctl lyrics sync stamp`: the player reads its audible position while it handles
  the request, somewhere between the moment the ctl process was started and the moment it
  returned. The reference is the position heard at the midpoint of those two times; the
  stamp must be within STAMP_TOLERANCE of it. The same stamp must also lie within the
  tolerance of the span heard between the two times (a check that does not depend on
  where in the call the request was handled).
- The Space key through `tmux send-keys`: tmux hands the key to the pane's terminal some
  time after `send-keys` is called. That delay is measured in the same tmux server, not
  guessed: a probe window that reads its terminal raw stamps each byte's arrival on the
  monotonic clock, and KEY_PROBES keys are sent to it the way the test sends Space. A
  Space stamp's reference is the position heard at (send-keys called + the median
  delivery), and its bound is STAMP_TOLERANCE + 5 ms (a key's stamp is read from the
  screen, in hundredths) + the spread of the delivery (slowest − median).

The tolerance is the issue's: 30 ms. The recording of a null sink's monitor runs up to one
sink block (20 ms here) ahead of the sink's clock, which PulseAudio's latency and so
Refrain's audible clock count on; stamps therefore read about 15 ms "early" against the
recording. That is inside the tolerance, and it is why the bound is not tighter.

Every test records the sink, even where nothing is measured from the recording: with no
reader on its monitor the idle null sink runs with large blocks, and the player's position
then stands still for ~0.6 s at a time early in the track (two stamps 0.4 s apart came out
equal), which a sound card never does.
"""

from __future__ import annotations

import json
import re
import shlex
import statistics
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

import audio_analysis as aa
from test_tui import TUI, tui_factory  # noqa: F401  (the fixture is used by name)

# Runs alone (scripts/e2e): it measures stamps against what is heard.
pytestmark = pytest.mark.serial

STAMP_TOLERANCE = 0.030      # s: the bound between a stamp and what was heard
KEY_ROUNDING = 0.005         # s: a key's stamp is read from the screen in hundredths
KEY_PROBES = 12
LINES = ["First line 하나", "Second line 둘", "", "Fourth line 넷", "Fifth line 다섯"]
PLAIN = "\n".join(LINES) + "\n"
STAMP = re.compile(r"\[(\d\d):(\d\d)\.(\d\d)\]")
HEADER = "Timing {}/5"


# ---------------------------------------------------------------- helpers

@pytest.fixture
def song(tmp_path, fixtures_dir) -> Path:
    """song.mp3 (steps.mp3) with a plain five-line sidecar song.lrc, in a folder of its own."""
    folder = tmp_path / "music"
    folder.mkdir()
    shutil.copy(fixtures_dir / "steps.mp3", folder / "song.mp3")
    (folder / "song.lrc").write_text(PLAIN, encoding="utf-8")
    return folder / "song.mp3"


class Sync:
    """The full-screen player (a TUI in tmux, on the private PulseAudio) and its ctl."""

    def __init__(self, tui: TUI):
        self.tui = tui
        self.env = tui.run_env()

    def ctl(self, *words: str, ok: bool = True) -> tuple[subprocess.CompletedProcess, float, float]:
        """Runs `refrain ctl WORDS`; (result, monotonic time before, time after)."""
        before = time.monotonic()
        result = subprocess.run([str(self.tui.binary), "ctl", *words], env=self.env, capture_output=True,
                                text=True, timeout=10)
        after = time.monotonic()
        if ok:
            assert result.returncode == 0, f"`refrain ctl {' '.join(words)}` failed: {result.stderr}"
        return result, before, after

    def status(self) -> dict:
        return json.loads(self.ctl("status")[0].stdout)

    def wait_position(self, at_least: float, timeout: float = 10) -> float:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            position = self.status()["position"]
            if position >= at_least:
                return position
            time.sleep(0.02)
        pytest.fail(f"playback never reached {at_least} s; the screen:\n{self.tui.screen()}")

    def open_and_play(self, song: Path) -> None:
        """Waits for the control socket, plays the song and opens the lyrics view."""
        deadline = time.monotonic() + 15
        while self.ctl("status", ok=False)[0].returncode != 0:
            if time.monotonic() > deadline:
                pytest.fail(f"no control socket; stderr:\n{self.tui.stderr()}")
            time.sleep(0.05)
        self.ctl("queue", "add", str(song))
        self.ctl("play")
        self.tui.keys("l")
        self.tui.wait_text(LINES[0])

    def stamps_on_screen(self) -> dict[str, float | None]:
        """The timing view's stamps by line text (♪ for the blank line), in seconds."""
        out: dict[str, float | None] = {}
        for line in self.tui.lines():
            m = re.match(r"^[ ▶›]\s*(\[(?:\d\d:\d\d\.\d\d|--:--\.--)\]) (.*?)\s*$", line)
            if not m:
                continue
            s = STAMP.fullmatch(m.group(1))
            out[m.group(2)] = int(s[1]) * 60 + int(s[2]) + int(s[3]) / 100 if s else None
        return out

    def stamp_of(self, text: str) -> float | None:
        return self.stamps_on_screen().get(text or "♪")


def start_timing(sync: Sync, after: float) -> float:
    """Waits until `after` s are played, presses S; returns when S was sent. The seek back to
    0:00 is a tone change the recording shows, so the stamps' positions can be placed."""
    sync.wait_position(after)
    sent = time.monotonic()
    sync.tui.keys("S")
    sync.tui.wait_text(HEADER.format(0))
    sync.tui.wait_text("timing: Space (`lyrics sync stamp`) stamps each line as you hear it")
    position = sync.status()["position"]
    assert position <= time.monotonic() - sent + 0.1, f"S did not start from 0:00 (at {position} s)"
    return sent


def until(moment: float) -> None:
    while time.monotonic() < moment:
        time.sleep(0.001)


def measure_key_delivery(tui: TUI, probes: int = KEY_PROBES) -> list[float]:
    """How long tmux takes from `send-keys` being called to the key reaching a pane's terminal,
    in s: a probe window of the same tmux server reads its terminal raw and logs arrivals."""
    log = tui.home / "key-probe.log"
    script = tui.home / "key-probe.py"
    script.write_text(
        "import os, sys, time, tty\n"
        "tty.setraw(0)\n"
        f"out = open({str(log)!r}, 'a', buffering=1)\n"
        "out.write('ready\\n')\n"
        "while True:\n"
        "    data = os.read(0, 64)\n"
        "    now = time.monotonic()\n"
        "    for _ in data:\n"
        "        out.write(f'{now}\\n')\n")
    tui.tmux("new-window", "-d", "-t", "t", "-n", "probe", f"{shlex.quote(sys.executable)} {shlex.quote(str(script))}")
    deadline = time.monotonic() + 5
    while not (log.exists() and "ready" in log.read_text()):
        assert time.monotonic() < deadline, "the key probe did not start"
        time.sleep(0.02)
    sent = []
    for _ in range(probes):
        sent.append(time.monotonic())
        tui.tmux("send-keys", "-t", "t:probe", "x")
        time.sleep(0.03)
    deadline = time.monotonic() + 3
    while True:
        arrived = [float(x) for x in log.read_text().split()[1:]]
        if len(arrived) >= probes or time.monotonic() > deadline:
            break
        time.sleep(0.02)
    tui.tmux("kill-window", "-t", "t:probe")
    assert len(arrived) == probes, f"the probe got {len(arrived)} of {probes} keys"
    return [b - a for a, b in zip(sent, arrived)]


def lrc_times(text: str) -> list[tuple[int, str]]:
    """The `[mm:ss.xx]text` lines of an LRC file, as (hundredths of a second, text)."""
    out = []
    for line in text.splitlines():
        m = re.fullmatch(r"\[(\d\d):(\d\d)\.(\d\d)\](.*)", line)
        if m:
            out.append(((int(m[1]) * 60 + int(m[2])) * 100 + int(m[3]), m[4]))
    return out


def centis(ms: int) -> int:
    """A stamp in ms as the saved file writes it: in hundredths, rounded half up."""
    return (ms + 5) // 10


def hundredths(ms: int) -> float:
    return centis(ms) / 100


# ---------------------------------------------------------------- tests

def test_stamps_from_ctl_and_keys_land_on_what_is_heard(tui_factory, recorder, song, steps):
    """Stamps with `refrain ctl lyrics sync stamp` at 1.3, 2.6 and 4.1 s after S, then with
    Space at 5.2 and 6.5 s: each lies within 30 ms of the position heard when it was sent."""
    tui = tui_factory("sync-heard").start("--output", "pulse")
    sync = Sync(tui)
    sync.open_and_play(song)
    delivery = measure_key_delivery(tui)
    started = start_timing(sync, after=2.2)

    ctl_stamps = []   # (answer, before, after)
    for offset in (1.3, 2.6, 4.1):
        until(started + offset)
        result, before, after = sync.ctl("lyrics", "sync", "stamp")
        ctl_stamps.append((json.loads(result.stdout), before, after))
    key_stamps = []   # (line, send-keys called, returned)
    for line, offset in ((3, 5.2), (4, 6.5)):
        until(started + offset)
        before = time.monotonic()
        tui.keys("Space")
        key_stamps.append((line, before, time.monotonic()))
        tui.wait_text(f"line {line + 1} at [")
    tui.wait_text(HEADER.format(5))
    shown = sync.stamps_on_screen()
    rec = recorder.stop(tail=0.2)
    changes = aa.step_changes(rec.audio, steps["freqs"])

    assert [a["line"] for a, _, _ in ctl_stamps] == [0, 1, 2], ctl_stamps
    ctl_report, key_report = [], []
    for answer, before, after in ctl_stamps:
        heard = aa.heard_position(changes, rec.at((before + after) / 2))
        early = aa.heard_position(changes, rec.at(before))
        late = aa.heard_position(changes, rec.at(after))
        assert None not in (heard, early, late), f"nothing heard around the stamp {answer}: {changes[:12]}"
        stamp = answer["ms"] / 1000
        ctl_report.append((answer["line"], answer["ms"], round((stamp - heard) * 1000, 1),
                           round((after - before) * 1000, 1)))
        assert early - STAMP_TOLERANCE <= stamp <= late + STAMP_TOLERANCE, (
            f"line {answer['line']} stamped at {stamp:.3f} s, outside what was heard during the ctl call "
            f"({early:.3f}–{late:.3f} s)")
    assert all(abs(err) <= STAMP_TOLERANCE * 1000 for _, _, err, _ in ctl_report), (
        f"ctl stamps (line, ms, error ms against the call's midpoint, call ms): {ctl_report}")
    # Each ctl stamp is on the screen too, to the hundredth.
    for answer, _, _ in ctl_stamps:
        assert shown[LINES[answer["line"]] or "♪"] == pytest.approx(hundredths(answer["ms"]), abs=1e-6), shown

    median_delivery = statistics.median(delivery)
    bound = STAMP_TOLERANCE + KEY_ROUNDING + (max(delivery) - median_delivery)
    for line, before, after in key_stamps:
        heard = aa.heard_position(changes, rec.at(before + median_delivery))
        assert heard is not None, f"nothing heard at the key for line {line}"
        stamp = shown[LINES[line]]
        key_report.append((line, stamp, round((stamp - heard) * 1000, 1), round((after - before) * 1000, 1)))
    assert all(abs(err) <= bound * 1000 for _, _, err, _ in key_report), (
        f"key stamps (line, stamp, error ms, send-keys ms): {key_report}; bound {bound * 1000:.1f} ms from "
        f"tmux's delivery {sorted(round(d * 1000, 1) for d in delivery)} ms")
    print(f"\nctl stamps (line, ms, error ms, call ms): {ctl_report}\n"
          f"key stamps (line, s, error ms, send-keys ms): {key_report}; bound {bound * 1000:.1f} ms; "
          f"tmux delivery median {median_delivery * 1000:.1f} ms, max {max(delivery) * 1000:.1f} ms")
    tui.quit()


def test_saving_writes_the_sidecar_keeps_the_old_one_and_reloads(tui_factory, recorder, song):
    """All five lines stamped, `w` writes song.lrc with the tags and the stamps (to the
    hundredth), keeps the plain file as song.lrc.bak and shows the synced lyrics; timing
    again and `refrain ctl lyrics sync save` answers the path and keeps the first save."""
    sidecar, backup = song.with_suffix(".lrc"), song.with_suffix(".lrc.bak")
    tui = tui_factory("sync-save").start("--output", "pulse")
    sync = Sync(tui)
    sync.open_and_play(song)
    start_timing(sync, after=0.3)

    answers = []
    for offset in range(3):
        time.sleep(0.35)
        answers.append(json.loads(sync.ctl("lyrics", "sync", "stamp")[0].stdout))
    # Saving early is refused, with the reason; nothing is written.
    refused, _, _ = sync.ctl("lyrics", "sync", "save", ok=False)
    assert refused.returncode == 1 and "2 lines are not stamped yet" in refused.stderr, refused
    assert sidecar.read_text(encoding="utf-8") == PLAIN and not backup.exists()
    for _ in range(2):
        time.sleep(0.35)
        answers.append(json.loads(sync.ctl("lyrics", "sync", "stamp")[0].stdout))
    assert [a["line"] for a in answers] == [0, 1, 2, 3, 4], answers
    ms = [a["ms"] for a in answers]
    assert ms == sorted(ms) and ms[0] >= 300, f"stamps go forward from the start: {ms}"
    # Another stamp has no line left.
    extra, _, _ = sync.ctl("lyrics", "sync", "stamp", ok=False)
    assert extra.returncode == 1 and "every line is stamped" in extra.stderr, extra

    tui.keys("w")
    tui.wait_text("saved song.lrc; lyrics reloaded")
    view = tui.wait_settled("Lyrics —")
    assert "Timing" not in view and "[--:--" not in view, view
    assert LINES[0] in view and LINES[4] in view, view
    assert backup.read_text(encoding="utf-8") == PLAIN, "the plain sidecar was not kept as song.lrc.bak"
    saved = sidecar.read_text(encoding="utf-8")
    head = [line for line in saved.splitlines() if not STAMP.match(line)]
    assert head == ["[ti:song]", "[length:0:30]", "[by:Refrain]"], saved
    assert lrc_times(saved) == [(centis(m), text) for m, text in zip(ms, LINES)], saved
    # The reloaded lyrics are synced: the player follows them (status has the line being sung).
    sync.ctl("seek", f"{hundredths(ms[4]) + 0.3:.2f}")
    tui.wait_for(lambda _: sync.status().get("line") == LINES[4], f"{LINES[4]!r} sung after the seek; status {sync.status()}")
    tui.wait_for(lambda _: tui.highlighted_lyric() == LINES[4], f"{LINES[4]!r} highlighted in the view")

    # Re-timing the synced file from where playback is, saved from ctl.
    sync.ctl("lyrics", "sync", "here")
    tui.wait_for(lambda s: HEADER.format(0) in s, f"{HEADER.format(0)!r} (the saved file:\n{saved})")
    again = [json.loads(sync.ctl("lyrics", "sync", "stamp")[0].stdout)["ms"] for _ in range(5)]
    assert again == sorted(again) and again[0] >= centis(ms[4]) * 10 + 250, f"not timed from where it played: {again}"
    result, _, _ = sync.ctl("lyrics", "sync", "save")
    assert json.loads(result.stdout) == {"path": str(sidecar.resolve())}, result.stdout
    tui.wait_text("saved song.lrc; lyrics reloaded")
    assert backup.read_text(encoding="utf-8") == saved, "the first save was not kept as song.lrc.bak"
    assert lrc_times(sidecar.read_text(encoding="utf-8")) == [(centis(m), t) for m, t in zip(again, LINES)]
    tui.quit()


def test_undo_nudge_check_and_leaving_without_saving(tui_factory, recorder, song):
    """Backspace unstamps and plays from 3 s before; j chooses a line, ] and [ move it by
    50 ms, never past its neighbour; Enter plays from 1 s before it; Esc asks, y leaves and
    the sidecar is as it was."""
    sidecar = song.with_suffix(".lrc")
    tui = tui_factory("sync-edit").start("--output", "pulse")
    sync = Sync(tui)
    sync.open_and_play(song)
    start_timing(sync, after=0.3)

    sync.wait_position(1.0)
    tui.keys("Space")
    tui.wait_text("line 1 at [")
    sync.wait_position(4.2)
    tui.keys("Space")
    tui.wait_text(HEADER.format(2))
    second = sync.stamp_of(LINES[1])
    assert second >= 4.2, sync.stamps_on_screen()

    # Backspace: line 2 loses its stamp and playback goes back to 3 s before it.
    tui.keys("BSpace")
    tui.wait_text("line 2 unstamped; playing from 3 s before it")
    position = sync.status()["position"]
    assert second - 3 - 0.05 <= position <= second - 3 + 0.5, f"after undo at {second}: {position}"
    assert HEADER.format(1) in tui.screen() and sync.stamp_of(LINES[1]) is None, tui.screen()

    # Stamped again, from the earlier place.
    sync.wait_position(second - 3 + 0.4)
    tui.keys("Space")
    tui.wait_text(HEADER.format(2))
    first, second = sync.stamp_of(LINES[0]), sync.stamp_of(LINES[1])
    assert first < second < first + 1.0, sync.stamps_on_screen()

    # The cursor starts on the last stamped line: k chooses the first (marked ›); ] moves it
    # by +50 ms, [ back.
    tui.keys("k")
    tui.wait_for(lambda s: re.search(r"^› \[\d\d:\d\d\.\d\d\] " + re.escape(LINES[0]), s, re.M),
                 "the first line chosen (›)")
    tui.keys("]")
    tui.wait_for(lambda _: sync.stamp_of(LINES[0]) == pytest.approx(first + 0.05, abs=1e-6),
                 f"the first line at {first + 0.05:.2f}")
    tui.keys("[", "[")
    tui.wait_for(lambda _: sync.stamp_of(LINES[0]) == pytest.approx(first - 0.05, abs=1e-6),
                 f"the first line at {first - 0.05:.2f}")
    # Never onto the next line's stamp, however often ] is pressed: a hundredth before it
    # (two lines at one time would read as a line and its translation).
    steps_to_neighbour = int(round((second - first) / 0.05)) + 4
    for _ in range(steps_to_neighbour):
        tui.keys("]")
    tui.wait_for(lambda _: sync.stamp_of(LINES[0]) == pytest.approx(second - 0.01, abs=1e-6),
                 f"the first line stopped a hundredth before the second's {second:.2f}")
    assert sync.stamp_of(LINES[1]) == pytest.approx(second, abs=1e-6)

    # j to the second line, Enter: plays from 1 s before it.
    tui.keys("j")
    tui.wait_for(lambda s: re.search(r"^› \[\d\d:\d\d\.\d\d\] " + re.escape(LINES[1]), s, re.M),
                 "the second line chosen (›)")
    tui.keys("Enter")
    tui.wait_for(lambda _: second - 1 - 0.05 <= sync.status()["position"] <= second - 1 + 0.4,
                 f"playback from {second - 1:.2f}", timeout=3)

    # Esc with stamps asks; y leaves, and the file is untouched.
    tui.keys("Escape")
    tui.wait_text("Leave timing without saving? (y/n)")
    tui.keys("y")
    tui.wait_text("timing cancelled; the lyrics are as they were")
    assert "Timing" not in tui.screen()
    assert sidecar.read_text(encoding="utf-8") == PLAIN
    assert not song.with_suffix(".lrc.bak").exists()
    assert sorted(p.name for p in song.parent.iterdir()) == ["song.lrc", "song.mp3"]
    failed, _, _ = sync.ctl("lyrics", "sync", "stamp", ok=False)
    assert failed.returncode == 1 and "not timing lyrics" in failed.stderr, failed
    tui.quit()
