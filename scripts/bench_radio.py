#!/usr/bin/env python3
"""Internet radio against a real Icecast server fed by ezstream (issue 28, "Measure").

Run under scripts/with-test-pulse (it records the private PulseAudio's null sink):

a. First sound after `refrain play URL --output pulse`, against `mpg123 -o pulse URL` on the
   same stream: from the launch to the first sound in the recording.
b. A title change on the server (Icecast's admin `metadata?mode=updinfo`, at a known moment)
   to the `metadata` event on `refrain play --events`. Refrain tells a title when the player
   reaches the audio that came with it, so this is how far behind live the listener is
   (Icecast's burst on connect), not the network's delay.
c. The station killed (icecast2 and ezstream), left down for 8 s, then started again: from
   the mount answering again to audio heard again, and from the `reconnected` event to
   audio heard. The first depends on where the backoff (0.5 s doubling to 10 s) stands
   when the server returns.

Prints a Markdown table for docs/benchmarks.md; `--runs N` repeats each (default 5).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "Tests" / "EndToEnd"))

import audio_analysis as aa  # noqa: E402
from harness import Recorder  # noqa: E402
from icecast_harness import SOURCE_PASSWORD, RadioTrack, Station  # noqa: E402

BINARY = Path(os.environ.get("REFRAIN_BIN") or REPO / ".build" / "release" / "refrain")


def environment(home: Path) -> dict:
    env = dict(os.environ)
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        (home / var.lower()).mkdir(parents=True, exist_ok=True)
        env[var] = str(home / var.lower())
    env["REFRAIN_LRCLIB_URL"] = "http://127.0.0.1:9/"
    env["REFRAIN_DEEZER_URL"] = "http://127.0.0.1:9/"
    return env


class Events:
    """`refrain play --events` with its stdout read into (arrival, event) pairs."""

    def __init__(self, argv: list[str], env: dict):
        self.proc = subprocess.Popen(argv, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL)
        self.seen: list[tuple[float, dict]] = []
        self.lock = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            event = json.loads(line)
            with self.lock:
                self.seen.append((time.monotonic(), event))
                self.lock.notify_all()

    def wait(self, predicate, timeout: float) -> tuple[float, dict]:
        deadline = time.monotonic() + timeout
        with self.lock:
            while True:
                for item in self.seen:
                    if predicate(item):
                        return item
                left = deadline - time.monotonic()
                if left <= 0:
                    raise RuntimeError(f"timed out; events: {[e for _, e in self.seen if e['event'] != 'position']}")
                self.lock.wait(min(left, 0.05))

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)


def first_sound(argv: list[str], env: dict, sink: str, folder: Path) -> float:
    recorder = Recorder(sink, folder / "first.wav")
    recorder.start()
    launched = time.monotonic()
    proc = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    time.sleep(4)
    proc.terminate()
    proc.wait(10)
    rec = recorder.stop()
    onset = aa.sound_start(rec.audio, after=rec.at(launched))
    if onset is None:
        raise RuntimeError(f"no sound from {argv[0]}")
    return onset - rec.at(launched)


def set_title(station: Station, title: str) -> float:
    query = urllib.parse.urlencode({"mount": station.mount, "mode": "updinfo", "song": title})
    request = urllib.request.Request(f"http://127.0.0.1:{station.port}/admin/metadata?{query}")
    manager = urllib.request.HTTPPasswordMgrWithDefaultRealm()
    manager.add_password(None, f"http://127.0.0.1:{station.port}/", "admin", SOURCE_PASSWORD)
    opener = urllib.request.build_opener(urllib.request.HTTPBasicAuthHandler(manager))
    with opener.open(request, timeout=5) as answer:
        answer.read()
    return time.monotonic()


def ms(values: list[float]) -> str:
    values = sorted(values)
    return f"{statistics.median(values) * 1000:.0f} ms (min {values[0] * 1000:.0f}, max {values[-1] * 1000:.0f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    sink = os.environ.get("REFRAIN_TEST_SINK")
    if not sink:
        sys.exit("run under scripts/with-test-pulse")
    folder = Path(tempfile.mkdtemp(prefix="refrain-bench-radio-"))
    env = environment(folder / "home")
    # Long tracks, so ezstream's own title changes stay out of the measured ones.
    station = Station([RadioTrack("Bench", "Tone", 440, 120)])
    station.start()
    rows = []
    try:
        refrain = [first_sound([str(BINARY), "play", station.url, "--output", "pulse"], env, sink, folder)
                   for _ in range(args.runs)]
        mpg123 = [first_sound(["mpg123", "-q", "-o", "pulse", station.url], env, sink, folder)
                  for _ in range(args.runs)]
        rows.append(("first sound after `play URL`", ms(refrain)))
        rows.append(("first sound after `mpg123 -o pulse URL`", ms(mpg123)))

        play = Events([str(BINARY), "play", station.url, "--output", "pulse", "--events"], env)
        play.wait(lambda item: item[1]["event"] == "metadata", 20)
        delays = []
        for index in range(args.runs):
            title = f"Bench - Change {index}"
            changed = set_title(station, title)
            arrival, _ = play.wait(lambda item, t=title: item[1].get("raw", "").endswith(t), 30)
            delays.append(arrival - changed)
            time.sleep(1)
        play.stop()
        rows.append(("title changed on the server → `metadata` event", ms(delays)))

        back_to_sound, reconnected_to_sound = [], []
        for _ in range(max(1, args.runs // 2)):
            recorder = Recorder(sink, folder / "drop.wav")
            recorder.start()
            play = Events([str(BINARY), "play", station.url, "--output", "pulse", "--events"], env)
            play.wait(lambda item: item[1]["event"] == "metadata", 20)
            time.sleep(2)
            station.kill()
            time.sleep(8)
            station.start_server()
            back = station.start_source()
            arrival, _ = play.wait(lambda item: item[1]["event"] == "reconnected", 30)
            time.sleep(3)
            play.stop()
            rec = recorder.stop()
            # The gap: the first sound after the buffered audio ran out.
            quiet = aa.silence_start(rec.audio, after=rec.at(back) - 8, min_length=0.5)
            onset = aa.sound_start(rec.audio, after=max(rec.at(back), quiet or 0))
            if onset is None:
                raise RuntimeError("no sound after the station came back")
            back_to_sound.append(onset - rec.at(back))
            reconnected_to_sound.append(onset - rec.at(arrival))
        rows.append(("mount answering again → audio heard (after 8 s down)", ms(back_to_sound)))
        rows.append(("`reconnected` event → audio heard", ms(reconnected_to_sound)))
    finally:
        station.close()
    print(f"| radio (Icecast 2.4 + ezstream on 127.0.0.1, MP3 128k, {args.runs} runs) | median |")
    print("| --- | --- |")
    for name, value in rows:
        print(f"| {name} | {value} |")


if __name__ == "__main__":
    main()
