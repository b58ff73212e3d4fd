"""Section 19 of Refrain's benchmarks: every format a library holds (issue 27, "Measure").

FLAC (16- and 24-bit), Ogg Vorbis, Opus, AAC in M4A, WAV and MP3, each made by its real
encoder from the same tones (second k sounds 300 + 50·k Hz, as steps.mp3), measured side
by side with the reference decoder CLI and with cmus in the same run:

a. CPU and peak RSS to play 30 s through PulseAudio: `refrain play FILE --output pulse`
   against the format's reference CLI decoding into `paplay` (paced to the test sink, both
   processes counted) and decoding to /dev/null (as fast as it can: the decoder alone),
   and against cmus playing the same file (`cmus-remote -f`, CPU from /proc over the play).
b. A scan of a mixed 10,000-file library (FLAC, Opus, Vorbis, M4A, MP3; 2,000 each), fresh
   and with nothing changed, against cmus's `add -l` (the method of bench_library.py).
c. The gap heard at each boundary of a 220 Hz tone split into two files: silent samples,
   the phase slip and the largest departure from the tone at the join; also joins between
   formats and across rates (FLAC 44.1 kHz → Opus 48 kHz, Opus 48 kHz → MP3 and FLAC at
   44.1 kHz: the later track is resampled to the open stream's rate), those again several
   times on a quiet machine and under `stress-ng --cpu 2`.
d. `line` events (sidecar .lrc) against the tone change heard, per format.
e. Seeks on `--events` stdin: where the audio heard lands against where it was asked.

The media are generated once into $REFRAIN_BENCH_MEDIA (default
/tmp/refrain-bench-formats) under a key made of the recipe and the encoders' versions, so
a second run reuses them; nothing generated goes into git.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import statistics
import struct
import subprocess
import sys
import time
import wave
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "Tests" / "EndToEnd"))

import audio_analysis as aa  # noqa: E402
import bench_audio as ba  # noqa: E402
import bench_library as blib  # noqa: E402
import bench_tui as bt  # noqa: E402
from harness import CPULoad, Recorder  # noqa: E402

FREQS = [300 + 50 * k for k in range(30)]
KINDS = ["flac16", "flac24", "ogg", "opus", "m4a", "wav", "mp3"]
LABEL = {"flac16": "FLAC 16-bit", "flac24": "FLAC 24-bit", "ogg": "Ogg Vorbis", "opus": "Opus",
         "m4a": "AAC in M4A", "wav": "WAV", "mp3": "MP3"}
EXT = {"flac16": "flac", "flac24": "flac", "ogg": "ogg", "opus": "opus", "m4a": "m4a", "wav": "wav",
       "mp3": "mp3"}
RECIPE = "formats-v1: steps 30 s 44.1k stereo amp 0.5 phase-reset per second; gap tone 220 Hz 6 s split 2.5 s+37; " \
         "flac -s; oggenc -Q; opusenc --quiet; ffmpeg aac 160k; lame --cbr -b 128; library 10000 = 5 x 2000"
GAP_FREQ = 220.0
GAP_SPLIT = 2.5   # seconds; the 44.1 kHz split adds 37 samples so no codec frame lines up with it
SCAN_FORMATS = ["flac", "opus", "ogg", "m4a", "mp3"]


def _median(xs):
    return statistics.median(xs) if xs else None


def _tool_version(argv: list[str]) -> str:
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=20)
        return (p.stdout + p.stderr).strip().split("\n")[0]
    except (OSError, subprocess.SubprocessError):
        return "missing"


# ---------------------------------------------------------------- media

def _write_wav(path: Path, x: np.ndarray, rate: int, bits: int = 16) -> None:
    """A stereo PCM WAV of the mono signal `x` (floats in [-1, 1))."""
    scale = (1 << (bits - 1)) - 1
    ints = np.round(np.clip(x, -1, 1) * scale).astype(np.int32)
    st = np.repeat(ints, 2)
    if bits == 16:
        raw = st.astype("<i2").tobytes()
    else:
        b = st.astype("<i4").view(np.uint8).reshape(-1, 4)[:, :3]
        raw = b.tobytes()
    with wave.open(str(path), "wb") as w:
        w.setnchannels(2)
        w.setsampwidth(bits // 8)
        w.setframerate(rate)
        w.writeframes(raw)


def _steps(rate: int = 44100) -> np.ndarray:
    n = np.arange(rate)
    return np.concatenate([0.5 * np.sin(2 * np.pi * f * n / rate) for f in FREQS])


def _encode(kind: str, wav: Path, out: Path, tags: dict | None = None) -> None:
    tags = tags or {}
    if kind in ("flac16", "flac24", "flac"):
        argv = ["flac", "-s", "-f", "-o", str(out)] + [f"-T{k.upper()}={v}" for k, v in tags.items()] + [str(wav)]
    elif kind == "ogg":
        argv = ["oggenc", "-Q", "-o", str(out)] + [f"-c{k.upper()}={v}" for k, v in tags.items()] + [str(wav)]
    elif kind == "opus":
        argv = ["opusenc", "--quiet"] + [a for k, v in tags.items() for a in ("--comment", f"{k.upper()}={v}")] \
            + [str(wav), str(out)]
    elif kind == "m4a":
        argv = ["ffmpeg", "-v", "error", "-y", "-i", str(wav), "-c:a", "aac", "-b:a", "160k"] \
            + [a for k, v in tags.items() for a in ("-metadata", f"{'track' if k == 'tracknumber' else k}={v}")] \
            + [str(out)]
    elif kind == "mp3":
        argv = ["lame", "--quiet", "--cbr", "-b", "128", "--add-id3v2", "--tt", tags.get("title", ""),
                "--ta", tags.get("artist", ""), "--tl", tags.get("album", ""), "--tn",
                tags.get("tracknumber", "1"), str(wav), str(out)] if tags else \
            ["lame", "--quiet", "--cbr", "-b", "128", str(wav), str(out)]
    elif kind == "wav":
        shutil.copy(wav, out)
        return
    else:
        raise ValueError(kind)
    subprocess.run(argv, check=True, capture_output=True, timeout=300)


def media_key() -> str:
    versions = [_tool_version(a) for a in (["flac", "--version"], ["oggenc", "--version"], ["opusenc", "--version"],
                                           ["ffmpeg", "-version"], ["lame", "--version"])]
    return hashlib.sha256((RECIPE + "\n" + "\n".join(versions)).encode()).hexdigest()[:12]


def make_media(root: Path, log) -> Path:
    """The steps files of every format (with a sidecar .lrc in lyrics/), the gap pairs."""
    d = root / media_key()
    if (d / "done").exists():
        return d
    shutil.rmtree(d, ignore_errors=True)
    (d / "play").mkdir(parents=True)
    (d / "lyrics").mkdir()
    (d / "gap").mkdir()
    log(f"formats: encoding the test media into {d}")
    steps = _steps()
    _write_wav(d / "steps16.wav", steps, 44100, 16)
    _write_wav(d / "steps24.wav", steps, 44100, 24)
    lrc = REPO / "Tests" / "Fixtures" / "generated" / "lyrics-steps.lrc"
    for kind in KINDS:
        out = d / "play" / f"steps-{kind}.{EXT[kind]}"
        _encode(kind, d / ("steps24.wav" if kind == "flac24" else "steps16.wav"), out)
        shutil.copy(out, d / "lyrics" / out.name)
        shutil.copy(lrc, (d / "lyrics" / out.name).with_suffix(".lrc"))
    # The gap pairs: one 6 s tone of 220 Hz cut in two.
    for rate in (44100, 48000):
        n = np.arange(6 * rate)
        tone = 0.5 * np.sin(2 * np.pi * GAP_FREQ * n / rate)
        cut = int(GAP_SPLIT * rate) + (37 if rate == 44100 else 0)
        _write_wav(d / "gap" / f"a{rate}.wav", tone[:cut], rate)
        _write_wav(d / "gap" / f"b{rate}.wav", tone[cut:], rate)
        exact = int(GAP_SPLIT * rate)   # 2.5 s is a whole number of samples at both rates
        _write_wav(d / "gap" / f"ea{rate}.wav", tone[:exact], rate)
        _write_wav(d / "gap" / f"eb{rate}.wav", tone[exact:], rate)
    for kind in KINDS:
        for part in ("a", "b"):
            wav = d / "gap" / f"{part}44100.wav"
            if kind == "flac24":
                x = aa.read_wav(str(wav)).samples
                _write_wav(d / "gap" / f"{part}44100-24.wav", x, 44100, 24)
                wav = d / "gap" / f"{part}44100-24.wav"
            _encode(kind, wav, d / "gap" / f"{kind}-{part}.{EXT[kind]}")
    # Across formats and rates: the exact 2.5 s cut, so both halves come from one tone.
    _encode("flac16", d / "gap" / "ea44100.wav", d / "gap" / "x-flac-a.flac")
    _encode("opus", d / "gap" / "eb48000.wav", d / "gap" / "x-opus48-b.opus")
    _encode("mp3", d / "gap" / "ea44100.wav", d / "gap" / "x-mp3-a.mp3")
    _encode("flac16", d / "gap" / "eb44100.wav", d / "gap" / "x-flac-b.flac")
    _encode("m4a", d / "gap" / "eb44100.wav", d / "gap" / "x-m4a-b.m4a")
    _encode("ogg", d / "gap" / "ea44100.wav", d / "gap" / "x-ogg-a.ogg")
    (d / "done").write_text(RECIPE + "\n")
    return d


# Tags of a fixed width, written once by each encoder and replaced in the bytes for every copy.
PH = {"artist": b"QQARTISTQQQQ", "album": b"QQALBUMQQQQQ", "title": b"QQTITLEQQQQQQQQQ", "tracknumber": b"QQ"}


def _ogg_crc_table() -> list[int]:
    table = []
    for i in range(256):
        r = i << 24
        for _ in range(8):
            r = ((r << 1) ^ 0x04C11DB7) if r & 0x80000000 else (r << 1)
        table.append(r & 0xFFFFFFFF)
    return table


_CRC = _ogg_crc_table()


def _ogg_crc(data: bytes) -> int:
    crc = 0
    for b in data:
        crc = ((crc << 8) & 0xFFFFFFFF) ^ _CRC[((crc >> 24) & 0xFF) ^ b]
    return crc


def _fix_ogg_pages(data: bytearray, touched: list[int]) -> None:
    """Recomputes the CRC of each Ogg page holding an offset in `touched`."""
    pos = 0
    while pos + 27 <= len(data):
        if data[pos:pos + 4] != b"OggS":
            raise ValueError("not an Ogg page")
        nseg = data[pos + 26]
        lacing = data[pos + 27:pos + 27 + nseg]
        end = pos + 27 + nseg + sum(lacing)
        if any(pos <= t < end for t in touched):
            data[pos + 22:pos + 26] = b"\0\0\0\0"
            data[pos + 22:pos + 26] = struct.pack("<I", _ogg_crc(bytes(data[pos:end])))
        pos = end


def make_library(root: Path, files: int, log) -> tuple[Path, int]:
    """FILES small tagged files, a fifth in each of SCAN_FORMATS (albums of 10 tracks, one format
    per album), made from one 2 s template per format by rewriting its fixed-width tags."""
    d = root / f"{media_key()}-library-{files}"
    if (d / "manifest.json").exists():
        return d, json.loads((d / "manifest.json").read_text())["files"]
    shutil.rmtree(d, ignore_errors=True)
    (d / "templates").mkdir(parents=True)
    log(f"formats: writing a {files}-file mixed library into {d}")
    started = time.monotonic()
    n = np.arange(2 * 44100)
    _write_wav(d / "templates" / "t.wav", 0.3 * np.sin(2 * np.pi * 440 * n / 44100), 44100)
    tags = {k: v.decode() for k, v in PH.items()}
    templates = {}
    for fmt in SCAN_FORMATS:
        out = d / "templates" / f"t.{fmt}"
        _encode(fmt, d / "templates" / "t.wav", out,
                {k: v for k, v in tags.items() if k != "tracknumber" or fmt not in ("mp3", "m4a")})
        data = out.read_bytes()
        # (offset, encoding) of each placeholder: lame writes ID3v2 text as UTF-16.
        where = {k: [(i, "ascii") for i in _find_all(data, ph)]
                 + [(i, "utf-16-le") for i in _find_all(data, ph.decode().encode("utf-16-le"))]
                 for k, ph in PH.items() if k != "tracknumber"}
        # Two letters are too short to find alone: only the Vorbis comment's is varied.
        where["tracknumber"] = [(i + 12, "ascii") for i in _find_all(data, b"TRACKNUMBER=QQ")]
        missing = [k for k, v in where.items() if not v and k != "tracknumber"]
        if missing:
            raise RuntimeError(f"{fmt}: the encoder did not write the tags {missing}")
        templates[fmt] = (data, where)
    music = d / "music"
    for i in range(files):
        album = i // 10
        fmt = SCAN_FORMATS[album % len(SCAN_FORMATS)]
        data, where = templates[fmt]
        buf = bytearray(data)
        values = {"artist": f"Artist {album // 5:05d}", "album": f"Album {album:06d}",
                  "title": f"Title {i:010d}", "tracknumber": f"{i % 10 + 1:02d}"}
        touched = []
        for k, offsets in where.items():
            assert len(values[k]) == len(PH[k]), (k, values[k])
            for o, enc in offsets:
                v = values[k].encode(enc)
                buf[o:o + len(v)] = v
                touched.append(o)
        if fmt in ("ogg", "opus"):
            _fix_ogg_pages(buf, touched)
        folder = music / f"artist-{album // 5:05d}" / f"album-{album:06d}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{i % 10 + 1:02d}-title-{i:06d}.{fmt}").write_bytes(bytes(buf))
    (d / "manifest.json").write_text(json.dumps({"files": files, "formats": SCAN_FORMATS,
                                                 "seconds": time.monotonic() - started}))
    return d, files


def _find_all(data: bytes, needle: bytes) -> list[int]:
    out, i = [], data.find(needle)
    while i >= 0:
        out.append(i)
        i = data.find(needle, i + 1)
    return out


# ---------------------------------------------------------------- a. CPU and RSS

def reference_commands(kind: str, path: Path) -> dict:
    """The format's reference CLI: decoding raw PCM to stdout, piped to pacat (paced by the
    test sink) or to /dev/null (the decoder alone, as fast as it goes). MP3 is mpg123's own
    PulseAudio output, WAV is paplay."""
    p = str(path)
    raw = {"flac16": (["flac", "-d", "-s", "-c", "--force-raw-format", "--endian=little", "--sign=signed", p],
                      "s16le", 44100),
           "flac24": (["flac", "-d", "-s", "-c", "--force-raw-format", "--endian=little", "--sign=signed", p],
                      "s24le", 44100),
           "ogg": (["oggdec", "-Q", "-R", "-o", "-", p], "s16le", 44100),
           "opus": (["opusdec", "--quiet", p, "-"], "s16le", 48000),
           "m4a": (["faad", "-q", "-f", "2", "-w", p], "s16le", 44100)}
    if kind == "wav":
        return {"name": "paplay", "paced": ["paplay", p], "null": None}
    if kind == "mp3":
        return {"name": "mpg123", "paced": ["mpg123", "-q", "-o", "pulse", p], "null": ["mpg123", "-q", "-s", p]}
    dec, fmt, rate = raw[kind]
    pacat = f"pacat --raw --format={fmt} --rate={rate} --channels=2"
    return {"name": dec[0], "paced": ["sh", "-c", " ".join(dec) + " | " + pacat], "null": dec}


def cmus_play_cpu(ctx: dict, path: Path, seconds: float) -> dict:
    """cmus (in a tmux pane, output pulse) plays PATH to its end: CPU seconds from /proc, from
    just before `cmus-remote -f` until it reports `stopped`; VmHWM afterwards."""
    why = bt.cmus_usable()
    if why:
        return {"error": why}
    cm = bt.Cmus(ctx["tmp"] / "formats" / f"cmus-{path.stem}-{time.monotonic_ns()}", pulse=True)
    with open(cm.cfg / "rc", "a") as f:
        f.write("set continue=false\nset repeat=false\n")
    pane = cm.start(f"cmus-{path.stem}")
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and cm.query().get("status") is None:
            time.sleep(0.1)
        time.sleep(0.5)
        a = bt.proc_sample(pane.pid)
        cm.remote("-f", str(path))
        deadline = time.monotonic() + seconds + 15
        seen_playing = False
        while time.monotonic() < deadline:
            st = cm.query().get("status")
            seen_playing = seen_playing or st == "playing"
            if seen_playing and st == "stopped":
                break
            time.sleep(0.05)
        b = bt.proc_sample(pane.pid)
        if not seen_playing or a is None or b is None:
            return {"error": "cmus did not play the file"}
        return {"cpu": (b["ticks"] - a["ticks"]) / bt.CLK_TCK, "wall": b["t"] - a["t"],
                "rss_mb": b["mem_kb"].get("VmHWM", 0) / 1024, "cmd": "cmus --listen SOCK; cmus-remote -f FILE"}
    finally:
        cm.quit()


def bench_cpu(ctx: dict, B, media: Path, runs: int, log) -> dict:
    res = {}
    cmus_types = cmus_file_types() if bt.cmus_usable() is None else set()
    for kind in KINDS:
        path = media / "play" / f"steps-{kind}.{EXT[kind]}"
        ref = reference_commands(kind, path)
        row = {"refrain_cmd": [str(ctx["bin"]), "play", str(path), "--output", "pulse"], "ref": ref,
               "refrain": [], "paced": [], "null": [], "cmus": []}
        for i in range(runs):
            order = ["refrain", "paced", "cmus"] if i % 2 == 0 else ["cmus", "paced", "refrain"]
            for who in order:
                if who == "refrain":
                    r = B.rusage_run(row["refrain_cmd"], ctx["refrain_env"], cwd=ctx["home"])
                elif who == "paced":
                    r = B.rusage_run(ref["paced"], dict(os.environ))
                elif EXT[kind] not in cmus_types:
                    row["cmus_error"] = f"cmus here has no input plugin for .{EXT[kind]}"
                    continue
                else:
                    r = cmus_play_cpu(ctx, path, 30)
                    if "error" in r:
                        row["cmus_error"] = r["error"]
                        continue
                row[who].append(r)
            if ref["null"]:
                for _ in range(3):
                    row["null"].append(B.rusage_run(ref["null"], dict(os.environ)))
            log(f"formats cpu {kind} run {i + 1}/{runs}: refrain {row['refrain'][-1]['cpu']:.3f} s "
                f"(rss {row['refrain'][-1]['rss_mb']:.1f} MB), {ref['name']} paced "
                f"{row['paced'][-1]['cpu']:.3f} s, cmus "
                f"{row['cmus'][-1]['cpu'] if row['cmus'] else float('nan'):.3f} s; load {B._loadavg()}")
        res[kind] = row
    return res


# ---------------------------------------------------------------- b. scan

def cmus_file_types() -> set[str]:
    """The file extensions cmus's installed input plugins take (`cmus --plugins`)."""
    out = subprocess.run(["cmus", "--plugins"], capture_output=True, text=True, timeout=20).stdout
    section = out.split("Output Plugins", 1)[0]
    return {t for line in section.splitlines() if line.strip().startswith("File Types:")
            for t in line.split(":", 1)[1].split()}


