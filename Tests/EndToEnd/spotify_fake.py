"""A local fake of Spotify's accounts service, the Spotify Web API and Refrain's preview
catalog (Deezer-shaped), for Refrain's end-to-end tests and benchmarks.

One threaded `http.server` on 127.0.0.1 serves three roots:

  /authorize, /api/token      the accounts service (PKCE authorization code flow)
  /v1/...                     the Web API: /me, /me/playlists, /playlists/{id}/items,
                              /me/tracks, /me/albums, /albums/{id}/tracks, /albums/{id},
                              /tracks/{id}, /playlists/{id}
  /deezer/track/isrc:CODE     the preview catalog (and /deezer/track/ID)
  /media/preview-ID.mp3       a real 3 s MP3 (byte ranges supported)

The library is built from the responses recorded in /work/shared/fixtures/spotify, with
deterministic extra tracks (unique IDs and ISRCs) so that paging is exercised; there is no
randomness. Responses keep Spotify's shapes: paging objects with `limit` (default 20,
max 50), `offset`, `total` and absolute `next`/`previous` URLs that point at this server.
An album's track list holds simplified tracks, without `album` and `external_ids` (no ISRC).
Playlist entries carry the track both as `item` (the 2026 name) and `track` (deprecated);
`/playlists/{id}/tracks` answers 403, as Spotify does for development-mode apps.

As a script it prints one JSON line with its URLs and serves until SIGTERM:

    python3 spotify_fake.py --liked 600 --latency-ms 50
    python3 spotify_fake.py --self-check     # the fake checked against a scripted client
"""

from __future__ import annotations

import argparse
import base64
import copy
import hashlib
import http.server
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Fixtures" / "ranges"))
from range_server import byte_range  # noqa: E402

FIXTURES = Path(os.environ.get("REFRAIN_SHARED_FIXTURES", "/work/shared/fixtures"))
SPOTIFY_API = "https://api.spotify.com/v1"
BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

FORBIDDEN = {"error": {"status": 403, "message": "Forbidden"}}
NOT_FOUND = {"error": {"status": 404, "message": "Resource not found"}}
NO_DATA = {"error": {"type": "DataException", "message": "no data", "code": 800}}
SCOPES = "playlist-read-private playlist-read-collaborative user-library-read"


def _fixture(name: str):
    return json.loads((FIXTURES / name).read_text())


def spotify_id(seed: str) -> str:
    """A 22-character base62 ID derived from `seed` (the same seed gives the same ID)."""
    n = int.from_bytes(hashlib.sha256(seed.encode()).digest(), "big")
    out = []
    for _ in range(22):
        n, r = divmod(n, 62)
        out.append(BASE62[r])
    return "".join(out)


def iso(ts: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))


def pkce_challenge(verifier: str) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()


class Request(NamedTuple):
    """One request the fake answered. `query` maps each parameter to its last value;
    `headers` has lower-case names; `body` is the decoded request body."""

    method: str
    path: str
    query: dict
    headers: dict
    body: str
    at: float        # time.monotonic() when it arrived
    status: int = 0  # filled in the log after answering


