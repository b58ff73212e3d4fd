#!/usr/bin/env python3
"""make bench, section 16: Spotify library import and matching.

- **Importing 2,000 liked tracks.** The fake accounts service and Web API of the
  end-to-end tests (`Tests/EndToEnd/spotify_fake.py --liked 2000 --latency-ms 50`) serves
  2,000 liked tracks with 50 ms of latency on every request and Spotify's page sizes (50).
  Each run gets fresh XDG folders (a fresh library), logs in once as the tests do (`refrain
  spotify login --no-browser`, the printed authorize URL fetched with urllib, which
  follows the fake's redirect to the loopback callback), then times `refrain spotify
  import --json`. Requests are counted by endpoint, the login's left out: from the fake's
  own request log (`SpotifyFake.requests`) when its module can be imported and served from
  this process; else from the script form's `GET /_stats` if it has one, else its access
  log on stderr, else lower bounds from the page size. The table says which. One run:
  every track not found locally costs a preview lookup, at most 50 per 5 s, so a run takes
  minutes; the reference is the sequential ideal, requests × 50 ms.
- **Matching 10,000 imported tracks against a 10,000-file local library**, by ISRC and by
  title: `refrain-bench spotify-match --local 10000 --imported 10000 --json`, median of 5
  runs (3 with --quick). Target ≤ 1 s.

Measurements, not tests: a figure that cannot be taken is reported with the reason.

    python3 scripts/bench.py --only 16 --out /tmp/bench.md     # within make bench's report
    python3 scripts/bench_spotify.py [--quick] [--markdown]    # alone: JSON (or markdown) on stdout
"""

from __future__ import annotations

import json
import math
import os
import queue
import re
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FAKE = REPO / "Tests" / "EndToEnd" / "spotify_fake.py"
CLIENT_ID = "refrain-test-client"
LIKED = 2000
LATENCY_MS = 50
PAGE = 50
IMPORT_RUNS = 1  # each run waits ~200 s on the preview catalog's throttle
MATCH_RUNS = 5
MATCH_N = 10000
MATCH_TARGET_S = 1.0
PREVIEW_RATE = (50, 5.0)     # the preview catalog's limit Refrain keeps under: 50 requests per 5 s

# Endpoint kinds, in the order the table lists them.
KINDS = [
    ("token", "accounts `/api/token`"),
    ("authorize", "accounts `/authorize`"),
    ("me", "`/v1/me`"),
    ("playlists", "`/v1/me/playlists`"),
    ("playlist_items", "`/v1/playlists/{id}/items` (or `/tracks`)"),
    ("liked", "`/v1/me/tracks`"),
    ("albums", "`/v1/me/albums`"),
    ("album_tracks", "`/v1/albums/{id}/tracks`"),
    ("preview_isrc", "preview catalog `/track/isrc:CODE`"),
    ("preview_id", "preview catalog `/track/{id}`"),
]
SPOTIFY_API_KINDS = {"me", "playlists", "playlist_items", "liked", "albums", "album_tracks"}
PREVIEW_KINDS = {"preview_isrc", "preview_id"}


