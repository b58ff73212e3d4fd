#!/usr/bin/env python3
"""make bench, section 15: listening rooms, as their members and their host would notice.

- **Sync between two members** (scripts/room_sync.py, the method of
  Tests/EndToEnd/test_room_sync.py): two `refrain room join --output pulse` members, each
  on a private PulseAudio server of its own, follow one `refrain room serve`; each null
  sink's monitor is recorded. Over 10 track starts and 10 seeks (3 and 3 with --quick),
  every tone change of steps.mp3 both members played from 2 s after the command is placed
  in both recordings, and the difference is how far apart two listeners hear the track.
- **Chat fan-out at 200 members**: 200 members connected with Python `websockets`
  (asyncio client, no compression, each answering heartbeats), in two client processes;
  five members send 20 chat messages in all (4 each, 1.5 s apart, inside the 5-per-5 s
  limit), and each message's delivery to the 199 others is timed, send → receive, on the
  one monotonic clock.
- **The server at 200 members**: RSS (VmRSS) and CPU (utime + stime) of the
  `refrain-room` process, over the fan-out and over 30 s (10 s with --quick) of idle with
  200 members connected, when only heartbeats flow.
- **The WebSocket library's cost**: stripped sizes of `refrain-room` and `refrain`, and
  the one-off clean-build measurement recorded in docs/DECISIONS.md.

Measurements, not tests: a figure that cannot be taken is reported with the reason.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import room_sync  # noqa: E402  (also puts Tests/EndToEnd on sys.path)
from room_harness import RoomServer  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
MEMBERS = 200
CLIENT_PROCESSES = 2
SENDERS = 5
MESSAGES = 20
SPACING = 0.3            # s between messages (round-robin over the senders: 1.5 s per sender)
SYNC_TARGET = (20.0, 50.0)
CLK_TCK = os.sysconf("SC_CLK_TCK")


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q / 100 * (len(xs) - 1))))] if xs else None


# ---------------------------------------------------------------- /proc

def proc_sample(pid: int) -> dict | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()
    mem = {}
    for line in status.splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM", "Threads"):
            mem[key] = int(value.split()[0])
    return {"at": time.monotonic(), "cpu_s": (int(fields[11]) + int(fields[12])) / CLK_TCK,
            "rss_kb": mem.get("VmRSS"), "hwm_kb": mem.get("VmHWM"), "threads": mem.get("Threads")}


def proc_delta(a: dict, b: dict) -> dict:
    wall = b["at"] - a["at"]
    cpu = b["cpu_s"] - a["cpu_s"]
    return {"seconds": wall, "cpu_s": cpu, "cpu_pct": 100 * cpu / wall if wall > 0 else None,
            "rss_kb": b["rss_kb"], "hwm_kb": b["hwm_kb"], "threads": b["threads"]}


# ---------------------------------------------------------------- 200 members in client processes

async def _clients(conn, url: str, ids: list[int], senders: list[int]) -> dict:
    from websockets.asyncio.client import connect

    loop = asyncio.get_running_loop()
    received: dict[str, list[tuple[int, float]]] = {}
    sent: dict[str, tuple[int, float]] = {}
    errors: list[dict] = []
    welcomed = {i: asyncio.Event() for i in ids}
    sockets = {}
    dropped: list[int] = []

    async def member(i: int) -> None:
        ws = await connect(url, compression=None, proxy=None, ping_interval=None, open_timeout=30,
                           close_timeout=3, max_size=None)
        sockets[i] = ws
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "name": f"m{i}"}))
        try:
            async for frame in ws:
                now = time.monotonic()
                message = json.loads(frame)
                kind = message.get("type")
                if kind == "heartbeat":
                    await ws.send('{"type":"alive"}')
                elif kind == "chat":
                    received.setdefault(message.get("text", ""), []).append((i, now))
                elif kind == "welcome":
                    welcomed[i].set()
                elif kind == "error":
                    errors.append(message)
        except Exception:  # the connection ended (closed by us at the end, or dropped)
            pass
        if not stop.is_set():
            dropped.append(i)

    stop = asyncio.Event()
    tasks = []
    for i in ids:       # a few at a time, as people join
        tasks.append(asyncio.create_task(member(i)))
        await asyncio.sleep(0.005)
    await asyncio.wait_for(asyncio.gather(*(e.wait() for e in welcomed.values())), 60)
    conn.send({"ready": len(ids)})
    command = await loop.run_in_executor(None, conn.recv)
    if senders:
        start = command["start"]
        for j in range(MESSAGES):
            i = senders[j % len(senders)]
            await asyncio.sleep(max(0.0, start + j * SPACING - time.monotonic()))
            text = f"bench message {j}"
            sent[text] = (i, time.monotonic())
            await sockets[i].send(json.dumps({"type": "chat", "text": text}))
    conn.send({"sent": True})
    await loop.run_in_executor(None, conn.recv)           # "stop": after the idle window
    stop.set()
    for ws in sockets.values():
        await ws.close()
    await asyncio.wait(tasks, timeout=10)
    return {"received": received, "sent": sent, "errors": errors, "dropped": dropped}


class _Pipe:
    """One JSON object per line over a client process's stdin/stdout."""

    def __init__(self, rfile, wfile) -> None:
        self.rfile, self.wfile = rfile, wfile

    def send(self, obj) -> None:
        self.wfile.write(json.dumps(obj) + "\n")
        self.wfile.flush()

    def poll(self, timeout: float) -> bool:
        import select
        return bool(select.select([self.rfile], [], [], timeout)[0])

    def recv(self):
        line = self.rfile.readline()
        if not line:
            raise EOFError("the other side closed")
        return json.loads(line)


