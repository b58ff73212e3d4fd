#!/usr/bin/env python3
"""Benchmarks Refrain's local library: folder scans (against cmus) and search latency.

    scripts/bench_library.py [--bin PATH] [--files 10000] [--tracks 100000] [--runs 3]
                             [--workdir DIR] [--skip-cmus] [--skip-search]

(a) Scan: generates FILES tagged MP3s with scripts/make-library-fixture (kept in WORKDIR
    between runs), then times `refrain scan` into a fresh library (wall time and peak RSS from
    os.wait4) and a rescan with nothing changed. When cmus and cmus-remote are installed, cmus
    runs headless in a tmux server of its own with a fresh CMUS_HOME. Once it answers
    `cmus-remote -Q` (its start-up is not counted, Refrain's is; it is reported, and takes
    ~11 s when no sound server is reachable), the clock starts at `add -l DIR` and stops when
    `save -l` stops answering "can't save when tracks are being added". The saved listing
    gives the tracks cmus holds; a run counts only if that is every playable file in the
    fixture. The fixture is read once first, so that these runs find it in the page cache.
    Runs alternate Refrain, cmus, Refrain, … and the medians are compared (target:
    Refrain at least 2x faster). Then COLD-RUNS more of each with the folder's files
    dropped from the page cache first (posix_fadvise DONTNEED, after cmus has started), as
    on a first scan after a reboot.
(b) Search: indexes TRACKS synthetic tracks without files (`refrain-bench
    library-stress --tracks`), then `refrain-bench library-stress --search-bench` times searches inside the process
    (no start-up cost): p50 and p99 wall and CPU time per query kind (target: p99 <= 5 ms for
    prefix and substring queries).

Prints one JSON object. The binary is --bin, $REFRAIN_BIN, or .build/release/refrain.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
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


def opened(folder):
    """Each file under FOLDER, open for reading (files that cannot be opened are skipped)."""
    for root, _, names in os.walk(folder):
        for name in names:
            try:
                f = open(os.path.join(root, name), "rb", buffering=0)
            except OSError:
                continue
            with f:
                yield f


def evict(folder):
    """Drops FOLDER's files from the page cache (posix_fadvise DONTNEED), as on a first scan
    after a reboot or of a disk not read for a while. Folder entries stay cached."""
    for f in opened(folder):
        os.posix_fadvise(f.fileno(), 0, 0, os.POSIX_FADV_DONTNEED)


def warm(folder):
    """Reads every file in FOLDER once, so that the warm scans find them in the page cache."""
    for f in opened(folder):
        while f.read(1 << 20):
            pass


def refrain_scan(binary, folder, work, run, cold=False):
    data = work / f"data-{run}"
    shutil.rmtree(data, ignore_errors=True)
    env = dict(os.environ, XDG_DATA_HOME=str(data), XDG_CACHE_HOME=str(work / "cache"),
               XDG_CONFIG_HOME=str(work / "config"), XDG_STATE_HOME=str(work / "state"))
    os.sync()  # see cmus_scan
    if cold:
        evict(folder)
    wall, rss, out = run_measured([binary, "scan", "--json", str(folder)], env)
    summary = json.loads(out.strip().splitlines()[-1])
    os.sync()
    rewall, rerss, reout = run_measured([binary, "scan", "--json", str(folder)], env)
    resummary = json.loads(reout.strip().splitlines()[-1])
    return {"seconds": wall, "peak_rss_kb": rss, "added": summary["added"],
            "failed": summary["failed"], "rescan_seconds": rewall, "rescan_peak_rss_kb": rerss,
            "rescan_unchanged": resummary["unchanged"]}


CMUS_READY_TIMEOUT = 90  # seconds; with no sound server cmus takes ~11 s to start (see below)


def cmus_remote(sock, *args, timeout=30):
    proc = subprocess.run(["cmus-remote", "--server", str(sock), *args],
                          capture_output=True, text=True, timeout=timeout)
    return (proc.stdout + proc.stderr).strip()


def cmus_wait_ready(tmux, session, sock, stderr_path):
    """Waits until cmus's main loop answers `cmus-remote -Q`.

    cmus sets up its output plugins before its main loop runs, and only then reads commands
    from its socket (the socket exists, and accepts connections, well before). With a sound
    server (PulseAudio) that takes well under a second; with none, the JACK plugin retries
    starting jackd for ~6 s and libao probes for a NAS server for ~5 s more, so cmus needs
    ~11 s before it answers anything. A clock started at `add -l` would count that start-up.
    Without D-Bus cmus also stops at "Press <enter> to continue." after its MPRIS warning
    (printed when the probing is done): Enter is sent whenever that prompt shows up."""
    deadline = time.time() + CMUS_READY_TIMEOUT
    enters = 0
    while time.time() < deadline:
        alive = subprocess.run(tmux + ["list-panes", "-t", session, "-F", "#{pane_dead}"],
                               capture_output=True, text=True)
        if alive.returncode != 0 or alive.stdout.strip() == "1":
            sys.exit(f"bench_library: cmus exited during start-up: "
                     f"{stderr_path.read_text(errors='replace').strip()[-300:]}")
        stderr = stderr_path.read_text(errors="replace") if stderr_path.exists() else ""
        prompts = stderr.count("Press <enter> to continue")
        if prompts > enters:
            subprocess.run(tmux + ["send-keys", "-t", session, "Enter"], check=True)
            enters = prompts
        if sock.exists():
            try:
                status = cmus_remote(sock, "-Q", timeout=0.25)
            except subprocess.TimeoutExpired:
                continue  # connected, but cmus is still starting (or at its prompt)
            if status.startswith("status "):
                return
        time.sleep(0.05)
    sys.exit(f"bench_library: cmus did not answer cmus-remote within {CMUS_READY_TIMEOUT} s: "
             f"{stderr_path.read_text(errors='replace').strip()[-300:]}")


def cmus_scan(folder, work, run, expected, cold=False):
    """Times cmus adding FOLDER to an empty library, from `add -l` until it holds every track.

    cmus runs in a tmux server of its own (-S), so it inherits this process's environment
    (PULSE_SERVER and friends under scripts/with-test-pulse) rather than that of whatever
    tmux server happens to be running, and a fresh CMUS_HOME. The clock starts only once
    cmus answers on its socket (its start-up, reported as startup_seconds, is not counted)
    and stops when `save -l` is accepted (cmus refuses it with "can't save when tracks are
    being added" while the add job runs) and the saved listing holds all EXPECTED playable
    files; the run is valid only if it gets there."""
    home = work / f"cmus-{run}"
    shutil.rmtree(home, ignore_errors=True)
    home.mkdir(parents=True)
    sock, stderr_path = home / "sock", home / "stderr"
    # A tmux server of its own, its socket in CMUS_HOME (tmux leaves the socket file behind).
    tmux = ["tmux", "-S", str(home / "tmux.sock"), "-f", "/dev/null"]
    session = "cmus"
    launched = time.perf_counter()
    subprocess.run(tmux + ["new-session", "-d", "-s", session, "-x", "120", "-y", "40",
                           f"exec env CMUS_HOME={shlex.quote(str(home))} cmus --listen "
                           f"{shlex.quote(str(sock))} 2>{shlex.quote(str(stderr_path))}"], check=True)
    try:
        subprocess.run(tmux + ["set-option", "-t", session, "remain-on-exit", "on"],
                       capture_output=True)
        cmus_wait_ready(tmux, session, sock, stderr_path)
        startup = time.perf_counter() - launched
        # cmus answers "setting: 'output_plugin=pulse'" (nothing after = if none works).
        plugin = cmus_remote(sock, "-C", "set output_plugin?").partition("output_plugin=")[2]
        plugin = plugin.strip().strip("'")
        pane_pid = int(subprocess.run(tmux + ["list-panes", "-t", session, "-F", "#{pane_pid}"],
                                      capture_output=True, text=True).stdout.split()[0])
        listing = home / "library.pl"
        # Unwritten files of the previous run (cmus's cache, a library) would otherwise be
        # flushed inside this run's first fsync; both programs' runs start after a sync.
        os.sync()
        if cold:
            evict(folder)
        start = time.perf_counter()
        answer = cmus_remote(sock, "-C", f"add -l {folder}")
        if answer:
            sys.exit(f"bench_library: cmus refused the add: {answer}")
        # The add job runs on cmus's worker thread, which hands the tracks to the main loop in
        # batches of 32; the main loop files them into the library when it next wakes up. So
        # `save -l` can be accepted (no job left) while the last batches are still queued: a
        # listing saved at that moment was seen to hold 9,888 of 10,000 tracks. The clock
        # therefore stops at the first accepted save whose listing holds every playable file;
        # if the count stays short for 2 s after the job ended, the run does not count.
        polls, wall, tracks, inside, settle, job_done, short_saves = 0, None, 0, 0, None, None, 0
        prefix = f"{folder}/"
        while True:
            answer = cmus_remote(sock, "-C", f"save -l {listing}")
            saved = time.perf_counter()
            polls += 1
            if answer:
                if "being added" not in answer:
                    sys.exit(f"bench_library: cmus said: {answer}")
                time.sleep(0.02)
                continue
            job_done = job_done or saved
            lines = listing.read_text(errors="replace").splitlines() if listing.exists() else []
            tracks = sum(1 for line in lines if line.strip())
            inside = sum(1 for line in lines if line.startswith(prefix))
            if inside >= expected:
                wall = saved - start
                break
            short_saves += 1
            settle = settle or saved
            if saved - settle > 2:
                wall = settle - start
                break
            time.sleep(0.01)
        peak = 0
        for line in Path(f"/proc/{pane_pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                peak = int(line.split()[1])
        # cmus keeps its library in memory and writes it (CMUS_HOME/cache, lib.pl) when it
        # quits, while Refrain's time includes committing to its database: time that too.
        quit_start = time.perf_counter()
        cmus_remote(sock, "-C", "quit")
        while time.perf_counter() - quit_start < 30:
            try:
                if ") Z " in Path(f"/proc/{pane_pid}/stat").read_text(errors="replace"):
                    break  # exited, not yet reaped by tmux
            except FileNotFoundError:
                break
            time.sleep(0.005)
        quit_seconds = time.perf_counter() - quit_start
        cache = home / "cache"
        return {"seconds": wall, "peak_rss_kb": peak, "tracks": tracks, "tracks_in_folder": inside,
                "valid": inside >= expected and tracks == inside, "startup_seconds": startup,
                "output_plugin": plugin, "polls": polls, "quit_seconds": quit_seconds,
                "job_done_seconds": job_done - start, "short_saves": short_saves,
                "cache_bytes": cache.stat().st_size if cache.exists() else 0}
    finally:
        subprocess.run(tmux + ["kill-server"], capture_output=True)


def median(values):
    return round(statistics.median(values), 3)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=os.environ.get("REFRAIN_BIN")
                        or str(REPO / ".build" / "release" / "refrain"))
    parser.add_argument("--bench-bin", default=os.environ.get("REFRAIN_BENCH_BIN")
                        or str(REPO / ".build" / "release" / "refrain-bench"))
    parser.add_argument("--files", type=int, default=10000)
    parser.add_argument("--tracks", type=int, default=100000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cold-runs", type=int, default=3,
                        help="scans each with the folder's files evicted from the page cache")
    parser.add_argument("--iterations", type=int, default=400)
    parser.add_argument("--workdir", default=None)
    parser.add_argument("--skip-cmus", action="store_true")
    parser.add_argument("--skip-search", action="store_true")
    args = parser.parse_args()
    binary = str(Path(args.bin).resolve())
    if not os.access(binary, os.X_OK):
        sys.exit(f"bench_library: no refrain binary at {binary} (swift build -c release)")
    bench_binary = str(Path(args.bench_bin).resolve())
    if not args.skip_search and not os.access(bench_binary, os.X_OK):
        sys.exit(f"bench_library: no refrain-bench binary at {bench_binary} (make bench builds it)")
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
    manifest = json.loads((folder / "manifest.json").read_text())
    playable = sum(1 for entry in manifest if entry.get("style") != "broken")
    with_cmus = (not args.skip_cmus and shutil.which("cmus") and shutil.which("cmus-remote")
                 and shutil.which("tmux"))
    refrain_runs, cmus_runs = [], []
    warm(folder)
    for run in range(args.runs):
        refrain_runs.append(refrain_scan(binary, folder, work, run))
        if with_cmus:
            cmus_runs.append(cmus_scan(folder, work, run, playable))
    cold_refrain, cold_cmus = [], []
    for run in range(args.cold_runs):
        cold_refrain.append(refrain_scan(binary, folder, work, f"cold-{run}", cold=True))
        if with_cmus:
            cold_cmus.append(cmus_scan(folder, work, f"cold-{run}", playable, cold=True))
    scan = {
        "files": args.files, "runs": args.runs, "playable_files": playable,
        "broken_files": len(manifest) - playable,
        "refrain_seconds": median([r["seconds"] for r in refrain_runs]),
        "refrain_peak_rss_kb": max(r["peak_rss_kb"] for r in refrain_runs),
        "refrain_added": refrain_runs[0]["added"], "refrain_failed": refrain_runs[0]["failed"],
        "refrain_files_per_second": round(args.files / median([r["seconds"] for r in refrain_runs])),
        "refrain_rescan_seconds": median([r["rescan_seconds"] for r in refrain_runs]),
        "refrain_rescan_peak_rss_kb": max(r["rescan_peak_rss_kb"] for r in refrain_runs),
        "refrain_all_seconds": [round(r["seconds"], 3) for r in refrain_runs],
    }
    if cmus_runs:
        scan["cmus_all_seconds"] = [round(r["seconds"], 3) for r in cmus_runs]
        scan["cmus_all_tracks"] = [r["tracks"] for r in cmus_runs]
        scan["cmus_tracks"] = min(r["tracks"] for r in cmus_runs)
        scan["cmus_peak_rss_kb"] = max(r["peak_rss_kb"] for r in cmus_runs)
        scan["cmus_startup_seconds"] = median([r["startup_seconds"] for r in cmus_runs])
        scan["cmus_all_startup_seconds"] = [round(r["startup_seconds"], 2) for r in cmus_runs]
        scan["cmus_output_plugin"] = cmus_runs[0]["output_plugin"]
        scan["cmus_quit_seconds"] = median([r["quit_seconds"] for r in cmus_runs])
        # Saves accepted before the listing was complete (tracks still queued for cmus's main loop).
        scan["cmus_all_short_saves"] = [r["short_saves"] for r in cmus_runs]
        scan["cmus_all_job_done_seconds"] = [round(r["job_done_seconds"], 3) for r in cmus_runs]
        scan["cmus_cache_bytes"] = cmus_runs[0]["cache_bytes"]
        scan["sound_server"] = bool(os.environ.get("PULSE_SERVER"))
        if all(r["valid"] for r in cmus_runs):
            scan["cmus_seconds"] = median([r["seconds"] for r in cmus_runs])
            scan["cmus_files_per_second"] = round(playable / scan["cmus_seconds"])
            scan["speedup_vs_cmus"] = round(scan["cmus_seconds"] / scan["refrain_seconds"], 2)
            scan["target_2x_cmus_met"] = scan["speedup_vs_cmus"] >= 2
        else:
            scan["cmus"] = (f"not compared: cmus held {scan['cmus_all_tracks']} tracks after the "
                            f"add, not the {playable:,} playable files")
    else:
        scan["cmus"] = "not measured (install cmus and tmux, or drop --skip-cmus)"
    if cold_refrain:
        cold = {"runs": len(cold_refrain),
                "refrain_seconds": median([r["seconds"] for r in cold_refrain]),
                "refrain_all_seconds": [round(r["seconds"], 3) for r in cold_refrain]}
        if cold_cmus and all(r["valid"] for r in cold_cmus):
            cold["cmus_seconds"] = median([r["seconds"] for r in cold_cmus])
            cold["cmus_all_seconds"] = [round(r["seconds"], 3) for r in cold_cmus]
            cold["speedup_vs_cmus"] = round(cold["cmus_seconds"] / cold["refrain_seconds"], 2)
        scan["cold"] = cold
    result["scan"] = scan

    if not args.skip_search:
        db = work / f"search-{args.tracks}.sqlite"
        for suffix in ("", "-wal", "-shm"):
            Path(str(db) + suffix).unlink(missing_ok=True)
        _, rss, out = run_measured(
            [bench_binary, "library-stress", "--db", str(db), "--tracks", str(args.tracks)], os.environ)
        search = {"import": json.loads(out), "import_peak_rss_kb": rss,
                  "db_bytes": db.stat().st_size}
        _, rss, out = run_measured(
            [bench_binary, "library-stress", "--db", str(db), "--search-bench", "--iterations",
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