class SpotifyFake:
    """The fake services, started in a background thread on 127.0.0.1.

    Constructor arguments:
      client_id      the only client ID the accounts service accepts
      liked          number of Liked Songs (newest first)
      long_playlist  entries in "Another Playlist" (58 as in the recording: two pages at 50)
      long_album     tracks on the saved album "Long Player" (56: more than its embedded page)
      short_playlist entries in "Wizzlers Big Playlist"
      latency_ms     delay added to every request
      expires_in     lifetime of issued access tokens, seconds
      user           the /v1/me answer's id and display name
      port           0 = any free port
      preview_quota  (requests, seconds): more ISRC lookups than this in that window get
                     the catalog's "Quota limit exceeded" error (code 4, HTTP 200). The window
                     is 4.9 s rather than 5 s to allow for network jitter between Refrain's
                     clock and this server's.
    """

    def __init__(self, client_id: str = "refrain-test-client", liked: int = 20, long_playlist: int = 58,
                 long_album: int = 56, short_playlist: int = 8, latency_ms: float = 0,
                 expires_in: int = 3600, user: tuple[str, str] = ("mina", "Mina"), port: int = 0,
                 preview_quota: tuple[int, float] = (50, 4.9)):
        self.client_id = client_id
        self.latency_ms = latency_ms
        self.expires_in = expires_in
        self.user_id, self.user_name = user
        self.preview_quota = preview_quota
        self.lock = threading.RLock()
        # Accounts state
        self.deny_authorization = False      # /authorize redirects with error=access_denied
        self._codes: dict[str, dict] = {}    # code -> {redirect_uri, challenge, client_id, scope, used}
        self._access: dict[str, dict] = {}   # token -> {expires, expired, scope}
        self._refresh: dict[str, dict] = {}  # token -> {revoked, scope, client_id}
        self._counter = {"code": 0, "access": 0, "refresh": 0}
        self.pkce_verified = 0               # authorization_code grants whose verifier matched
        self.token_grants: list[dict] = []   # every POST /api/token form, in order
        # Faults
        self._faults: list[dict] = []        # {prefix, status, times, retry_after, body}
        self._withdrawn: dict[str, int] = {}
        # Log
        self.requests: list[Request] = []
        self.request_count = 0
        self.isrc_lookups: list[tuple[float, str]] = []   # (monotonic time, ISRC)
        # Preview catalog
        self._previews: dict[str, dict] = {}   # ISRC -> deezer track
        self._previews_by_id: dict[int, dict] = {}
        self._media_dir = Path(tempfile.mkdtemp(prefix="spotify-fake-"))
        self._mp3 = self._make_mp3()
        # Library
        self._seq = 0
        self._build_library(liked, long_playlist, long_album, short_playlist)
        # Server
        fake = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):
                pass

            def do_GET(self):
                fake._handle(self)

            def do_HEAD(self):
                fake._handle(self)

            def do_POST(self):
                fake._handle(self)

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.root = f"http://127.0.0.1:{self.port}"
        self.accounts_url = self.root
        self.api_url = self.root + "/v1"
        self.deezer_url = self.root + "/deezer/"
        self._thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        daemon=True)
        self._thread.start()

    # ------------------------------------------------------------ library data

    def make_track(self, title: str, artist: str = "The Fakes", duration_ms: int = 200000,
                   isrc: str | None = None, album: str = "Fake Singles", track_id: str | None = None,
                   album_id: str | None = None) -> dict:
        """A full Spotify track object (shape of track.json) with the given fields; the ID
        and ISRC are derived deterministically from a counter unless given."""
        with self.lock:
            self._seq += 1
            seq = self._seq
        t = copy.deepcopy(self._track_template)
        tid = track_id or spotify_id(f"track:{seq}:{title}:{artist}")
        aid = album_id or spotify_id(f"album:{album}:{artist}")
        arid = spotify_id(f"artist:{artist}")
        artist_obj = {"external_urls": {"spotify": f"https://open.spotify.com/artist/{arid}"},
                      "href": f"{SPOTIFY_API}/artists/{arid}", "id": arid, "name": artist,
                      "type": "artist", "uri": f"spotify:artist:{arid}"}
        t["artists"] = [artist_obj]
        t["album"].update({"artists": [copy.deepcopy(artist_obj)], "id": aid, "name": album,
                           "href": f"{SPOTIFY_API}/albums/{aid}", "uri": f"spotify:album:{aid}",
                           "external_urls": {"spotify": f"https://open.spotify.com/album/{aid}"}})
        t.update({"id": tid, "name": title, "duration_ms": int(duration_ms),
                  "external_ids": {"isrc": isrc or f"QZRFK{26 + seq // 100000:02d}{seq % 100000:05d}"},
                  "href": f"{SPOTIFY_API}/tracks/{tid}", "uri": f"spotify:track:{tid}",
                  "external_urls": {"spotify": f"https://open.spotify.com/track/{tid}"},
                  "preview_url": None, "track_number": 1, "disc_number": 1, "is_local": False})
        return t

    def _build_library(self, liked: int, long_playlist: int, long_album: int, short_playlist: int) -> None:
        self._track_template = _fixture("spotify/track.json")
        brightside = copy.deepcopy(self._track_template)
        brightside["is_local"] = False
        pl_fixture = _fixture("spotify/playlist_tracks.json")
        otra_vez = copy.deepcopy(pl_fixture["items"][0]["track"])
        otra_vez["is_local"] = False
        self._added_by = pl_fixture["items"][0]["added_by"]
        base = 1793491200  # 2026-11-01T00:00:00Z

        # Saved albums: "Long Player" (long_album tracks) and the recorded "She's So Unusual".
        self.albums: list[dict] = []
        long_artist = "The Fakes"
        long_id = spotify_id("album:Long Player")
        long_tracks = [self.make_track(f"Long Player Part {i + 1}", long_artist, 180000 + 1000 * i,
                                       album="Long Player", album_id=long_id) for i in range(long_album)]
        for i, t in enumerate(long_tracks):
            t["track_number"] = i + 1
        long_album_obj = copy.deepcopy(_fixture("spotify/album.json"))
        long_album_obj.update({"id": long_id, "name": "Long Player", "href": f"{SPOTIFY_API}/albums/{long_id}",
                               "uri": f"spotify:album:{long_id}", "release_date": "2026-03-01",
                               "release_date_precision": "day",
                               "external_ids": {"upc": "0000000000017"},
                               "artists": copy.deepcopy(long_tracks[0]["artists"]) if long_tracks else [],
                               "external_urls": {"spotify": f"https://open.spotify.com/album/{long_id}"}})
        unusual = _fixture("spotify/album.json")
        u_id = unusual["id"]
        u_artist = unusual["artists"][0]["name"]
        first = unusual["tracks"]["items"][0]
        u_tracks = []
        for i in range(unusual["tracks"]["total"]):
            if i == 0:
                t = self.make_track(first["name"], u_artist, first["duration_ms"], album=unusual["name"],
                                    track_id=first["id"], album_id=u_id, isrc="USSM18300001")
            else:
                t = self.make_track(f"{unusual['name']} Track {i + 1}", u_artist, 200000 + 3000 * i,
                                    album=unusual["name"], album_id=u_id)
            t["track_number"] = i + 1
            u_tracks.append(t)
        for album in (long_album_obj, unusual):
            album.pop("tracks", None)   # served from _album_tracks, paged
            album["total_tracks"] = len(long_tracks) if album is long_album_obj else len(u_tracks)
        self._album_tracks: dict[str, list[dict]] = {long_id: long_tracks, u_id: u_tracks}
        self._album_objs: dict[str, dict] = {long_id: long_album_obj, u_id: unusual}
        self.albums = [{"added_at": iso(base - 86400), "album": long_album_obj},
                       {"added_at": iso(base - 2 * 86400), "album": unusual}]

        # Playlists, from me_playlists.json.
        recorded = _fixture("spotify/me_playlists.json")["items"]
        self.playlists: list[dict] = []
        self._entries: dict[str, list[dict]] = {}
        # "Wizzlers Big Playlist": the recorded track, Mr. Brightside, a null entry, an
        # episode, then deterministic extra tracks.
        short: list[dict] = [self._entry(otra_vez, base - 3600), self._entry(brightside, base - 3500),
                             self._entry(None, base - 3400), self._episode_entry(base - 3300)]
        i = 0
        while len(short) < short_playlist:
            i += 1
            short.append(self._entry(self.make_track(f"Wizzler Extra {i}", "Wizzler Band", 190000 + 500 * i),
                                     base - 3300 + 10 * i))
        # "Another Playlist": a local file entry, the recorded track, then the long album's
        # tracks and extra tracks, long enough for two pages at limit 50.
        another: list[dict] = [self._local_entry(base - 7200), self._entry(otra_vez, base - 7100)]
        j = 0
        while len(another) < long_playlist:
            if j < len(long_tracks):
                another.append(self._entry(long_tracks[j], base - 7000 + j))
            else:
                another.append(self._entry(self.make_track(f"Another Extra {j + 1}", "Mate Band", 170000 + 700 * j),
                                           base - 7000 + j))
            j += 1
        for obj, entries in zip(recorded, (short, another)):
            pl = copy.deepcopy(obj)
            pid = pl["id"]
            pl["href"] = f"{SPOTIFY_API}/playlists/{pid}"
            pl["external_urls"] = {"spotify": f"https://open.spotify.com/playlist/{pid}"}
            pl["uri"] = f"spotify:playlist:{pid}"
            pl["description"] = ""
            pl["primary_color"] = None
            self.playlists.append(pl)
            self._entries[pid] = entries

        # Liked Songs: newest first; Mr. Brightside and a track of "Long Player" among them.
        self.liked: list[dict] = []
        for k in range(liked):
            if k == 1:
                t = brightside
            elif k == 2 and long_tracks:
                t = long_tracks[-1]
            else:
                t = self.make_track(f"Liked Song {k + 1}", f"Liked Artist {k % 7 + 1}", 150000 + 1000 * (k % 90))
            self.liked.append({"added_at": iso(base - 600 * (k + 1)), "track": t})

    def _entry(self, track: dict | None, ts: float) -> dict:
        return {"added_at": iso(ts), "added_by": copy.deepcopy(self._added_by), "is_local": False,
                "primary_color": None, "item": track, "track": track,
                "video_thumbnail": {"url": None}}

    def _episode_entry(self, ts: float) -> dict:
        eid = spotify_id("episode:1")
        episode = {"type": "episode", "id": eid, "name": "Fake Talk, Episode 1", "duration_ms": 1800000,
                   "href": f"{SPOTIFY_API}/episodes/{eid}", "uri": f"spotify:episode:{eid}",
                   "episode": True, "track": False, "explicit": False, "is_local": False,
                   "external_urls": {"spotify": f"https://open.spotify.com/episode/{eid}"},
                   "album": {"type": "show", "name": "Fake Talk", "id": spotify_id("show:1")},
                   "artists": [{"type": "show", "name": "Fake Talk", "id": spotify_id("show:1")}]}
        return self._entry(episode, ts)

    def _local_entry(self, ts: float) -> dict:
        local = {"type": "track", "id": None, "name": "Home Recording", "duration_ms": 123000,
                 "uri": "spotify:local:Someone:Tapes:Home+Recording:123", "href": None, "is_local": True,
                 "external_ids": {}, "external_urls": {}, "popularity": 0, "preview_url": None,
                 "album": {"type": "album", "name": "Tapes", "id": None, "artists": [], "images": []},
                 "artists": [{"type": "artist", "name": "Someone", "id": None, "href": None, "uri": None}]}
        entry = self._entry(local, ts)
        entry["is_local"] = True
        return entry

    # Views for tests

    def playlist_entries(self, playlist_id: str) -> list[dict]:
        """The raw entries of a playlist, in Spotify order (tracks and non-tracks)."""
        return self._entries[playlist_id]

    @staticmethod
    def is_track_entry(entry: dict) -> bool:
        t = entry.get("item") or entry.get("track")
        return bool(t) and t.get("type") == "track" and not entry.get("is_local") and not t.get("is_local") \
            and bool(t.get("id"))

    def playlist_track_ids(self, playlist_id: str) -> list[str]:
        """The Spotify track IDs of a playlist in order, without episodes, local files and null items."""
        return [e["item"]["id"] for e in self._entries[playlist_id] if self.is_track_entry(e)]

    def skipped_entries(self, playlist_id: str) -> list[dict]:
        return [e for e in self._entries[playlist_id] if not self.is_track_entry(e)]

    def liked_ids(self) -> list[str]:
        return [x["track"]["id"] for x in self.liked]

    def album_ids(self) -> list[str]:
        return [x["album"]["id"] for x in self.albums]

    def album_track_ids(self, album_id: str) -> list[str]:
        return [t["id"] for t in self._album_tracks[album_id]]

    def long_album_id(self) -> str:
        return max(self._album_tracks, key=lambda a: len(self._album_tracks[a]))

    def all_tracks(self) -> dict[str, dict]:
        """Every distinct track Refrain should import, by ID."""
        out: dict[str, dict] = {}
        for pl in self.playlists:
            for e in self._entries[pl["id"]]:
                if self.is_track_entry(e):
                    out.setdefault(e["item"]["id"], e["item"])
        for x in self.liked:
            out.setdefault(x["track"]["id"], x["track"])
        for a in self.albums:
            for t in self._album_tracks[a["album"]["id"]]:
                out.setdefault(t["id"], t)
        return out

    def expected_summary(self) -> dict:
        """Counts an import of the whole library reports, before matching."""
        return {"playlists": len(self.playlists), "tracks": len(self.all_tracks()), "albums": len(self.albums)}

    def add_liked(self, track: dict, first: bool = True, added_at: str | None = None) -> dict:
        """Adds a track to Liked Songs: as the newest (first=True) or the oldest."""
        with self.lock:
            if first:
                newest = self.liked[0]["added_at"] if self.liked else iso(1793491200)
                stamp = added_at or iso(_parse_iso(newest) + 60)
                self.liked.insert(0, {"added_at": stamp, "track": track})
            else:
                oldest = self.liked[-1]["added_at"] if self.liked else iso(1793491200)
                stamp = added_at or iso(_parse_iso(oldest) - 60)
                self.liked.append({"added_at": stamp, "track": track})
        return track

    def add_saved_album(self, name: str, tracks: list[dict], first: bool = True) -> dict:
        """Adds a saved album whose track list is `tracks` (full track objects made with
        `make_track(..., album=name, album_id=ID)`): as the newest saved album (first=True)
        or the oldest. Returns the album object."""
        aid = tracks[0]["album"]["id"]
        album = copy.deepcopy(_fixture("spotify/album.json"))
        album.pop("tracks", None)
        album.update({"id": aid, "name": name, "href": f"{SPOTIFY_API}/albums/{aid}",
                      "uri": f"spotify:album:{aid}", "release_date": "2026-05-01",
                      "release_date_precision": "day", "total_tracks": len(tracks),
                      "artists": copy.deepcopy(tracks[0]["artists"]),
                      "images": copy.deepcopy(tracks[0]["album"].get("images", [])),
                      "external_urls": {"spotify": f"https://open.spotify.com/album/{aid}"}})
        with self.lock:
            self._album_tracks[aid] = tracks
            self._album_objs[aid] = album
            if first:
                newest = self.albums[0]["added_at"] if self.albums else iso(1793491200)
                self.albums.insert(0, {"added_at": iso(_parse_iso(newest) + 60), "album": album})
            else:
                oldest = self.albums[-1]["added_at"] if self.albums else iso(1793491200)
                self.albums.append({"added_at": iso(_parse_iso(oldest) - 60), "album": album})
        return album

    def add_preview(self, isrc: str, title: str = "Preview Song", artist: str = "Preview Artist",
                    album: str = "Preview Album", duration: int = 30, deezer_id: int | None = None) -> int:
        """Registers a preview-catalog track for `isrc`; returns its catalog ID."""
        with self.lock:
            did = deezer_id or 900000000 + len(self._previews_by_id) + 1
            rec = {"id": did, "isrc": isrc.upper(), "title": title, "artist": artist, "album": album,
                   "duration": duration}
            self._previews[isrc.upper()] = rec
            self._previews_by_id[did] = rec
        return did

    # ------------------------------------------------------------ accounts and faults

    def issued_tokens(self) -> list[str]:
        """Every access and refresh token handed out so far."""
        with self.lock:
            return list(self._access) + list(self._refresh)

    def current_refresh_tokens(self) -> list[str]:
        with self.lock:
            return [t for t, r in self._refresh.items() if not r["revoked"]]

    def revoke_refresh_tokens(self) -> None:
        with self.lock:
            for r in self._refresh.values():
                r["revoked"] = True

    def expire_access_tokens(self) -> None:
        with self.lock:
            for a in self._access.values():
                a["expired"] = True

    def issue_tokens(self, scope: str = SCOPES) -> dict:
        """Tokens as if a login had happened (for tests that start logged in)."""
        with self.lock:
            return self._new_tokens(scope, self.client_id)

    def fail(self, path_prefix: str, status: int, times: int = 1, retry_after: float | None = None,
             body: dict | None = None) -> None:
        """The next `times` requests whose path starts with `path_prefix` get `status`."""
        with self.lock:
            self._faults.append({"prefix": path_prefix, "status": status, "times": times,
                                 "retry_after": retry_after, "body": body})

    def withdraw(self, path_prefix: str, status: int = 403) -> None:
        """Every request under `path_prefix` gets 403 (or 404) from now on, as when Spotify
        withdraws an endpoint from development-mode apps."""
        with self.lock:
            self._withdrawn[path_prefix] = status

    def requests_to(self, path_prefix: str, method: str | None = None) -> list[Request]:
        with self.lock:
            return [r for r in self.requests if r.path.startswith(path_prefix)
                    and (method is None or r.method == method)]

    def max_isrc_lookups_in(self, window: float = 5.0) -> int:
        """The most preview-catalog ISRC lookups seen in any `window` seconds."""
        with self.lock:
            times = sorted(t for t, _ in self.isrc_lookups)
        best, lo = 0, 0
        for hi, t in enumerate(times):
            while times[lo] <= t - window:
                lo += 1
            best = max(best, hi - lo + 1)
        return best

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        shutil.rmtree(self._media_dir, ignore_errors=True)

    # ------------------------------------------------------------ serving

    def _handle(self, h: http.server.BaseHTTPRequestHandler) -> None:
        split = urllib.parse.urlsplit(h.path)
        path = urllib.parse.unquote(split.path)
        query = dict(urllib.parse.parse_qsl(split.query, keep_blank_values=True))
        length = int(h.headers.get("Content-Length") or 0)
        body = h.rfile.read(length).decode("utf-8", errors="replace") if length else ""
        req = Request(h.command, path, query, {k.lower(): v for k, v in h.headers.items()}, body,
                      time.monotonic())
        with self.lock:
            self.request_count += 1
            index = len(self.requests)
            self.requests.append(req)
        if self.latency_ms:
            time.sleep(self.latency_ms / 1000.0)
        try:
            status, headers, payload = self._route(h, req, split.query)
        except Exception as e:  # a bug in the fake shows as a 500 with the reason
            status, headers, payload = 500, {}, json.dumps({"error": {"status": 500, "message": repr(e)}})
        with self.lock:
            self.requests[index] = req._replace(status=status)
        if isinstance(payload, (dict, list)):
            payload = json.dumps(payload)
        if isinstance(payload, str):
            payload = payload.replace(SPOTIFY_API, self.api_url).encode()
            headers.setdefault("Content-Type", "application/json; charset=utf-8")
        h.send_response(status)
        for k, v in headers.items():
            h.send_header(k, v)
        h.send_header("Content-Length", str(len(payload)))
        h.end_headers()
        if h.command != "HEAD":
            try:
                h.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):
                pass

    def _route(self, h, req: Request, raw_query: str):
        path = req.path
        if path.startswith("/media/"):
            return self._media(h, path)
        with self.lock:
            for prefix, status in self._withdrawn.items():
                if path.startswith(prefix):
                    return status, {}, FORBIDDEN if status == 403 else NOT_FOUND
            for f in self._faults:
                if f["times"] > 0 and path.startswith(f["prefix"]):
                    f["times"] -= 1
                    headers = {}
                    body = f["body"]
                    if f["status"] == 429:
                        headers["Retry-After"] = str(f["retry_after"] if f["retry_after"] is not None else 1)
                        body = body or _fixture("spotify/error_429_quota_exceeded.json")
                    elif f["retry_after"] is not None:
                        headers["Retry-After"] = str(f["retry_after"])
                    if body is None:
                        body = {"error": {"status": f["status"], "message": {
                            403: "Forbidden", 404: "Resource not found", 500: "Server error",
                            502: "Bad gateway", 503: "Service unavailable"}.get(f["status"], "Error")}}
                    return f["status"], headers, body
        if path == "/authorize":
            return self._authorize(req)
        if path == "/api/token":
            return self._token(req)
        if path.startswith("/deezer/"):
            return self._deezer(req)
        if path.startswith("/v1/"):
            return self._api(req, raw_query)
        return 404, {}, NOT_FOUND

    # Accounts

    def _authorize(self, req: Request):
        q = req.query

        def page(msg: str):
            return 400, {"Content-Type": "text/html; charset=utf-8"}, \
                f"<!DOCTYPE html><html><body><h1>Oops! Something went wrong</h1><p>{msg}</p></body></html>"

        if req.method != "GET":
            return 405, {}, {"error": {"status": 405, "message": "Method not allowed"}}
        if q.get("client_id") != self.client_id:
            return page("INVALID_CLIENT: Invalid client")
        redirect = q.get("redirect_uri", "")
        if not redirect.startswith("http://127.0.0.1:"):
            return page("INVALID_CLIENT: Invalid redirect URI")
        if q.get("response_type") != "code":
            return page("unsupported_response_type: response_type must be code")
        if q.get("code_challenge_method") != "S256" or not q.get("code_challenge"):
            return page("invalid_request: code_challenge_method must be S256 with a code_challenge")
        sep = "&" if "?" in redirect else "?"
        state = q.get("state")
        if self.deny_authorization:
            params = {"error": "access_denied"}
        else:
            with self.lock:
                self._counter["code"] += 1
                code = f"code-{self._counter['code']}"
                self._codes[code] = {"redirect_uri": redirect, "challenge": q["code_challenge"],
                                     "client_id": q["client_id"], "scope": q.get("scope", ""), "used": False}
            params = {"code": code}
        if state is not None:
            params["state"] = state
        location = redirect + sep + urllib.parse.urlencode(params)
        return 302, {"Location": location, "Content-Type": "text/html; charset=utf-8"}, \
            f'<html><body>Redirecting to <a href="{location}">{location}</a></body></html>'

    def _new_tokens(self, scope: str, client_id: str) -> dict:
        self._counter["access"] += 1
        self._counter["refresh"] += 1
        access = f"access-{self._counter['access']}"
        refresh = f"refresh-{self._counter['refresh']}"
        self._access[access] = {"expires": time.time() + self.expires_in, "expired": False, "scope": scope}
        self._refresh[refresh] = {"revoked": False, "scope": scope, "client_id": client_id}
        answer = copy.deepcopy(_fixture("spotify/token_authorization_code.json"))
        answer.update({"access_token": access, "token_type": "Bearer", "scope": scope,
                       "expires_in": self.expires_in, "refresh_token": refresh})
        return answer

    def _token(self, req: Request):
        def error(code: str, desc: str, status: int = 400):
            return status, {}, {"error": code, "error_description": desc}

        if req.method != "POST":
            return 405, {}, {"error": {"status": 405, "message": "Method not allowed"}}
        ctype = req.headers.get("content-type", "")
        if "application/x-www-form-urlencoded" not in ctype:
            return error("invalid_request", "Content-Type must be application/x-www-form-urlencoded")
        form = dict(urllib.parse.parse_qsl(req.body, keep_blank_values=True))
        with self.lock:
            self.token_grants.append(form)
            if form.get("client_id") != self.client_id:
                return 400, {}, _fixture("spotify/token_error_invalid_client.json")
            grant = form.get("grant_type")
            if grant == "authorization_code":
                code = self._codes.get(form.get("code", ""))
                if code is None or code["used"]:
                    return error("invalid_grant", "Invalid authorization code")
                code["used"] = True
                if form.get("redirect_uri") != code["redirect_uri"]:
                    return error("invalid_grant", "Invalid redirect URI")
                verifier = form.get("code_verifier", "")
                if not re.fullmatch(r"[A-Za-z0-9._~-]{43,128}", verifier) \
                        or pkce_challenge(verifier) != code["challenge"]:
                    return error("invalid_grant", "code_verifier was incorrect")
                self.pkce_verified += 1
                return 200, {}, self._new_tokens(code["scope"], self.client_id)
            if grant == "refresh_token":
                old = self._refresh.get(form.get("refresh_token", ""))
                if old is None:
                    return error("invalid_grant", "Invalid refresh token")
                if old["revoked"]:
                    return error("invalid_grant", "Refresh token revoked")
                old["revoked"] = True
                answer = self._new_tokens(old["scope"], self.client_id)
                return 200, {}, answer
            return error("unsupported_grant_type", f"grant_type must be authorization_code or refresh_token")

    # Web API

    def _auth(self, req: Request):
        header = req.headers.get("authorization", "")
        if not header.startswith("Bearer "):
            return {"error": {"status": 401, "message": "No token provided"}}
        with self.lock:
            token = self._access.get(header[len("Bearer "):])
            if token is None:
                return {"error": {"status": 401, "message": "Invalid access token"}}
            if token["expired"] or time.time() >= token["expires"]:
                return _fixture("spotify/error_401_token_expired.json")
        return None

    def _api(self, req: Request, raw_query: str):
        problem = self._auth(req)
        if problem is not None:
            return 401, {"WWW-Authenticate": 'Bearer realm="spotify", error="invalid_token", '
                                             f'error_description="{problem["error"]["message"]}"'}, problem
        if req.method != "GET":
            return 405, {}, {"error": {"status": 405, "message": "Method not allowed"}}
        path = req.path[len("/v1"):].rstrip("/")
        if path == "/me":
            return 200, {}, {"id": self.user_id, "display_name": self.user_name, "type": "user",
                             "uri": f"spotify:user:{self.user_id}", "href": f"{SPOTIFY_API}/users/{self.user_id}",
                             "external_urls": {"spotify": f"https://open.spotify.com/user/{self.user_id}"},
                             "followers": {"href": None, "total": 3}, "images": []}
        if path == "/me/playlists":
            with self.lock:
                items = [self._playlist_summary(p) for p in self.playlists]
            return self._page(req, path, items)
        if path == "/me/tracks":
            with self.lock:
                items = [dict(x) for x in self.liked]
            return self._page(req, path, items)
        if path == "/me/albums":
            with self.lock:
                items = [{"added_at": x["added_at"], "album": self._album_full(x["album"]["id"])}
                         for x in self.albums]
            return self._page(req, path, items)
        m = re.fullmatch(r"/playlists/([^/]+)(/items|/tracks)?", path)
        if m:
            pid, sub = m.group(1), m.group(2)
            if pid not in self._entries:
                return 404, {}, {"error": {"status": 404, "message": "Resource not found"}}
            if sub == "/tracks":
                return 403, {}, FORBIDDEN
            if sub == "/items":
                return self._page(req, path, list(self._entries[pid]))
            pl = next(p for p in self.playlists if p["id"] == pid)
            full = self._playlist_summary(pl)
            status, _, page = self._page(req._replace(query={"limit": "100"}), path + "/items",
                                         list(self._entries[pid]), max_limit=100)
            full["items"] = page
            full["tracks"] = page
            return 200, {}, full
        m = re.fullmatch(r"/albums/([^/]+)(/tracks)?", path)
        if m:
            aid = m.group(1)
            if aid not in self._album_tracks:
                return 404, {}, {"error": {"status": 404, "message": "Resource not found"}}
            if m.group(2):
                return self._page(req, path, [self._simplified(t) for t in self._album_tracks[aid]])
            return 200, {}, self._album_full(aid)
        m = re.fullmatch(r"/tracks/([^/]+)", path)
        if m:
            t = self.all_tracks().get(m.group(1))
            if t is None:
                return 404, {}, {"error": {"status": 404, "message": "Resource not found"}}
            return 200, {}, t
        return 404, {}, {"error": {"status": 404, "message": "Service not found"}}

    def _playlist_summary(self, pl: dict) -> dict:
        out = copy.deepcopy(pl)
        pid = pl["id"]
        total = len(self._entries[pid])
        out["tracks"] = {"href": f"{SPOTIFY_API}/playlists/{pid}/tracks", "total": total}
        out["items"] = {"href": f"{SPOTIFY_API}/playlists/{pid}/items", "total": total}
        out["snapshot_id"] = self.snapshot_id(pid)
        return out

    def snapshot_id(self, playlist_id: str) -> str:
        """Changes whenever the playlist's entries change, like Spotify's snapshot_id."""
        content = json.dumps([[(e.get("item") or {}).get("id"), (e.get("item") or {}).get("uri"), e["added_at"]]
                              for e in self._entries[playlist_id]])
        return base64.b64encode(hashlib.sha256(content.encode()).digest()).decode()

    @staticmethod
    def _simplified(t: dict) -> dict:
        """A track as an album's track list gives it: Spotify's simplified track object,
        without `album`, `popularity` and `external_ids` (so without the ISRC)."""
        return {k: v for k, v in t.items() if k not in ("album", "popularity", "external_ids")}

    def _album_full(self, aid: str) -> dict:
        album = copy.deepcopy(self._album_objs[aid])
        tracks = [self._simplified(t) for t in self._album_tracks[aid]]
        href = f"{SPOTIFY_API}/albums/{aid}/tracks"
        album["tracks"] = self._paging(href, tracks, 0, 50, {})
        album["total_tracks"] = len(tracks)
        return album

    def _page(self, req: Request, path: str, items: list, max_limit: int = 50):
        try:
            limit = int(req.query.get("limit", "20"))
            offset = int(req.query.get("offset", "0"))
        except ValueError:
            return 400, {}, {"error": {"status": 400, "message": "Invalid limit or offset"}}
        if limit < 1 or limit > max_limit:
            return 400, {}, {"error": {"status": 400, "message": "Invalid limit"}}
        if offset < 0:
            return 400, {}, {"error": {"status": 400, "message": "Invalid offset"}}
        extra = {k: v for k, v in req.query.items() if k not in ("limit", "offset")}
        return 200, {}, self._paging(SPOTIFY_API + path, items, offset, limit, extra)

    @staticmethod
    def _paging(href: str, items: list, offset: int, limit: int, extra: dict) -> dict:
        def url(off: int) -> str:
            return href + "?" + urllib.parse.urlencode({"offset": off, "limit": limit, **extra})

        total = len(items)
        return {"href": url(offset), "items": items[offset:offset + limit], "limit": limit,
                "next": url(offset + limit) if offset + limit < total else None,
                "offset": offset, "previous": url(max(0, offset - limit)) if offset > 0 else None,
                "total": total}

    # Preview catalog

    def _deezer(self, req: Request):
        m = re.fullmatch(r"/deezer/track/(isrc:([A-Za-z0-9]+)|(\d+))", req.path)
        if not m:
            return 404, {}, {"error": "Not Found"}
        if m.group(2) is not None:
            isrc = m.group(2).upper()
            now = time.monotonic()
            with self.lock:
                self.isrc_lookups.append((now, isrc))
                limit, window = self.preview_quota
                recent = sum(1 for t, _ in self.isrc_lookups if t > now - window)
                if recent > limit:
                    return 200, {}, _fixture("deezer/errors/quota_exceeded_4.http200.json")
                rec = self._previews.get(isrc)
        else:
            with self.lock:
                rec = self._previews_by_id.get(int(m.group(3)))
        if rec is None:
            return 200, {}, NO_DATA
        return 200, {}, self._deezer_track(rec)

    def _deezer_track(self, rec: dict) -> dict:
        t = _fixture("deezer/track_3135556.json")
        did = rec["id"]
        stamp = int(time.time())
        artist_id = 700000 + sum(map(ord, rec["artist"]))
        album_id = 800000 + sum(map(ord, rec["album"]))
        t.update({"id": did, "title": rec["title"], "title_short": rec["title"], "isrc": rec["isrc"],
                  "link": f"https://www.deezer.com/track/{did}",
                  "share": f"https://www.deezer.com/track/{did}?utm_source=deezer&utm_content=track-{did}"
                           f"&utm_term=0_{stamp}&utm_medium=web",
                  "duration": rec["duration"],
                  "preview": f"{self.root}/media/preview-{did}.mp3"})
        for a in [t["artist"], *t["contributors"]]:
            a.update({"id": artist_id, "name": rec["artist"], "link": f"https://www.deezer.com/artist/{artist_id}",
                      "tracklist": f"https://api.deezer.com/artist/{artist_id}/top?limit=50"})
        t["album"].update({"id": album_id, "title": rec["album"], "link": f"https://www.deezer.com/album/{album_id}",
                           "tracklist": f"https://api.deezer.com/album/{album_id}/tracks"})
        return t

    # Media

    def _make_mp3(self) -> bytes:
        wav = self._media_dir / "f.wav"
        mp3 = self._media_dir / "f.mp3"
        subprocess.run(["sox", "-n", "-r", "44100", "-c", "2", str(wav), "synth", "3", "sine", "440"],
                       check=True, timeout=60, capture_output=True)
        subprocess.run(["lame", "--quiet", "-b", "128", str(wav), str(mp3)], check=True, timeout=60,
                       capture_output=True)
        return mp3.read_bytes()

    def _media(self, h, path: str):
        if not re.fullmatch(r"/media/preview-\d+\.mp3", path):
            return 404, {"Content-Type": "text/plain"}, b"not found\n"
        data = self._mp3
        headers = {"Content-Type": "audio/mpeg", "Accept-Ranges": "bytes"}
        status, start, end = byte_range(h.headers.get("Range"), len(data))
        if status == 416:
            headers["Content-Range"] = f"bytes */{len(data)}"
            return 416, headers, b""
        if status == 206:
            headers["Content-Range"] = f"bytes {start}-{end - 1}/{len(data)}"
            return 206, headers, data[start:end]
        return 200, headers, data


