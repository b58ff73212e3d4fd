"""How far apart two listening-room members *sound*, measured from what each one plays.

Shared by Tests/EndToEnd/test_room_sync.py (`make test`) and scripts/bench_room.py
(`make bench`, section 15). Two `refrain room join --output pulse` members, each on its
own private PulseAudio server with a null sink, follow one `refrain room serve` that
shares Tests/Fixtures/generated/steps.mp3 (second k sounds 300 + 50·k Hz). Each sink's
monitor is recorded with parec (the Recorder of Tests/EndToEnd/harness.py), and each
recording is put on the monotonic clock from the times its file grew.

A tone change in a recording is the moment that member's listener hears the track pass
a whole second. The same change in both recordings, compared on the one monotonic clock,
is how far apart the two listeners are: the sync error a room's users would hear. Only
changes from one step to the next are used (second k to k + 1, found inside a window that
starts once the members have settled after a start or a seek), so a window's first sound
or a seek's jump never counts as a change.

Both sinks are null sinks recorded the same way, so the bias of recording (a null sink
renders up to one block ahead of its clock) is the same on both sides and cancels.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import statistics
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
import sys  # noqa: E402

sys.path.insert(0, str(REPO / "Tests" / "EndToEnd"))
sys.path.insert(0, str(REPO / "scripts"))

import audio_analysis as aa  # noqa: E402
import bench_audio as ba  # noqa: E402  (sample-precise matching)
from harness import Recorder  # noqa: E402
from room_harness import RoomServer  # noqa: E402

STEPS = REPO / "Tests" / "Fixtures" / "generated" / "steps.mp3"
FREQS = [300 + 50 * k for k in range(30)]
TRACK = "steps.mp3"


# ---------------------------------------------------------------- a second PulseAudio server

class PulseServer:
    """A private, headless PulseAudio server whose only sink is a null sink, as
    scripts/with-test-pulse starts one (anonymous unix socket in a 0700 temp dir)."""

    def __init__(self, sink: str = "refrain_room_b") -> None:
        self.sink = sink
        self.dir = Path(tempfile.mkdtemp(prefix="refrain-pulse-b."))
        self.proc: subprocess.Popen | None = None

    @property
    def env(self) -> dict:
        """What a client of this server needs in its environment."""
        return {"PULSE_SERVER": f"unix:{self.dir}/run/native", "PULSE_RUNTIME_PATH": str(self.dir / "run"),
                "PULSE_COOKIE": str(self.dir / "cookie"), "PULSE_SINK": self.sink}

    def start(self, timeout: float = 10) -> "PulseServer":
        for sub in ("run", "home", "state", "config"):
            (self.dir / sub).mkdir(parents=True, exist_ok=True)
        os.chmod(self.dir, 0o700)
        os.chmod(self.dir / "run", 0o700)
        (self.dir / "cookie").write_bytes(os.urandom(256))
        env = dict(os.environ, HOME=str(self.dir / "home"), XDG_CONFIG_HOME=str(self.dir / "config"),
                   XDG_RUNTIME_DIR=str(self.dir / "run"), PULSE_RUNTIME_PATH=str(self.dir / "run"),
                   PULSE_STATE_PATH=str(self.dir / "state"))
        for var in ("PULSE_SERVER", "PULSE_SINK", "PULSE_COOKIE"):
            env.pop(var, None)
        self.proc = subprocess.Popen(
            ["pulseaudio", "--daemonize=no", "-n", "--use-pid-file=no", "--exit-idle-time=-1",
             "--disallow-exit=yes", "--system=no", f"--log-target=file:{self.dir}/pulse.log",
             f"--load=module-null-sink sink_name={self.sink} rate=44100 channels=2 "
             f"sink_properties=device.description={self.sink}",
             f"--load=module-native-protocol-unix auth-anonymous=1 socket={self.dir}/run/native"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                break
            if subprocess.run(["pactl", "info"], env=self.client_env(), capture_output=True,
                              timeout=5).returncode == 0:
                subprocess.run(["pactl", "set-default-sink", self.sink], env=self.client_env(),
                               capture_output=True, timeout=5)
                return self
            time.sleep(0.05)
        log = (self.dir / "pulse.log").read_text(errors="replace")[-1500:] if (self.dir / "pulse.log").exists() else ""
        self.stop()
        raise RuntimeError(f"the second PulseAudio server did not start; its log: {log}")

    def client_env(self) -> dict:
        return dict(os.environ, **self.env)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(3)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(3)
        shutil.rmtree(self.dir, ignore_errors=True)


def suite_pulse() -> dict:
    """The PulseAudio server the process runs under (scripts/with-test-pulse)."""
    server, sink = os.environ.get("PULSE_SERVER"), os.environ.get("REFRAIN_TEST_SINK")
    if not server or not sink:
        raise RuntimeError("PULSE_SERVER / REFRAIN_TEST_SINK are not set: run under scripts/with-test-pulse")
    env = {"PULSE_SERVER": server, "PULSE_SINK": sink}
    for var in ("PULSE_RUNTIME_PATH", "PULSE_COOKIE"):
        if os.environ.get(var):
            env[var] = os.environ[var]
    return env


class EnvRecorder(Recorder):
    """harness.Recorder, recording a sink of the PulseAudio server named in `env`."""

    def __init__(self, sink: str, path: Path, env: dict) -> None:
        super().__init__(sink, path, env=dict(os.environ, **env))


# ---------------------------------------------------------------- a member with a PulseAudio output

class PulseMember:
    """`refrain room join URL --name N --output pulse --events` on the PulseAudio server in
    `pulse_env`; a thread stamps each JSON event (monotonic time) as it arrives."""

    def __init__(self, binary: Path, home: Path, url: str, token: str, name: str, pulse_env: dict) -> None:
        for sub in ("data", "config", "state", "cache", "runtime"):
            (home / sub).mkdir(parents=True, exist_ok=True, mode=0o700)
        env = dict(os.environ, LANG="C.UTF-8", LC_ALL="C.UTF-8", XDG_DATA_HOME=str(home / "data"),
                   XDG_CONFIG_HOME=str(home / "config"), XDG_STATE_HOME=str(home / "state"),
                   XDG_CACHE_HOME=str(home / "cache"), XDG_RUNTIME_DIR=str(home / "runtime"),
                   REFRAIN_LRCLIB_URL="http://127.0.0.1:9/", REFRAIN_DEEZER_URL="http://127.0.0.1:9/",
                   REFRAIN_ROOM_TOKEN=token, **pulse_env)
        self.name = name
        self.proc = subprocess.Popen([str(binary), "room", "join", url, "--name", name, "--output", "pulse",
                                      "--events"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=env, text=True)
        self.events: queue.Queue = queue.Queue()
        self.log: list[tuple[float, dict]] = []
        self.stderr: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            now = time.monotonic()
            try:
                event = json.loads(line)
            except ValueError:
                event = {"event": "not-json", "line": line}
            self.log.append((now, event))
            self.events.put((now, event))

    def _read_err(self) -> None:
        for line in self.proc.stderr:
            self.stderr.append(line)

    def send(self, command: str) -> float:
        """Writes one command line; returns the monotonic time just before the write."""
        at = time.monotonic()
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        return at

    def wait(self, what: str, check=lambda e: True, timeout: float = 15) -> dict:
        deadline = time.monotonic() + timeout
        seen = []
        while time.monotonic() < deadline:
            try:
                _, event = self.events.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                break
            seen.append(event.get("event"))
            if event.get("event") == what and check(event):
                return event
        raise RuntimeError(f"{self.name}: no {what} event within {timeout} s; last events {seen[-15:]}; "
                           f"stderr {''.join(self.stderr)[-500:]}")

    def syncs(self) -> list[tuple[float, dict]]:
        return [(at, e) for at, e in self.log if e.get("event") == "sync"]

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.send("quit")
                self.proc.wait(5)
            except (BrokenPipeError, OSError, ValueError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait(5)


# ---------------------------------------------------------------- the measurement

@dataclass
class Action:
    kind: str          # "start" (play the track from 0) or "seek"
    by: str            # "A" or "B": the member who sends the command
    position: float    # where the track is right after the command (0 for a start)
    at: float = 0.0    # monotonic time just before the command was written


@dataclass
class Match:
    action: int        # index into SyncResult.actions
    step: int          # the tone change from second step - 1 to step
    a: float           # monotonic time member A played it
    b: float           # monotonic time member B played it
    coarse_ms: float = 0.0   # A − B from the 5 ms tone-change finder alone
    fit: float | None = None  # rms misfit of A's stretch laid over B's (None: not refined)
    misfits: list = field(default_factory=list)  # the misfits that were too poor, for a person to read

    @property
    def error_ms(self) -> float:
        return (self.a - self.b) * 1000


@dataclass
class SyncResult:
    actions: list[Action]
    matches: list[Match]
    unmatched: list[tuple[int, int, str]] = field(default_factory=list)  # (action, step, which side lacked it)
    syncs: dict = field(default_factory=dict)          # member -> [(arrival, sync event)]
    recordings: list = field(default_factory=list)     # [A's, B's] with measure(keep=True)
    recorded_s: float = 0.0

    def errors_ms(self, kind: str | None = None) -> list[float]:
        return [abs(m.error_ms) for m in self.matches if kind is None or self.actions[m.action].kind == kind]

    def stats(self, kind: str | None = None) -> dict:
        e = self.errors_ms(kind)
        signed = [m.error_ms for m in self.matches if kind is None or self.actions[m.action].kind == kind]
        return {"n": len(e), "median": statistics.median(e) if e else None, "max": max(e) if e else None,
                "signed_median": statistics.median(signed) if signed else None}


def boundary_changes(rec, lo: float, hi: float) -> list[tuple[int, float]]:
    """(k, monotonic time) for every change from step k - 1 to step k heard between `lo`
    and `hi` (monotonic) in a Recording."""
    start, end = max(0.0, lo - rec.t0), hi - rec.t0
    if end - start < 0.2:
        return []
    changes = aa.step_changes(rec.audio, FREQS, start=start, end=end)
    out = []
    for prev, cur in zip(changes, changes[1:]):
        if prev.step is not None and cur.step is not None and cur.step == prev.step + 1:
            out.append((cur.step, rec.t0 + cur.t))
    return out


def refine(recordings, action: int, step: int, a: float, b: float, half: float = 0.05,
           search: float = 0.03, max_misfit: float = 0.2) -> Match:
    """Places one tone change in B's recording to a sample by laying A's recording of it
    (`half` s either side) over B's, within `search` s of where the coarse finder put it.

    The stretch holds the change itself, so it fits only where B changes too. When even
    the best offset fits badly (a correction's jump inside the stretch, say), the coarse
    times are kept and the Match says so (fit None).
    """
    rec_a, rec_b = recordings
    coarse = Match(action, step, a, b, coarse_ms=(a - b) * 1000)
    for h in (half, half / 2.5):       # a shorter stretch, when a correction's jump spoils the longer one
        match = ba.boundary_in_recording(rec_b.audio, rec_a.audio, a - rec_a.t0, b - rec_b.t0,
                                         search=search, half=h)
        if match is not None and match["error"] <= max_misfit:
            return Match(action, step, a, rec_b.t0 + match["t"], coarse_ms=(a - b) * 1000, fit=match["error"])
        coarse.misfits.append(None if match is None else round(match["error"], 3))
    return coarse


def measure(binary: Path, work: Path, plan: list[Action], *, settle: float = 2.0, dwell: float = 5.0,
            pulse_a: dict | None = None, log=lambda msg: None, keep: bool = False) -> SyncResult:
    """Runs `plan` in a room of two pulse members and measures, for each action, the tone
    changes both heard between `settle` and `dwell` seconds after it.

    `pulse_a` is member A's PulseAudio (default: the one this process runs under, see
    suite_pulse()); member B gets a second private server started here. With `keep`, the
    recordings stay in `work` (a.wav, b.wav) and the result carries them.
    """
    work.mkdir(parents=True, exist_ok=True)
    library = work / "library"
    library.mkdir(exist_ok=True)
    shutil.copyfile(STEPS, library / TRACK)
    pulse_a = pulse_a or suite_pulse()
    pulse_b = PulseServer().start()
    server = RoomServer(binary, work / "server", [library])
    members: list[PulseMember] = []
    recorders: list[EnvRecorder] = []
    try:
        server.start()
        url = server.url + "/rooms/sync"
        recorders = [EnvRecorder(pulse_a["PULSE_SINK"], work / "a.wav", pulse_a),
                     EnvRecorder(pulse_b.sink, work / "b.wav", pulse_b.env)]
        threads = [threading.Thread(target=r.start) for r in recorders]
        for t in threads:
            t.start()
        for t in threads:
            t.join(15)
        for r in recorders:
            if r._proc is None or r._proc.poll() is not None or len(r._growth) < 3:
                raise RuntimeError(f"parec did not start recording {r.sink}.monitor")
        a = PulseMember(binary, work / "a", url, server.token, "A", pulse_a)
        members.append(a)
        b = PulseMember(binary, work / "b", url, server.token, "B", pulse_b.env)
        members.append(b)
        for m in members:
            m.wait("joined", timeout=20)
        a.send(f"queue add {TRACK}")
        entry = None
        for m in members:
            q = m.wait("queue", lambda e: any(x["path"] == TRACK for x in e["entries"]))
            entry = next(x["entry"] for x in q["entries"] if x["path"] == TRACK)
        by = {"A": a, "B": b}
        for i, action in enumerate(plan):
            if action.kind == "start":
                command = f"play {entry}"
            else:
                command = f"seek {action.position:.3f}"
            action.at = by[action.by].send(command)
            for m in members:
                m.wait("state", lambda e: e["playing"] and abs(e["position"] - action.position) < 0.05,
                       timeout=10)
            log(f"{i + 1}/{len(plan)}: {action.kind} to {action.position:.2f} s by {action.by}")
            time.sleep(max(0.0, action.at + dwell - time.monotonic()))
        recordings = [r.stop(tail=0.3) for r in recorders]
        result = SyncResult(plan, [], syncs={m.name: [(at, e) for at, e in m.syncs()] for m in members},
                            recorded_s=min(r.audio.duration for r in recordings))
        if keep:
            result.recordings = recordings
        for i, action in enumerate(plan):
            lo, hi = action.at + settle, action.at + dwell
            ca = dict(boundary_changes(recordings[0], lo, hi))
            cb = dict(boundary_changes(recordings[1], lo, hi))
            for step in sorted(set(ca) | set(cb)):
                if step in ca and step in cb:
                    result.matches.append(refine(recordings, i, step, ca[step], cb[step]))
                else:
                    result.unmatched.append((i, step, "B" if step in ca else "A"))
        return result
    finally:
        for m in members:
            m.close()
        for r in recorders:
            r.kill()
        if server.running():
            server.stop()
        pulse_b.stop()
        for f in ("a.wav", "b.wav"):
            if not keep:
                (work / f).unlink(missing_ok=True)


def describe(result: SyncResult) -> str:
    """A few lines for a person: the figures, the worst matches and the corrections."""
    lines = []
    for kind in ("start", "seek", None):
        s = result.stats(kind)
        label = {"start": "after track starts", "seek": "after seeks", None: "all"}[kind]
        if s["n"]:
            lines.append(f"sync error {label}: n={s['n']} median {s['median']:.1f} ms, max {s['max']:.1f} ms "
                         f"(A − B signed median {s['signed_median']:+.1f} ms)")
        else:
            lines.append(f"sync error {label}: no tone change heard by both")
    refined = sum(1 for m in result.matches if m.fit is not None)
    lines.append(f"{refined} of {len(result.matches)} changes placed to a sample (the rest to ~5 ms; misfits "
                 f"{[m.misfits for m in result.matches if m.fit is None]})")
    worst = sorted(result.matches, key=lambda m: -abs(m.error_ms))[:5]
    lines.append("worst: " + ", ".join(f"{result.actions[m.action].kind}#{m.action + 1} step {m.step}: "
                                       f"{m.error_ms:+.1f} ms" for m in worst))
    if result.unmatched:
        lines.append(f"changes heard by one member only: {result.unmatched[:10]}")
    for name, stamped in result.syncs.items():
        syncs = [e for _, e in stamped]
        acts = [s.get("action") for s in syncs]
        lines.append(f"member {name}: {len(syncs)} sync events ({acts.count('step')} steps, "
                     f"{acts.count('seek')} seeks); errors {[s.get('error_ms') for s in syncs][:12]}")
    return "\n".join(lines)
