"""Issue 35: lyrics embedded in audio files are found by lyric search, as a sidecar `.lrc`'s
are: `refrain scan` indexes the lyrics in the tags of FLAC (`LYRICS`), MP3 (ID3 `USLT`), M4A
(`©lyr`) and Opus (`LYRICS`) files, and a rescan after a file's lyrics changed finds the new
line and no longer the old."""

from __future__ import annotations

import json
import shutil
import struct
import subprocess
from pathlib import Path

from test_terminal_text import flac, isolated, run

LINE = "우산 하나에"


def syncsafe(n: int) -> bytes:
    return bytes([(n >> 21) & 0x7F, (n >> 14) & 0x7F, (n >> 7) & 0x7F, n & 0x7F])


def mp3_with_uslt(source: Path, path: Path, lyrics: str) -> Path:
    """`source` (an MP3 without a tag) behind an ID3v2.4 tag whose USLT frame holds `lyrics`."""
    body = b"\x03" + b"kor" + b"\x00" + lyrics.encode("utf-8")   # UTF-8, language, empty description
    frame = b"USLT" + syncsafe(len(body)) + b"\x00\x00" + body
    path.write_bytes(b"ID3\x04\x00\x00" + syncsafe(len(frame)) + frame + source.read_bytes())
    return path


def make_music(folder: Path, fixtures_dir: Path) -> Path:
    music = folder / "music"
    music.mkdir(parents=True)
    flac(music / "flac-song.flac", f"LYRICS=[00:01.00]{LINE} 비가 와요\n[00:02.00]second line")
    mp3_with_uslt(fixtures_dir / "steps.mp3", music / "mp3-song.mp3", f"plain first\n{LINE} 바람 불어")
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-i", str(fixtures_dir / "steps.m4a"), "-c", "copy",
                    "-metadata", f"lyrics=[00:00.50]{LINE} 눈이 와요", str(music / "m4a-song.m4a")], check=True)
    wav = folder / "tone.wav"
    subprocess.run(["sox", "-n", "-r", "48000", "-c", "1", "-b", "16", str(wav), "synth", "3", "sine", "440"],
                   check=True)
    subprocess.run(["opusenc", "--quiet", "--comment", f"LYRICS={LINE} 해가 떠요", str(wav),
                    str(music / "opus-song.opus")], check=True)
    # A sidecar still wins over the tags, as in playback.
    shutil.copy(music / "flac-song.flac", music / "sidecar-song.flac")
    (music / "sidecar-song.lrc").write_text("[00:03.00]from the sidecar\n", encoding="utf-8")
    return music


def search(refrain_bin: Path, env: dict, phrase: str) -> list[tuple[str, int, int | None, str]]:
    done = run(refrain_bin, "search", phrase, "--provider", "local", "--type", "lyric", "--json", env=env)
    assert done.returncode == 0, done.stderr
    return sorted((Path(r["id"]).name, r["line_index"], r["ms"], r["text"]) for r in json.loads(done.stdout))


def test_scan_indexes_embedded_lyrics_of_every_format(refrain_bin, fixtures_dir, tmp_path):
    env = isolated(tmp_path)
    music = make_music(tmp_path, fixtures_dir)
    scan = run(refrain_bin, "scan", str(music), env=env, timeout=60)
    assert scan.returncode == 0, scan.stderr

    assert search(refrain_bin, env, LINE) == [
        ("flac-song.flac", 0, 1000, f"{LINE} 비가 와요"),
        ("m4a-song.m4a", 0, 500, f"{LINE} 눈이 와요"),
        ("mp3-song.mp3", 1, None, f"{LINE} 바람 불어"),
        ("opus-song.opus", 0, None, f"{LINE} 해가 떠요"),
    ]
    assert search(refrain_bin, env, "from the sidecar") == [("sidecar-song.flac", 0, 3000, "from the sidecar")]

    plain = run(refrain_bin, "search", "하나에", "--provider", "local", "--type", "lyric", env=env)
    assert plain.returncode == 0 and "(no results)" not in plain.stdout.decode("utf-8"), plain


def test_a_rescan_picks_up_changed_embedded_lyrics(refrain_bin, tmp_path):
    env = isolated(tmp_path)
    music = tmp_path / "music"
    music.mkdir()
    song = flac(music / "song.flac", "LYRICS=[00:01.00]the old line")
    assert run(refrain_bin, "scan", str(music), env=env, timeout=60).returncode == 0
    assert search(refrain_bin, env, "old line") == [("song.flac", 0, 1000, "the old line")]

    subprocess.run(["metaflac", "--remove-tag=LYRICS", "--set-tag=LYRICS=[00:02.00]the new line", str(song)],
                   check=True)
    assert run(refrain_bin, "scan", str(music), env=env, timeout=60).returncode == 0
    assert search(refrain_bin, env, "new line") == [("song.flac", 0, 2000, "the new line")]
    assert search(refrain_bin, env, "old line") == []