def _log(msg: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def _reason(stderr: str) -> str:
    """The line of a failed command's stderr that says why: one starting `refrain spotify:`
    or mentioning an error, else the first."""
    lines = [x.strip() for x in stderr.splitlines() if x.strip()]
    for x in lines:
        if x.startswith("refrain spotify:") or re.search(r"error", x, re.I):
            return x[:200]
    return lines[0][:200] if lines else "no output"


def median(xs):
    return statistics.median(xs) if xs else None


# ---------------------------------------------------------------- request kinds

def classify(path: str) -> str | None:
    """The endpoint kind of a request path (or full URL); None for the fake's own `/_stats`."""
    p = urllib.parse.urlsplit(path).path if "://" in path else path.split("?", 1)[0]
    p = "/" + p.strip().lstrip("/")
    if p.rstrip("/").endswith("/_stats"):
        return None
    if p.endswith("/api/token"):
        return "token"
    if p.endswith("/authorize"):
        return "authorize"
    if re.search(r"/track/isrc:[^/]*$", p):
        return "preview_isrc"
    if re.search(r"/track/[^/]+$", p) and "/v1/" not in p:
        return "preview_id"
    if re.search(r"/me/?$", p):
        return "me"
    if p.endswith("/me/playlists"):
        return "playlists"
    if re.search(r"/playlists/[^/]+/(items|tracks)$", p):
        return "playlist_items"
    if p.endswith("/me/tracks"):
        return "liked"
    if p.endswith("/me/albums"):
        return "albums"
    if re.search(r"/albums/[^/]+/tracks$", p):
        return "album_tracks"
    return "other"


def _counts_from(obj) -> dict[str, int] | None:
    """Requests by kind from whatever `/_stats` answers: a log (a list of paths, or of
    objects with a path or URL), or counts keyed by path or by kind, possibly wrapped."""
    known = {k for k, _ in KINDS}
    if isinstance(obj, list):
        out: dict[str, int] = {}
        for e in obj:
            if isinstance(e, dict):
                e = e.get("path") or e.get("url") or e.get("target") or ""
            if not isinstance(e, str):
                continue
            kind = classify(e)
            if kind:
                out[kind] = out.get(kind, 0) + 1
        return out
    if not isinstance(obj, dict):
        return None
    for wrapper in ("requests", "by_kind", "by_endpoint", "by_path", "paths", "counts", "endpoints", "log"):
        if wrapper in obj and isinstance(obj[wrapper], (list, dict)):
            inner = _counts_from(obj[wrapper])
            if inner is not None:
                return inner
    if obj and all(isinstance(v, int) for v in obj.values()):
        out = {}
        for key, n in obj.items():
            if key in ("total", "count", "requests"):
                continue
            kind = key if key in known else classify(key)
            if kind == "other" and "/" not in key:
                kind = key          # a kind name of the fake's own: kept as it is
            if kind:
                out[kind] = out.get(kind, 0) + n
        return out
    return None


def _diff(after: dict[str, int], before: dict[str, int]) -> dict[str, int]:
    return {k: after.get(k, 0) - before.get(k, 0) for k in after if after.get(k, 0) - before.get(k, 0) > 0}


# ---------------------------------------------------------------- the fake

_NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class Fake:
    """`spotify_fake.py --liked N --latency-ms MS`: its first stdout line is
    `{"port","accounts_url","api_url","deezer_url"}`; it serves until SIGTERM."""

    def __init__(self, work: Path, liked: int, latency_ms: int) -> None:
        self.work = work
        self.argv = [sys.executable, str(FAKE), "--liked", str(liked), "--latency-ms", str(latency_ms)]
        self.proc: subprocess.Popen | None = None
        self.info: dict = {}

    def start(self, timeout: float = 20.0) -> dict:
        self.work.mkdir(parents=True, exist_ok=True)
        self.out = open(self.work / "fake.out", "w+b")
        self.err = open(self.work / "fake.err", "w+b")
        self.proc = subprocess.Popen(self.argv, stdout=self.out, stderr=self.err, stdin=subprocess.DEVNULL,
                                     cwd=str(REPO), start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = (self.work / "fake.out").read_bytes().decode("utf-8", "replace")
            if "\n" in text:
                self.info = json.loads(text.split("\n", 1)[0])
                return self.info
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        err = (self.work / "fake.err").read_bytes().decode("utf-8", "replace").strip().splitlines()
        self.stop()
        raise RuntimeError("the fake Spotify server did not start"
                           + (f": {err[-1]}" if err else f" within {timeout:.0f} s"))

    def root(self) -> str:
        return f"http://127.0.0.1:{self.info['port']}"

    def stats(self) -> dict[str, int] | None:
        """Requests so far by kind from `GET /_stats`, or None when the fake has no such endpoint."""
        try:
            with _NO_PROXY.open(self.root() + "/_stats", timeout=5) as answer:
                if answer.status != 200:
                    return None
                return _counts_from(json.loads(answer.read()))
        except (OSError, ValueError, urllib.error.URLError):
            return None

    def logged_counts(self) -> dict[str, int] | None:
        """Requests by kind from stderr lines in Python http.server's default access-log
        format (`"GET /path HTTP/1.1" 200 -`), or None when there are none."""
        try:
            text = (self.work / "fake.err").read_bytes().decode("utf-8", "replace")
        except OSError:
            return None
        out: dict[str, int] = {}
        for m in re.finditer(r'"(?:GET|POST|PUT|DELETE) (\S+) HTTP/1\.[01]"', text):
            kind = classify(m.group(1))
            if kind:
                out[kind] = out.get(kind, 0) + 1
        return out or None

    def log_size(self) -> int:
        try:
            return (self.work / "fake.err").stat().st_size
        except OSError:
            return 0

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        for f in (getattr(self, "out", None), getattr(self, "err", None)):
            if f:
                f.close()


# ---------------------------------------------------------------- refrain

def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def refrain_env(home: Path, info: dict) -> dict:
    env = dict(os.environ)
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR"):
        d = home / var.lower()
        d.mkdir(parents=True, exist_ok=True, mode=0o700)
        env[var] = str(d)
    env.update({"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
                "REFRAIN_SPOTIFY_ACCOUNTS_URL": info["accounts_url"],
                "REFRAIN_SPOTIFY_API_URL": info["api_url"],
                "REFRAIN_DEEZER_URL": info.get("deezer_url") or "http://127.0.0.1:9/",
                "REFRAIN_LRCLIB_URL": "http://127.0.0.1:9/",
                "no_proxy": "127.0.0.1,localhost", "NO_PROXY": "127.0.0.1,localhost"})
    for var in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        env.pop(var, None)
    return env


def login(binary: Path, env: dict, timeout: float = 60.0) -> list[str]:
    """`refrain spotify login --no-browser`, with urllib as the browser. Returns its argv."""
    port = free_port()
    argv = [str(binary), "spotify", "login", "--client-id", CLIENT_ID, "--port", str(port), "--no-browser"]
    proc = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: [lines.put(x) for x in proc.stdout], daemon=True).start()
    err: list[str] = []
    threading.Thread(target=lambda: err.extend(proc.stderr), daemon=True).start()
    try:
        deadline = time.monotonic() + timeout
        url = ""
        while not url:
            try:
                line = lines.get(timeout=0.2).strip()
            except queue.Empty:
                if proc.poll() is not None or time.monotonic() > deadline:
                    time.sleep(0.1)     # the stderr reader's last lines
                    raise RuntimeError("`refrain spotify login` printed no authorize URL"
                                       + (f" (exit {proc.returncode}: {_reason(''.join(err))})"
                                          if proc.returncode is not None else "")) from None
                continue
            if line.startswith("http://") or line.startswith("https://"):
                url = line
        last: Exception | None = None
        for _ in range(50):     # the loopback listener may still be coming up
            try:
                with _NO_PROXY.open(url, timeout=30) as answer:
                    answer.read()
                last = None
                break
            except urllib.error.HTTPError as failed:
                raise RuntimeError(f"the login's browser step got HTTP {failed.code} from {failed.url}") from None
            except (urllib.error.URLError, ConnectionError) as failed:
                last = failed
                time.sleep(0.1)
        if last:
            raise RuntimeError(f"the login's browser step failed: {last}")
        code = proc.wait(max(1.0, deadline - time.monotonic()))
        if code != 0:
            raise RuntimeError(f"`refrain spotify login` exited {code}: {_reason(''.join(err))}")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)
    return argv