def bench_scan(ctx: dict, files: int, runs: int, log) -> dict:
    root = Path(os.environ.get("REFRAIN_BENCH_MEDIA") or "/tmp/refrain-bench-formats")
    lib, n = make_library(root, files, log)
    folder = lib / "music"
    work = ctx["tmp"] / "formats" / "scan"
    work.mkdir(parents=True, exist_ok=True)
    blib.warm(folder)
    refrain_runs, cmus_runs = [], []
    with_cmus = bool(shutil.which("cmus") and shutil.which("cmus-remote") and shutil.which("tmux"))
    types = cmus_file_types() if with_cmus else set()
    cmus_files = sum(1 for p in folder.rglob("*") if p.is_file() and p.suffix[1:] in types)
    for i in range(runs):
        r = blib.refrain_scan(str(ctx["bin"]), folder, work, i)
        refrain_runs.append(r)
        line = f"formats scan run {i + 1}/{runs}: refrain {r['seconds']:.2f} s (added {r['added']}, " \
               f"failed {r['failed']}), rescan {r['rescan_seconds']:.2f} s"
        if with_cmus:
            c = blib.cmus_scan(folder, work, i, cmus_files)
            cmus_runs.append(c)
            line += f"; cmus {c['seconds']:.2f} s ({c['tracks_in_folder']} tracks)"
        log(line)
    out = {"files": n, "folder": str(folder), "runs": runs, "formats": SCAN_FORMATS,
           "cmus_types": sorted(types), "cmus_files": cmus_files,
           "bytes": sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()),
           "refrain": refrain_runs, "cmus": cmus_runs,
           "refrain_cmd": ["refrain", "scan", "--json", "DIR"],
           "cmus_cmd": "cmus --listen SOCK; cmus-remote -C 'add -l DIR' (clock stops when `save -l` "
                       "holds every file)"}
    return out


