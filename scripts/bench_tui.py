"""The full-screen player, its control socket and its audio-server recovery, measured.

scripts/bench.py calls this module for sections 6-11 of docs/benchmarks.md:

 6. bytes written to the terminal per second while playing with the lyrics view open,
    against cmus playing the same file in a terminal of the same size;
 7. CPU and wake-ups (voluntary context switches, all threads) paused and playing;
 8. start to the first full frame, against cmus;
 9. resident memory while playing a demo track with lyrics;
10. `refrain ctl status` round trips, on the socket and as a whole process;
11. from the audio server coming back to audio being heard again.

Every program runs in a private tmux server (`tmux -L <unique>`), in a 100x30 pane,
behind a small shell script that waits on a FIFO (the "gate") before it execs the
program. bench.py attaches `tmux pipe-pane` to the pane first, so every byte the
program writes reaches a FIFO that a reader thread here stamps with time.monotonic()
as it arrives; opening the gate is the launch time. Which prefix of that byte stream
first shows a complete screen is found by replaying prefixes into another tmux pane
of the same size (the same terminal emulator) and comparing `capture-pane` text.

Measurements, not tests: nothing here asserts; a figure that cannot be taken is
reported with the reason.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "Tests" / "EndToEnd"))

import audio_analysis as aa  # noqa: E402
from harness import Recorder  # noqa: E402

DEMO_TRACK = REPO / "Resources" / "demo" / "tracks" / "one-umbrella.mp3"   # 우산 하나, 32 s, .lrc next to it
DEMO_QUERY, DEMO_ROW = "우산", "♪ 우산 하나"
STEPS = REPO / "Tests" / "Fixtures" / "generated" / "steps.mp3"
PULSE_VARS = ("PULSE_SERVER", "PULSE_RUNTIME_PATH", "PULSE_COOKIE", "PULSE_SINK")   # how to reach the test server
WIDTH, HEIGHT = 100, 30
SGR = re.compile(r"\x1b\[[0-9;]*m")
CLK_TCK = os.sysconf("SC_CLK_TCK")
_seq = iter(range(10 ** 9))


def log(msg: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def median(xs):
    return statistics.median(xs) if xs else None


def pct(xs, q):
    """The q-th percentile (0-100), nearest rank."""
    if not xs:
        return None
    s = sorted(xs)
    k = max(0, min(len(s) - 1, int(round(q / 100 * len(s) + 0.5)) - 1))
    return s[k]


# ---------------------------------------------------------------- a program in a tmux pane

class Pane:
    """One program in a WIDTHxHEIGHT pane of a private tmux server, started behind a gate,
    with everything it writes to the terminal stamped as it arrives."""

    def __init__(self, workdir: Path, name: str, argv: list[str], env: dict[str, str]):
        self.dir = workdir
        self.dir.mkdir(parents=True, exist_ok=True)
        self.name = name
        self.socket = f"refrain-bench-{os.getpid()}-{name}-{next(_seq)}"
        self.argv = [str(a) for a in argv]
        self.env = env
        self.chunks: list[tuple[float, bytes]] = []
        self._lock = threading.Lock()
        self._opened = threading.Event()
        self.launched: float | None = None
        self.pid: int | None = None
        self.script = self.dir / f"{name}.sh"

    @property
    def command(self) -> str:
        """The command the pane runs after the gate, as a reader would type it."""
        env = " ".join(f"{k}={shlex.quote(v)}" for k, v in self.env.items())
        return f"exec env {env} {' '.join(shlex.quote(a) for a in self.argv)}"

    def tmux(self, *args: str, check: bool = True, timeout: float = 10) -> str:
        proc = subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True, timeout=timeout)
        if check and proc.returncode != 0:
            raise RuntimeError(f"tmux {' '.join(args)}: {proc.stderr.strip()}")
        return proc.stdout

    def start(self) -> "Pane":
        gate, stream = self.dir / f"{self.name}.gate", self.dir / f"{self.name}.tty"
        for p in (gate, stream):
            p.unlink(missing_ok=True)
            os.mkfifo(p)
        self.script.write_text(f"#!/bin/sh\nread _ < {shlex.quote(str(gate))}\n{self.command}\n")
        self.script.chmod(0o755)
        reader = threading.Thread(target=self._read, args=(stream,), daemon=True)
        reader.start()
        # A clean environment for the tmux server too: the pane gets its variables from `env`.
        tenv = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "USER", "LOGNAME", "SHELL")}
        tenv.update(LANG="C.UTF-8", LC_ALL="C.UTF-8", TERM="xterm-256color")
        subprocess.run(["tmux", "-L", self.socket, "-f", "/dev/null", "new-session", "-d", "-s", "t",
                        "-x", str(WIDTH), "-y", str(HEIGHT), str(self.script)],
                       env=tenv, check=True, capture_output=True, timeout=10)
        self.tmux("pipe-pane", "-t", "t", "-o", f"exec cat > {shlex.quote(str(stream))}")
        if not self._opened.wait(5):
            raise RuntimeError("tmux pipe-pane did not open the stream")
        self.pid = int(self.tmux("display", "-p", "-t", "t", "#{pane_pid}").strip())
        fd = os.open(gate, os.O_WRONLY)    # the script is blocked reading the gate
        self.launched = time.monotonic()
        os.write(fd, b"\n")
        os.close(fd)
        return self

    def _read(self, path: Path) -> None:
        fd = os.open(path, os.O_RDONLY)
        self._opened.set()
        try:
            while True:
                data = os.read(fd, 65536)
                now = time.monotonic()
                if not data:
                    break
                with self._lock:
                    self.chunks.append((now, data))
        finally:
            os.close(fd)

    # input / output
    def keys(self, *keys: str) -> None:
        for k in keys:
            self.tmux("send-keys", "-t", "t", k)
            if k == "Escape":
                time.sleep(0.1)

    def type(self, text: str) -> None:
        self.tmux("send-keys", "-t", "t", "-l", text)

    def screen(self, styled: bool = False) -> str:
        return self.tmux("capture-pane", "-t", "t", "-p", *(["-e"] if styled else []))

    def wait_for(self, check, timeout: float = 10.0, every: float = 0.03):
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            value = check(screen)
            if value:
                return value
            if time.monotonic() > deadline:
                return None
            time.sleep(every)

    def selected_row(self) -> str | None:
        rows = [r for r in self.screen(styled=True).split("\n") if r.strip()]
        for row in rows[:-1]:
            if row.startswith("\x1b[7m"):
                return SGR.sub("", row).strip()
        return None

    def bytes_between(self, t0: float, t1: float) -> list[tuple[float, bytes]]:
        with self._lock:
            return [(t, d) for t, d in self.chunks if t0 <= t < t1]

    def alive(self) -> bool:
        return self.pid is not None and Path(f"/proc/{self.pid}").exists() and \
            _proc_state(self.pid) not in ("Z", "X", None)

    def wait_exit(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while self.alive():
            if time.monotonic() > deadline:
                return False
            time.sleep(0.02)
        return True

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=10)
        if self.pid and self.alive():
            try:
                os.kill(self.pid, signal.SIGKILL)
            except OSError:
                pass


def _proc_state(pid: int) -> str | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        return stat.rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return None


def normalize(screen: str) -> str:
    return "\n".join(line.rstrip() for line in screen.rstrip("\n").split("\n")).rstrip("\n")


class Replayer:
    """Shows a byte stream in a fresh WIDTHxHEIGHT tmux pane and reads the screen back."""

    def __init__(self, workdir: Path):
        self.dir = workdir
        self.socket = f"refrain-bench-replay-{os.getpid()}"
        self.count = 0

    def render(self, data: bytes) -> str:
        self.count += 1
        f = self.dir / "replay.bytes"
        f.write_bytes(data)
        name, chan = f"r{self.count}", f"done{self.count}"
        cmd = (f"cat {shlex.quote(str(f))}; tmux -L {self.socket} wait-for -S {chan}; exec sleep 600")
        base = ["tmux", "-L", self.socket]
        if self.count == 1:   # a session that keeps the server up between renders
            subprocess.run(base + ["-f", "/dev/null", "new-session", "-d", "-s", "keep", "sleep 3600"],
                           check=True, capture_output=True, timeout=10)
        subprocess.run(base + ["new-session", "-d", "-s", name, "-x", str(WIDTH), "-y", str(HEIGHT), cmd],
                       check=True, capture_output=True, timeout=10)
        subprocess.run(base + ["wait-for", chan], capture_output=True, timeout=10)
        out = subprocess.run(base + ["capture-pane", "-t", name, "-p"], capture_output=True, text=True,
                             timeout=10).stdout
        subprocess.run(base + ["kill-session", "-t", name], capture_output=True, timeout=10)
        return normalize(out)

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=10)


def first_full_frame(pane: Pane, target: str, replayer: Replayer, until: float) -> dict:
    """The first prefix of the pane's byte stream (in arrival chunks) that shows `target`."""
    chunks = pane.bytes_between(0, until)
    if not chunks:
        return {"error": "no bytes reached the terminal"}
    prefix = [b"".join(d for _, d in chunks[:k]) for k in range(len(chunks) + 1)]
    if replayer.render(prefix[-1]) != target:
        return {"error": "the replayed stream does not end on the settled screen"}
    lo, hi = 1, len(chunks)          # hi always shows the target
    while lo < hi:
        mid = (lo + hi) // 2
        if replayer.render(prefix[mid]) == target:
            hi = mid
        else:
            lo = mid + 1
    return {"first_byte_ms": (chunks[0][0] - pane.launched) * 1000,
            "frame_ms": (chunks[hi - 1][0] - pane.launched) * 1000,
            "chunks": hi, "bytes": len(prefix[hi]), "chunks_total": len(chunks)}


# ---------------------------------------------------------------- /proc

