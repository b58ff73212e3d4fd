"""Issue 35: control bytes never reach the terminal raw, and `refrain lyrics` on an audio file
shows its embedded lyrics.

- `refrain lyrics evil.lrc` prints the words of a hostile LRC without its escape sequences
  (OSC 52, a screen clear), C1 controls or bidi overrides;
- `refrain play` of an M4A whose box type is an escape sequence says so in an error line
  with no ESC in it;
- `search --json` and `ctl status` write U+009B and U+202E in a title as `\\u009b` and
  `\\u202e`, and the plain search line drops them;
- `refrain lyrics song.flac` prints the lyrics in the file's tags; a file without any says
  so in one line and exits 1, never printing the audio's bytes.
"""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import time
from pathlib import Path

# What must never reach a terminal raw: C0 but tab and newline, DEL, C1, bidi controls.
FORBIDDEN = ({chr(c) for c in range(0x20)} - {"\t", "\n"}) | {chr(c) for c in range(0x7F, 0xA0)} \
    | {chr(c) for c in range(0x202A, 0x202F)} | {chr(c) for c in range(0x2066, 0x206A)}

EVIL = ("[ti:evil]\n"
        "[00:01.00]copy \x1b]52;c;cm0gLXJmIH4=\x07me\n"
        "[00:02.00]clear\x1b[2J screen\n"
        "[00:03.00]c1\x9b31m red\x85 line\n"
        "[00:04.00]\u202eevil\u202c right\u2066 to left\n")


def forbidden_in(text: str) -> list[str]:
    return sorted({f"U+{ord(c):04X}" for c in text if c in FORBIDDEN})


def isolated(tmp_path: Path) -> dict:
    env = dict(os.environ)
    for name in ("CONFIG", "DATA", "STATE", "CACHE"):
        env[f"XDG_{name}_HOME"] = str(tmp_path / "xdg" / name.lower())
    env["XDG_RUNTIME_DIR"] = str(tmp_path / "xdg" / "run")
    Path(env["XDG_RUNTIME_DIR"]).mkdir(parents=True, mode=0o700)
    return env


def run(refrain_bin: Path, *args: str, env: dict | None = None, timeout: float = 30) -> subprocess.CompletedProcess:
    return subprocess.run([str(refrain_bin), *args], capture_output=True, env=env, timeout=timeout)


def flac(path: Path, *tags: str) -> Path:
    """A 3 s tone in FLAC at `path`, tagged with `tags` (NAME=value, by metaflac)."""
    wav = path.with_suffix(".wav")
    subprocess.run(["sox", "-n", "-r", "44100", "-c", "1", "-b", "16", str(wav), "synth", "3", "sine", "440"],
                   check=True)
    subprocess.run(["flac", "-s", "-f", "-o", str(path), str(wav)], check=True)
    wav.unlink()
    if tags:
        subprocess.run(["metaflac", *[f"--set-tag={tag}" for tag in tags], str(path)], check=True)
    return path


# ---------------------------------------------------------------- plain text

def test_lyrics_of_a_hostile_lrc_print_its_words_without_control_bytes(refrain_bin, tmp_path):
    evil = tmp_path / "evil.lrc"
    evil.write_bytes(EVIL.encode("utf-8"))
    done = run(refrain_bin, "lyrics", str(evil))
    assert done.returncode == 0, done.stderr
    out = done.stdout.decode("utf-8")
    assert forbidden_in(out) == [], out
    assert "\x1b" not in out and "52;" not in out
    lines = out.splitlines()
    assert lines[0] == "[00:01.000] copy me", lines
    assert lines[1] == "[00:02.000] clear screen", lines
    assert lines[2].startswith("[00:03.000] c1") and "red" in lines[2] and "31m" not in lines[2], lines
    assert lines[3] == "[00:04.000] evil right to left", lines

    for flags in (["--at", "3.5"], ["--at", "1.5"]):
        at = run(refrain_bin, "lyrics", str(evil), *flags)
        assert at.returncode == 0 and forbidden_in(at.stdout.decode()) == [], at.stdout

    as_json = run(refrain_bin, "lyrics", str(evil), "--json")
    text = as_json.stdout.decode("utf-8")
    assert forbidden_in(text) == [], text
    assert "\\u001b]52;c;" in text.lower() and "\\u009b31m" in text and "\\u202e" in text
    assert json.loads(text)["lines"][0]["text"] == "copy \x1b]52;c;cm0gLXJmIH4=\x07me"


def mp4_box(kind: bytes, payload: bytes, size: int | None = None) -> bytes:
    return struct.pack(">I", size if size is not None else 8 + len(payload)) + kind + payload