# ---------------------------------------------------------------- c. gaps

def _sine_fit(x, lo, hi, rate):
    n = np.arange(lo, hi)
    w = 2 * np.pi * GAP_FREQ / rate
    basis = np.column_stack([np.sin(w * n), np.cos(w * n)])
    coef, *_ = np.linalg.lstsq(basis, x[lo:hi], rcond=None)
    return coef


def _model(coef, lo, hi, rate):
    n = np.arange(lo, hi)
    w = 2 * np.pi * GAP_FREQ / rate
    return coef[0] * np.sin(w * n) + coef[1] * np.cos(w * n)


def analyse_join(audio: aa.Audio, approx: float) -> dict:
    """The join of the two halves of the tone, heard near `approx` (seconds into the recording)."""
    rate, x = audio.rate, audio.samples
    b = int(round(approx * rate))
    w = int(0.25 * rate)
    g = int(0.06 * rate)
    if b - w < 0 or b + w > len(x):
        return {"error": "the join is outside the recording"}
    before = _sine_fit(x, b - w, b - g, rate)
    after = _sine_fit(x, b + g, b + w, rate)
    amp = float(np.hypot(*before))
    period = rate / GAP_FREQ
    ph = lambda c: np.arctan2(c[1], c[0])  # noqa: E731
    slip = (ph(after) - ph(before) + np.pi) % (2 * np.pi) - np.pi
    slip_samples = float(slip / (2 * np.pi) * period)
    # Departure from the tone as it went on: the fit before, extended over the join.
    resid = x[b - w:b + w] - _model(before, b - w, b + w, rate)
    base = float(np.max(np.abs(resid[: w - g])))
    near = resid[w - g: w + g]
    worst = int(np.argmax(np.abs(near)))
    # Silent samples: runs of two or more |x| < 1e-4 (a 220 Hz sine at -6 dBFS is that small
    # for at most one sample at each zero crossing).
    quiet = (np.abs(x[b - w:b + w]) < 1e-4).astype(np.int8)
    edges = np.diff(np.concatenate([[0], quiet, [0]]))
    starts, ends = np.nonzero(edges == 1)[0], np.nonzero(edges == -1)[0]
    runs = [(int(s), int(e - s)) for s, e in zip(starts, ends) if e - s >= 2]
    silent = sum(r[1] for r in runs)
    # A cut into silence (or out of it) clicks when the tone stops at a large value: the
    # samples just outside the first and last silent run, against the tone's amplitude.
    edges = None
    if runs:
        i0, i1 = b - w + runs[0][0], b - w + runs[-1][0] + runs[-1][1]
        edges = {"into": float(abs(x[i0 - 1]) / amp), "out_of": float(abs(x[i1]) / amp) if i1 < len(x) else None,
                 "rms_5ms_before": float(np.sqrt(np.mean(x[i0 - int(0.005 * rate):i0] ** 2)) / (amp / np.sqrt(2))),
                 "rms_5ms_after": float(np.sqrt(np.mean(x[i1:i1 + int(0.005 * rate)] ** 2)) / (amp / np.sqrt(2)))}
    return {"edges": edges, "amplitude": amp, "amplitude_after": float(np.hypot(*after)), "slip_samples": slip_samples,
            "silent_samples": silent, "silent_runs": len(runs),
            "silence_at_s": (b - w + runs[0][0]) / rate if runs else None,
            "baseline_dev_db": 20 * np.log10(max(base, 1e-9) / amp),
            "join_dev_db": 20 * np.log10(max(float(np.abs(near[worst])), 1e-9) / amp),
            "join_dev_at_s": (b - g + worst) / rate}


def rate_pairs(media: Path) -> list[tuple[str, Path, Path]]:
    """The joins across a rate change, made on first use from the exact 2.5 s cut (so the
    media folder of an earlier run gains them without being made again)."""
    g = media / "gap"
    for kind, wav, out in (("opus", "ea48000.wav", "x-opus48-a.opus"), ("mp3", "eb44100.wav", "x-mp3-b.mp3")):
        if not (g / out).exists():
            _encode(kind, g / wav, g / out)
    return [("FLAC 44.1 kHz → Opus 48 kHz", g / "x-flac-a.flac", g / "x-opus48-b.opus"),
            ("Opus 48 kHz → MP3 44.1 kHz", g / "x-opus48-a.opus", g / "x-mp3-b.mp3"),
            ("Opus 48 kHz → FLAC 44.1 kHz", g / "x-opus48-a.opus", g / "x-flac-b.flac")]


def gap_pairs(media: Path) -> list[tuple[str, Path, Path]]:
    g = media / "gap"
    pairs = [(LABEL[k] + " → " + LABEL[k], g / f"{k}-a.{EXT[k]}", g / f"{k}-b.{EXT[k]}") for k in KINDS]
    pairs += [("MP3 → FLAC", g / "x-mp3-a.mp3", g / "x-flac-b.flac"),
              ("Ogg Vorbis → AAC in M4A", g / "x-ogg-a.ogg", g / "x-m4a-b.m4a")]
    return pairs + rate_pairs(media)


REF_DECODE = {"flac": ["flac", "-d", "-s", "-f", "-o", "{out}", "{in}"],
              "ogg": ["oggdec", "-Q", "-o", "{out}", "{in}"],
              "opus": ["opusdec", "--quiet", "{in}", "{out}"],
              "m4a": ["faad", "-q", "-o", "{out}", "{in}"],
              "mp3": ["mpg123", "-q", "-w", "{out}", "{in}"]}


def reference_join(a: Path, b: Path, work: Path) -> dict:
    """The same join measured on the reference CLIs' decodes of the two files, put end to end
    at their own rate: what the codecs give at the cut, with no player in between (a 24-bit
    decode is taken to 16 bits by sox, without dither)."""
    parts = []
    for f in (a, b):
        out = work / (f.name + ".ref.wav")
        ext = f.suffix[1:]
        if ext == "wav":
            shutil.copy(f, out)
        else:
            argv = [x.replace("{out}", str(out)).replace("{in}", str(f)) for x in REF_DECODE[ext]]
            subprocess.run(argv, check=True, capture_output=True, timeout=60)
        try:
            parts.append(aa.read_wav(str(out)))
        except ValueError:   # 24-bit: to 16 bits without dither
            out16 = work / (f.name + ".ref16.wav")
            subprocess.run(["sox", "-D", str(out), "-b", "16", str(out16)], check=True, capture_output=True)
            parts.append(aa.read_wav(str(out16)))
    if parts[0].rate != parts[1].rate:
        return {"error": "the two decodes differ in rate"}
    joined = aa.Audio(np.concatenate([parts[0].samples, parts[1].samples]), parts[0].rate)
    r = analyse_join(joined, parts[0].duration)
    r["first_seconds"] = parts[0].duration
    return r