class InProcessFake:
    """The same fake, imported (`spotify_fake.SpotifyFake`) and served from threads of this
    process, so its request log can be read: every request with its path, status and arrival
    time. Used when the module can be imported; otherwise the script form (Fake) is run."""

    def __init__(self, liked: int, latency_ms: int) -> None:
        sys.path.insert(0, str(FAKE.parent))
        import spotify_fake  # noqa: E402  (Tests/EndToEnd)
        self.fake = spotify_fake.SpotifyFake(liked=liked, latency_ms=latency_ms)
        self.info = {"port": self.fake.port, "accounts_url": self.fake.accounts_url,
                     "api_url": self.fake.api_url, "deezer_url": self.fake.deezer_url}
        _ = self.fake.requests          # the log this class reads: fail here, not mid-run
        self.argv = [sys.executable, str(FAKE), "--liked", str(liked), "--latency-ms", str(latency_ms)]

    def start(self) -> dict:
        return self.info

    def mark(self):
        with self.fake.lock:
            return len(self.fake.requests)

    def counts_since(self, mark, t0: float) -> dict:
        with self.fake.lock:
            log = list(self.fake.requests[mark:])
        counts: dict[str, int] = {}
        last: dict[str, float] = {}
        failed = 0
        for r in log:
            kind = classify(r.path)
            if not kind:
                continue
            counts[kind] = counts.get(kind, 0) + 1
            last[kind] = max(last.get(kind, 0.0), r.at - t0)
            failed += 1 if (r.status or 0) >= 400 else 0
        out = {"requests": counts, "last_request_s": last, "count_source": "inprocess", "failed": failed}
        try:
            out["max_isrc_lookups_5s"] = self.fake.max_isrc_lookups_in(PREVIEW_RATE[1])
        except Exception:  # noqa: BLE001  (context only)
            pass
        return out

    def poll(self, t0: float, stop: threading.Event) -> None:
        stop.wait()

    def stop(self) -> None:
        self.fake.close()


