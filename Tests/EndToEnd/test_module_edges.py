"""The module graph, as the binaries show it: refrain-room (listening rooms) links no audio
output, no decoder library and no online service (docs/architecture.md, "Module edges").

The rooms binary reads tags through RefrainTags, which is pure Swift over RefrainCore; a
dependency on RefrainAudio, RefrainCatalog or a service module would bring these libraries
(and their symbols) back, and this test names the one that came.
"""
import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

# The shared libraries of the player's audio side: the sound server, every decoder, the
# resampler and the loudness meter of `refrain scan --replaygain`.
FORBIDDEN_LIBRARIES = ("libpulse", "libmpg123", "libFLAC", "libvorbisfile", "libopusfile", "libfaad",
                       "libebur128", "libsoxr")
# Their function prefixes: linked statically or not, none may be referenced.
FORBIDDEN_SYMBOLS = ("mpg123_", "pa_", "FLAC__")


@pytest.fixture(scope="module")
def room_bin() -> Path:
    """$REFRAIN_ROOM_BIN, else <repo>/.build/debug/refrain-room."""
    path = Path(os.environ.get("REFRAIN_ROOM_BIN") or REPO / ".build" / "debug" / "refrain-room")
    if not (path.is_file() and os.access(path, os.X_OK)):
        pytest.fail(f"no refrain-room binary at {path}: build it (swift build) or set REFRAIN_ROOM_BIN",
                    pytrace=False)
    return path


def test_refrain_room_links_no_audio_or_decoder_library(room_bin):
    ldd = subprocess.run(["ldd", str(room_bin)], capture_output=True, text=True, timeout=60, check=True)
    linked = [line.split()[0] for line in ldd.stdout.splitlines() if line.strip()]
    found = [name for name in linked if name.startswith(FORBIDDEN_LIBRARIES)]
    assert found == [], f"refrain-room links {found}: a module it depends on imports an audio library"


def test_refrain_room_references_no_audio_or_decoder_symbol(room_bin):
    # Defined and undefined symbols alike (`nm` of a debug build, then the dynamic table).
    symbols = set()
    for args in (["nm", "--defined-only"], ["nm", "-u"], ["nm", "-D"]):
        run = subprocess.run([*args, str(room_bin)], capture_output=True, text=True, timeout=120)
        symbols.update(line.split()[-1] for line in run.stdout.splitlines() if line.split())
    found = sorted(name for name in symbols if name.startswith(FORBIDDEN_SYMBOLS))
    assert found == [], f"refrain-room references {found[:10]} ({len(found)} in all)"
