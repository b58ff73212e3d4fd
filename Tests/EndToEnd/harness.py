"""The machinery behind Refrain's end-to-end tests: a recorder for the test
sink, a runner for `refrain play`, and a fixture HTTP server on 127.0.0.1.

All times are `time.monotonic()` seconds, so a JSON event's arrival and a
moment in the recording can be compared directly.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from audio_analysis import Audio, read_wav


# ---------------------------------------------------------------- recording

@dataclass
class Recording:
    """What the test sink played while the recorder ran.

    `t0` is the monotonic time of the recording's first sample, so the
    recording's second `x` happened at `t0 + x`.
    """

    audio: Audio
    t0: float
    path: Path

    def at(self, when: float) -> float:
        """Converts a monotonic time to seconds into the recording."""
        return when - self.t0


class Recorder:
    """Records the test sink's monitor with parec into a WAV file.

    parec takes 0.5-2 s before the first sample arrives (an idle null sink
    starts its first stream late), and that first stream also wakes the sink
    for whatever Refrain plays next. So `start()` returns only once samples
    are flowing, and a test starts Refrain after that.

    The time of the first sample is found by watching the file grow: every
    growth seen at time p with s samples in the file says the first sample
    was at or before p - s/rate; the smallest such bound over the whole
    recording is within a few milliseconds of the truth.
    """

    RATE = 44100
    CHANNELS = 2

    def __init__(self, sink: str, path: Path, env: dict | None = None):
        self.sink = sink
        self.path = path
        self.env = env   # parec's environment (another PulseAudio server's), else ours
        self._proc: subprocess.Popen | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._growth: list[tuple[float, int]] = []   # (when seen, file size)
        self.recording: Recording | None = None

    def start(self, settle: float = 0.3, timeout: float = 8.0) -> None:
        self.path.unlink(missing_ok=True)   # an old file's size would fool the clock
        self._proc = subprocess.Popen(
            ["parec", "-d", f"{self.sink}.monitor", "--latency-msec=20", "--file-format=wav",
             f"--rate={self.RATE}", f"--channels={self.CHANNELS}", "--format=s16le", str(self.path)],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=self.env)
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + timeout
        # Wait until audio is flowing into the file, then a little more.
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                err = self._proc.stderr.read().decode(errors="replace").strip()
                raise RuntimeError(f"parec exited ({self._proc.returncode}): {err}")
            if len(self._growth) >= 3:
                break
            time.sleep(0.01)
        else:
            self.stop()
            raise RuntimeError(f"parec recorded nothing from {self.sink}.monitor within {timeout} s")
        time.sleep(settle)

    def _watch(self) -> None:
        last = -1
        while not self._stop.is_set():
            try:
                size = os.stat(self.path).st_size
            except FileNotFoundError:
                size = -1
            now = time.monotonic()
            if size != last and size > 0:
                self._growth.append((now, size))
                last = size
            time.sleep(0.003)

    def stop(self, tail: float = 0.0) -> Recording:
        """Stops after `tail` more seconds and returns the recording."""
        if self.recording is not None:
            return self.recording
        if tail > 0:
            time.sleep(tail)
        if self._proc is not None and self._proc.poll() is None:
            self._proc.send_signal(signal.SIGINT)
            try:
                self._proc.wait(5)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        audio = read_wav(str(self.path))
        offset = _wav_data_offset(self.path)
        frame = 2 * self.CHANNELS
        bounds = [seen - ((size - offset) // frame) / self.RATE
                  for seen, size in self._growth if size > offset]
        if not bounds:
            raise RuntimeError("the recorder saw no audio arrive")
        self.recording = Recording(audio, min(bounds), self.path)
        return self.recording

    def kill(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            self._proc.kill()
            self._proc.wait()
        self._stop.set()


def _wav_data_offset(path: Path) -> int:
    with open(path, "rb") as f:
        head = f.read(4096)
    pos = 12
    while pos + 8 <= len(head):
        size = int.from_bytes(head[pos + 4:pos + 8], "little")
        if head[pos:pos + 4] == b"data":
            return pos + 8
        pos += 8 + size + (size & 1)
    raise ValueError(f"{path}: no data chunk in the first 4 KB")


# ---------------------------------------------------------------- running refrain

@dataclass
class Event:
    """One JSON line from `refrain play --events`, stamped when it arrived."""

    data: dict
    arrival: float

    @property
    def kind(self) -> str:
        return self.data.get("event", "")

    def __getitem__(self, key):
        return self.data[key]

    def get(self, key, default=None):
        return self.data.get(key, default)


@dataclass
class Run:
    """A running (then finished) `refrain play` process."""

    argv: list[str]
    proc: subprocess.Popen
    launched: float
    events: list[Event] = field(default_factory=list)
    bad_stdout: list[str] = field(default_factory=list)   # stdout lines that are not JSON events
    stderr: str = ""
    returncode: int | None = None
    ended: float | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _changed: threading.Condition = None  # type: ignore[assignment]
    _readers: list[threading.Thread] = field(default_factory=list)
    _stderr_chunks: list[bytes] = field(default_factory=list)

    def __post_init__(self):
        self._changed = threading.Condition(self._lock)

    @property
    def command(self) -> str:
        return " ".join(self.argv)

    @property
    def elapsed(self) -> float:
        return (self.ended or time.monotonic()) - self.launched

    def of(self, kind: str) -> list[Event]:
        with self._lock:
            return [e for e in self.events if e.kind == kind]

    @property
    def positions(self) -> list[Event]:
        return self.of("position")

    def send(self, line: str) -> float:
        """Writes one command line to Refrain's stdin; returns when it was sent."""
        assert self.proc.stdin is not None, "this run has no stdin pipe"
        self.proc.stdin.write((line.rstrip("\n") + "\n").encode())
        self.proc.stdin.flush()
        return time.monotonic()

    def wait_for(self, predicate, timeout: float, what: str) -> Event:
        """Waits for the first event matching `predicate`; fails the test on timeout."""
        import pytest
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                for e in self.events:
                    if predicate(e):
                        return e
                left = deadline - time.monotonic()
                if left <= 0 or self.proc.poll() is not None and self._done_reading():
                    break
                self._changed.wait(min(left, 0.05))
        # One last look after the process ended.
        for e in self.events:
            if predicate(e):
                return e
        pytest.fail(f"no {what} within {timeout} s from `{self.command}`"
                    f" (exit {self.proc.poll()}); events: {self.summary()}; stderr: {self.stderr_now()!r}")

    def wait_position(self, t: float, timeout: float) -> Event:
        return self.wait_for(lambda e: e.kind == "position" and e["t"] >= t, timeout,
                             f"position event at t >= {t}")

    def _done_reading(self) -> bool:
        return all(not r.is_alive() for r in self._readers)

    def stderr_now(self) -> str:
        return b"".join(self._stderr_chunks).decode(errors="replace")

    def finish(self, timeout: float) -> "Run":
        """Waits for Refrain to exit; kills it and fails the test if it takes longer."""
        import pytest
        try:
            self.proc.wait(timeout=max(0.0, timeout - (time.monotonic() - self.launched)))
        except subprocess.TimeoutExpired:
            self.kill()
            pytest.fail(f"`{self.command}` did not finish within {timeout} s (it hung);"
                        f" events: {self.summary()}; stderr: {self.stderr_now()!r}")
        self._settle()
        return self

    def _settle(self) -> None:
        self.ended = self.ended or time.monotonic()
        # stdin stays open while Refrain runs, as for a controlling program;
        # the contract does not say what end-of-input means.
        if self.proc.stdin is not None and not self.proc.stdin.closed:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
        for r in self._readers:
            r.join(5)
        self.returncode = self.proc.returncode
        self.stderr = self.stderr_now()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self._settle()

    def summary(self, limit: int = 12) -> str:
        """A short digest of the events, for failure messages."""
        with self._lock:
            evs = list(self.events)
        t = [f"{e.arrival - self.launched:.2f}s:{json.dumps(e.data, ensure_ascii=False)}"
             for e in evs if e.kind != "position"]
        pos = [e for e in evs if e.kind == "position"]
        if pos:
            t.append(f"{len(pos)} positions {pos[0]['t']}..{pos[-1]['t']}")
        s = "; ".join(t[:limit])
        return s + (f" (+{len(t) - limit} more)" if len(t) > limit else "")