def proc_sample(pid: int) -> dict | None:
    """CPU ticks of the whole process, and per thread: name, context switches, CPU time (ns)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    mem = {k: int(v) for k, v in re.findall(r"^(VmRSS|VmHWM|RssAnon|RssFile|RssShmem):\s+(\d+) kB", status, re.M)}
    tasks = {}
    for tdir in Path(f"/proc/{pid}/task").iterdir():
        try:
            st = (tdir / "status").read_text()
            comm = (tdir / "comm").read_text().strip()
            sched = (tdir / "schedstat").read_text().split()
        except OSError:
            continue
        v = re.search(r"^voluntary_ctxt_switches:\s+(\d+)", st, re.M)
        n = re.search(r"^nonvoluntary_ctxt_switches:\s+(\d+)", st, re.M)
        tasks[int(tdir.name)] = {"comm": comm, "vcs": int(v.group(1)) if v else 0,
                                 "nvcs": int(n.group(1)) if n else 0, "run_ns": int(sched[0]) if sched else 0}
    # stat fields after the name: state is [0]; utime [11], stime [12] (fields 14, 15).
    return {"t": time.monotonic(), "ticks": int(stat[11]) + int(stat[12]), "threads": int(stat[17]),
            "mem_kb": mem, "tasks": tasks}


def proc_delta(a: dict, b: dict) -> dict:
    """Per-second rates between two samples of the same process."""
    dt = b["t"] - a["t"]
    per_thread = []
    vcs = nvcs = run = 0
    for tid, tb in b["tasks"].items():
        ta = a["tasks"].get(tid, {"vcs": 0, "nvcs": 0, "run_ns": 0})
        dv, dn, dr = tb["vcs"] - ta["vcs"], tb["nvcs"] - ta["nvcs"], tb["run_ns"] - ta["run_ns"]
        vcs, nvcs, run = vcs + dv, nvcs + dn, run + dr
        per_thread.append({"tid": tid, "comm": tb["comm"], "vcs": dv, "nvcs": dn, "run_ms": dr / 1e6,
                           "new": tid not in a["tasks"]})
    gone = [a["tasks"][t]["comm"] for t in a["tasks"] if t not in b["tasks"]]
    per_thread.sort(key=lambda r: -r["vcs"])
    return {"seconds": dt, "cpu_pct": (b["ticks"] - a["ticks"]) / CLK_TCK / dt * 100,
            "cpu_pct_sched": run / 1e9 / dt * 100, "wakeups_per_s": vcs / dt, "vcs": vcs,
            "nvcs_per_s": nvcs / dt, "threads": len(b["tasks"]), "per_thread": per_thread, "gone": gone}


def smaps_top(pid: int, n: int = 6) -> list[tuple[str, int]]:
    """Resident kB per mapped file (anonymous memory as [anon], [heap], [stack]), largest first."""
    sizes: dict[str, int] = {}
    name = "[anon]"
    try:
        for line in open(f"/proc/{pid}/smaps", encoding="utf-8", errors="replace"):
            head = line.split()
            if head and re.fullmatch(r"[0-9a-f]+-[0-9a-f]+", head[0]):
                name = os.path.basename(head[5]) if len(head) > 5 and head[5].startswith("/") else \
                    (head[5] if len(head) > 5 else "[anon]")
            elif head and head[0] == "Rss:":
                sizes[name] = sizes.get(name, 0) + int(head[1])
    except OSError:
        return []
    return sorted(sizes.items(), key=lambda kv: -kv[1])[:n]


def watch_proc(pid: int, seconds: float, every: float = 1.0) -> dict:
    """Samples /proc at the start, every `every` s (memory) and at the end of `seconds`."""
    first = proc_sample(pid)
    samples = [first]
    end = time.monotonic() + seconds
    while True:
        left = end - time.monotonic()
        if left <= 0:
            break
        time.sleep(min(every, left))
        s = proc_sample(pid)
        if s is None:
            break
        samples.append(s)
    last = samples[-1]
    if first is None or last is None or last is first:
        return {"error": "the process went away"}
    rss = [s["mem_kb"].get("VmRSS", 0) for s in samples]
    d = proc_delta(first, last)
    d.update(rss_max_kb=max(rss), rss_median_kb=median(rss), hwm_kb=last["mem_kb"].get("VmHWM"),
             mem_end=last["mem_kb"], smaps=smaps_top(pid, 8))
    return d


# ---------------------------------------------------------------- refrain and cmus in panes

class RefrainTUI:
    def __init__(self, binary: Path, home: Path, output: str, extra_env: dict):
        self.binary, self.home, self.output = binary, home, output
        home.mkdir(parents=True, exist_ok=True)
        self.env = {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "tmux-256color"}
        for var, sub in (("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"), ("XDG_STATE_HOME", "state"),
                         ("XDG_CACHE_HOME", "cache"), ("XDG_RUNTIME_DIR", "run")):
            d = home / sub
            d.mkdir(parents=True, exist_ok=True, mode=0o700)
            os.chmod(d, 0o700)
            self.env[var] = str(d)
        self.env["REFRAIN_STDERR_LOG"] = str(home / "err.log")
        # Online catalogs and lyrics point at a closed port: nothing leaves the machine.
        self.env["REFRAIN_DEEZER_URL"] = "http://127.0.0.1:9/"
        self.env["REFRAIN_LRCLIB_URL"] = "http://127.0.0.1:9/"
        self.env.update(extra_env)
        self.socket_path = str(home / "run" / "refrain" / "socket")
        self.pane: Pane | None = None

    @property
    def argv(self) -> list[str]:
        return [str(self.binary), "--output", self.output]

    def start(self, name: str = "refrain") -> Pane:
        self.pane = Pane(self.home, name, self.argv, self.env).start()
        return self.pane

    def ctl(self, *words: str, timeout: float = 10) -> subprocess.CompletedProcess:
        env = dict(os.environ, **self.env)
        return subprocess.run([str(self.binary), "ctl", *words], env=env, capture_output=True, text=True,
                              timeout=timeout)

    def status(self) -> dict:
        r = self.ctl("status")
        try:
            return json.loads(r.stdout)
        except ValueError:
            return {}

    def quit(self) -> None:
        if self.pane is None:
            return
        if self.pane.alive():
            try:
                self.ctl("quit", timeout=5)
            except subprocess.SubprocessError:
                pass
            if not self.pane.wait_exit(5):
                os.kill(self.pane.pid, signal.SIGKILL)
                self.pane.wait_exit(2)
        self.pane.close()

    def stderr(self) -> str:
        try:
            return (self.home / "err.log").read_text(errors="replace")[-600:]
        except OSError:
            return ""


class Cmus:
    def __init__(self, home: Path, pulse: bool):
        self.home = home
        self.cfg = home / "cmus"
        self.cfg.mkdir(parents=True, exist_ok=True)
        self.sock = str(home / "cmus.sock")
        # MPRIS needs D-Bus (absent here: cmus would stop at a "press enter" prompt).
        rc = ["set mpris=false"]
        rc += ["set output_plugin=pulse"] if pulse else ["set output_plugin=ao", "set dsp.ao.driver=null"]
        (self.cfg / "rc").write_text("\n".join(rc) + "\n")
        self.env = {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "tmux-256color", "HOME": str(home),
                    "CMUS_HOME": str(self.cfg)}
        for var in PULSE_VARS:
            if pulse and var in os.environ:
                self.env[var] = os.environ[var]
        self.pane: Pane | None = None

    @property
    def argv(self) -> list[str]:
        return [shutil.which("cmus") or "cmus", "--listen", self.sock]

    def start(self, name: str = "cmus") -> Pane:
        Path(self.sock).unlink(missing_ok=True)
        self.pane = Pane(self.home, name, self.argv, self.env).start()
        return self.pane

    def remote(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run(["cmus-remote", "--server", self.sock, *args], capture_output=True, text=True,
                              timeout=10, env=dict(os.environ, **self.env))

    def query(self) -> dict:
        out = self.remote("-Q").stdout
        d = {}
        for line in out.splitlines():
            k, _, v = line.partition(" ")
            if k in ("status", "position", "duration", "file"):
                d[k] = v
        return d

    def quit(self) -> None:
        if self.pane is None:
            return
        if self.pane.alive():
            try:
                self.remote("-C", "quit")
            except subprocess.SubprocessError:
                pass
            if not self.pane.wait_exit(5):
                os.kill(self.pane.pid, signal.SIGKILL)
                self.pane.wait_exit(2)
        self.pane.close()


def cmus_usable() -> str | None:
    """None when cmus and cmus-remote are installed, else why not."""
    missing = [p for p in ("cmus", "cmus-remote") if not shutil.which(p)]
    return f"{' and '.join(missing)} not installed (apt-get install -y cmus)" if missing else None


def frames_in(chunks: list[tuple[float, bytes]], gap: float = 0.005) -> list[tuple[float, bytes]]:
    """Groups chunks closer than `gap` s into bursts (one redraw each): (start, bytes)."""
    bursts: list[list] = []
    for t, d in chunks:
        if bursts and t - bursts[-1][2] <= gap:
            bursts[-1][1] += d
            bursts[-1][2] = t
        else:
            bursts.append([t, d, t])
    return [(b[0], b[1]) for b in bursts]


def shown_bytes(data: bytes) -> str:
    """Terminal output for a reader: ESC as \\e, other controls as \\xNN."""
    out = []
    for ch in data.decode("utf-8", errors="replace"):
        if ch == "\x1b":
            out.append("\\e")
        elif ord(ch) < 0x20 or ord(ch) == 0x7f:
            out.append(f"\\x{ord(ch):02x}")
        else:
            out.append(ch)
    return "".join(out)


def traffic(chunks: list[tuple[float, bytes]], seconds: float) -> dict:
    data = b"".join(d for _, d in chunks)
    bursts = frames_in(chunks)
    sizes = [len(b) for _, b in bursts]
    by_size = sorted((len(b), b) for _, b in bursts)
    typical = by_size[len(by_size) // 2][1] if by_size else b""
    return {"bytes": len(data), "seconds": seconds, "bytes_per_s": len(data) / seconds,
            "bursts": len(bursts), "bursts_per_s": len(bursts) / seconds,
            "burst_median": median(sizes), "burst_max": max(sizes) if sizes else 0,
            "clears": data.count(b"\x1b[2J") + data.count(b"\x1b[H\x1b[J"),
            "typical": shown_bytes(typical), "largest": shown_bytes(by_size[-1][1]) if by_size else ""}


# ---------------------------------------------------------------- 6, 7, 9, 10: one Refrain session

def _play_demo_track(app: RefrainTUI) -> str:
    """Plays 우산 하나 from the demo catalog through the UI: / 우산 Enter, select, Enter.
    Returns how it was started."""
    p = app.pane
    p.keys("/")
    p.type(DEMO_QUERY)
    p.wait_for(lambda s: f"/ {DEMO_QUERY}" in s, 5)
    p.keys("Enter")
    if p.wait_for(lambda s: DEMO_ROW in s, 10):
        for _ in range(30):
            if DEMO_ROW.lstrip("♪ ") in (p.selected_row() or ""):
                break
            p.keys("j")
            time.sleep(0.05)
        p.keys("Enter")
        if _wait_state(app, "playing", 10):
            return "ui"
    # Fallback: the control socket.
    p.keys("Escape", "1")
    app.ctl("queue", "add", str(DEMO_TRACK))
    app.ctl("play")
    return "ctl" if _wait_state(app, "playing", 10) else "failed"


def _wait_state(app: RefrainTUI, state: str, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if app.status().get("state") == state:
            return True
        time.sleep(0.1)
    return False


def socket_roundtrips(path: str, n: int, pause: float) -> dict:
    """`status\\n` over the control socket, n times: connect, send, read the line, close."""
    times, bad = [], 0
    for _ in range(n):
        t0 = time.perf_counter()
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.connect(path)
            s.sendall(b"status\n")
            buf = b""
            while not buf.endswith(b"\n"):
                part = s.recv(65536)
                if not part:
                    break
                buf += part
        finally:
            s.close()
        times.append((time.perf_counter() - t0) * 1000)
        try:
            json.loads(buf)
        except ValueError:
            bad += 1
        time.sleep(pause)
    return {"ms": times, "bad": bad, "n": n}


ECHO_SERVER = r"""
import socket, sys
path, reply = sys.argv[1], sys.argv[2].encode() + b"\n"
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(path)
s.listen(16)
print("ready", flush=True)
while True:
    c, _ = s.accept()
    buf = b""
    while not buf.endswith(b"\n"):
        part = c.recv(4096)
        if not part:
            break
        buf += part
    c.sendall(reply)
    c.close()
