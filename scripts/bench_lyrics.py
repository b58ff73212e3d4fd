#!/usr/bin/env python3
"""make bench, section 17: lyrics — stamp accuracy, lyric search, romanization.

- **Stamp accuracy** (tap-to-sync, issue 19; the method of
  Tests/EndToEnd/test_lyrics_sync.py): the full-screen `refrain --output pulse` runs in a
  100×30 tmux pane on the private PulseAudio server and plays steps.mp3 (second k sounds
  300 + 50·k Hz) with a plain 30-line sidecar; the test sink's monitor is recorded. After
  `lyrics sync start` (which plays from 0:00), STAMPS stamps are sent at seeded-random
  moments 0.25–0.45 s apart over the control socket, speaking the one-line protocol of
  `refrain ctl` directly (a request line, an answer line `{"line":N,"ms":MS}`), so the
  moment of each request is known to the 1–3 ms the exchange takes. Then CTL_STAMPS
  stamps go through the `refrain ctl lyrics sync stamp` process itself, for reference: its
  start-up makes the moment known only to the 40–80 ms the process takes. Each stamp's
  error is its `ms` minus the track position heard at the exchange's midpoint: the whole
  seconds of steps.mp3 are placed in the recording to the sample by matching the decoded
  file (as for section 5), and the position heard is the last whole second before plus the
  time since. Errors are given as recorded and on the sink's clock (plus the null sink's
  configured latency, as section 5 does: the monitor gets audio up to one block before the
  sink's clock plays it). Target: median |error| ≤ 10 ms.
- **Lyric search**: `refrain-bench lyric-search --tracks 10000 --json`, which prints
  `{"p50_ms":…,"p99_ms":…,"queries":N}`. Target: p99 ≤ 5 ms.
- **Romanization**: `refrain-bench romanize --lines 100 --json` (a 100-line Korean lyric),
  which prints `{"ms":…}`. It must be negligible next to a frame.

Measurements, not tests: a figure that cannot be taken is reported with the reason.

    scripts/with-test-pulse python3 scripts/bench_lyrics.py [--quick] [--markdown]
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "Tests" / "EndToEnd"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import audio_analysis as aa  # noqa: E402
import bench_audio as ba  # noqa: E402
from harness import Recorder  # noqa: E402
from test_tui import TUI  # noqa: E402

STEPS = REPO / "Tests" / "Fixtures" / "generated" / "steps.mp3"
FREQS = [300 + 50 * k for k in range(30)]
STAMPS = 24                  # over the control socket
CTL_STAMPS = 6               # through the `refrain ctl` process, for reference
SEED = 17
GAP = (0.25, 0.45)           # s between stamps
FIRST = 1.15                 # s after `sync start`: after the first whole second is heard
STAMP_TARGET_MS = 10.0       # median |error|
SEARCH_TRACKS = 10_000
SEARCH_TARGET_MS = 5.0       # p99
ROMANIZE_LINES = 100
FRAME_MS = 1000 / 60         # a frame at 60 Hz, the yardstick for "negligible"


def _log(msg: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def median(xs):
    return statistics.median(xs) if xs else None


def _reason(stderr: str) -> str:
    lines = [x.strip() for x in (stderr or "").splitlines() if x.strip()]
    for x in lines:
        if re.search(r"error|unknown|unexpected|usage", x, re.I):
            return x[:200]
    return lines[0][:200] if lines else "no output"


def sink_latency(sink: str) -> float | None:
    """The sink's configured latency in ms (how far the null sink renders ahead)."""
    out = subprocess.run(["pactl", "list", "sinks"], capture_output=True, text=True, timeout=10).stdout
    for part in out.split("Sink #"):
        if re.search(rf"^\s*Name:\s*{re.escape(sink)}\s*$", part, re.M):
            m = re.search(r"^\s*Latency:\s*\d+ usec, configured (\d+) usec", part, re.M)
            return int(m.group(1)) / 1000 if m else None
    return None


# ---------------------------------------------------------------- stamp accuracy