class Refrain:
    """Starts `refrain play` with an isolated environment.

    Every run gets its own XDG dirs (so a user's config or library never
    leaks in), online catalog and lyrics URLs that point at a closed port on
    127.0.0.1 (so nothing leaves the machine), and LANG=C.UTF-8.
    """

    def __init__(self, binary: Path, home: Path):
        self.binary = binary
        self.home = home
        self.runs: list[Run] = []
        self.env = dict(os.environ)
        for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR"):
            d = home / var.lower()
            d.mkdir(parents=True, exist_ok=True, mode=0o700)
            self.env[var] = str(d)
        self.env["LANG"] = "C.UTF-8"
        self.env["LC_ALL"] = "C.UTF-8"
        self.env["REFRAIN_DEEZER_URL"] = "http://127.0.0.1:9/"
        self.env["REFRAIN_LRCLIB_URL"] = "http://127.0.0.1:9/"

    def start(self, *args: str, env: dict | None = None, stdin: bool = True) -> Run:
        """Starts `refrain play ARGS...`; stdin stays open as a pipe (for
        `--events` commands) unless `stdin` is False."""
        argv = [str(self.binary), "play", *map(str, args)]
        full_env = dict(self.env)
        for k, v in (env or {}).items():
            if v is None:
                full_env.pop(k, None)
            else:
                full_env[k] = v
        proc = subprocess.Popen(argv, env=full_env, cwd=str(self.home),
                                stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        run = Run(argv=[Path(argv[0]).name, *argv[1:]], proc=proc, launched=time.monotonic())
        out = threading.Thread(target=_read_stdout, args=(run,), daemon=True)
        err = threading.Thread(target=_read_stderr, args=(run,), daemon=True)
        run._readers = [out, err]
        out.start()
        err.start()
        self.runs.append(run)
        return run

    def play(self, *args: str, timeout: float, env: dict | None = None, stdin: bool = True) -> Run:
        """Runs `refrain play ARGS...` to the end (within `timeout` seconds)."""
        return self.start(*args, env=env, stdin=stdin).finish(timeout)

    def cleanup(self) -> None:
        for run in self.runs:
            if run.proc.poll() is None:
                run.kill()


def _read_stdout(run: Run) -> None:
    for raw in run.proc.stdout:
        now = time.monotonic()
        line = raw.decode("utf-8", errors="replace").rstrip("\r\n")
        try:
            obj = json.loads(line)
            ok = isinstance(obj, dict) and isinstance(obj.get("event"), str)
        except ValueError:
            ok = False
        with run._changed:
            if ok:
                run.events.append(Event(obj, now))
            else:
                run.bad_stdout.append(line)
            run._changed.notify_all()
    with run._changed:
        run._changed.notify_all()


def _read_stderr(run: Run) -> None:
    for raw in iter(lambda: run.proc.stderr.read1(4096), b""):
        run._stderr_chunks.append(raw)


# ---------------------------------------------------------------- HTTP fixture server

# The file server with byte ranges and failures, shared with the Swift unit tests.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Fixtures" / "ranges"))
from range_server import FixtureServer, Transfer  # noqa: E402,F401


# ---------------------------------------------------------------- a busy machine

class CPULoad:
    """`stress-ng --cpu WORKERS`: busy loops that keep every core of the machine occupied.

    Four workers on two cores oversubscribe them twice over, so every thread of Refrain
    (and of PulseAudio, parec and the test) waits its turn with them. stress-ng runs in a
    process group of its own; `stop()` ends that group (the parent and its workers) and
    nothing else, and `timeout` is stress-ng's own deadline, so a test that dies without
    calling `stop()` still leaves no load behind for long. Use it as a context manager.
    """

    def __init__(self, workers: int = 4, timeout: float = 120):
        self.workers = workers
        self.timeout = timeout
        self.proc: subprocess.Popen | None = None
        self.cpu_seconds = 0.0   # CPU time the workers burned, read by `stop()`

    def start(self, wait: float = 5.0) -> "CPULoad":
        """Starts stress-ng and returns once all its workers run."""
        if not shutil.which("stress-ng"):
            raise RuntimeError("stress-ng is not installed (scripts/install-deps test installs it)")
        self.proc = subprocess.Popen(
            ["stress-ng", "--cpu", str(self.workers), "--timeout", f"{int(self.timeout)}s", "--quiet"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            start_new_session=True)
        deadline = time.monotonic() + wait
        while len(self._workers()) < self.workers:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode(errors="replace").strip()
                raise RuntimeError(f"stress-ng exited ({self.proc.returncode}): {err}")
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"stress-ng did not start {self.workers} workers within {wait} s")
            time.sleep(0.02)
        return self

    @property
    def running(self) -> bool:
        """Whether stress-ng and all its workers are still running."""
        return self.proc is not None and self.proc.poll() is None and len(self._workers()) >= self.workers

    def _workers(self) -> list[int]:
        assert self.proc is not None
        try:
            kids = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children").read_text().split()
        except OSError:
            return []
        return [int(k) for k in kids]

    def _cpu_seconds(self, pids: list[int]) -> float:
        total, tick = 0.0, os.sysconf("SC_CLK_TCK")
        for pid in pids:
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += (int(fields[11]) + int(fields[12])) / tick   # utime + stime
        return total

    def stop(self) -> None:
        """Ends stress-ng's process group (SIGTERM, then SIGKILL after 5 s) and waits for it."""
        if self.proc is None or self.proc.returncode is not None:
            return
        self.cpu_seconds = self._cpu_seconds(self._workers())
        for sig, grace in ((signal.SIGTERM, 5.0), (signal.SIGKILL, 5.0)):
            try:
                os.killpg(self.proc.pid, sig)
            except ProcessLookupError:
                break
            try:
                self.proc.wait(grace)
                break
            except subprocess.TimeoutExpired:
                continue

    def __enter__(self) -> "CPULoad":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def which(tool: str) -> str | None:
    return shutil.which(tool)


# ---------------------------------------------------------------- shared checks

def assert_events_only(run: Run) -> None:
    """With --events, stdout carries JSON event objects and nothing else."""
    assert not run.bad_stdout, (
        f"`{run.command}` wrote non-event lines to stdout: {run.bad_stdout[:5]!r}")


def assert_one_line_message(run: Run, *names: str) -> str:
    """stderr is one human line that names the file (or URL) at fault."""
    text = run.stderr.strip()
    assert text, f"`{run.command}` exited {run.returncode} without a message on stderr"
    lines = [ln for ln in text.splitlines() if ln.strip()]
    assert len(lines) == 1, f"`{run.command}`: expected a one-line message on stderr, got {len(lines)}:\n{text}"
    assert any(n in lines[0] for n in names), (
        f"`{run.command}`: the message does not name {' or '.join(names)}: {lines[0]!r}")
    return lines[0]