class ScriptFakeCounter:
    """Counting for the script form: `GET /_stats` when the fake has it (polled every
    0.25 s, so the time of each kind's last request is known to that step), else its
    access log on stderr, else lower bounds from the page size."""

    def __init__(self, fake: Fake) -> None:
        self.fake = fake
        self.samples: list[tuple[float, dict]] = []

    def mark(self):
        before = self.fake.stats()
        return ("stats", before) if before is not None else ("log", self.fake.logged_counts() or {})

    def poll(self, t0: float, stop: threading.Event) -> None:
        while not stop.wait(0.25):
            s = self.fake.stats()
            if s is None:
                return
            self.samples.append((time.monotonic() - t0, s))

    def counts_since(self, mark, t0: float, summary: dict | None = None) -> dict:
        how, before = mark
        if how == "stats":
            after = self.fake.stats()
            if after is not None:
                last: dict[str, float] = {}
                prev = before
                for at, s in self.samples:
                    for k in s:
                        if s.get(k, 0) > prev.get(k, 0):
                            last[k] = at
                    prev = s
                return {"requests": _diff(after, before), "count_source": "stats", "last_request_s": last}
        logged = self.fake.logged_counts()
        if logged:
            return {"requests": _diff(logged, before if how == "log" else {}), "count_source": "log"}
        return {"requests": estimate_requests(summary), "count_source": "estimate"}


def run_import(binary: Path, env: dict, counter, timeout: float) -> dict:
    """One timed `refrain spotify import --json`; the fake's requests counted by `counter`."""
    argv = [str(binary), "spotify", "import", "--json"]
    mark = counter.mark()
    stop = threading.Event()
    ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    poller = threading.Thread(target=counter.poll, args=(t0, stop), daemon=True)
    poller.start()
    try:
        done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)
    finally:
        wall = time.monotonic() - t0
        stop.set()
    ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    poller.join(2)
    R: dict = {"argv": argv, "seconds": wall, "exit": done.returncode,
               "cpu_s": (ru1.ru_utime - ru0.ru_utime) + (ru1.ru_stime - ru0.ru_stime),
               "progress_lines": sum(1 for x in done.stderr.splitlines() if x.startswith("import:")),
               "skipped_parts": sum(1 for x in done.stderr.splitlines() if "not available for this app" in x)}
    if done.returncode != 0:
        raise RuntimeError(f"`refrain spotify import --json` exited {done.returncode}: {_reason(done.stderr)}")
    summary = None
    for line in reversed(done.stdout.strip().splitlines()):
        try:
            summary = json.loads(line)
            break
        except ValueError:
            continue
    R["summary"] = summary if isinstance(summary, dict) else None
    if isinstance(counter, ScriptFakeCounter):
        R.update(counter.counts_since(mark, t0, R["summary"]))
    else:
        R.update(counter.counts_since(mark, t0))
    return R