def _client_main(url: str, ids: list[int], senders: list[int]) -> None:
    """A client process (`bench_room.py --clients URL IDS SENDERS`)."""
    conn = _Pipe(sys.stdin, sys.stdout)
    try:
        result = asyncio.run(_clients(conn, url, ids, senders))
    except BaseException as failed:  # report, never hang the parent
        result = {"failed": repr(failed)}
    conn.send(result)


def _recv(conn, timeout: float, what: str):
    if not conn.poll(timeout):
        raise RuntimeError(f"a client process sent no {what} within {timeout} s")
    message = conn.recv()
    if isinstance(message, dict) and "failed" in message:
        raise RuntimeError(f"a client process failed: {message['failed']}")
    return message


def bench_fanout(binary: Path, work: Path, idle_s: float, log) -> dict:
    server = RoomServer(binary, work / "server", [work / "empty-library"], heartbeat=5)
    (work / "empty-library").mkdir(parents=True, exist_ok=True)
    R: dict = {"members": MEMBERS, "messages": MESSAGES, "senders": SENDERS, "processes": CLIENT_PROCESSES}
    server.start()
    pid = server.proc.pid
    procs, pipes = [], []
    try:
        R["server_argv"] = ["refrain"] + server.argv()[1:]
        R["empty"] = proc_sample(pid)
        url = server.room_url("bench")
        ids = list(range(MEMBERS))
        for p in range(CLIENT_PROCESSES):
            share = ids[p::CLIENT_PROCESSES]
            senders = share[:SENDERS] if p == 0 else []
            proc = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--clients", url,
                                     json.dumps(share), json.dumps(senders)],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            procs.append(proc)
            pipes.append(_Pipe(proc.stdout, proc.stdin))
        t0 = time.monotonic()
        for conn in pipes:
            _recv(conn, 90, "ready")
        R["join_s"] = time.monotonic() - t0
        log(f"fan-out: {MEMBERS} members joined in {R['join_s']:.1f} s")
        time.sleep(1.0)
        before = proc_sample(pid)
        start = time.monotonic() + 0.2
        for conn in pipes:
            conn.send({"start": start})
        for conn in pipes:
            _recv(conn, 30 + MESSAGES * SPACING, "sent")
        time.sleep(1.0)                         # the last deliveries
        after = proc_sample(pid)
        R["fanout"] = proc_delta(before, after)
        idle_start = proc_sample(pid)
        time.sleep(idle_s)
        idle_end = proc_sample(pid)
        R["idle"] = proc_delta(idle_start, idle_end)
        for conn in pipes:
            conn.send("stop")
        results = [_recv(conn, 30, "result") for conn in pipes]
    finally:
        for proc in procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
        if server.running():
            server.stop()
    sent = {}
    received: dict[str, list] = {}
    for r in results:
        sent.update(r["sent"])
        for text, hits in r["received"].items():
            received.setdefault(text, []).extend(hits)
    latencies, firsts, lasts, missing = [], [], [], 0
    for text, (sender, at) in sent.items():
        hits = {i: t for i, t in received.get(text, []) if i != sender}
        missing += (MEMBERS - 1) - len(hits)
        mine = [(t - at) * 1000 for t in hits.values()]
        latencies += mine
        if mine:
            firsts.append(min(mine))
            lasts.append(max(mine))
    R["latency_ms"] = {"n": len(latencies), "p50": pct(latencies, 50), "p99": pct(latencies, 99),
                       "max": max(latencies) if latencies else None,
                       "first_median": pct(firsts, 50), "last_median": pct(lasts, 50)}
    R["missing"] = missing
    R["sent"] = len(sent)
    R["errors"] = [e for r in results for e in r["errors"]][:5]
    R["dropped"] = sum(len(r["dropped"]) for r in results)
    R["idle_s"] = idle_s
    return R


