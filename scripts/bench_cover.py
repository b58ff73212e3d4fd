#!/usr/bin/env python3
"""Section 13 of make bench: cover art, Refrain's half blocks against chafa.

Makes a 1000×1000 photo-like picture (ImageMagick's plasma fractal, fixed seed) as a JPEG
and a PNG, then for each:

- in-process: `refrain-bench cover FILE --iterations N` decodes, fits into 30×15 cells,
  scales and encodes 24-bit half blocks N times and reports the median;
- per process: `refrain-bench cover FILE --iterations 1` and
  `chafa --size=30x15 --symbols=block --format=symbols --colors=full FILE` each run as a
  process, alternately, the median wall time of each.

    python3 scripts/bench_cover.py [--bench-bin PATH] [--runs N] [--workdir DIR]

prints one JSON object. bench.py imports `run`, `summary_rows` and `sections`.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
COLUMNS, ROWS = 30, 15


def _make_images(work: Path) -> dict[str, Path]:
    """The 1000×1000 pictures, the same pixels every run (plasma with seed 7)."""
    images = {"jpeg": work / "cover-1000.jpg", "png": work / "cover-1000.png"}
    base = ["convert", "-seed", "7", "-size", "1000x1000", "plasma:fractal"]
    subprocess.run(base + ["-quality", "90", str(images["jpeg"])], check=True)
    subprocess.run(base + [str(images["png"])], check=True)
    return images


def _wall_ms(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, timeout=60)
    return (time.perf_counter() - start) * 1000


def run(bench_bin: Path, work: Path, runs: int = 15, iterations: int = 21) -> dict:
    """Measures both images; returns the figures, or {"skipped": reason}."""
    if not shutil.which("convert"):
        return {"skipped": "ImageMagick is not installed (scripts/install-deps bench)"}
    if not (bench_bin.is_file()):
        return {"skipped": f"no refrain-bench at {bench_bin}"}
    chafa = shutil.which("chafa")
    work.mkdir(parents=True, exist_ok=True)
    images = _make_images(work)
    box = ["--columns", str(COLUMNS), "--rows", str(ROWS)]
    res: dict = {"columns": COLUMNS, "rows": ROWS, "runs": runs, "iterations": iterations,
                 "chafa": _chafa_version() if chafa else None, "images": {}}
    for kind, path in images.items():
        inproc = json.loads(subprocess.run(
            [str(bench_bin), "cover", str(path), "--iterations", str(iterations)] + box,
            capture_output=True, text=True, check=True).stdout)
        refrain_cmd = [str(bench_bin), "cover", str(path), "--iterations", "1"] + box
        chafa_cmd = [chafa or "chafa", f"--size={COLUMNS}x{ROWS}", "--symbols=block", "--format=symbols",
                     "--colors=full", "--animate=off", str(path)]
        refrain_ms, chafa_ms = [], []
        # Warm the page cache and both binaries once, then alternate who goes first.
        _wall_ms(refrain_cmd)
        if chafa:
            _wall_ms(chafa_cmd)
        for i in range(runs):
            order = ["refrain", "chafa"] if i % 2 == 0 else ["chafa", "refrain"]
            for who in order:
                if who == "refrain":
                    refrain_ms.append(_wall_ms(refrain_cmd))
                elif chafa:
                    chafa_ms.append(_wall_ms(chafa_cmd))
        res["images"][kind] = {
            "file": path.name, "bytes": path.stat().st_size,
            "in_process_ms": inproc["ns_median"] / 1e6,
            "decode_ms": inproc["decode_ns_median"] / 1e6,
            "scale_ms": inproc["scale_ns_median"] / 1e6,
            "encode_ms": inproc["encode_ns_median"] / 1e6,
            "decoded": f"{inproc['decoded_width']}×{inproc['decoded_height']}",
            "cells": f"{inproc['columns']}×{inproc['rows']}",
            "output_bytes": inproc["output_bytes"],
            "refrain_process_ms": statistics.median(refrain_ms),
            "chafa_process_ms": statistics.median(chafa_ms) if chafa_ms else None,
            "refrain_cmd": ["refrain-bench", "cover", path.name, "--iterations", "1"] + box,
            "chafa_cmd": ["chafa"] + chafa_cmd[1:-1] + [path.name],
        }
    return res


def _chafa_version() -> str:
    out = subprocess.run(["chafa", "--version"], capture_output=True, text=True).stdout
    return out.splitlines()[0] if out else "chafa"


def summary_rows(res: dict | None, within) -> list[str]:
    """Rows of the summary table (`| # | figure | Refrain | reference | target | vs target |`)."""
    if not res:
        return []
    if res.get("skipped"):
        return [f"| 13 | cover art, 1000×1000 into 30×15 half blocks | not measured | | ≤ chafa | {res['skipped']} |"]
    rows = []
    for kind, im in res["images"].items():
        c = im["chafa_process_ms"]
        ratio = im["refrain_process_ms"] / c if c else None
        rows.append(
            f"| 13 | cover art: a 1000×1000 {kind.upper()} to 30×15 24-bit half blocks, one process each | "
            f"{im['refrain_process_ms']:.1f} ms ({im['in_process_ms']:.1f} ms in-process) | "
            + (f"chafa {c:.1f} ms" if c else "chafa not installed")
            + " | ≤ chafa | " + (f"{ratio:.2f}× chafa: {within(ratio, 1.0)}" if ratio else "") + " |")
    return rows


def sections(res: dict | None, cmdline) -> list[str]:
    """The section's text for docs/benchmarks.md."""
    if not res:
        return []
    L = ["## 13. Cover art: decoding and half blocks", ""]
    if res.get("skipped"):
        return L + [f"Not measured: {res['skipped']}", ""]
    L += [f"`scripts/bench_cover.py` makes a 1000×1000 picture (`convert -seed 7 -size 1000x1000 "
          f"plasma:fractal`, a photo-like fractal) as a JPEG (quality 90) and a PNG, and turns each into "
          f"{res['columns']}×{res['rows']} cells of `▀` in 24-bit colour. In-process: the median of "
          f"{res['iterations']} rounds of `refrain-bench cover` (decode with libjpeg's DCT scaling where "
          f"it applies, box-filter scale, escape sequences). Per process: the median wall time of "
          f"{res['runs']} runs of each command, alternating which goes first; {res['chafa'] or 'chafa'} "
          "is the reference.", "",
          "| image | bytes | decoded at | decode | scale | encode | in-process | Refrain process | chafa process |",
          "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for kind, im in res["images"].items():
        c = im["chafa_process_ms"]
        L.append(f"| {kind.upper()} | {im['bytes']:,} | {im['decoded']} | {im['decode_ms']:.2f} ms | "
                 f"{im['scale_ms']:.2f} ms | {im['encode_ms']:.2f} ms | {im['in_process_ms']:.2f} ms | "
                 f"{im['refrain_process_ms']:.1f} ms | " + (f"{c:.1f} ms" if c else "—") + " |")
    L.append("")
    for kind, im in res["images"].items():
        L.append(f"- {kind.upper()}: `{cmdline(im['refrain_cmd'])}`; `{cmdline(im['chafa_cmd'])}`")
    L += ["", "The output is the same size either way (30×15 cells, about 15 KB of escape "
          "sequences); the per-process figures include each program's start-up.", ""]
    return L


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bench-bin", type=Path, default=REPO / ".build" / "release" / "refrain-bench")
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--iterations", type=int, default=21)
    ap.add_argument("--workdir", type=Path, default=None)
    args = ap.parse_args()
    work = args.workdir or Path(tempfile.mkdtemp(prefix="refrain-cover."))
    try:
        print(json.dumps(run(args.bench_bin, work, args.runs, args.iterations), indent=1))
    finally:
        if args.workdir is None:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
