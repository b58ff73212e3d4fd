#!/usr/bin/env python3
"""Benchmarks Refrain's local library: folder scans (against cmus) and search latency.

    scripts/bench_library.py [--bin PATH] [--files 10000] [--tracks 100000] [--runs 3]
                             [--workdir DIR] [--skip-cmus] [--skip-search]

(a) Scan: generates FILES tagged MP3s with scripts/make-library-fixture (kept in WORKDIR
    between runs), then times `refrain scan` into a fresh library (wall time and peak RSS from
    os.wait4) and a rescan with nothing changed. When cmus and cmus-remote are installed, cmus
    runs headless in tmux with a fresh CMUS_HOME: the clock starts at `add -l DIR` and stops
    when `save -l` stops answering "can't save when tracks are being added" (cmus's own
    start-up is not counted; Refrain's is). Runs alternate Refrain, cmus, Refrain, … and the
    medians are compared (target: Refrain at least 2x faster).
(b) Search: indexes TRACKS synthetic tracks without files (`refrain library-stress
    --tracks`), then `refrain library-stress --search-bench` times searches inside the process
    (no start-up cost): p50 and p99 wall and CPU time per query kind (target: p99 <= 5 ms for
    prefix and substring queries).

Prints one JSON object. The binary is --bin, $REFRAIN_BIN, or .build/release/refrain.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def run_measured(argv, env):
    """Runs argv; returns (wall seconds, peak RSS in KB, stdout)."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.stdout.close()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"bench_library: {' '.join(map(str, argv))} failed")
    return wall, usage.ru_maxrss, out.decode()


def refrain_scan(binary, folder, work, run):
    data = work / f"data-{run}"
    shutil.rmtree(data, ignore_errors=True)
    env = dict(os.environ, XDG_DATA_HOME=str(data), XDG_CACHE_HOME=str(work / "cache"),
               XDG_CONFIG_HOME=str(work / "config"), XDG_STATE_HOME=str(work / "state"))
    wall, rss, out = run_measured([binary, "scan", "--json", str(folder)], env)
    summary = json.loads(out.strip().splitlines()[-1])
    rewall, rerss, reout = run_measured([binary, "scan", "--json", str(folder)], env)
    resummary = json.loads(reout.strip().splitlines()[-1])
    return {"seconds": wall, "peak_rss_kb": rss, "added": summary["added"],
            "failed": summary["failed"], "rescan_seconds": rewall, "rescan_peak_rss_kb": rerss,
            "rescan_unchanged": resummary["unchanged"]}


def cmus_remote(sock, command):
    proc = subprocess.run(["cmus-remote", "--server", str(sock), "-C", command],
                          capture_output=True, text=True, timeout=30)
    return (proc.stdout + proc.stderr).strip()


def cmus_scan(folder, work, run):
    home = work / f"cmus-{run}"
    shutil.rmtree(home, ignore_errors=True)
    home.mkdir(parents=True)
    sock = home / "sock"
    session = f"refrain-bench-cmus-{os.getpid()}-{run}"
    subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "120", "-y", "40",
                    f"exec env CMUS_HOME={home} cmus --listen {sock} 2>{home}/stderr"], check=True)
    try:
        deadline = time.time() + 10
        while not sock.exists() and time.time() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)
        # Without D-Bus, cmus asks for Enter after its MPRIS warning.
        subprocess.run(["tmux", "send-keys", "-t", session, "Enter"], check=True)
        time.sleep(0.3)
        pane_pid = int(subprocess.run(["tmux", "list-panes", "-t", session, "-F", "#{pane_pid}"],
                                      capture_output=True, text=True).stdout.split()[0])
        listing = home / "library.pl"
        start = time.perf_counter()
        cmus_remote(sock, f"add -l {folder}")
        while True:
            answer = cmus_remote(sock, f"save -l -e {listing}")
            if not answer:
                break
            if "being added" not in answer:
                sys.exit(f"bench_library: cmus said: {answer}")
            time.sleep(0.02)
        wall = time.perf_counter() - start
        tracks = sum(1 for line in listing.read_text(errors="replace").splitlines()
                     if line.startswith("file "))
        peak = 0
        for line in Path(f"/proc/{pane_pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                peak = int(line.split()[1])
        return {"seconds": wall, "peak_rss_kb": peak, "tracks": tracks}
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)


