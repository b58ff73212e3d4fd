#!/usr/bin/env python3
"""make bench, section 14: MPRIS, Refrain's and cmus's, on a private session bus.

Both players play Tests/Fixtures/generated/steps.mp3 silently (`refrain play --output
null`; cmus with the ao null driver, in tmux) on one `dbus-daemon --session` of the
bench's own. A client in the system Python (python3-dbus: the same libdbus every desktop
widget uses) then times, while both play:

- `Get` of `Metadata` and of `Position` on org.mpris.MediaPlayer2.Player, 1,000 calls
  each per player, alternating players, p50 and p99;
- key to state: `PlayPause`, then `Get PlaybackStatus` until it reads the new state, 10
  times per player;
and, with Refrain paused for 30 s (10 with --quick) with MPRIS on, its voluntary context
switches (all threads), which must stay at 0/s.

Measurements, not tests: a figure that cannot be taken is reported with the reason.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_tui as bt  # noqa: E402  (Pane, Cmus, watch_proc)

REPO = Path(__file__).resolve().parents[1]
STEPS = REPO / "Tests" / "Fixtures" / "generated" / "steps.mp3"
PLAYER = "org.mpris.MediaPlayer2.Player"
SYSTEM_PYTHON = "/usr/bin/python3"

# The timing client: run by the system Python, which has python3-dbus.
CLIENT = r'''
import json, sys, time
import dbus
bus = dbus.bus.BusConnection(sys.argv[1])
names, calls, flips = sys.argv[2].split(","), int(sys.argv[3]), int(sys.argv[4])
PLAYER = "org.mpris.MediaPlayer2.Player"
props = {n: dbus.Interface(bus.get_object(n, "/org/mpris/MediaPlayer2"),
                           "org.freedesktop.DBus.Properties") for n in names}
players = {n: dbus.Interface(bus.get_object(n, "/org/mpris/MediaPlayer2"), PLAYER) for n in names}
out = {n: {"metadata_ms": [], "position_ms": [], "key_to_state_ms": [], "title": None} for n in names}
for n in names:
    props[n].Get(PLAYER, "Metadata")  # the first call sets up the proxies
    out[n]["title"] = str(props[n].Get(PLAYER, "Metadata").get("xesam:title", ""))
for i in range(calls):
    for n in names:
        for prop, key in (("Metadata", "metadata_ms"), ("Position", "position_ms")):
            t0 = time.perf_counter()
            props[n].Get(PLAYER, prop)
            out[n][key].append((time.perf_counter() - t0) * 1000)
for n in names:
    for i in range(flips):
        before = str(props[n].Get(PLAYER, "PlaybackStatus"))
        t0 = time.perf_counter()
        players[n].PlayPause()
        while str(props[n].Get(PLAYER, "PlaybackStatus")) == before:
            if time.perf_counter() - t0 > 2:
                break
        out[n]["key_to_state_ms"].append((time.perf_counter() - t0) * 1000)
        time.sleep(0.05)
    if str(props[n].Get(PLAYER, "PlaybackStatus")) != "Playing":
        players[n].PlayPause()
print(json.dumps(out))
'''


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q / 100 * (len(xs) - 1))))] if xs else None


def summarize(xs: list[float]) -> dict:
    return {"n": len(xs), "p50": pct(xs, 50), "p99": pct(xs, 99), "max": max(xs) if xs else None}


def run(ctx: dict, quick: bool = False) -> dict:
    R: dict = {}
    missing = [t for t in ("dbus-daemon", "cmus", "tmux") if not shutil.which(t)]
    if missing or not Path(SYSTEM_PYTHON).exists():
        R["skipped"] = f"not installed: {', '.join(missing) or SYSTEM_PYTHON}"
        return R
    if subprocess.run([SYSTEM_PYTHON, "-c", "import dbus"], capture_output=True).returncode != 0:
        R["skipped"] = "python3-dbus is not installed"
        return R
    work = ctx["tmp"] / "mpris"
    work.mkdir(parents=True, exist_ok=True)
    daemon = subprocess.Popen(["dbus-daemon", "--session", f"--address=unix:path={work / 'bus'}", "--nofork",
                               "--print-address"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    address = daemon.stdout.readline().strip()
    refrain = cmus = None
    try:
        env = {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "HOME": str(work / "home"), "PATH": os.environ["PATH"],
               "DBUS_SESSION_BUS_ADDRESS": address}
        for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR"):
            d = work / "home" / var.lower()
            d.mkdir(parents=True, exist_ok=True, mode=0o700)
            env[var] = str(d)
        argv = [str(ctx["bin"]), "play", str(STEPS), "--output", "null"]
        R["refrain_cmd"] = argv[:1] + ["play", str(STEPS.relative_to(REPO)), "--output", "null"]
        refrain = subprocess.Popen(argv, env=env, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        cm = bt.Cmus(work / "cmus", pulse=False)
        (cm.cfg / "rc").write_text("set mpris=true\nset output_plugin=ao\nset dsp.ao.driver=null\n")
        cm.env["DBUS_SESSION_BUS_ADDRESS"] = address
        cm.start("cmus-mpris")
        cmus = cm
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and cm.remote("-Q").returncode != 0:
            time.sleep(0.1)
        cm.remote("-f", str(STEPS))
        names = ["org.mpris.MediaPlayer2.refrain", "org.mpris.MediaPlayer2.cmus"]
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            listed = subprocess.run(["dbus-send", f"--bus={address}", "--print-reply", "--dest=org.freedesktop.DBus",
                                     "/org/freedesktop/DBus", "org.freedesktop.DBus.ListNames"],
                                    capture_output=True, text=True).stdout
            if all(f'"{n}"' in listed for n in names):
                break
            time.sleep(0.1)
        else:
            R["skipped"] = f"the players did not both appear on the bus: {listed[-300:]}"
            return R
        calls, flips = (300, 5) if quick else (1000, 10)
        client = subprocess.run([SYSTEM_PYTHON, "-c", CLIENT, address, ",".join(names), str(calls), str(flips)],
                                capture_output=True, text=True, timeout=300)
        if client.returncode != 0:
            R["skipped"] = f"the D-Bus client failed: {client.stderr.strip()[-300:]}"
            return R
        raw = json.loads(client.stdout)
        for key, name in (("refrain", names[0]), ("cmus", names[1])):
            R[key] = {figure: summarize(raw[name][figure]) for figure in ("metadata_ms", "position_ms",
                                                                           "key_to_state_ms")}
            R[key]["title"] = raw[name]["title"]
        # Paused with MPRIS on: Refrain must not wake.
        subprocess.run(["dbus-send", f"--bus={address}", "--type=method_call", f"--dest={names[0]}",
                        "/org/mpris/MediaPlayer2", f"{PLAYER}.Pause"], capture_output=True, timeout=10)
        time.sleep(1.0)
        seconds = 10.0 if quick else 30.0
        R["paused"] = bt.watch_proc(refrain.pid, seconds, every=seconds)
        R["paused"]["seconds"] = seconds
    finally:
        if refrain and refrain.poll() is None:
            refrain.terminate()
            try:
                refrain.wait(5)
            except subprocess.TimeoutExpired:
                refrain.kill()
        if cmus:
            cmus.quit()
        daemon.terminate()
        daemon.wait(5)
        shutil.rmtree(work, ignore_errors=True)
    return R


def _ms(x) -> str:
    return "n/a" if x is None else f"{x:.2f} ms"


def summary_rows(R: dict | None, within) -> list[str]:
    """Rows of the summary table."""
    if not R:
        return []
    if R.get("skipped"):
        return [f"| 14 | MPRIS `Get` of `Metadata` and `Position`, p99 | not measured | | ≤ 2 ms and ≤ cmus | {R['skipped']} |"]
    rows = []
    for figure, label in (("metadata_ms", "Metadata"), ("position_ms", "Position")):
        ours, theirs = R["refrain"][figure], R["cmus"][figure]
        verdict = within(ours["p99"], 2.0) + ("" if ours["p99"] <= theirs["p99"] else "; **slower than cmus**")
        rows.append(f"| 14 | MPRIS `Get {label}` while playing, p50 / p99 (n = {ours['n']}) | "
                    f"{_ms(ours['p50'])} / {_ms(ours['p99'])} | cmus {_ms(theirs['p50'])} / {_ms(theirs['p99'])} | "
                    f"p99 ≤ 2 ms and ≤ cmus | {verdict} |")
    p = R.get("paused") or {}
    wake = p.get("wakeups_per_s")
    rows.append(f"| 14 | paused {p.get('seconds', 0):.0f} s with MPRIS on: wake-ups | "
                f"{'n/a' if wake is None else f'{wake:.2f}/s'} | — | 0/s | "
                f"{'met' if wake is not None and wake == 0 else '**missed**'} |")
    k, kc = R["refrain"]["key_to_state_ms"], R["cmus"]["key_to_state_ms"]
    rows.append(f"| 14 | `PlayPause` → `PlaybackStatus` changed, median (n = {k['n']}) | {_ms(k['p50'])} | "
                f"cmus {_ms(kc['p50'])} | — | |")
    return rows


def sections(R: dict | None, cmdline) -> list[str]:
    if not R:
        return []
    L = ["## 14. MPRIS", ""]
    if R.get("skipped"):
        return L + [f"Not measured: {R['skipped']}", ""]
    L += ["Refrain (`" + cmdline(R["refrain_cmd"]) + "`) and cmus (in tmux, `set mpris=true`, the ao null "
          "driver) play the same file on a private `dbus-daemon --session`. A client in the system Python "
          "(python3-dbus) calls `Get` on each player in turn, then `PlayPause` and reads `PlaybackStatus` "
          "until it changes. Times are the client's, a call's round trip through the bus daemon.", "",
          "| figure | Refrain p50 | p99 | max | cmus p50 | p99 | max |",
          "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for figure, label in (("metadata_ms", "`Get Metadata`"), ("position_ms", "`Get Position`"),
                          ("key_to_state_ms", "`PlayPause` → state")):
        a, b = R["refrain"][figure], R["cmus"][figure]
        L.append(f"| {label} (n = {a['n']}) | {_ms(a['p50'])} | {_ms(a['p99'])} | {_ms(a['max'])} | "
                 f"{_ms(b['p50'])} | {_ms(b['p99'])} | {_ms(b['max'])} |")
    p = R.get("paused") or {}
    L += ["", f"Paused through MPRIS's `Pause`, then {p.get('seconds', 0):.0f} s: "
          f"{p.get('vcs', 'n/a')} voluntary context switches over all of Refrain's threads "
          f"({p.get('wakeups_per_s', float('nan')):.2f}/s), CPU {p.get('cpu_pct', float('nan')):.2f}%.", ""]
    return L


if __name__ == "__main__":
    import tempfile
    tmp = Path(tempfile.mkdtemp())
    binary = Path(os.environ.get("REFRAIN_BIN") or REPO / ".build" / "release" / "refrain")
    print(json.dumps(run({"bin": binary, "tmp": tmp}, quick="--quick" in sys.argv), indent=1, default=str))