# ---------------------------------------------------------------- sync

def sync_plan(starts: int, seeks: int, seed: int = 15) -> list[room_sync.Action]:
    """Starts and seeks alternating (each member issues half of each); seek targets are
    seeded, 4.3–22.9 s, with fractions so a seek never lands on a tone change."""
    rng = random.Random(seed)
    plan = []
    for i in range(max(starts, seeks)):
        if i < starts:
            plan.append(room_sync.Action("start", "AB"[i % 2], 0.0))
        if i < seeks:
            plan.append(room_sync.Action("seek", "BA"[i % 2], rng.randint(4, 22) + rng.choice((0.3, 0.5, 0.7, 0.9))))
    return plan


def bench_sync(binary: Path, work: Path, quick: bool, log) -> dict:
    plan = sync_plan(3, 3) if quick else sync_plan(10, 10)
    result = room_sync.measure(binary, work, plan, settle=2.0, dwell=5.0, log=log)
    R = {"starts": sum(a.kind == "start" for a in plan), "seeks": sum(a.kind == "seek" for a in plan),
         "start": result.stats("start"), "seek": result.stats("seek"), "all": result.stats(),
         "refined": sum(1 for m in result.matches if m.fit is not None), "unmatched": len(result.unmatched),
         "syncs": {name: {"n": len(s), "steps": sum(e.get("action") == "step" for _, e in s),
                          "seeks": sum(e.get("action") == "seek" for _, e in s),
                          "median_error_ms": statistics.median([abs(e["error_ms"]) for _, e in s
                                                                if e.get("action") == "step"] or [0])}
                   for name, s in result.syncs.items()},
         "recorded_s": result.recorded_s, "describe": room_sync.describe(result)}
    log("sync: " + R["describe"].replace("\n", "; "))
    return R


# ---------------------------------------------------------------- binary sizes

def stripped_size(path: Path, tmp: Path) -> int | None:
    if not path.is_file():
        return None
    copy = tmp / (path.name + ".stripped")
    shutil.copyfile(path, copy)
    try:
        subprocess.run(["strip", str(copy)], check=True, capture_output=True, timeout=120)
        return copy.stat().st_size
    except (OSError, subprocess.SubprocessError):
        return None
    finally:
        copy.unlink(missing_ok=True)


# ---------------------------------------------------------------- run

def run(ctx: dict, quick: bool = False, log=lambda msg: print(msg, file=sys.stderr)) -> dict:
    R: dict = {"quick": quick}
    binary = Path(ctx["bin"])
    room_bin = binary.parent / "refrain-room"
    work = Path(ctx["tmp"]) / "rooms"
    work.mkdir(parents=True, exist_ok=True)
    R["sizes"] = {"refrain": stripped_size(binary, work), "refrain-room": stripped_size(room_bin, work),
                  "refrain_path": str(binary), "room_path": str(room_bin)}
    if not room_bin.is_file():
        R["skipped"] = f"no refrain-room beside {binary} (build the release products)"
        return R
    try:
        if os.environ.get("PULSE_SERVER") and os.environ.get("REFRAIN_TEST_SINK"):
            try:
                R["sync"] = bench_sync(binary, work / "sync", quick, log)
            except Exception as failed:  # noqa: BLE001  (reported, not raised)
                R["sync"] = {"skipped": f"the sync measurement failed: {failed}"}
        else:
            R["sync"] = {"skipped": "no private PulseAudio server (run under scripts/with-test-pulse)"}
        try:
            R["fanout"] = bench_fanout(binary, work / "fanout", 10.0 if quick else 30.0, log)
        except Exception as failed:  # noqa: BLE001
            R["fanout"] = {"skipped": f"the fan-out measurement failed: {failed}"}
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return R


# ---------------------------------------------------------------- render

def _ms(x, digits=1) -> str:
    return "n/a" if x is None else f"{x:.{digits}f} ms"


