"""A real Icecast server fed by ezstream, as ordinary processes, for the radio tests.

`Station(folder, tracks)` writes MP3s made by sox and lame at test time (each a tone of its
own, tagged with an artist and a title, so ezstream sends "Artist - Title" as the
StreamTitle), an icecast2 config on 127.0.0.1 at a free port and an ezstream config, all in
a temporary directory. `start()` runs icecast2, waits for its start-up line in its error log
(2.4.4 can crash when a request arrives before start-up has finished) and then ezstream.
`kill()` stops both at once (ezstream gives up once its server is gone); `start()` again
brings the station back on the same port.

As root, icecast2 refuses to run unless its config names an unprivileged user, so it runs
as nobody/nogroup with its log files made for that user.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

SOURCE_PASSWORD = "refrain-source"


@dataclass
class RadioTrack:
    artist: str
    title: str
    frequency: int
    seconds: float

    @property
    def stream_title(self) -> str:
        return f"{self.artist} - {self.title}"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def make_mp3(path: Path, track: RadioTrack) -> None:
    """A tone at `track.frequency`, 44.1 kHz stereo CBR 128k, tagged with artist and title."""
    wav = path.with_suffix(".wav")
    subprocess.run(["sox", "-n", "-r", "44100", "-c", "2", "-b", "16", str(wav), "synth",
                    str(track.seconds), "sine", str(track.frequency), "vol", "0.5"], check=True, timeout=60)
    subprocess.run(["lame", "--quiet", "-b", "128", "--ta", track.artist, "--tt", track.title,
                    str(wav), str(path)], check=True, timeout=60)
    wav.unlink()


class Station:
    """One Icecast mount, `/radio.mp3`, looping `tracks` through ezstream."""

    def __init__(self, tracks: list[RadioTrack], mount: str = "/radio.mp3"):
        # Not under pytest's private tmp dirs: icecast2, once it is nobody, must reach its logs.
        self.dir = Path(tempfile.mkdtemp(prefix="refrain-icecast-"))
        self.dir.chmod(0o755)
        self.tracks = tracks
        self.mount = mount
        self.port = free_port()
        self.icecast: subprocess.Popen | None = None
        self.ezstream: subprocess.Popen | None = None
        files = []
        for index, track in enumerate(tracks):
            path = self.dir / f"track{index}.mp3"
            make_mp3(path, track)
            files.append(str(path))
        (self.dir / "playlist.m3u").write_text("\n".join(files) + "\n")
        self.logs = self.dir / "logs"
        self.logs.mkdir()
        owner = ""
        if os.geteuid() == 0:
            owner = "<changeowner><user>nobody</user><group>nogroup</group></changeowner>"
        (self.dir / "icecast.xml").write_text(f"""<icecast>
  <limits><sources>2</sources><burst-on-connect>1</burst-on-connect><burst-size>65535</burst-size>
    <source-timeout>10</source-timeout></limits>
  <authentication><source-password>{SOURCE_PASSWORD}</source-password>
    <admin-user>admin</admin-user><admin-password>{SOURCE_PASSWORD}</admin-password></authentication>
  <hostname>127.0.0.1</hostname>
  <listen-socket><port>{self.port}</port><bind-address>127.0.0.1</bind-address></listen-socket>
  <fileserve>0</fileserve>
  <paths><basedir>{self.dir}</basedir><logdir>{self.logs}</logdir></paths>
  <logging><accesslog>access.log</accesslog><errorlog>error.log</errorlog><loglevel>3</loglevel></logging>
  <security><chroot>0</chroot>{owner}</security>
</icecast>
""")
        ez = self.dir / "ezstream.xml"
        ez.write_text(f"""<ezstream>
  <servers><server><hostname>127.0.0.1</hostname><port>{self.port}</port>
    <password>{SOURCE_PASSWORD}</password></server></servers>
  <streams><stream><mountpoint>{mount}</mountpoint><format>MP3</format></stream></streams>
  <intakes><intake><type>playlist</type><filename>{self.dir / 'playlist.m3u'}</filename></intake></intakes>
</ezstream>
""")
        ez.chmod(0o600)  # ezstream refuses a config others can read

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}{self.mount}"

    def _fresh_logs(self) -> None:
        for name in ("error.log", "access.log"):
            path = self.logs / name
            path.write_text("")
            if os.geteuid() == 0:
                nobody = pwd.getpwnam("nobody")
                os.chown(path, nobody.pw_uid, nobody.pw_gid)
                os.chown(self.logs, nobody.pw_uid, nobody.pw_gid)

    def start_server(self, timeout: float = 10) -> float:
        """Runs icecast2 and waits for its start-up line; returns when it was seen."""
        self._fresh_logs()
        self.icecast = subprocess.Popen(["icecast2", "-c", str(self.dir / "icecast.xml")],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if "server started" in (self.logs / "error.log").read_text(errors="replace"):
                return time.monotonic()
            if self.icecast.poll() is not None:
                raise RuntimeError(f"icecast2 exited {self.icecast.returncode}: "
                                   f"{self.icecast.stderr.read().decode(errors='replace')}")
            time.sleep(0.05)
        raise RuntimeError("icecast2 did not log its start-up within "
                           f"{timeout} s: {(self.logs / 'error.log').read_text(errors='replace')[-500:]}")

    def start_source(self, timeout: float = 10) -> float:
        """Runs ezstream and waits until the mount answers; returns when it did."""
        self.ezstream = subprocess.Popen(["ezstream", "-c", str(self.dir / "ezstream.xml")],
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url, timeout=2) as answer:
                    if answer.status == 200 and answer.read(1024):
                        return time.monotonic()
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"the mount {self.url} did not answer within {timeout} s")

    def start(self) -> float:
        """Brings the station on air; returns when the mount first answered."""
        self.start_server()
        return self.start_source()

    def kill(self) -> None:
        """Kills icecast2 and ezstream (as a crash would), waiting for both to be gone."""
        for proc in (self.ezstream, self.icecast):
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait(10)

    def close(self) -> None:
        self.kill()
        shutil.rmtree(self.dir, ignore_errors=True)
