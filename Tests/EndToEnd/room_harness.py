"""The machinery behind the listening-room tests (test_room_server.py).

- `RoomServer` runs `refrain room serve` with its own XDG folders, reads the one
  `listening` line it prints, and stops it with SIGTERM.
- `FixedPortServer` is a `RoomServer` on one port (`free_port()`), so that its members
  find it again after it is killed and started anew.
- `Member` is a room member: a `websockets` sync client whose frames a background
  thread reads into a buffer, so a test can wait for "the next `state` where …"
  with a timeout and never hang. It answers every `heartbeat` with `alive`
  unless told not to.
- `RawMember` is a hand-written WebSocket client that sends `hello` and then
  neither reads nor writes anything: a member whose terminal froze.
- `JoinedMember` is a Refrain player in the room: `refrain room join … --events`, its
  JSON events read by a thread.
- `make_library` writes tagged MP3 files with sox and lame.

Everything follows docs/room-protocol.md and nothing else. All local times are
`time.monotonic()` seconds; the room clock is in milliseconds.
"""

from __future__ import annotations

import base64
import http.client
import json
import os
import queue
import re
import selectors
import signal
import socket
import subprocess
import threading
import time
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect as ws_connect

HEARTBEAT = "heartbeat"


# ---------------------------------------------------------------- the server