def _mb(kb) -> str:
    return "n/a" if kb is None else f"{kb / 1024:.1f} MB"


def _pct(x) -> str:
    return "n/a" if x is None else f"{x:.2f}%"


def summary_rows(R: dict | None, within) -> list[str]:
    if not R:
        return []
    if R.get("skipped"):
        return [f"| 15 | listening rooms | not measured | | | {R['skipped']} |"]
    rows = []
    s = R.get("sync") or {}
    if s.get("skipped") or not (s.get("all") or {}).get("n"):
        rows.append(f"| 15 | sync between two members, as heard | not measured | | median ≤ 20 ms, max ≤ 50 ms | "
                    f"{s.get('skipped', 'no tone change heard by both')} |")
    else:
        a = s["all"]
        rows.append(f"| 15 | sync between two members, as heard: median / max (n = {a['n']} tone changes, "
                    f"{s['starts']} starts, {s['seeks']} seeks) | {_ms(a['median'])} / {_ms(a['max'])} | — | "
                    f"median ≤ 20 ms, max ≤ 50 ms | median {within(a['median'], SYNC_TARGET[0])}; "
                    f"max {within(a['max'], SYNC_TARGET[1])} |")
    f = R.get("fanout") or {}
    if f.get("skipped"):
        rows.append(f"| 15 | chat fan-out to {MEMBERS} members | not measured | | | {f['skipped']} |")
    else:
        lat = f["latency_ms"]
        rows.append(f"| 15 | chat to {f['members']} members, send → receive, p50 / p99 (n = {lat['n']}) | "
                    f"{_ms(lat['p50'])} / {_ms(lat['p99'])} | — | — | |")
        rows.append(f"| 15 | room server with {f['members']} members: RSS; CPU idle {f['idle_s']:.0f} s | "
                    f"{_mb(f['idle']['rss_kb'])}; {_pct(f['idle']['cpu_pct'])} | "
                    f"empty: {_mb((f.get('empty') or {}).get('rss_kb'))} | — | |")
    return rows


