#!/usr/bin/env python3
"""make bench, section 5 under load: lyric `line` events and dropouts on a busy machine.

Section 5 (scripts/bench.py, `bench_lyric_events`) is measured a second time while
`stress-ng --cpu 4` keeps the two cores busy twice over (`CPULoad` in
Tests/EndToEnd/harness.py, as Tests/EndToEnd/test_busy_machine.py uses it), and the figures
are set beside the unloaded ones of the same bench run: `line` event − tone change heard (as
recorded and on the sink's clock), `position` event error, and dropouts (digital silence of
1 ms or more inside the tone). Nothing else changes between the two measurements: the same
binary, fixtures, recorder and analysis.

Measurements, not tests: a figure that cannot be taken is reported with the reason.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "Tests" / "EndToEnd"))

from harness import CPULoad  # noqa: E402

WORKERS = 4   # stress-ng --cpu 4: two busy loops per core on a 2-core machine


def _loadavg() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def run(measure, log) -> dict:
    """Runs `measure()` (section 5's lyric-event runs) under `stress-ng --cpu WORKERS`."""
    R: dict = {"workers": WORKERS, "nproc": os.cpu_count(), "load_before": _loadavg()}
    started = time.monotonic()
    try:
        with CPULoad(WORKERS, timeout=300) as load:
            R["events"] = measure()
            R["held"] = load.running
            R["load_after"] = _loadavg()
        R["seconds"] = time.monotonic() - started
        R["stress_cpu_s"] = load.cpu_seconds
    except RuntimeError as error:   # no stress-ng, or it would not start
        R["skipped"] = str(error)
        return R
    log(f"lyric events under stress-ng --cpu {WORKERS}: median error "
        f"{_fmt(_median((R['events'] or {}).get('errors_ms')), 1)} ms as recorded")
    return R


# ---------------------------------------------------------------- figures

def _median(xs):
    return statistics.median(xs) if xs else None


def _fmt(x, digits=1, unit=""):
    return "n/a" if x is None else f"{x:.{digits}f}{unit}"


def _figures(le: dict | None) -> dict | None:
    """Section 5's figures for one measurement: errors, position errors, dropouts."""
    if not le or not le.get("errors_ms"):
        return None
    runs = [ri for ri in le["runs"] if not ri["check"]]
    gaps = [g for ri in runs for g in ri["dropouts"]]
    e, pa = le["errors_ms"], le.get("errors_pa_ms") or []
    return {"n": len(e), "median": _median([abs(x) for x in e]), "max": max(abs(x) for x in e),
            "median_pa": _median([abs(x) for x in pa]), "max_pa": max((abs(x) for x in pa), default=None),
            "signed": e, "position": _median(le.get("position_errors_ms")),
            "position_pa": _median(le.get("position_errors_pa_ms")),
            "dropouts": gaps, "seconds": sum(ri["seconds"] for ri in runs)}


def _gaps(f: dict) -> str:
    g = f["dropouts"]
    return (f"{len(g)} in {f['seconds']:.0f} s"
            + (f" (longest {max(x['ms'] for x in g):.1f} ms)" if g else ""))


def summary_rows(R: dict | None, unloaded: dict | None, within) -> list[str]:
    if not R:
        return []
    label = f"under `stress-ng --cpu {R['workers']}` ({R['nproc']} cores)"
    if R.get("skipped"):
        return [f"| 5 | `line` events and dropouts {label} | not measured | | | {R['skipped']} |"]
    f, u = _figures(R.get("events")), _figures(unloaded)
    if f is None:
        return [f"| 5 | `line` events {label} | not measured | | | no `line` events were placed |"]
    ref = (f"unloaded, same run: {_fmt(u['median_pa'], 1, ' ms')} on the sink's clock ({u['median']:.1f} ms "
           "as recorded)" if u else "—")
    ref_max = (f"unloaded: {_fmt(u['max_pa'], 1, ' ms')} on the sink's clock ({u['max']:.1f} ms as recorded)"
               if u else "—")
    return [
        f"| 5 | `line` event − tone change heard {label}, median \\|error\\| (n = {f['n']}) | "
        f"{_fmt(f['median_pa'], 1, ' ms')} on the sink's clock ({f['median']:.1f} ms as recorded) | {ref} | "
        f"≤ 10 ms | {within(f['median_pa'], 10) if f['median_pa'] is not None else ''} on the sink's clock; "
        f"{within(f['median'], 10)} as recorded |",
        f"| 5 | same {label}, max \\|error\\| | {_fmt(f['max_pa'], 1, ' ms')} on the sink's clock "
        f"({f['max']:.1f} ms as recorded) | {ref_max} | ≤ 30 ms | "
        f"{within(f['max_pa'], 30) if f['max_pa'] is not None else ''} on the sink's clock; "
        f"{within(f['max'], 30)} as recorded |",
        f"| 5 | dropouts heard (silence ≥ 1 ms) {label} | {_gaps(f)} | "
        + (f"unloaded: {_gaps(u)}" if u else "—") + " | none | "
        + ("none heard" if not f["dropouts"] else "**audible gaps**") + " |",
    ]


def section(R: dict | None, unloaded: dict | None, cmdline) -> list[str]:
    """The loaded run, under section 5's own tables."""
    if not R:
        return []
    L = [f"### Under load: `stress-ng --cpu {R['workers']}`", ""]
    if R.get("skipped"):
        return L + [f"Not measured: {R['skipped']}", ""]
    le = R.get("events") or {}
    f, u = _figures(le), _figures(unloaded)
    if f is None:
        return L + ["Not measured: no `line` events were placed in the recording.", ""]
    L += [f"The same runs as above (`{cmdline(le['cmd'])}`), measured again while "
          f"`stress-ng --cpu {R['workers']}` ran: {R['workers']} busy loops on {R['nproc']} cores, started "
          f"before the recorder and stopped after the analysis ({R['seconds']:.0f} s; its workers used "
          f"{R['stress_cpu_s']:.0f} CPU-seconds, "
          + ("and all of them ran to the end" if R.get("held") else "**but stress-ng stopped early**")
          + f"). Load average (1, 5, 15 min) {R['load_before']} before, {R['load_after']} at the end. "
          "Tests/EndToEnd/test_busy_machine.py checks the same under the same load, with the bounds "
          "of a test.", ""]
    L += ["| run | line | LRC time | event `t` | error as recorded | on the sink's clock |",
          "| --- | --- | --- | --- | --- | --- |"]
    for r in le["rows"]:
        if r["check"]:
            continue
        L.append(f"| {r['run']} | {r['index']} | {_fmt(r['lrc'], 3, ' s')} | {r['t']:.3f} s | "
                 f"{_fmt(r['error'], 1, ' ms')} | {_fmt(r['error_pa'], 1, ' ms')}"
                 + (" — dropout at the change; heard = where the new tone resumed" if r.get("glitch") else "")
                 + " |")
    L += ["", "| | `line` error, median \\|error\\| | max \\|error\\| | `position` error, median | dropouts |",
          "| --- | --- | --- | --- | --- |"]
    for name, x in (("unloaded (above)", u), (f"`stress-ng --cpu {R['workers']}`", f)):
        if x is None:
            continue
        L.append(f"| {name} | {_fmt(x['median_pa'], 1, ' ms')} on the sink's clock ({x['median']:.1f} ms as "
                 f"recorded) | {_fmt(x['max_pa'], 1, ' ms')} ({x['max']:.1f} ms as recorded) | "
                 f"{_fmt(x['position_pa'], 1, ' ms')} on the sink's clock ({_fmt(x['position'], 1, ' ms')} as "
                 f"recorded) | {_gaps(x)} |")
    L.append("")
    return L
