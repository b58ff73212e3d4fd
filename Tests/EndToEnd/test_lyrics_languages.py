"""`refrain lyrics` on translated and Korean/Japanese LRC files: `--json` keeps every line as
it is (a translation is a line of its own), and `--romanize` adds the romanization a
listener would read under each Korean or Japanese line."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

LRC = """[ti:같이]
[00:01.00]너를 사랑해
[00:01.00]I love you
[00:05.00]같이 걸어요
[00:09.00]ラーメンをたべたい
[00:12.00]la la la
"""


def lyrics_json(refrain_bin: Path, path: Path, *flags: str) -> dict:
    done = subprocess.run([str(refrain_bin), "lyrics", str(path), "--json", *flags],
                          capture_output=True, text=True, timeout=20)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_json_keeps_every_line_and_romanize_adds_the_romanized_text(refrain_bin, tmp_path):
    song = tmp_path / "같이.lrc"
    song.write_text(LRC, encoding="utf-8")
    plain = lyrics_json(refrain_bin, song)
    assert [(line["ms"], line["text"]) for line in plain["lines"]] == [
        (1000, "너를 사랑해"), (1000, "I love you"), (5000, "같이 걸어요"),
        (9000, "ラーメンをたべたい"), (12000, "la la la")]
    assert all("romanized" not in line for line in plain["lines"])

    romanized = lyrics_json(refrain_bin, song, "--romanize")
    by_text = {line["text"]: line.get("romanized") for line in romanized["lines"]}
    assert by_text == {
        "너를 사랑해": "neoreul saranghae",
        "I love you": None,
        "같이 걸어요": "gachi georeoyo",
        "ラーメンをたべたい": "rāmen o tabetai",
        "la la la": None,
    }
