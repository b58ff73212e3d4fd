"""`refrain subsonic` and `--provider subsonic` against supysonic, a real Subsonic server.

supysonic 0.7.9 takes only passwords (API 1.12), so the `token` port puts a thin token
layer in front of it (subsonic_server.py); the `bare` port is supysonic alone, and the
`opensubsonic` port adds a recorded-response fake of the OpenSubsonic endpoints it lacks
(`apiKey` logins), built from the OpenSubsonic documentation.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import stat
import subprocess
from pathlib import Path

import pytest

from subsonic_harness import API_KEY, MUSIC, PASSWORD, USER, SubsonicServer


@pytest.fixture(scope="module")
def supysonic(tmp_path_factory):
    server = SubsonicServer(tmp_path_factory.mktemp("supysonic")).start()
    yield server
    server.stop()


def subsonic(refrain, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    """Runs `refrain subsonic ARGS…` in the test's own XDG folders."""
    return subprocess.run([str(refrain.binary), "subsonic", *args], env=refrain.env,
                          cwd=str(refrain.home), input=stdin, capture_output=True, text=True,
                          timeout=60)


def login(refrain, server: SubsonicServer, kind: str = "token", secret: str = PASSWORD,
          *extra: str) -> subprocess.CompletedProcess:
    return subsonic(refrain, "login", server.url(kind), "--user", USER, "--password-stdin",
                    *extra, stdin=secret + "\n")


def account_file(refrain) -> Path:
    return Path(refrain.env["XDG_DATA_HOME"]) / "refrain" / "subsonic.json"


def one_line(run: subprocess.CompletedProcess) -> str:
    """The failure's single line, stdout and stderr together; the exit status is an error's
    and not the usage error's (64)."""
    lines = [ln for ln in (run.stdout + run.stderr).splitlines() if ln.strip()]
    assert len(lines) == 1, f"expected one line, got:\n{run.stdout}{run.stderr}"
    assert run.returncode not in (0, 64), run.returncode
    return lines[0]


def files_under(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file()]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---------------------------------------------------------------- logging in

def test_login_stores_a_token_for_the_user_only_and_never_the_password(refrain, supysonic):
    before = len(supysonic.requests())
    run = login(refrain, supysonic)
    assert run.returncode == 0, run.stderr
    port = supysonic.ports["token"]
    assert run.stdout.strip() == f"Logged in to 127.0.0.1:{port} as {USER} (token, API 1.12.0)."
    path = account_file(refrain)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    stored = json.loads(path.read_text())
    assert stored["user"] == USER and stored["server"] == supysonic.url()
    assert stored["token"] == hashlib.md5((PASSWORD + stored["salt"]).encode()).hexdigest()
    assert isinstance(stored["salt"], str) and len(stored["salt"]) >= 6
    # The password is written nowhere: not in the file, not in a log, not in any other file.
    for file in files_under(refrain.home):
        assert PASSWORD.encode() not in file.read_bytes(), file
    # The login was checked with the very token it stored, and `p=` never went out.
    assert supysonic.requests()[before:] == [
        "token getOpenSubsonicExtensions.view token", "token ping.view token"]


def test_status_shows_server_user_version_and_extensions_and_logout_forgets(refrain, supysonic):
    assert login(refrain, supysonic).returncode == 0
    status = json.loads(subsonic(refrain, "status", "--json").stdout)
    assert status == {"server": f"127.0.0.1:{supysonic.ports['token']}", "url": supysonic.url(),
                      "user": USER, "api_version": "1.12.0", "extensions": [], "auth": "token"}
    text = subsonic(refrain, "status").stdout
    assert f"server: 127.0.0.1:{supysonic.ports['token']}\n" in text
    assert "api version: 1.12.0\n" in text and "extensions: none\n" in text
    out = subsonic(refrain, "logout")
    assert out.returncode == 0 and "Logged out" in out.stdout
    assert not account_file(refrain).exists()
    assert "not logged in" in one_line(subsonic(refrain, "status"))


def test_a_wrong_password_is_one_plain_line_and_writes_no_file(refrain, supysonic):
    line = one_line(login(refrain, supysonic, "token", "not the password"))
    assert line == "refrain subsonic: wrong user name or password: the server did not accept them"
    assert not account_file(refrain).exists()


def test_a_server_that_takes_only_the_password_is_refused(refrain, supysonic):
    before = len(supysonic.requests())
    line = one_line(login(refrain, supysonic, "bare"))
    assert "takes only the plain password" in line and "storing the password" in line
    assert not account_file(refrain).exists()
    # Decided by trying the token, never by sending the password.
    assert supysonic.requests()[before:] == [
        "bare getOpenSubsonicExtensions.view token", "bare ping.view token"]


def test_an_unreachable_server_is_one_line(refrain):
    run = subsonic(refrain, "login", f"http://127.0.0.1:{free_port()}", "--user", USER,
                   "--password-stdin", stdin=PASSWORD + "\n")
    assert "could not reach the server" in one_line(run)
    assert not account_file(refrain).exists()


def test_plain_http_beyond_this_machine_is_refused_before_the_password_is_read(refrain):
    run = subsonic(refrain, "login", "http://192.0.2.7:4533", "--user", USER)
    line = one_line(run)
    assert "refusing to log in over plain http:// to 192.0.2.7" in line and "--insecure" in line
    assert not account_file(refrain).exists()


def test_without_a_terminal_or_stdin_flag_it_says_how_to_pipe_the_password(refrain, supysonic):
    run = subprocess.run([str(refrain.binary), "subsonic", "login", supysonic.url(), "--user", USER],
                         env=refrain.env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                         timeout=30, start_new_session=True)
    assert "--password-stdin" in one_line(run)


def test_an_api_key_is_preferred_when_the_server_offers_it(refrain, supysonic):
    before = len(supysonic.requests())
    run = login(refrain, supysonic, "opensubsonic", API_KEY)
    assert run.returncode == 0, run.stderr
    assert "(apikey," in run.stdout
    stored = json.loads(account_file(refrain).read_text())
    assert stored["api_key"] == API_KEY and "token" not in stored and "salt" not in stored
    assert stored["extensions"] == ["apiKeyAuthentication", "songLyrics"]
    assert supysonic.requests()[before:] == [
        "opensubsonic getOpenSubsonicExtensions.view token", "opensubsonic ping.view apikey"]
    status = json.loads(subsonic(refrain, "status", "--json").stdout)
    assert status["auth"] == "apikey" and "apiKeyAuthentication" in status["extensions"]
    assert API_KEY not in json.dumps(status)


def test_a_password_on_an_api_key_server_logs_in_with_a_token(refrain, supysonic):
    run = login(refrain, supysonic, "opensubsonic", PASSWORD)
    assert run.returncode == 0, run.stderr
    assert "token" in json.loads(account_file(refrain).read_text())
