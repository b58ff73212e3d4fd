"""Two people in a listening room hear the same moment of the track, within 20 ms.

Two `refrain room join --output pulse` members, each on a PulseAudio server of its own
(the suite's, and a second private one started here), follow one `refrain room serve`
sharing steps.mp3 (second k sounds 300 + 50·k Hz). One member starts the track, the other
later seeks it. Each null sink's monitor is recorded, and every change of tone both
members played, from 2 s after the start or the seek, is found in both recordings and
compared on the one monotonic clock: how far apart the two listeners heard the track
pass the same second. That is what "in sync" means to a room's users, measured from the
sound and not from what the members report.

Targets (docs/rooms.md): median ≤ 20 ms, worst ≤ 50 ms. The measurement itself is in
scripts/room_sync.py, shared with `make bench` (section 15).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts"))

import room_sync  # noqa: E402

# Runs alone (scripts/e2e): it measures two members against each other on the sink's clock.
pytestmark = pytest.mark.serial

MEDIAN_MS = 20.0
WORST_MS = 50.0


def test_two_members_on_two_sound_servers_hear_the_same_second_after_a_start_and_a_seek(
        refrain_bin, pulse, fixtures_dir, tmp_path):
    plan = [room_sync.Action("start", "A", 0.0),       # A starts the track from 0
            room_sync.Action("seek", "B", 12.3)]       # B moves it to 0:12.3
    result = room_sync.measure(refrain_bin, tmp_path / "sync", plan, settle=2.0, dwell=6.5, log=print)
    print(room_sync.describe(result))
    for m in result.matches:
        action = plan[m.action]
        print(f"  {action.kind} by {action.by}: second {m.step}: A − B {m.error_ms:+.2f} ms"
              + ("" if m.fit is not None else " (to ~5 ms)"))

    for kind in ("start", "seek"):
        stats = result.stats(kind)
        assert stats["n"] >= 3, (f"only {stats['n']} tone changes after the {kind} were heard by both members; "
                                 f"heard by one only: {result.unmatched}")
    stats = result.stats()
    assert stats["median"] <= MEDIAN_MS, f"members are {stats['median']:.1f} ms apart (median); target ≤ {MEDIAN_MS} ms"
    assert stats["max"] <= WORST_MS, f"members were up to {stats['max']:.1f} ms apart; target ≤ {WORST_MS} ms"
