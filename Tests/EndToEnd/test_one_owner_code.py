"""One owner, checked in the source: what a front end may not do does not appear in it.

- The presenter (playback and the queue) lives in RefrainSession and nothing outside it
  names it or its mutating methods.
- There is no `editLibrary`: library edits are commands.
- There is no `JSONSerialization`: every JSON message is `Codable`.
- There is one `SessionHost`, and every front end (the full-screen player, `refrain play`,
  `refrain room join`) runs on it.
- No type is over 800 lines, counting every extension of it (issue 34); `App` is at most
  900 and `Session` at most 400.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "Sources"


def swift_files(under: Path = SOURCES) -> list[Path]:
    return sorted(under.rglob("*.swift"))


def code(path: Path) -> str:
    """The file without its comments, so a doc comment that names a thing is not a use."""
    text = path.read_text()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return "\n".join(line.split("//", 1)[0] for line in text.split("\n"))


def uses(pattern: str, files: list[Path]) -> list[str]:
    found = []
    for path in files:
        for number, line in enumerate(code(path).split("\n"), 1):
            if re.search(pattern, line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    return found


def outside_session() -> list[Path]:
    return [p for p in swift_files() if "RefrainSession" not in p.parts]


def test_no_front_end_reaches_the_presenter_or_the_queue_it_owns():
    presenter = uses(r"\bPlaybackPresenter\b|\bsession\.playback\b", outside_session())
    assert not presenter, "\n".join(presenter)
    # The presenter itself is internal to RefrainSession.
    declaration = (SOURCES / "RefrainSession" / "Playback" / "PlaybackPresenter.swift").read_text()
    assert re.search(r"^final class PlaybackPresenter\b", declaration, flags=re.M), \
        "PlaybackPresenter is visible outside RefrainSession"
    session = (SOURCES / "RefrainSession" / "Session.swift").read_text()
    assert re.search(r"^  let playback: PlaybackPresenter", session, flags=re.M), \
        "Session.playback is visible outside RefrainSession"


def test_library_edits_are_commands():
    assert not uses(r"\beditLibrary\b", swift_files())


def test_every_json_message_is_codable():
    found = uses(r"\bJSONSerialization\b|\[String: Any\]", swift_files())
    assert not found, "\n".join(found)


def test_one_host_runs_every_front_end():
    hosts = uses(r"^\s*(final )?class SessionHost\b", swift_files())
    assert len(hosts) == 1, hosts
    front_ends = {p.name for p in swift_files() if re.search(r"class \w+: SessionFrontEnd", code(p))}
    assert front_ends == {"MainLoop.swift", "HeadlessSession.swift", "HeadlessRoomMember.swift"}, front_ends
    # No front end builds a poll loop of its own: the host's is the only one.
    loops = uses(r"PollLoop\(\)", swift_files())
    assert [line.split(":")[0] for line in loops] == ["Sources/refrain/Host/SessionHost.swift"], loops


# What front ends may call on the session: reads, `execute` and `answer` (every change), and
# what the host runs (events, the inbox, the room's link, saving and restoring, closing).
SESSION_API = {
    # changes: every one is a Command
    "execute", "answer", "announceFailure",
    # reads
    "snapshot", "queue", "status", "statusJSON", "lyricsTimeline", "lyricsDocument",
    "lyricOffsetMs", "seekCount", "lyricLineChange", "nextLyricChange", "lyricsNotice", "sync",
    "browsing", "room", "catalogKeepsPlaylists", "catalogTrack", "libraryAvailable",
    "libraryCallsPending", "publishQuestion", "nextWake", "wakeFileDescriptor",
    # browsing: loads what the panes show, changes nothing that plays or is stored
    "loadHome", "search", "loadDetail", "readDetail", "loadTracks", "readTracks",
    "refreshLibrary", "refreshServerLists",
    # the host's
    "subscribe", "drainInbox", "handlePlayerEvents", "readRoom", "checkRoom", "saveSession",
    "restoreSession", "waitForLibrary", "close",
    # set once while a front end is built
    "catalog", "describe", "lyricsCache", "roomJoiner", "libraryImport", "lyricsPublisher",
    "publishingUnavailable",
}


def test_the_session_changes_only_through_commands():
    """The session's public methods and properties are the reads above plus `execute` and
    `answer`: a new public mutator fails here until it is a Command."""
    folder = SOURCES / "RefrainSession"
    files = [folder / "Session.swift", *folder.glob("Session+*.swift")]
    declared = set()
    for path in files:
        for match in re.finditer(r"^  public (?:internal\(set\) )?(?:func|var) `?(\w+)", code(path), flags=re.M):
            declared.add(match.group(1))
    assert declared <= SESSION_API, f"public session members that are not commands or reads: {declared - SESSION_API}"
    assert {"execute", "answer"} <= declared


# A type's or an extension's first line: its attributes and modifiers, the kind, the name.
DECLARATION = re.compile(
    r"^(?:@\w+(?:\([^)]*\))?\s+)*"
    r"(?:public |package |internal |private |fileprivate |final |nonisolated |indirect )*"
    r"(struct|class|enum|actor|extension|protocol)\s+([A-Za-z_][\w.]*)"
)


def type_sizes() -> Counter:
    """Lines per type: each top-level declaration or extension of it, from its first line to
    the `}` at the start of a line that closes it (or to the next declaration)."""
    sizes: Counter = Counter()
    for path in swift_files():
        lines = path.read_text().splitlines()
        current, start = None, 0
        for index, line in enumerate(lines):
            found = DECLARATION.match(line)
            if found:
                if current:
                    sizes[current] += index - start
                kind, name = found.groups()
                current = name.split(".")[0] if kind == "extension" else name
                start = index
            elif line.startswith("}") and current:
                sizes[current] += index + 1 - start
                current = None
        if current:
            sizes[current] += len(lines) - start
    return sizes


def test_no_type_is_over_800_lines():
    sizes = type_sizes()
    limits = {"App": 900, "Session": 400}
    over = [
        f"{name}: {size} lines (at most {limits.get(name, 800)})"
        for name, size in sizes.most_common()
        if size > limits.get(name, 800)
    ]
    assert not over, "\n".join(over)