class _Socket:
    """The player's control socket, spoken to as `refrain ctl` does: a line out, a line back."""

    def __init__(self, path: Path):
        self.path = path

    def ask(self, request: str) -> tuple[str, float, float]:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.connect(str(self.path))
            reader = s.makefile("rb")
            before = time.monotonic()
            s.sendall((request + "\n").encode())
            line = reader.readline()
            after = time.monotonic()
        text = line.decode(errors="replace").strip()
        if text.startswith("error: "):
            raise RuntimeError(f"`{request}`: {text[7:]}")
        return text, before, after


def _decode_reference(binary: Path, env: dict, out: Path) -> aa.Audio | None:
    done = subprocess.run([str(binary), "play", str(STEPS), "--output", f"wav:{out}"], env=env,
                          capture_output=True, timeout=120)
    if done.returncode != 0 or not out.exists():
        return None
    return aa.read_wav(str(out))


def _marks(recording, ref: aa.Audio | None, after: float) -> tuple[list[tuple[int, float]], int]:
    """(second k, where its start was heard in the recording) for each whole second heard after
    `after` (seconds into the recording), and how many were placed by the tone alone."""
    changes = aa.step_changes(recording.audio, FREQS, start=max(0.0, after - 0.05))
    out, rough = [], 0
    for c in changes:
        if c.step is None or c.step < 1 or c.t < after:
            continue
        b = ba.boundary_in_recording(recording.audio, ref, float(c.step), c.t) if ref is not None else None
        if b is not None and b["error"] < 0.05:
            out.append((c.step, b["t"]))
        else:
            out.append((c.step, c.t))
            rough += 1
    # Only the run of consecutive seconds from the seek on counts.
    run: list[tuple[int, float]] = []
    for k, t in out:
        if run and k != run[-1][0] + 1:
            break
        run.append((k, t))
    return run, rough


def _heard(marks: list[tuple[int, float]], rec_t: float) -> float | None:
    prior = [(k, t) for k, t in marks if t <= rec_t]
    if not prior:
        return None
    k, t = prior[-1]
    return k + (rec_t - t) if rec_t - t <= 1.05 else None


