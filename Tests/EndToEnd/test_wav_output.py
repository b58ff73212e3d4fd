"""`--output wav:PATH` writes into what PATH is, and never changes its type.

A FIFO, a character device and standard output (`-`) are written in place, with a streaming
header where the output cannot seek back; a symbolic link is followed, so its target gets the
audio and the link stays a link; a regular file or a new path is replaced whole. `--duration`
writes exactly that many seconds of frames, and a queue whose tracks change rate is one file
at the first track's rate, every track in it.
"""

from __future__ import annotations

import os
import stat
import struct
import subprocess
import threading

import numpy as np
import pytest

import audio_analysis as aa

STREAMING = 0xFFFFFFFF


def sine(path, seconds, rate, freq=440, channels=2):
    subprocess.run(["sox", "-n", "-r", str(rate), "-c", str(channels), "-b", "16", str(path), "synth",
                    str(seconds), "sine", str(freq), "vol", "0.5"], check=True, capture_output=True)
    return path


def header(data: bytes) -> dict:
    """The fields of a 44-byte RIFF header of 16-bit PCM."""
    assert data[:4] == b"RIFF" and data[8:16] == b"WAVEfmt " and data[36:40] == b"data", data[:44]
    riff, = struct.unpack("<I", data[4:8])
    _, channels, rate, per_second, block, bits = struct.unpack("<HHIIHH", data[20:36])
    size, = struct.unpack("<I", data[40:44])
    return {"riff": riff, "channels": channels, "rate": rate, "bits": bits, "size": size, "block": block}


@pytest.fixture(scope="module")
def tone(tmp_path_factory):
    """2 s of 440 Hz at 44.1 kHz, as FLAC (no encoder delay: frames are exact)."""
    folder = tmp_path_factory.mktemp("wav-out")
    wav = sine(folder / "tone.wav", 2.0, 44100)
    subprocess.run(["flac", "-s", "-f", "-o", str(folder / "tone.flac"), str(wav)], check=True)
    return folder / "tone.flac"


def test_a_fifo_is_written_in_place_with_a_streaming_header(refrain, tone, tmp_path):
    fifo = tmp_path / "pipe.wav"
    os.mkfifo(fifo)
    got = bytearray()

    def drain():
        with open(fifo, "rb") as f:
            got.extend(f.read())

    reader = threading.Thread(target=drain)
    reader.start()
    run = refrain.play(tone, "--output", f"wav:{fifo}", timeout=20)
    reader.join(10)
    assert run.returncode == 0, run.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode), "the FIFO was replaced"
    h = header(bytes(got))
    assert (h["rate"], h["channels"], h["bits"]) == (44100, 2, 16)
    assert h["size"] == STREAMING and h["riff"] == STREAMING, "a FIFO cannot seek back: sizes are streaming"
    assert len(got) - 44 == 2 * 44100 * 4, "every frame arrived through the FIFO"


def test_standard_output_gets_the_wav(refrain, tone):
    proc = subprocess.run([str(refrain.binary), "play", str(tone), "--output", "wav:-"], env=refrain.env,
                          capture_output=True, timeout=20)
    assert proc.returncode == 0, proc.stderr
    h = header(proc.stdout)
    assert h["rate"] == 44100 and h["size"] == STREAMING
    assert len(proc.stdout) - 44 == 2 * 44100 * 4


def test_standard_output_redirected_to_a_file_gets_exact_sizes(refrain, tone, tmp_path):
    out = tmp_path / "redirected.wav"
    with open(out, "wb") as f:
        proc = subprocess.run([str(refrain.binary), "play", str(tone), "--output", "wav:-"], env=refrain.env,
                              stdout=f, stderr=subprocess.PIPE, timeout=20)
    assert proc.returncode == 0, proc.stderr
    data = out.read_bytes()
    assert header(data)["size"] == len(data) - 44 == 2 * 44100 * 4


def test_a_symlink_is_followed_and_stays_a_link(refrain, tone, tmp_path):
    folder = tmp_path / "music"
    folder.mkdir()
    target = folder / "target.wav"
    target.write_bytes(b"old contents")
    link = tmp_path / "link.wav"
    link.symlink_to("music/target.wav")          # relative, as `ln -s` makes them
    run = refrain.play(tone, "--output", f"wav:{link}", timeout=20)
    assert run.returncode == 0, run.stderr
    assert link.is_symlink() and os.readlink(link) == "music/target.wav", "the link was replaced"
    data = target.read_bytes()
    assert header(data)["size"] == len(data) - 44 == 2 * 44100 * 4
    assert aa.dominant_frequency(aa.read_wav(str(target)).samples, 44100) == pytest.approx(440, abs=2)