def estimate_requests(summary: dict | None) -> dict[str, int]:
    """Lower bounds from the page sizes when the fake cannot say what it served."""
    s = summary or {}
    playlists = int(s.get("playlists") or 0)
    albums = int(s.get("albums") or 0)
    return {"liked": math.ceil(LIKED / PAGE) or 1,
            "playlists": max(1, math.ceil(playlists / PAGE)),
            "playlist_items": playlists,          # at least one page per playlist
            "albums": max(1, math.ceil(albums / PAGE))}


def bench_import(binary: Path, work: Path, runs: int, log) -> dict:
    R: dict = {"liked": LIKED, "latency_ms": LATENCY_MS, "page": PAGE, "runs": []}
    if not FAKE.is_file():
        R["skipped"] = f"no fake Spotify server at {rel(FAKE)}"
        return R
    for i in range(runs):
        fake = None
        try:
            try:
                fake = InProcessFake(LIKED, LATENCY_MS)
                counter = fake
            except Exception as why:  # noqa: BLE001  (the module changed: run the script form)
                if i == 0:
                    log(f"spotify: the fake's module cannot be used in process ({why!r}); running its script form")
                fake = Fake(work / f"fake-{i}", LIKED, LATENCY_MS)
                counter = ScriptFakeCounter(fake)
            info = fake.start()
            R["fake_argv"] = ["python3", rel(FAKE)] + fake.argv[2:]
            env = refrain_env(work / f"home-{i}", info)
            argv = login(binary, env)
            argv[argv.index("--port") + 1] = "PORT"     # a free port, new each run
            R["login_argv"] = ["refrain"] + argv[1:]
            one = run_import(binary, env, counter, timeout=1200)
            R["import_argv"] = ["refrain"] + one.pop("argv")[1:]
            R["runs"].append(one)
            total = sum(one["requests"].values())
            log(f"spotify import {i + 1}/{runs}: {one['seconds']:.2f} s, {total} requests "
                f"({one['count_source']}): {json.dumps(one['requests'], sort_keys=True)}")
        except Exception as failed:  # noqa: BLE001  (reported, not raised)
            R["skipped"] = f"run {i + 1} failed: {failed}"
            break
        finally:
            if fake is not None:
                fake.stop()
            shutil.rmtree(work / f"home-{i}", ignore_errors=True)
            shutil.rmtree(work / f"fake-{i}", ignore_errors=True)
    return R


def rel(path: Path) -> str:
    try:
        return str(Path(path).resolve().relative_to(REPO))
    except ValueError:
        return str(path)


# ---------------------------------------------------------------- matching

