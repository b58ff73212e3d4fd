#!/usr/bin/env python3
"""make bench, section 18: the edit–run loop.

- **A fresh clone to a runnable player.** `git clone` of this checkout into a temporary
  folder (Swift packages come from the machine's package mirror, as in CI), then
  `make release`: what `make run` does before it opens the player (the Debian packages
  are already installed here, so the install step only checks). The first frame then
  takes about 20 ms (section 6), so the build is the figure. Target ≤ 240 s on 2 cores.
- **Nothing changed.** `make release` again; `make rooms` (the listening-room binary,
  built after the player, with the same flags); `make release` after `make rooms`; and
  `make rooms` again. Each of the three repeats must compile nothing: target ≤ 20 s.

Measurements, not tests: a step that fails is reported with the last lines it printed.

    python3 scripts/bench.py --only 18 --out /tmp/bench.md   # within make bench's report
    python3 scripts/bench_build.py [--markdown]              # alone: JSON (or markdown) on stdout
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FRESH_TARGET_S = 240.0
NOOP_TARGET_S = 20.0
# (label, make target, the target it is held to)
STEPS = [
    ("fresh clone: `make release` (what `make run` builds)", "release", FRESH_TARGET_S),
    ("nothing changed: `make release`", "release", NOOP_TARGET_S),
    ("`make rooms` after the player (refrain-room)", "rooms", None),
    ("nothing changed: `make release` after `make rooms`", "release", NOOP_TARGET_S),
    ("nothing changed: `make rooms`", "rooms", NOOP_TARGET_S),
]


def _log(msg: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def _compiled(output: str) -> int:
    """How many `Compiling` lines SwiftPM printed (0: nothing was recompiled)."""
    return len(re.findall(r"^\[\d+/\d+\] Compiling ", output, flags=re.M))


def run(ctx: dict | None = None, quick: bool = False, log=_log) -> dict:
    """Times each step in a fresh clone; `quick` changes nothing (the figure is one build)."""
    if shutil.which("git") is None or shutil.which("make") is None:
        return {"skipped": "git or make is missing"}
    head = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True).stdout.strip()
    work = Path(tempfile.mkdtemp(prefix="refrain-bench-build-"))
    clone = work / "refrain"
    result: dict = {"commit": head, "steps": [], "cores": os.cpu_count()}
    try:
        subprocess.run(["git", "clone", "-q", str(REPO), str(clone)], check=True)
        for label, target, goal in STEPS:
            log(f"build: {label}")
            start = time.monotonic()
            done = subprocess.run(["make", target], cwd=clone, capture_output=True, text=True,
                                  timeout=1800, env=dict(os.environ, CI="true"))
            seconds = time.monotonic() - start
            output = done.stdout + done.stderr
            step = {"label": label, "target": target, "seconds": round(seconds, 1), "goal": goal,
                    "compiled": _compiled(output), "status": done.returncode}
            if done.returncode != 0:
                step["tail"] = output.strip().splitlines()[-8:]
            result["steps"].append(step)
            if done.returncode != 0:
                break
    except (subprocess.SubprocessError, OSError) as error:
        result["error"] = str(error)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return result


def _verdict(step: dict) -> str:
    if step["status"] != 0:
        return "**failed**: " + " / ".join(step.get("tail", []))[-300:]
    if step["goal"] is None:
        return "—"
    return "met" if step["seconds"] <= step["goal"] else "**missed**"


def summary_rows(R: dict | None, within=None) -> list[str]:
    if not R:
        return []
    if R.get("skipped") or not R.get("steps"):
        return [f"| 18 | the edit–run loop | not measured | | | {R.get('skipped') or R.get('error', '')} |"]
    rows = []
    for step in R["steps"]:
        goal = f"≤ {step['goal']:g} s" if step["goal"] is not None else ""
        rows.append(f"| 18 | {step['label']} | {step['seconds']:.1f} s ({step['compiled']} files compiled) "
                    f"| — | {goal} | {_verdict(step)} |")
    return rows


def sections(R: dict | None, cmdline) -> list[str]:
    if not R:
        return []
    L = ["## 18. The edit–run loop", ""]
    if R.get("skipped") or not R.get("steps"):
        return L + [f"Not measured: {R.get('skipped') or R.get('error', 'no step ran')}", ""]
    L += [f"A fresh `git clone` of {R['commit']} on {R['cores']} cores, then each `make` target in turn in "
          "that clone (Swift packages from the machine's package mirror; Debian packages already "
          "installed, so their step only checks). *Files compiled* counts SwiftPM's `Compiling` lines: "
          "0 means the step rebuilt nothing. Before this wave, `make run` on a fresh clone took 9 min 15 s "
          "(it built refrain-room too), and a second one recompiled for 2–4 minutes. On a new "
          "machine `make run` first installs the Debian packages, which this figure leaves out. "
          "Command: `python3 scripts/bench.py --only 18` (or `scripts/bench_build.py` alone).", "",
          "| step | seconds | files compiled | target | |", "| --- | ---: | ---: | --- | --- |"]
    for step in R["steps"]:
        goal = f"≤ {step['goal']:g} s" if step["goal"] is not None else "—"
        L.append(f"| {step['label']} | {step['seconds']:.1f} | {step['compiled']} | {goal} | {_verdict(step)} |")
    L.append("")
    return L


def main() -> int:
    result = run()
    if "--markdown" in sys.argv:
        print("\n".join(summary_rows(result) + [""] + sections(result, lambda argv: " ".join(argv))))
    else:
        print(json.dumps(result, indent=2))
    return 0 if all(step["status"] == 0 for step in result.get("steps", [])) else 1


if __name__ == "__main__":
    sys.exit(main())