def heard_join(ctx: dict, B, label: str, a: Path, b: Path) -> dict:
    """Plays A then B through PulseAudio, records the monitor, and measures the join."""
    rec = Recorder(ctx["sink"], ctx["tmp"] / "formats" / "gap.wav")
    rec.start()
    run = ctx["refrain"].start(a, b, "--output", "pulse", "--events")
    try:
        run.proc.wait(20)
    except subprocess.TimeoutExpired:
        pass
    B.end_run(run)
    recording = rec.stop(tail=0.3)
    starts = run.of("start")
    row = {"pair": label, "a": a.name, "b": b.name, "cmd": run.argv, "starts": len(starts)}
    s0 = aa.sound_start(recording.audio)
    if s0 is None:
        row["error"] = "nothing heard"
    else:
        # The first half lasts 2.5 s (+37 samples at 44.1 kHz) of tone.
        first = GAP_SPLIT + (0 if a.name.startswith("x-") else 37 / 44100)
        row.update(analyse_join(recording.audio, s0 + first))
        end = aa.sound_end(recording.audio, after=s0)
        row["heard_s"] = None if end is None else end - s0
        row["dropouts_elsewhere"] = [
            (t, l) for t, l in aa.dropouts(recording.audio, s0 + 0.05, s0 + 5.9)
            if abs(t - (s0 + first)) > 0.3]
    return row


def bench_rate_joins(ctx: dict, B, media: Path, log, reps: int) -> dict:
    """Each join across a rate change `reps` times on the machine as it is, then as many
    times under `stress-ng --cpu 2` (both cores kept busy)."""
    R: dict = {"reps": reps, "quiet": [], "stressed": [], "load_quiet": B._loadavg()}
    for label, a, b in rate_pairs(media) * reps:
        R["quiet"].append(heard_join(ctx, B, label, a, b))
    try:
        with CPULoad(2, timeout=600) as load:
            R["load_stressed"] = B._loadavg()
            for label, a, b in rate_pairs(media) * reps:
                R["stressed"].append(heard_join(ctx, B, label, a, b))
            R["held"] = load.running
    except RuntimeError as error:   # no stress-ng, or it would not start
        R["skipped"] = str(error)
    for kind in ("quiet", "stressed"):
        silent = [r.get("silent_samples") for r in R[kind]]
        log(f"formats rate joins ({kind}): silent samples {silent}")
    return R


def bench_gaps(ctx: dict, B, media: Path, log) -> dict:
    rows = []
    work = ctx["tmp"] / "formats" / "refjoin"
    work.mkdir(parents=True, exist_ok=True)
    for label, a, b in gap_pairs(media):
        row = heard_join(ctx, B, label, a, b)
        try:
            row["reference"] = reference_join(a, b, work)
        except (subprocess.SubprocessError, OSError, ValueError) as e:
            row["reference"] = {"error": str(e)[:200]}
        log(f"formats gap {label}: reference decode join {row['reference'].get('join_dev_db', float('nan')):.1f} dB, "
            f"first half {row['reference'].get('first_seconds', 0):.5f} s")
        log(f"formats gap {label}: silent {row.get('silent_samples')} samples, slip "
            f"{row.get('slip_samples', float('nan')):+.1f}, join {row.get('join_dev_db', float('nan')):.1f} dB "
            f"(baseline {row.get('baseline_dev_db', float('nan')):.1f} dB)")
        rows.append(row)
    return {"rows": rows}


# ---------------------------------------------------------------- d. lyric lines

def bench_lines(ctx: dict, B, media: Path, log) -> dict:
    res = {}
    lrc_times = [2 * n + 1 for n in range(10)]
    duration = 10.5
    for kind in KINDS:
        path = media / "lyrics" / f"steps-{kind}.{EXT[kind]}"
        rec = Recorder(ctx["sink"], ctx["tmp"] / "formats" / f"lines-{kind}.wav")
        rec.start()
        run = ctx["refrain"].start(path, "--output", "pulse", "--events", "--duration", str(duration))
        sink = {}
        if B.wait_event(run, lambda e: e.kind == "position" and e["t"] >= 0.5, 10) is not None:
            sink = B.sink_latency(ctx["sink"])
        try:
            run.proc.wait(duration + 20)
        except subprocess.TimeoutExpired:
            pass
        B.end_run(run)
        recording = rec.stop(tail=0.2)
        offset = sink.get("configured_ms")
        changes = aa.step_changes(recording.audio, FREQS)
        heard = {}
        for c in changes:
            if c.step is not None and 1 <= c.step <= 10 and c.step not in heard:
                o = ba.tone_onset(recording.audio, FREQS[c.step], c.t)
                if o is not None:
                    heard[c.step] = o["t"]
        errs = []
        lines = [e for e in run.of("line") if isinstance(e.get("index"), int) and e["index"] >= 0]
        for e in lines:
            sec = lrc_times[e["index"]] if e["index"] < len(lrc_times) else None
            if sec in heard:
                errs.append((recording.at(e.arrival) - heard[sec]) * 1000)
        gaps = aa.dropouts(recording.audio, heard[1] - 0.9, heard[max(heard)] + 0.4) if heard else []
        res[kind] = {"cmd": run.argv, "errors_ms": errs, "offset_ms": offset, "lines": len(lines),
                     "errors_pa_ms": [x - offset for x in errs] if offset is not None else [],
                     "dropouts": gaps}
        log(f"formats lines {kind}: {len(lines)} lines, errors {[round(x, 1) for x in errs]} ms as recorded, "
            f"sink block {offset} ms")
    return res


# ---------------------------------------------------------------- e. seeks

SEEKS = [(12.5, 1.0), (5.25, 1.2), (21.75, 0.9)]   # (target, seconds played before the next command)


def _splice_landing(source: aa.Audio, target: float, before: float) -> float | None:
    """Where the seek measurement puts a perfect seek: `before` s of second 1, then the source
    from `target` on."""
    r = source.rate
    x = np.concatenate([source.samples[int(1.2 * r):int((1.2 + before) * r)],
                        source.samples[int(round(target * r)):int(round((target + 1.5) * r))]])
    audio, k = aa.Audio(x, r), int(target)
    on = ba.tone_onset(audio, FREQS[k], before)
    nx = ba.tone_onset(audio, FREQS[k + 1], before + (k + 1 - target))
    return None if on is None or nx is None else (k + 1) - (nx["t"] - on["t"])


def bench_seeks(ctx: dict, B, media: Path, log) -> dict:
    res = {}
    source = aa.read_wav(str(media / "steps16.wav"))
    for kind in KINDS:
        path = media / "play" / f"steps-{kind}.{EXT[kind]}"
        rec = Recorder(ctx["sink"], ctx["tmp"] / "formats" / f"seek-{kind}.wav")
        rec.start()
        run = ctx["refrain"].start(path, "--output", "pulse", "--events")
        sent, sink = [], {}
        try:
            if B.wait_event(run, lambda e: e.kind == "position" and e["t"] >= 1.2, 10) is None:
                raise RuntimeError(f"{kind}: no position event >= 1.2 s: {run.stderr_now()!r}")
            sink = B.sink_latency(ctx["sink"])
            for target, hold in SEEKS:
                before, _ = B.send_stamped(run, f"seek {target}")
                sent.append((target, before))
                time.sleep(hold)
        finally:
            B.end_run(run)
            recording = rec.stop(tail=0.2)
        changes = aa.step_changes(recording.audio, FREQS)
        rows = []
        for i, (target, t) in enumerate(sent):
            x = recording.at(t)
            x_next = recording.at(sent[i + 1][1]) if i + 1 < len(sent) else recording.audio.duration
            k = int(target)
            rough = next((c for c in changes if x - 0.03 < c.t < x_next and c.step == k), None)
            rough_next = next((c for c in changes if x - 0.03 < c.t < x_next and c.step == k + 1), None)
            row = {"target": target, "latency_ms": None, "landed": None}
            if rough is None or rough_next is None:
                row["note"] = "second heard after the seek not found"
                rows.append(row)
                continue
            onset = ba.tone_onset(recording.audio, FREQS[k], rough.t)
            nxt = ba.tone_onset(recording.audio, FREQS[k + 1], rough_next.t)
            if onset is None or nxt is None:
                row["note"] = "onset not found"
                rows.append(row)
                continue
            row["latency_ms"] = (onset["t"] - x) * 1000
            # Heard: the new audio began at `onset` and reached second k + 1 at `nxt`.
            row["landed"] = (k + 1) - (nxt["t"] - onset["t"])
            # The finders' own bias, from the same measurement on the source itself spliced at
            # exactly `target` (about +1 ms: the fits place a change at a whole second a little late).
            row["splice_landed"] = _splice_landing(source, target, onset["t"] - x + 0.3)
            row["error_ms"] = None if row["splice_landed"] is None else \
                (row["landed"] - row["splice_landed"]) * 1000
            rows.append(row)
        res[kind] = {"cmd": run.argv, "rows": rows, "offset_ms": sink.get("configured_ms")}
        log(f"formats seek {kind}: " + ", ".join(
            f"{r['target']} → {r['landed']:.4f} (splice {r['splice_landed']:.4f}, {r['latency_ms']:.0f} ms)"
            if r.get("landed") is not None
            else f"{r['target']}: {r.get('note')}" for r in rows))
    return res


