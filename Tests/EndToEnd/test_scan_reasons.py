"""`refrain scan` names every file with an audio name it leaves out, grouped by reason, in its
plain output and in `--json`, and a rescan names them again.

The folder holds one file of each format Refrain plays, each made by its encoder (flac,
opusenc, ffmpeg for AAC in M4A and for MP3, sox for WAV), and an ALAC M4A, which is indexed
and said not to play, beside files a scan must skip: a
DSD stream file's header, a FLAC cut inside its STREAMINFO, text named .mp3, a file with mode
000, a link to nothing, and a .txt that is not audio and must not be reported.

Mode 000 stops everyone but root: when the tests run as root, the scan reads that file (as
the player would) and indexes it; the test asserts that root can read it and expects it
indexed. The dangling link is unreadable for root too, so an unreadable file is reported
either way.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

AS_ROOT = os.geteuid() == 0


@pytest.fixture
def env(tmp_path) -> dict:
    env = dict(os.environ, LANG="C.UTF-8", LC_ALL="C.UTF-8")
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR"):
        folder = tmp_path / "home" / var.lower()
        folder.mkdir(parents=True, mode=0o700)
        env[var] = str(folder)
    return env


@pytest.fixture
def music(tmp_path) -> Path:
    music = tmp_path / "music"
    music.mkdir()
    tone = tmp_path / "tone.wav"

    def run(*argv: str) -> None:
        subprocess.run(argv, check=True, timeout=120, capture_output=True)

    run("sox", "-n", "-r", "44100", "-c", "2", "-b", "16", str(tone), "synth", "2", "sine", "440", "vol", "0.3")
    run("flac", "-s", "-f", "-T", "TITLE=Flac Song", "-o", str(music / "song.flac"), str(tone))
    run("opusenc", "--quiet", "--title", "Opus Song", str(tone), str(music / "song.opus"))
    run("ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-i", str(tone), "-c:a", "aac", "-metadata",
        "title=M4A Song", str(music / "song.m4a"))
    run("ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-i", str(tone), "-c:a", "libmp3lame", "-metadata",
        "title=MP3 Song", str(music / "song.mp3"))
    run("sox", str(tone), str(music / "song.wav"))
    run("ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-i", str(tone), "-c:a", "alac", str(music / "lossless.m4a"))
    (music / "one-bit.dsf").write_bytes(b"DSD " + bytes([28]) + bytes(59))
    (music / "cut.flac").write_bytes((music / "song.flac").read_bytes()[:20])
    (music / "notes.mp3").write_text("shopping list\n")
    locked = music / "locked.mp3"
    locked.write_bytes((music / "song.mp3").read_bytes())
    locked.chmod(0)
    (music / "gone.flac").symlink_to(music / "nowhere.flac")
    (music / "readme.txt").write_text("not audio, not reported\n")
    yield music
    locked.chmod(0o644)


def scan(refrain_bin: Path, env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(refrain_bin), "scan", *args], env=env, capture_output=True, text=True, timeout=120)


def expected_groups(music: Path) -> list[tuple[str, list[str]]]:
    """(reason, messages) in report order."""
    groups = [
        ("unsupported format (DSD)",
         [f"{music}/one-bit.dsf holds DSD audio, which Refrain cannot decode yet: "
          "convert it to FLAC, Opus, AAC or MP3 to play it"]),
        ("unreadable (no such file or directory)", [f"cannot read {music}/gone.flac: No such file or directory"]),
        ("unreadable (permission denied)", [f"cannot read {music}/locked.mp3: Permission denied"]),
        ("damaged", [f"{music}/cut.flac is not playable FLAC audio (no stream information in the file's headers)"]),
        ("not audio",
         [f"{music}/notes.mp3 is not audio: no format Refrain plays starts it, and it holds no MP3 frames"]),
    ]
    if AS_ROOT:
        # root opens a file whatever its mode, as the player would: it is indexed.
        assert os.access(music / "locked.mp3", os.R_OK), "root reads a file with mode 000"
        groups = [g for g in groups if g[0] != "unreadable (permission denied)"]
    return groups


def report_lines(groups: list[tuple[str, list[str]]]) -> list[str]:
    total = sum(len(messages) for _, messages in groups)
    lines = [f"skipped {total} files:"]
    for reason, messages in groups:
        lines.append(f"  {reason}: {len(messages)} file" + ("s" if len(messages) != 1 else ""))
        lines += [f"    {m}" for m in messages]
    return lines


def test_scan_names_each_skipped_file_by_reason(refrain_bin, env, music):
    groups = expected_groups(music)
    indexed = 7 if AS_ROOT else 6   # with the ALAC file, indexed by its tags
    skipped = sum(len(m) for _, m in groups)

    first = scan(refrain_bin, env, str(music))
    assert first.returncode == 0, first.stderr
    lines = first.stdout.splitlines()
    assert re.fullmatch(
        rf"scanned {indexed + skipped} files in \d+\.\d\d s: {indexed} added, 0 updated, 0 removed, "
        rf"0 unchanged, {skipped} failed", lines[0]), lines[0]
    assert lines[1:] == report_lines(groups) + [
        "indexed, but not playable yet: 1 file",
        f"    {music}/lossless.m4a holds ALAC audio, which Refrain cannot decode yet: "
        "convert it to FLAC, Opus, AAC or MP3 to play it",
    ], first.stdout
    assert "readme.txt" not in first.stdout + first.stderr, "a .txt is not audio and is not reported"

    # The rescan reads nothing that failed before (but the file it could not open), and
    # names every skipped file again, from what the library stored.
    again = scan(refrain_bin, env, "--json", str(music))
    assert again.returncode == 0, again.stderr
    summary = json.loads(again.stdout)
    walked_again = 1 + (0 if AS_ROOT else 1)   # the dangling link, and the file it could not open
    assert {k: summary[k] for k in ("added", "updated", "removed", "unchanged", "failed", "files")} == {
        "added": 0, "updated": 0, "removed": 0, "unchanged": indexed + skipped - walked_again,
        "failed": walked_again, "files": indexed + skipped,
    }
    assert isinstance(summary["seconds"], (int, float))
    assert summary["unplayable"] == [], "an unchanged ALAC file is not read again"
    assert [(s["reason"], s["count"], [f["message"] for f in s["files"]]) for s in summary["skipped"]] == [
        (reason, len(messages), messages) for reason, messages in groups]
    names = {"one-bit.dsf", "gone.flac", "cut.flac", "notes.mp3"} | (set() if AS_ROOT else {"locked.mp3"})
    paths = [f["path"] for s in summary["skipped"] for f in s["files"]]
    assert sorted(paths) == sorted(str(music / name) for name in names)

    # Plain output again: the same report.
    plain = scan(refrain_bin, env, str(music))
    assert plain.stdout.splitlines()[1:] == report_lines(groups), plain.stdout
