"""200 corrupt MP3 files queued in one `refrain play` run: each is reported, the good
files between them play, and the process ends normally."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path


def _corrupt_files(fixtures_dir: Path, folder: Path, count: int) -> list[Path]:
    rng = random.Random(2026)
    good = (fixtures_dir / "tone440.mp3").read_bytes()
    tags = (fixtures_dir / "tags-v24.mp3").read_bytes()
    png = b"\x89PNG\r\n\x1a\n" + bytes(rng.randrange(256) for _ in range(400))
    files = []
    for index in range(count):
        kind = index % 5
        if kind == 0:
            data = good[: rng.randrange(0, len(good))]  # truncated anywhere, even at 0
        elif kind == 1:
            data = bytearray(good)
            for _ in range(rng.randrange(1, 400)):
                data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
            data = bytes(data)
        elif kind == 2:
            data = b""
        elif kind == 3:
            data = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 20000)))
        else:
            data = (b"\xff\xd8\xff\xe0" + png) if index % 2 else tags[:600]  # a JPEG, a bare tag
        path = folder / f"bad-{index:03}.mp3"
        path.write_bytes(data)
        files.append(path)
    return files


def test_two_hundred_corrupt_files_in_one_queue(refrain_bin, fixtures_dir, tmp_path):
    bad = _corrupt_files(fixtures_dir, tmp_path, 200)
    good = fixtures_dir / "mono22k.mp3"
    queue: list[Path] = []
    for index, path in enumerate(bad):
        queue.append(path)
        if index % 50 == 49:
            queue.append(good)
    result = subprocess.run(
        [str(refrain_bin), "play", *map(str, queue), "--output", f"wav:{tmp_path / 'out.wav'}",
         "--events"],
        capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert result.returncode in (0, 1), result.stderr[-2000:]
    assert "Fatal error" not in result.stderr and "Program crashed" not in result.stderr
    events = [json.loads(line) for line in result.stdout.splitlines()]
    started = [event["file"] for event in events if event["event"] == "start"]
    assert started.count(str(good)) == 4, "every good file between the bad ones played"
    errors = [event["message"] for event in events if event["event"] == "error"]
    # Each file either played (a partial or damaged MP3 plays what it can) or was reported.
    for path in bad:
        assert str(path) in started or any(str(path) in message for message in errors), path
    # Files with nothing playable in them are reported, one line each, naming the file.
    for path in bad:
        if path.stat().st_size == 0:
            assert any(str(path) in message and "empty" in message for message in errors)
    stderr_lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(stderr_lines) == len(errors)
    assert all(line.startswith("refrain: ") for line in stderr_lines)
    assert events[-1]["event"] in ("end", "error")