class RoomServer:
    """`refrain room serve --listen 127.0.0.1:0 --library DIR …` with its own XDG folders under `home`.

    A second RoomServer with the same `home` shares the token and the chat database.
    """

    def __init__(self, binary: Path, home: Path, libraries: list[Path], *, host_only: bool = False,
                 heartbeat: float | None = None, nofile: int | None = None,
                 extra_args: list[str] | None = None) -> None:
        self.binary = Path(binary)
        self.home = Path(home)
        self.libraries = [Path(p) for p in libraries]
        self.host_only = host_only
        self.heartbeat = heartbeat
        self.nofile = nofile              # soft and hard RLIMIT_NOFILE of the server, as `ulimit -n`
        self.extra_args = list(extra_args or [])
        self.proc: subprocess.Popen | None = None
        self.line: dict | None = None
        self.url = ""
        self.port = 0
        self.token = ""
        self.started_at = 0.0          # monotonic time just before the process was started
        self.more_stdout = b""
        self._starts = 0
        self._stderr_path: Path | None = None

    # -- environment

    @property
    def data_home(self) -> Path:
        return self.home / "data"

    @property
    def token_file(self) -> Path:
        return self.data_home / "refrain" / "room-token"

    def env(self) -> dict:
        for sub in ("data", "config", "state", "cache"):
            (self.home / sub).mkdir(parents=True, exist_ok=True)
        return dict(os.environ, LANG="C.UTF-8",
                    XDG_DATA_HOME=str(self.home / "data"), XDG_CONFIG_HOME=str(self.home / "config"),
                    XDG_STATE_HOME=str(self.home / "state"), XDG_CACHE_HOME=str(self.home / "cache"))

    def argv(self) -> list[str]:
        argv = [str(self.binary), "room", "serve", "--listen", "127.0.0.1:0"]
        for lib in self.libraries:
            argv += ["--library", str(lib)]
        if self.host_only:
            argv.append("--host-only")
        if self.heartbeat is not None:
            argv += ["--heartbeat", f"{self.heartbeat:g}"]
        return argv + self.extra_args

    # -- life

    def start(self, timeout: float = 30) -> dict:
        """Starts the server and returns its `listening` line (a dict)."""
        assert self.proc is None or self.proc.poll() is not None, "already running"
        self._starts += 1
        self._stderr_path = self.home / f"server-{self._starts}.err"
        self.home.mkdir(parents=True, exist_ok=True)
        env = self.env()
        self.started_at = time.monotonic()
        with open(self._stderr_path, "wb") as err:
            self.proc = subprocess.Popen(self.argv(), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                         stderr=err, env=env, preexec_fn=self._limit_descriptors)
        raw = self._read_line(timeout)
        try:
            line = json.loads(raw)
        except ValueError:
            raise AssertionError(f"the first stdout line is not JSON: {raw!r}") from None
        assert isinstance(line, dict), f"the listening line is not an object: {raw!r}"
        self.line = line
        self.url = str(line.get("url", ""))
        match = re.fullmatch(r"ws://127\.0\.0\.1:(\d+)", self.url)
        assert match, f"url {self.url!r} is not ws://127.0.0.1:PORT"
        self.port = int(match.group(1))
        self.token = line.get("token") if isinstance(line.get("token"), str) else ""
        threading.Thread(target=self._drain, args=(self.proc,), daemon=True).start()
        return line

    def _limit_descriptors(self) -> None:
        """In the child before exec: `ulimit -n` (soft and hard) when `nofile` is set."""
        if self.nofile is not None:
            import resource
            resource.setrlimit(resource.RLIMIT_NOFILE, (self.nofile, self.nofile))

    def _read_line(self, timeout: float) -> str:
        assert self.proc is not None and self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        buf = b""
        deadline = time.monotonic() + timeout
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while b"\n" not in buf:
                left = deadline - time.monotonic()
                if left <= 0:
                    self.kill()
                    raise AssertionError(f"no listening line within {timeout} s; stdout so far {buf!r}; "
                                         f"stderr: {self.stderr()[-2000:]}")
                if not sel.select(left):
                    continue
                chunk = os.read(fd, 4096)
                if not chunk:
                    code = self.proc.wait(5)
                    raise AssertionError(f"`{' '.join(self.argv())}` exited ({code}) before its listening line; "
                                         f"stdout {buf!r}; stderr: {self.stderr()[-2000:]}")
                buf += chunk
        first, _, rest = buf.partition(b"\n")
        self.more_stdout = rest
        return first.decode("utf-8", "replace")

    def _drain(self, proc: subprocess.Popen) -> None:
        try:
            while True:
                chunk = os.read(proc.stdout.fileno(), 4096)
                if not chunk:
                    return
                self.more_stdout += chunk
        except OSError:
            return

    def stderr(self) -> str:
        if self._stderr_path and self._stderr_path.exists():
            return self._stderr_path.read_text(errors="replace")
        return ""

    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self, timeout: float = 10) -> int:
        """SIGTERM; returns the exit status (fails if it does not exit in time)."""
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill()
                raise AssertionError(f"the server did not exit within {timeout} s of SIGTERM") from None
        return self.proc.returncode

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                pass

    # -- addresses

    def room_url(self, room: str, token: str | None = "default") -> str:
        """ws://…/rooms/ROOM[?token=…]; `room` is put in the path as given (quote it yourself)."""
        url = f"{self.url}/rooms/{room}"
        if token == "default":
            token = self.token
        if token is not None:
            url += "?token=" + urllib.parse.quote(token, safe="")
        return url

    def http(self, path: str, *, token: str | None = "default", headers: dict | None = None,
             method: str = "GET") -> tuple[int, dict, bytes]:
        """One HTTP request to the server; `path` is sent as given. Returns (status, headers, body)."""
        if token == "default":
            token = self.token
        if token is not None:
            path += ("&" if "?" in path else "?") + "token=" + urllib.parse.quote(token, safe="")
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            conn.request(method, path, headers=headers or {})
            response = conn.getresponse()
            body = response.read()
            return response.status, {k.lower(): v for k, v in response.getheaders()}, body
        finally:
            conn.close()


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class FixedPortServer(RoomServer):
    """A room server that always listens on the same port, so its members find it again."""

    def __init__(self, *args, port: int, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fixed_port = port

    def argv(self) -> list[str]:
        argv = super().argv()
        argv[argv.index("127.0.0.1:0")] = f"127.0.0.1:{self.fixed_port}"
        return argv


# ---------------------------------------------------------------- a member

def upgrade_status(url: str, headers: dict | None = None) -> tuple[int, bytes]:
    """Tries the WebSocket upgrade: (101, b"") when it succeeds, else (HTTP status, body)."""
    try:
        ws = ws_connect(url, additional_headers=headers, compression=None, proxy=None, ping_interval=None,
                        open_timeout=10, close_timeout=2)
    except InvalidStatus as refused:
        return refused.response.status_code, refused.response.body or b""
    ws.close()
    return 101, b""


class JoinedMember:
    """`refrain room join URL --output OUTPUT --events` (null unless told), its events read by a thread."""

    def __init__(self, binary: Path, home: Path, url: str, token: str, name: str,
                 extra_env: dict | None = None, output: str = "null") -> None:
        for sub in ("data", "config", "state", "cache"):
            (home / sub).mkdir(parents=True, exist_ok=True)
        env = dict(os.environ, LANG="C.UTF-8", XDG_DATA_HOME=str(home / "data"),
                   XDG_CONFIG_HOME=str(home / "config"), XDG_STATE_HOME=str(home / "state"),
                   XDG_CACHE_HOME=str(home / "cache"), REFRAIN_LRCLIB_URL="http://127.0.0.1:9",
                   REFRAIN_ROOM_TOKEN=token, **(extra_env or {}))
        self.proc = subprocess.Popen(
            [str(binary), "room", "join", url, "--name", name, "--output", output, "--events"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)
        self.events: queue.Queue = queue.Queue()
        self.seen: list[dict] = []
        self.stderr: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            try:
                self.events.put((time.monotonic(), json.loads(line)))
            except ValueError:
                self.events.put((time.monotonic(), {"event": "not-json", "line": line}))

    def _read_err(self) -> None:
        for line in self.proc.stderr:
            self.stderr.append(line)

    def send(self, command: str) -> None:
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()

    def wait(self, what: str, check=lambda e: True, timeout: float = 15) -> dict:
        """The next event named `what` that passes `check`."""
        return self.wait_timed(what, check, timeout)[1]

    def wait_timed(self, what: str, check=lambda e: True, timeout: float = 15) -> tuple[float, dict]:
        """(arrival time, event) of the next event named `what` that passes `check`."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                at, event = self.events.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                break
            self.seen.append(event)
            if event.get("event") == what and check(event):
                return at, event
        tail = [e.get("event") for e in self.seen[-15:]]
        raise AssertionError(f"no {what} event within {timeout} s; last events {tail}; "
                             f"stderr {''.join(self.stderr)[-500:]}")

    def position_now(self, timeout: float = 5) -> tuple[float, float]:
        """(arrival time, position) of the first `position` event that arrives from now on."""
        asked = time.monotonic()
        deadline = asked + timeout
        while time.monotonic() < deadline:
            try:
                at, event = self.events.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                break
            self.seen.append(event)
            if event.get("event") == "position" and at >= asked:
                return at, event["t"]
        raise AssertionError("no position event")

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.send("quit")
                self.proc.wait(5)
            except (BrokenPipeError, subprocess.TimeoutExpired, ValueError):
                self.proc.kill()
                self.proc.wait(5)


class Member:
    """A room member on a websockets sync connection.

    A background thread reads every frame into `buffer` (text frames parsed as JSON;
    a binary frame becomes {"type": "<binary>"}, bad JSON {"type": "<not json>"}) and,
    when `auto_alive`, answers each heartbeat with {"type":"alive"}. `log` keeps all
    (monotonic time, message) pairs.
    """

    def __init__(self, url: str, *, headers: dict | None = None, auto_alive: bool = True) -> None:
        self.url = url
        self.ws = ws_connect(url, additional_headers=headers, compression=None, proxy=None,
                             ping_interval=None, open_timeout=10, close_timeout=3, max_size=None)
        self.opened_at = time.monotonic()
        self.auto_alive = auto_alive
        self.buffer: list[tuple[float, dict]] = []
        self.log: list[tuple[float, dict]] = []
        self.skipped: list[dict] = []
        self.closed: ConnectionClosed | BaseException | None = None
        self.closed_at: float | None = None
        self.last_recv_at = 0.0        # monotonic time the last returned message arrived
        self.member_id: str | None = None
        self.name: str | None = None
        self.joined: dict | None = None
        self.offset: float | None = None  # room clock − member clock, ms
        self._cond = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    # -- the reader thread

    def _read(self) -> None:
        while True:
            try:
                frame = self.ws.recv()
            except BaseException as gone:  # ConnectionClosed, or anything else that ends the connection
                with self._cond:
                    self.closed = gone
                    self.closed_at = time.monotonic()
                    self._cond.notify_all()
                return
            now = time.monotonic()
            if isinstance(frame, bytes):
                message = {"type": "<binary>", "data": frame}
            else:
                try:
                    message = json.loads(frame)
                except ValueError:
                    message = {"type": "<not json>", "raw": frame}
                if not isinstance(message, dict):
                    message = {"type": "<not an object>", "raw": frame}
            if self.auto_alive and message.get("type") == HEARTBEAT:
                try:
                    self.ws.send('{"type":"alive"}')
                except BaseException:
                    pass
            with self._cond:
                self.buffer.append((now, message))
                self.log.append((now, message))
                self._cond.notify_all()

    # -- sending

    def send(self, obj: dict) -> None:
        self.ws.send(json.dumps(obj))

    def send_raw(self, data: str | bytes) -> None:
        self.ws.send(data)

    # -- receiving

    def _closed_text(self) -> str:
        return f"connection closed ({self.close_code()}: {self.closed!r})"

    def recv(self, timeout: float = 5, *, skip_heartbeats: bool = True) -> dict:
        """The next message in arrival order (heartbeats skipped unless asked)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                while self.buffer:
                    at, message = self.buffer.pop(0)
                    if skip_heartbeats and message.get("type") == HEARTBEAT:
                        continue
                    self.last_recv_at = at
                    return message
                if self.closed is not None:
                    raise AssertionError(f"waiting for a message: {self._closed_text()}")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no message within {timeout} s")
                self._cond.wait(left)

    def recv_type(self, kind: str, timeout: float = 5, where=None) -> dict:
        """The first buffered or arriving message of type `kind` (for which `where(msg)` holds).

        It is removed from the buffer; the messages passed over stay in the buffer (so a
        later wait can still find them) and are listed in `self.skipped`.
        """
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for index, (at, message) in enumerate(self.buffer):
                    if message.get("type") == kind and (where is None or where(message)):
                        self.skipped = [m for _, m in self.buffer[:index]]
                        del self.buffer[index]
                        self.last_recv_at = at
                        return message
                if self.closed is not None:
                    raise AssertionError(f"waiting for {kind!r}: {self._closed_text()}; "
                                         f"buffered: {self._pending()}")
                left = deadline - time.monotonic()
                if left <= 0:
                    self.skipped = [m for _, m in self.buffer]
                    raise AssertionError(f"no matching {kind!r} within {timeout} s; buffered: {self._pending()}")
                self._cond.wait(left)

    def _pending(self) -> list[dict]:
        return [m for _, m in self.buffer if m.get("type") != HEARTBEAT][-20:]

    def error(self, code: str, timeout: float = 5) -> dict:
        """The next `error` with this code."""
        return self.recv_type("error", timeout, where=lambda m: m.get("code") == code)

    def expect_none(self, kind: str, within: float, where=None) -> None:
        """Fails if a message of type `kind` (matching `where`) is buffered or arrives within `within` s."""
        time.sleep(within)
        with self._cond:
            found = [m for _, m in self.buffer if m.get("type") == kind and (where is None or where(m))]
        assert not found, f"unexpected {kind!r}: {found}"

    def discard(self) -> None:
        """Forgets every buffered message (they stay in `log`)."""
        with self._cond:
            self.buffer.clear()

    def buffered(self, kind: str | None = None) -> list[dict]:
        with self._cond:
            return [m for _, m in self.buffer if kind is None or m.get("type") == kind]

    # -- closing

    def close_code(self) -> int | None:
        if isinstance(self.closed, ConnectionClosed) and self.closed.rcvd is not None:
            return self.closed.rcvd.code
        return None

    def wait_closed(self, timeout: float = 5) -> int | None:
        """Waits until the server closes the connection; returns the close code it sent (None: no close frame)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self.closed is None:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"the connection is still open after {timeout} s; "
                                         f"buffered: {self._pending()}")
                self._cond.wait(left)
        return self.close_code()

    def is_open(self) -> bool:
        with self._cond:
            return self.closed is None

    def close(self) -> None:
        try:
            self.ws.close()
        except BaseException:
            pass
        self._reader.join(5)

    # -- protocol helpers

    def hello(self, name: str, protocol: int = 1, timeout: float = 5) -> dict:
        """Sends hello and returns {"welcome", "members", "queue", "state", "history"}, checking their order."""
        self.send({"type": "hello", "protocol": protocol, "name": name})
        got: dict = {}
        order = ["welcome", "members", "queue", "state", "history"]
        for kind in order:
            message = self.recv(timeout)
            assert message.get("type") == kind, (
                f"after hello expected {order} in that order; message {len(got) + 1} is {message!r}")
            got[kind] = message
        self.joined = got
        self.member_id = got["welcome"].get("member")
        self.name = name
        return got

    def time_request(self, ident: int, timeout: float = 5) -> tuple[float, float, float]:
        """One `time` exchange: returns (t0, server, t3), member times in ms."""
        t0 = round(time.monotonic() * 1000, 3)
        self.send({"type": "time", "id": ident, "t0": t0})
        echo = self.recv_type("time", timeout, where=lambda m: m.get("id") == ident)
        t3 = self.last_recv_at * 1000
        assert isinstance(echo.get("t0"), (int, float)) and abs(echo["t0"] - t0) < 1e-6, \
            f"t0 not echoed unchanged: sent {t0}, got {echo!r}"
        assert isinstance(echo.get("server"), (int, float)) and not isinstance(echo["server"], bool), \
            f"no room clock in {echo!r}"
        return t0, float(echo["server"]), t3

    def clock_offset(self, burst: int = 8, first_id: int = 1000) -> float:
        """Room clock − member clock (ms), NTP style: the mean of the 3 exchanges with the smallest round trip."""
        samples = []
        last_server = None
        for i in range(burst):
            t0, server, t3 = self.time_request(first_id + i)
            if last_server is not None:
                assert server >= last_server, f"the room clock went back: {last_server} then {server}"
            last_server = server
            samples.append((t3 - t0, server - (t0 + t3) / 2))
        best = sorted(samples)[:3]
        self.offset = sum(o for _, o in best) / len(best)
        return self.offset

    def room_time(self, local: float) -> float:
        """The room clock (ms) at monotonic time `local` (s), from the last clock_offset()."""
        assert self.offset is not None, "call clock_offset() first"
        return local * 1000 + self.offset


# ---------------------------------------------------------------- a frozen member

class RawMember:
    """A WebSocket client written by hand: it upgrades, sends text frames when told, and
    otherwise does nothing at all (it never reads, so it never answers a heartbeat)."""

    def __init__(self, url: str, timeout: float = 10) -> None:
        parts = urllib.parse.urlsplit(url)
        assert parts.scheme == "ws"
        self.sock = socket.create_connection((parts.hostname, parts.port), timeout=timeout)
        target = parts.path + (("?" + parts.query) if parts.query else "")
        key = base64.b64encode(os.urandom(16)).decode()
        request = (f"GET {target} HTTP/1.1\r\nHost: {parts.hostname}:{parts.port}\r\n"
                   f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                   f"Sec-WebSocket-Version: 13\r\n\r\n")
        self.sock.sendall(request.encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            assert chunk, f"the server closed during the upgrade: {head!r}"
            head += chunk
        status = head.split(b"\r\n", 1)[0]
        assert b" 101 " in status + b" ", f"upgrade refused: {status!r}"

    def send_text(self, text: str) -> None:
        payload = text.encode()
        mask = os.urandom(4)
        header = bytearray([0x81])
        n = len(payload)
        if n < 126:
            header.append(0x80 | n)
        elif n < 65536:
            header.append(0x80 | 126)
            header += n.to_bytes(2, "big")
        else:
            header.append(0x80 | 127)
            header += n.to_bytes(8, "big")
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(bytes(header) + mask + masked)

    def send(self, obj: dict) -> None:
        self.send_text(json.dumps(obj))

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass


# ---------------------------------------------------------------- a library

@dataclass
class Track:
    path: str          # relative to the library folder, "/"-separated
    title: str
    artist: str
    album: str
    seconds: float
    frequency: int = 440


def make_mp3(out: Path, track: Track, work: Path) -> Path:
    """A sine tone of `track.seconds` s as a CBR MP3 with an ID3v2 tag (sox, lame)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    work.mkdir(parents=True, exist_ok=True)
    wav = work / f"tone-{abs(hash((track.path, track.title))) & 0xFFFFFF:x}.wav"
    subprocess.run(["sox", "-D", "-n", "-r", "44100", "-c", "2", "-b", "16", str(wav), "synth",
                    f"{track.seconds:g}", "sine", str(track.frequency), "vol", "0.3"], check=True, timeout=60)
    subprocess.run(["lame", "--quiet", "--cbr", "-b", "64", "--add-id3v2", "--tt", track.title,
                    "--ta", track.artist, "--tl", track.album, str(wav), str(out)], check=True, timeout=120)
    wav.unlink()
    return out


def make_library(folder: Path, tracks: list[Track]) -> Path:
    """Writes each track at folder/track.path; returns folder."""
    folder.mkdir(parents=True, exist_ok=True)
    work = folder.parent / (folder.name + "-work")
    for track in tracks:
        make_mp3(folder / track.path, track, work)
    try:
        work.rmdir()
    except OSError:
        pass
    return folder