# ---------------------------------------------------------------- f. play to sound heard

def _heard_after(recording, sent: float, within: float = 1.0, early: float = 0.05) -> tuple[float | None, bool]:
    """Seconds from `sent` (monotonic) to the first sample louder than -54 dBFS (the tone is at
    -6), searched from `early` s before `sent`: the null sink renders a block ahead of its clock,
    so the recording can hold the sound before the command, as recorded. Also whether the
    0.3 s before that was silent (paused)."""
    a = recording.audio
    i0 = int(round((recording.at(sent) - early) * a.rate))
    quiet = bool(i0 > int(0.3 * a.rate) and np.max(np.abs(a.samples[i0 - int(0.3 * a.rate):i0])) < 2e-3)
    loud = np.nonzero(np.abs(a.samples[max(i0, 0):i0 + int(within * a.rate)]) > 2e-3)[0]
    return (None if len(loud) == 0 else int(loud[0]) / a.rate - early), quiet


def _toggle_reps(rec_path: Path, ctx: dict, B, reps: int, play, pause) -> dict:
    """Records while `play()` (which returns the monotonic time just before the command) is
    done `reps` times from paused, each followed by 0.6 s of sound and `pause()`."""
    rec = Recorder(ctx["sink"], rec_path)
    rec.start()
    sent, sink = [], {}
    try:
        for i in range(reps):
            time.sleep(0.8)
            sent.append(play())
            time.sleep(0.6)
            if i == 0:
                sink = B.sink_latency(ctx["sink"])
            pause()
    finally:
        recording = rec.stop(tail=0.3)
    lat = [_heard_after(recording, t) for t in sent]
    return {"ms": [None if x is None else x * 1000 for x, _ in lat], "silent_before": [q for _, q in lat],
            "offset_ms": sink.get("configured_ms")}