"""


def reference_roundtrips(workdir: Path, reply: str, n: int, pause: float) -> dict:
    """The same client against a bare Python server that answers a fixed line: the machine's floor."""
    path = str(workdir / "echo.sock")
    Path(path).unlink(missing_ok=True)
    srv = subprocess.Popen([sys.executable, "-c", ECHO_SERVER, path, reply], stdout=subprocess.PIPE)
    try:
        srv.stdout.readline()
        return socket_roundtrips(path, n, pause)
    finally:
        srv.kill()
        srv.wait()


def process_roundtrips(app: RefrainTUI, n: int, pause: float, argv: list[str] | None = None) -> dict:
    """Spawn-to-exit times of `refrain ctl status` (or of `argv`, e.g. /bin/true as a floor)."""
    times, bad = [], 0
    env = dict(os.environ, **app.env)
    argv = argv or [str(app.binary), "ctl", "status"]
    for _ in range(n):
        t0 = time.perf_counter()
        r = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=10)
        times.append((time.perf_counter() - t0) * 1000)
        if r.returncode != 0:
            bad += 1
        time.sleep(pause)
    return {"ms": times, "bad": bad, "n": n, "argv": argv}


def _lyrics_view_playing(app: RefrainTUI) -> tuple[str, str | None]:
    """From start: waits for Home, plays the demo track, opens the lyrics view, lets it settle.
    Returns how the track was started and what went wrong, if anything."""
    pane = app.pane
    if not pane.wait_for(lambda s: "Top tracks" in s, 20):
        return "", f"the Home pane did not appear; stderr: {app.stderr()}"
    started_by = _play_demo_track(app)
    if started_by == "failed":
        return started_by, f"the demo track did not play; stderr: {app.stderr()}"
    pane.keys("l")
    if not pane.wait_for(lambda s: "Lyrics —" in s, 5):
        return started_by, "the lyrics view did not open"
    time.sleep(0.5)
    return started_by, None


def session_refrain(ctx: dict, window: float, paused: float, stopped: float, calls: int, proc_calls: int,
                    cmus: Cmus | None) -> dict:
    out: dict = {}
    app = RefrainTUI(ctx["bin"], ctx["tui_tmp"] / "session", ctx["tui_output"], ctx["pulse_env"])
    pane = app.start("session")
    out["command"] = pane.command
    out["output"] = app.output
    try:
        out["started_by"], error = _lyrics_view_playing(app)
        if error:
            out["error"] = error
            return out
        st = app.status()
        out["track"], out["position_at_start"] = st.get("track"), st.get("position")
        # 6 + 7 (playing) + 9: one 20 s window.
        t0 = time.monotonic()
        w = watch_proc(pane.pid, window, every=1.0)
        t1 = time.monotonic()
        out["playing"] = w
        out["traffic"] = traffic(pane.bytes_between(t0, t1), t1 - t0)
        out["screen"] = normalize(pane.screen())
        st = app.status()
        out["position_at_end"], out["state_at_end"] = st.get("position"), st.get("state")
        # 10: round trips while playing (from the start of the track again).
        app.ctl("seek", "0")
        time.sleep(0.3)
        before_bytes = sum(len(d) for _, d in pane.bytes_between(0, time.monotonic()))
        ts = time.monotonic()
        out["socket"] = socket_roundtrips(app.socket_path, calls, pause=0.004)
        te = time.monotonic()
        out["socket"]["state"] = app.status().get("state")
        out["socket"]["tty_bytes"] = sum(len(d) for _, d in pane.bytes_between(ts, te))
        out["socket"]["seconds"] = te - ts
        reply = app.ctl("status").stdout.strip() or "{}"
        out["reference"] = reference_roundtrips(ctx["tui_tmp"], reply, calls, pause=0.004)
        out["process"] = process_roundtrips(app, proc_calls, pause=0.004)
        out["process"]["state"] = app.status().get("state")
        out["true_process"] = process_roundtrips(app, proc_calls, pause=0.004, argv=["/bin/true"])
        del before_bytes
        # 7: paused, nothing else happening (cmus, paused too, is sampled over the same span).
        app.ctl("pause")
        time.sleep(2.0)
        out["paused_state"] = app.status().get("state")
        tp = time.monotonic()
        cm0 = proc_sample(cmus.pane.pid) if cmus and cmus.pane and cmus.pane.alive() else None
        out["paused"] = watch_proc(pane.pid, paused, every=paused)
        cm1 = proc_sample(cmus.pane.pid) if cm0 else None
        out["paused_traffic"] = traffic(pane.bytes_between(tp, time.monotonic()), time.monotonic() - tp)
        if cm0 and cm1:
            out["cmus_paused"] = proc_delta(cm0, cm1)
        # Stopped: is anything still open that wakes?
        app.ctl("stop")
        time.sleep(1.0)
        out["stopped_state"] = app.status().get("state")
        out["stopped"] = watch_proc(pane.pid, stopped, every=stopped)
    finally:
        out["stderr"] = app.stderr()
        app.quit()
    return out


def session_line_style(ctx: dict, window: float) -> dict:
    """Section 6 again with `display.lyrics_highlight = "marker"` (only a ▶ marks the sung line)."""
    out: dict = {}
    app = RefrainTUI(ctx["bin"], ctx["tui_tmp"] / "line-style", ctx["tui_output"], ctx["pulse_env"])
    config = app.home / "config" / "refrain"
    config.mkdir(parents=True, exist_ok=True)
    (config / "config.toml").write_text('[display]\nlyrics_highlight = "marker"\n')
    pane = app.start("line-style")
    try:
        _, error = _lyrics_view_playing(app)
        if error:
            out["error"] = error
            return out
        out["position_at_start"] = app.status().get("position")
        t0 = time.monotonic()
        time.sleep(window)
        t1 = time.monotonic()
        out["traffic"] = traffic(pane.bytes_between(t0, t1), t1 - t0)
        out["position_at_end"] = app.status().get("position")
    finally:
        app.quit()
    return out


def session_cover(ctx: dict, window: float) -> dict:
    """Issue 15's costs of a cover in the Player pane, at 100x30 in tmux (24-bit colour).

    Two runs of the same session, `display.cover_art = "blocks"` and `"off"`: play 우산 하나,
    open the Player pane, wait for it to settle, then count the bytes of that pane change
    (the cover's are the difference), the bytes per second over `window` seconds of
    playback, and the resident memory at the end."""
    out: dict = {}
    for mode in ("blocks", "off"):
        run: dict = {}
        app = RefrainTUI(ctx["bin"], ctx["tui_tmp"] / f"cover-{mode}", ctx["tui_output"],
                         dict(ctx["pulse_env"], COLORTERM="truecolor"))
        config = app.home / "config" / "refrain"
        config.mkdir(parents=True, exist_ok=True)
        (config / "config.toml").write_text(f'[display]\ncover_art = "{mode}"\n')
        pane = app.start(f"cover-{mode}")
        try:
            run["started_by"] = _play_demo_track(app)
            if run["started_by"] == "failed":
                run["error"] = "the demo track did not start"
                out[mode] = run
                continue
            time.sleep(1.0)
            t0 = time.monotonic()
            pane.keys("4")
            shown = pane.wait_for(lambda s: ("▀" in s) if mode == "blocks" else ("cover" in s), 10)
            time.sleep(0.5)  # the rest of the change (the picture follows the text)
            t1 = time.monotonic()
            run["cover_shown"] = bool(shown)
            change = pane.bytes_between(t0, t1)
            run["change_bytes"] = sum(len(d) for _, d in change)
            run["change_cover_rows"] = sum(d.count(b"\xe2\x96\x80") for _, d in change)
            t2 = time.monotonic()
            w = watch_proc(pane.pid, window, every=1.0)
            t3 = time.monotonic()
            played = pane.bytes_between(t2, t3)
            run["playing"] = traffic(played, t3 - t2)
            run["playing_half_blocks"] = sum(d.count(b"\xe2\x96\x80") for _, d in played)
            run["rss_kb"] = w.get("rss_max_kb")
            run["state"] = app.status().get("state")
        finally:
            run["stderr"] = app.stderr()[-500:]
            app.quit()
        out[mode] = run
    return out