def _parse_iso(s: str) -> float:
    import calendar
    return calendar.timegm(time.strptime(s, "%Y-%m-%dT%H:%M:%SZ"))


def self_check() -> None:
    """Plays a client against the fake: PKCE login, paging, rotation, faults, the catalog."""
    import urllib.error
    import urllib.request

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *a, **k):
            return None

    def call(url, token=None, data=None, headers=None):
        h = dict(headers or {})
        if token:
            h["Authorization"] = "Bearer " + token
        req = urllib.request.Request(url, data=data, headers=h)
        try:
            with urllib.request.build_opener(NoRedirect).open(req) as r:
                return r.status, r.headers, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.headers, e.read()

    fake = SpotifyFake(liked=120)
    try:
        verifier = "v" * 64
        redirect = "http://127.0.0.1:8974/callback"
        q = urllib.parse.urlencode({"client_id": fake.client_id, "response_type": "code", "redirect_uri": redirect,
                                    "code_challenge_method": "S256", "code_challenge": pkce_challenge(verifier),
                                    "state": "s1", "scope": SCOPES})
        status, headers, _ = call(f"{fake.accounts_url}/authorize?{q}")
        assert status == 302, status
        back = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(headers["Location"]).query))
        assert back["state"] == "s1"

        def token(form):
            st, _, body = call(fake.accounts_url + "/api/token", data=urllib.parse.urlencode(form).encode())
            return st, json.loads(body)

        grant = {"grant_type": "authorization_code", "code": back["code"], "redirect_uri": redirect,
                 "client_id": fake.client_id}
        assert token({**grant, "code_verifier": "w" * 64})[0] == 400            # wrong verifier
        assert token({**grant, "code_verifier": verifier})[1]["error"] == "invalid_grant"   # code used up
        status, headers, _ = call(f"{fake.accounts_url}/authorize?{q}")
        grant["code"] = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(headers["Location"]).query))["code"]
        st, tok = token({**grant, "code_verifier": verifier})
        assert st == 200 and tok["access_token"] == "access-1" and tok["refresh_token"] == "refresh-1", tok
        access = tok["access_token"]

        def get(url):
            st, hd, body = call(url, token=access)
            return st, hd, json.loads(body) if body else None

        assert get(fake.api_url + "/me")[2]["display_name"] == "Mina"
        for pl in get(fake.api_url + "/me/playlists?limit=50")[2]["items"]:
            assert get(pl["tracks"]["href"])[0] == 403
            url, ids = pl["items"]["href"] + "?limit=50", []
            while url:
                st, _, page = get(url)
                assert st == 200 and page["limit"] == 50
                ids += [e["item"]["id"] for e in page["items"] if SpotifyFake.is_track_entry(e)]
                url = page["next"]
            assert ids == fake.playlist_track_ids(pl["id"])
        url, liked = fake.api_url + "/me/tracks?limit=50", []
        while url:
            page = get(url)[2]
            liked += [x["track"]["id"] for x in page["items"]]
            url = page["next"]
        assert liked == fake.liked_ids() and len(liked) == 120
        albums = get(fake.api_url + "/me/albums?limit=50")[2]["items"]
        long_album = next(a["album"] for a in albums if a["album"]["tracks"]["next"])
        rest = get(long_album["tracks"]["next"])[2]
        assert [t["id"] for t in long_album["tracks"]["items"] + rest["items"]] == \
            fake.album_track_ids(long_album["id"])
        assert get(fake.api_url + "/me/tracks?limit=51")[0] == 400

        st, rotated = token({"grant_type": "refresh_token", "refresh_token": "refresh-1", "client_id": fake.client_id})
        assert st == 200 and rotated["refresh_token"] == "refresh-2"
        assert token({"grant_type": "refresh_token", "refresh_token": "refresh-1",
                      "client_id": fake.client_id})[1]["error_description"] == "Refresh token revoked"
        fake.expire_access_tokens()
        assert get(fake.api_url + "/me")[2]["error"]["message"] == "The access token expired"
        access = rotated["access_token"]
        assert get(fake.api_url + "/me")[0] == 401          # expired too: all tokens issued so far
        access = fake.issue_tokens()["access_token"]
        fake.fail("/v1/me/tracks", 429, retry_after=2)
        st, hd, body = get(fake.api_url + "/me/tracks")
        assert st == 429 and hd["Retry-After"] == "2" and get(fake.api_url + "/me/tracks")[0] == 200
        fake.withdraw("/v1/me/albums")
        assert get(fake.api_url + "/me/albums")[0] == 403

        did = fake.add_preview("GBDUW0000059", "Harder, Better, Faster, Stronger", "Daft Punk")
        st, _, body = call(fake.deezer_url + "track/isrc:GBDUW0000059")
        found = json.loads(body)
        assert st == 200 and found["id"] == did and found["preview"].endswith(f"/media/preview-{did}.mp3")
        assert json.loads(call(fake.deezer_url + "track/isrc:XX0000000000")[2]) == NO_DATA
        assert json.loads(call(fake.deezer_url + f"track/{did}")[2])["isrc"] == "GBDUW0000059"
        st, hd, body = call(found["preview"], headers={"Range": "bytes=0-9"})
        assert st == 206 and len(body) == 10 and hd["Content-Range"].startswith("bytes 0-9/")
        assert len(fake.isrc_lookups) == 2 and fake.max_isrc_lookups_in(5.0) == 2
    finally:
        fake.close()
    print("spotify_fake self-check: ok")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--liked", type=int, default=20, help="number of Liked Songs")
    ap.add_argument("--latency-ms", type=float, default=0, help="delay added to every request")
    ap.add_argument("--client-id", default="refrain-test-client")
    ap.add_argument("--expires-in", type=int, default=3600)
    ap.add_argument("--long-playlist", type=int, default=58)
    ap.add_argument("--long-album", type=int, default=56)
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--self-check", action="store_true", help="check the fake against a scripted client and exit")
    args = ap.parse_args(argv)
    if args.self_check:
        self_check()
        return 0
    fake = SpotifyFake(client_id=args.client_id, liked=args.liked, latency_ms=args.latency_ms,
                       expires_in=args.expires_in, long_playlist=args.long_playlist,
                       long_album=args.long_album, port=args.port)
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *a: done.set())
    signal.signal(signal.SIGINT, lambda *a: done.set())
    print(json.dumps({"port": fake.port, "accounts_url": fake.accounts_url, "api_url": fake.api_url,
                      "deezer_url": fake.deezer_url, "client_id": fake.client_id}), flush=True)
    while not done.wait(0.5):
        pass
    fake.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
