"""Finding a song by a line of its lyrics: `refrain search --type lyric` and the full-screen
Search pane's Lyrics section, over sidecar `.lrc` files indexed by `refrain scan`."""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from pathlib import Path

from test_tui import TUI, select_row, tui_factory  # noqa: F401  (the fixture is used by name)

RAIN = "[00:01.00]비가 내리는 밤\n[00:03.00]우산 없이 걸어요\n[00:05.00]Rain on the road\n"
OTHER = "plain words here\n우산 하나 빌려줄래\n"


def make_music(folder: Path, fixtures_dir: Path) -> Path:
    music = folder / "music"
    music.mkdir(parents=True)
    for name, lyrics in (("비", RAIN), ("other", OTHER)):
        shutil.copy(fixtures_dir / "steps.mp3", music / f"{name}.mp3")
        (music / f"{name}.lrc").write_text(lyrics, encoding="utf-8")
    return music


def test_search_type_lyric_answers_the_track_line_and_time(refrain_bin, fixtures_dir, tmp_path, tui_factory):
    tui = tui_factory("lyrics-cli")
    music = make_music(tmp_path, fixtures_dir)
    env = tui.run_env()
    scan = subprocess.run([str(refrain_bin), "scan", str(music)], env=env, capture_output=True, text=True, timeout=60)
    assert scan.returncode == 0, scan.stderr
    done = subprocess.run([str(refrain_bin), "search", "우산", "--provider", "local", "--type", "lyric", "--json"],
                          env=env, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)
    assert [(r["kind"], Path(r["id"]).name, r["line_index"], r["ms"], r["text"]) for r in results] == [
        ("lyric", "비.mp3", 1, 3000, "우산 없이 걸어요"),
        ("lyric", "other.mp3", 1, None, "우산 하나 빌려줄래"),
    ]
    assert all(r["title"] for r in results)


def test_a_korean_phrase_in_the_search_pane_plays_its_track_from_that_line(
        refrain_bin, fixtures_dir, tmp_path, tui_factory):
    tui = tui_factory("lyrics-tui")
    music = make_music(tmp_path, fixtures_dir)
    env = tui.run_env()
    scan = subprocess.run([str(refrain_bin), "scan", str(music)], env=env, capture_output=True, text=True, timeout=60)
    assert scan.returncode == 0, scan.stderr
    tui.start("--provider", "local", "--output", "null")
    tui.wait_text("Home")
    tui.keys("/")
    tui.type("없이 걸어")
    tui.wait_text("/ 없이 걸어▏")
    tui.keys("Enter")
    tui.wait_text("Lyrics")
    row = "“우산 없이 걸어요” — 비"
    tui.wait_text(row)
    select_row(tui, row)
    tui.keys("Enter")

    def position() -> float | None:
        status = subprocess.run([str(refrain_bin), "ctl", "status"], env=env, capture_output=True,
                                text=True, timeout=10)
        if status.returncode != 0:
            return None
        state = json.loads(status.stdout)
        return state.get("position") if state.get("state") == "playing" else None

    deadline = time.monotonic() + 10
    seen = None
    while time.monotonic() < deadline:
        seen = position()
        if seen is not None:
            break
        time.sleep(0.05)
    assert seen is not None, f"nothing played: {tui.screen()}"
    assert 3.0 <= seen <= 4.5, f"played from {seen} s, not from the line at 3 s"
