#!/usr/bin/env python3
"""Refrain's benchmarks: measures the player and writes docs/benchmarks.md.

Sections 1-5 (audio) are here and in bench_audio.py (section 5 is measured a second time
under `stress-ng --cpu 4` by bench_load.py); 19 (every format, against the reference
decoder CLIs and cmus) is bench_formats.py; 20 (a Subsonic server: Enter to first sound and
`search3`) is bench_subsonic.py; 6-11 (the full-screen player in tmux,
`refrain ctl`, recovery from a lost audio server) in bench_tui.py; 12 (library scan and
search) runs scripts/bench_library.py and reads its JSON; 13 (cover art against chafa) is
scripts/bench_cover.py.

    make bench          # fixtures, release build, then this under scripts/with-test-pulse
    scripts/with-test-pulse python3 scripts/bench.py [--runs N] [--quick] [--out FILE]

Benchmarks, not tests: nothing here passes or fails. Each figure is printed
with the command that produced it, a reference where one exists (mpg123 on the
same file, in the same run) and the target it is meant to meet.

Binaries: $REFRAIN_BIN (default .build/release/refrain) and $REFRAIN_BENCH_BIN
(default .build/release/refrain-bench). The PulseAudio figures need the
private server of scripts/with-test-pulse (PULSE_SERVER, REFRAIN_TEST_SINK);
without it they are reported as not measured. Nothing here uses the network
beyond 127.0.0.1.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "Tests" / "EndToEnd"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import audio_analysis as aa  # noqa: E402  (Refrain's end-to-end helpers)
import bench_audio as ba  # noqa: E402
import bench_build as bbd  # noqa: E402  (section 18: the edit–run loop)
import bench_cover as bcv  # noqa: E402  (section 13: cover art against chafa)
import bench_formats as bfm  # noqa: E402  (section 19: every format, against the reference CLIs and cmus)
import bench_load as bld  # noqa: E402  (section 5 again under stress-ng --cpu 4)
import bench_mpris as bmp  # noqa: E402  (section 14: MPRIS against cmus's)
import bench_room as brm  # noqa: E402  (section 15: listening rooms)
import bench_subsonic as bss  # noqa: E402  (section 20: a Subsonic server, supysonic on loopback)
import bench_spotify as bsp  # noqa: E402  (section 16: Spotify library import and matching)
import bench_lyrics as bly  # noqa: E402  (section 17: lyrics: stamp accuracy, lyric search, romanization)
import bench_tui as bt  # noqa: E402  (sections 6-11: the full-screen player, ctl, recovery)
from harness import Recorder, Refrain  # noqa: E402

FIXTURES = REPO / "Tests" / "Fixtures" / "generated"
STEPS = FIXTURES / "steps.mp3"
STEPS_LRC = FIXTURES / "lyrics-steps.lrc"
DOC = REPO / "docs" / "benchmarks.md"
MARKER = "<!-- Everything below is written by scripts/bench.py (make bench); edit only the text above. -->"

INTRO = """# Benchmarks

How fast and how prompt Refrain is, measured by `make bench` (`scripts/bench.py` under
`scripts/with-test-pulse`: a private PulseAudio server whose only sink is a null sink,
`refrain_test`). These are measurements, not tests: nothing fails when a figure misses
its target. Each figure comes with the command that produced it, a reference where one
exists (mpg123 or cmus on the same file in the same run, or a bare binary search) and
its target. This file is the one source of truth for the figures; the design notes
behind the library figures are in [benchmarks-library.md](benchmarks-library.md).

- **1–5, audio** (`scripts/bench.py`, `scripts/bench_audio.py`): CPU and memory to play,
  seek latency, decoder throughput, lyrics parsing, lyric events against what is heard, the
  last also on a busy machine (`scripts/bench_load.py`: `stress-ng --cpu 4` on 2 cores).
- **6–11, the full-screen player** (`scripts/bench_tui.py`): terminal traffic, wake-ups,
  start-up, memory and `refrain ctl` latency of `refrain` running in a 100×30 tmux pane,
  against cmus; and recovery when the audio server comes back.
- **12, the local library** (`scripts/bench_library.py`): folder scans against cmus, and
  search latency.
- **19, every format** (`scripts/bench_formats.py`): FLAC (16- and 24-bit), Ogg Vorbis, Opus,
  AAC in M4A, WAV and MP3 against their reference decoder CLIs and cmus: CPU and memory to
  play, a mixed 10,000-file scan, the join between two files as heard, lyric events, seeks,
  and `space` to sound in the full-screen player.
- **20, a Subsonic server** (`scripts/bench_subsonic.py`): supysonic on loopback holding 10,000
  tracks: `Enter` on a server track to first sound, stored or transcoded to Opus or MP3 by the
  server, against the same file played locally and the server's own time to the first byte;
  and `search3` through Refrain against the server's own response time.
- **13, cover art** (`scripts/bench_cover.py`): a 1000×1000 JPEG and PNG into 30×15 half
  blocks, against chafa; the cover's bytes and memory in the full-screen player.
- **14, MPRIS** (`scripts/bench_mpris.py`): `Get` of `Metadata` and `Position`, and
  `PlayPause` to state, against cmus's MPRIS on the same private session bus; wake-ups
  while paused with MPRIS on.
- **18, the edit–run loop** (`scripts/bench_build.py`): a fresh clone's `make release`
  (what `make run` builds), then `make release`, `make rooms` and `make release` again
  with nothing changed.

"Heard" is read from the sink's monitor, recorded with `parec`: a tone change in the
recording is placed to a sample by matching the decoded file, and the recording is put
on the monotonic clock from the times its file grew. A null sink's monitor runs up to
one block ahead of the sink's own clock, so latencies are given both as recorded and on
the sink's clock (see *Method and calibration*). The machine is shared: the load average
is printed with each run, CPU figures move by 10–20% between runs, and tail latencies
(p99) catch other processes' scheduler slices.
"""

FREQS = [300 + 50 * k for k in range(30)]


# ---------------------------------------------------------------- small helpers

def median(xs):
    return statistics.median(xs) if xs else None


def fmt(x, digits=1, unit=""):
    if x is None:
        return "n/a"
    return f"{x:.{digits}f}{unit}"


def log(msg: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def sh(argv: list[str], **kw) -> str:
    try:
        return subprocess.run(argv, capture_output=True, text=True, timeout=30, **kw).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def rel(path: Path | str) -> str:
    """A path as the reader would type it from the repository root."""
    p = Path(path)
    try:
        return str(p.resolve().relative_to(REPO))
    except ValueError:
        return str(p)


def machine() -> dict:
    model = "unknown CPU"
    try:
        for line in open("/proc/cpuinfo", encoding="utf-8"):
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    commit = sh(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"]) or "unknown"
    dirty = sh(["git", "-C", str(REPO), "status", "--porcelain", "--untracked-files=no"])
    pulse_version = ""
    for line in sh(["pactl", "info"]).splitlines():
        if line.startswith("Server Version:"):
            pulse_version = line.split(":", 1)[1].strip()
    mpg = shutil.which("mpg123")
    mpg_version = sh([mpg, "--version"]).split("\n")[0] if mpg else ""
    return {
        "date": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "nproc": len(os.sched_getaffinity(0)),
        "cpu": model,
        "kernel": platform.release(),
        "os": _os_name(),
        "commit": commit + (" + local changes" if dirty else ""),
        "pulseaudio": pulse_version or "not reachable",
        "mpg123": mpg_version or "mpg123 not installed",
        "python": platform.python_version(),
        "load": _loadavg(),
    }


def _loadavg() -> str:
    try:
        return " ".join(open("/proc/loadavg", encoding="utf-8").read().split()[:3])
    except OSError:
        return "?"


def _os_name() -> str:
    try:
        for line in open("/etc/os-release", encoding="utf-8"):
            if line.startswith("PRETTY_NAME="):
                return line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    return platform.system()


RUNNER_C = r"""
/* Runs a command and writes its CPU time and peak RSS to a file, for Refrain's benchmarks.
 * A small process of its own, so the child's peak RSS starts small (ru_maxrss survives
 * fork and exec: a child forked straight from Python would report Python's size). */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