def test_an_m4a_box_type_that_is_an_escape_sequence_is_reported_without_escape(refrain_bin, tmp_path):
    hostile = mp4_box(b"\x1b[2J", b"\0" * 8, size=4096)        # runs past the end of its trak
    trak = mp4_box(b"trak", hostile)
    movie = mp4_box(b"ftyp", b"M4A \0\0\0\0M4A isom") + mp4_box(b"moov", trak) + mp4_box(b"mdat", b"\0" * 64)
    song = tmp_path / "hostile.m4a"
    song.write_bytes(movie)
    done = run(refrain_bin, "play", "--output", "null", str(song))
    err = done.stderr.decode("utf-8", "replace")
    assert done.returncode != 0, err
    assert err.strip(), "an error line"
    assert forbidden_in(err) == [], err
    assert "\\x1b[2J" in err or "box" in err, err

    events = run(refrain_bin, "play", "--output", "null", "--events", str(song))
    out = events.stdout.decode("utf-8", "replace")
    assert forbidden_in(out + events.stderr.decode("utf-8", "replace")) == [], out
    errors = [json.loads(line) for line in out.splitlines() if '"error"' in line]
    assert errors and all("\x1b" not in e["message"] for e in errors), out


# ---------------------------------------------------------------- JSON outputs

HOSTILE_TITLE = "Rain\u009b2J \u202eSong"


def test_search_json_and_ctl_status_escape_c1_and_bidi_controls(refrain_bin, tmp_path):
    env = isolated(tmp_path)
    music = tmp_path / "music"
    music.mkdir()
    song = flac(music / "rain.flac", f"TITLE={HOSTILE_TITLE}", "ARTIST=Mina\u202e")
    assert run(refrain_bin, "scan", str(music), env=env, timeout=60).returncode == 0

    found = run(refrain_bin, "search", "Rain", "--provider", "local", "--json", env=env)
    assert found.returncode == 0, found.stderr
    text = found.stdout.decode("utf-8")
    assert forbidden_in(text) == [], text
    assert "Rain\\u009b2J \\u202eSong" in text, text
    assert [r["title"] for r in json.loads(text) if r["kind"] == "track"] == [HOSTILE_TITLE]

    plain = run(refrain_bin, "search", "Rain", "--provider", "local", env=env)
    assert plain.returncode == 0 and forbidden_in(plain.stdout.decode("utf-8")) == [], plain.stdout
    assert "Rain" in plain.stdout.decode("utf-8")

    sock = tmp_path / "play.sock"
    player = subprocess.Popen([str(refrain_bin), "play", "--output", "null", "--socket", str(sock), str(song)],
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    try:
        deadline = time.monotonic() + 20
        status = None
        while time.monotonic() < deadline:
            if sock.exists():
                status = run(refrain_bin, "ctl", "--socket", str(sock), "status", env=env, timeout=10)
                if status.returncode == 0 and json.loads(status.stdout).get("track"):
                    break
            time.sleep(0.1)
        assert status is not None and status.returncode == 0, status
        line = status.stdout.decode("utf-8")
        assert forbidden_in(line) == [], line
        assert "\\u009b" in line and "\\u202e" in line, line
        assert json.loads(line)["track"] == HOSTILE_TITLE
        run(refrain_bin, "ctl", "--socket", str(sock), "quit", env=env, timeout=10)
        player.wait(10)
    finally:
        if player.poll() is None:
            player.kill()
            player.wait(5)


# ---------------------------------------------------------------- lyrics of audio files

def test_lyrics_of_an_audio_file_are_its_embedded_lyrics(refrain_bin, tmp_path, fixtures_dir):
    song = flac(tmp_path / "song.flac", "LYRICS=[00:01.00]우산 하나에\n[00:02.00]둘이 걸어요")
    done = run(refrain_bin, "lyrics", str(song))
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode("utf-8").splitlines() == ["[00:01.000] 우산 하나에", "[00:02.000] 둘이 걸어요"]

    tagged = run(refrain_bin, "lyrics", str(fixtures_dir / "tags-v24.mp3"), "--json")
    assert tagged.returncode == 0, tagged.stderr
    assert [line["text"] for line in json.loads(tagged.stdout)["lines"]] == ["첫 줄", "둘째 줄"]

    m4a = run(refrain_bin, "lyrics", str(fixtures_dir / "tags.m4a"))
    assert m4a.returncode == 0 and "둘째 줄" in m4a.stdout.decode("utf-8"), m4a


def test_an_audio_file_without_lyrics_says_so_in_one_line(refrain_bin, tmp_path, fixtures_dir):
    for song in (flac(tmp_path / "bare.flac"), fixtures_dir / "steps.mp3"):
        done = run(refrain_bin, "lyrics", str(song))
        assert done.returncode == 1, done
        assert done.stdout == b"", done.stdout[:80]
        err = done.stderr.decode("utf-8")
        assert err.count("\n") == 1 and f"no embedded lyrics in {song}" in err, err
        assert forbidden_in(err) == []