def bench_play_heard(ctx: dict, B, media: Path, log, reps: int) -> dict:
    """The full-screen player with a track loaded and paused: `space` (tmux send-keys) to the
    first sound heard; cmus with `c` the same way; `mpg123 -R` with `PAUSE` on its stdin."""
    out: dict = {"reps": reps}
    tmp = ctx["tmp"] / "formats" / "tui"
    tmp.mkdir(parents=True, exist_ok=True)
    pulse_env = {k: os.environ[k] for k in bt.PULSE_VARS if k in os.environ}
    kinds = [k for k in ("mp3", "flac16") if k in KINDS] or KINDS[:1]
    for kind in kinds:
        path = media / "play" / f"steps-{kind}.{EXT[kind]}"
        app = bt.RefrainTUI(ctx["bin"], tmp / f"refrain-{kind}", "pulse", pulse_env)
        pane = app.start(f"play-{kind}")
        try:
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline and app.ctl("status").returncode != 0:
                time.sleep(0.2)
            app.ctl("queue", "add", str(path))
            app.ctl("play")
            if not bt._wait_state(app, "playing", 10):
                out[f"refrain_{kind}"] = {"error": f"did not play: {app.stderr()[-200:]}"}
                continue
            time.sleep(1.0)
            pane.keys("Space")
            bt._wait_state(app, "paused", 5)

            def play():
                t = time.monotonic()
                pane.keys("Space")
                return t

            r = _toggle_reps(tmp / f"refrain-{kind}.wav", ctx, B, reps, play, lambda: pane.keys("Space"))
            r["command"] = pane.command
            out[f"refrain_{kind}"] = r
        finally:
            app.quit()
        log(f"formats play→heard refrain {kind}: {[None if x is None else round(x, 1) for x in r['ms']]} ms")
        if bt.cmus_usable() is None and EXT[kind] in cmus_file_types():
            cm = bt.Cmus(tmp / f"cmus-{kind}", pulse=True)
            cpane = cm.start(f"cmus-{kind}")
            try:
                deadline = time.monotonic() + 20
                while time.monotonic() < deadline and cm.query().get("status") is None:
                    time.sleep(0.1)
                cm.remote("-f", str(path))
                time.sleep(1.0)
                cm.remote("-u")

                def cplay():
                    t = time.monotonic()
                    cpane.keys("c")
                    return t

                r = _toggle_reps(tmp / f"cmus-{kind}.wav", ctx, B, reps, cplay, lambda: cpane.keys("c"))
                r["command"] = "cmus --listen SOCK in tmux; cmus-remote -f FILE; key c"
                out[f"cmus_{kind}"] = r
            finally:
                cm.quit()
            log(f"formats play→heard cmus {kind}: {[None if x is None else round(x, 1) for x in r['ms']]} ms")
        if kind == "mp3" and shutil.which("mpg123"):
            proc = subprocess.Popen(["mpg123", "-R", "-o", "pulse"], stdin=subprocess.PIPE,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                def send(line: str) -> float:
                    t = time.monotonic()
                    os.write(proc.stdin.fileno(), (line + "\n").encode())
                    return t
                send(f"LOAD {path}")
                time.sleep(1.0)
                send("PAUSE")
                r = _toggle_reps(tmp / "mpg123.wav", ctx, B, reps, lambda: send("PAUSE"), lambda: send("PAUSE"))
                r["command"] = "mpg123 -R -o pulse; LOAD FILE; PAUSE on stdin"
                out["mpg123_mp3"] = r
            finally:
                proc.kill()
                proc.wait()
            log(f"formats play→heard mpg123 -R: {[None if x is None else round(x, 1) for x in r['ms']]} ms")
    return out


# ---------------------------------------------------------------- run

def run(ctx: dict, B, quick: bool, log, parts: str = "abcdef", library_files: int = 10_000,
        kinds: list[str] | None = None, runs: int | None = None) -> dict:
    """Measures the parts asked for (letters a-f, see the module's doc) for `kinds` (all by default)."""
    if kinds:
        KINDS[:] = [k for k in KINDS if k in kinds]
    root = Path(os.environ.get("REFRAIN_BENCH_MEDIA") or "/tmp/refrain-bench-formats")
    (ctx["tmp"] / "formats").mkdir(parents=True, exist_ok=True)
    R: dict = {"load_start": B._loadavg(), "media_root": str(root)}
    missing = [t for t in ("flac", "oggenc", "opusenc", "ffmpeg", "lame", "oggdec", "opusdec", "faad", "paplay")
               if not shutil.which(t)]
    if missing:
        R["missing_tools"] = missing
        log(f"formats: missing {missing}: scripts/install-deps bench installs them")
        return R
    R["versions"] = {t: _tool_version(a) for t, a in {
        "flac": ["flac", "--version"], "oggdec": ["oggdec", "--version"], "opusdec": ["opusdec", "--version"],
        "faad": ["dpkg-query", "-W", "-f=faad ${Version}", "faad"], "mpg123": ["mpg123", "--version"], "cmus": ["cmus", "--version"]}.items()}
    media = make_media(root, log)
    R["media"] = str(media)
    R["sizes"] = {k: (media / "play" / f"steps-{k}.{EXT[k]}").stat().st_size for k in KINDS}
    try:
        if "a" in parts and ctx.get("pulse_ok"):
            R["cpu"] = bench_cpu(ctx, B, media, runs or (1 if quick else 3), log)
        if "b" in parts:
            R["scan"] = bench_scan(ctx, 2000 if quick else library_files, 1 if quick else 3, log)
        if "c" in parts and ctx.get("pulse_ok"):
            R["gaps"] = bench_gaps(ctx, B, media, log)
            R["rate_joins"] = bench_rate_joins(ctx, B, media, log, reps=2 if quick else 3)
        if "d" in parts and ctx.get("pulse_ok"):
            R["lines"] = bench_lines(ctx, B, media, log)
        if "e" in parts and ctx.get("pulse_ok"):
            R["seeks"] = bench_seeks(ctx, B, media, log)
        if "f" in parts and ctx.get("pulse_ok") and shutil.which("tmux"):
            R["play_heard"] = bench_play_heard(ctx, B, media, log, reps=5 if quick else 9)
    except Exception as e:  # noqa: BLE001 - a benchmark reports what it could not measure
        import traceback
        R["error"] = f"{type(e).__name__}: {e}"
        log("formats: " + traceback.format_exc())
    R["load_end"] = B._loadavg()
    return R


# ---------------------------------------------------------------- docs/benchmarks.md

def _rate_click(row: dict) -> float:
    """The largest departure from the tone at a join, in dB of it (-inf when not measured)."""
    return row.get("join_dev_db", float("-inf"))


def _f(x, d=1, unit=""):
    return "n/a" if x is None else f"{x:.{d}f}{unit}"


def _cpu_medians(row: dict) -> dict:
    med = lambda rs, k="cpu": _median([r[k] for r in rs]) if rs else None  # noqa: E731
    return {"refrain": med(row["refrain"]), "paced": med(row["paced"]), "null": med(row["null"]),
            "cmus": med(row["cmus"]), "rss": med(row["refrain"], "rss_mb"),
            "paced_rss": med(row["paced"], "rss_mb"), "cmus_rss": med(row["cmus"], "rss_mb")}


def _pa(values, offset):
    return [v + offset for v in values] if offset is not None else []


def _play_heard_stats(r: dict | None) -> tuple[float | None, float | None, int]:
    """Median and max on the sink's clock (as recorded + the sink's block) over the presses
    made from silence."""
    if not r or "ms" not in r:
        return None, None, 0
    xs = [x for x, q in zip(r["ms"], r.get("silent_before", [])) if x is not None and q]
    pa = _pa(xs, r.get("offset_ms"))
    return _median(pa), (max(pa) if pa else None), len(pa)


def summary_rows(R: dict | None, within) -> list[str]:
    if not R:
        return []
    if R.get("missing_tools"):
        return [f"| 19 | every format | not measured | | | missing {', '.join(R['missing_tools'])} |"]
    L = []
    for kind, row in (R.get("cpu") or {}).items():
        m = _cpu_medians(row)
        ratio = m["refrain"] / m["paced"] if m["refrain"] and m["paced"] else None
        below = None if m["cmus"] is None or m["refrain"] is None else m["refrain"] < m["cmus"]
        L.append(f"| 19a | CPU to play 30 s of {LABEL[kind]} through PulseAudio, median of {len(row['refrain'])} | "
                 f"{_f(m['refrain'], 3, ' s')} | {row['ref']['name']} paced {_f(m['paced'], 3, ' s')}; cmus "
                 f"{_f(m['cmus'], 3, ' s') if m['cmus'] is not None else '(cannot play it)'} | ≤ 1.2× the CLI, "
                 f"below cmus | {_f(ratio, 2, '×')}: {within(ratio, 1.2)}"
                 + ("" if below is None else "; below cmus" if below else "; **not below cmus**") + " |")
    cpu = R.get("cpu") or {}
    if "flac16" in cpu and "mp3" in cpu:
        f, m = _cpu_medians(cpu["flac16"])["rss"], _cpu_medians(cpu["mp3"])["rss"]
        d = None if f is None or m is None else (f - m) / 1.048576
        L.append(f"| 19a | peak RSS playing FLAC − playing MP3 | {_f(d, 1, ' MiB')} ({_f(f, 1)} vs {_f(m, 1)} MB) | — | "
                 f"within 2 MiB | {within(abs(d) if d is not None else None, 2)} |")
    sc = R.get("scan")
    if sc and sc.get("refrain"):
        rf = _median([r["seconds"] for r in sc["refrain"]])
        rr = _median([r["rescan_seconds"] for r in sc["refrain"]])
        cm = _median([c["seconds"] for c in sc["cmus"]]) if sc.get("cmus") else None
        rate_r = sc["files"] / rf
        rate_c = sc["cmus_files"] / cm if cm else None
        sp = rate_r / rate_c if rate_c else None
        L.append(f"| 19b | scan {sc['files']:,} mixed files (FLAC, Opus, Vorbis, M4A, MP3), fresh, median | "
                 f"{rf:.2f} s ({rate_r:,.0f} files/s) | cmus `add` {_f(cm, 2, ' s')} for the {sc['cmus_files']:,} it "
                 f"reads ({_f(rate_c, 0)} files/s) | ≥ 2× cmus | {_f(sp, 2, '×')}: {within(sp, 2, False)} |")
        L.append(f"| 19b | same, rescan with nothing changed | {rr:.2f} s | — | — | |")
    gp = R.get("gaps")
    if gp and gp.get("rows"):
        same = [r for r in gp["rows"] if r["pair"].split(" → ")[0] == r["pair"].split(" → ")[1]]
        worst = max((r.get("silent_samples") or 0) for r in same) if same else None
        L.append(f"| 19c | silent samples heard at the join of two files of one format, worst of {len(same)} | "
                 f"{worst} | — | 0 | {within(worst, 0)} |")
    rj = R.get("rate_joins")
    if rj:
        for kind, name in (("quiet", "quiet machine"), ("stressed", "under `stress-ng --cpu 2`")):
            rows = [r for r in rj.get(kind, []) if "silent_samples" in r]
            if not rows:
                continue
            worst = max(r["silent_samples"] for r in rows)
            click = max(_rate_click(r) for r in rows)
            L.append(f"| 19c | silent samples at a join across a rate change ({name}), worst of {len(rows)} | "
                     f"{worst}; largest departure at the join {click:.1f} dB of the tone | — | 0, no click | "
                     f"{within(worst, 0)} |")
    ln = R.get("lines")
    if ln:
        meds = {k: _median([abs(x) for x in v["errors_pa_ms"]]) for k, v in ln.items() if v.get("errors_pa_ms")}
        if meds:
            worst = max(meds.values())
            L.append("| 19d | `line` event − tone change heard, median \\|error\\| on the sink's clock, per format | "
                     + ", ".join(f"{LABEL[k]} {v:.1f}" for k, v in meds.items()) + " ms | — | ≤ 10 ms | "
                     f"worst {worst:.1f} ms: {within(worst, 10)} |")
    sk = R.get("seeks")
    if sk:
        errs = [abs(r["error_ms"]) for v in sk.values() for r in v["rows"] if r.get("error_ms") is not None]
        n_all = sum(len(v["rows"]) for v in sk.values())
        if errs:
            L.append(f"| 19e | seek on `--events` stdin: where the sound heard lands − where asked, worst of "
                     f"{len(errs)} (of {n_all}) over {len(sk)} formats | {max(errs):.1f} ms | — | ±50 ms | "
                     f"{within(max(errs), 50)} |")
    ph = R.get("play_heard")
    if ph:
        for kind in ("mp3", "flac16"):
            rm, rx, n = _play_heard_stats(ph.get(f"refrain_{kind}"))
            if rm is None:
                continue
            cm_, _, _ = _play_heard_stats(ph.get(f"cmus_{kind}"))
            mm, _, _ = _play_heard_stats(ph.get("mpg123_mp3")) if kind == "mp3" else (None, None, 0)
            ref = f"cmus {_f(cm_, 1, ' ms')}" + (f", mpg123 -R {_f(mm, 1, ' ms')}" if mm is not None else "")
            L.append(f"| 19f | `space` in the full-screen player, paused {LABEL[kind]} → sound heard, median of {n} "
                     f"on the sink's clock | {rm:.1f} ms (max {rx:.1f}) | {ref} | no slower than cmus | "
                     + ("not measured" if cm_ is None else "within target" if rm <= cm_ else "**misses target**") + " |")
    return L


def sections(R: dict | None, cmdline) -> list[str]:
    if not R:
        return []
    L: list[str] = []
    add = L.append
    add("## 19. Every format: FLAC, Ogg Vorbis, Opus, AAC in M4A, WAV and MP3")
    add("")
    if R.get("missing_tools"):
        add(f"Not measured: {', '.join(R['missing_tools'])} missing (`scripts/install-deps bench`).")
        add("")
        return L
    add("`scripts/bench_formats.py` (`python3 scripts/bench.py --only 19`). The tones of steps.mp3 (second k "
        "sounds 300 + 50·k Hz, 30 s, 44.1 kHz stereo, −6 dBFS) are written by numpy and encoded by each "
        "format's own encoder: `flac` (16- and 24-bit), `oggenc` (default quality), `opusenc` (default "
        "bitrate), `ffmpeg -c:a aac -b:a 160k` (M4A), `lame --cbr -b 128`; WAV is the PCM itself. The media "
        f"are made once and kept under `{R.get('media_root')}` (a key of the recipe and the encoders' "
        "versions names the folder). Load average (1, 5, 15 min) "
        f"{R.get('load_start')} at the start of the section, {R.get('load_end')} at its end: other builds "
        "were running on the 2 cores, so CPU figures are noisy.")
    v = R.get("versions") or {}
    if v:
        add("")
        add("References: " + "; ".join(f"{k}: {val}" for k, val in v.items()) + ".")
    add("")
    cpu = R.get("cpu")
    if cpu:
        add("### 19a. CPU and memory to play 30 s of each format through PulseAudio")
        add("")
        add("Whole processes, user + sys CPU and peak RSS from `wait4()` (the C runner of section 1). Refrain: "
            "`refrain play FILE --output pulse`. The reference CLI decodes raw PCM into `pacat` on the same "
            "test sink, so it is paced like a player and both processes are counted (`sh -c 'DECODER | pacat "
            "--raw …'`; MP3 is `mpg123 -q -o pulse FILE`, WAV is `paplay FILE`); the same decoder to "
            "/dev/null (not paced, median of 3 per run) shows the decoding alone. cmus runs in a tmux pane "
            "(`set output_plugin=pulse`, `continue=false`) and plays the file with `cmus-remote -f FILE`; "
            "its CPU is read from `/proc/PID/stat` from just before the command until it reports `stopped`, "
            "so its start-up is not counted (Refrain's is), and its RSS is VmHWM at the end. The players "
            "take turns in each run (Refrain, CLI, cmus, then the other way round).")
        add("")
        add("| format | file | Refrain CPU | Refrain peak RSS | reference paced | ratio "
            "| decoder alone (to /dev/null) | cmus CPU | cmus VmHWM |")
        add("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        sizes = R.get("sizes") or {}
        for kind, row in cpu.items():
            m = _cpu_medians(row)
            ratio = m["refrain"] / m["paced"] if m["refrain"] and m["paced"] else None
            allr = ", ".join(f"{r['cpu']:.3f}" for r in row["refrain"])
            add(f"| {LABEL[kind]} | {sizes.get(kind, 0) / 1e6:.2f} MB | {_f(m['refrain'], 3, ' s')} ({allr}) | "
                f"{_f(m['rss'], 1, ' MB')} | {row['ref']['name']} {_f(m['paced'], 3, ' s')} | {_f(ratio, 2, '×')} | "
                + (f"{_f(m['null'], 3, ' s')}" if row["null"] else "—") + " | "
                + (f"{_f(m['cmus'], 3, ' s')}" if row["cmus"] else row.get("cmus_error", "—")) + " | "
                + (f"{_f(m['cmus_rss'], 1, ' MB')}" if row["cmus"] else "—") + " |")
        add("")
        add("Commands (FILE is `steps-KIND.EXT` in the media folder):")
        add("")
        for kind, row in cpu.items():
            file = row["refrain_cmd"][2]
            paced = row["ref"]["paced"]
            shown = (paced[-1] if paced[0] == "sh" else " ".join(paced)).replace(file, "FILE")
            alone = " ".join(row["ref"]["null"]).replace(file, "FILE") if row["ref"]["null"] else None
            add(f"- {LABEL[kind]}: `{shown}`" + (f"; alone `{alone} > /dev/null`" if alone else ""))
        add("")
        meds = {k: _cpu_medians(row) for k, row in cpu.items()}
        met = [k for k, m in meds.items() if m["refrain"] and m["paced"] and m["refrain"] <= 1.2 * m["paced"]]
        missed = [k for k in cpu if k not in met]
        with_cmus = [k for k, row in cpu.items() if row["cmus"]]
        below = [k for k in with_cmus if meds[k]["refrain"] < meds[k]["cmus"]]
        above = [k for k in with_cmus if k not in below]
        add("Against the goal (at most 1.2× the reference CLI, and below cmus): "
            + (f"within 1.2× for {', '.join(LABEL[k] for k in met)}; " if met else "within 1.2× for no format; ")
            + (f"**over 1.2× for {', '.join(LABEL[k] for k in missed)}**. " if missed else "")
            + f"Below cmus for {len(below)} of the {len(with_cmus)} formats cmus plays here"
            + (f" (**not for {', '.join(LABEL[k] for k in above)}**)" if above else "")
            + ". Playing 30 s costs every player here well under a second of CPU, so the figures are "
            "dominated by fixed costs: Refrain's count includes its own start-up and exit (section 3 measures "
            "`refrain play --help` alone), the paced reference includes `pacat`'s. cmus's build here has no MP4 "
            "input plugin, so it cannot play the M4A (nor scan it, below); cmus also keeps its screen up to date "
            "in its pane while it plays.")
        add("")
        f16, mp3 = cpu.get("flac16"), cpu.get("mp3")
        if f16 and mp3:
            a, b = _cpu_medians(f16)["rss"], _cpu_medians(mp3)["rss"]
            add(f"Memory: peak RSS playing the 16-bit FLAC {_f(a, 1, ' MB')} against {_f(b, 1, ' MB')} playing the MP3, "
                f"{_f((a - b) / 1.048576 if a and b else None, 2, ' MiB')} apart (goal: within 2 MiB; "
                + ("met" if a and b and abs(a - b) / 1.048576 <= 2 else "**missed**") + ").")
            add("")
    sc = R.get("scan")
    if sc and sc.get("refrain"):
        add(f"### 19b. Scanning a mixed {sc['files']:,}-file library")
        add("")
        add(f"{sc['files']:,} files, {sc['bytes'] / 1e6:.0f} MB: albums of 10 tracks, each album one of "
            f"{', '.join(sc['formats'])} (2,000 files each), every file with its own artist, album, title "
            "(and track number in the Vorbis comments). They are copies of one 2 s 440 Hz file per format made "
            "by its encoder with fixed-width tags, rewritten in the bytes for each copy (Ogg pages get their "
            "CRC again). Refrain: `refrain scan --json DIR` into an empty library, then again with nothing "
            "changed; cmus: `add -l DIR` in a fresh cmus, timed until `save -l` lists every file it takes, as "
            "in section 12 (its start-up is not counted). The folder is read once first so both find it in "
            f"the page cache. Of these formats cmus's plugins here take "
            f"{', '.join(f for f in sc['formats'] if f in (sc.get('cmus_types') or []))} (no MP4 plugin), so it "
            f"adds {sc['cmus_files']:,} of the {sc['files']:,} files: the comparison is in files per second.")
        add("")
        add("| run | Refrain fresh | added / failed | Refrain rescan (unchanged) | Refrain peak RSS | cmus `add` | cmus tracks | cmus VmHWM |")
        add("| --- | --- | --- | --- | --- | --- | --- | --- |")
        for i, r in enumerate(sc["refrain"]):
            c = sc["cmus"][i] if i < len(sc.get("cmus") or []) else None
            add(f"| {i + 1} | {r['seconds']:.3f} s | {r['added']:,} / {r['failed']} | {r['rescan_seconds']:.3f} s "
                f"({r['rescan_unchanged']:,}) | {r['peak_rss_kb'] / 1024:.1f} MB | "
                + (f"{c['seconds']:.3f} s | {c['tracks_in_folder']:,} | {c['peak_rss_kb'] / 1024:.1f} MB |" if c else "— | — | — |"))
        add("")
        rf = _median([r["seconds"] for r in sc["refrain"]])
        cm = _median([c["seconds"] for c in sc["cmus"]]) if sc.get("cmus") else None
        if cm:
            sp = (sc["files"] / rf) / (sc["cmus_files"] / cm)
            add(f"Refrain indexes {sc['files'] / rf:,.0f} files/s, cmus {sc['cmus_files'] / cm:,.0f} files/s: "
                f"{sp:.2f}× cmus's speed (goal ≥ 2×: " + ("met" if sp >= 2 else "**missed**") + f"). In wall time "
                f"Refrain takes {rf:.2f} s for all {sc['files']:,} files and cmus {cm:.2f} s for its "
                f"{sc['cmus_files']:,}.")
            add("")
    gp = R.get("gaps")
    if gp and gp.get("rows"):
        add("### 19c. The join between two files, as heard")
        add("")
        add(f"A 6 s sine of {GAP_FREQ:.0f} Hz at −6 dBFS cut in two at 2.5 s + 37 samples (so no codec frame "
            "lines up with the cut), each half encoded on its own; `refrain play A B --output pulse --events` "
            "plays them as a queue while `parec` records the monitor. Around the join (where the first half "
            "ends, from the first sound heard): *silent samples* are runs of two or more samples below 1e-4 "
            "(the tone is that small for one sample at a zero crossing); *slip* is the phase of the tone "
            "fitted 60–250 ms after the join minus that fitted 60–250 ms before, in samples (0: nothing lost "
            "or added, modulo one period of 200 samples); *join* is the largest departure from the tone "
            "fitted before, within 60 ms either side of the join, against *baseline*, the largest departure "
            "60–250 ms before it (the codec's own noise), in dB of the tone. *Reference decode* is the same "
            "join measured on the two files decoded by the reference CLIs and put end to end without a player "
            "(`flac -d`, `oggdec`, `opusdec`, `faad`, `mpg123 -w`): the codec's own edge at the cut. "
            "The rows after the same-format joins join formats, the last three also rates: FLAC or MP3 at "
            "44.1 kHz and Opus made from a 48 kHz copy of the tone (all cut at exactly 2.5 s, where the sine "
            "crosses zero), so the second track is resampled to the rate the output stream is open at.")
        add("")
        add("| join | silent samples | slip | join | baseline | reference decode: join | ref. first half |")
        add("| --- | --- | --- | --- | --- | --- | --- |")
        for r in gp["rows"]:
            if "error" in r:
                add(f"| {r['pair']} | {r['error']} | | | | | |")
                continue
            ref = r.get("reference") or {}
            add(f"| {r['pair']} | {r['silent_samples']} | {r['slip_samples']:+.1f} | {r['join_dev_db']:.1f} dB | "
                f"{r['baseline_dev_db']:.1f} dB | "
                + (f"{ref['join_dev_db']:.1f} dB | {ref['first_seconds']:.5f} s |" if "join_dev_db" in ref
                   else f"{ref.get('error', '—')} | |"))
        add("")
        same = [r for r in gp["rows"] if r["pair"].split(" → ")[0] == r["pair"].split(" → ")[1] and "error" not in r]
        silent = [r for r in same if r["silent_samples"]]
        cross = [r for r in gp["rows"] if r not in same and "48 kHz" not in r["pair"] and "error" not in r]
        slips = max([abs(r["slip_samples"]) for r in same + cross] or [0])
        add(("**Gaps heard** at " + ", ".join(r["pair"] for r in silent) + ". ") if silent else
            f"No silent sample at any of the {len(same)} same-format joins"
            + (", nor at the joins between formats of one rate" if not any(r["silent_samples"] for r in cross) else "")
            + f"; the largest phase slip is {slips:.1f} samples"
            + (": nothing is lost or added at the cut (goal met)." if slips < 1.5 else "."))
        add("")
        lossy = [r for r in same if r["join_dev_db"] > r["baseline_dev_db"] + 3]
        if lossy:
            add("The departures at the lossy joins (" + ", ".join(
                f"{r['pair'].split(' → ')[0]} {r['join_dev_db']:.0f} dB" for r in lossy)
                + ") are the codecs' own edges: the reference decoders' end-to-end decodes depart as much "
                "or more at the same cut (" + ", ".join(
                    f"{_f((r.get('reference') or {}).get('join_dev_db'), 0)} dB" for r in lossy)
                + "); a cut tone encoded in two files cannot be rebuilt exactly by a lossy codec. faad's CLI "
                "does not apply the M4A edit list (its first half is longer than 2.5 s), which is why its "
                "reference join is a hard step.")
            add("")
        rj = R.get("rate_joins")
        if rj:
            add(f"**Across a rate change**, each of the three rate-changing joins played {rj['reps']} times on "
                f"the machine as it was (load average {rj.get('load_quiet', '?')} before), then as many times "
                f"while `stress-ng --cpu 2` kept both cores busy (load average {rj.get('load_stressed', '?')} "
                "as it began" + (f"; skipped: {rj['skipped']}" if rj.get("skipped") else "") + "). "
                "*Silent samples* and *join* as above; *heard* is the length from the first sound to the last "
                "(6 s of tone when nothing is lost).")
            add("")
            add("| join | machine | silent samples (each run) | slip (samples) | join, worst | baseline | heard |")
            add("| --- | --- | --- | --- | --- | --- | --- |")
            for kind, name in (("quiet", "quiet"), ("stressed", "stress-ng --cpu 2")):
                for label in dict.fromkeys(r["pair"] for r in rj.get(kind, [])):
                    rows = [r for r in rj[kind] if r["pair"] == label and "silent_samples" in r]
                    if not rows:
                        add(f"| {label} | {name} | not measured | | | | |")
                        continue
                    slips = ", ".join(f"{r['slip_samples']:+.1f}" for r in rows)
                    add(f"| {label} | {name} | {', '.join(str(r['silent_samples']) for r in rows)} | {slips} | "
                        f"{max(_rate_click(r) for r in rows):.1f} dB | "
                        f"{max(r['baseline_dev_db'] for r in rows):.1f} dB | "
                        f"{', '.join(_f(r.get('heard_s'), 3, ' s') for r in rows)} |")
            add("")
            every = [r for k in ("quiet", "stressed") for r in rj.get(k, []) if "silent_samples" in r]
            if every:
                worst = max(r["silent_samples"] for r in every)
                add((f"No silent sample at any of the {len(every)} joins across a rate change"
                     if worst == 0 else f"**Silent samples at a rate change: up to {worst}**")
                    + f"; the largest phase slip is {max(abs(r['slip_samples']) for r in every):.1f} samples and "
                    f"the largest departure from the tone at the join {max(_rate_click(r) for r in every):.1f} dB "
                    "(a gap or a step would be near 0 dB), the size of the lossy codecs' own edges in the rows above "
                    "(Opus → Opus, MP3 → FLAC). Before the resampler (6be9308 and 748374d, 2026-11-28) "
                    "the output stream was reopened at the new rate: 2490 silent samples (56.5 ms) at FLAC "
                    "44.1 kHz → Opus 48 kHz, and 1–2 s of silence between an Opus and an MP3 track measured "
                    "by hand.")
                add("")
    ln = R.get("lines")
    if ln:
        add("### 19d. Lyric `line` events against the tone change heard")
        add("")
        add("Each format's file with `lyrics-steps.lrc` beside it under the same stem (a sidecar: line n at "
            "second 2n + 1), `refrain play FILE --output pulse --events --duration 10.5`, the monitor recorded "
            "as in section 5; the tone change is placed by fitting the new tone and following it back "
            "(`tone_onset`, as for seeks in section 2). Error = the `line` event's arrival − the change heard; "
            "*on the sink's clock* subtracts the sink's block, as in section 5.")
        add("")
        add("| format | lines | errors as recorded | median \\|error\\| on the sink's clock | max | dropouts |")
        add("| --- | --- | --- | --- | --- | --- |")
        for kind, v in ln.items():
            pa = [abs(x) for x in v.get("errors_pa_ms") or []]
            add(f"| {LABEL[kind]} | {v['lines']} | {', '.join(f'{x:.1f}' for x in v['errors_ms'])} ms | "
                f"{_f(_median(pa), 1, ' ms')} | {_f(max(pa) if pa else None, 1, ' ms')} | {len(v.get('dropouts') or [])} |")
        add("")
        meds = [_median([abs(x) for x in v.get("errors_pa_ms") or []]) for v in ln.values()]
        meds = [m for m in meds if m is not None]
        add(("Every format's median is within the 10 ms goal" if meds and max(meds) <= 10 else
             "**Not every format's median is within the 10 ms goal**")
            + f" (worst {_f(max(meds) if meds else None, 1, ' ms')}); the lines follow the audible clock the "
            "same way whatever the decoder.")
        add("")
    sk = R.get("seeks")
    if sk:
        add("### 19e. Seeks, as heard")
        add("")
        add("`refrain play FILE --output pulse --events`; once a `position` event passes 1.2 s, "
            + ", ".join(f"`seek {t}`" for t, _ in SEEKS) + " on stdin, "
            + ", ".join(f"{h} s" for _, h in SEEKS) + " apart. For each: the new second's tone is found "
            "after the command (`tone_onset`), and so is the next whole second's; the position the seek "
            "landed on is that second minus the time between the two. The same measurement on the source "
            "spliced at exactly the target gives the finders' own bias (about +1 ms), which is taken off: "
            "*error* = landed − where a perfect splice is measured. *Latency* is the command to the new tone, "
            "as recorded (add the sink's block of 20 ms for its clock; negative: the null sink renders ahead).")
        add("")
        add("| format | " + " | ".join(f"seek {t}: error, latency" for t, _ in SEEKS) + " |")
        add("| --- | " + " | ".join("---" for _ in SEEKS) + " |")
        for kind, v in sk.items():
            cells = []
            for r in v["rows"]:
                cells.append(f"{r['error_ms']:+.2f} ms, {r['latency_ms']:.0f} ms" if r.get("error_ms") is not None
                             else r.get("note", "n/a"))
            add(f"| {LABEL[kind]} | " + " | ".join(cells) + " |")
        add("")
        errs = [abs(r["error_ms"]) for v in sk.values() for r in v["rows"] if r.get("error_ms") is not None]
        if errs:
            add(f"Every seek measured landed within {max(errs):.2f} ms of the asked position (goal ±50 ms: "
                + ("met" if max(errs) <= 50 else "**missed**") + ").")
            add("")
    ph = R.get("play_heard")
    if ph:
        add("### 19f. `space` to sound heard in the full-screen player, track loaded")
        add("")
        add("`refrain --output pulse` in a 100×30 tmux pane (section 6's set-up); the file is queued with "
            "`refrain ctl queue add FILE` and `ctl play`, played 1 s and paused with `space`. Then, "
            f"{ph['reps']} times: 0.8 s paused, `space` (`tmux send-keys`; the time is taken just before), 0.6 s "
            "of sound, `space`. cmus: the same in its pane with `c` after `cmus-remote -f FILE`; mpg123: "
            "`mpg123 -R -o pulse`, `LOAD FILE`, then `PAUSE` on its stdin (no tmux in between). Heard = the "
            "first recorded sample louder than −54 dBFS; presses made while the recording was not silent "
            "are left out. On the sink's clock = as recorded + the sink's 20 ms block.")
        add("")
        add("| player | file | as recorded, each | median on the sink's clock | max |")
        add("| --- | --- | --- | --- | --- |")
        for key, r in ph.items():
            if not isinstance(r, dict):
                continue
            who, kind = key.split("_", 1)
            if "error" in r:
                add(f"| {who} | {LABEL.get(kind, kind)} | {r['error']} | | |")
                continue
            m, x, n = _play_heard_stats(r)
            add(f"| {who} | {LABEL.get(kind, kind)} | "
                + ", ".join("—" if v is None else f"{v:.1f}" for v in r["ms"]) + f" ms | {_f(m, 1, ' ms')} (n = {n}) | "
                f"{_f(x, 1, ' ms')} |")
        add("")
        add("Goal: no slower than cmus. " + "; ".join(
            f"{LABEL[k]}: Refrain {_f(_play_heard_stats(ph.get(f'refrain_{k}'))[0], 1, ' ms')}, cmus "
            f"{_f(_play_heard_stats(ph.get(f'cmus_{k}'))[0], 1, ' ms')}" for k in ("mp3", "flac16")
            if ph.get(f"refrain_{k}")) + ". The max column shows single slow presses (another build "
            "was running on the machine).")
        add("")
    if R.get("error"):
        add(f"The section stopped early: {R['error']}")
        add("")
    return L
