"""The library file survives `refrain` being killed at any moment.

`refrain-bench library-stress --count N` adds playlist entries one transaction at a time and
prints `ok K` only after entry K's transaction committed. This test SIGKILLs it at random
moments, 30 times, on one database file, then checks that SQLite finds the file intact and
that every acknowledged entry is there. It needs no audio server.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

RUNS = 30


def acknowledged(output: str) -> int:
    """The highest K of the complete `ok K` lines (a torn last line does not count)."""
    highest = 0
    for line in output.splitlines(keepends=True):
        if line.startswith("ok ") and line.endswith("\n"):
            highest = max(highest, int(line[3:]))
    return highest


def check(db: Path, acks: dict[str, int]) -> None:
    connection = sqlite3.connect(db)
    try:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert connection.execute("PRAGMA foreign_key_check").fetchall() == []
        tables = {name for (name,) in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "playlist_entries" not in tables:
            # Killed before the first migration committed: nothing may have been acknowledged.
            assert sum(acks.values()) == 0
            return
        rows = connection.execute(
            "SELECT e.track_id, e.position FROM playlist_entries e "
            "JOIN playlists p ON p.id = e.playlist_id WHERE p.name = 'stress' ORDER BY e.position"
        ).fetchall()
    finally:
        connection.close()
    # Positions stay dense: 0, 1, 2, … with no gap or duplicate.
    assert [position for _, position in rows] == list(range(len(rows)))
    present = {track_id for track_id, _ in rows}
    for prefix, count in acks.items():
        missing = [k for k in range(1, count + 1) if f"{prefix}-{k}" not in present]
        assert not missing, f"{prefix}: acknowledged entries lost: {missing[:10]}"


def test_killed_writers_never_lose_acknowledged_entries(bench_bin, tmp_path):
    seed = int(os.environ.get("REFRAIN_CRASH_SEED") or 20261125)
    rng = random.Random(seed)
    print(f"seed {seed} (set REFRAIN_CRASH_SEED to repeat)")
    db = tmp_path / "library.sqlite"
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"),
               XDG_STATE_HOME=str(tmp_path / "state"), XDG_CACHE_HOME=str(tmp_path / "cache"),
               XDG_CONFIG_HOME=str(tmp_path / "config"))
    acks: dict[str, int] = {}
    for run in range(RUNS):
        prefix = f"run{run}"
        proc = subprocess.Popen(
            [str(bench_bin), "library-stress", "--db", str(db), "--count", "1000000",
             "--prefix", prefix],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        # Early kills land in start-up, opening and migrating; later ones mid-write.
        time.sleep(rng.choice([rng.uniform(0.0, 0.05), rng.uniform(0.05, 0.8)]))
        proc.send_signal(signal.SIGKILL)
        out, err = proc.communicate(timeout=30)
        assert proc.returncode == -signal.SIGKILL, f"run {run} ended early: {err.decode()}"
        acks[prefix] = acknowledged(out.decode())
        check(db, acks)
    total = sum(acks.values())
    print(f"{RUNS} kills, {total} acknowledged entries, all present")
    assert total > 0, "no write was ever acknowledged: the writer never got going"

    # The store opens the file afterwards and keeps appending.
    done = subprocess.run(
        [str(bench_bin), "library-stress", "--db", str(db), "--count", "3", "--prefix", "after"],
        capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["ok 1", "ok 2", "ok 3"]
    acks["after"] = 3
    check(db, acks)


def test_a_first_scan_killed_halfway_leaves_no_half_built_library(refrain_bin, tmp_path):
    """A first scan builds `library.sqlite.building-PID` and renames it at the end; killed
    before that, it leaves no library file at all, and the next scan indexes everything."""
    music = tmp_path / "music"
    subprocess.run([str(REPO / "scripts" / "make-library-fixture"), "3000", str(music)], check=True,
                   capture_output=True, timeout=300)
    data = tmp_path / "data"
    env = dict(os.environ, XDG_DATA_HOME=str(data), XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_STATE_HOME=str(tmp_path / "state"), XDG_CACHE_HOME=str(tmp_path / "cache"))
    library = data / "refrain" / "library.sqlite"
    scan = subprocess.Popen([str(refrain_bin), "scan", "--json", str(music)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    building = library.parent / f"library.sqlite.building-{scan.pid}"
    deadline = time.monotonic() + 30
    while not building.exists() and time.monotonic() < deadline:
        time.sleep(0.001)
    assert building.exists(), "the first scan did not start building its library"
    scan.send_signal(signal.SIGKILL)
    scan.wait(10)
    assert not library.exists(), "a killed first scan left a library file behind"

    done = subprocess.run([str(refrain_bin), "scan", "--json", str(music)], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["added"] + summary["failed"] == summary["files"] > 2900, summary
    assert not building.exists(), "the killed scan's build was not removed"
    assert sorted(p.name for p in library.parent.iterdir() if ".building-" in p.name) == []
    with sqlite3.connect(library) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert db.execute("SELECT COUNT(*) FROM local_tracks").fetchone()[0] == summary["added"]