def session_cmus(ctx: dict, window: float) -> tuple[dict, Cmus | None]:
    """cmus plays the same file in the same size of terminal; it is left running, paused."""
    why = cmus_usable()
    if why:
        return {"error": why}, None
    cm = Cmus(ctx["tui_tmp"] / "cmus-session", pulse=ctx["pulse_ok"])
    out: dict = {}
    pane = cm.start("cmus-session")
    out["command"] = pane.command
    out["rc"] = (cm.cfg / "rc").read_text().strip().replace("\n", "; ")
    try:
        if not pane.wait_for(lambda s: "all from library" in s or "Library" in s, 15):
            out["error"] = f"cmus did not draw its screen: {pane.screen()[:300]!r}"
            cm.quit()
            return out, None
        time.sleep(0.3)
        r = cm.remote("-f", str(DEMO_TRACK))
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and cm.query().get("status") != "playing":
            time.sleep(0.1)
        if cm.query().get("status") != "playing":
            out["error"] = f"cmus did not play the file: {r.stderr.strip()[:200]}"
            cm.quit()
            return out, None
        time.sleep(1.0)
        out["position_at_start"] = cm.query().get("position")
        t0 = time.monotonic()
        w = watch_proc(pane.pid, window, every=1.0)
        t1 = time.monotonic()
        out["playing"] = w
        out["traffic"] = traffic(pane.bytes_between(t0, t1), t1 - t0)
        out["screen"] = normalize(pane.screen())
        out["position_at_end"] = cm.query().get("position")
        cm.remote("-u")   # pause; stays running for the paused comparison
        time.sleep(0.5)
        out["paused_status"] = cm.query().get("status")
    except Exception as e:  # noqa: BLE001 - a benchmark reports, it does not stop
        out["error"] = f"{type(e).__name__}: {e}"
        cm.quit()
        return out, None
    return out, cm


DISPATCH_PROBE = """import Dispatch
import Glibc
// One piece of work on a global queue, then sleep: any wake-up that follows is libdispatch's own.
DispatchQueue.global().async {}
sleep(UInt32(CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 60 : 60))
"""