int main(int argc, char **argv) {
  if (argc < 3) return 2;
  pid_t pid = fork();
  if (pid == 0) { execvp(argv[2], argv + 2); _exit(127); }
  int status = 0;
  struct rusage ru;
  if (pid < 0 || wait4(pid, &status, 0, &ru) < 0) return 126;
  FILE *f = fopen(argv[1], "w");
  if (!f) return 126;
  fprintf(f, "%ld.%06ld %ld.%06ld %ld %ld\n", (long)ru.ru_utime.tv_sec, (long)ru.ru_utime.tv_usec,
          (long)ru.ru_stime.tv_sec, (long)ru.ru_stime.tv_usec, ru.ru_maxrss, ru.ru_nvcsw);
  fclose(f);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
"""

_RUNNER: list = []


def build_runner(tmp: Path) -> Path | None:
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not cc:
        return None
    src, exe = tmp / "rusage_run.c", tmp / "rusage_run"
    src.write_text(RUNNER_C)
    proc = subprocess.run([cc, "-O2", "-o", str(exe), str(src)], capture_output=True, text=True, timeout=60)
    return exe if proc.returncode == 0 else None


def rusage_run(argv: list[str], env: dict, cwd: Path | None = None, timeout: float = 120) -> dict:
    """Runs a command to its end: wall time, user+sys CPU and peak RSS (from wait4() in the
    small C runner when a compiler is at hand; else in Python, whose size then inflates RSS)."""
    runner = _RUNNER[0] if _RUNNER else None
    out = Path(tempfile.mktemp(prefix="rusage.", dir=runner.parent)) if runner else None
    full = [str(runner), str(out), *map(str, argv)] if runner else list(map(str, argv))
    err = tempfile.TemporaryFile()
    start = time.perf_counter()
    proc = subprocess.Popen(full, env=env, cwd=cwd, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=err)
    deadline = start + timeout
    while True:
        pid, status, ru = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() > deadline:
            proc.kill()
            pid, status, ru = os.wait4(proc.pid, 0)
            break
        time.sleep(0.002)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    user, system, rss_kb, switches = ru.ru_utime, ru.ru_stime, ru.ru_maxrss, ru.ru_nvcsw
    if out is not None:
        try:
            u, s_, r, v = out.read_text().split()
            user, system, rss_kb, switches = float(u), float(s_), int(r), int(v)
        except (OSError, ValueError):
            user = system = rss_kb = float("nan")
            switches = 0
        out.unlink(missing_ok=True)
    err.seek(0)
    return {"wall": wall, "user": user, "sys": system, "cpu": user + system, "rss_mb": rss_kb / 1024,
            "rc": proc.returncode, "stderr": err.read().decode(errors="replace").strip()[-400:],
            "rss_exact": out is not None, "switches": switches}


def wait_event(run, predicate, timeout: float):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with run._lock:
            for e in run.events:
                if predicate(e):
                    return e
        if run.proc.poll() is not None:
            break
        time.sleep(0.005)
    return None


def end_run(run, timeout: float = 10) -> None:
    """Stops `refrain play` politely (`stop` on stdin), then by signal."""
    try:
        if run.proc.poll() is None:
            run.send("stop")
        run.proc.wait(timeout)
    except (OSError, ValueError, subprocess.TimeoutExpired):
        run.kill()
    run._settle()


class LatencyRecorder(Recorder):
    """The end-to-end Recorder with another `parec --latency-msec` (for the cross-check)."""

    def __init__(self, sink: str, path: Path, latency_msec: int):
        super().__init__(sink, path)
        self.latency_msec = latency_msec

    def start(self, settle: float = 0.3, timeout: float = 8.0) -> None:
        import threading
        self.path.unlink(missing_ok=True)
        self._proc = subprocess.Popen(
            ["parec", "-d", f"{self.sink}.monitor", f"--latency-msec={self.latency_msec}",
             "--file-format=wav", f"--rate={self.RATE}", f"--channels={self.CHANNELS}", "--format=s16le",
             str(self.path)],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and len(self._growth) < 3:
            if self._proc.poll() is not None:
                raise RuntimeError(f"parec exited ({self._proc.returncode})")
            time.sleep(0.01)
        time.sleep(settle)


def sink_latency(sink: str) -> dict:
    """The sink's current and configured latency (ms) from `pactl list sinks`.

    A null sink renders up to its configured latency ahead of its own clock, and
    its monitor (what parec records) gets the audio at render time."""
    out = sh(["pactl", "list", "sinks"])
    block = None
    for part in out.split("Sink #"):
        if re.search(rf"^\s*Name:\s*{re.escape(sink)}\s*$", part, re.M):
            block = part
    m = re.search(r"^\s*Latency:\s*(\d+) usec, configured (\d+) usec", block or "", re.M)
    if not m:
        return {}
    return {"now_ms": int(m.group(1)) / 1000, "configured_ms": int(m.group(2)) / 1000}


def send_stamped(run, line: str) -> tuple[float, float]:
    """Writes a command to Refrain's stdin; the monotonic times just before and after the write."""
    data = (line + "\n").encode()
    fd = run.proc.stdin.fileno()
    before = time.monotonic()
    os.write(fd, data)
    after = time.monotonic()
    return before, after


# ---------------------------------------------------------------- 1. CPU and memory through PulseAudio

def bench_cpu(ctx: dict, runs: int) -> dict:
    refrain_cmd = [str(ctx["bin"]), "play", str(STEPS), "--output", "pulse"]
    mpg_cmd = ["mpg123", "-q", "-o", "pulse", str(STEPS)]
    res = {"refrain_cmd": refrain_cmd, "mpg123_cmd": mpg_cmd, "refrain": [], "mpg123": [],
           "have_mpg123": bool(shutil.which("mpg123"))}
    for i in range(runs):
        order = ["refrain", "mpg123"] if i % 2 == 0 else ["mpg123", "refrain"]
        for who in order:
            if who == "mpg123" and not res["have_mpg123"]:
                continue
            argv = refrain_cmd if who == "refrain" else mpg_cmd
            env = ctx["refrain_env"] if who == "refrain" else dict(os.environ)
            r = rusage_run(argv, env, cwd=ctx["home"])
            log(f"cpu {who} run {i + 1}/{runs}: cpu {r['cpu']:.3f} s, rss {r['rss_mb']:.1f} MB, "
                f"wall {r['wall']:.2f} s, exit {r['rc']}")
            res[who].append(r)
    return res


# ---------------------------------------------------------------- 2. seek-to-audible latency

def bench_seek(ctx: dict, seeks: int) -> dict:
    rng = random.Random(20)
    # Targets far apart (>= 4 s) from the tone heard before, so the change is plain.
    targets, prev = [], 1
    while len(targets) < seeks:
        s = rng.randint(2, 28)
        if abs(s - prev) >= 4:
            targets.append(s)
            prev = s
    rec = Recorder(ctx["sink"], ctx["tmp"] / "seek.wav")
    rec.start()
    run = ctx["refrain"].start(STEPS, "--output", "pulse", "--events")
    cmd = run.argv
    sent, stamp_gaps, sink = [], [], {}
    try:
        if wait_event(run, lambda e: e.kind == "position" and e["t"] >= 1.0, 10) is None:
            raise RuntimeError(f"no position event >= 1.0 s: {run.summary()} {run.stderr_now()!r}")
        sink = sink_latency(ctx["sink"])
        for s in targets:
            # Spread the commands over the player's write cycle (about 26 ms a chunk).
            time.sleep(0.55 + rng.random() * 0.25)
            before, after = send_stamped(run, f"seek {s}")
            sent.append((s, before))
            stamp_gaps.append(after - before)
        time.sleep(0.8)
    finally:
        end_run(run)
        recording = rec.stop(tail=0.2)
    offset = sink.get("configured_ms")
    changes = aa.step_changes(recording.audio, FREQS)
    rows = []
    for i, (s, t) in enumerate(sent):
        x = recording.at(t)
        x_next = recording.at(sent[i + 1][1]) if i + 1 < len(sent) else recording.audio.duration
        # What played before: the previous target (each plays < 1 s), or what was heard.
        before = sent[i - 1][0] if i > 0 else _step_at(changes, x - 0.05)
        rough = next((c for c in changes if x - 0.03 < c.t < x_next and c.step == s), None)
        row = {"target": s, "sent": t, "before": before, "latency": None, "old_end": None, "note": ""}
        if rough is None:
            row["note"] = f"second {s} not heard before the next command"
            rows.append(row)
            continue
        onset = ba.tone_onset(recording.audio, FREQS[s], rough.t)
        if onset is None:
            row["note"] = "onset not found"
        else:
            row["latency"] = onset["t"] - x
        if before is not None:
            end = ba.tone_end(recording.audio, FREQS[before], min(x, rough.t - 0.005))
            if end is not None:
                row["old_end"] = end["t"] - x
        rows.append(row)
    # Silence from the first command to the end: underruns, or gaps at a seek.
    first, last = recording.at(sent[0][1]) - 0.5, recording.at(sent[-1][1]) + 0.6
    gaps = [{"rec_s": t - recording.at(sent[0][1]), "ms": length * 1000}
            for t, length in aa.dropouts(recording.audio, first, last)]
    lat = [r["latency"] * 1000 for r in rows if r["latency"] is not None]
    old = [r["old_end"] * 1000 for r in rows if r["old_end"] is not None]
    return {"cmd": cmd, "rows": rows, "latencies_ms": lat, "old_end_ms": old, "sink": sink, "dropouts": gaps,
            "span_s": last - first,
            "offset_ms": offset, "latencies_pa_ms": [v + offset for v in lat] if offset is not None else [],
            "stamp_gap_ms": max(stamp_gaps) * 1000 if stamp_gaps else None,
            "calib": _calibration(rec, recording)}


def _step_at(changes, x):
    last = None
    for c in changes:
        if c.t <= x:
            last = c
        else:
            break
    return None if last is None else last.step


def _calibration(rec: Recorder, recording) -> dict:
    """How well the recording is placed on the monotonic clock.

    Each time the recorder saw the WAV file grow, it learned that the first
    sample came at or before (seen - samples/rate). t0 is the least of these
    bounds; the spread of the others shows how late parec's chunks arrive."""
    offset = 44
    try:
        from harness import _wav_data_offset
        offset = _wav_data_offset(recording.path)
    except Exception:
        pass
    ordered = [seen - ((size - offset) // 4) / Recorder.RATE for seen, size in rec._growth if size > offset]
    bounds = sorted(ordered)
    sizes = [b - a for (_, a), (_, b) in zip(rec._growth, rec._growth[1:])]
    third = len(ordered) // 3
    return {
        "observations": len(bounds),
        "second_bound_ms": (bounds[1] - bounds[0]) * 1000 if len(bounds) > 1 else None,
        "median_lag_ms": (median(bounds) - bounds[0]) * 1000 if bounds else None,
        "chunk_ms": median([s / 4 / Recorder.RATE * 1000 for s in sizes if s > 0]),
        # The least bound over the last third minus that over the first: ~0 unless the
        # recording gained or lost samples against the clock while it ran.
        "drift_ms": (min(ordered[-third:]) - min(ordered[:third])) * 1000 if third else None,
    }


# ---------------------------------------------------------------- 3. decoder throughput

def bench_decode(ctx: dict, runs: int) -> dict:
    x_wav = ctx["tmp"] / "x.wav"
    y_wav = ctx["tmp"] / "y.wav"
    refrain_cmd = [str(ctx["bin"]), "play", str(STEPS), "--output", f"wav:{x_wav}"]
    mpg_cmd = ["mpg123", "-q", "-w", str(y_wav), str(STEPS)]
    res = {"refrain_cmd": refrain_cmd, "mpg123_cmd": mpg_cmd, "refrain": [], "mpg123": [],
           "have_mpg123": bool(shutil.which("mpg123")), "audio_seconds": 30.0}
    # One untimed run each warms the page cache.
    rusage_run(refrain_cmd, ctx["refrain_env"], cwd=ctx["home"])
    if res["have_mpg123"]:
        rusage_run(mpg_cmd, dict(os.environ))
    for i in range(runs):
        res["refrain"].append(rusage_run(refrain_cmd, ctx["refrain_env"], cwd=ctx["home"]))
        if res["have_mpg123"]:
            res["mpg123"].append(rusage_run(mpg_cmd, dict(os.environ)))
    # Process start-up alone: argument parsing and exit, no audio.
    res["startup_cmd"] = [str(ctx["bin"]), "play", "--help"]
    res["startup"] = [rusage_run(res["startup_cmd"], ctx["refrain_env"], cwd=ctx["home"]) for _ in range(runs)]
    if res["have_mpg123"]:
        res["mpg123_startup_cmd"] = ["mpg123", "--version"]
        res["mpg123_startup"] = [rusage_run(res["mpg123_startup_cmd"], dict(os.environ)) for _ in range(runs)]
    ref = aa.read_wav(str(x_wav))
    res["audio_seconds"] = ref.duration
    ctx["reference"] = ref
    if res["have_mpg123"] and y_wav.exists():
        other = aa.read_wav(str(y_wav))
        n = min(len(ref.samples), len(other.samples))
        diff = float(abs(ref.samples[:n] - other.samples[:n]).max()) if n else None
        res["same_samples"] = len(ref.samples) == len(other.samples) and diff == 0.0
        res["sample_counts"] = (len(ref.samples), len(other.samples))
    if ctx.get("bench_bin"):
        out = sh([str(ctx["bench_bin"]), "decode", str(STEPS), "--iterations", str(max(5, runs))])
        try:
            res["inprocess"] = json.loads(out)
            res["inprocess_cmd"] = [str(ctx["bench_bin"]), "decode", str(STEPS), "--iterations", str(max(5, runs))]
        except ValueError:
            res["inprocess_error"] = out[:200]
    log(f"decode: refrain median wall {median([r['wall'] for r in res['refrain']]):.3f} s")
    return res


# ---------------------------------------------------------------- 4. lyrics parser and timeline

SHIM_C = r"""
/* Counts heap allocations per thread, for refrain-bench (LD_PRELOAD). */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
static __thread uint64_t count __attribute__((tls_model("initial-exec")));
static __thread uint64_t bytes __attribute__((tls_model("initial-exec")));
void refrain_alloc_stats(uint64_t out[2]) { out[0] = count; out[1] = bytes; }
void *malloc(size_t n) { count++; bytes += n; return __libc_malloc(n); }
void *calloc(size_t k, size_t n) { count++; bytes += k * n; return __libc_calloc(k, n); }
void *realloc(void *p, size_t n) { count++; bytes += n; return __libc_realloc(p, n); }
void *memalign(size_t a, size_t n) { count++; bytes += n; return __libc_memalign(a, n); }
void *aligned_alloc(size_t a, size_t n) { count++; bytes += n; return __libc_memalign(a, n); }
int posix_memalign(void **out, size_t a, size_t n) {
  void *p;
  count++; bytes += n;
  p = __libc_memalign(a, n);
  if (!p) return ENOMEM;
  *out = p;
  return 0;
}
"""

KOREAN = ["사랑", "하늘", "바람", "노래", "기억", "오늘", "우리", "너와", "별빛", "시간"]
ENGLISH = ["refrain", "night", "river", "light", "again", "hold", "on", "we", "run", "home",
           "the", "city", "sleeps", "and", "I", "sing", "slow", "down", "golden", "rain"]


def make_lrc(path: Path, lines: int = 10_000, seed: int = 7) -> dict:
    """A 10,000-line LRC: 60% single-stamp lines, 20% word-timed (`<mm:ss.xx>` per word),
    20% with three time stamps (a chorus repeated later, so the parser must sort)."""
    rnd = random.Random(seed)

    def stamp(ms: int, br: str = "[]") -> str:
        return f"{br[0]}{ms // 60000:02d}:{ms // 1000 % 60:02d}.{ms % 1000 // 10:02d}{br[1]}"

    def words(n: int) -> list[str]:
        pool = KOREAN if rnd.random() < 0.3 else ENGLISH
        return [rnd.choice(pool) for _ in range(n)]

    out = ["[ti:Refrain benchmark lyrics]", "[ar:scripts/bench.py]", "[al:Ten thousand lines]",
           "[by:make bench]", "[length:460:00]"]
    counts = {"single": 0, "word_timed": 0, "multi_stamp": 0}
    t = 1000
    for i in range(lines):
        kind = i % 10
        if kind < 6:
            out.append(stamp(t) + " ".join(words(rnd.randint(3, 9))))
            counts["single"] += 1
        elif kind < 8:
            ws = words(rnd.randint(4, 8))
            parts, w = [], t
            for word in ws:
                parts.append(stamp(w, "<>") + word)
                w += rnd.randint(180, 450)
            out.append(stamp(t) + " ".join(parts) + " " + stamp(w, "<>"))
            counts["word_timed"] += 1
        else:
            later = [t + rnd.randint(30_000, 90_000), t + rnd.randint(120_000, 240_000)]
            out.append(stamp(t) + "".join(stamp(x) for x in later) + " ".join(words(rnd.randint(3, 7))))
            counts["multi_stamp"] += 1
        t += rnd.randint(1500, 4000)
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return {"lines": lines, "tag_lines": 5, "bytes": path.stat().st_size, **counts}


def bench_lyrics_core(ctx: dict, iterations: int) -> dict:
    lrc = ctx["tmp"] / "lyrics-10k.lrc"
    res = {"lrc": make_lrc(lrc)}
    if not ctx.get("bench_bin"):
        res["error"] = f"no refrain-bench binary at {ctx['bench_bin_path']}"
        return res
    cmd = [str(ctx["bench_bin"]), "lyrics", str(lrc), "--iterations", str(iterations)]
    res["cmd"] = cmd
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    try:
        res["timing"] = json.loads(proc.stdout)
    except ValueError:
        res["error"] = f"refrain-bench failed ({proc.returncode}): {proc.stderr.strip()[:300]}"
        return res
    shim = _build_shim(ctx["tmp"])
    if shim:
        env = dict(os.environ, LD_PRELOAD=str(shim))
        acmd = [str(ctx["bench_bin"]), "lyrics", str(lrc), "--iterations", "3"]
        proc = subprocess.run(acmd, capture_output=True, text=True, timeout=120, env=env)
        try:
            res["allocs"] = json.loads(proc.stdout)
            res["alloc_cmd"] = ["LD_PRELOAD=" + str(shim)] + acmd
        except ValueError:
            res["alloc_error"] = proc.stderr.strip()[:300]
    else:
        res["alloc_error"] = "no C compiler (cc) to build the allocation-counting shim"
    t = res["timing"]
    log(f"lyrics: parse {t['parse_ms_median']:.2f} ms, index {t['index_ns_random']:.1f} ns")
    return res


def _build_shim(tmp: Path) -> Path | None:
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not cc:
        return None
    src, so = tmp / "alloc_count.c", tmp / "alloc_count.so"
    src.write_text(SHIM_C)
    proc = subprocess.run([cc, "-O2", "-shared", "-fPIC", "-o", str(so), str(src)],
                          capture_output=True, text=True, timeout=60)
    return so if proc.returncode == 0 else None


# ---------------------------------------------------------------- 5. lyric event accuracy

def bench_lyric_events(ctx: dict, runs: int, crosscheck: bool = True) -> dict:
    """`line` events against the tone changes heard, on `runs` recordings made as the
    end-to-end tests make them (parec --latency-msec=20), plus one shorter cross-check
    recorded with parec --latency-msec=5, which changes how far the null sink renders ahead."""
    ref = ctx.get("reference")
    if ref is None:
        ref = aa.read_wav(str(_decode_reference(ctx)))
        ctx["reference"] = ref
    lrc_times = [2 * n + 1 for n in range(10)]
    plan = [(20, 20.5, False)] * runs + ([(5, 10.5, True)] if crosscheck else [])
    rows, cmd, runs_info = [], None, []
    for r, (latency, duration, check) in enumerate(plan):
        path = ctx["tmp"] / f"lyrics{r}.wav"
        rec = Recorder(ctx["sink"], path) if latency == 20 else LatencyRecorder(ctx["sink"], path, latency)
        rec.start()
        run = ctx["refrain"].start(STEPS, "--output", "pulse", "--events", "--lyrics", STEPS_LRC,
                                   "--duration", str(duration))
        if not check:
            cmd = run.argv
        sink = {}
        if wait_event(run, lambda e: e.kind == "position" and e["t"] >= 0.5, 10) is not None:
            sink = sink_latency(ctx["sink"])
        try:
            run.proc.wait(duration + 20)
        except subprocess.TimeoutExpired:
            pass
        end_run(run)
        recording = rec.stop(tail=0.2)
        offset = sink.get("configured_ms")
        changes = aa.step_changes(recording.audio, FREQS)
        # Where each whole second of the track was heard (exact, from the decoded file).
        heard, glitched = {}, set()
        for c in changes:
            if c.step is not None and 1 <= c.step <= 21 and c.step not in heard:
                b = ba.boundary_in_recording(recording.audio, ref, float(c.step), c.t)
                if b is not None and b["error"] < 0.05:
                    heard[c.step] = b["t"]
                else:
                    # The audio around the change is not the file's (a dropout): take the
                    # moment the new tone is heard instead.
                    o = ba.tone_onset(recording.audio, FREQS[c.step], c.t)
                    if o is not None:
                        heard[c.step] = o["t"]
                        glitched.add(c.step)
        # Silence inside the played stretch: audio that did not arrive in time.
        marks_all = sorted(heard.items())
        gaps = []
        if marks_all:
            for t, length in aa.dropouts(recording.audio, marks_all[0][1] - 0.9, marks_all[-1][1] + 0.4):
                prior = [(k, x) for k, x in marks_all if x <= t + 0.002]
                pos = prior[-1][0] + (t - prior[-1][1]) if prior else None
                gaps.append({"track_s": pos, "ms": length * 1000})
        lines = [e for e in run.of("line") if isinstance(e.get("index"), int) and e["index"] >= 0]
        errs = []
        for e in lines:
            n = e["index"]
            sec = lrc_times[n] if n < len(lrc_times) else None
            x = heard.get(sec)
            err = None if x is None else (recording.at(e.arrival) - x) * 1000
            rows.append({"run": r + 1, "check": check, "parec_ms": latency, "index": n, "lrc": sec, "t": e["t"],
                         "error": err, "error_pa": None if err is None or offset is None else err - offset,
                         "glitch": sec in glitched})
            if err is not None:
                errs.append(err)
        # Position events against what was heard (between whole-second marks).
        marks = sorted(heard.items())
        pos = []
        for e in run.positions:
            x = recording.at(e.arrival)
            prior = [(k, t) for k, t in marks if t <= x]
            if not prior or not 1.0 <= e["t"] <= duration - 0.5:
                continue
            k, t = prior[-1]
            if x - t > 1.0:
                continue
            pos.append((e["t"] - (k + (x - t))) * 1000)
        runs_info.append({"run": r + 1, "check": check, "parec_ms": latency, "sink": sink, "offset_ms": offset,
                          "errors_ms": errs, "position_errors_ms": pos, "calib": _calibration(rec, recording),
                          "dropouts": gaps, "seconds": duration})
        log(f"lyric events run {r + 1}/{len(plan)} (parec {latency} ms, sink configured "
            f"{fmt(offset, 1)} ms): {len(lines)} lines, median error {fmt(median(errs), 1)} ms")
    main_rows = [row for row in rows if not row["check"]]
    main_runs = [ri for ri in runs_info if not ri["check"]]
    return {"cmd": cmd, "rows": rows, "runs": runs_info,
            "errors_ms": [row["error"] for row in main_rows if row["error"] is not None],
            "errors_pa_ms": [row["error_pa"] for row in main_rows if row["error_pa"] is not None],
            "position_errors_ms": [p for ri in main_runs for p in ri["position_errors_ms"]],
            "position_errors_pa_ms": [p + ri["offset_ms"] for ri in main_runs if ri["offset_ms"] is not None
                                      for p in ri["position_errors_ms"]],
            "calib": [ri["calib"] for ri in runs_info]}


def bench_mpg123_dropouts(ctx: dict, frames: int = 383) -> dict:
    """mpg123 playing the first 10 s of steps.mp3 while recorded: the reference for dropouts."""
    if not shutil.which("mpg123"):
        return {"skipped": "mpg123 is not installed"}
    rec = Recorder(ctx["sink"], ctx["tmp"] / "mpg123.wav")
    rec.start()
    cmd = ["mpg123", "-q", "-o", "pulse", "-n", str(frames), str(STEPS)]
    subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)
    recording = rec.stop(tail=0.3)
    a, b = aa.sound_start(recording.audio), aa.sound_end(recording.audio)
    gaps = [] if a is None or b is None else aa.dropouts(recording.audio, a + 0.05, b - 0.05)
    return {"cmd": cmd, "seconds": (b - a) if a is not None and b is not None else 0,
            "dropouts": [{"ms": length * 1000} for _, length in gaps]}


def _decode_reference(ctx: dict) -> Path:
    out = ctx["tmp"] / "x.wav"
    subprocess.run([str(ctx["bin"]), "play", str(STEPS), "--output", f"wav:{out}"], env=ctx["refrain_env"],
                   capture_output=True, timeout=60)
    return out


def detector_check(ctx: dict) -> dict:
    """The tone-change finders, run where the truth is known.

    Seeks: splices of the decoded file that cut from one second (at a random
    point) to the start of another, as a seek does; the onset finder should
    put the change on the splice. Lyric lines: the decoded file itself, where
    every change is on a whole second."""
    ref = ctx.get("reference")
    if ref is None:
        return {}
    import numpy as np
    rate, rng = ref.rate, random.Random(5)
    onset_err, match_err = [], []
    for _ in range(40):
        old, new = rng.randint(1, 28), rng.randint(2, 28)
        if abs(old - new) < 4:
            continue
        cut = int((0.3 + rng.random() * 0.4) * rate)
        a = int((old + 0.05 + rng.random() * 0.3) * rate)
        spliced = np.concatenate([ref.samples[a:a + cut], ref.samples[new * rate:new * rate + int(0.3 * rate)]])
        o = ba.tone_onset(aa.Audio(spliced, rate), FREQS[new], cut / rate + 0.004)
        if o is not None:
            onset_err.append((o["t"] - cut / rate) * 1000)
    for k in range(2, 29):
        b = ba.boundary_in_recording(ref, ref, float(k), k + 0.007)
        if b is not None:
            match_err.append((b["t"] - k) * 1000)
    return {"onset_ms": onset_err, "match_ms": match_err}


# ---------------------------------------------------------------- 12. library (scripts/bench_library.py)

def bench_library(ctx: dict, args) -> dict:
    """Runs scripts/bench_library.py (scan against cmus, then search latency) and reads its JSON."""
    files = args.library_n or (2000 if args.quick else 10000)
    tracks = args.library_tracks or (20000 if args.quick else 100000)
    # Seven alternating scans each: single runs on this shared machine move by ±20%.
    runs = 1 if args.quick else 7
    work = ctx["tmp"] / "library"
    cmd = [sys.executable, str(REPO / "scripts" / "bench_library.py"), "--bin", str(ctx["bin"]),
           "--files", str(files), "--tracks", str(tracks), "--runs", str(runs), "--workdir", str(work)]
    shown = ["python3", "scripts/bench_library.py", "--files", str(files), "--tracks", str(tracks), "--runs", str(runs)]
    started = time.monotonic()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=1200, cwd=REPO)
    except subprocess.TimeoutExpired:
        return {"skipped": "scripts/bench_library.py did not finish within 20 min", "cmd": shown}
    finally:
        shutil.rmtree(work, ignore_errors=True)
    try:
        res = json.loads(proc.stdout)
    except ValueError:
        return {"skipped": f"scripts/bench_library.py failed ({proc.returncode}): {proc.stderr.strip()[-300:]}",
                "cmd": shown}
    res["cmd"], res["elapsed_s"] = shown, time.monotonic() - started
    sc = res.get("scan", {})
    log(f"library: scan {sc.get('refrain_seconds')} s (cmus {sc.get('cmus_seconds')} s); "
        f"{res['elapsed_s']:.0f} s in all")
    return res


def _library_summary_rows(R: dict) -> list[str]:
    lib = R.get("library")
    if not lib:
        return []
    if lib.get("skipped"):
        return [f"| 12 | library scan and search | not measured | | | {lib['skipped']} |"]
    rows, sc, se = [], lib.get("scan", {}), lib.get("search")
    if sc:
        sp = sc.get("speedup_vs_cmus")
        rows.append(f"| 12 | scan {sc['files']:,} new MP3 files into a fresh library, median of {sc['runs']} | "
                    f"{sc['refrain_seconds']:.2f} s ({sc['refrain_files_per_second']:,} files/s) | "
                    + (f"cmus {sc['cmus_seconds']:.2f} s ({sc['cmus_tracks']:,} tracks)" if sp else
                       "cmus not compared" if sc.get("cmus_tracks") is not None else "cmus not measured")
                    + " | ≥ 2× faster than cmus | "
                    + (f"{sp:.2f}× cmus's speed: {within(sp, 2.0, lower_is_better=False)}" if sp else "") + " |")
        rows.append(f"| 12 | peak RSS of that scan; rescan with nothing changed | "
                    f"{sc['refrain_peak_rss_kb'] / 1024:.1f} MB; rescan {sc['refrain_rescan_seconds']:.2f} s | "
                    + (f"cmus {sc['cmus_peak_rss_kb'] / 1024:.1f} MB" if sc.get("cmus_peak_rss_kb") else "—")
                    + " | — | |")
        cold = sc.get("cold")
        if cold:
            csp = cold.get("speedup_vs_cmus")
            rows.append(f"| 12 | the same scan, the folder's files dropped from the page cache first, median of "
                        f"{cold['runs']} | {cold['refrain_seconds']:.2f} s | "
                        + (f"cmus {cold['cmus_seconds']:.2f} s" if csp else "cmus not compared")
                        + " | — | " + (f"{csp:.2f}× cmus's speed" if csp else "") + " |")
    if se:
        la = se["latency"]
        for kind, label in (("prefix", "prefix"), ("substring", "substring")):
            rows.append(f"| 12 | search p99, {label} queries, {la['tracks']:,} tracks | "
                        f"{la[kind + '_p99_ms']:.2f} ms wall ({la[kind + '_cpu_p99_ms']:.2f} ms CPU) | — | ≤ 5 ms | "
                        f"{within(la[kind + '_p99_ms'], 5)} (wall); {within(la[kind + '_cpu_p99_ms'], 5)} (CPU) |")
    return rows


def _library_sections(R: dict) -> list[str]:
    lib = R.get("library")
    if not lib:
        return []
    L = ["## 12. The local library: scanning a folder and searching", ""]
    add = L.append
    if lib.get("skipped"):
        add(f"Not measured: {lib['skipped']}.")
        add("")
        return L
    sc, se = lib.get("scan", {}), lib.get("search")
    add(f"`{cmdline(lib['cmd'])}` (REFRAIN_BIN is the binary above; its JSON is read here), in "
        f"{lib['elapsed_s']:.0f} s at load {lib.get('load_before', 0):.1f} → {lib.get('load_after', 0):.1f}. "
        "Design notes and the profile behind these figures: [benchmarks-library.md](benchmarks-library.md).")
    add("")
    if sc:
        add(f"**Scan.** `scripts/make-library-fixture {sc['files']} DIR` writes {sc['files']:,} tagged one-second MP3s "
            "(ID3v2.3 UTF-16 and v2.4 UTF-8 tags, some ID3v1-only or untagged, English, Korean and Japanese "
            "titles, nested folders, sidecar `.lrc` files, hostile titles, and a few files that are not MP3). "
            "Each Refrain run is `refrain scan --json DIR` into a fresh `XDG_DATA_HOME` (wall time and peak RSS "
            "from `os.wait4`, start-up included), then the same command again with nothing changed (*rescan*). "
            "cmus runs in a tmux server of its own with a fresh `CMUS_HOME`; once it answers `cmus-remote -Q` "
            "(its start-up is not counted), the clock starts at `cmus-remote -C 'add -l DIR'` and stops when "
            "`save -l FILE` no longer answers \"can't save when tracks are being added\" and FILE lists all "
            f"{sc.get('playable_files', sc['files']):,} playable files (the other {sc.get('broken_files', 0)} are "
            "not audio; cmus hands tracks from its worker thread to its main loop in batches, so a save can be "
            "accepted a moment before the last ones are in, and a run that never gets them all does not count). "
            "Its peak RSS is `VmHWM`. Runs alternate Refrain, cmus. The fixture is read once first, so these "
            "runs find its files in the page cache (this machine reclaims pages unused for a few minutes, and "
            "the benchmarks before this one take several).")
        add("")
        add("| run | Refrain | cmus |")
        add("| --- | --- | --- |")
        ca = sc.get("cmus_all_seconds") or []
        for i, t in enumerate(sc["refrain_all_seconds"]):
            add(f"| {i + 1} | {t:.2f} s | {f'{ca[i]:.2f} s' if i < len(ca) else '—'} |")
        add(f"| **median** | **{sc['refrain_seconds']:.2f} s** | "
            + (f"**{sc['cmus_seconds']:.2f} s**" if sc.get("cmus_seconds") else sc.get("cmus", "—")) + " |")
        ct, cts = sc.get("cmus_tracks"), sc.get("cmus_all_tracks") or []
        add(f"| tracks indexed | {sc['refrain_added']:,} ({sc['refrain_failed']} reported as failed) | "
            + (f"{ct:,}" + (f" (runs: {', '.join(f'{t:,}' for t in cts)})" if len(set(cts)) > 1 else
                            (" in every run" if len(cts) > 1 else "")) if isinstance(ct, int) else "—") + " |")
        add(f"| peak RSS | {sc['refrain_peak_rss_kb'] / 1024:.1f} MB | "
            + (f"{sc['cmus_peak_rss_kb'] / 1024:.1f} MB" if sc.get("cmus_peak_rss_kb") else "—") + " |")
        add(f"| rescan, nothing changed | {sc['refrain_rescan_seconds']:.2f} s, "
            f"{sc['refrain_rescan_peak_rss_kb'] / 1024:.1f} MB | — |")
        add("")
        if sc.get("speedup_vs_cmus"):
            sp = sc["speedup_vs_cmus"]
            add(f"Refrain scanned at **{sp:.2f}× cmus's speed** (cmus time / Refrain time; target ≥ 2×)."
                + (f" cmus holds the library in memory and writes it (`CMUS_HOME/cache`, "
                   f"{sc['cmus_cache_bytes'] / 2 ** 20:.1f} MiB) only when it quits, which took a further "
                   f"{sc['cmus_quit_seconds']:.2f} s (median); Refrain's time includes committing to its "
                   f"database. Counting that write, cmus took {sc['cmus_seconds'] + sc['cmus_quit_seconds']:.2f} s and "
                   f"Refrain ran at {(sc['cmus_seconds'] + sc['cmus_quit_seconds']) / sc['refrain_seconds']:.2f}× "
                   "its speed."
                   if sc.get("cmus_quit_seconds") is not None and sc.get("cmus_cache_bytes") else ""))
            add("")
        cold = sc.get("cold")
        if cold:
            add(f"**From a cold page cache.** {cold['runs']} more runs of each with the folder's files dropped "
                "from the page cache first (`posix_fadvise(POSIX_FADV_DONTNEED)` on every file; for cmus after it "
                "has started), as on a first scan after a reboot; folder entries stay cached. Refrain: "
                + ", ".join(f"{t:.2f}" for t in cold["refrain_all_seconds"])
                + f" s (median **{cold['refrain_seconds']:.2f} s**)"
                + (f"; cmus: " + ", ".join(f"{t:.2f}" for t in cold["cmus_all_seconds"])
                   + f" s (median **{cold['cmus_seconds']:.2f} s**), so Refrain ran at "
                   f"**{cold['speedup_vs_cmus']:.2f}×** cmus's speed" if cold.get("cmus_seconds") else "")
                + ". Once reads turn out slow, Refrain's reading thread opens each run of 32 files and asks the "
                "kernel for their first 72 KB at once, so the disk reads them in parallel.")
            add("")
        if sc.get("cmus_startup_seconds") is not None:
            plugin = sc.get("cmus_output_plugin") or "none"
            add(f"cmus's start-up, not counted above, took {sc['cmus_startup_seconds']:.1f} s (median; output "
                f"plugin: {plugin}). cmus reads no command from its socket until it has set up an output plugin. "
                "Under `scripts/with-test-pulse` it finds the PulseAudio server at once; with no sound server its "
                "JACK plugin retries starting `jackd` for about 6 s and libao then probes for a NAS server for "
                "about 5 s more, so `cmus-remote -C 'add -l DIR'` blocks for about 11 s. Earlier versions of this "
                "benchmark started the clock there and so reported 10–12 s for cmus when run outside "
                "`with-test-pulse`, against 0.4–0.7 s inside it; that was start-up, not scanning.")
            add("")
    if se:
        la, im = se["latency"], se.get("import", {})
        add(f"**Search.** `refrain-bench library-stress --db DB --tracks {la['tracks']}` indexes synthetic tracks "
            f"without files in {im.get('seconds', 0):.1f} s (peak RSS {se['import_peak_rss_kb'] / 1024:.1f} MB; "
            f"database {se['db_bytes'] / 2 ** 20:.1f} MiB): titles of two or three words from about 70 English, "
            "Korean and Japanese words, so common words match thousands of tracks. Then "
            f"`refrain-bench library-stress --db DB --search-bench --iterations {la['queries_per_kind']}` times "
            "`LocalCatalogProvider.searchNow(_:kind: .track, limit: 50)` inside one process (no start-up), "
            f"{la['queries_per_kind']} queries of each kind after a warm-up: *prefix* (first 1–3 letters of a "
            "word), *substring* (three characters from inside a word), *short CJK* (one or two Korean or "
            "Japanese characters), *hostile* (`\"`, `NEAR(love night)`, `lo*`, `(`, `'; DROP TABLE …`, …). "
            "CPU time is the thread's own (`CLOCK_THREAD_CPUTIME_ID`), which other processes do not inflate.")
        add("")
        add("| kind | p50 wall | p99 wall | max wall | p50 CPU | p99 CPU | queries with results |")
        add("| --- | --- | --- | --- | --- | --- | --- |")
        for kind, label in (("prefix", "prefix"), ("substring", "substring"), ("short_cjk", "short CJK (1–2 characters)"),
                            ("hostile", "hostile")):
            if f"{kind}_p50_ms" in la:
                add(f"| {label} | {la[kind + '_p50_ms']:.2f} ms | **{la[kind + '_p99_ms']:.2f} ms** | "
                    f"{la[kind + '_max_ms']:.2f} ms | {la[kind + '_cpu_p50_ms']:.2f} ms | {la[kind + '_cpu_p99_ms']:.2f} ms | "
                    f"{la[kind + '_with_results']} / {la['queries_per_kind']} |")
        add("")
        add("Target: p99 ≤ 5 ms for prefix and substring queries. On this shared 2-core machine a wall-time "
            "p99 also catches the odd scheduler slice given to another process; the CPU column shows the work itself.")
        add("")
    return L


# ---------------------------------------------------------------- the report

def stats_line(xs: list[float], digits=1) -> str:
    if not xs:
        return "n/a"
    return f"median {median(xs):.{digits}f}, min {min(xs):.{digits}f}, max {max(xs):.{digits}f} (n = {len(xs)})"


def cmdline(argv) -> str:
    out = []
    for a in argv:
        a = str(a)
        a = a.replace(str(REPO) + "/", "")
        out.append(a if re.fullmatch(r"[\w./:=+,@-]+", a) else "'" + a + "'")
    return " ".join(out)


def within(value, target, lower_is_better=True) -> str:
    if value is None:
        return "not measured"
    ok = value <= target if lower_is_better else value >= target
    return "within target" if ok else "**misses target**"


def _mpg123_gaps(R: dict) -> str:
    md = R.get("mpg123_dropouts")
    if not md:
        return "—"
    if md.get("skipped"):
        return md["skipped"]
    g = md["dropouts"]
    return (f"mpg123: {len(g)} in {md['seconds']:.0f} s"
            + (f" (longest {max(x['ms'] for x in g):.1f} ms)" if g else "")
            + f", `{cmdline(md['cmd'])}`")


def render(m: dict, R: dict, args) -> str:
    L: list[str] = []
    add = L.append
    add(MARKER)
    add("")
    add(f"Measured **{m['date']}** on **{m['cpu']}**, nproc {m['nproc']}, {m['os']}, Linux {m['kernel']}; "
        f"Refrain {m['commit']} (release build, `{rel(R['bin'])}`); {m['mpg123']}; "
        f"PulseAudio {m['pulseaudio']}; Python {m['python']}. Load average (1, 5, 15 min) "
        f"{m['load']} at the start, {m.get('load_end', '?')} at the end: other work on the machine "
        "slows CPU-bound figures (3, 4) and adds jitter.")
    add("")
    add("Command: `make bench`, that is `scripts/with-test-pulse python3 scripts/bench.py"
        + (" " + " ".join(args.passthrough) if args.passthrough else "")
        + "` after `make fixtures` and a release build. The file played is "
        "`Tests/Fixtures/generated/steps.mp3` (30 s, 128 kbps CBR, 44.1 kHz stereo; second k "
        "sounds 300 + 50·k Hz).")
    add("")

    cpu, sk, de, ly, le = R.get("cpu"), R.get("seek"), R.get("decode"), R.get("lyrics_core"), R.get("lyric_events")

    # ---- summary
    add("## Summary")
    add("")
    add("Latencies are given twice: *as recorded* (the monitor recording, on the end-to-end tests' "
        "clock) and *on the sink's clock* (corrected by how far the null sink renders ahead of its "
        "own clock, which is what a sound card's listener would hear; see *Method*).")
    add("")
    add("| # | figure | Refrain | reference | target | vs target |")
    add("| --- | --- | --- | --- | --- | --- |")
    if cpu and cpu.get("refrain"):
        rc = median([r["cpu"] for r in cpu["refrain"]])
        rr = median([r["rss_mb"] for r in cpu["refrain"]])
        mc = median([r["cpu"] for r in cpu["mpg123"]]) if cpu["mpg123"] else None
        mr = median([r["rss_mb"] for r in cpu["mpg123"]]) if cpu["mpg123"] else None
        ratio = rc / mc if mc else None
        ref = f"mpg123 {fmt(mc, 3, ' s')}" if cpu["have_mpg123"] else "mpg123 not installed"
        add(f"| 1 | CPU (user + sys) to play 30 s through PulseAudio, median of {len(cpu['refrain'])} | "
            f"{rc:.3f} s | {ref} | ≤ 1.2× mpg123 | {fmt(ratio, 2, '×')}: {within(ratio, 1.2)} |")
        add(f"| 1 | peak RSS, same runs, median | {rr:.1f} MB | "
            f"{'mpg123 ' + fmt(mr, 1, ' MB') if mr else 'n/a'} | — | {fmt(rr / mr if mr else None, 2, '×')} |")
    else:
        add(f"| 1 | CPU and peak RSS through PulseAudio | not measured | | ≤ 1.2× mpg123 | {R.get('cpu_skip', '')} |")
    if sk and sk.get("latencies_ms"):
        lat, pa = sk["latencies_ms"], sk.get("latencies_pa_ms") or []
        add(f"| 2 | seek command → new position heard, median (n = {len(lat)}) | "
            f"{fmt(median(pa), 1, ' ms')} on the sink's clock ({median(lat):.1f} ms as recorded) | — | ≤ 50 ms | "
            f"{within(median(pa) if pa else median(lat), 50)} |")
        add(f"| 2 | same, max | {fmt(max(pa) if pa else None, 1, ' ms')} on the sink's clock "
            f"({max(lat):.1f} ms as recorded) | — | — | |")
    else:
        add(f"| 2 | seek-to-audible latency | not measured | | ≤ 50 ms | {R.get('seek_skip', '')} |")
    if de and de.get("refrain"):
        secs = de["audio_seconds"]
        rw = median([r["wall"] for r in de["refrain"]])
        mw = median([r["wall"] for r in de["mpg123"]]) if de["mpg123"] else None
        add(f"| 3 | decode 30 s MP3 to WAV, whole process, × real time (median) | {secs / rw:.0f}× "
            f"({rw * 1000:.0f} ms) | "
            + (f"mpg123 {secs / mw:.0f}× ({mw * 1000:.0f} ms)" if mw else "mpg123 not installed")
            + " | — | |")
        ip = de.get("inprocess")
        if ip:
            add(f"| 3 | decode in process (`MP3Decoder`, no output), × real time | "
                f"{ip['realtime_multiple']:.0f}× ({ip['ms_median']:.1f} ms) | — | — | |")
    if ly and ly.get("timing"):
        t = ly["timing"]
        al = ly.get("allocs") or {}
        add(f"| 4 | parse a 10,000-line LRC (`LRCParser.parse`), median | {t['parse_ms_median']:.1f} ms | — | — | |")
        if al.get("parse_allocations") is not None:
            add(f"| 4 | allocations in one parse | {al['parse_allocations']:,} "
                f"({al['parse_allocated_bytes'] / 1e6:.1f} MB requested) | — | — | |")
        add(f"| 4 | `LyricTimeline.index(at:)` at {t['timeline_lines']:,} lines, per call (random positions) | "
            f"{t['index_ns_random']:.0f} ns | bare binary search {t['bare_search_ns_random']:.0f} ns | "
            f"well under 1 µs | {within(t['index_ns_random'], 1000)} |")
        add(f"| 4 | `LyricTimeline.nextChange(after:)`, per call | {t['next_change_ns_random']:.0f} ns | "
            f"bare binary search {t['bare_search_ns_random']:.0f} ns | well under 1 µs | "
            f"{within(t['next_change_ns_random'], 1000)} |")
    if le and le.get("errors_ms"):
        e, pa = le["errors_ms"], le.get("errors_pa_ms") or []
        ae, apa = [abs(x) for x in e], [abs(x) for x in pa]
        add(f"| 5 | `line` event − tone change heard, median \\|error\\| (n = {len(e)}) | "
            f"{fmt(median(apa), 1, ' ms')} on the sink's clock ({median(ae):.1f} ms as recorded) | — | ≤ 10 ms | "
            f"{within(median(apa), 10) if apa else ''} on the sink's clock; {within(median(ae), 10)} as recorded |")
        add(f"| 5 | same, max \\|error\\| | {fmt(max(apa) if apa else None, 1, ' ms')} on the sink's clock "
            f"({max(ae):.1f} ms as recorded) | — | ≤ 30 ms | "
            f"{within(max(apa), 30) if apa else ''} on the sink's clock; {within(max(ae), 30)} as recorded |")
    else:
        add(f"| 5 | lyric event accuracy | not measured | | ≤ 10 ms median, ≤ 30 ms max | {R.get('lyric_skip', '')} |")
    if sk or le:
        gaps = list((sk or {}).get("dropouts", [])) + [g for ri in (le or {}).get("runs", []) for g in ri["dropouts"]]
        secs = (sk or {}).get("span_s", 0) + sum(ri["seconds"] for ri in (le or {}).get("runs", []))
        add(f"| 2, 5 | dropouts heard (silence ≥ 1 ms) in {secs:.0f} s of recorded playback | {len(gaps)}"
            + (f" (longest {max(g['ms'] for g in gaps):.1f} ms)" if gaps else "") + " | "
            + _mpg123_gaps(R) + " | none | "
            + ("none heard" if not gaps else "**audible gaps**") + " |")
    L.extend(bld.summary_rows(R.get("lyric_events_loaded"), le, within))
    L.extend(bt.summary_rows(R.get("tui") or {}))
    L.extend(_library_summary_rows(R))
    L.extend(bcv.summary_rows(R.get("cover"), within))
    L.extend(bt.cover_summary_rows((R.get("tui") or {}).get("cover")))
    L.extend(bmp.summary_rows(R.get("mpris"), within))
    L.extend(brm.summary_rows(R.get("rooms"), within))
    L.extend(bsp.summary_rows(R.get("spotify"), within))
    L.extend(bly.summary_rows(R.get("lyrics"), within))
    L.extend(bbd.summary_rows(R.get("build"), within))
    L.extend(bfm.summary_rows(R.get("formats"), within))
    L.extend(bss.summary_rows(R.get("subsonic"), within))
    add("")

    # ---- 1
    add("## 1. CPU time and memory to play a 30 s MP3 through PulseAudio")
    add("")
    if cpu and cpu.get("refrain"):
        exact = all(r.get("rss_exact") for r in cpu["refrain"] + cpu["mpg123"])
        add("Each command plays the whole file on the test sink, nothing else playing or recording; "
            "the runs alternate which player goes first. User + sys CPU time, peak RSS (`ru_maxrss`) "
            "and voluntary context switches (how often the process went to sleep and woke) come from "
            + ("`wait4()` in a small C runner that bench.py compiles into `/tmp`, as "
               "`/usr/bin/time -v` reports them." if exact else
               "`wait4()` in Python; **peak RSS includes the harness's own size** (no C compiler "
               "for the runner)."))
        add("")
        add(f"- Refrain: `{cmdline(cpu['refrain_cmd'])}`")
        add(f"- mpg123: `{cmdline(cpu['mpg123_cmd'])}`"
            + ("" if cpu["have_mpg123"] else " — **mpg123 is not installed**; no reference"))
        add("")
        add("| run | Refrain CPU (user + sys) | Refrain peak RSS | Refrain sleeps | Refrain wall | mpg123 CPU (user + sys) | mpg123 peak RSS | mpg123 sleeps | mpg123 wall |")
        add("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")

        def cells(r):
            if r is None:
                return ["", "", "", ""]
            flag = "" if r["rc"] == 0 else f" (exit {r['rc']})"
            return [f"{r['cpu']:.3f} s ({r['user']:.3f} + {r['sys']:.3f}){flag}", f"{r['rss_mb']:.1f} MB",
                    f"{r['switches']:,}", f"{r['wall']:.2f} s"]
        for i in range(max(len(cpu["refrain"]), len(cpu["mpg123"]))):
            a = cpu["refrain"][i] if i < len(cpu["refrain"]) else None
            b = cpu["mpg123"][i] if i < len(cpu["mpg123"]) else None
            add(f"| {i + 1} | " + " | ".join(cells(a) + cells(b)) + " |")
        rc = median([r["cpu"] for r in cpu["refrain"]])
        rr = median([r["rss_mb"] for r in cpu["refrain"]])
        mc = median([r["cpu"] for r in cpu["mpg123"]]) if cpu["mpg123"] else None
        mr = median([r["rss_mb"] for r in cpu["mpg123"]]) if cpu["mpg123"] else None
        msw = median([r["switches"] for r in cpu["mpg123"]]) if cpu["mpg123"] else None
        add(f"| **median** | **{rc:.3f} s** | **{rr:.1f} MB** | {median([r['switches'] for r in cpu['refrain']]):,.0f} | "
            f"{median([r['wall'] for r in cpu['refrain']]):.2f} s | "
            f"**{fmt(mc, 3, ' s')}** | **{fmt(mr, 1, ' MB')}** | {'n/a' if msw is None else f'{msw:,.0f}'} | "
            f"{fmt(median([r['wall'] for r in cpu['mpg123']]) if cpu['mpg123'] else None, 2, ' s')} |")
        add("")
        if mc:
            add(f"Refrain / mpg123, ratio of medians: **{rc / mc:.2f}× CPU** (target ≤ 1.2×), "
                f"{rr / mr:.2f}× peak RSS.")
            add("")
        errs = [r["stderr"] for r in cpu["refrain"] + cpu["mpg123"] if r["rc"] != 0 and r["stderr"]]
        if errs:
            add(f"Some runs exited non-zero; the last message: `{errs[-1][:200]}`")
            add("")
    else:
        add(f"Not measured: {R.get('cpu_skip', '')}")
        add("")

    # ---- 2
    add("## 2. Seek: from the command to the new position heard")
    add("")
    if sk and sk.get("rows"):
        off = sk.get("offset_ms")
        add(f"`{cmdline(sk['cmd'])}` plays while `parec -d refrain_test.monitor --latency-msec=20 "
            "--file-format=wav` records (started about 2 s before, as an idle null sink starts late). "
            "Once a `position` event reports 1 s, the harness writes `seek S` on Refrain's stdin every "
            "0.55–0.80 s (random, so commands land anywhere in the player's write cycle) and stamps the "
            "monotonic time just before each write (the write itself took at most "
            f"{fmt(sk.get('stamp_gap_ms'), 2, ' ms')}). Targets are whole seconds at least 4 s from the one "
            "playing. In the recording, the tone of second S is fitted just after it starts and followed "
            "back to the first sample where it sounds: latency = that moment − the command's stamp. "
            "*Old tone ends* does the same for the tone that was playing. The last column adds the "
            f"sink's render-ahead ({fmt(off, 1, ' ms')}, read with `pactl list sinks` during the run).")
        add("")
        add("| # | seek to | playing before | old tone ends | new tone heard (as recorded) | on the sink's clock |")
        add("| --- | --- | --- | --- | --- | --- |")
        for i, r in enumerate(sk["rows"]):
            lat = r["latency"] * 1000 if r["latency"] is not None else None
            add(f"| {i + 1} | {r['target']} s | {'—' if r['before'] is None else str(r['before']) + ' s'} | "
                f"{fmt(r['old_end'] * 1000 if r['old_end'] is not None else None, 1, ' ms')} | "
                f"{fmt(lat, 1, ' ms')} | {fmt(lat + off if lat is not None and off is not None else None, 1, ' ms')}"
                f"{' — ' + r['note'] if r['note'] else ''} |")
        add("")
        add(f"New tone heard, as recorded: {stats_line(sk['latencies_ms'])} ms; on the sink's clock: "
            f"{stats_line(sk.get('latencies_pa_ms') or [])} ms. Target: median ≤ 50 ms. "
            f"Old tone ends, as recorded: {stats_line(sk['old_end_ms'])} ms after the command. "
            f"Dropouts (digital silence of 1 ms or more) from the first command to the end, "
            f"{sk.get('span_s', 0):.1f} s: "
            + (", ".join(f"{g['ms']:.1f} ms at +{g['rec_s']:.3f} s" for g in sk.get("dropouts", [])) or "none")
            + ".")
        add("")
    else:
        add(f"Not measured: {R.get('seek_skip', '')}")
        add("")

    # ---- 3
    add("## 3. Decoder throughput")
    add("")
    if de and de.get("refrain"):
        secs = de["audio_seconds"]
        add(f"Both decode the whole file ({secs:.3f} s of audio) into a WAV file in `/tmp` as fast as "
            f"they can; {len(de['refrain'])} timed runs each after one untimed warm-up run. Wall time "
            "is from spawn to exit, so it includes process start-up, shown on its own below.")
        add("")
        add(f"- Refrain: `{cmdline(de['refrain_cmd'])}`")
        add(f"- mpg123: `{cmdline(de['mpg123_cmd'])}`" + ("" if de["have_mpg123"] else " — **mpg123 is not installed**"))
        add("")
        add("| | wall, median (min–max) | × real time | CPU (user + sys), median | peak RSS |")
        add("| --- | --- | --- | --- | --- |")
        for who, label in (("refrain", "Refrain"), ("mpg123", "mpg123")):
            rs = de[who]
            if not rs:
                continue
            w = [r["wall"] for r in rs]
            add(f"| {label} | {median(w) * 1000:.0f} ms ({min(w) * 1000:.0f}–{max(w) * 1000:.0f}) | "
                f"{secs / median(w):.0f}× | {median([r['cpu'] for r in rs]) * 1000:.0f} ms | "
                f"{median([r['rss_mb'] for r in rs]):.1f} MB |")
        ip = de.get("inprocess")
        if ip:
            add(f"| Refrain in process (no start-up, no output) | {ip['ms_median']:.1f} ms (min {ip['ms_min']:.1f}) | "
                f"{ip['realtime_multiple']:.0f}× | — | — |")
        for key, cmdkey, label in (("startup", "startup_cmd", "start-up alone"),
                                   ("mpg123_startup", "mpg123_startup_cmd", "start-up alone")):
            rs = de.get(key)
            if rs:
                w = [r["wall"] for r in rs]
                add(f"| `{cmdline([Path(de[cmdkey][0]).name] + de[cmdkey][1:])}`: {label} | "
                    f"{median(w) * 1000:.0f} ms | — | {median([r['cpu'] for r in rs]) * 1000:.0f} ms | "
                    f"{median([r['rss_mb'] for r in rs]):.1f} MB |")
        add("")
        if ip:
            add(f"*In process*: `{cmdline(de['inprocess_cmd'])}` opens the file with `MP3Decoder` "
                f"(open + `mpg123_scan`: {ip['open_scan_ms_median']:.2f} ms) and reads it to the end in the "
                "player engine's 4,608-byte chunks, without an output; median of the runs after a warm-up.")
            add("")
        if "same_samples" in de:
            a, b = de["sample_counts"]
            add("The two WAV files hold " + ("exactly the same samples." if de["same_samples"] else
                f"different audio ({a} and {b} frames)."))
            add("")
    else:
        add("Not measured.")
        add("")

    # ---- 4
    add("## 4. Lyrics: parsing 10,000 lines and finding the current line")
    add("")
    if ly and ly.get("timing"):
        t = ly["timing"]
        c = ly["lrc"]
        add(f"bench.py writes a {c['lines']:,}-line LRC ({c['bytes'] / 1024:.0f} KiB, plus {c['tag_lines']} ID-tag "
            f"lines): {c['single']:,} single-stamp lines, {c['word_timed']:,} word-timed lines (A2 "
            f"`<mm:ss.xx>` before each word) and {c['multi_stamp']:,} lines with three time stamps, two "
            "of them a minute or more later (so the parser must sort); 30% of the text is Korean. "
            f"Parsed: {t['timeline_lines']:,} timeline lines and {t['timed_words']:,} timed words.")
        add("")
        add(f"`{cmdline(ly['cmd'])}` (RefrainCore, release build) times `LRCParser.parse(_:)` on the "
            f"file's text (median of {t['iterations']} after a warm-up) and `LyricTimeline(document:)`, "
            f"then makes {t['calls_per_round']:,} calls of each lookup per round (median of {t['rounds']} "
            "rounds), at uniformly random positions and at positions in playback order (evenly spaced "
            "from start to end). The reference is a bare binary search over the same line times, in "
            "the same loop.")
        add("")
        add("| what | time | target |")
        add("| --- | --- | --- |")
        add(f"| `LRCParser.parse`, 10,000 lines | {t['parse_ms_median']:.1f} ms median "
            f"({t['parse_ms_min']:.1f}–{t['parse_ms_max']:.1f}) | — |")
        add(f"| `LyricTimeline(document:)` | {t['timeline_build_ms_median']:.2f} ms median | — |")
        add(f"| `index(at:)`, random positions | {t['index_ns_random']:.1f} ns/call | well under 1 µs |")
        add(f"| `index(at:)`, playback order | {t['index_ns_ordered']:.1f} ns/call | well under 1 µs |")
        add(f"| `nextChange(after:)`, random positions | {t['next_change_ns_random']:.1f} ns/call | well under 1 µs |")
        add(f"| `nextChange(after:)`, playback order | {t['next_change_ns_ordered']:.1f} ns/call | well under 1 µs |")
        add(f"| reference: bare binary search, random positions | {t['bare_search_ns_random']:.1f} ns/call | — |")
        add(f"| the benchmark loop alone (read a position, add up) | {t['loop_overhead_ns']:.1f} ns/call | — |")
        add("")
        al = ly.get("allocs")
        if al and al.get("parse_allocations") is not None:
            add(f"Allocations, counted by a malloc/calloc/realloc/memalign shim that bench.py compiles into "
                f"`/tmp` and preloads (`{cmdline(ly['alloc_cmd'])}`; the calling thread only): one parse makes "
                f"**{al['parse_allocations']:,} allocations** "
                f"({al['parse_allocations'] / c['lines']:.1f} per file line) requesting "
                f"**{al['parse_allocated_bytes'] / 1e6:.2f} MB** in all; 1,000 calls of each lookup make "
                f"{al['lookup_allocations_per_1000']} allocations.")
        else:
            add(f"Allocations: not counted ({ly.get('alloc_error', 'shim unavailable')}).")
        add("")
    else:
        add(f"Not measured: {(ly or {}).get('error', 'refrain-bench missing')}. Build it with "
            "`swift build -c release --product refrain-bench`.")
        add("")

    # ---- 5
    add("## 5. Lyric `line` events against what is heard")
    add("")
    if le and le.get("rows"):
        main_runs = [ri for ri in le["runs"] if not ri["check"]]
        add(f"`{cmdline(le['cmd'])}`, {len(main_runs)} run{'s' if len(main_runs) != 1 else ''}, each with its "
            "own recording made as in 2. "
            "`lyrics-steps.lrc` puts line n at second 2n + 1, exactly where the tone changes. A reader "
            "thread stamps each `line` event as its JSON line arrives; the moment second 2n + 1 was heard "
            "is found by sliding the decoded file (Refrain's own `--output wav:` of steps.mp3) over the "
            "recording, which places it to a sample. Error = arrival − heard: positive means the "
            "highlight comes after the listener hears the line. *On the sink's clock* subtracts the "
            "sink's render-ahead read during the run.")
        add("")
        add("| run | parec latency | line | LRC time | event `t` | error as recorded | on the sink's clock |")
        add("| --- | --- | --- | --- | --- | --- | --- |")
        for r in le["rows"]:
            add(f"| {r['run']}{' (cross-check)' if r['check'] else ''} | {r['parec_ms']} ms | {r['index']} | "
                f"{fmt(r['lrc'], 3, ' s')} | {r['t']:.3f} s | {fmt(r['error'], 1, ' ms')} | "
                f"{fmt(r['error_pa'], 1, ' ms')}"
                f"{' — dropout at the change; heard = where the new tone resumed' if r.get('glitch') else ''} |")
        add("")
        e, pa = le["errors_ms"], le.get("errors_pa_ms") or []
        add(f"Runs at 20 ms: error as recorded {stats_line(e)} ms; on the sink's clock {stats_line(pa)} ms. "
            "Targets: |error| median ≤ 10 ms, max ≤ 30 ms.")
        add("")
        add("| run | parec latency | sink render-ahead (configured latency) | `line` error as recorded, median | on the sink's clock | `position` error as recorded, median (n) | on the sink's clock | dropouts (track position: length) |")
        add("| --- | --- | --- | --- | --- | --- | --- | --- |")
        for ri in le["runs"]:
            off = ri["offset_ms"]
            em, pm = median(ri["errors_ms"]), median(ri["position_errors_ms"])
            add(f"| {ri['run']}{' (cross-check)' if ri['check'] else ''} | {ri['parec_ms']} ms | {fmt(off, 1, ' ms')} | "
                f"{fmt(em, 1, ' ms')} | {fmt(em - off if em is not None and off is not None else None, 1, ' ms')} | "
                f"{fmt(pm, 1, ' ms')} ({len(ri['position_errors_ms'])}) | "
                f"{fmt(pm + off if pm is not None and off is not None else None, 1, ' ms')} | "
                + (", ".join(f"{fmt(g['track_s'], 3, ' s')}: {g['ms']:.1f} ms" for g in ri["dropouts"]) or "none")
                + " |")
        add("")
        add("*Dropouts* are stretches of digital silence of 1 ms or more while steps.mp3 (which never "
            "falls silent) was playing: audio that reached PulseAudio too late (a stream underrun). "
            "The `position` error is the reported `t` − the position heard when the event arrived "
            "(negative: the report is behind the sound). The cross-check run records with "
            "`parec --latency-msec=5`, which makes the null sink render less far ahead: the figures as "
            "recorded move with it, and those on the sink's clock would stay put if the correction "
            "were the whole story.")
        add("")
        pts = [(ri["offset_ms"], median(ri["errors_ms"])) for ri in le["runs"]
               if ri["offset_ms"] is not None and ri["errors_ms"]]
        if len(pts) >= 2 and pts[0][0] != pts[-1][0]:
            (b1, e1), (b2, e2) = pts[0], pts[-1]
            slope = ((e1 - b1) - (e2 - b2)) / (b1 - b2)
            add(f"Here the `line` error on the sink's clock was {e1 - b1:.1f} ms with a {b1:.1f} ms block and "
                f"{e2 - b2:.1f} ms with a {b2:.1f} ms block: {slope:.2f} ms more per ms of block. "
                + ("So part of Refrain's lag grows with the sink's latency (its audible clock runs behind "
                   "the sink's clock by a share of the block), or the recording is early by more than one "
                   "block; these runs cannot tell the two apart." if abs(slope) > 0.2 else
                   "The correction accounts for the sink's latency."))
            add("")
        L.extend(bld.section(R.get("lyric_events_loaded"), le, cmdline))
    else:
        add(f"Not measured: {R.get('lyric_skip', '')}")
        add("")

    # ---- 6-11, library
    L.extend(bt.render(R.get("tui") or {}, R.get("tmp")))
    L.extend(_library_sections(R))
    L.extend(bcv.sections(R.get("cover"), cmdline))
    if (R.get("tui") or {}).get("cover"):
        L += ["### 13b. The cover in the full-screen player: bytes and memory", ""]
        L.extend(bt.cover_session_lines(R["tui"]["cover"]))
    L.extend(bmp.sections(R.get("mpris"), cmdline))
    L.extend(brm.sections(R.get("rooms"), cmdline))
    L.extend(bsp.sections(R.get("spotify"), cmdline))
    L.extend(bly.sections(R.get("lyrics"), cmdline))
    L.extend(bbd.sections(R.get("build"), cmdline))
    L.extend(bfm.sections(R.get("formats"), cmdline))
    L.extend(bss.sections(R.get("subsonic"), cmdline))

    # ---- method
    add("## Method and calibration")
    add("")
    calib = ([sk["calib"]] if sk and sk.get("calib") else []) + (le["calib"] if le else [])
    add("- **Clock.** Every time is `time.monotonic()` in the harness (Refrain's clock is "
        "CLOCK_MONOTONIC too). Event arrivals are stamped by a reader thread as each line arrives "
        "(bench.py sets Python's thread switch interval to 0.5 ms so a stamp waits little for the "
        "GIL); seek commands are stamped just before the write to Refrain's stdin.")
    if calib:
        lag = [c["median_lag_ms"] for c in calib if c["median_lag_ms"] is not None]
        chunk = [c["chunk_ms"] for c in calib if c["chunk_ms"] is not None]
        add("- **Placing the recording on that clock** (the Recorder of `Tests/EndToEnd/harness.py`). "
            "The recorder polls the WAV file's size every few ms; a size s seen at time p means the first "
            "sample was recorded at or before p − s/rate, and the least of these bounds is taken as the "
            f"recording's start. parec delivered chunks of {fmt(median(chunk), 1, ' ms')} (median); the typical "
            f"bound lay {fmt(median(lag), 1, ' ms')} above the least one. The least bound over each "
            "recording's last third differed from that over its first third by "
            + ", ".join(fmt(c.get("drift_ms"), 2, " ms") for c in calib)
            + " (one figure per recording: seek, then lyric runs)"
            + (": the recordings neither gained nor lost samples against the clock, seeks (which "
               "flush) included." if all(c.get("drift_ms") is not None and abs(c["drift_ms"]) < 2 for c in calib)
               else ": **a recording drifted against the clock**, so its later figures are off by up to that much."))
    add("- **Recorded is not heard: the null sink renders ahead.** `module-null-sink` wakes when its "
        "clock reaches the end of what it rendered and then renders one block (its configured latency) "
        "at once; the monitor, and so parec, gets the block at that moment. Audio therefore reaches the "
        "recording up to one block before the sink's clock plays it, and the least bound above pins the "
        "recording's start one block early. PulseAudio's latency, which Refrain's audible clock uses, "
        "counts on the sink's clock, as a sound card's does (there the monitor is ahead by the card's "
        "buffer). bench.py reads the block from `pactl list sinks` (`configured … usec`) while Refrain "
        "plays and gives each latency both as recorded and shifted by it. The cross-check in 5 tests the "
        "correction: a smaller parec latency shrinks the block and moves the as-recorded errors, while "
        "the corrected ones should stay put.")
    dc = R.get("detector")
    if dc and dc.get("onset_ms"):
        o, mt = dc["onset_ms"], dc["match_ms"]
        add(f"- **The tone-change finders, checked where the truth is known.** On {len(o)} splices of the "
            f"decoded file that cut from one second to the start of another, as a seek does, fitting the "
            f"new tone and following it back (used for seeks) puts the change {median(o):+.3f} ms from the "
            f"splice (median; worst {max(o, key=abs):+.3f} ms). Sliding the decoded file over itself (used "
            f"for lyric lines) finds every whole second {median(mt):+.3f} ms off (worst {max(mt, key=abs):+.3f} ms).")
    add("- Re-run `make bench` to reproduce; `python3 scripts/bench.py --help` lists options "
        "(`--quick`, `--only 2,5`, `--only 6,7,8,9,10,11`, `--only 12`, `--only 13`, `--only 19`, `--only 20`, "
        "`--runs N`, `--library-n N`, `--formats-parts`, `--formats-kinds`, `--formats-runs`, "
        "`--subsonic-parts`)."
        + (f" This run took {R['elapsed_s'] / 60:.1f} min." if R.get("elapsed_s") else ""))
    add("")
    return "\n".join(L) + "\n"


def write_doc(text: str, out: Path) -> None:
    intro = INTRO
    if out.exists():
        old = out.read_text(encoding="utf-8")
        if MARKER in old:
            intro = old.split(MARKER, 1)[0]
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(intro.rstrip("\n") + "\n\n" + text, encoding="utf-8")


# ---------------------------------------------------------------- main

def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=3, help="runs of each 30 s playback (CPU benchmark)")
    ap.add_argument("--seeks", type=int, default=14)
    ap.add_argument("--lyric-runs", type=int, default=1,
                    help="20 s runs for the lyric-event figures (a 10 s cross-check run follows; then as "
                         "many again under stress-ng --cpu 4)")
    ap.add_argument("--quick", action="store_true", help="one playback run each, fewer seeks")
    ap.add_argument("--only", default="",
                    help="comma list of sections to run: 1-5 (audio), 6-11 (full-screen player, ctl, "
                         "recovery), 12 or lib (library scan and search), 13 (cover art), 14 (MPRIS), "
                         "15 (listening rooms), 16 (Spotify import and matching), "
                         "17 (lyrics: stamp accuracy, lyric search, romanization), "
                         "18 (the edit–run loop: a fresh clone's build, and builds with nothing changed), "
                         "19 (every format: CPU, scan, gaps, lyric lines and seeks against the reference "
                         "CLIs and cmus), 20 (a Subsonic server: Enter to first sound, search3)")
    ap.add_argument("--formats-parts", default="abcdef",
                    help="parts of section 19: a CPU and RSS, b library scan, c gaps, d lyric lines, "
                         "e seeks, f play to sound in the full-screen player")
    ap.add_argument("--formats-kinds", default="",
                    help="comma list of the formats section 19 plays (default all: "
                         + ",".join(bfm.KINDS) + ")")
    ap.add_argument("--formats-runs", type=int, default=None,
                    help="30 s plays of each format and player in 19a (default 3, 1 with --quick)")
    ap.add_argument("--subsonic-parts", default="ab",
                    help="parts of section 20: a Enter to first sound (stored, transcoded, local), "
                         "b search3 through Refrain against the server alone")
    ap.add_argument("--library-n", type=int, default=None,
                    help="MP3 files in the library scan fixture (default 10,000; 2,000 with --quick)")
    ap.add_argument("--library-tracks", type=int, default=None,
                    help="synthetic tracks for the library search figures (default 100,000; 20,000 with --quick)")
    ap.add_argument("--out", type=Path, default=DOC)
    args = ap.parse_args()
    args.passthrough = sys.argv[1:]
    if args.quick:
        args.runs, args.seeks, args.lyric_runs = 1, 10, 1
    only = {s.strip() for s in args.only.split(",") if s.strip()} or \
        {"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "lib", "13", "14", "15", "16", "17",
         "18", "19", "20"}

    binary = Path(os.environ.get("REFRAIN_BIN") or REPO / ".build" / "release" / "refrain")
    bench_bin = Path(os.environ.get("REFRAIN_BENCH_BIN") or REPO / ".build" / "release" / "refrain-bench")
    if not (binary.is_file() and os.access(binary, os.X_OK)):
        print(f"bench: no refrain binary at {binary}: build it (swift build -c release) or set REFRAIN_BIN",
              file=sys.stderr)
        return 1
    if only - {"13", "16", "18", "19", "20"} and (not STEPS.exists() or not STEPS_LRC.exists()):
        print(f"bench: fixtures missing: run scripts/make-test-fixtures {rel(FIXTURES)}", file=sys.stderr)
        return 1

    # Stamps taken on reader threads wait for the GIL; keep that wait short.
    sys.setswitchinterval(0.0005)
    started = time.monotonic()
    tmp = Path(tempfile.mkdtemp(prefix="refrain-bench."))
    ctx = {"bin": binary, "tmp": tmp, "home": tmp / "home", "bench_bin_path": bench_bin,
           "bench_bin": bench_bin if bench_bin.is_file() and os.access(bench_bin, os.X_OK) else None}
    runner = build_runner(tmp)
    if runner:
        _RUNNER.append(runner)
    else:
        log("no C compiler: peak RSS figures will include the harness's own size")
    ctx["refrain"] = Refrain(binary, ctx["home"])
    ctx["refrain_env"] = ctx["refrain"].env
    sink = os.environ.get("REFRAIN_TEST_SINK")
    pulse_ok = bool(os.environ.get("PULSE_SERVER") and sink and
                    subprocess.run(["pactl", "info"], capture_output=True).returncode == 0)
    ctx["sink"] = sink
    R: dict = {"bin": binary, "tmp": str(tmp)}
    ctx["pulse_ok"] = pulse_ok
    no_pulse = "no private PulseAudio server (run under scripts/with-test-pulse)"
    m = machine()
    log(f"{m['cpu']}, nproc {m['nproc']}; refrain {binary}; refrain-bench {ctx['bench_bin'] or 'missing'}")
    if not shutil.which("mpg123"):
        log("mpg123 is not installed: no reference figures")
    try:
        if "3" in only or "5" in only:
            R["decode"] = bench_decode(ctx, runs=5)
            R["detector"] = detector_check(ctx)
        if "4" in only:
            R["lyrics_core"] = bench_lyrics_core(ctx, iterations=15)
        if pulse_ok:
            if "2" in only:
                R["seek"] = bench_seek(ctx, args.seeks)
                log(f"seek: median {fmt(median(R['seek']['latencies_ms']), 1)} ms")
            if "5" in only:
                R["lyric_events"] = bench_lyric_events(ctx, args.lyric_runs)
                log(f"lyric events: median |error| "
                    f"{fmt(median([abs(x) for x in R['lyric_events']['errors_ms']]), 1)} ms")
                R["lyric_events_loaded"] = bld.run(
                    lambda: bench_lyric_events(ctx, args.lyric_runs, crosscheck=False), log)
            if "2" in only or "5" in only:
                R["mpg123_dropouts"] = bench_mpg123_dropouts(ctx)
            if "1" in only:
                R["cpu"] = bench_cpu(ctx, args.runs)
        else:
            R["cpu_skip"] = R["seek_skip"] = R["lyric_skip"] = no_pulse
            log(no_pulse + ": skipping 1, 2 and 5")
        if "3" not in only:
            R.pop("decode", None)
        tui_keys = only & {"6", "7", "8", "9", "10", "11", "13"}
        if tui_keys:
            R["tui"] = bt.run(ctx, tui_keys, quick=args.quick)
        if "14" in only:
            R["mpris"] = bmp.run(ctx, quick=args.quick)
        if "15" in only:
            R["rooms"] = brm.run(ctx, quick=args.quick, log=log)
        if "16" in only:
            R["spotify"] = bsp.run(ctx, quick=args.quick, log=log)
        if "17" in only:
            R["lyrics"] = bly.run(ctx, quick=args.quick, log=log)
        if "18" in only:
            R["build"] = bbd.run(ctx, quick=args.quick, log=log)
        if "lib" in only or "12" in only:
            R["library"] = bench_library(ctx, args)
        if "19" in only:
            R["formats"] = bfm.run(ctx, sys.modules[__name__], quick=args.quick, log=log,
                                   parts=args.formats_parts, library_files=args.library_n or 10_000,
                                   kinds=[k for k in args.formats_kinds.split(",") if k], runs=args.formats_runs)
        if "20" in only:
            R["subsonic"] = bss.run(ctx, sys.modules[__name__], quick=args.quick, log=log,
                                    parts=args.subsonic_parts, library_files=args.library_n or 10_000)
        if "13" in only:
            R["cover"] = bcv.run(bench_bin, tmp / "cover", runs=5 if args.quick else 15)
            shutil.rmtree(tmp / "cover", ignore_errors=True)
        R["elapsed_s"] = time.monotonic() - started
        m["load_end"] = _loadavg()
        # The raw results first: a figure that fails to render is not lost with them.
        (tmp / "results.json").write_text(json.dumps({**R, "machine": m}, default=str, indent=1))
        text = render(m, R, args)
        write_doc(text, args.out)
        log(f"wrote {rel(args.out)} in {time.monotonic() - started:.0f} s (raw results: {tmp}/results.json)")
    finally:
        ctx["refrain"].cleanup()
        for f in tmp.iterdir():
            if f.is_file() and f.name != "results.json":
                f.unlink()
        shutil.rmtree(tmp / "home", ignore_errors=True)
        shutil.rmtree(tmp / "tui", ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
