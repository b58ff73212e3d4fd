"""One session, many front ends: the control socket never blocks, a pause survives an
audio-server outage, and `refrain play --events` speaks the full command language."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import threading
import time
import uuid
from pathlib import Path

import numpy as np
import pytest

from test_ctl import SAMPLE, Player
from test_resilience import PrivatePulse

# Runs alone (scripts/e2e): it measures how soon the control socket answers while clients misbehave.
pytestmark = pytest.mark.serial


@pytest.fixture
def player(refrain_bin, tmp_path):
    instance = Player(refrain_bin, tmp_path, f"refrain-session-{uuid.uuid4().hex[:12]}")
    instance.start()
    yield instance
    instance.ctl("quit")
    instance.stop()


def socket_path(player: Player) -> str:
    return str(Path(player.env["XDG_RUNTIME_DIR"]) / "refrain" / "socket")


def ask(player: Player, request: str, timeout: float = 5.0) -> tuple[str, float]:
    """Sends one request over a raw connection; returns the answer and the seconds it took."""
    started = time.monotonic()
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
        client.settimeout(timeout)
        client.connect(socket_path(player))
        client.sendall(request.encode() + b"\n")
        answer = b""
        while not answer.endswith(b"\n"):
            chunk = client.recv(65536)
            if not chunk:
                break
            answer += chunk
    return answer.decode().strip(), time.monotonic() - started


def screen(player: Player) -> str:
    return subprocess.run(player.tmux + ["capture-pane", "-p"], capture_output=True, text=True).stdout


CLOCK = re.compile(r"\b(\d+:\d\d) / \d+:\d\d\b")


def on_screen_clock(player: Player) -> str | None:
    match = CLOCK.search(screen(player))
    return match.group(1) if match else None


def play_sample(player: Player) -> None:
    assert player.ctl("queue", "add", str(SAMPLE)).stdout.strip() == "ok"
    assert player.ctl("play").returncode == 0
    player.wait_for(lambda: player.status()["state"] == "playing", "playback")
    player.wait_for(lambda: on_screen_clock(player) is not None, "the clock on screen")


def test_silent_clients_delay_neither_status_nor_the_screen(player):
    play_sample(player)
    silent = []
    for _ in range(3):
        client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        client.connect(socket_path(player))
        silent.append(client)
    try:
        time.sleep(0.3)
        answer, took = ask(player, "status")
        assert json.loads(answer)["state"] == "playing"
        assert took < 0.1, f"status took {took * 1000:.0f} ms with three silent clients"
        result = player.ctl("status")
        assert result.returncode == 0 and json.loads(result.stdout)["state"] == "playing"
        first = on_screen_clock(player)
        player.wait_for(lambda: on_screen_clock(player) not in (None, first),
                        f"the on-screen clock to move on from {first}", seconds=4)
    finally:
        for client in silent:
            client.close()


def test_a_watcher_that_never_reads_is_dropped_and_stalls_nothing(player):
    play_sample(player)
    stalled = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    stalled.connect(socket_path(player))
    stalled.sendall(b"watch\n")
    try:
        # Every volume change is a status change: far more lines than the watcher's backlog.
        slowest = 0.0
        for index in range(3000):
            answer, took = ask(player, f"volume {40 + index % 2}")
            assert answer == "ok", answer
            slowest = max(slowest, took)
        assert slowest < 0.5, f"a command took {slowest:.3f} s while a watcher did not read"
        answer, took = ask(player, "status")
        assert json.loads(answer)["volume"] == 41 and took < 0.1
        first = on_screen_clock(player)
        player.wait_for(lambda: on_screen_clock(player) not in (None, first),
                        "the on-screen clock to keep moving", seconds=4)
        # The player hung up on the stalled watcher: draining its socket reaches the end.
        stalled.settimeout(5)
        received = 0
        while chunk := stalled.recv(65536):
            received += len(chunk)
        assert received > 0, "the watcher got its first lines before it was dropped"
    finally:
        stalled.close()


def test_a_megabyte_without_a_newline_gets_an_error_and_delays_no_one(player):
    play_sample(player)
    flood = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    flood.connect(socket_path(player))
    reply = bytearray()

    def send_megabyte() -> None:
        try:
            flood.sendall(b"x" * (1 << 20))
        except OSError:
            pass  # the player closed the connection once the request was too long

    sender = threading.Thread(target=send_megabyte, daemon=True)
    sender.start()
    answer, took = ask(player, "status")
    assert json.loads(answer)["state"] == "playing" and took < 0.1, f"{took:.3f} s"
    flood.settimeout(5)
    try:
        while chunk := flood.recv(4096):
            reply += chunk
    except ConnectionResetError:
        pass
    sender.join(5)
    flood.close()
    assert reply.decode() in ("", "error: a command is at most 64 KiB\n"), reply[:200]
    assert player.status()["state"] == "playing", "the player kept going"


def record(server: PrivatePulse, seconds: float) -> np.ndarray:
    """What the private server's sink plays for `seconds` once the recording is flowing (parec
    takes up to a second or two to start), as mono float samples."""
    proc = subprocess.Popen(
        ["parec", "-d", "resilience.monitor", "--raw", "--format=s16le", "--rate=44100",
         "--channels=1", "--latency-msec=20"],
        env=server.env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    chunks: list[bytes] = []
    flowing = threading.Event()

    def read() -> None:
        while chunk := proc.stdout.read1(65536):
            chunks.append(chunk)
            flowing.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    assert flowing.wait(8), "parec recorded nothing within 8 s"
    start = sum(len(c) for c in chunks)
    time.sleep(seconds)
    proc.terminate()
    proc.wait(timeout=5)
    reader.join(5)
    raw = b"".join(chunks)[start:]
    samples = np.frombuffer(raw[: len(raw) // 2 * 2], dtype="<i2").astype(np.float64) / 32768
    assert samples.size > 44100 * seconds / 2, f"the monitor recording is short: {samples.size} samples"
    return samples


def rms_dbfs(samples: np.ndarray) -> float:
    if samples.size == 0:
        return -200.0
    return 20 * np.log10(max(np.sqrt(np.mean(samples**2)), 1e-10))


def test_a_pause_during_an_outage_holds_when_the_server_returns(refrain_bin, tmp_path, fixtures_dir):
    server = PrivatePulse()
    name = f"refrain-outage-{uuid.uuid4().hex[:12]}"
    instance = Player(refrain_bin, tmp_path, name)
    instance.env.update(PULSE_SERVER=server.env["PULSE_SERVER"],
                        PULSE_RUNTIME_PATH=server.env["PULSE_RUNTIME_PATH"])
    instance.env.pop("PULSE_SINK", None)  # the shared server's test sink is not on this one
    try:
        server.start()
        keeper = subprocess.Popen(["parec", "-d", "resilience.monitor", "--latency-msec=20"],
                                  env=server.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        exports = " ".join(f"{k}={v}" for k, v in instance.env.items()
                           if k.startswith(("XDG_", "REFRAIN_", "LANG", "TERM", "PULSE_")))
        subprocess.run(instance.tmux + ["new-session", "-d", "-x", "100", "-y", "30",
                                        f"exec env -u PULSE_SINK {exports} {refrain_bin} --output pulse"], check=True)
        instance.wait_for(lambda: instance.ctl("status").returncode == 0, "the control socket")
        assert instance.ctl("queue", "add", str(fixtures_dir / "steps.mp3")).stdout.strip() == "ok"
        assert instance.ctl("play").returncode == 0
        instance.wait_for(lambda: instance.status().get("position", 0) > 1.5, "playback past 1.5 s")
        before = record(server, 1.0)
        assert rms_dbfs(before) > -40, f"nothing heard before the outage: {screen(instance)}"
        keeper.kill()
        server.kill()
        time.sleep(1.0)
        subprocess.run(instance.tmux + ["send-keys", "Space"], check=True)
        instance.wait_for(lambda: instance.status()["state"] == "paused", "the pause during the outage")
        held = instance.status()["position"]

        server.start()
        keeper = subprocess.Popen(["parec", "-d", "resilience.monitor", "--latency-msec=20"],
                                  env=server.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1.0)  # Refrain retries every 0.1-0.5 s: it has seen the server by now
        heard = record(server, 1.5)
        status = instance.status()
        assert status["state"] == "paused", f"the pause was lost: {status}"
        assert status["position"] == pytest.approx(held, abs=0.05)
        assert rms_dbfs(heard) < -60, f"audio played while paused: {rms_dbfs(heard):.1f} dBFS"

        subprocess.run(instance.tmux + ["send-keys", "Space"], check=True)
        instance.wait_for(lambda: instance.status()["state"] == "playing", "the next space to resume")
        playing = record(server, 1.5)
        assert rms_dbfs(playing) > -40, f"nothing heard after resuming: {rms_dbfs(playing):.1f} dBFS"
        instance.wait_for(lambda: instance.status()["position"] > held + 0.5, "the position to move on")
        keeper.kill()
    finally:
        instance.ctl("quit")
        instance.stop()
        server.close()


LYRICS = "[00:02.00]one\n[00:04.00]two\n[00:06.00]three\n[00:20.00]four\n"


def test_events_speak_the_full_command_language(refrain, fixtures_dir, tmp_path):
    lyrics = tmp_path / "steps.lrc"
    lyrics.write_text(LYRICS)
    run = refrain.start(fixtures_dir / "steps.mp3", "--output", "null", "--events",
                        "--lyrics", lyrics)
    run.wait_position(0.5, timeout=10)
    run.send("seek 0:12")
    run.wait_for(lambda e: e.kind == "position" and 12.0 <= e["t"] < 13.5, 5, "position after seek 0:12")
    sent = time.monotonic()
    run.send("lyrics line 2")
    line = run.wait_for(lambda e: e.kind == "line" and e["index"] == 2 and e.arrival > sent, 5,
                        "line 2 after lyrics line 2")
    assert line["text"] == "three" and line["t"] == pytest.approx(6.0, abs=0.3)
    run.send("seek +5")
    run.wait_for(lambda e: e.kind == "position" and 11.0 <= e["t"] < 12.5, 5, "position after seek +5")
    run.send("line 1")  # the older alias
    run.wait_for(lambda e: e.kind == "line" and e["index"] == 1 and e.arrival > line.arrival, 5,
                 "line 1 after the alias")
    run.send("nudge +100")
    run.send("dance")
    run.send("pause")
    time.sleep(0.5)
    paused = run.positions[-1]["t"]
    time.sleep(0.6)
    assert run.positions[-1]["t"] == pytest.approx(paused, abs=0.01), "positions stop while paused"
    run.send("toggle")
    run.wait_for(lambda e: e.kind == "position" and e["t"] > paused + 0.3, 5, "playing after toggle")
    run.send("stop")
    run.finish(10)
    assert run.returncode == 0, run.stderr
    assert "lyrics offset +100 ms" in run.stderr
    assert "unknown command 'dance'" in run.stderr
    assert not run.bad_stdout, run.bad_stdout
