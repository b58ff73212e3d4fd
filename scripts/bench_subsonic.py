"""Section 20 of `make bench`: Refrain against a real Subsonic server (supysonic on loopback).

- **a, Enter to first sound**: the full-screen player with `--provider subsonic`, a FLAC track
  found with `/` and selected; `Enter` (tmux send-keys) to the first sample heard on the private
  PulseAudio. The track as stored; transcoded by the server to Opus and to MP3 at 96 kbit/s
  (`[subsonic] transcode`, `max_bitrate` in config.toml, as the end-to-end tests write them),
  each press a new transcode (supysonic's cache of finished transcodes emptied first); Opus
  again from that cache; and the same file, scanned into the local library, under
  `--provider local`. The server's own share: the same `stream.view` requests by http.client,
  timed to their first byte, and ffmpeg alone as supysonic runs it.
- **b, `search3`**: `refrain-bench subsonic-search` times the provider's track search in-process
  (stored login, no process start-up) against a server holding 10,000 tracks; `--transport-only`
  the same request without decoding; the same requests sent by Python's http.client (a new
  connection each, as curl) give the server's own time. The bench's server writes down its own
  time for every call, so each call splits into the server's part and the rest; a separate
  process samples the machine's CPU pressure, and each client's CPU time is counted.

The server is supysonic 0.7.9 (Tests/EndToEnd/subsonic_harness.py's venv) behind the tests'
token layer, with its audio unpaced (scripts/bench_subsonic_server.py). The 10,000-track folder
(one short FLAC copied, its tags rewritten by mutagen) and the server's scanned database are
made once and kept under /tmp/refrain-bench-subsonic/KEY, KEY a hash of the recipe.
"""

from __future__ import annotations

import hashlib
import http.client
import json
import os
import resource
import shutil
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "Tests" / "EndToEnd"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_formats as bfm  # noqa: E402
import bench_tui as bt  # noqa: E402
import subsonic_harness as sh  # noqa: E402
from harness import Recorder  # noqa: E402

WORDS = ["harbour", "lantern", "ferry", "meadow", "copper", "orbit", "willow", "static", "ember", "tide"]
QUERIES = ["lantern", "song 4242", "copper tide"]
PLAY_TITLE = "Bench Steps"
RECIPE = "subsonic-v1: {files} FLAC copies of a 1 s 440 Hz tone, tags Song N WORD / Artist N%500 / " \
         "Album N//10; play track steps 20 s; supysonic 0.7.9"


def _pct(xs, q):
    xs = sorted(x for x in xs if x is not None)
    if not xs:
        return None
    return xs[min(len(xs) - 1, max(0, int(np.ceil(q / 100 * len(xs))) - 1))]


def make_server_root(files: int, log) -> Path:
    """The music folder (files + the play track) and supysonic's scanned data, made once."""
    key = hashlib.sha256(RECIPE.format(files=files).encode()).hexdigest()[:12]
    root = Path(os.environ.get("REFRAIN_BENCH_SUBSONIC") or "/tmp/refrain-bench-subsonic") / key
    music, data = root / "music", root / "data"
    if (root / ".done").exists():
        return root
    shutil.rmtree(root, ignore_errors=True)
    (music / "Bench Quartet" / "Steps").mkdir(parents=True)
    python = sh.ensure_venv()
    t0 = time.monotonic()
    wav = root / "tone.wav"
    sh.tone_wav(wav, 1, (440,))
    base = root / "base.flac"
    subprocess.run(["flac", "-s", "-f", "-o", str(base), str(wav)], check=True)
    sh.tone_wav(wav, 20, sh.STEPS)
    subprocess.run(["flac", "-s", "-f", "-o", str(music / "Bench Quartet" / "Steps" / "01 Bench Steps.flac"),
                    f"--tag=TITLE={PLAY_TITLE}", "--tag=ARTIST=Bench Quartet", "--tag=ALBUM=Steps",
                    "--tag=TRACKNUMBER=1", str(wav)], check=True)
    wav.unlink()
    script = (
        "import shutil, sys\n"
        "from pathlib import Path\n"
        "from mutagen.flac import FLAC\n"
        "base, music, files = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])\n"
        f"words = {WORDS!r}\n"
        "for n in range(files):\n"
        "    d = music / f'Artist {n % 500:03d}' / f'Album {n // 10:04d}'\n"
        "    d.mkdir(parents=True, exist_ok=True)\n"
        "    p = d / f'{n % 10 + 1:02d} Song {n}.flac'\n"
        "    shutil.copyfile(base, p)\n"
        "    f = FLAC(p)\n"
        "    f['title'] = f'Song {n} {words[n % 10]} {words[(n // 10) % 10]}'\n"
        "    f['artist'] = f'Artist {n % 500:03d}'\n"
        "    f['album'] = f'Album {n // 10:04d}'\n"
        "    f['tracknumber'] = str(n % 10 + 1)\n"
        "    f.save()\n")
    subprocess.run([str(python), "-c", script, str(base), str(music), str(files)], check=True)
    log(f"subsonic: {files} tagged FLAC files in {time.monotonic() - t0:.0f} s")
    t1 = time.monotonic()
    server = start_server(root)
    server.stop()
    log(f"subsonic: supysonic scanned {files + 1} files in {time.monotonic() - t1:.0f} s")
    (root / ".done").write_text(RECIPE.format(files=files))
    return root