def sections(R: dict | None, cmdline) -> list[str]:
    if not R:
        return []
    L = ["## 15. Listening rooms", ""]
    if R.get("skipped"):
        L += [f"Not measured: {R['skipped']}", ""]
    s = R.get("sync") or {}
    L += ["### Sync between two members, as heard", ""]
    if s.get("skipped"):
        L += [f"Not measured: {s['skipped']}", ""]
    elif s:
        L += ["Two `refrain room join --output pulse --events` members (A and B), each on a private PulseAudio "
              "server of its own with a null sink, follow one `refrain room serve --listen 127.0.0.1:0` sharing "
              "steps.mp3. Both sinks' monitors are recorded with `parec --latency-msec=20`, and each recording is "
              "put on the monotonic clock as in 2. The members take turns to start the track (`play N`) and to "
              f"seek it (`seek S`, seeded targets): {s['starts']} starts and {s['seeks']} seeks, 5 s each. From "
              "2 s after each command, every change from second k to k + 1 that both played is found in both "
              "recordings (the 5 ms tone-change finder, then A's recording of the change laid over B's to a "
              f"sample: {s['refined']} of {s['all']['n']} placed so); the error is the difference of the two "
              "times: how far apart two listeners hear the same moment. Both sides are null sinks recorded the "
              "same way, so the recording's own lead over the sink's clock cancels.", "",
              "| after | tone changes | median \\|A − B\\| | max | median A − B (signed) |",
              "| --- | ---: | ---: | ---: | ---: |"]
        for key, label in (("start", "a track start"), ("seek", "a seek"), ("all", "all")):
            x = s[key]
            L.append(f"| {label} | {x['n']} | {_ms(x['median'])} | {_ms(x['max'])} | {_ms(x['signed_median'])} |")
        L += ["", f"Targets: median ≤ {SYNC_TARGET[0]:.0f} ms, max ≤ {SYNC_TARGET[1]:.0f} ms. Changes heard by one "
              f"member only (none of the other's recording in the window): {s['unmatched']}. Corrections the "
              "members reported (`sync` events) over the run: "
              + "; ".join(f"{name}: {x['n']} ({x['steps']} steps, {x['seeks']} seeks; median step error "
                          f"{x['median_error_ms']:.1f} ms)" for name, x in s["syncs"].items()) + ".", ""]
    f = R.get("fanout") or {}
    L += ["### Chat fan-out and the server at 200 members", ""]
    if f.get("skipped"):
        L += [f"Not measured: {f['skipped']}", ""]
    elif f:
        lat = f["latency_ms"]
        L += [f"`{cmdline(f['server_argv'])}` (heartbeat 5 s). {f['members']} members connect with Python "
              f"`websockets` (asyncio client, compression off) from {f['processes']} client processes, each "
              f"member answering every heartbeat; all joined in {f['join_s']:.1f} s. {f['senders']} members send "
              f"{f['sent']} chat messages in all, one every {SPACING:g} s (each sender 1.5 s apart, inside the "
              "5-per-5 s limit). Latency is from just before a message is written on the sender's socket to its "
              "arrival at each of the other members, on the one monotonic clock; it includes the server's "
              "SQLite commit and the Python clients' own work (each process parses every delivery in turn, on a "
              "shared machine), so it is an upper bound on the server's part.", "",
              "| figure | value |", "| --- | ---: |",
              f"| deliveries timed | {lat['n']} ({f['missing']} missing) |",
              f"| latency p50 | {_ms(lat['p50'])} |",
              f"| latency p99 | {_ms(lat['p99'])} |",
              f"| latency max | {_ms(lat['max'])} |",
              f"| per message: first member reached, median | {_ms(lat['first_median'])} |",
              f"| per message: last member reached, median | {_ms(lat['last_median'])} |",
              f"| members dropped during the run | {f['dropped']} |"]
        e, fo, idle = f.get("empty") or {}, f["fanout"], f["idle"]
        L += ["", "`refrain room serve` execs `refrain-room`, so the spawned process is the server; RSS is "
              "`VmRSS` from `/proc/PID/status`, CPU is utime + stime from `/proc/PID/stat` (all threads).", "",
              "| server | window | CPU | RSS at end | peak RSS (VmHWM) | threads |",
              "| --- | ---: | ---: | ---: | ---: | ---: |",
              f"| empty, just started | — | — | {_mb(e.get('rss_kb'))} | {_mb(e.get('hwm_kb'))} | {e.get('threads', 'n/a')} |",
              f"| {f['members']} members, chat fan-out | {fo['seconds']:.1f} s | {fo['cpu_s']:.2f} s ({_pct(fo['cpu_pct'])}) | "
              f"{_mb(fo['rss_kb'])} | {_mb(fo['hwm_kb'])} | {fo['threads']} |",
              f"| {f['members']} members, idle (heartbeats only) | {idle['seconds']:.1f} s | {idle['cpu_s']:.2f} s "
              f"({_pct(idle['cpu_pct'])}) | {_mb(idle['rss_kb'])} | {_mb(idle['hwm_kb'])} | {idle['threads']} |"]
        if f.get("errors"):
            L += ["", "Errors the members received: " + "; ".join(json.dumps(x) for x in f["errors"])]
        L.append("")
    z = R.get("sizes") or {}
    L += ["### The WebSocket stack's cost", ""]

    def size(key):
        return "not built" if z.get(key) is None else f"{z[key] / 1e6:.1f} MB"
    L += [f"Stripped, this build: `refrain-room` {size('refrain-room')}, `refrain` {size('refrain')}. The room "
          "server and a member's WebSocket link live in `refrain-room`, which `refrain` starts only in a room, "
          "so the player itself does not carry the WebSocket stack.", "",
          "From the one-off clean-build measurement recorded in docs/DECISIONS.md (\"Listening rooms use "
          "Hummingbird 2\": probe packages, `swift build -c release --static-swift-stdlib` from clean, 2 cores, "
          "not re-measured here): Foundation only 3.6 s / 52.4 MB; SwiftNIO `NIOWebSocket` + `NIOSSL` "
          "190 s / 61.0 MB; Hummingbird + HummingbirdWebSocket + HummingbirdWSClient 327 s / 74.4 MB "
          "(clean release build / stripped binary).", ""]
    return L


if __name__ == "__main__" and sys.argv[1:2] == ["--clients"]:
    _client_main(sys.argv[2], json.loads(sys.argv[3]), json.loads(sys.argv[4]))
elif __name__ == "__main__":
    import tempfile
    tmp = Path(tempfile.mkdtemp())
    binary = Path(os.environ.get("REFRAIN_BIN") or REPO / ".build" / "release" / "refrain")
    out = run({"bin": binary, "tmp": tmp}, quick="--quick" in sys.argv)
    print(json.dumps(out, indent=1, default=str))
    shutil.rmtree(tmp, ignore_errors=True)