def dispatch_floor(workdir: Path, seconds: float) -> dict:
    """Wake-ups of a 5-line Swift program that queued one block on a global Dispatch queue, then slept:
    what the Linux Swift runtime costs by itself (Refrain's async work goes through the same queues)."""
    swiftc = shutil.which("swiftc")
    if not swiftc:
        return {"error": "swiftc not found"}
    src, exe = workdir / "dispatch_probe.swift", workdir / "dispatch_probe"
    src.write_text(DISPATCH_PROBE)
    proc = subprocess.run([swiftc, "-O", str(src), "-o", str(exe)], capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        return {"error": f"swiftc failed: {proc.stderr.strip()[:200]}"}
    child = subprocess.Popen([str(exe), str(int(seconds + 5))], stdout=subprocess.DEVNULL)
    try:
        time.sleep(1.0)
        d = watch_proc(child.pid, seconds, every=seconds)
    finally:
        child.kill()
        child.wait()
    d["source"] = DISPATCH_PROBE
    return d


# ---------------------------------------------------------------- 8: start to first full frame

def bench_startup(ctx: dict, reps: int) -> dict:
    replayer = Replayer(ctx["tui_tmp"])
    res: dict = {"refrain": [], "cmus": [], "reps": reps}
    home = ctx["tui_tmp"] / "startup"
    app = RefrainTUI(ctx["bin"], home, ctx["tui_output"], ctx["pulse_env"])
    cm = None if cmus_usable() else Cmus(ctx["tui_tmp"] / "cmus-startup", pulse=ctx["pulse_ok"])
    res["cmus_error"] = cmus_usable()

    def one(who: str) -> dict:
        runner = app if who == "refrain" else cm
        pane = runner.start(f"start-{who}")
        try:
            ready = (lambda s: "Top tracks" in s and "q back" in s) if who == "refrain" else \
                (lambda s: "all from library" in s)
            seen = pane.wait_for(ready, 20, every=0.005)
            seen_ms = (time.monotonic() - pane.launched) * 1000
            time.sleep(1.2)   # let it settle: the settled screen is the frame to find
            target = normalize(pane.screen())
            until = time.monotonic()
            r = {"capture_ms": seen_ms if seen else None}
            r.update(first_full_frame(pane, target, replayer, until) if seen else {"error": "no full screen in 20 s"})
            r["command"] = pane.command
        finally:
            runner.quit()
        return r

    try:
        # A first start in an empty home (Refrain creates its library database), untimed in the summary.
        res["refrain_first"] = one("refrain")
        if cm:
            res["cmus_first"] = one("cmus")
        for i in range(reps):
            order = ["refrain", "cmus"] if i % 2 == 0 else ["cmus", "refrain"]
            for who in order:
                if who == "cmus" and not cm:
                    continue
                r = one(who)
                res[who].append(r)
                log(f"start {who} {i + 1}/{reps}: first byte {r.get('first_byte_ms', float('nan')):.1f} ms, "
                    f"full frame {r.get('frame_ms', float('nan')):.1f} ms {r.get('error', '')}")
    finally:
        replayer.close()
    return res


# ---------------------------------------------------------------- 11: audio server back -> audio heard

class PrivatePulse:
    """A private null-sink PulseAudio server that can be killed and started again
    (as in Tests/EndToEnd/test_resilience.py)."""

    SINK = "bench_resume"

    def __init__(self, workdir: Path):
        self.dir = workdir
        (self.dir / "run").mkdir(parents=True, exist_ok=True)
        os.chmod(self.dir / "run", 0o700)
        self.env = dict(os.environ, PULSE_RUNTIME_PATH=str(self.dir / "run"),
                        PULSE_SERVER=f"unix:{self.dir}/run/native", HOME=str(self.dir),
                        PULSE_STATE_PATH=str(self.dir / "state"))
        self.env.pop("PULSE_SINK", None)
        self.proc: subprocess.Popen | None = None
        self.argv = ["pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no",
                     "--disallow-exit=yes", f"--log-target=file:{self.dir}/pulse.log",
                     f"--load=module-null-sink sink_name={self.SINK} rate=44100 channels=2",
                     f"--load=module-native-protocol-unix auth-anonymous=1 socket={self.dir}/run/native"]

    def launch(self) -> float:
        self.proc = subprocess.Popen(self.argv, env=self.env, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        return time.monotonic()

    def wait_ready(self, timeout: float = 10) -> float | None:
        """Polls `pactl info` back to back; the time it first answered."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if subprocess.run(["pactl", "info"], env=self.env, capture_output=True).returncode == 0:
                return time.monotonic()
            time.sleep(0.002)
        return None

    def kill(self) -> None:
        if self.proc:
            self.proc.kill()
            self.proc.wait(timeout=10)
            self.proc = None


class EnvRecorder(Recorder):
    """The end-to-end Recorder, recording from a server given by `env` (not this process's);
    `start(wait=False)` returns at once instead of waiting for samples to flow."""

    def __init__(self, sink: str, path: Path, env: dict):
        super().__init__(sink, path)
        self.env = env

    def start(self, settle: float = 0.0, timeout: float = 10.0, wait: bool = True) -> None:
        self.path.unlink(missing_ok=True)
        self._proc = subprocess.Popen(
            ["parec", "-d", f"{self.sink}.monitor", "--latency-msec=20", "--file-format=wav",
             f"--rate={self.RATE}", f"--channels={self.CHANNELS}", "--format=s16le", str(self.path)],
            env=self.env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + timeout
        while wait and time.monotonic() < deadline and len(self._growth) < 3:
            if self._proc.poll() is not None:
                raise RuntimeError(f"parec exited ({self._proc.returncode})")
            time.sleep(0.005)
        time.sleep(settle)


def _stream_back(env: dict, ready: float) -> float | None:
    """When a playback stream appeared on the server (polled for 3 s after `ready`), then
    waits until 3.5 s after `ready` so the recording holds the first sound."""
    stream = None
    while time.monotonic() < ready + 3:
        if _sink_inputs(env):
            stream = time.monotonic()
            break
        time.sleep(0.003)
    time.sleep(max(0.0, ready + 3.5 - time.monotonic()))
    return stream


def _first_sound(rec: EnvRecorder) -> tuple[float | None, float | None, float | None]:
    """(recording start, first sample above -60 dBFS, both on the monotonic clock; and the
    offset of that sample in the recording), or Nones."""
    try:
        recording = rec.stop()
    except (RuntimeError, ValueError, OSError):
        return None, None, None
    loud = np.nonzero(np.abs(recording.audio.samples) > 10 ** (-60 / 20))[0]
    if not len(loud):
        return recording.t0, None, None
    first = loud[0] / recording.audio.rate
    return recording.t0, recording.t0 + first, first


def _sink_inputs(env: dict) -> int:
    out = subprocess.run(["pactl", "list", "short", "sink-inputs"], env=env, capture_output=True, text=True).stdout
    return len([line for line in out.splitlines() if line.strip()])


class EventRun:
    """`refrain play --events` with stdout lines and stderr lines stamped as they arrive."""

    def __init__(self, argv: list[str], env: dict, cwd: Path):
        self.argv = argv
        self.proc = subprocess.Popen(argv, env=env, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self.events: list[tuple[float, dict]] = []
        self.errors: list[tuple[float, str]] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._out, daemon=True).start()
        threading.Thread(target=self._err, daemon=True).start()

    def _out(self) -> None:
        for raw in self.proc.stdout:
            now = time.monotonic()
            try:
                ev = json.loads(raw)
            except ValueError:
                continue
            with self._lock:
                self.events.append((now, ev))

    def _err(self) -> None:
        for raw in self.proc.stderr:
            with self._lock:
                self.errors.append((time.monotonic(), raw.decode(errors="replace").strip()))

    def positions(self) -> list[tuple[float, float]]:
        with self._lock:
            return [(t, e["t"]) for t, e in self.events if e.get("event") == "position"]

    def wait_position(self, t: float, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            p = self.positions()
            if p and p[-1][1] >= t:
                return True
            time.sleep(0.01)
        return False

    def stop(self) -> None:
        try:
            if self.proc.poll() is None:
                self.proc.stdin.write(b"stop\n")
                self.proc.stdin.flush()
            self.proc.wait(10)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


def bench_resume(ctx: dict, reps: int, ref_reps: int) -> dict:
    if not (shutil.which("pulseaudio") and shutil.which("pactl") and shutil.which("parec")):
        return {"error": "pulseaudio, pactl or parec is not installed"}
    server = PrivatePulse(ctx["tui_tmp"] / "pulse")
    res: dict = {"server_cmd": server.argv, "rows": [], "ref_rows": []}
    run = None
    keeper = None

    def outage() -> tuple[float, float, float | None]:
        server.kill()
        killed = time.monotonic()
        time.sleep(1.5)       # Refrain notices, and its retries back off to every 0.5 s
        launched = server.launch()
        return killed, launched, server.wait_ready()

    try:
        server.launch()
        if server.wait_ready() is None:
            return {"error": "the private PulseAudio server did not start"}
        # Keep the idle null sink awake so the first stream starts at once.
        keeper = subprocess.Popen(["parec", "-d", f"{server.SINK}.monitor", "--latency-msec=20"], env=server.env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(2.5)
        env = dict(server.env)
        env.update({k: v for k, v in ctx["refrain_env"].items() if k.startswith(("XDG_", "LANG", "LC_", "REFRAIN_"))})
        argv = [str(ctx["bin"]), "play", str(STEPS), "--output", "pulse", "--events"]
        res["cmd"] = argv
        run = EventRun(argv, env, ctx["home"])
        if not run.wait_position(2.0, 15):
            return {**res, "error": f"no position 2.0 from refrain: {run.errors[-3:]}"}
        keeper.kill()
        keeper.wait()
        keeper = None
        for i in range(reps):
            row: dict = {"rep": i + 1}
            time.sleep(0.4)
            stalled_before = run.positions()[-1][1] if run.positions() else None
            killed, launched, ready = outage()
            stalled = run.positions()[-1][1] if run.positions() else None
            if ready is None:
                row["error"] = "the server did not come back"
                res["rows"].append(row)
                break
            rec = EnvRecorder(server.SINK, ctx["tui_tmp"] / f"resume{i}.wav", server.env)
            rec.start(wait=False)
            stream = _stream_back(server.env, ready)
            t0, heard, first = _first_sound(rec)
            moved = next(((t, p) for t, p in run.positions() if t > killed and stalled is not None
                          and p >= stalled + 0.2), None)
            back = next((t for t, line in run.errors if "is back" in line and t > killed), None)
            # Where Refrain's clock stood when the sound came back (it resumes at `stalled`): the
            # last position reported before that moment, not extrapolated.
            lead = None
            if heard is not None and stalled is not None:
                before = [p for t, p in run.positions() if t <= heard]
                if before:
                    lead = before[-1] - stalled
            row.update({
                "outage_s": launched - killed, "server_start_ms": (ready - launched) * 1000,
                "stalled_at": stalled, "stalled_drift": None if stalled_before is None or stalled is None
                else stalled - stalled_before,
                "rec_start_ms": (t0 - ready) * 1000 if t0 is not None else None,
                "heard_ms": (heard - ready) * 1000 if heard is not None else None,
                "heard_at_rec_start": first is not None and first < 0.005,
                "stream_ms": (stream - ready) * 1000 if stream else None,
                "position_ms": (moved[0] - ready) * 1000 if moved else None,
                "resumed_at": moved[1] if moved else None,
                "back_msg_ms": (back - ready) * 1000 if back else None,
                "clock_lead_ms": lead * 1000 if lead is not None else None,
            })
            res["rows"].append(row)
            log(f"resume {i + 1}/{reps}: server answers {row['server_start_ms']:.0f} ms after launch; stream back "
                f"{_f(row['stream_ms'])} ms, heard {_f(row['heard_ms'])} ms, position moves "
                f"{_f(row['position_ms'])} ms after it answered")
            run_pos = run.positions()
            if run_pos and run_pos[-1][1] > 25:
                break
        run.stop()
        res["stderr"] = [line for _, line in run.errors][-6:]
        run = None
        # The reference: a client that connects the moment the server answers (mpg123, or
        # pacat of silence-free noise when mpg123 is missing).
        mpg = shutil.which("mpg123")
        ref_cmd = ["mpg123", "-q", "-o", "pulse", "-n", "150", str(STEPS)] if mpg else None
        res["ref_cmd"] = ref_cmd
        for i in range(ref_reps if ref_cmd else 0):
            killed, launched, ready = outage()
            if ready is None:
                break
            rec = EnvRecorder(server.SINK, ctx["tui_tmp"] / f"ref{i}.wav", server.env)
            rec.start(wait=False)
            player = subprocess.Popen(ref_cmd, env=server.env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL)
            spawned = time.monotonic()
            stream = _stream_back(server.env, ready)
            t0, heard, first = _first_sound(rec)
            player.kill()
            player.wait()
            res["ref_rows"].append({"rep": i + 1, "spawn_ms": (spawned - ready) * 1000,
                                    "stream_ms": (stream - ready) * 1000 if stream else None,
                                    "rec_start_ms": (t0 - ready) * 1000 if t0 is not None else None,
                                    "heard_ms": (heard - ready) * 1000 if heard is not None else None})
            log(f"resume reference {i + 1}/{ref_reps}: mpg123 heard {_f(res['ref_rows'][-1]['heard_ms'])} ms "
                f"after the server answered")
    finally:
        if keeper:
            keeper.kill()
        if run:
            run.stop()
            res["stderr"] = [line for _, line in run.errors][-6:]
        server.kill()
    return res


def _f(x, d=0):
    return "n/a" if x is None else f"{x:.{d}f}"


# ---------------------------------------------------------------- entry point

def run(ctx: dict, only: set[str], quick: bool = False) -> dict:
    """Runs the sections in `only` (of "6".."11"); results for render()."""
    tmp = ctx["tmp"] / "tui"
    tmp.mkdir(exist_ok=True)
    ctx["tui_tmp"] = tmp
    R: dict = {}
    if not shutil.which("tmux"):
        R["error"] = "tmux is not installed"
        return R
    pulse_ok = bool(ctx.get("pulse_ok"))
    ctx["pulse_ok"] = pulse_ok
    ctx["tui_output"] = "pulse" if pulse_ok else "null"
    ctx["pulse_env"] = {k: os.environ[k] for k in PULSE_VARS if pulse_ok and k in os.environ}
    R["output"] = ctx["tui_output"]
    R["cmus_version"] = (subprocess.run(["cmus", "--version"], capture_output=True, text=True).stdout
                         .split("\n")[0].strip() if shutil.which("cmus") else None)
    R["tmux_version"] = subprocess.run(["tmux", "-V"], capture_output=True, text=True).stdout.strip()
    window, paused = (10.0, 10.0) if quick else (20.0, 30.0)
    R["window_s"], R["paused_s"] = window, paused
    cm = None
    try:
        if only & {"6", "7", "9", "10"}:
            if "6" in only or "7" in only or "9" in only:
                R["cmus"], cm = session_cmus(ctx, window)
                log(f"cmus session: {R['cmus'].get('error') or 'ok'}")
            R["refrain"] = session_refrain(ctx, window, paused, 5.0 if quick else 10.0,
                                           calls=500 if not quick else 200,
                                           proc_calls=200 if not quick else 50, cmus=cm)
            if "7" in only:
                R["dispatch_floor"] = dispatch_floor(tmp, 5.0 if quick else 10.0)
            s = R["refrain"]
            log(f"refrain session: {s.get('error') or 'ok'}; tty {s.get('traffic', {}).get('bytes_per_s', 0):.0f} B/s, "
                f"paused wake-ups {s.get('paused', {}).get('wakeups_per_s', float('nan')):.2f}/s")
            if "6" in only:
                R["line_style"] = session_line_style(ctx, window)
                ls = R["line_style"]
                log(f"line-style session: {ls.get('error') or 'ok'}; "
                    f"tty {ls.get('traffic', {}).get('bytes_per_s', 0):.0f} B/s")
    finally:
        if cm:
            cm.quit()
    if "8" in only:
        R["startup"] = bench_startup(ctx, reps=3 if quick else 5)
    if "11" in only:
        R["resume"] = bench_resume(ctx, reps=3 if quick else 5, ref_reps=2 if quick else 3)
    if "13" in only:
        R["cover"] = session_cover(ctx, 10.0 if quick else 20.0)
    return R


def cover_summary_rows(C: dict | None) -> list[str]:
    """Summary rows for the cover's terminal and memory costs (session_cover)."""
    if not C:
        return []
    on, off = C.get("blocks") or {}, C.get("off") or {}
    if on.get("error") or off.get("error"):
        return [f"| 13 | the cover while playing | not measured | | 0 B/s, + ≤ 3 MiB | {on.get('error') or off.get('error')} |"]
    rate = (on.get("playing") or {}).get("bytes_per_s", 0) - (off.get("playing") or {}).get("bytes_per_s", 0)
    rss = (on.get("rss_kb") or 0) - (off.get("rss_kb") or 0)
    resent = on.get("playing_half_blocks", 0)
    return [
        f"| 13 | the cover's bytes per second while playing (100×30) | {rate:+.1f} B/s ({resent} `▀` re-sent) | "
        f"without a cover | 0 B/s | {'met' if resent == 0 else '**missed**'} |",
        f"| 13 | resident memory with the cover | {_kib(rss)} more | without a cover | + ≤ 3 MiB | "
        f"{'met' if rss <= 3 * 1024 else '**missed**'} |",
    ]


def cover_session_lines(C: dict) -> list[str]:
    """Section 13's terminal and memory figures (session_cover), as Markdown lines."""
    if not C:
        return []
    on, off = C.get("blocks") or {}, C.get("off") or {}
    if on.get("error") or off.get("error"):
        return [f"Not measured: {on.get('error') or off.get('error')}", ""]
    change = on.get("change_bytes", 0) - off.get("change_bytes", 0)
    rate_on = (on.get("playing") or {}).get("bytes_per_s")
    rate_off = (off.get("playing") or {}).get("bytes_per_s")
    rss_on, rss_off = on.get("rss_kb"), off.get("rss_kb")
    added = None if rate_on is None or rate_off is None else rate_on - rate_off
    L = [
        "| figure | with the cover (`blocks`, 24-bit) | without (`off`) | the cover's cost | target |",
        "| --- | ---: | ---: | ---: | --- |",
        f"| bytes to the terminal when the Player pane opens at 100×30 | {on.get('change_bytes', 0):,} | "
        f"{off.get('change_bytes', 0):,} | {change:,} (one cover change; {on.get('change_cover_rows', 0)} `▀`) | "
        "once per track change or resize |",
        f"| bytes per second while playing | {_f(rate_on, 1)} | {_f(rate_off, 1)} | {_f(added, 1)} B/s "
        f"({on.get('playing_half_blocks', 0)} `▀` re-sent) | 0 B/s |",
        f"| resident memory at the end | {_kib(rss_on)} | {_kib(rss_off)} | "
        f"{_kib(None if rss_on is None or rss_off is None else rss_on - rss_off)} | + ≤ 3 MiB |",
        "",
        f"Both runs play 우산 하나 from the demo catalog in tmux at 100×30 (`COLORTERM=truecolor`), open the "
        f"Player pane and then play on for {(on.get('playing') or {}).get('seconds', 0):.0f} s; memory is "
        "VmRSS from /proc.",
        "",
    ]
    return L


# ---------------------------------------------------------------- the report

def _ms(x, d=1):
    return "n/a" if x is None else f"{x:.{d}f} ms"


def _kib(kb):
    return "n/a" if kb is None else f"{kb / 1024:.1f} MiB"


def _within(value, target) -> str:
    if value is None:
        return "not measured"
    return "within target" if value <= target else "**misses target**"


def _cmd(s: str) -> str:
    return s.replace(str(REPO) + "/", "")


def _tmp(s: str, ctx_tmp: str | None) -> str:
    """Temporary paths shortened: $TMP (bench.py's folder), $PULSE_DIR (with-test-pulse's)."""
    if ctx_tmp:
        s = s.replace(ctx_tmp, "$TMP")
    pulse_dir = os.path.dirname(os.environ.get("PULSE_RUNTIME_PATH", "").rstrip("/"))
    if pulse_dir and pulse_dir != "/":
        s = s.replace(pulse_dir, "$PULSE_DIR")
    return s


def summary_rows(R: dict) -> list[str]:
    """Rows for bench.py's summary table (| # | figure | Refrain | reference | target | vs target |)."""
    rows = []
    if not R:
        return rows
    s, c = R.get("refrain") or {}, R.get("cmus") or {}
    ref_note = c.get("error") or ""
    tr, ctr = s.get("traffic"), c.get("traffic")
    if tr:
        ratio = tr["bytes_per_s"] / ctr["bytes_per_s"] if ctr and ctr["bytes_per_s"] else None
        rows.append(f"| 6 | bytes to the terminal per second, playing, lyrics view open ({R['window_s']:.0f} s, 100×30) | "
                    f"{tr['bytes_per_s']:.0f} B/s ({tr['bursts_per_s']:.1f} redraws/s) | "
                    + (f"cmus {ctr['bytes_per_s']:.0f} B/s ({ctr['bursts_per_s']:.1f} redraws/s)" if ctr else
                       f"cmus: {ref_note or 'not measured'}")
                    + f" | ≤ 1.0× cmus | " + (f"{ratio:.2f}×: {_within(ratio, 1.0)}" if ratio is not None else "no reference")
                    + " |")
    elif "refrain" in R:
        rows.append(f"| 6 | bytes to the terminal per second | not measured | | ≤ 1.0× cmus | {s.get('error', '')} |")
    p, pl = s.get("paused"), s.get("playing")
    if p and "wakeups_per_s" in p:
        cp = s.get("cmus_paused")
        rows.append(f"| 7 | paused {p['seconds']:.0f} s: wake-ups (voluntary context switches, all threads) | "
                    f"{p['wakeups_per_s']:.2f}/s, CPU {p['cpu_pct']:.2f}% | "
                    + (f"cmus paused {cp['wakeups_per_s']:.1f}/s, CPU {cp['cpu_pct']:.2f}%" if cp else "—")
                    + f" | ≤ 0.2/s | {_within(p['wakeups_per_s'], 0.2)} |")
    if pl and "wakeups_per_s" in pl:
        cpl = c.get("playing") if c else None
        rows.append(f"| 7 | playing (lyrics view open, {pl['seconds']:.0f} s): wake-ups, CPU | "
                    f"{pl['wakeups_per_s']:.0f}/s, CPU {pl['cpu_pct']:.1f}% | "
                    + (f"cmus {cpl['wakeups_per_s']:.0f}/s, CPU {cpl['cpu_pct']:.1f}%" if cpl and "wakeups_per_s" in cpl else "—")
                    + " | — | |")
    st = R.get("startup")
    if st:
        fr = [r["frame_ms"] for r in st["refrain"] if "frame_ms" in r]
        fc = [r["frame_ms"] for r in st["cmus"] if "frame_ms" in r]
        m, mc = median(fr), median(fc)
        verdict = _within(m, 100) + (" of 100 ms; " + ("≤ cmus" if mc is not None and m is not None and m <= mc
                                                         else "**slower than cmus**" if mc is not None else "no cmus")
                                     if m is not None else "")
        rows.append(f"| 8 | start → first full Home frame, median of {len(fr)} | {_ms(m)} (max {_ms(max(fr) if fr else None)}) | "
                    + (f"cmus {_ms(mc)} (max {_ms(max(fc))})" if fc else f"cmus: {st.get('cmus_error') or 'not measured'}")
                    + f" | ≤ cmus and ≤ 100 ms | {verdict} |")
    if pl and "rss_max_kb" in pl:
        cpl = c.get("playing") if c else None
        rows.append(f"| 9 | resident memory playing a demo track with lyrics: VmRSS max / VmHWM | "
                    f"{_kib(pl['rss_max_kb'])} / {_kib(pl['hwm_kb'])} | "
                    + (f"cmus {_kib(cpl['rss_max_kb'])} / {_kib(cpl['hwm_kb'])}" if cpl and "rss_max_kb" in cpl else "—")
                    + f" | ≤ 25 MiB | {_within(pl['hwm_kb'] / 1024 if pl.get('hwm_kb') else None, 25)} (VmHWM) |")
    so, pr = s.get("socket"), s.get("process")
    if so and so["ms"]:
        rows.append(f"| 10 | `status` over the control socket, p50 / p99 (n = {so['n']}) | "
                    f"{pct(so['ms'], 50):.2f} / {pct(so['ms'], 99):.2f} ms | "
                    + (f"whole `refrain ctl status` process {pct(pr['ms'], 50):.1f} / {pct(pr['ms'], 99):.1f} ms (n = {pr['n']})"
                       if pr and pr["ms"] else "—")
                    + f" | p99 ≤ 5 ms | {_within(pct(so['ms'], 99), 5)} (socket); "
                    + (f"{_within(pct(pr['ms'], 99), 5)} (process)" if pr and pr["ms"] else "") + " |")
    rs = R.get("resume")
    if rs:
        heard = [r["heard_ms"] for r in rs.get("rows", []) if r.get("heard_ms") is not None]
        pos = [r["position_ms"] for r in rs.get("rows", []) if r.get("position_ms") is not None]
        if heard:
            streams = [r["stream_ms"] for r in rs.get("rows", []) if r.get("stream_ms") is not None]
            rh = [r["heard_ms"] for r in rs.get("ref_rows", []) if r.get("heard_ms") is not None]
            rows.append(f"| 11 | audio server back (`pactl info` answers) → audio heard, median / max (n = {len(heard)}) | "
                        f"{median(heard) / 1000:.2f} / {max(heard) / 1000:.2f} s (stream back after "
                        f"{_f(median(streams) / 1000 if streams else None, 2)} s; `position` moves after "
                        f"{_f(median(pos) / 1000 if pos else None, 2)} s) | "
                        + (f"mpg123 started at that moment: heard after {median(rh) / 1000:.2f} s (the null sink's 2 s first block)"
                           if rh else "—")
                        + f" | ≤ 2 s | {_within(max(heard) / 1000, 2)} |")
        else:
            rows.append(f"| 11 | audio server back → audio heard | not measured | | ≤ 2 s | {rs.get('error', '')} |")
    return rows


def _threads_table(add, d: dict, limit: int = 8) -> None:
    add("| thread | voluntary switches | involuntary | CPU time |")
    add("| --- | --- | --- | --- |")
    shown = [t for t in d["per_thread"] if t["vcs"] or t["nvcs"] or t["run_ms"] >= 0.05][:limit]
    for t in shown:
        add(f"| `{t['comm']}` (tid {t['tid']}{', new' if t['new'] else ''}) | {t['vcs']} | {t['nvcs']} | "
            f"{t['run_ms']:.2f} ms |")
    quiet = len(d["per_thread"]) - len(shown)
    if quiet:
        add(f"| {quiet} other thread{'s' if quiet != 1 else ''} | 0 | 0 | < 0.05 ms |")


def render(R: dict, ctx_tmp: str | None = None) -> list[str]:
    L: list[str] = []
    add = L.append
    if not R:
        return L
    if R.get("error"):
        add("## 6–10. The full-screen player")
        add("")
        add(f"Not measured: {R['error']}.")
        add("")
        return L
    s, c = R.get("refrain") or {}, R.get("cmus") or {}
    T = lambda x: _tmp(_cmd(x), ctx_tmp)  # noqa: E731
    out_note = ("PulseAudio (the private test server)" if R.get("output") == "pulse" else
                "the null output (no PulseAudio server)")
    if s or c:
        add("## 6–10. The full-screen player: one session")
        add("")
        add(f"Sections 6, 7, 9 and 10 come from one Refrain session and one cmus session ({R.get('cmus_version') or 'cmus not installed'}), "
            f"each in a {WIDTH}×{HEIGHT} pane of a private tmux server ({R.get('tmux_version')}), playing "
            f"`{_cmd(str(DEMO_TRACK))}` (32 s, a demo catalog track with a time-synced `.lrc`) through {out_note}. "
            "Each pane runs a shell script that waits on a FIFO and then execs the player, so "
            "`tmux pipe-pane -o 'exec cat > FIFO'` is attached before the first byte; a thread in bench.py "
            "stamps each chunk of that stream with the monotonic clock as it arrives.")
        add("")
        if s.get("command"):
            add(f"- Refrain: `{T(s['command'])}`; started with the keys `/` `{DEMO_QUERY}` Enter, `j` to the track, "
                f"Enter (" + ("as planned" if s.get("started_by") == "ui" else
                              f"**fell back to** `refrain ctl queue add` + `play`: {s.get('started_by')}") +
                "), then `l` for the lyrics view.")
        if c.get("command"):
            add(f"- cmus: `{T(c['command'])}` with `{c.get('rc')}` in its rc file; the file is started with "
                f"`cmus-remote --server SOCK -f FILE` and paused with `cmus-remote -u`.")
        elif c.get("error"):
            add(f"- cmus: **not measured**: {c['error']}.")
        if s.get("error"):
            add(f"- **Refrain session failed**: {s['error']}")
        add("")

    # ---- 6
    tr, ctr = s.get("traffic"), c.get("traffic")
    if tr:
        add("## 6. Bytes written to the terminal while playing, lyrics view open")
        add("")
        add(f"Counted over {tr['seconds']:.1f} s of playback, from 0.5 s after the lyrics view opened "
            f"(track position {s.get('position_at_start')} s → {s.get('position_at_end')} s); cmus over "
            f"{ctr['seconds']:.1f} s from position {c.get('position_at_start')} s, its default view. "
            "A *redraw* is a burst of chunks less than 5 ms apart.")
        add("")
        add("| | bytes/s | bytes in window | redraws/s | bytes per redraw, median (max) | full-screen clears |")
        add("| --- | --- | --- | --- | --- | --- |")
        ls = R.get("line_style") or {}
        for label, t in (("Refrain (the sung line bold green beside a ▶: the default)", tr),
                         ('Refrain, `display.lyrics_highlight = "marker"` (a second session)', ls.get("traffic")),
                         ("cmus", ctr)):
            if t:
                add(f"| {label} | {t['bytes_per_s']:.0f} | {t['bytes']:,} | {t['bursts_per_s']:.2f} | "
                    f"{t['burst_median'] or 0:.0f} ({t['burst_max']}) | {t['clears']} |")
        add("")
        if ctr and ctr["bytes_per_s"]:
            ratio = tr["bytes_per_s"] / ctr["bytes_per_s"]
            add(f"Refrain / cmus: **{ratio:.2f}×** (target ≤ 1.0×).")
            if ls.get("traffic"):
                add(f"With only the ▶ marking the sung line: {ls['traffic']['bytes_per_s'] / ctr['bytes_per_s']:.2f}× "
                    f"(track position {ls.get('position_at_start')} s → {ls.get('position_at_end')} s). "
                    "A terminal cannot recolour text without receiving it again, so with the default each "
                    "line change sends the old line plain and the new one highlighted; with the marker "
                    "alone it is a scroll and the ▶ moving.")
            elif ls.get("error"):
                add(f'`display.lyrics_highlight = "marker"`: **not measured**: {ls["error"]}.')
            add("")
        add("A redraw of median size, as written (`\\e` is ESC): Refrain `" + tr["typical"].replace("`", "'") + "`"
            + ("; cmus `" + ctr["typical"].replace("`", "'") + "`" if ctr else "") + ".")
        add("")
        if tr.get("largest"):
            add("Refrain's largest redraw (a lyric line change) as written: `"
                + tr["largest"].replace("`", "'") + "`"
                + ("; with the marker style: `" + ls["traffic"]["largest"].replace("`", "'") + "`"
                   if ls.get("traffic", {}).get("largest") else "") + ".")
            add("")
        if s.get("screen"):
            add("Refrain's screen at the end of the window:")
            add("")
            add("```")
            add(s["screen"])
            add("```")
            add("")
    # ---- 7
    p, pl = s.get("paused"), s.get("playing")
    if p and "wakeups_per_s" in p:
        add("## 7. CPU and wake-ups, paused and playing")
        add("")
        add("From `/proc/PID/stat` (utime + stime of the whole process, in clock ticks of "
            f"{1000 // CLK_TCK} ms) and, per thread, `/proc/PID/task/*/status` (voluntary_ctxt_switches: "
            "each one is the thread going to sleep, so one wake-up) and `/proc/PID/task/*/schedstat` "
            "(CPU time in ns). PID is the pane's process (the script execs the player). Paused: "
            f"`refrain ctl pause`, 2 s to settle, then {p['seconds']:.0f} s with nothing else happening "
            f"(the pane still in the lyrics view, state `{s.get('paused_state')}`). Playing: the {pl['seconds']:.0f} s "
            "window of 6.")
        add("")
        cp = s.get("cmus_paused")
        cpl = c.get("playing") if c else None
        add("| | wake-ups/s | involuntary switches/s | CPU % (ticks) | CPU % (schedstat) | threads |")
        add("| --- | --- | --- | --- | --- | --- |")
        df = R.get("dispatch_floor")
        for label, d in (("Refrain paused", p), ("cmus paused (same span)", cp),
                         (f"Refrain stopped (`ctl stop`, state `{s.get('stopped_state')}`)", s.get("stopped")),
                         ("reference: 5-line Swift program after one `DispatchQueue.global().async {}`", df),
                         ("Refrain playing", pl), ("cmus playing", cpl)):
            if d and "wakeups_per_s" in d:
                add(f"| {label} | {d['wakeups_per_s']:.2f} | {d['nvcs_per_s']:.2f} | {d['cpu_pct']:.2f} | "
                    f"{d['cpu_pct_sched']:.3f} | {d['threads']} |")
        add("")
        add(f"Target paused: ≤ 0.2 wake-ups/s: {_within(p['wakeups_per_s'], 0.2)}. "
            f"Bytes written to the terminal while paused: {s.get('paused_traffic', {}).get('bytes', 0):,}.")
        add("")
        names = {t["comm"] for t in p["per_thread"] if t["vcs"]}
        notes = []
        if "threaded-ml" in names:
            notes.append("`threaded-ml` is libpulse's mainloop thread, which belongs to the open PulseAudio "
                         "connection: it still wakes while paused"
                         + (" and after a stop" if any(t["comm"] == "threaded-ml" and t["vcs"]
                                                       for t in (s.get("stopped") or {}).get("per_thread", []))
                            else ""))
        if any("qos" in n for n in names):
            notes.append("`-qos.overcommit` (`com.apple.root.default-qos.overcommit`, cut to 15 characters) "
                         "is libdispatch's manager thread, which re-arms a one-second timer; the 5-line Swift "
                         "program above shows the same wake-ups once anything has run on a global queue, so "
                         "they come with the Swift runtime on Linux, not from a timer of Refrain's")
        if not names:
            notes.append("nothing: no thread woke. The PulseAudio connection is closed after 2 s paused, and "
                         "background work runs on Refrain's own executor (`BackgroundExecutor`) rather than "
                         "libdispatch's pool, whose monitor wakes any process that used it once a second "
                         "(the 5-line Swift program above)")
        main = min(p["per_thread"], key=lambda t: t["tid"]) if p["per_thread"] else None
        if main and not main["vcs"] and names:
            notes.append("the main thread (the lowest tid) did not wake at all: the UI loop sleeps in `poll()` "
                         "with no timeout while paused")
        if notes:
            add("What wakes while paused: " + "; ".join(notes) + ".")
            add("")
        add(f"Refrain's threads while paused ({p['seconds']:.0f} s):")
        add("")
        _threads_table(add, p)
        add("")
        ml = sum(t["vcs"] for t in pl["per_thread"] if t["comm"] == "threaded-ml")
        if ml and pl["vcs"]:
            player = sum(t["vcs"] for t in pl["per_thread"] if t["comm"] == "refrain-player")
            add(f"While playing, libpulse's `threaded-ml` thread makes {ml / pl['seconds']:.1f} of the "
                f"{pl['wakeups_per_s']:.1f} wake-ups/s ({ml / pl['vcs']:.0%}) and the engine thread "
                f"`refrain-player` {player / pl['seconds']:.1f}/s: the engine keeps about 1 s queued on the "
                "server, refills it when half has been heard and sleeps in between, and the server asks for "
                "data about twice a second; libpulse's timing updates make up the rest.")
            add("")
        add(f"Refrain's threads while playing ({pl['seconds']:.0f} s):")
        add("")
        _threads_table(add, pl)
        add("")
        if p.get("gone") or pl.get("gone"):
            add(f"Threads that ended inside a window (their switches are not counted): "
                f"{', '.join(p.get('gone', []) + pl.get('gone', []))}.")
            add("")
    # ---- 8
    st = R.get("startup")
    if st:
        add("## 8. Start to the first full frame")
        add("")
        add("Launch = the moment bench.py opens the gate FIFO (the pane's script then execs the program). "
            "The program runs until its screen has been still for 1.2 s; that settled screen (Refrain: the Home "
            "pane with the demo catalog; cmus: its library view, empty) is the *full frame*. The time is the "
            "arrival of the stream chunk that completes it: prefixes of the recorded byte stream are replayed "
            f"into a fresh {WIDTH}×{HEIGHT} tmux pane (`cat PREFIX`) and read back with `capture-pane`, and the "
            "shortest one that shows the settled screen, found by bisection over chunk boundaries, marks the "
            "frame. Refrain and cmus alternate; each keeps its home between runs, after one first start in "
            "an empty home (reported apart: Refrain creates its library database then).")
        add("")
        cmd_r = next((r["command"] for r in st["refrain"] if r.get("command")), None)
        cmd_c = next((r["command"] for r in st["cmus"] if r.get("command")), None)
        if cmd_r:
            add(f"- Refrain: `{T(cmd_r)}`")
        if cmd_c:
            add(f"- cmus: `{T(cmd_c)}`")
        elif st.get("cmus_error"):
            add(f"- cmus: **not measured**: {st['cmus_error']}")
        add("")
        add("| run | Refrain first byte | Refrain full frame (bytes, chunks) | cmus first byte | cmus full frame (bytes, chunks) |")
        add("| --- | --- | --- | --- | --- |")

        def cell(r):
            if not r:
                return ["", ""]
            if "frame_ms" not in r:
                return [r.get("error", "n/a"), ""]
            return [_ms(r["first_byte_ms"]), f"{_ms(r['frame_ms'])} ({r['bytes']:,} B, {r['chunks']})"]
        add("| first start, empty home | " + " | ".join(cell(st.get("refrain_first")) + cell(st.get("cmus_first"))) + " |")
        for i in range(st["reps"]):
            a = st["refrain"][i] if i < len(st["refrain"]) else None
            b = st["cmus"][i] if i < len(st["cmus"]) else None
            add(f"| {i + 1} | " + " | ".join(cell(a) + cell(b)) + " |")
        fr = [r["frame_ms"] for r in st["refrain"] if "frame_ms" in r]
        fc = [r["frame_ms"] for r in st["cmus"] if "frame_ms" in r]
        add(f"| **median** | {_ms(median([r['first_byte_ms'] for r in st['refrain'] if 'first_byte_ms' in r]))} | "
            f"**{_ms(median(fr))}** | {_ms(median([r['first_byte_ms'] for r in st['cmus'] if 'first_byte_ms' in r]))} | "
            f"**{_ms(median(fc))}** |")
        add("")
        add(f"Targets: ≤ cmus and ≤ 100 ms. Refrain's median is {_within(median(fr), 100)} of 100 ms"
            + (f", and {'at most' if median(fr) <= median(fc) else '**above**'} cmus's ({median(fr) / median(fc):.2f}×)."
               if fr and fc else "."))
        add("")
    # ---- 9
    if pl and "rss_max_kb" in pl:
        cpl = c.get("playing") if c else None
        add("## 9. Resident memory while playing a demo track with lyrics")
        add("")
        add("`VmRSS` sampled once a second over the window of 6 (lyrics view open, demo catalog loaded, one "
            "search done) and `VmHWM` (the peak) at its end, from `/proc/PID/status`; cmus playing the same file "
            "for reference.")
        add("")
        add("| | VmRSS median | VmRSS max | VmHWM | RssAnon | RssFile |")
        add("| --- | --- | --- | --- | --- | --- |")
        for label, d in (("Refrain", pl), ("cmus", cpl)):
            if d and "rss_max_kb" in d:
                me = d.get("mem_end", {})
                add(f"| {label} | {_kib(d['rss_median_kb'])} | {_kib(d['rss_max_kb'])} | {_kib(d['hwm_kb'])} | "
                    f"{_kib(me.get('RssAnon'))} | {_kib(me.get('RssFile'))} |")
        add("")
        if pl.get("smaps"):
            add("Where Refrain's resident pages are, from `/proc/PID/smaps` at the end of the window (file-backed "
                "pages are shared with other processes using the same library, but count in RSS): "
                + ", ".join(f"`{k}` {v / 1024:.1f} MiB" for k, v in pl["smaps"]) + ".")
            add("")
        add(f"Target ≤ 25 MiB: VmHWM {_within(pl['hwm_kb'] / 1024, 25)}.")
        add("")
    # ---- 10
    so, pr = s.get("socket"), s.get("process")
    if so and so["ms"]:
        add("## 10. `refrain ctl status` round trips while playing")
        add("")
        add(f"With the demo track playing again from 0:00 (`ctl seek 0`) and the lyrics view open: {so['n']} "
            "round trips from Python over the control socket (`$XDG_RUNTIME_DIR/refrain/socket`: connect, "
            "send `status\\n`, read the JSON line, close), 4 ms apart, then "
            f"{pr['n'] if pr else 0} runs of the whole `refrain ctl status` process (spawn to exit, "
            "`subprocess.run`), 4 ms apart.")
        add("")
        add("| | n | p50 | p90 | p99 | max | failed |")
        add("| --- | --- | --- | --- | --- | --- | --- |")
        for label, d in (("Refrain: socket round trip", so), ("reference: the same client, bare Python server", s.get("reference")),
                         ("Refrain: whole `refrain ctl status` process", pr),
                         ("floor: the whole `/bin/true` process, same spawner", s.get("true_process"))):
            if d and d["ms"]:
                add(f"| {label} | {d['n']} | {pct(d['ms'], 50):.2f} ms | {pct(d['ms'], 90):.2f} ms | "
                    f"{pct(d['ms'], 99):.2f} ms | {max(d['ms']):.2f} ms | {d['bad']} |")
        add("")
        add(f"Target p99 ≤ 5 ms: socket {_within(pct(so['ms'], 99), 5)}"
            + (f"; process {_within(pct(pr['ms'], 99), 5)}" if pr and pr["ms"] else "")
            + ". A process's round trip is mostly its start-up: loading about 35 shared libraries "
            "(PulseAudio, SQLite, ncurses, mpg123 and theirs; the Swift runtime is linked in, libcurl is opened only "
            "when the network is used) before `main`; `/bin/true` "
            "spawned the same way is the floor this machine allows any process"
            + f". The reference server (a Python process answering a fixed copy of Refrain's status line) shows "
            "what this machine's scheduling alone costs, with the same client, right after. "
            f"State after the calls: `{so.get('state')}` / `{(pr or {}).get('state')}`. "
            f"The {so['n']} socket calls took {so['seconds']:.1f} s, during which Refrain wrote "
            f"{so['tty_bytes']:,} bytes to the terminal (the window of 6 averaged "
            f"{tr['bytes_per_s'] if tr else 0:.0f} B/s).")
        add("")
    # ---- 11
    rs = R.get("resume")
    if rs:
        add("## 11. From the audio server coming back to audio heard")
        add("")
        if rs.get("error") and not rs.get("rows"):
            add(f"Not measured: {rs['error']}.")
            add("")
        else:
            add(f"A private PulseAudio server (not the one of `with-test-pulse`: this one is killed): "
                f"`{T(' '.join(shlex.quote(a) for a in rs['server_cmd']))}`. "
                f"`{T(' '.join(rs.get('cmd', [])))}` plays on it (after a `parec` kept the idle null sink "
                "awake for its start). Each repetition: SIGKILL the server, wait 1.5 s (Refrain notices and its "
                "retries back off to every 0.5 s), start the server again, poll `pactl info` back to back until it "
                "answers (*ready*), then at once record the sink's monitor (`parec --latency-msec=20`, placed on "
                "the monotonic clock as the end-to-end Recorder does) and poll `pactl list short sink-inputs` until "
                "a playback stream is back. *Heard* is the first sample above −60 dBFS (steps.mp3 is never "
                "silent); *position moves* is the arrival of the first `position` event at least 0.2 s past "
                "where playback stalled; *message* is Refrain's `audio server is back` line on stderr; *clock "
                "when heard* is the last `position` Refrain reported before the sound came back minus where it "
                "stalled (events come every 200 ms). All times are after *ready*.")
            add("")
            add("| rep | outage | server start → ready | stream back on the server | heard | position moves (to) | message | clock when heard |")
            add("| --- | --- | --- | --- | --- | --- | --- | --- |")
            for r in rs["rows"]:
                if r.get("error"):
                    add(f"| {r['rep']} | {r['error']} | | | | | | |")
                    continue
                add(f"| {r['rep']} | {r['outage_s']:.2f} s | {_ms(r['server_start_ms'], 0)} | {_ms(r['stream_ms'], 0)} | "
                    f"{_ms(r['heard_ms'], 0)} | "
                    f"{_ms(r['position_ms'], 0)} ({_f(r['resumed_at'], 2)} s; stalled at {_f(r['stalled_at'], 2)} s) | "
                    f"{_ms(r['back_msg_ms'], 0)} | {'+' if (r.get('clock_lead_ms') or 0) >= 0 else ''}{_ms(r.get('clock_lead_ms'), 0)} |")
            heard = [r["heard_ms"] for r in rs["rows"] if r.get("heard_ms") is not None]
            pos = [r["position_ms"] for r in rs["rows"] if r.get("position_ms") is not None]
            streams = [r["stream_ms"] for r in rs["rows"] if r.get("stream_ms") is not None]
            leads = [r["clock_lead_ms"] for r in rs["rows"] if r.get("clock_lead_ms") is not None]
            add("")
            refs = rs.get("ref_rows") or []
            if refs:
                add(f"Reference, the same outage with no Refrain: `{T(' '.join(rs['ref_cmd']))}` spawned the moment "
                    "the server answers, recorded the same way.")
                add("")
                add("| rep | spawned | stream on the server | heard |")
                add("| --- | --- | --- | --- |")
                for r in refs:
                    add(f"| {r['rep']} | {_ms(r['spawn_ms'], 0)} | {_ms(r['stream_ms'], 0)} | {_ms(r['heard_ms'], 0)} |")
                add("")
            if heard:
                rh = [r["heard_ms"] for r in refs if r.get("heard_ms") is not None]
                add(f"Heard: median {median(heard):.0f} ms, max {max(heard):.0f} ms after *ready* (target ≤ 2 s: "
                    f"{_within(max(heard) / 1000, 2)}); Refrain's stream was back on the server after a median "
                    f"{_f(median(streams))} ms, and its position moved again after {_f(median(pos))} ms. "
                    + (f"mpg123, connecting at once, was heard after a median {median(rh):.0f} ms: "
                       "a restarted null sink renders its first block (2 s, its idle latency) the moment it loads "
                       "and nothing reaches its monitor before that block ends, whoever plays. So *heard* here is the "
                       "test sink's floor, and Refrain's own share is the time to get its stream back; on a sound "
                       "card the sound would follow the stream within the sink's latency (40 ms requested). "
                       + (f"Refrain's clock waited for the sound: by the first sample heard it had moved "
                          f"{median(leads):.0f} ms (median) past where it stalled." if leads and median(leads) < 100 else
                          f"**Refrain's clock ran ahead of the sound**: by the first sample heard it was already "
                          f"{median(leads):.0f} ms (median) past where it stalled. The clock follows the latency "
                          "PulseAudio reports, and the server does not count the restarted null sink's first "
                          "block in it (asking it for fresh timing at every refill changed nothing); the engine "
                          "queues up to 1 s, so nothing else holds the clock back. On a sound card the reported "
                          "latency is the card's, and the lyric figures of 5 show the clock exact while playing."
                          if leads else "")
                       if rh else ""))
                add("")
            if rs.get("stderr"):
                add("Refrain's last stderr lines: " + "; ".join(f"`{x}`" for x in rs["stderr"][-3:]))
                add("")
    return L