def median(values):
    return round(statistics.median(values), 3)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=os.environ.get("REFRAIN_BIN")
                        or str(REPO / ".build" / "release" / "refrain"))
    parser.add_argument("--files", type=int, default=10000)
    parser.add_argument("--tracks", type=int, default=100000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--iterations", type=int, default=400)
    parser.add_argument("--workdir", default=None)
    parser.add_argument("--skip-cmus", action="store_true")
    parser.add_argument("--skip-search", action="store_true")
    args = parser.parse_args()
    binary = str(Path(args.bin).resolve())
    if not os.access(binary, os.X_OK):
        sys.exit(f"bench_library: no refrain binary at {binary} (swift build -c release)")
    work = Path(args.workdir or Path(tempfile.gettempdir()) / "refrain-bench-library")
    work.mkdir(parents=True, exist_ok=True)
    result = {"binary": binary, "cpus": os.cpu_count(), "load_before": os.getloadavg()[0]}

    folder = work / f"music-{args.files}"
    if not (folder / "manifest.json").exists():
        shutil.rmtree(folder, ignore_errors=True)
        started = time.perf_counter()
        subprocess.run([str(REPO / "scripts" / "make-library-fixture"), str(args.files),
                        str(folder)], check=True, stdout=subprocess.DEVNULL)
        result["fixture_seconds"] = round(time.perf_counter() - started, 2)
    with_cmus = (not args.skip_cmus and shutil.which("cmus") and shutil.which("cmus-remote")
                 and shutil.which("tmux"))
    refrain_runs, cmus_runs = [], []
    for run in range(args.runs):
        refrain_runs.append(refrain_scan(binary, folder, work, run))
        if with_cmus:
            cmus_runs.append(cmus_scan(folder, work, run))
    scan = {
        "files": args.files, "runs": args.runs,
        "refrain_seconds": median([r["seconds"] for r in refrain_runs]),
        "refrain_peak_rss_kb": max(r["peak_rss_kb"] for r in refrain_runs),
        "refrain_added": refrain_runs[0]["added"], "refrain_failed": refrain_runs[0]["failed"],
        "refrain_files_per_second": round(args.files / median([r["seconds"] for r in refrain_runs])),
        "refrain_rescan_seconds": median([r["rescan_seconds"] for r in refrain_runs]),
        "refrain_rescan_peak_rss_kb": max(r["rescan_peak_rss_kb"] for r in refrain_runs),
        "refrain_all_seconds": [round(r["seconds"], 3) for r in refrain_runs],
    }
    if cmus_runs:
        scan["cmus_seconds"] = median([r["seconds"] for r in cmus_runs])
        scan["cmus_peak_rss_kb"] = max(r["peak_rss_kb"] for r in cmus_runs)
        scan["cmus_tracks"] = cmus_runs[0]["tracks"]
        scan["cmus_all_seconds"] = [round(r["seconds"], 3) for r in cmus_runs]
        scan["speedup_vs_cmus"] = round(scan["cmus_seconds"] / scan["refrain_seconds"], 2)
        scan["target_2x_cmus_met"] = scan["speedup_vs_cmus"] >= 2
    else:
        scan["cmus"] = "not measured (install cmus and tmux, or drop --skip-cmus)"
    result["scan"] = scan

    if not args.skip_search:
        db = work / f"search-{args.tracks}.sqlite"
        for suffix in ("", "-wal", "-shm"):
            Path(str(db) + suffix).unlink(missing_ok=True)
        _, rss, out = run_measured(
            [binary, "library-stress", "--db", str(db), "--tracks", str(args.tracks)], os.environ)
        search = {"import": json.loads(out), "import_peak_rss_kb": rss,
                  "db_bytes": db.stat().st_size}
        _, rss, out = run_measured(
            [binary, "library-stress", "--db", str(db), "--search-bench", "--iterations",
             str(args.iterations)], os.environ)
        search["latency"] = json.loads(out)
        search["search_peak_rss_kb"] = rss
        latency = search["latency"]
        search["target_p99_5ms_met"] = all(
            latency[f"{kind}_p99_ms"] <= 5 for kind in ("prefix", "substring"))
        result["search"] = search
    result["load_after"] = os.getloadavg()[0]
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