def start_server(root: Path) -> sh.SubsonicServer:
    """supysonic on root/data (scanning root/music the first time), audio unpaced."""
    server = sh.SubsonicServer(root)
    python = sh.ensure_venv()
    server.proc = subprocess.Popen(
        [str(python), str(REPO / "scripts" / "bench_subsonic_server.py"), str(server.data), str(server.music),
         sh.USER, sh.PASSWORD, sh.API_KEY],
        stdout=subprocess.PIPE, stderr=open(root / "server.err", "ab"), text=True)
    line = server.proc.stdout.readline()
    if not line.startswith("READY"):
        raise RuntimeError(f"supysonic did not start: {line!r}")
    server.ports = {k: int(v) for k, v in (p.split("=") for p in line.split()[1:])}
    return server


def login(binary: Path, env: dict, server: sh.SubsonicServer) -> None:
    run = subprocess.run([str(binary), "subsonic", "login", server.url(), "--user", sh.USER, "--password-stdin"],
                         env=dict(os.environ, **env), input=sh.PASSWORD + "\n", capture_output=True, text=True,
                         timeout=60)
    if run.returncode != 0:
        raise RuntimeError(f"login failed: {run.stdout}{run.stderr}")


# ---------------------------------------------------------------- b: search3

# Reads, every 5 ms until stopped, the runnable tasks (/proc/loadavg's fourth field) and the
# kernel's CPU pressure stall total (/proc/pressure/cpu, µs some task waited for a CPU);
# prints `MONOTONIC RUNNABLE STALL_US` lines when it gets SIGTERM. A process of its own, so
# that it takes no GIL from the harness's http.client timings.
SAMPLER = r"""
import signal, sys, time
rows, stop = [], []
signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
def psi():
    try:
        return int(open('/proc/pressure/cpu').readline().split('total=')[1])
    except (OSError, IndexError, ValueError):
        return -1
print('ready', flush=True)
while not stop:
    run = int(open('/proc/loadavg').read().split()[3].split('/')[0])
    rows.append(f'{time.monotonic():.6f} {run} {psi()}')
    time.sleep(0.005)
sys.stdout.write('\n'.join(rows) + '\n')
"""


class LoadSampler:
    """Runnable tasks and CPU pressure on the machine, sampled every 5 ms in another process."""

    def __init__(self):
        self.proc = subprocess.Popen([sys.executable, "-c", SAMPLER], stdout=subprocess.PIPE, text=True)
        self.proc.stdout.readline()
        self.t = self.run = self.stall = None

    def stop(self) -> None:
        self.proc.terminate()
        out, _ = self.proc.communicate(timeout=30)
        rows = np.array([[float(x) for x in line.split()] for line in out.splitlines() if line.strip()])
        self.t, self.run, self.stall = rows[:, 0], rows[:, 1], rows[:, 2]

    def during(self, start: float, end: float) -> tuple[float | None, float | None]:
        """The most runnable tasks seen in [start, end] (monotonic s), and the CPU pressure's
        share of that time (stall µs over the samples around it / wall µs)."""
        if self.t is None:
            return None, None
        i0, i1 = np.searchsorted(self.t, start), np.searchsorted(self.t, end)
        if i1 <= i0 or i0 == 0 or i1 >= len(self.t):
            return None, None
        most = float(self.run[i0:i1].max())
        a, b = i0 - 1, i1
        share = None if self.stall[a] < 0 else (self.stall[b] - self.stall[a]) / ((self.t[b] - self.t[a]) * 1e6)
        return most, share


def _loadavg() -> str:
    return " ".join(open("/proc/loadavg", encoding="utf-8").read().split()[:3])


def psi_total() -> int | None:
    try:
        return int(open("/proc/pressure/cpu", encoding="utf-8").readline().split("total=")[1])
    except (OSError, IndexError, ValueError):
        return None


def server_search_times(server: sh.SubsonicServer, iterations: int, warmup: int,
                        limit: int) -> tuple[list[float], list[float]]:
    """Milliseconds for the request Refrain sends (search3, one page of tracks), by http.client,
    a new connection each time as curl would, and the monotonic time each call started."""
    salt = "benchsalt1"
    token = hashlib.md5((sh.PASSWORD + salt).encode()).hexdigest()
    times, starts = [], []
    for i in range(warmup + iterations):
        q = urllib.parse.urlencode({
            "u": sh.USER, "t": token, "s": salt, "v": "1.16.1", "c": "refrain", "f": "json",
            "query": QUERIES[i % len(QUERIES)], "artistCount": "0", "albumCount": "0",
            "songCount": str(limit), "songOffset": "0"})
        began = time.monotonic()
        t = time.perf_counter()
        conn = http.client.HTTPConnection("127.0.0.1", server.ports["token"], timeout=10)
        conn.request("GET", f"/rest/search3.view?{q}")
        body = conn.getresponse().read()
        conn.close()
        dt = (time.perf_counter() - t) * 1000
        if b'"ok"' not in body:
            raise RuntimeError(f"search3 failed: {body[:200]!r}")
        if i >= warmup:
            times.append(dt)
            starts.append(began)
    return times, starts


# The clients of 20b: the first is the figure against the target, the last its reference.
CLIENTS = ("refrain", "transport", "server")


def _cpu_s(who: int) -> float:
    r = resource.getrusage(who)
    return r.ru_utime + r.ru_stime


def _server_log(server: sh.SubsonicServer) -> list[tuple[float, str, float]]:
    path = server.data / "search-times.log"
    if not path.exists():
        return []
    rows = []
    for line in path.read_text().splitlines():
        arrived, port, ms = line.split()
        rows.append((float(arrived), port, float(ms)))
    return rows