def test_a_dangling_symlink_creates_its_target(refrain, tone, tmp_path):
    link = tmp_path / "link.wav"
    link.symlink_to(tmp_path / "new.wav")
    run = refrain.play(tone, "--output", f"wav:{link}", timeout=20)
    assert run.returncode == 0, run.stderr
    assert link.is_symlink()
    assert header((tmp_path / "new.wav").read_bytes())["size"] == 2 * 44100 * 4


def test_a_character_device_stays_a_character_device(refrain, tone):
    """The reported bug: as root, `--output wav:/dev/null` replaced /dev/null with a file."""
    before = os.stat("/dev/null")
    assert stat.S_ISCHR(before.st_mode)
    run = refrain.play(tone, "--output", "wav:/dev/null", timeout=20)
    assert run.returncode == 0, run.stderr
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode), "/dev/null is no longer a character device"
    assert after.st_rdev == before.st_rdev and after.st_ino == before.st_ino


def test_a_regular_file_is_replaced_whole(refrain, tone, tmp_path):
    folder = tmp_path / "out"
    folder.mkdir()
    out = folder / "out.wav"
    out.write_bytes(b"x" * 1_000_000)   # longer than the WAV: nothing of it may remain
    out.chmod(0o640)
    run = refrain.play(tone, "--output", f"wav:{out}", timeout=20)
    assert run.returncode == 0, run.stderr
    data = out.read_bytes()
    assert len(data) == 44 + 2 * 44100 * 4 and header(data)["size"] == len(data) - 44
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o640, "the file's mode was kept"
    assert [p.name for p in folder.iterdir()] == ["out.wav"], "a temporary file was left behind"


def test_a_directory_is_refused_in_one_line(refrain, tone, tmp_path):
    run = refrain.play(tone, "--output", f"wav:{tmp_path}", timeout=20)
    assert run.returncode != 0
    assert tmp_path.is_dir()
    lines = [ln for ln in run.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and str(tmp_path) in lines[0], run.stderr


@pytest.mark.parametrize("seconds", [1, 0.25])
def test_duration_writes_exactly_that_many_frames(refrain, tone, tmp_path, seconds):
    out = tmp_path / "cut.wav"
    run = refrain.play(tone, "--output", f"wav:{out}", "--duration", seconds, timeout=20)
    assert run.returncode == 0, run.stderr
    assert header(out.read_bytes())["size"] == int(seconds * 44100) * 4


def test_duration_counts_from_the_start_position(refrain, tone, tmp_path):
    out = tmp_path / "cut.wav"
    run = refrain.play(tone, "--output", f"wav:{out}", "--start", 0.5, "--duration", 1, timeout=20)
    assert run.returncode == 0, run.stderr
    assert header(out.read_bytes())["size"] == 44100 * 4


@pytest.mark.parametrize("order", ["mp3-opus", "opus-mp3"])
def test_a_mixed_rate_queue_is_one_file_at_the_first_rate_with_every_track(refrain, tmp_path, order):
    """Today's bug: `play a.mp3 b.opus --output wav:m.wav` kept only the Opus, at 48 kHz."""
    mp3 = tmp_path / "a.mp3"
    subprocess.run(["lame", "--quiet", "-b", "192", str(sine(tmp_path / "a.wav", 2.0, 44100, 440)), str(mp3)],
                   check=True)
    opus = tmp_path / "b.opus"
    subprocess.run(["opusenc", "--quiet", str(sine(tmp_path / "b.wav", 1.5, 48000, 660)), str(opus)], check=True)
    tracks = [(mp3, 2.0, 440), (opus, 1.5, 660)]
    if order == "opus-mp3":
        tracks.reverse()
    rate = 44100 if order == "mp3-opus" else 48000
    out = tmp_path / "m.wav"
    run = refrain.play(*(t[0] for t in tracks), "--output", f"wav:{out}", "--events", timeout=30)
    assert run.returncode == 0, run.stderr
    assert len(run.of("start")) == 2 and len(run.of("end")) == 2, run.summary()
    data = out.read_bytes()
    h = header(data)
    assert h["rate"] == rate and h["size"] == len(data) - 44
    frames = h["size"] // 4
    # Both tracks whole, at the first one's rate (within 2 ms: the decoders are sample-exact).
    assert frames == pytest.approx(3.5 * rate, abs=0.002 * rate), f"{frames / rate:.4f} s"
    audio = aa.read_wav(str(out))
    first, second = tracks[0], tracks[1]
    assert aa.dominant_frequency(audio.window(0.2, first[1] - 0.4), rate) == pytest.approx(first[2], abs=3)
    assert aa.dominant_frequency(audio.window(first[1] + 0.2, second[1] - 0.4), rate) == \
        pytest.approx(second[2], abs=3)
    assert aa.dropouts(audio, 0.05, 3.45) == [], "silence inside the queue"
