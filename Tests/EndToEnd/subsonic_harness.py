"""supysonic, a real Subsonic server, for the end-to-end tests of `--provider subsonic`.

- `ensure_venv()` installs supysonic 0.7.9 from PyPI into a virtual environment under
  Tests/Fixtures/generated/supysonic-venv (or $REFRAIN_SUPYSONIC_VENV) once; `make fixtures`
  (and so `make test`) runs `python3 Tests/EndToEnd/subsonic_harness.py --install`.
- `make_music(folder)` writes a small music folder with real encoders (flac, lame): the
  album "Harbour Lights" by Tone Quartet (two FLAC tracks and one MP3) and two MP3s by
  Lanterns (one of 32 s, long enough to count as a listen). `MUSIC` describes each track.
- `SubsonicServer` runs Tests/EndToEnd/subsonic_server.py with the venv's Python: supysonic
  with an SQLite database in a scratch folder, on four loopback ports (`token`, `bare`,
  `opensubsonic`, `offsets`; see that file).
"""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import time
import wave
from dataclasses import dataclass
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
SUPYSONIC = "supysonic==0.7.9"
USER = "listener"
PASSWORD = "correct horse 7"
API_KEY = "refrain-test-api-key-0001"
RATE = 44100


def venv_dir() -> Path:
    return Path(os.environ.get("REFRAIN_SUPYSONIC_VENV")
                or REPO / "Tests" / "Fixtures" / "generated" / "supysonic-venv")


def ensure_venv() -> Path:
    """The venv's python, with supysonic installed (once; later calls only check)."""
    venv = venv_dir()
    python = venv / "bin" / "python"
    marker = venv / f".installed-{SUPYSONIC}"
    if marker.exists():
        return python
    venv.parent.mkdir(parents=True, exist_ok=True)
    with open(venv.parent / ".supysonic-venv.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if marker.exists():
            return python
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                        SUPYSONIC], check=True)
        marker.write_text("")
    return python


@dataclass(frozen=True)
class Track:
    file: str
    title: str
    artist: str
    album: str
    number: int
    seconds: int
    freqs: tuple[int, ...]   # the tone of each second (one entry: the whole track)


STEPS = tuple(300 + 50 * k for k in range(20))
MUSIC = [
    Track("Tone Quartet/Harbour Lights/01 Steps Up.flac", "Steps Up", "Tone Quartet",
          "Harbour Lights", 1, 20, STEPS),
    Track("Tone Quartet/Harbour Lights/02 Middle A.flac", "Middle A", "Tone Quartet",
          "Harbour Lights", 2, 6, (440,)),
    Track("Tone Quartet/Harbour Lights/03 Fifth Above.mp3", "Fifth Above", "Tone Quartet",
          "Harbour Lights", 3, 6, (660,)),
    Track("Lanterns/Night Ferry/01 Ferry Song.mp3", "Ferry Song", "Lanterns", "Night Ferry",
          1, 5, (523,)),
    # Long enough to count as a listen (30 s or more): heard for half its length.
    Track("Lanterns/Night Ferry/02 Long Road.mp3", "Long Road", "Lanterns", "Night Ferry",
          2, 32, (392,)),
]


def tone_wav(path: Path, seconds: int, freqs: tuple[int, ...]) -> None:
    """Stereo 16-bit PCM at -6 dBFS; with several freqs, second k sounds freqs[k]."""
    per = RATE
    blocks = []
    for k in range(seconds):
        f = freqs[k] if len(freqs) > 1 else freqs[0]
        t = np.arange(per) / RATE
        blocks.append(0.5 * np.sin(2 * np.pi * f * t))
    mono = (np.concatenate(blocks) * 32767).astype("<i2")
    with wave.open(str(path), "wb") as out:
        out.setnchannels(2)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(np.repeat(mono, 2).tobytes())


def make_music(folder: Path, tracks: list[Track] = MUSIC) -> Path:
    """Encodes `tracks` (all of MUSIC by default) into `folder` (flac and lame, with tags);
    returns the folder."""
    for track in tracks:
        target = folder / track.file
        target.parent.mkdir(parents=True, exist_ok=True)
        wav = target.with_suffix(".wav")
        tone_wav(wav, track.seconds, track.freqs)
        if target.suffix == ".flac":
            subprocess.run(["flac", "-s", "-f", "-o", str(target), f"--tag=TITLE={track.title}",
                            f"--tag=ARTIST={track.artist}", f"--tag=ALBUM={track.album}",
                            f"--tag=TRACKNUMBER={track.number}", "--tag=DATE=2024", str(wav)],
                           check=True)
        else:
            subprocess.run(["lame", "--quiet", "-b", "192", "--tt", track.title, "--ta", track.artist,
                            "--tl", track.album, "--tn", str(track.number), "--ty", "2024",
                            str(wav), str(target)], check=True)
        wav.unlink()
    return folder


class SubsonicServer:
    """supysonic on 127.0.0.1 (four ports; see subsonic_server.py), stopped by `stop()`."""

    def __init__(self, root: Path, listenbrainz_url: str | None = None):
        self.root = root
        self.music = root / "music"
        self.data = root / "data"
        self.listenbrainz_url = listenbrainz_url
        self.proc: subprocess.Popen | None = None
        self.ports: dict[str, int] = {}

    def start(self) -> "SubsonicServer":
        python = ensure_venv()
        if not self.music.exists():
            make_music(self.music)
        env = dict(os.environ)
        if self.ports:  # started again: on the same ports, as a restarted server would be
            env["SUBSONIC_TEST_PORTS"] = ",".join(f"{k}={v}" for k, v in self.ports.items())
        if self.listenbrainz_url:
            env["SUPYSONIC_LISTENBRAINZ_URL"] = self.listenbrainz_url
        self.proc = subprocess.Popen(
            [str(python), str(HERE / "subsonic_server.py"), str(self.data), str(self.music), USER,
             PASSWORD, API_KEY],
            stdout=subprocess.PIPE, stderr=open(self.root / "server.err", "ab"), env=env, text=True)
        deadline = time.monotonic() + 120
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line.startswith("READY") or time.monotonic() > deadline:
            raise RuntimeError(f"supysonic did not start: {line!r}\n"
                               f"{(self.root / 'server.err').read_text()[-2000:]}")
        self.ports = {k: int(v) for k, v in (p.split("=") for p in line.split()[1:])}
        return self

    def rescan(self) -> None:
        """Scans the music folder again (after a test changed it), as supysonic's CLI does."""
        cli = ensure_venv().parent / "supysonic-cli"
        subprocess.run([str(cli), "folder", "scan", "--foreground", "music"], cwd=self.data,
                       env=dict(os.environ, HOME=str(self.data)), check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)

    def url(self, kind: str = "token") -> str:
        return f"http://127.0.0.1:{self.ports[kind]}"

    def requests(self) -> list[str]:
        """Every request so far, as `PORTNAME METHOD AUTH [RANGE]` lines."""
        log = self.data / "requests.log"
        return log.read_text().splitlines() if log.exists() else []

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


if __name__ == "__main__":
    if sys.argv[1:] == ["--install"]:
        print(f"supysonic venv: {ensure_venv().parent.parent}")
    else:
        print("usage: subsonic_harness.py --install", file=sys.stderr)
        sys.exit(2)