def bench_search(ctx: dict, server: sh.SubsonicServer, env: dict, iterations: int, log) -> dict:
    limit, warmup = 20, 20
    rounds = 10 if iterations >= 500 else 4
    per_round = iterations // rounds
    out: dict = {"iterations": iterations, "queries": QUERIES, "limit": limit, "rounds": rounds,
                 "warmup": warmup}
    base = [str(ctx["bench_bin"]), "subsonic-search", *QUERIES, "--iterations", str(per_round),
            "--warmup", str(warmup), "--limit", str(limit)]
    out["command"] = "refrain-bench subsonic-search " + " ".join(f"'{q}'" for q in QUERIES) + \
        f" --iterations {per_round} --warmup {warmup} --limit {limit}"
    # An older refrain-bench beside this one (REFRAIN_BENCH_BASELINE_BIN), in the same rounds: a
    # change's before and after under the same load.
    baseline = os.environ.get("REFRAIN_BENCH_BASELINE_BIN")
    clients = CLIENTS + (("baseline",) if baseline else ())
    out["clients"] = list(clients)
    if baseline:
        out["baseline_bin"] = baseline
    ms: dict = {c: [] for c in clients}
    starts: dict = {c: [] for c in clients}
    server_ms: dict = {c: [] for c in clients}
    connections: dict = {c: 0 for c in clients}
    cpu: dict = {c: 0.0 for c in clients}
    calls: dict = {c: 0 for c in clients}
    out["round_load"] = []
    sampler = LoadSampler()
    try:
        # Rounds rotate the four clients' order, so that the server's state and the machine's
        # load fall on each alike.
        for r in range(rounds):
            k = r % len(clients)
            order = clients[k:] + clients[:k]
            load = {"loadavg": _loadavg(), "order": list(order)}
            for client in order:
                before = len(_server_log(server))
                psi0, t0 = psi_total(), time.monotonic()
                cpu0 = _cpu_s(resource.RUSAGE_CHILDREN), _cpu_s(resource.RUSAGE_SELF)
                if client in ("refrain", "transport", "baseline"):
                    cmd = ([baseline] + base[1:]) if client == "baseline" else \
                        base + (["--transport-only"] if client == "transport" else [])
                    run = subprocess.run(cmd, env=dict(os.environ, **env), capture_output=True, text=True,
                                         timeout=600)
                    if run.returncode != 0:
                        out["error"] = run.stderr[-300:]
                        return out
                    res = json.loads(run.stdout)
                    got = [x / 1e6 for x in res["ns"]]
                    began = [x / 1e9 for x in res["start_ns"]]
                    if client == "refrain":
                        out["items_per_call"] = res["items"] / max(1, res["iterations"])
                    elif client == "transport":
                        out["bytes_per_call"] = res["bytes"] / max(1, res["iterations"])
                else:
                    got, began = server_search_times(server, per_round, warmup, limit)
                psi1, t1 = psi_total(), time.monotonic()
                # The client's CPU time: refrain-bench's (start-up and warm-up included), or this
                # process's own for http.client.
                own = client == "server"
                cpu[client] += _cpu_s(resource.RUSAGE_SELF if own else resource.RUSAGE_CHILDREN) - cpu0[own]
                calls[client] += warmup + per_round
                if psi0 is not None and psi1 is not None:
                    load[f"{client}_cpu_pressure"] = (psi1 - psi0) / ((t1 - t0) * 1e6)
                seen = _server_log(server)[before:]
                ms[client] += got
                starts[client] += began
                # Calls are sequential: the server's lines are this client's calls, in order.
                if len(seen) == warmup + per_round:
                    server_ms[client] += [x for _, _, x in seen[warmup:]]
                    # A connection is a run of calls from one client port.
                    connections[client] += sum(1 for i, (_, p, _) in enumerate(seen)
                                               if i == 0 or p != seen[i - 1][1])
                else:
                    server_ms[client] += [None] * len(got)
                    load[f"{client}_unpaired"] = len(seen)
            load["loadavg_end"] = _loadavg()
            out["round_load"].append(load)
    finally:
        sampler.stop()
    out["ms"], out["server_side_ms"] = ms, server_ms
    out["connections"] = connections
    out["cpu_ms_per_call"] = {c: cpu[c] * 1000 / max(1, calls[c]) for c in clients}
    out["calls_with_warmup"] = calls
    for c in clients:
        xs = ms[c]
        outside = [a - b for a, b in zip(xs, server_ms[c]) if b is not None]
        out[f"{c}_p50"], out[f"{c}_p99"] = _pct(xs, 50), _pct(xs, 99)
        out[f"{c}_server_p50"] = _pct(server_ms[c], 50)
        out[f"{c}_server_p99"] = _pct(server_ms[c], 99)
        out[f"{c}_outside_p50"], out[f"{c}_outside_p99"] = _pct(outside, 50), _pct(outside, 99)
        # The slowest 1% of calls: how much of them the server took, and the machine's load then.
        slow = sorted(range(len(xs)), key=lambda i: xs[i])[-max(1, len(xs) // 100):]
        out[f"{c}_slowest"] = [
            {"ms": xs[i], "server_ms": server_ms[c][i],
             **dict(zip(("runnable", "pressure"),
                        sampler.during(starts[c][i], starts[c][i] + xs[i] / 1000)))}
            for i in sorted(slow, key=lambda i: -xs[i])]
        during = [sampler.during(starts[c][i], starts[c][i] + xs[i] / 1000) for i in range(len(xs))]
        pressures = [p for _, p in during if p is not None]
        out[f"{c}_pressure_median"] = float(np.median(pressures)) if pressures else None
        out[f"{c}_runnable_median"] = float(np.median([r for r, _ in during if r is not None])) \
            if any(r is not None for r, _ in during) else None
    # Back-compatible names for the figure against the target.
    out["refrain_ms"], out["server_ms"] = ms["refrain"], ms["server"]
    log(f"subsonic search3: refrain p50 {out['refrain_p50']:.2f} p99 {out['refrain_p99']:.2f} ms; "
        f"server p50 {out['server_p50']:.2f} p99 {out['server_p99']:.2f} ms; outside the server: refrain "
        f"{out['refrain_outside_p50']:.2f}/{out['refrain_outside_p99']:.2f}, http.client "
        f"{out['server_outside_p50']:.2f}/{out['server_outside_p99']:.2f} ms")
    return out


# ---------------------------------------------------------------- a: Enter to first sound

# What 20a plays: the stored FLAC from supysonic, the same asked for as Opus and as MP3 at
# 96 kbit/s (`[subsonic] transcode`, `max_bitrate = 96`, as the end-to-end tests ask), each
# transcode started cold (supysonic's cache of finished transcodes emptied before each press),
# Opus again from that cache, and the same file local.
VARIANTS = {
    "subsonic": {"provider": "subsonic"},
    "opus": {"provider": "subsonic", "transcode": "opus", "cold": True},
    "mp3": {"provider": "subsonic", "transcode": "mp3", "cold": True},
    "opus-cached": {"provider": "subsonic", "transcode": "opus", "cold": False},
    "local": {"provider": "local"},
}
BITRATE = 96
# A transcoded first sound may take longer than a stored file's: listen this long after Enter.
LISTEN = {"subsonic": 1.2, "local": 1.2}
LISTEN_TRANSCODED = 2.5


def _enter_reps(ctx: dict, B, app, pane, rec_path: Path, reps: int, listen: float = 1.2,
                before=None) -> dict:
    rec = Recorder(ctx["sink"], rec_path)
    rec.start()
    sent, sink, notes = [], {}, []
    try:
        for i in range(reps):
            time.sleep(0.8)
            if before:
                notes.append(before())
            t = time.monotonic()
            pane.keys("Enter")
            sent.append(t)
            time.sleep(listen)
            if i == 0:
                sink = B.sink_latency(ctx["sink"])
            app.ctl("stop")
    finally:
        recording = rec.stop(tail=0.3)
    lat = [bfm._heard_after(recording, t, within=listen - 0.1) for t in sent]
    out = {"ms": [None if x is None else x * 1000 for x, _ in lat], "silent_before": [q for _, q in lat],
           "offset_ms": sink.get("configured_ms")}
    if notes:
        out["before"] = notes
    return out


class ProviderTUI(bt.RefrainTUI):
    """The full-screen player under `--provider PROVIDER`."""

    def __init__(self, binary: Path, home: Path, output: str, extra_env: dict, provider: str):
        super().__init__(binary, home, output, extra_env)
        self.provider = provider

    @property
    def argv(self) -> list[str]:
        return [str(self.binary), "--output", self.output, "--provider", self.provider]


def forget_transcodes(server: sh.SubsonicServer) -> int:
    """Empties supysonic's cache of finished transcodes (it drops an entry whose file is gone);
    returns how many it held."""
    folder = server.data / "cache" / "transcodes"
    gone = 0
    for f in folder.glob("*") if folder.exists() else []:
        if f.suffix != ".part":  # one being written: removing it would break that stream
            f.unlink(missing_ok=True)
            gone += 1
    return gone


def _token_query(**params: str) -> str:
    salt = "benchsalt2"
    token = hashlib.md5((sh.PASSWORD + salt).encode()).hexdigest()
    return urllib.parse.urlencode({"u": sh.USER, "t": token, "s": salt, "v": "1.16.1", "c": "refrain",
                                   **params})


def song_id(server: sh.SubsonicServer, title: str) -> str:
    conn = http.client.HTTPConnection("127.0.0.1", server.ports["token"], timeout=10)
    conn.request("GET", "/rest/search3.view?" + _token_query(f="json", query=title, artistCount="0",
                                                             albumCount="0", songCount="5"))
    songs = json.loads(conn.getresponse().read())["subsonic-response"]["searchResult3"]["song"]
    conn.close()
    return next(s["id"] for s in songs if s["title"] == title)


def server_stream_times(server: sh.SubsonicServer, sid: str, fmt: str | None, reps: int, cold: bool) -> dict:
    """The server alone: `stream.view` by http.client, as Refrain asks for it (`format` and
    `maxBitRate` when transcoding), timed to the answer's headers, its first byte and its end."""
    params = {"id": sid} if fmt is None else {"id": sid, "format": fmt, "maxBitRate": str(BITRATE)}
    rows = []
    for _ in range(reps):
        if cold:
            forget_transcodes(server)
        else:
            time.sleep(0.05)
        t = time.perf_counter()
        conn = http.client.HTTPConnection("127.0.0.1", server.ports["token"], timeout=30)
        conn.request("GET", "/rest/stream.view?" + _token_query(**params))
        resp = conn.getresponse()
        th = time.perf_counter()
        first = resp.read(1)
        tf = time.perf_counter()
        rest = resp.read()
        te = time.perf_counter()
        conn.close()
        if resp.status != 200 or not first:
            raise RuntimeError(f"stream.view {params}: HTTP {resp.status} {(first + rest)[:200]!r}")
        rows.append({"headers_ms": (th - t) * 1000, "first_byte_ms": (tf - t) * 1000, "end_ms": (te - t) * 1000,
                     "bytes": 1 + len(rest), "type": resp.getheader("Content-Type")})
    return {"runs": rows, **{f"{k}_median": float(np.median([r[k] for r in rows]))
                             for k in ("headers_ms", "first_byte_ms", "end_ms")}}


def ffmpeg_first_byte(track: Path, fmt: str, reps: int) -> dict:
    """ffmpeg alone, as supysonic's `[transcoding]` line runs it: process start to its first
    byte on the pipe (the start-up every cold transcode pays) and to its end."""
    cmd = ["ffmpeg", "-v", "error", "-i", str(track), "-map", "0:a", "-b:a", f"{BITRATE}k", "-f", fmt, "-"]
    first, whole = [], []
    for _ in range(reps):
        t = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        proc.stdout.read(1)
        first.append((time.perf_counter() - t) * 1000)
        proc.stdout.read()
        proc.wait()
        whole.append((time.perf_counter() - t) * 1000)
    return {"command": " ".join(cmd[:4] + ["FILE"] + cmd[5:]), "first_byte_ms": first, "end_ms": whole,
            "first_byte_median": float(np.median(first)), "end_median": float(np.median(whole))}


def bench_first_sound(ctx: dict, B, root: Path, server: sh.SubsonicServer, reps: int, log) -> dict:
    out: dict = {"reps": reps, "bitrate": BITRATE}
    tmp = ctx["tmp"] / "subsonic"
    pulse_env = {k: os.environ[k] for k in bt.PULSE_VARS if k in os.environ}
    track = root / "music" / "Bench Quartet" / "Steps" / "01 Bench Steps.flac"
    out["file_bytes"] = track.stat().st_size
    sid = song_id(server, PLAY_TITLE)
    # The server's own share: the same streams by http.client, and ffmpeg by itself.
    out["server_stream"] = {"raw": server_stream_times(server, sid, None, reps, cold=False)}
    for fmt in ("opus", "mp3"):
        out["server_stream"][fmt] = server_stream_times(server, sid, fmt, reps, cold=True)
        out["ffmpeg_" + fmt] = ffmpeg_first_byte(track, fmt, reps)
    out["server_stream"]["opus-cached"] = server_stream_times(server, sid, "opus", reps, cold=False)
    for name in ("raw", "opus", "mp3", "opus-cached"):
        st = out["server_stream"][name]
        log(f"subsonic stream.view {name} by http.client: headers {st['headers_ms_median']:.1f}, first byte "
            f"{st['first_byte_ms_median']:.1f}, end {st['end_ms_median']:.1f} ms (median of {reps})")
    for fmt in ("opus", "mp3"):
        log(f"ffmpeg -f {fmt} alone: first byte {out['ffmpeg_' + fmt]['first_byte_median']:.1f} ms")
    for name, v in VARIANTS.items():
        provider = v["provider"]
        app = ProviderTUI(ctx["bin"], tmp / name, "pulse", pulse_env, provider)
        env = dict(os.environ, **app.env)
        if v.get("transcode"):
            config = Path(app.env["XDG_CONFIG_HOME"]) / "refrain"
            config.mkdir(parents=True, exist_ok=True)
            (config / "config.toml").write_text(
                f'[subsonic]\ntranscode = "{v["transcode"]}"\nmax_bitrate = {BITRATE}\n')
        if provider == "subsonic":
            login(ctx["bin"], app.env, server)
        else:
            folder = tmp / "local-music"
            folder.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(track, folder / track.name)
            subprocess.run([str(ctx["bin"]), "scan", str(folder)], env=env, capture_output=True, timeout=120,
                           check=True)
        before = None
        if v.get("transcode"):
            if v["cold"]:
                before = lambda: forget_transcodes(server)  # noqa: E731
            else:
                # One whole transcode first, so that every press finds it in supysonic's cache.
                server_stream_times(server, sid, v["transcode"], 1, cold=False)
        try:
            pane = app.start(f"enter-{name}")
            pane.wait_for(lambda s: "Recently added" in s or "Search" in s, timeout=20)
            time.sleep(1.0)
            pane.keys("/")
            pane.type(PLAY_TITLE)
            pane.keys("Enter")
            pane.wait_for(lambda _: PLAY_TITLE in (pane.selected_row() or ""), timeout=15)
            time.sleep(0.5)
            listen = LISTEN.get(name, LISTEN_TRANSCODED)
            r = _enter_reps(ctx, B, app, pane, tmp / f"enter-{name}.wav", reps, listen=listen, before=before)
            config_text = (f'; [subsonic] transcode = "{v["transcode"]}", max_bitrate = {BITRATE}'
                           if v.get("transcode") else "")
            r["command"] = (f"refrain --output pulse --provider {provider} in tmux{config_text}; "
                            f"/ {PLAY_TITLE} Enter; key Enter")
            r["listen_s"] = listen
            out[name] = r
        except Exception as e:  # noqa: BLE001 - a benchmark reports what it could not measure
            out[name] = {"error": f"{type(e).__name__}: {e}; {app.stderr()[-200:]}"}
        finally:
            app.quit()
        ms = (out[name].get("ms") or [])
        log(f"subsonic Enter→heard {name}: {[None if x is None else round(x, 1) for x in ms]} ms")
    return out


# ---------------------------------------------------------------- run

def run(ctx: dict, B, quick: bool, log, parts: str = "ab", library_files: int = 10_000) -> dict:
    R: dict = {"load_start": B._loadavg()}
    missing = [t for t in ("flac", "tmux", "ffmpeg") if not shutil.which(t)]
    if missing:
        R["missing_tools"] = missing
        return R
    (ctx["tmp"] / "subsonic").mkdir(parents=True, exist_ok=True)
    server = None
    try:
        t = time.monotonic()
        root = make_server_root(library_files, log)
        R["root"], R["tracks"], R["prepare_s"] = str(root), library_files + 1, time.monotonic() - t
        server = start_server(root)
        R["server"] = f"supysonic 0.7.9 on 127.0.0.1 behind the tests' token layer (werkzeug threaded)"
        if "b" in parts:
            home = bt.RefrainTUI(ctx["bin"], ctx["tmp"] / "subsonic" / "search", "null", {})
            login(ctx["bin"], home.env, server)
            R["search"] = bench_search(ctx, server, home.env, 200 if quick else 1000, log)
        if "a" in parts and ctx.get("pulse_ok"):
            R["first_sound"] = bench_first_sound(ctx, B, root, server, 5 if quick else 9, log)
    except Exception as e:  # noqa: BLE001
        import traceback
        R["error"] = f"{type(e).__name__}: {e}"
        log("subsonic: " + traceback.format_exc())
    finally:
        if server:
            server.stop()
    R["load_end"] = B._loadavg()
    return R


# ---------------------------------------------------------------- docs/benchmarks.md

_f = bfm._f


LABELS = {
    "subsonic": "stored FLAC (`transcode = \"raw\"`)",
    "opus": "transcoded to Opus, a new transcode each press",
    "mp3": "transcoded to MP3, a new transcode each press",
    "opus-cached": "transcoded to Opus, from supysonic's cache",
    "local": "the same FLAC local (`--provider local`)",
}
STREAM_LABELS = {
    "raw": "the stored FLAC",
    "opus": "Opus 96 kbit/s, a new transcode (cache emptied)",
    "mp3": "MP3 96 kbit/s, a new transcode (cache emptied)",
    "opus-cached": "Opus 96 kbit/s, from supysonic's cache",
}
CLIENT_LABELS = {
    "refrain": "Refrain: `SubsonicCatalogProvider.search`",
    "transport": "Refrain's HTTP client alone (`--transport-only`: no decoding)",
    "server": "the server alone: http.client, a new connection each",
    "baseline": "Refrain, the baseline build (`REFRAIN_BENCH_BASELINE_BIN`)",
}


def summary_rows(R: dict | None, within) -> list[str]:
    if not R:
        return []
    if R.get("missing_tools"):
        return [f"| 20 | Subsonic | not measured | | | missing {', '.join(R['missing_tools'])} |"]
    L = []
    fs = R.get("first_sound") or {}
    sub, loc = fs.get("subsonic") or {}, fs.get("local") or {}
    if sub.get("ms") or loc.get("ms"):
        m, mx, n = bfm._play_heard_stats(sub)
        lm, lmx, _ = bfm._play_heard_stats(loc)
        L.append(f"| 20a | Enter on a Subsonic track (raw FLAC, loopback) to first sound, on the sink's clock, "
                 f"median of {n} | {_f(m, 0, ' ms')} (max {_f(mx, 0)}) | the same FLAC local {_f(lm, 0, ' ms')} "
                 f"(max {_f(lmx, 0)}) | ≤ 300 ms | {within(m, 300)} |")
    elif sub.get("error"):
        L.append(f"| 20a | Enter on a Subsonic track to first sound | not measured | | ≤ 300 ms | {sub['error'][:80]} |")
    streams = fs.get("server_stream") or {}
    for name, what in (("opus", "Opus"), ("mp3", "MP3"), ("opus-cached", "Opus")):
        r = fs.get(name) or {}
        st = streams.get(name) or {}
        ff = fs.get("ffmpeg_" + name) or {}
        if r.get("ms"):
            m, mx, n = bfm._play_heard_stats(r)
            how = "from supysonic's cache of finished transcodes" if name == "opus-cached" else \
                "a new transcode each press (supysonic + ffmpeg)"
            ref = f"the server's first byte {_f(st.get('first_byte_ms_median'), 0, ' ms')}"
            if ff:
                ref += f" (ffmpeg alone {_f(ff.get('first_byte_median'), 0, ' ms')})"
            L.append(f"| 20a | Enter on a Subsonic track transcoded to {what} {fs.get('bitrate')} kbit/s, {how}, "
                     f"to first sound, on the sink's clock, median of {n} | {_f(m, 0, ' ms')} (max {_f(mx, 0)}) | "
                     f"{ref} | measured | |")
        elif r.get("error"):
            L.append(f"| 20a | Enter on a Subsonic track transcoded to {what} | not measured | | | "
                     f"{r['error'][:80]} |")
    s = R.get("search") or {}
    if s.get("refrain_p50") is not None:
        add50 = s["refrain_p50"] - s["server_p50"]
        add99 = s["refrain_p99"] - s["server_p99"]
        L.append(f"| 20b | `search3` through Refrain, 10,000 tracks, p50 / p99 of {len(s['refrain_ms'])} | "
                 f"{_f(s['refrain_p50'], 2)} / {_f(s['refrain_p99'], 2)} ms | server alone "
                 f"{_f(s['server_p50'], 2)} / {_f(s['server_p99'], 2)} ms | Refrain adds ≤ 5 ms | "
                 f"{add50:+.2f} / {add99:+.2f} ms: {within(max(add50, add99), 5)} |")
        if s.get("refrain_outside_p50") is not None:
            cpu = s.get("cpu_ms_per_call") or {}
            L.append(f"| 20b | the same calls less the server's own time in supysonic, p50 / p99 | "
                     f"{_f(s['refrain_outside_p50'], 2)} / {_f(s['refrain_outside_p99'], 2)} ms; client CPU "
                     f"{_f(cpu.get('refrain'), 2)} ms a call | http.client {_f(s['server_outside_p50'], 2)} / "
                     f"{_f(s['server_outside_p99'], 2)} ms; CPU {_f(cpu.get('server'), 2)} ms a call | — | |")
        if s.get("baseline_p50") is not None:
            cpu = s.get("cpu_ms_per_call") or {}
            L.append(f"| 20b | the same `search3` by the baseline build (`REFRAIN_BENCH_BASELINE_BIN`), same rounds, "
                     f"p50 / p99 | {_f(s['baseline_p50'], 2)} / {_f(s['baseline_p99'], 2)} ms; client CPU "
                     f"{_f(cpu.get('baseline'), 2)} ms a call | this build {_f(s['refrain_p50'], 2)} / "
                     f"{_f(s['refrain_p99'], 2)} ms; CPU {_f(cpu.get('refrain'), 2)} ms a call | — | |")
    elif s.get("error"):
        L.append(f"| 20b | `search3` through Refrain | not measured | | ≤ 5 ms added | {s['error'][:80]} |")
    return L


def _first_sound_table(fs: dict, add) -> None:
    add("| Played | Listened | Median, sink's clock | Max, sink's clock | Each as recorded (ms) |")
    add("|---|---|---|---|---|")
    for name in VARIANTS:
        r = fs.get(name) or {}
        if r.get("error"):
            add(f"| {LABELS[name]} | | not measured | | {r['error'][:120]} |")
        elif r.get("ms"):
            m, mx, _ = bfm._play_heard_stats(r)
            add(f"| {LABELS[name]} | {r.get('listen_s', 1.2)} s | {_f(m, 0, ' ms')} | {_f(mx, 0, ' ms')} | "
                f"{', '.join('—' if x is None else f'{x:.0f}' for x in r['ms'])} |")


def sections(R: dict | None, cmdline) -> list[str]:
    if not R:
        return []
    L: list[str] = []
    add = L.append
    add("## 20. A Subsonic server: Enter to first sound, and `search3`")
    add("")
    if R.get("missing_tools"):
        add(f"Not measured: {', '.join(R['missing_tools'])} missing.")
        add("")
        return L
    add("`scripts/bench_subsonic.py` (`python3 scripts/bench.py --only 20`). The server is "
        f"{R.get('server', 'supysonic')}, with an SQLite database, serving {R.get('tracks')} tracks: 10,000 "
        "copies of one 1 s FLAC whose tags mutagen rewrote (titles `Song N WORD WORD`, 500 artists, 1,000 "
        "albums) and the 20 s FLAC played below. The folder and the scanned database are kept under "
        f"`{R.get('root')}`. Its audio leaves at loopback speed (the end-to-end tests pace it; "
        "`scripts/bench_subsonic_server.py` does not), and it transcodes with its own `[transcoding]` line, "
        "as the end-to-end tests set it: `ffmpeg -v error -i FILE -map 0:a -b:a RATEk -f FORMAT -`. "
        f"Load average (1, 5, 15 min) {R.get('load_start')} at the start of the section, {R.get('load_end')} "
        "at its end.")
    add("")
    if R.get("error"):
        add(f"The section stopped early: {R['error']}.")
        add("")
    fs = R.get("first_sound") or {}
    if fs:
        add("### 20a. Enter to first sound")
        add("")
        add(f"The full-screen player in tmux on the private PulseAudio null sink, with the 20 s FLAC "
            f"({fs.get('file_bytes', 'n/a')} bytes, 16-bit 44.1 kHz stereo tones at −6 dBFS) found with `/` and "
            "selected. Each repetition sends `Enter` (tmux send-keys), records the sink and finds the first sample "
            "above −54 dBFS within the time listened less 0.1 s; `ctl stop` ends it. Under `--provider subsonic` "
            "the track streams from `stream.view`: as stored, or with `[subsonic] transcode = \"opus\"` (or "
            f"`\"mp3\"`) and `max_bitrate = {fs.get('bitrate')}` in the player's config.toml, written as the "
            "end-to-end tests write it, so that `stream.view` carries `format` and `maxBitRate` and supysonic "
            "starts ffmpeg. supysonic keeps a finished transcode in its cache and serves it again as a file; for "
            "*a new transcode each press* the bench empties that cache just before each `Enter`, which is what "
            "a track nobody has played at that rate meets. Under `--provider local` the same file was scanned "
            "with `refrain scan`. The null sink renders a block ahead of its clock, so a figure as recorded "
            "can be below zero; the figure on the sink's clock adds the sink's configured latency "
            f"({_f((fs.get('subsonic') or {}).get('offset_ms'), 0, ' ms')}), over the presses made from silence.")
        add("")
        _first_sound_table(fs, add)
        add("")
        streams = fs.get("server_stream") or {}
        if streams:
            add(f"**The server's share.** The same `stream.view` requests (same `id`, `format`, `maxBitRate` and "
                f"token) sent by Python's http.client, {fs.get('reps')} times each, timed to the answer's headers, "
                "to its first body byte and to its end; and ffmpeg alone, as supysonic runs it, from its start "
                "to its first byte on the pipe and to its exit.")
            add("")
            add("| Stream | Headers, median | First byte, median | Whole answer, median | Bytes |")
            add("|---|---|---|---|---|")
            for name, label in STREAM_LABELS.items():
                st = streams.get(name)
                if st:
                    add(f"| {label} | {_f(st['headers_ms_median'], 1, ' ms')} | "
                        f"{_f(st['first_byte_ms_median'], 1, ' ms')} | {_f(st['end_ms_median'], 1, ' ms')} | "
                        f"{st['runs'][0]['bytes']:,} |")
            for fmt in ("opus", "mp3"):
                ff = fs.get("ffmpeg_" + fmt)
                if ff:
                    add(f"| `{ff['command']}` alone | — | {_f(ff['first_byte_median'], 1, ' ms')} | "
                        f"{_f(ff['end_median'], 1, ' ms')} (exit) | |")
            add("")
            sub_m = bfm._play_heard_stats(fs.get("subsonic") or {})[0]
            raw_first = (streams.get("raw") or {}).get("first_byte_ms_median")
            for name, what in (("opus", "Opus"), ("mp3", "MP3")):
                m = bfm._play_heard_stats(fs.get(name) or {})[0]
                st, ff = streams.get(name) or {}, fs.get("ffmpeg_" + name) or {}
                if m is None or sub_m is None or raw_first is None or not st:
                    continue
                later, first_later = m - sub_m, st["first_byte_ms_median"] - raw_first
                add(f"{what}, a new transcode: sound comes {_f(later, 0, ' ms')} later than from the stored "
                    f"file ({_f(m, 0, ' ms')} against {_f(sub_m, 0, ' ms')}, medians). The server's first byte "
                    f"comes {_f(first_later, 0, ' ms')} later ({_f(st['first_byte_ms_median'], 0, ' ms')} against "
                    f"{_f(raw_first, 0, ' ms')}), most of it ffmpeg starting and writing its first block "
                    f"({_f(ff.get('first_byte_median'), 0, ' ms')} alone); the rest, "
                    f"{_f(later - first_later, 0, ' ms')}, is on Refrain's side (the transcoded stream's headers "
                    f"and first packets read and decoded before the first sample) and the spread of "
                    f"{fs.get('reps')} presses.")
                add("")
    s = R.get("search") or {}
    if not s:
        return L
    add("### 20b. `search3` through Refrain")
    add("")
    if s.get("error") or s.get("refrain_p50") is None:
        add("Not measured" + (f": {s['error']}" if s.get("error") else "."))
        add("")
        return L
    rounds = s.get("rounds", 4)
    add(f"`{s.get('command')}`, in {rounds} rounds; each round runs the clients below one after the other, "
        "in an order that rotates from round to round, so that the server's state and the machine's load fall "
        "on each alike. Refrain's figure is the provider's `search(…, kind: .track, limit: 20)` in-process with "
        "the stored token login, timed around the whole call (request, loopback HTTP, JSON decoding, mapping); "
        "`--transport-only` sends the same request through the same kind of HTTP client and leaves the body "
        "undecoded. The server alone is the same `search3` request (same parameters and token) sent by "
        "Python's http.client on a new connection each time, as curl does. Each client makes "
        f"{s.get('warmup', 20)} warm-up calls a round, not counted. Queries in turn: "
        f"{', '.join(repr(q) for q in QUERIES)}; {_f(s.get('items_per_call'), 1)} tracks "
        f"({_f(s.get('bytes_per_call'), 0)} bytes of JSON) a call on average.")
    add("")
    add("*In supysonic* is the server's own time for the same call, written down by the bench's server "
        "(`scripts/bench_subsonic_server.py`: from the token layer handing the request to supysonic to the "
        "whole answer in hand); *outside* is the call's time less that, per call: connecting, the request and "
        "answer on loopback, werkzeug's parsing, and the client's own work. *Client CPU* is the client "
        "process's user + system time over its calls (refrain-bench's start-up and warm-up included). "
        "*CPU pressure* is the share of each call's time in which some task on the machine waited for a CPU "
        "(`/proc/pressure/cpu`, sampled every 5 ms by a separate process), median over the calls.")
    add("")
    add("| Client | p50 | p99 | In supysonic p50 / p99 | Outside p50 / p99 | Client CPU a call | "
        "CPU pressure | Connections | Calls |")
    add("|---|---|---|---|---|---|---|---|---|")
    cpu = s.get("cpu_ms_per_call") or {}
    for c in s.get("clients") or CLIENTS:
        if s.get(f"{c}_p50") is None:
            continue
        pressure = s.get(f"{c}_pressure_median")
        add(f"| {CLIENT_LABELS[c]} | {_f(s[f'{c}_p50'], 2)} ms | {_f(s[f'{c}_p99'], 2)} ms | "
            f"{_f(s.get(f'{c}_server_p50'), 2)} / {_f(s.get(f'{c}_server_p99'), 2)} ms | "
            f"{_f(s.get(f'{c}_outside_p50'), 2)} / {_f(s.get(f'{c}_outside_p99'), 2)} ms | "
            f"{_f(cpu.get(c), 2, ' ms')} | {'n/a' if pressure is None else f'{pressure * 100:.0f}%'} | "
            f"{(s.get('connections') or {}).get(c, 'n/a')} | {len(s['ms'][c])} |")
    add("")
    slow = s.get("refrain_slowest") or []
    if slow:
        def one(x: dict) -> str:
            runnable = "n/a" if x["runnable"] is None else str(int(x["runnable"]))
            pressure = "n/a" if x["pressure"] is None else f"{x['pressure'] * 100:.0f}%"
            return f"{_f(x['ms'], 1)} / {_f(x['server_ms'], 1)} / {runnable} / {pressure}"
        add("The slowest 1% of Refrain's calls (whole call ms / in supysonic ms / most runnable tasks seen / "
            "CPU pressure): " + "; ".join(one(x) for x in slow) + ".")
        add("")
    conns = s.get("connections") or {}
    made = s.get("calls_with_warmup") or {}
    if conns and made and all(conns.get(c, 0) >= made.get(c, 1) for c in conns):
        add("*Connections* counts runs of calls from one client port, warm-up included: one for each "
            "call, as werkzeug closed each connection after its answer, so every client, Refrain's URLSession "
            "too, connected anew for each call.")
        add("")
    elif conns:
        add("*Connections* counts runs of calls from one client port ("
            + ", ".join(f"{c}: {conns.get(c)} for {made.get(c)} calls" for c in conns) + ", warm-up included).")
        add("")
    loads = s.get("round_load") or []
    if loads:
        add("Load average (1 min) at the start of each round: " + ", ".join(r["loadavg"].split()[0] for r in loads)
            + ".")
        add("")
    return L