def bench_stamps(binary: Path, work: Path, log=_log) -> dict:
    sink = os.environ.get("REFRAIN_TEST_SINK")
    R: dict = {"stamps": STAMPS, "ctl_stamps": CTL_STAMPS, "seed": SEED,
               "argv": [str(binary), "--output", "pulse"]}
    if not (os.environ.get("PULSE_SERVER") and sink):
        R["skipped"] = "no private PulseAudio server (run under scripts/with-test-pulse)"
        return R
    if not shutil.which("tmux"):
        R["skipped"] = "tmux is not installed"
        return R
    work.mkdir(parents=True, exist_ok=True)
    shutil.copy(STEPS, work / "song.mp3")
    lines = STAMPS + CTL_STAMPS
    (work / "song.lrc").write_text("".join(f"Line {i + 1}\n" for i in range(lines)), encoding="utf-8")
    rng = random.Random(SEED)
    offsets, t = [], FIRST
    for _ in range(lines):
        offsets.append(t)
        t += rng.uniform(*GAP)
    rec = Recorder(sink, work / "recording.wav")
    tui = TUI(binary, work / "home", "bench-lyrics")
    env = None
    stamps: list[dict] = []
    try:
        rec.start()
        tui.start("--output", "pulse")
        env = tui.run_env()
        sock = _Socket(Path(env["XDG_RUNTIME_DIR"]) / "refrain" / "socket")
        deadline = time.monotonic() + 20
        while True:
            try:
                sock.ask("status")
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the player's control socket never answered; stderr: {tui.stderr()[-300:]}")
                time.sleep(0.05)
        sock.ask(f"queue add {work / 'song.mp3'}")
        sock.ask("play")
        while json.loads(sock.ask("status")[0]).get("position", 0) < 2.2:
            if time.monotonic() > deadline:
                raise RuntimeError("playback did not reach 0:02.2")
            time.sleep(0.02)
        R["sink_configured_ms"] = sink_latency(sink)
        _, _, started = sock.ask("lyrics sync start")
        for i, offset in enumerate(offsets):
            while time.monotonic() < started + offset:
                time.sleep(0.0005)
            if i < STAMPS:
                text, before, after = sock.ask("lyrics sync stamp")
                via = "socket"
            else:
                before = time.monotonic()
                done = subprocess.run([str(binary), "ctl", "lyrics", "sync", "stamp"], env=env,
                                      capture_output=True, text=True, timeout=10)
                after = time.monotonic()
                if done.returncode != 0:
                    raise RuntimeError(f"`refrain ctl lyrics sync stamp` failed: {_reason(done.stderr)}")
                text, via = done.stdout.strip(), "ctl"
            answer = json.loads(text)
            stamps.append({"via": via, "line": answer["line"], "ms": answer["ms"], "before": before, "after": after})
        sock.ask("lyrics sync cancel")
        recording = rec.stop(tail=0.2)
        ref = _decode_reference(binary, env, work / "reference.wav")
        marks, rough = _marks(recording, ref, recording.at(started))
        R["placed_by_tone_only"] = rough
        R["reference"] = ref is not None
        offset_ms = R.get("sink_configured_ms")
        for s in stamps:
            heard = _heard(marks, recording.at((s["before"] + s["after"]) / 2))
            s["exchange_ms"] = (s["after"] - s["before"]) * 1000
            s["error_ms"] = None if heard is None else s["ms"] - heard * 1000
            s["error_pa_ms"] = None if s["error_ms"] is None or offset_ms is None else s["error_ms"] + offset_ms
            del s["before"], s["after"]
        R["rows"] = stamps
        got = [s for s in stamps if s["via"] == "socket" and s["error_ms"] is not None]
        if len(got) < STAMPS * 0.8:
            R["skipped"] = f"only {len(got)} of {STAMPS} stamps could be placed in the recording"
        m = median([abs(s["error_ms"]) for s in got])
        log(f"stamp accuracy: median |error| {'n/a' if m is None else f'{m:.1f}'} ms "
            f"as recorded over {len(got)} stamps (sink block {offset_ms} ms)")
    except Exception as exc:  # noqa: BLE001 — a benchmark reports why, and goes on
        R["skipped"] = f"{type(exc).__name__}: {exc}"
        R["rows"] = stamps
    finally:
        try:
            if env is not None:
                subprocess.run([str(binary), "ctl", "quit"], env=env, capture_output=True, timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            pass
        time.sleep(0.3)
        tui.close()
        rec.kill()
    return R


# ---------------------------------------------------------------- refrain-bench subcommands

def _bench_json(bench_bin: Path | None, argv: list[str], need: tuple[str, ...], timeout: float = 600) -> dict:
    R: dict = {"argv": ["refrain-bench"] + argv}
    if bench_bin is None:
        R["skipped"] = "no refrain-bench binary (build the release products)"
        return R
    t0 = time.monotonic()
    try:
        done = subprocess.run([str(bench_bin)] + argv, capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        R["skipped"] = f"`refrain-bench {argv[0]}` ran over {timeout:.0f} s"
        return R
    R["process_s"] = time.monotonic() - t0
    out = None
    for line in reversed(done.stdout.strip().splitlines()):
        try:
            out = json.loads(line)
            break
        except ValueError:
            continue
    if done.returncode != 0 or not isinstance(out, dict) or any(k not in out for k in need):
        if done.returncode != 0 and "usage:" in done.stderr and f"refrain-bench {argv[0]}" not in done.stderr:
            why = f"this refrain-bench has no `{argv[0]}` subcommand (it printed its usage)"
        elif done.returncode != 0:
            why = _reason(done.stderr)
        else:
            why = f"no JSON line with {', '.join(need)} on stdout"
        R["skipped"] = f"`refrain-bench {argv[0]}` exited {done.returncode}: {why}"
        return R
    R["result"] = out
    return R


def bench_search(bench_bin: Path | None, log=_log) -> dict:
    R = _bench_json(bench_bin, ["lyric-search", "--tracks", str(SEARCH_TRACKS), "--json"],
                    ("p50_ms", "p99_ms"))
    log(f"lyric search: {R.get('result') or R.get('skipped')}")
    return R


def bench_romanize(bench_bin: Path | None, log=_log) -> dict:
    R = _bench_json(bench_bin, ["romanize", "--lines", str(ROMANIZE_LINES), "--json"], ("ms",))
    log(f"romanize: {R.get('result') or R.get('skipped')}")
    return R


# ---------------------------------------------------------------- run

def run(ctx: dict, quick: bool = False, log=_log) -> dict:
    """Section 17. `ctx` as bench.py builds it: bin, tmp, bench_bin (None when missing)."""
    binary = Path(ctx["bin"])
    bench_bin = ctx.get("bench_bin")
    if bench_bin is None and "bench_bin" not in ctx:
        candidate = binary.parent / "refrain-bench"
        bench_bin = candidate if candidate.is_file() and os.access(candidate, os.X_OK) else None
    work = Path(ctx["tmp"]) / "lyrics"
    R: dict = {"quick": quick}
    try:
        R["stamps"] = bench_stamps(binary, work, log)
        R["search"] = bench_search(Path(bench_bin) if bench_bin else None, log)
        R["romanize"] = bench_romanize(Path(bench_bin) if bench_bin else None, log)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return R


# ---------------------------------------------------------------- render

def _stamp_figures(st: dict | None) -> dict | None:
    if not st or st.get("skipped") or not st.get("rows"):
        return None
    sock = [r for r in st["rows"] if r["via"] == "socket" and r["error_ms"] is not None]
    ctl = [r for r in st["rows"] if r["via"] == "ctl" and r["error_ms"] is not None]
    if not sock:
        return None

    def fig(rows, key):
        xs = [r[key] for r in rows if r.get(key) is not None]
        return {"median_abs": median([abs(x) for x in xs]), "max_abs": max((abs(x) for x in xs), default=None),
                "median": median(xs), "n": len(xs)} if xs else None

    return {"rec": fig(sock, "error_ms"), "pa": fig(sock, "error_pa_ms"), "ctl_rec": fig(ctl, "error_ms"),
            "ctl_pa": fig(ctl, "error_pa_ms"), "exchange": median([r["exchange_ms"] for r in sock]),
            "ctl_exchange": median([r["exchange_ms"] for r in ctl]), "n": len(sock)}


def _within(value, target) -> str:
    if value is None:
        return "not measured"
    return "met" if value <= target else "**missed**"


def summary_rows(R: dict | None, within=None) -> list[str]:
    if not R:
        return []
    rows = []
    st = R.get("stamps") or {}
    f = _stamp_figures(st)
    if f is None:
        rows.append(f"| 17 | tap-to-sync stamp − position heard, median \\|error\\| | not measured | | "
                    f"≤ {STAMP_TARGET_MS:g} ms | {st.get('skipped', 'no stamps')} |")
    else:
        rec, pa = f["rec"], f["pa"]
        value = (f"{pa['median_abs']:.1f} ms on the sink's clock ({rec['median_abs']:.1f} ms as recorded)"
                 if pa else f"{rec['median_abs']:.1f} ms as recorded")
        rows.append(f"| 17 | tap-to-sync stamp − position heard, median \\|error\\| (n = {f['n']}) | {value} | — | "
                    f"≤ {STAMP_TARGET_MS:g} ms | "
                    + (f"{_within(pa['median_abs'], STAMP_TARGET_MS)} on the sink's clock; " if pa else "")
                    + f"{_within(rec['median_abs'], STAMP_TARGET_MS)} as recorded |")
        value = (f"{pa['max_abs']:.1f} ms on the sink's clock ({rec['max_abs']:.1f} ms as recorded)"
                 if pa else f"{rec['max_abs']:.1f} ms as recorded")
        rows.append(f"| 17 | same, max \\|error\\| | {value} | — | ≤ 30 ms (the end-to-end test's bound) | "
                    + (f"{_within(pa['max_abs'], 30)} on the sink's clock; " if pa else "")
                    + f"{_within(rec['max_abs'], 30)} as recorded |")
    s = R.get("search") or {}
    if s.get("result"):
        p99 = s["result"]["p99_ms"]
        rows.append(f"| 17 | lyric search over {SEARCH_TRACKS:,} tracks' lyrics, p99 "
                    f"({s['result'].get('queries', '?')} queries) | {p99:.2f} ms (p50 {s['result']['p50_ms']:.2f} ms) "
                    f"| — | ≤ {SEARCH_TARGET_MS:g} ms | {_within(p99, SEARCH_TARGET_MS)} |")
    else:
        rows.append(f"| 17 | lyric search over {SEARCH_TRACKS:,} tracks' lyrics, p99 | not measured | | "
                    f"≤ {SEARCH_TARGET_MS:g} ms | {s.get('skipped', '')} |")
    r = R.get("romanize") or {}
    if r.get("result"):
        ms = r["result"]["ms"]
        rows.append(f"| 17 | romanizing a {ROMANIZE_LINES}-line Korean lyric | {ms:.3f} ms | a 60 Hz frame: "
                    f"{FRAME_MS:.1f} ms | negligible next to a frame | "
                    f"{'met' if ms <= FRAME_MS / 10 else '**not negligible**'} ({100 * ms / FRAME_MS:.1f}% of a frame) |")
    else:
        rows.append(f"| 17 | romanizing a {ROMANIZE_LINES}-line Korean lyric | not measured | | negligible next to "
                    f"a frame | {r.get('skipped', '')} |")
    return rows


def sections(R: dict | None, cmdline) -> list[str]:
    if not R:
        return []
    L = ["## 17. Lyrics: stamp accuracy, lyric search, romanization", ""]
    st = R.get("stamps") or {}
    L += ["### Tap-to-sync: stamps against what is heard", ""]
    f = _stamp_figures(st)
    if f is None:
        L += [f"Not measured: {st.get('skipped', 'no stamps')}", ""]
    else:
        rec, pa, crec, cpa = f["rec"], f["pa"], f["ctl_rec"], f["ctl_pa"]
        block = st.get("sink_configured_ms")
        L += [f"`{cmdline(st['argv'])}` in a 100×30 tmux pane on the private PulseAudio server plays steps.mp3 "
              f"with a plain {STAMPS + CTL_STAMPS}-line sidecar while the test sink's monitor is recorded. "
              f"`lyrics sync start` (which plays from 0:00) is sent at 0:02.2; from {FIRST:g} s later, "
              f"{STAMPS} stamps are sent {GAP[0]:g}–{GAP[1]:g} s apart (seeded at {SEED}) over the control socket, "
              "speaking `refrain ctl`'s one-line protocol directly, and then "
              f"{CTL_STAMPS} through the `refrain ctl lyrics sync stamp` process. A stamp's error is its answered "
              "`ms` minus the track position heard at the midpoint of the exchange: steps.mp3's whole seconds are "
              "placed in the recording to the sample by matching the decoded file"
              + (f" ({st['placed_by_tone_only']} placed by the tone change alone)" if st.get("placed_by_tone_only")
                 else "")
              + ", and the position heard is the last whole second before plus the time since."
              + (" *On the sink's clock* adds the null sink's configured latency "
                 f"({block:g} ms here), by which its monitor runs ahead of what the sink's clock, and Refrain's "
                 "audible clock with it, counts as played (see *Method and calibration*)."
                 if block is not None else ""), "",
              "| figure | as recorded | on the sink's clock |", "| --- | ---: | ---: |",
              f"| control socket: median \\|error\\| (n = {rec['n']}) | {rec['median_abs']:.1f} ms | "
              + (f"{pa['median_abs']:.1f} ms |" if pa else "— |"),
              f"| control socket: max \\|error\\| | {rec['max_abs']:.1f} ms | "
              + (f"{pa['max_abs']:.1f} ms |" if pa else "— |"),
              f"| control socket: median signed error (+ = stamp later than heard) | {rec['median']:+.1f} ms | "
              + (f"{pa['median']:+.1f} ms |" if pa else "— |"),
              f"| control socket: the exchange (request written → answer read), median | "
              f"{f['exchange']:.1f} ms | |"]
        if crec:
            L += [f"| `refrain ctl` process: median \\|error\\| against the call's midpoint (n = {crec['n']}) | "
                  f"{crec['median_abs']:.1f} ms | " + (f"{cpa['median_abs']:.1f} ms |" if cpa else "— |"),
                  f"| `refrain ctl` process: max \\|error\\| | {crec['max_abs']:.1f} ms | "
                  + (f"{cpa['max_abs']:.1f} ms |" if cpa else "— |"),
                  f"| `refrain ctl` process: the call (start → exit), median | {f['ctl_exchange']:.1f} ms | |"]
        L += [f"| target: median \\|error\\| ≤ {STAMP_TARGET_MS:g} ms | "
              f"{_within(rec['median_abs'], STAMP_TARGET_MS)} | "
              + (f"{_within(pa['median_abs'], STAMP_TARGET_MS)} |" if pa else "— |"), ""]
        L += ["The `refrain ctl` rows are the same measurement through the command a script would run: the "
              "process's start-up, most of the call, comes before the request, so the call's midpoint is early "
              "and those errors say more about the process than about the stamp.", ""]
    L += [f"### Lyric search over {SEARCH_TRACKS:,} tracks' lyrics", ""]
    s = R.get("search") or {}
    if s.get("result"):
        res = s["result"]
        L += [f"`{cmdline(s['argv'])}`: p50 {res['p50_ms']:.2f} ms, p99 {res['p99_ms']:.2f} ms over "
              f"{res.get('queries', '?')} queries (the process took {s['process_s']:.1f} s). Target: p99 ≤ "
              f"{SEARCH_TARGET_MS:g} ms: {_within(res['p99_ms'], SEARCH_TARGET_MS)}.", ""]
    else:
        L += [f"Not measured: {s.get('skipped', 'no run')}", ""]
    L += [f"### Romanizing a {ROMANIZE_LINES}-line Korean lyric", ""]
    r = R.get("romanize") or {}
    if r.get("result"):
        ms = r["result"]["ms"]
        L += [f"`{cmdline(r['argv'])}`: {ms:.3f} ms, {100 * ms / FRAME_MS:.2f}% of a 60 Hz frame "
              f"({FRAME_MS:.1f} ms).", ""]
    else:
        L += [f"Not measured: {r.get('skipped', 'no run')}", ""]
    return L


if __name__ == "__main__":
    import tempfile

    sys.setswitchinterval(0.0005)
    tmp = Path(tempfile.mkdtemp(prefix="refrain-bench-lyrics."))
    binary = Path(os.environ.get("REFRAIN_BIN") or REPO / ".build" / "release" / "refrain")
    bench = Path(os.environ.get("REFRAIN_BENCH_BIN") or REPO / ".build" / "release" / "refrain-bench")
    ctx = {"bin": binary, "tmp": tmp,
           "bench_bin": bench if bench.is_file() and os.access(bench, os.X_OK) else None}
    try:
        out = run(ctx, quick="--quick" in sys.argv)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if "--markdown" in sys.argv:
        def _cmdline(argv) -> str:
            return " ".join(str(a).replace(str(REPO) + "/", "") for a in argv)
        print("\n".join(["| # | figure | Refrain | reference | target | vs target |",
                         "| --- | --- | --- | --- | --- | --- |"] + summary_rows(out) + [""] + sections(out, _cmdline)))
    else:
        print(json.dumps(out, indent=1, default=str))