def bench_match(bench_bin: Path | None, runs: int, log) -> dict:
    argv = [str(bench_bin or "refrain-bench"), "spotify-match", "--local", str(MATCH_N),
            "--imported", str(MATCH_N), "--json"]
    R: dict = {"argv": ["refrain-bench"] + argv[1:], "runs": []}
    if bench_bin is None:
        R["skipped"] = "no refrain-bench binary (build the release products)"
        return R
    for i in range(runs):
        t0 = time.monotonic()
        try:
            done = subprocess.run(argv, capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            R["skipped"] = "refrain-bench spotify-match ran over 600 s"
            return R
        wall = time.monotonic() - t0
        out = None
        for line in reversed(done.stdout.strip().splitlines()):
            try:
                out = json.loads(line)
                break
            except ValueError:
                continue
        if done.returncode != 0 or not isinstance(out, dict) or "seconds" not in out:
            R["skipped"] = f"`refrain-bench spotify-match` exited {done.returncode}: {_reason(done.stderr)}"
            return R
        out["process_s"] = wall
        R["runs"].append(out)
        log(f"spotify match {i + 1}/{runs}: {out['seconds']:.3f} s (by ISRC {out.get('by_isrc')}, "
            f"by title {out.get('by_title')}, unmatched {out.get('unmatched')})")
    return R


# ---------------------------------------------------------------- run

def run(ctx: dict, quick: bool = False, log=_log) -> dict:
    binary = Path(ctx["bin"])
    bench_bin = ctx.get("bench_bin")
    if bench_bin is None and "bench_bin" not in ctx:
        candidate = binary.parent / "refrain-bench"
        bench_bin = candidate if candidate.is_file() and os.access(candidate, os.X_OK) else None
    work = Path(ctx["tmp"]) / "spotify"
    work.mkdir(parents=True, exist_ok=True)
    R: dict = {"quick": quick}
    try:
        R["import"] = bench_import(binary, work, 1 if quick else IMPORT_RUNS, log)
        R["match"] = bench_match(Path(bench_bin) if bench_bin else None, 3 if quick else MATCH_RUNS, log)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return R


# ---------------------------------------------------------------- render

def _import_figures(imp: dict) -> dict | None:
    runs = imp.get("runs") or []
    if not runs:
        return None
    kinds = sorted({k for r in runs for k in r["requests"]},
                   key=lambda k: ([x for x, _ in KINDS] + [k]).index(k))
    per_kind = {k: median([r["requests"].get(k, 0) for r in runs]) for k in kinds}
    totals = [sum(r["requests"].values()) for r in runs]
    api = [sum(v for k, v in r["requests"].items() if k not in PREVIEW_KINDS) for r in runs]
    previews = [sum(v for k, v in r["requests"].items() if k in PREVIEW_KINDS) for r in runs]
    n, per = PREVIEW_RATE
    return {"seconds": median([r["seconds"] for r in runs]),
            "min": min(r["seconds"] for r in runs), "max": max(r["seconds"] for r in runs),
            "cpu_s": median([r["cpu_s"] for r in runs]),
            "per_kind": per_kind, "total": median(totals), "api": median(api), "previews": median(previews),
            "ideal_s": median(totals) * LATENCY_MS / 1000,
            "ideal_api_s": median(api) * LATENCY_MS / 1000,
            "throttle_floor_s": max(0.0, median(previews) - n) * per / n,
            "sources": sorted({r["count_source"] for r in runs}),
            "summary": runs[-1].get("summary"),
            "last_request_s": sorted(runs, key=lambda r: r["seconds"])[len(runs) // 2].get("last_request_s") or {},
            "failed": median([r["failed"] for r in runs if "failed" in r]),
            "max_isrc_5s": max((r["max_isrc_lookups_5s"] for r in runs if "max_isrc_lookups_5s" in r), default=None),
            "skipped_parts": max(r.get("skipped_parts", 0) for r in runs)}


def _source_words(sources: list[str]) -> str:
    words = {"inprocess": "counted from the fake's own request log (`SpotifyFake.requests`; the fake runs "
                          "in the bench's process, on its own threads)",
             "stats": "counted by the fake (`GET /_stats`, before and after the import)",
             "log": "counted from the fake's access log on stderr (`\"GET /path HTTP/1.1\"` lines)",
             "estimate": "**estimated** from the page size (the fake has no `/_stats` and logs no requests): "
                         "lower bounds"}
    return "; ".join(words[s] for s in sources)


def summary_rows(R: dict | None, within=None) -> list[str]:
    if not R:
        return []
    rows = []
    imp = R.get("import") or {}
    f = _import_figures(imp)
    if f is None:
        rows.append(f"| 16 | `refrain spotify import`, {LIKED:,} liked tracks, {LATENCY_MS} ms per request | "
                    f"not measured | | | {imp.get('skipped', '')} |")
    else:
        if "estimate" in f["sources"]:
            counted = (f"≥ {f['api']:.0f} Web API requests (estimated from the page size; preview lookups "
                       "not counted)")
        else:
            counted = (f"{f['total']:.0f} requests ({f['api']:.0f} to the Web API, {f['previews']:.0f} to the "
                       "preview catalog)")
        rows.append(f"| 16 | `refrain spotify import`, {LIKED:,} liked tracks, {LATENCY_MS} ms per request, "
                    f"page size {PAGE}: wall time, median of {len(imp['runs'])}; requests | "
                    f"{f['seconds']:.2f} s; {counted} | sequential ideal {f['ideal_s']:.2f} s "
                    f"(requests × {LATENCY_MS} ms) | — | |")
    m = R.get("match") or {}
    if not m.get("runs"):
        rows.append(f"| 16 | matching {MATCH_N:,} imported tracks against {MATCH_N:,} local files | not measured | "
                    f"| ≤ {MATCH_TARGET_S:g} s | {m.get('skipped', '')} |")
    else:
        s = median([r["seconds"] for r in m["runs"]])
        rows.append(f"| 16 | matching {MATCH_N:,} imported tracks against {MATCH_N:,} local files (ISRC, then "
                    f"artist + title), median of {len(m['runs'])} | {s:.3f} s | — | ≤ {MATCH_TARGET_S:g} s | "
                    f"{'met' if s <= MATCH_TARGET_S else '**missed**'} |")
    return rows


def sections(R: dict | None, cmdline) -> list[str]:
    if not R:
        return []
    L = ["## 16. Spotify library import and matching", ""]
    imp = R.get("import") or {}
    L += [f"### Importing {LIKED:,} liked tracks", ""]
    f = _import_figures(imp)
    if f is None:
        L += [f"Not measured: {imp.get('skipped', 'no run completed')}", ""]
    else:
        how = (f"The fake of `{rel(FAKE)}` (`SpotifyFake(liked={LIKED}, latency_ms={LATENCY_MS})`, served from "
               f"threads of the bench's own process, as `{cmdline(imp['fake_argv'])}` would serve it)"
               if "inprocess" in f["sources"] else f"`{cmdline(imp['fake_argv'])}`")
        if imp.get("skipped"):
            L += [f"Only {len(imp['runs'])} run(s) completed: {imp['skipped']}", ""]
        L += [f"{how} serves the accounts service, the Web API and the preview catalog "
              f"on 127.0.0.1, answering every request after {LATENCY_MS} ms, with Spotify's page sizes "
              f"({PAGE} items a page). Each run starts a new fake and fresh XDG folders (an empty library), "
              f"logs in once (`{cmdline(imp['login_argv'])}`; the bench plays the browser: it fetches the printed "
              "authorize URL with urllib, which follows the fake's redirect to the loopback callback), then "
              f"times `{cmdline(imp['import_argv'])}` from start to exit. No local files are scanned, so every "
              "track with an ISRC is looked up on the preview catalog, which Refrain throttles to "
              f"{PREVIEW_RATE[0]} requests per {PREVIEW_RATE[1]:g} s. Requests: "
              f"{_source_words(f['sources'])}; the login's own requests are not counted.", "",
              "| figure | value |", "| --- | ---: |",
              f"| wall time, median of {len(imp['runs'])} (min – max) | {f['seconds']:.2f} s "
              f"({f['min']:.2f} – {f['max']:.2f} s) |",
              f"| CPU (user + sys) of `refrain`, median | {f['cpu_s']:.2f} s |",
              f"| requests per import, median | "
              + ("≥ " if "estimate" in f["sources"] else "") + f"{f['total']:.0f} |"]
        labels = dict(KINDS)
        for k, v in f["per_kind"].items():
            L.append(f"| — {labels.get(k, '`' + k + '`')} | {v:.0f} |")
        if "estimate" in f["sources"]:
            L.append("| — preview catalog lookups | not counted |")
        L += [f"| reference: every request one after another, {LATENCY_MS} ms each (requests × {LATENCY_MS} ms) | "
              f"{f['ideal_s']:.2f} s |",
              f"| reference: the Web API's requests alone, sequential | {f['ideal_api_s']:.2f} s |"]
        if f["previews"]:
            L.append(f"| reference: least time the catalog's limit ({PREVIEW_RATE[0]} per {PREVIEW_RATE[1]:g} s) "
                     f"allows for {f['previews']:.0f} lookups (a perfect sliding window: {PREVIEW_RATE[0]} at once, "
                     f"then {PREVIEW_RATE[0] / PREVIEW_RATE[1]:g}/s; Refrain's strict token bucket sends 10 at "
                     f"once, then 8/s) | {f['throttle_floor_s']:.2f} s |")
        last = f["last_request_s"]
        api_last = max((v for k, v in last.items() if k in SPOTIFY_API_KINDS), default=None)
        pre_last = max((v for k, v in last.items() if k in PREVIEW_KINDS), default=None)
        if api_last is not None:
            L.append("| last Web API request, after the start (median run"
                     + (", `/_stats` polled every 0.25 s" if "stats" in f["sources"] else "") + ") | "
                     f"{api_last:.2f} s |")
        if pre_last is not None:
            L.append(f"| last preview lookup, after the start (same) | {pre_last:.2f} s |")
        if f["failed"] is not None:
            L.append(f"| requests answered with HTTP 4xx/5xx, median | {f['failed']:.0f} |")
        if f["max_isrc_5s"] is not None:
            L.append(f"| most preview lookups by ISRC in any {PREVIEW_RATE[1]:g} s, as the fake saw them "
                     f"(limit {PREVIEW_RATE[0]}) | {f['max_isrc_5s']} |")
        if f["skipped_parts"]:
            L.append(f"| parts skipped as \"not available for this app\" | {f['skipped_parts']} |")
        s = f["summary"]
        if s:
            L += ["", "The import's summary (`--json`, last run): "
                  + ", ".join(f"{k} {s[k]:,}" if isinstance(s[k], int) else f"{k} {s[k]}" for k in s) + "."]
        L += ["", "The sequential ideal is what the requests would take one after another with nothing else: "
              "an import far above it spends its time elsewhere (the preview throttle, the database, matching), "
              "and one below it overlaps requests.", ""]
    m = R.get("match") or {}
    L += [f"### Matching {MATCH_N:,} imported tracks against a {MATCH_N:,}-file local library", ""]
    if not m.get("runs"):
        L += [f"Not measured: {m.get('skipped', 'no run completed')}", ""]
    else:
        runs = m["runs"]
        s = median([r["seconds"] for r in runs])
        last = runs[-1]
        L += [f"`{cmdline(m['argv'])}`, {len(runs)} runs. The figure is the time the subcommand reports for "
              "the matching (`seconds`): each imported track is looked up first by ISRC against the local files' "
              "TSRC tags, then by normalised artist and title with the duration within 3 s, as an import matches "
              "before it turns to the preview catalog. The process's whole wall time, making the two libraries "
              "included, is given beside it.", "",
              "| figure | value |", "| --- | ---: |",
              f"| matching time, median of {len(runs)} (min – max) | {s:.3f} s "
              f"({min(r['seconds'] for r in runs):.3f} – {max(r['seconds'] for r in runs):.3f} s) |",
              f"| process wall time, median | {median([r['process_s'] for r in runs]):.2f} s |",
              f"| matched by ISRC / by title / unmatched | {last.get('by_isrc', 'n/a')} / "
              f"{last.get('by_title', 'n/a')} / {last.get('unmatched', 'n/a')} |",
              f"| target | ≤ {MATCH_TARGET_S:g} s: {'met' if s <= MATCH_TARGET_S else '**missed**'} |", ""]
    return L


if __name__ == "__main__":
    import tempfile

    tmp = Path(tempfile.mkdtemp(prefix="refrain-bench-spotify."))
    binary = Path(os.environ.get("REFRAIN_BIN") or REPO / ".build" / "release" / "refrain")
    bench = Path(os.environ.get("REFRAIN_BENCH_BIN") or REPO / ".build" / "release" / "refrain-bench")
    ctx = {"bin": binary, "tmp": tmp,
           "bench_bin": bench if bench.is_file() and os.access(bench, os.X_OK) else None}
    try:
        out = run(ctx, quick="--quick" in sys.argv)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if "--markdown" in sys.argv:
        def _cmdline(argv) -> str:
            return " ".join(str(a).replace(str(REPO) + "/", "") for a in argv)
        print("\n".join(["| # | figure | Refrain | reference | target | vs target |",
                         "| --- | --- | --- | --- | --- | --- |"] + summary_rows(out) + [""] + sections(out, _cmdline)))
    else:
        print(json.dumps(out, indent=1, default=str))
