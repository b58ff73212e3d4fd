"""Refrain survives its audio server going away: playback waits, then resumes in place.

These tests start their own private PulseAudio server (not the shared one from
scripts/with-test-pulse), because they kill it in the middle of playback.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path


class PrivatePulse:
    """A private null-sink PulseAudio server that a test may kill and start again."""

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="refrain-pa-"))
        (self.dir / "run").mkdir()
        self.env = dict(os.environ, PULSE_RUNTIME_PATH=str(self.dir / "run"),
                        PULSE_SERVER=f"unix:{self.dir}/run/native", HOME=str(self.dir))
        self.env.pop("PULSE_SINK", None)
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no",
             "--disallow-exit=yes", f"--log-target=file:{self.dir}/pulse.log",
             "--load=module-null-sink sink_name=resilience",
             f"--load=module-native-protocol-unix auth-anonymous=1 socket={self.dir}/run/native"],
            env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if subprocess.run(["pactl", "info"], env=self.env, capture_output=True).returncode == 0:
                return
            time.sleep(0.05)
        raise AssertionError("the private PulseAudio server did not start")

    def kill(self) -> None:
        if self.proc:
            self.proc.kill()
            self.proc.wait(timeout=10)
            self.proc = None

    def close(self) -> None:
        self.kill()
        shutil.rmtree(self.dir, ignore_errors=True)


def _positions(lines: list[tuple[float, dict]]) -> list[tuple[float, float]]:
    return [(stamp, event["t"]) for stamp, event in lines if event.get("event") == "position"]


def test_playback_resumes_in_place_when_the_audio_server_returns(refrain_bin, fixtures_dir):
    server = PrivatePulse()
    try:
        server.start()
        # Keep the idle null sink awake so the first stream starts at once.
        keeper = subprocess.Popen(["parec", "-d", "resilience.monitor", "--latency-msec=20"],
                                  env=server.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1.5)
        proc = subprocess.Popen([str(refrain_bin), "play", str(fixtures_dir / "steps.mp3"),
                                 "--output", "pulse", "--events", "--duration", "9"],
                                env=server.env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        os.set_blocking(proc.stdout.fileno(), False)
        lines: list[tuple[float, dict]] = []
        buffer = ""

        def pump(seconds: float) -> None:
            nonlocal buffer
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                chunk = proc.stdout.read()
                if chunk:
                    buffer += chunk.decode()
                    while "\n" in buffer:
                        line, buffer = buffer.split("\n", 1)
                        lines.append((time.monotonic(), json.loads(line)))
                time.sleep(0.01)

        pump(3.5)
        keeper.kill()
        before = _positions(lines)[-1][1]
        server.kill()
        pump(1.5)
        stalled = [t for _, t in _positions(lines)][-1]
        assert abs(stalled - before) < 0.6, f"the clock ran on with no server: {before} → {stalled}"
        server.start()
        keeper = subprocess.Popen(["parec", "-d", "resilience.monitor", "--latency-msec=20"],
                                  env=server.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        pump(4.0)
        keeper.kill()
        after = [t for _, t in _positions(lines)]
        assert after[-1] > stalled + 1.0, f"playback did not resume: last positions {after[-6:]}"
        resumed = next(t for t in after if t > stalled + 0.05)
        assert resumed - stalled < 0.6, f"resumed at {resumed}, not near {stalled}"
        proc.stdin.close()
        proc.wait(timeout=20)
        stderr = proc.stderr.read().decode()
        assert "audio server lost" in stderr and "audio server is back" in stderr, stderr
        assert proc.returncode == 0, stderr
    finally:
        server.close()
